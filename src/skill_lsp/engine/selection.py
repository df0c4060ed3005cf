"""Which rule codes a run reports: `select`, `extend-select`, `ignore` and `per-file-ignores`.

Ruff's semantics, for codes that are words. A *selector* is a code (`NAME_MISMATCH`), a
prefix of whole words (`NAME` or `NAME_`: every code that starts with `NAME_`), or `ALL`.
Each source of settings (config file, editor, command line) is one layer, applied in order:
a layer's `select` replaces the set so far, its `extend-select` adds, its `ignore` removes;
inside a layer a code matched both ways goes with the more specific selector (a code over a
prefix, a longer prefix over a shorter one, anything over `ALL`), and a tie is ignored.
"""

from __future__ import annotations

from functools import lru_cache

from . import pathglobs
from .findings import RULES

ALL = "ALL"
_EXACT = 10_000

# (select or None when the layer does not set it, extend-select, ignore)
Layer = tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]


@lru_cache(maxsize=1)
def prefixes() -> tuple[str, ...]:
    """Every whole-word prefix of a code, without its trailing underscore (`NAME`, `UNKNOWN`)."""
    out = set()
    for code in RULES:
        words = code.split("_")
        for i in range(1, len(words)):
            out.add("_".join(words[:i]))
    return tuple(sorted(out))


@lru_cache(maxsize=1)
def selectors() -> tuple[str, ...]:
    """Every valid selector: ALL, the codes, and each prefix written both ways."""
    return (ALL, *sorted(RULES), *sorted(p + s for p in prefixes() for s in ("", "_")))


def specificity(selector: str, code: str) -> int:
    """How specifically ``selector`` names ``code`` (-1: it does not)."""
    if selector == ALL:
        return 0
    stem = selector.rstrip("_")
    if code == stem:
        return _EXACT
    if code.startswith(stem + "_"):
        return len(stem)
    return -1


def parse(value: object) -> tuple[str, ...]:
    """A list of selectors; ValueError naming the first unknown one."""
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        items = list(value)
    else:
        raise ValueError("expected a list of rule codes or prefixes")
    out: list[str] = []
    for raw in items:
        s = raw.strip()
        if not s:
            continue
        if s != ALL and not any(specificity(s, code) >= 0 for code in RULES):
            hint = f" (codes are upper case: '{s.upper()}')" if s.upper() != s and s.upper() in selectors() else ""
            raise ValueError(f"unknown rule code or prefix '{s}'{hint}")
        if s not in out:
            out.append(s)
    return tuple(out)


def codes_of(selectors_: tuple[str, ...]) -> frozenset[str]:
    return frozenset(code for code in RULES if any(specificity(s, code) >= 0 for s in selectors_))


@lru_cache(maxsize=64)
def enabled(layers: tuple[Layer, ...]) -> frozenset[str]:
    """The codes reported after applying every layer in order (no layer: every code)."""
    on = set(RULES)
    for select, extend, ignore in layers:
        enables = (select or ()) + extend
        for code in RULES:
            e = max((specificity(s, code) for s in enables), default=-1)
            d = max((specificity(s, code) for s in ignore), default=-1)
            if e < 0 and d < 0:
                if select is not None:
                    on.discard(code)  # `select` replaces the set: what it does not name is off
            elif e > d:
                on.add(code)
            else:
                on.discard(code)
    return frozenset(on)


@lru_cache(maxsize=4096)
def ignored_in(path: str, per_file: tuple[tuple[pathglobs.Anchored, tuple[str, ...]], ...]) -> frozenset[str]:
    """Codes `per-file-ignores` turns off for the SKILL.md at ``path``."""
    out: set[str] = set()
    for pattern, sels in per_file:
        if pathglobs.matches(path, pathglobs.compile_all((pattern,))):
            out |= codes_of(sels)
    return frozenset(out)
