"""Regular expressions compiled on first use.

``re.compile`` runs the pure-Python parser and compiler: the engine's ~190 module-level patterns
cost a one-skill ``check`` more CPU than the rest of its start-up, and most are only needed by
text that has what they look for (a link, a fence, a script path). ``lazy_re`` returns a stand-in
that compiles the pattern the first time one of its methods is asked for, then keeps the compiled
pattern's bound methods in its slots, so later calls cost what a compiled pattern's do.
A long-lived process (the server between keystrokes, a process pool's parent before it forks)
compiles them all ahead with ``compile_all()`` (``rules.load_steps``). What ``re`` compiles is
kept between runs (``regexcache``).
"""

from __future__ import annotations

import re

from . import regexcache

_METHODS = ("match", "search", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


_MADE: list[_LazyPattern] = []


class _LazyPattern:
    __slots__ = ("pattern", "_flags", "_compiled", *_METHODS)
    pattern: str | bytes
    _flags: int
    _compiled: re.Pattern[str] | re.Pattern[bytes] | None

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled = None
        _MADE.append(self)

    def __getattr__(self, name: str) -> object:
        # Reached only while a slot is unset: compile once, fill the method slots.
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = regexcache.compile(self.pattern, self._flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_re({self.pattern!r}, {self._flags!r})"


def lazy_re(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when first used (``pattern`` is there at once)."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]


def lazy_bytes_re(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """``lazy_re`` of a bytes pattern."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]


def compile_all(part: int = 0, parts: int = 1) -> None:
    """Compile the patterns made so far (by the modules imported until now); with ``parts``, only
    every ``parts``-th from ``part`` on, so a server can do it in short steps between keystrokes."""
    for lazy in _MADE[part::parts]:
        if lazy._compiled is None:
            lazy.match  # noqa: B018 - the first method asked for compiles it
