"""Compiled regular expressions kept between runs.

``re.compile`` parses and compiles a pattern in pure Python, 20-250 us each: the 30 or so a
one-skill ``check`` asks for cost it about 1.7 ms of its 27. What ``re`` hands Python's regex
engine for a pattern (``_sre.compile``: a list of ints, the group count and names) is fixed for
one Python build, so a run keeps it in the user's cache folder and later runs hand it to the
engine directly; the engine validates the code as it does any pattern's. Kept: the patterns the
engine declares (``lazy_re``) and the one discovery builds from the sensitive-folder globs (the
same for nearly every workspace); a file grown past ``MAX_ENTRIES`` keeps one process's only.

The file is named for the Python release and regex engine version (``sys.implementation.cache_tag``,
``sys.hexversion``, ``_sre.MAGIC``, ``_sre.CODESIZE``) and read only as ``cachedir.open_private`` allows; anything
unexpected in it (another shape, code the engine refuses, an internal function that moved in a
later Python) means ``re.compile`` as before.
"""

from __future__ import annotations

import _sre
import re
import sys

from .cachedir import cache_file, read_marshal, write_marshal

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

FORMAT = 2
# More entries than the engine declares (about 200) means patterns of older releases piled up:
# the next save keeps only this process's.
MAX_ENTRIES = 1000
# The exact release too: a patch release may compile a pattern differently (its fix to re's
# compiler would otherwise wait for the file to be written again).
_NAME = f"regex-{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}-{_sre.CODESIZE}.marshal"

# (pattern, flags) -> the arguments of _sre.compile after the pattern; None until read.
_stored: dict[tuple[str | bytes, int], tuple[Any, ...]] | None = None
_fresh: dict[tuple[str | bytes, int], tuple[Any, ...]] = {}  # compiled here, not in the file
_used: set[tuple[str | bytes, int]] = set()


def path() -> str | None:
    return cache_file(_NAME)


def _read() -> dict[tuple[str | bytes, int], tuple[Any, ...]]:
    where = path()
    return (read_marshal(where, FORMAT) if where is not None else None) or {}


def compile(pattern: str | bytes, flags: int = 0) -> re.Pattern:  # noqa: A001 - re.compile's stand-in
    """``re.compile(pattern, flags)``, from the cache file when it holds the pattern."""
    global _stored
    if _stored is None:
        _stored = _read()
    key = (pattern, int(flags))
    _used.add(key)
    args = _stored.get(key)
    if args is not None:
        try:
            final, packed, groups, groupindex, indexgroup = args
            return _sre.compile(pattern, final, memoryview(packed).cast("I").tolist(), groups, groupindex, indexgroup)
        except Exception:  # noqa: BLE001 - not what this engine takes: compile it afresh
            pass
    try:
        final, code, groups, groupindex, indexgroup = _arguments(pattern, int(flags))
        compiled = _sre.compile(pattern, final, code, groups, groupindex, indexgroup)
    except re.error:
        raise
    except Exception:  # noqa: BLE001 - re's internals moved: plain re.compile, nothing kept
        return re.compile(pattern, flags)
    if _sre.CODESIZE == 4:
        from array import array  # noqa: PLC0415

        # Kept as bytes: a file of every pattern loads in a memory copy, and only the patterns a
        # run asks for become lists of ints.
        _fresh[key] = (final, array("I", code).tobytes(), groups, groupindex, indexgroup)
    return compiled


def _arguments(pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """What ``re._compiler.compile`` hands ``_sre.compile`` after the pattern (CPython 3.11-3.13)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]  # noqa: PLC0415

    p = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(p, flags)]  # opcodes are an int subclass marshal refuses
    groupindex = dict(p.state.groupdict)
    indexgroup: list[str | None] = [None] * p.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return (flags | p.state.flags, code, p.state.groups - 1, groupindex, tuple(indexgroup))


def save() -> bool:
    """Write the patterns compiled in this process into the cache file, with the ones it holds;
    nothing when there is nothing new. True when written."""
    global _stored
    where = path()
    if not _fresh or where is None:
        return False
    table = {**(_stored or {}), **_fresh}
    if len(table) > MAX_ENTRIES:
        table = {k: v for k, v in table.items() if k in _used}
    if not write_marshal(where, FORMAT, table):
        return False
    _stored = table
    _fresh.clear()
    return True
