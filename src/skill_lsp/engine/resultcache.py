"""Results of an earlier scan kept on disk, so reopening a workspace checks only what changed.

A result depends on its SKILL.md, on the files of its skill folder (links, listings,
scripts, agents/openai.yaml) and on the paths its links reach outside the folder. Its
*stamp* records all three: the status of every entry of the folder (lstat: type, mode,
size, inode, change time) and what each outside lookup found. A cached result is used
only while a fresh stamp equals the stored one; the stamp is taken before the file is
read, so an edit during a check makes the stamp stale, never the result.

What is never cached: folders holding a symlink (its target's changes are unseen),
folders of more than ``MAX_ENTRIES`` entries, and folders with an entry changed within
``RACY_S`` seconds (a second write in the same clock tick keeps the time). The whole
file is dropped when the engine's code or the settings differ from the ones that wrote it.

The file lives in the user's cache folder (``$XDG_CACHE_HOME/skill-lsp``, or
``SKILL_LSP_CACHE_DIR``; ``off`` disables it), never in the workspace: it is a pickle,
and a repository must not be able to ship one. It is read only when the current user
owns it and nobody else can write it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from .config import Settings
from .discovery import Location
from .workspace import SkillResult, check_file

FORMAT = 1
MAX_ENTRIES = 2000
RACY_S = 2.0
_ENV = "SKILL_LSP_CACHE_DIR"

# (SKILL.md relative path, entries of the folder), then the outside lookups.
Stamp = tuple[tuple[Any, ...], tuple[tuple[str, bool], ...]]


def cache_dir() -> str | None:
    """Where cache files go; None when caching is off."""
    env = os.environ.get(_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "false", "no") else env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "skill-lsp")


_ENGINE: str | None = None


def engine_digest() -> str:
    """A digest of the package's code and data: a result is only as good as the rules that made it."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = tree_digest(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def _outside(seen: dict[str, bool]) -> tuple[tuple[str, bool], ...]:
    # Inside the folder every lookup is answered by the entries; only '../' ones need their own record.
    return tuple(sorted((rel, hit) for rel, hit in seen.items() if rel == ".." or rel.startswith("../")))


def _still(skill_dir: str, outside: tuple[tuple[str, bool], ...]) -> bool:
    return all(os.path.exists(os.path.normpath(os.path.join(skill_dir, rel))) == hit for rel, hit in outside)


def check_stamped(loc: Location, settings: Settings, cached: Stamp | None = None) -> tuple[Stamp | None, bytes | None]:
    """Check one skill unless ``cached`` still holds: (stamp, pickled slim result).

    Returns ``(cached, None)`` when the cached result is still valid; a None stamp
    means the fresh result must not be cached.
    """
    entries = folder_entries(loc.dir) if loc.problem is None else None
    if cached is not None and entries is not None and cached[0] == entries and _still(loc.dir, cached[1]):
        return cached, None
    seen: dict[str, bool] = {}
    result = check_file(loc.path, settings, loc, seen=seen).slim(keep_text=False)
    stamp = None if entries is None else (entries, _outside(seen))
    return stamp, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def check_stamped_job(job: tuple[Location, Settings, Stamp | None]) -> tuple[Stamp | None, bytes | None]:
    """Worker-process entry (picklable by reference)."""
    return check_stamped(*job)


SHARDS = 64


def _shard(path: str) -> int:
    # Shards keep each read and write short: the server does them between keystrokes.
    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % SHARDS


Entry = tuple[Location, Stamp, bytes]


@dataclass(slots=True)
class ResultCache:
    """One workspace folder's cached results: SKILL.md path -> (location, stamp, pickled slim result)."""

    folder: str | None  # where the shards live; None when caching is off
    key: tuple[str, str]  # (engine digest, settings digest)
    entries: dict[str, Entry] = field(default_factory=dict)
    on_disk: dict[int, set[str]] = field(default_factory=dict)  # paths per shard, as read or written
    loaded: bool = False

    def stamp_for(self, loc: Location) -> Stamp | None:
        hit = self.entries.get(loc.path)
        return hit[1] if hit is not None and hit[0] == loc else None

    def result(self, loc: Location) -> SkillResult:
        return pickle.loads(self.entries[loc.path][2])

    def load(self, pause=lambda: None) -> None:
        """Read every shard (``pause()`` runs between them)."""
        for i in range(SHARDS):
            got = self._read(i)
            self.entries.update(got)
            self.on_disk[i] = set(got)
            pause()
        self.loaded = True

    def _read(self, i: int) -> dict[str, Entry]:
        if self.folder is None:
            return {}
        try:
            fd = os.open(os.path.join(self.folder, f"{i:02d}.pickle"), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return {}
        try:
            st = os.fstat(fd)
            # Unpickling runs code: only a file this user wrote and no one else can change.
            if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or (
                    hasattr(os, "getuid") and st.st_uid != os.getuid()):
                return {}
            with os.fdopen(fd, "rb", closefd=False) as f:
                fmt, key, entries = pickle.load(f)
            return entries if fmt == FORMAT and key == self.key and isinstance(entries, dict) else {}
        except Exception:  # noqa: BLE001 - a truncated or foreign file is a cold start, not an error
            return {}
        finally:
            os.close(fd)

    def save(self, paths: list[str], fresh: dict[str, Entry | None], pause=lambda: None) -> int:
        """Write the entries of ``paths`` (the folder's skills now): ``fresh`` ones (None: not
        cacheable), else the stored ones (still checked by their stamps when read).

        Only shards with something new or gone are written; a cache that was not loaded
        (a rescan after file events) reads just those. Returns the shards written.
        """
        if self.folder is None:
            return 0
        by_shard: dict[int, list[str]] = {}
        for p in paths:
            by_shard.setdefault(_shard(p), []).append(p)
        touched = {_shard(p) for p in fresh}
        written = 0
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            for i in range(SHARDS):
                mine = by_shard.get(i, [])
                if i not in touched and (not self.loaded or self.on_disk.get(i, set()) == set(mine)):
                    continue
                old = self.entries if self.loaded else self._read(i)
                new: dict[str, Entry] = {}
                for p in mine:
                    e = fresh[p] if p in fresh else old.get(p)
                    if e is not None:
                        new[p] = e
                self._write(i, new)
                self.on_disk[i] = set(new)
                written += 1
                pause()
        except OSError:
            pass  # a read-only or full disk costs the next start its speed, nothing else
        return written

    def _write(self, i: int, entries: dict[str, Entry]) -> None:
        assert self.folder is not None
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump((FORMAT, self.key, entries), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, os.path.join(self.folder, f"{i:02d}.pickle"))  # a reader never sees half a shard
        except BaseException:
            os.unlink(tmp)
            raise


def open_cache(workspace: str, settings: Settings) -> ResultCache:
    """The (not yet loaded) cache of ``workspace`` under ``settings``."""
    base = cache_dir()
    key = (engine_digest(), settings_digest(settings))
    if base is None:
        return ResultCache(None, key)
    name = hashlib.sha256(os.path.abspath(workspace).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return ResultCache(os.path.join(base, f"results-{name}"), key)
