"""What differs from run to run in a capture, and nothing else, replaced by a token."""

from __future__ import annotations

import re
from pathlib import Path

WORKSPACE_TOKEN = "<workspace>"
HOME_TOKEN = "<home>"
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_SESSION = re.compile(r"\bses_[0-9A-Za-z]{20,}\b")
_DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
#: OpenCode saves a cut tool result as `tool_` + 12 hex digits (time) + 14 random letters.
_SAVED = re.compile(r"\btool_[0-9a-f]{12}[0-9A-Za-z]{14}\b")


def normalise(text: str, workspace: Path, home: Path) -> str:
    """Replace only the workspace path, the home folder, session ids, dates and the name OpenCode
    saves a cut tool result under (skill-lsp's preview writes it `tool_<id>`)."""
    for path, token in ((workspace, WORKSPACE_TOKEN), (home, HOME_TOKEN)):
        for form in sorted({str(path.resolve()), str(path)}, key=len, reverse=True):
            text = text.replace(form, token)
    text = _UUID.sub("<session-id>", text)
    text = _SESSION.sub("<session-id>", text)
    text = _SAVED.sub("tool_<id>", text)
    return _DATE.sub("<date>", text)
