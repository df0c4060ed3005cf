"""Results of an earlier scan kept on disk, so reopening a workspace checks only what changed.

A result depends on its SKILL.md, on the files of its skill folder (links, listings,
scripts, agents/openai.yaml) and on the paths its links reach outside the folder. Its
*stamp* records all three: the status of every entry of the folder (lstat: type, mode,
size, inode, change time) and what each outside lookup found. A cached result is used
only while a fresh stamp equals the stored one; the stamp is taken before the file is
read, so an edit during a check makes the stamp stale, never the result.

What is never cached: folders holding a symlink (its target's changes are unseen),
folders of more than ``MAX_ENTRIES`` entries, and folders with an entry changed within
``RACY_S`` seconds (a second write in the same clock tick keeps the time). Nothing
written by other engine code or under other settings is used.

The files live in the user's cache folder (``$XDG_CACHE_HOME/skill-lsp``, or
``SKILL_LSP_CACHE_DIR``; ``off`` disables it), never in the workspace: they are pickles,
and a repository must not be able to ship one. They are read only when the current user
owns them and nobody else can write them. A workspace's cache not used for
``KEEP_DAYS`` days is removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import stat
import time
import zlib

from .cachedir import cache_dir, open_private
from .config import Settings
from .datarecord import datarecord, field
from .discovery import Location
from .rules.context import IS_FILE, LISTING, REAL, observe
from .workspace import SkillResult, check_file

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

FORMAT = 2
MAX_ENTRIES = 2000
RACY_S = 2.0

# (digest of the folder's entries, the lookups outside it and what they found).
Stamp = tuple[bytes, tuple[tuple[str, bool | bytes], ...]]


_ENGINE: str | None = None


def engine_digest() -> str:
    """A digest of the engine's code and data: a result is only as good as the rules that made it."""
    global _ENGINE
    if _ENGINE is None:
        # The engine alone makes results (it imports nothing from the server or the CLI).
        _ENGINE = tree_digest(os.path.dirname(os.path.abspath(__file__)))
    return _ENGINE


def tree_digest(top: str) -> str:
    h = hashlib.sha256()
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(d, name)
            h.update(os.path.relpath(path, top).encode("utf-8", "surrogateescape") + b"\0")
            with open(path, "rb") as f:
                h.update(f.read() + b"\0")
    return h.hexdigest()


def settings_digest(settings: Settings) -> str:
    return hashlib.sha256(pickle.dumps(settings, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()


def folder_digest(skill_dir: str) -> bytes | None:
    """``folder_entries`` in 16 bytes: what a stamp keeps (10,000 of them stay small)."""
    entries = folder_entries(skill_dir)
    return None if entries is None else _digest(entries)


def folder_stamp(skill_dir: str) -> tuple[bytes, dict[str, int]] | None:
    """``folder_digest`` and what it saw: each entry's relative path and mode, which the check
    that follows takes for the folder's contents (``Context.listed``) instead of asking the disk
    again (its lookups cost as many system calls as the stamp's own)."""
    entries = folder_entries(skill_dir)
    if entries is None:
        return None
    return _digest(entries), {e[0]: e[1] for e in entries}


def _digest(entries: tuple[Any, ...]) -> bytes:
    return hashlib.blake2b(repr(entries).encode("utf-8", "surrogateescape"), digest_size=16).digest()


def folder_entries(skill_dir: str, now: float | None = None) -> tuple[Any, ...] | None:
    """The status of everything under ``skill_dir``; None when it cannot vouch for a result."""
    now = time.time() if now is None else now
    racy = int((now - RACY_S) * 1e9)
    out: list[Any] = []
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            with os.scandir(os.path.join(skill_dir, rel) if rel else skill_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            return None
        for entry in entries:
            path = f"{rel}/{entry.name}" if rel else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                return None
            if stat.S_ISLNK(st.st_mode) or st.st_ctime_ns > racy or st.st_mtime_ns > racy:
                return None
            if stat.S_ISDIR(st.st_mode):
                out.append((path, st.st_mode))
                stack.append(path)
            else:
                out.append((path, st.st_mode, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
            if len(out) > MAX_ENTRIES:
                return None
    return tuple(out)


def _outside(seen: dict[str, bool | bytes]) -> tuple[tuple[str, bool | bytes], ...]:
    # Inside the folder every lookup is answered by the entries; only those leaving it ('../', and
    # the file and listing lookups, all of which leave it) need their own record.
    return tuple(sorted((rel, hit) for rel, hit in seen.items()
                        if rel == ".." or rel.startswith(("../", IS_FILE, LISTING, REAL))))


def _still(skill_dir: str, outside: tuple[tuple[str, bool | bytes], ...]) -> bool:
    return all(observe(skill_dir, key) == hit for key, hit in outside)


def holds(loc: Location, cached: Stamp) -> bool:
    """Whether a result stamped ``cached`` still holds for ``loc`` as its folder is now."""
    return loc.problem is None and folder_digest(loc.dir) == cached[0] and _still(loc.dir, cached[1])


def check_stamped(loc: Location, settings: Settings, cached: Stamp | None = None,
                  slim: Callable[[SkillResult], SkillResult] = lambda r: r.slim(keep_text=False),
                  ) -> tuple[Stamp | None, SkillResult | None]:
    """Check one skill unless ``cached`` still holds: (stamp, ``slim`` of the result).

    Returns ``(cached, None)`` when the cached result is still valid; a None stamp
    means the fresh result must not be cached.
    """
    got = folder_stamp(loc.dir) if loc.problem is None else None
    entries, listed = got if got is not None else (None, None)
    if cached is not None and entries is not None and cached[0] == entries and _still(loc.dir, cached[1]):
        return cached, None
    seen: dict[str, bool | bytes] = {}
    result = slim(check_file(loc.path, settings, loc, seen=seen, listed=listed))
    return (None if entries is None else (entries, _outside(seen))), result


SHARDS = 64


def shard_of(path: str) -> int:
    # Shards keep each read and write short: the server does them between keystrokes.
    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % SHARDS


# (where discovery put the skill, its stamp, the payload). Where: the Location's fields but its
# path (the key), as a tuple: pickling 156 Location objects per shard took 0.3 ms, tuples 0.02.
Where = tuple[str, int, str, tuple[str, str] | None]
Entry = tuple[Where, Stamp, bytes]


def where(loc: Location) -> Where:
    return (loc.dir, loc.root_index, loc.root, loc.problem)


@datarecord(slots=True)
class ResultCache:
    """One workspace folder's cached results: SKILL.md path -> (where, stamp, payload).

    The payload is what the checker returned, pickled: the slim result, and whatever the
    caller keeps with it (the server: the diagnostics already in their JSON form).
    A shard file holds two pickles: the index (where and stamp per path), read by
    ``load()``, then the payloads, read when the first of them is asked for. Checking
    skills in shard order (``shard_of``) keeps about one shard of payloads in memory.
    """

    folder: str | None  # where the shards live; None when caching is off
    key: tuple[str, ...]  # (engine digest, settings digest, the caller's own)
    index: dict[str, tuple[Where, Stamp]] = field(default_factory=dict)
    on_disk: dict[int, set[str]] = field(default_factory=dict)  # paths per shard, as read or written
    loaded: bool = False
    _unread: dict[int, Any] = field(default_factory=dict)  # shard files, positioned at their payloads
    _payloads: dict[int, dict[str, bytes]] = field(default_factory=dict)

    def stamp_for(self, loc: Location) -> Stamp | None:
        hit = self.index.get(loc.path)
        return hit[1] if hit is not None and hit[0] == where(loc) else None

    def load(self, pause=lambda: None) -> None:
        """Read every shard's index (``pause()`` runs after each one read)."""
        for i in range(SHARDS):
            f = self._open(i)
            if f is None:
                # Nothing read, nothing to pause for: on a first open (no shards) the server's 64
                # pauses each handed the start-up's import thread the GIL, 50 ms before discovery.
                continue
            try:
                fmt, key, index = pickle.load(f)
                if fmt == FORMAT and key == self.key and isinstance(index, dict):
                    self.index.update(index)
                    self.on_disk[i] = set(index)
                    self._unread[i] = f
                    f = None
            except Exception:  # noqa: BLE001 - a truncated or foreign file is a cold start, not an error
                pass
            finally:
                if f is not None:
                    f.close()
            pause()
        self.loaded = True
        if self.index and self.folder is not None:
            with contextlib.suppress(OSError):
                os.utime(self.folder)  # in use: not for ``prune`` to remove

    def payload(self, loc: Location) -> bytes | None:
        """The cached payload of ``loc`` (None if its shard cannot be read after all), handed over
        once: a shard's payloads leave memory with the last of them."""
        i = shard_of(loc.path)
        got = self._payloads.get(i)
        if got is None:
            f = self._unread.pop(i, None)
            got = {}
            if f is not None:
                with f, contextlib.suppress(Exception):
                    got = pickle.load(f)
            self._payloads[i] = got
        data = got.pop(loc.path, None)
        if not got:
            self._payloads.pop(i, None)
        return data

    def close(self) -> None:
        for f in self._unread.values():
            f.close()
        self._unread.clear()
        self._payloads.clear()

    def _open(self, i: int):
        # Unpickling runs code: only a file this user wrote and no one else can change.
        return None if self.folder is None else open_private(os.path.join(self.folder, f"{i:02d}.pickle"))

    def _read(self, i: int) -> dict[str, Entry]:
        """Shard ``i`` as it is on disk, payloads included."""
        f = self._open(i)
        if f is None:
            return {}
        with f:
            try:
                fmt, key, index = pickle.load(f)
                if fmt != FORMAT or key != self.key or not isinstance(index, dict):
                    return {}
                payloads = pickle.load(f)
                return {p: (w, stamp, payloads[p]) for p, (w, stamp) in index.items() if p in payloads}
            except Exception:  # noqa: BLE001
                return {}

    def write_shard(self, i: int, paths: list[str], fresh: dict[str, Entry | None]) -> bool:
        """Write shard ``i`` holding ``paths`` (the folder's skills in it now): ``fresh`` entries
        (None: not cacheable), else the ones on disk (still checked by their stamps when read).
        Nothing is written when nothing is new or gone."""
        if self.folder is None or (not any(p in fresh for p in paths) and self.on_disk.get(i, set()) == set(paths)):
            return False
        old = self._read(i) if any(p not in fresh for p in paths) else {}
        new: dict[str, Entry] = {}
        for p in paths:
            e = fresh[p] if p in fresh else old.get(p)
            if e is not None:
                new[p] = e
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            import tempfile  # noqa: PLC0415 - a run that changes nothing writes nothing

            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump((FORMAT, self.key, {p: (e[0], e[1]) for p, e in new.items()}), f,
                                protocol=pickle.HIGHEST_PROTOCOL)
                    pickle.dump({p: e[2] for p, e in new.items()}, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, os.path.join(self.folder, f"{i:02d}.pickle"))  # a reader never sees half a shard
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            return False  # a read-only or full disk costs the next start its speed, nothing else
        self.on_disk[i] = set(new)
        return True


class ShardWriter:
    """Writes each shard of a scan's cache as soon as its last skill is checked, so the fresh
    payloads kept for writing are about one shard's, not the workspace's."""

    def __init__(self, cache: ResultCache, paths: list[str], todo: list[str]) -> None:
        self.cache = cache
        # Each path's shard, computed once (a first open of 10,000 skills asked 50,000 times).
        self.shard = {p: shard_of(p) for p in paths}
        self.paths: dict[int, list[str]] = {}
        for p, i in self.shard.items():
            self.paths.setdefault(i, []).append(p)
        self.left: dict[int, int] = {}
        for p in todo:
            i = self._shard(p)
            self.left[i] = self.left.get(i, 0) + 1
        self.fresh: dict[int, dict[str, Entry | None]] = {}
        self.written = 0

    def put(self, loc: Location, stamp: Stamp | None, payload: bytes) -> None:
        """A skill checked anew (a None stamp: not cacheable, drop what is stored)."""
        path = loc.path
        self.fresh.setdefault(self._shard(path), {})[path] = None if stamp is None else (where(loc), stamp, payload)
        self._done(path)

    def keep(self, path: str) -> None:
        """A skill whose stored entry still holds."""
        self._done(path)

    def _shard(self, path: str) -> int:
        i = self.shard.get(path)
        return shard_of(path) if i is None else i

    def _done(self, path: str) -> None:
        i = self._shard(path)
        self.left[i] -= 1
        if not self.left[i]:
            self.written += self.cache.write_shard(i, self.paths.get(i, []), self.fresh.pop(i, {}))

    def finish(self) -> int:
        """After every skill: shards that only lost skills (a loaded cache knows which)."""
        if self.cache.loaded:
            for i in set(self.cache.on_disk) - set(self.left):
                self.written += self.cache.write_shard(i, self.paths.get(i, []), {})
        return self.written


def open_cache(workspace: str, settings: Settings, extra: str = "", kind: str = "") -> ResultCache:
    """The (not yet loaded) cache of ``workspace`` under ``settings``; ``extra`` is whatever
    else the payloads depend on (a cache written under another ``extra`` is not used). Caches of
    another ``kind`` live beside it (one written under another ``extra`` replaces it)."""
    base = cache_dir()
    key = (engine_digest(), settings_digest(settings), extra)
    if base is None:
        return ResultCache(None, key)
    if base not in _PRUNED:
        _PRUNED.add(base)
        prune(base)
    name = hashlib.sha256(os.path.abspath(workspace).encode("utf-8", "surrogateescape")
                          + (b"\0" + kind.encode() if kind else b"")).hexdigest()[:24]
    return ResultCache(os.path.join(base, f"results-{name}"), key)


KEEP_DAYS = 30
_PRUNED: set[str] = set()


def prune(base: str, now: float | None = None) -> int:
    """Remove the caches of workspaces not opened for KEEP_DAYS days (a cache folder's time
    changes when it is read or written). Returns how many went."""
    now = time.time() if now is None else now
    gone = 0
    try:
        names = os.listdir(base)
    except OSError:
        return 0
    for name in names:
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if name.startswith("results-") and stat.S_ISDIR(st.st_mode) and now - st.st_mtime > KEEP_DAYS * 86400:
            import shutil  # noqa: PLC0415 - seldom anything to remove

            shutil.rmtree(path, ignore_errors=True)
            gone += 1
    return gone
