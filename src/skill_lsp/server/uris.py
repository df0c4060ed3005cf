"""file: URIs <-> paths, without touching the file system."""

from __future__ import annotations

import os
from urllib.parse import quote, unquote, urlparse


def uri_to_path(uri: str) -> str | None:
    """The local path of a file: URI, or None for any other scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
        path = path[1:]
    return os.path.normpath(path) if path else None


def path_to_uri(path: str) -> str:
    p = path.replace(os.sep, "/")
    if not p.startswith("/"):
        p = "/" + p
    return "file://" + quote(p, safe="/:@!$&'()*+,;=-._~")


def is_skill_file(uri: str) -> bool:
    """SKILL.md / skill.md by exact name, whatever the language id or scheme."""
    name = uri.rstrip("/").rsplit("/", 1)[-1]
    name = unquote(name.split("?", 1)[0].split("#", 1)[0])
    return name in ("SKILL.md", "skill.md")
