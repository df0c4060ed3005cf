"""The capture rig (see README.md); the drivers and endpoint are in ``skill_lsp.capture``."""

import sys
from pathlib import Path

try:
    import skill_lsp.capture  # noqa: F401
except ImportError:  # a plain checkout without `pip install -e .`: the package from src/
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
