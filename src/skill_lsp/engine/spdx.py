"""SPDX license identifiers, loaded once on first use."""

from __future__ import annotations

import os
from functools import lru_cache


@lru_cache(maxsize=1)
def ids() -> tuple[str, ...]:
    try:  # beside this module (importlib.resources, for a zipped package, costs pathlib and more)
        with open(os.path.join(os.path.dirname(__file__), "data", "spdx.txt"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        from importlib import resources  # noqa: PLC0415

        text = resources.files("skill_lsp.engine").joinpath("data/spdx.txt").read_text("utf-8")
    return tuple(line for line in text.splitlines() if line and not line.startswith("#"))


# The ids nearly every skill names (MIT is 98 % of the licenses in the corpus and the held-out tune
# half): answered without reading the list (tests/engine/test_spdx.py holds them to it).
COMMON = frozenset({"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "MIT-0", "MPL-2.0", "Unlicense",
                    "CC0-1.0", "CC-BY-4.0", "GPL-3.0-only"})


@lru_cache(maxsize=1)
def _exact() -> frozenset[str]:
    return frozenset(ids())


@lru_cache(maxsize=1)
def _lower() -> frozenset[str]:
    return frozenset(i.lower() for i in ids())


def is_spdx(identifier: str) -> bool:
    """SPDX ids match case-insensitively; `LicenseRef-*` and a trailing `+` are allowed."""
    ident = identifier.strip()
    if ident in COMMON or ident.startswith("LicenseRef-") or ident in _exact():
        return True  # as SPDX spells it: the common case, without lowering the whole list
    return ident.lower() in _lower() or ident.rstrip("+").lower() in _lower()
