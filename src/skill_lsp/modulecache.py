"""skill_lsp's compiled modules kept in one file, for commands whose start-up is most of their run.

A one-skill `check` imports about 60 of skill_lsp's modules. Through the standard import path
each costs a search of its package folder, a stat of the source, an open and read of its
``.pyc`` and its header's checks, in importlib's Python code: 16 M of the 124 M instructions the
check executes (measured with 55 empty modules). This file holds the bytecode of the modules
earlier runs imported; a finder placed first on ``sys.meta_path`` hands each module its code
from there, after one ``stat`` shows the source is the one that code was compiled from.

The code is taken from the ``.pyc`` files Python wrote (and checked against its source as Python
checks it), never compiled here: a module without a current ``.pyc`` is imported as usual and
left out. The file is named for the Python build, keyed by each module's source path (installs
side by side keep their own entries) and read only as ``cachedir.open_private`` allows, as the
kept patterns are (`engine/regexcache.py`); anything unexpected in it means the usual import.
``SKILL_LSP_CACHE_DIR=off`` turns it off. Loaders are ``SourceFileLoader``s but for where the
code comes from, so sources, resources and tracebacks are what they are without the file.
"""

from __future__ import annotations

import marshal
import os
import sys
from _frozen_importlib import ModuleSpec  # type: ignore[import-not-found]  # loaded at start-up
from _frozen_importlib_external import MAGIC_NUMBER, SourceFileLoader  # type: ignore[import-not-found]

from .engine.cachedir import cache_file, read_marshal, write_marshal

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

FORMAT = 1
_PACKAGE = __package__ or "skill_lsp"
_ROOT = os.path.dirname(os.path.abspath(__file__))
_NAME = f"modules-{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal"

# source path -> (mtime_ns, size, pyc path, is package, marshalled code)
Entry = tuple


class _Loader(SourceFileLoader):
    """A source file's loader whose code comes from the kept file."""

    def __init__(self, fullname: str, path: str, code: bytes) -> None:
        super().__init__(fullname, path)
        self._code = code

    def get_code(self, fullname: str) -> Any:
        if fullname == self.name:
            try:
                return marshal.loads(self._code)
            except Exception:  # noqa: BLE001, S110 - damaged code: the module's own .pyc or source
                pass
        return super().get_code(fullname)


class _Finder:
    """Specs of skill_lsp's modules whose source still has the stamp kept with their code."""

    def __init__(self, entries: dict[str, Entry]) -> None:
        self.entries = entries
        self.served: set[str] = set()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith(_PACKAGE + "."):
            return None
        base = _ROOT + os.sep + name[len(_PACKAGE) + 1:].replace(".", os.sep)
        for origin in (base + ".py", base + os.sep + "__init__.py"):
            entry = self.entries.get(origin)
            if entry is not None:
                break
        else:
            return None
        mtime_ns, size, cached, is_package, code = entry
        try:
            st = os.stat(origin)
        except OSError:
            return None
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            return None  # edited since: the usual import compiles it, the next save keeps it
        spec = ModuleSpec(name, _Loader(name, origin, code), origin=origin, is_package=is_package)
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True
        spec.cached = cached
        self.served.add(name)
        return spec


_finder: _Finder | None = None


def path() -> str | None:
    return cache_file(_NAME)


def _read(where: str) -> dict[str, Entry]:
    entries = read_marshal(where, FORMAT) or {}
    return {origin: entry for origin, entry in entries.items() if _well_formed(origin, entry)}


def _well_formed(origin: object, entry: object) -> bool:
    return (isinstance(origin, str) and isinstance(entry, tuple) and len(entry) == 5
            and isinstance(entry[0], int) and isinstance(entry[1], int) and isinstance(entry[2], (str, type(None)))
            and isinstance(entry[3], bool) and isinstance(entry[4], bytes))


def install() -> None:
    """Serve skill_lsp's modules from the kept file from now on (nothing when caching is off)."""
    global _finder
    where = path()
    if where is None or _finder is not None:
        return
    _finder = _Finder(_read(where))
    sys.meta_path.insert(0, _finder)


def _entry(module: ModuleType) -> Entry | None:
    """``module``'s entry from its current ``.pyc`` (None: it has none, or not one for this source)."""
    spec = module.__spec__
    origin, cached = spec.origin, spec.cached
    if not origin or not cached or not origin.endswith(".py") or not isinstance(spec.loader, SourceFileLoader):
        return None
    try:
        st = os.stat(origin)
        fd = os.open(cached, os.O_RDONLY)  # not open(): its io layers cost more than the read
        try:
            data = os.read(fd, os.fstat(fd).st_size)
        finally:
            os.close(fd)
    except OSError:
        return None
    # Python checks a timestamp .pyc the same way: its magic, flags 0, and the source's mtime
    # (seconds, 32 bits) and size (32 bits).
    if (len(data) < 16 or data[:4] != MAGIC_NUMBER or data[4:8] != b"\0\0\0\0"
            or int.from_bytes(data[8:12], "little") != int(st.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != st.st_size & 0xFFFFFFFF):
        return None
    return (st.st_mtime_ns, st.st_size, cached, spec.submodule_search_locations is not None, data[16:])


def _current(origin: str, entry: Entry | None) -> bool:
    """Whether ``entry`` was taken from the source ``origin`` holds now."""
    if entry is None:
        return False
    try:
        st = os.stat(origin)
    except OSError:
        return False  # an install since removed
    return (st.st_mtime_ns, st.st_size) == (entry[0], entry[1])


def save() -> bool:
    """Keep the code of the skill_lsp modules this process imported the usual way, beside the
    entries of the file that still match their sources. True when the file was written."""
    where = path()
    if where is None or _finder is None:
        return False
    fresh: dict[str, Entry] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(_PACKAGE + ".") or name in _finder.served or module is None:
            continue
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if not origin.startswith(_ROOT + os.sep) or _current(origin, _finder.entries.get(origin)):
            continue  # another package's, or loaded before the finder from the source kept
        entry = _entry(module)
        if entry is not None:
            fresh[origin] = entry
    if not fresh:
        return False
    kept = {origin: entry for origin, entry in _finder.entries.items() if _current(origin, entry)}
    if not write_marshal(where, FORMAT, {**kept, **fresh}):
        return False
    _finder.entries = {**kept, **fresh}
    return True
