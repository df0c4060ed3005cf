"""Shared fixtures. ``tests/`` is on sys.path here, so test modules can ``import helpers``."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from helpers import write_skill  # noqa: E402

try:
    from lsprotocol import types as _lsp
    from pytest_lsp.client import LanguageClient, default_feature

    @default_feature(_lsp.WORKSPACE_CODE_LENS_REFRESH)
    def _code_lens_refresh(client: LanguageClient, params: None) -> None:
        """The test clients declare VS Code's capabilities, refreshSupport for code lenses among
        them, and answer the request as VS Code does; the count lets a test see it was sent."""
        client.code_lens_refresh_count = getattr(client, "code_lens_refresh_count", 0) + 1
except ImportError:  # the tests that need no language client run without pytest-lsp
    pass


@pytest.fixture(scope="session", autouse=True)
def result_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Servers and checks the tests start keep their result cache here, not in ~/.cache."""
    home = tmp_path_factory.mktemp("result-cache")
    os.environ["SKILL_LSP_CACHE_DIR"] = str(home)
    return home


@pytest.fixture
def make_skill(tmp_path: Path) -> Callable[..., Path]:
    """``make_skill(folder, text, root=".agents/skills")`` writes ``tmp_path/root/folder/SKILL.md``."""

    def make(folder: str, text: str | bytes, root: str = ".agents/skills", filename: str = "SKILL.md") -> Path:
        return write_skill(tmp_path / root, folder, text, filename)

    return make


@pytest.fixture
def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0
