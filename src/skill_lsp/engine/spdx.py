"""SPDX license identifiers, loaded once on first use."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def ids() -> tuple[str, ...]:
    text = resources.files("skill_lsp.engine").joinpath("data/spdx.txt").read_text("utf-8")
    return tuple(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def _lower() -> frozenset[str]:
    return frozenset(i.lower() for i in ids())


def is_spdx(identifier: str) -> bool:
    """SPDX ids match case-insensitively; `LicenseRef-*` and a trailing `+` are allowed."""
    ident = identifier.strip()
    if ident.startswith("LicenseRef-"):
        return True
    return ident.lower() in _lower() or ident.rstrip("+").lower() in _lower()
