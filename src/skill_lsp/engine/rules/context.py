"""What a rule may know beyond the document: the targets' expectations and the skill folder on disk.

Every rule module imports this one, never the package: the package (``rules/__init__``) runs
the rules and so sits above them.
"""

from __future__ import annotations

import os
import stat

from ..datarecord import datarecord, field
from ..profiles import DEFAULT_PROFILE, Profile
from ..targets import PROFILES

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


@datarecord(slots=True)
class Context:
    """What a rule may know beyond the document: targets, the skill folder, lookups."""

    profile: Profile = field(default_factory=lambda: PROFILES[DEFAULT_PROFILE])
    check_links: bool = True
    # The skill folder on disk; None for unsaved buffers (no file-system checks then).
    skill_dir: str | None = None
    _files: frozenset[str] | None = None
    # Every lookup made, by path relative to the skill folder: what a cached result depends on
    # (``resultcache.stamp_of``). Existence under the path itself; whether it is a file under
    # IS_FILE + path; a digest of the folder's entry names under LISTING + path.
    _exists: dict[str, bool | bytes] = field(default_factory=dict)
    _top: tuple[tuple[str, ...], frozenset[str]] | None = None
    _parent: list[str] | None = None
    # The folder's entries (relative path -> lstat mode) as the result cache's stamp saw them just
    # before the check (``resultcache.folder_stamp``): no link among them. An entry listed exists,
    # with that type; one not listed is asked of the disk (which may fold case).
    listed: dict[str, int] | None = None
    # Whether ``_exists`` is kept with a result (``workspace.check_text``'s ``seen``): lookups a
    # listing answered are then recorded too.
    recording: bool = False

    def top_folders(self, names: tuple[str, ...]) -> frozenset[str]:
        """Which of ``names`` are folders directly in the skill folder: one directory read per
        context, recorded in the existence cache so later ``exists`` calls cost nothing."""
        if self._top is None or self._top[0] != names:
            found: set[str] = set()
            if self.listed is not None:
                found = {n for n in names if stat.S_ISDIR(self.listed.get(n, 0))}
                for name in names:
                    self._exists[name] = name in found
            elif self.skill_dir is not None:
                # The names first (listdir and a set intersection run in C), then a stat for the
                # few that match: cheaper than a Python loop over every entry of a big folder.
                try:
                    hits = set(os.listdir(self.skill_dir)).intersection(names)
                except OSError:
                    hits = set()
                found = {n for n in hits if os.path.isdir(os.path.join(self.skill_dir, n))}
                for name in names:
                    self._exists[name] = name in found
            self._top = (names, frozenset(found))
        return self._top[1]

    def files(self) -> frozenset[str] | None:
        """The skill folder's files (relative, '/'-separated; folders end in '/'), listed once.

        A listing given at construction (``_files``) stands in for the disk.
        """
        if self._files is None and self.skill_dir is not None:
            self._files = list_skill_files(self.skill_dir)
        return self._files

    def exists(self, rel: str) -> bool | None:
        """Whether a normalised relative path (no '..') exists in the skill folder; None when unknown.

        One stat per distinct target: cheaper than listing the folder when a skill
        has a handful of links (the common case).
        """
        if self._files is not None:
            return rel in self._files or rel + "/" in self._files
        if self.skill_dir is None:
            return None
        if self.listed is not None and rel in self.listed:
            return True
        hit = self._exists.get(rel)
        if hit is None:
            hit = self._exists[rel] = os.path.exists(os.path.join(self.skill_dir, rel))
        return hit is True

    def is_file(self, rel: str) -> bool:
        """Whether ``rel`` (relative to the skill folder) is a file, links followed."""
        assert self.skill_dir is not None
        mode = self.listed.get(rel) if self.listed is not None else None
        return stat.S_ISREG(mode) if mode is not None else os.path.isfile(os.path.join(self.skill_dir, rel))

    def is_dir(self, rel: str) -> bool:
        """Whether ``rel`` (relative to the skill folder) is a folder, links followed."""
        assert self.skill_dir is not None
        mode = self.listed.get(rel) if self.listed is not None else None
        return stat.S_ISDIR(mode) if mode is not None else os.path.isdir(os.path.join(self.skill_dir, rel))

    def folder_files(self, folder: str, limit: int = 500) -> list[str]:
        """Regular, non-hidden files directly in ``folder`` (relative), sorted; at most ``limit``
        of them, the first the disk lists."""
        assert self.skill_dir is not None
        if self.listed is not None:
            head = folder + "/"
            out = [p for p, mode in self.listed.items() if p.startswith(head) and "/" not in p[len(head):]
                   and stat.S_ISREG(mode) and _shown(p[len(head):])]
            if len(out) <= limit:  # else which of them come first is the disk's order
                return sorted(out)
        out = []
        try:
            with os.scandir(os.path.join(self.skill_dir, folder)) as it:
                for entry in it:
                    if len(out) >= limit:
                        break
                    if not _shown(entry.name) or not entry.is_file():
                        continue
                    out.append(f"{folder}/{entry.name}")
        except OSError:
            return []
        return sorted(out)


    def exists_outside(self, rel: str) -> bool | None:
        """Whether a relative path that leaves the skill folder ('../...') exists; None when unknown."""
        if self.skill_dir is None or self._files is not None:
            return None  # an unsaved buffer, or a listing standing in for the disk
        return self._recorded(rel)

    def exists_through_links(self, rel: str) -> bool:
        """Whether a relative path that leaves the skill folder exists from the folder's real path,
        where that differs (the folder or one above it is a symbolic link): as the system resolves
        `..` after a link, and as Codex shows the skill (its resolved path)."""
        assert self.skill_dir is not None
        if os.path.realpath(self.skill_dir) == os.path.normpath(self.skill_dir):
            return False  # no link on the way: nothing else to look up (nor to record)
        return self._recorded(REAL + rel)

    def is_file_up(self, rel: str) -> bool:
        """Whether ``rel`` (relative to the skill folder, leaving it) is a file."""
        return self._recorded(IS_FILE + rel)

    def exists_up(self, rel: str) -> bool:
        """Whether ``rel`` (relative to the skill folder, leaving it) exists, whatever the context's listing."""
        return self._recorded(rel)

    def siblings_holding(self, top: str, limit: int) -> Iterable[str]:
        """Of the first ``limit`` siblings (``siblings``), those where ``../sibling/top`` may exist,
        in order: all but those a listing kept for this run (``listings_kept``) shows without it,
        which are then recorded as lookups (where a cached result keeps them, ``recording``)."""
        names = self.siblings()[:limit]
        if _KEPT is None:
            return names
        assert self.skill_dir is not None  # siblings() holds it too
        parent = os.path.dirname(self.skill_dir)
        if not self.recording:
            # Which of them hold each name, found once for the run: a skill naming a file it
            # lacks asked each of 300 siblings (unseen thcjp/hermes-skills: a twelfth of its check).
            held = _KEPT_HOLDERS.get((parent, limit))
            if held is None:
                held = _KEPT_HOLDERS[(parent, limit)] = _holders(parent, names)
            if not top.isascii():
                return names
            exact, lowered, unread = held
            return [names[i] for i in sorted({*exact.get(top, ()), *lowered.get(top.lower(), ()), *unread})]
        return self._recorded_holding(parent, names, top)

    def _recorded_holding(self, parent: str, names: list[str], top: str) -> Iterator[str]:
        # A generator: only the siblings looked at before the caller stops are recorded.
        for sibling in names:
            entries = _kept(os.path.join(parent, sibling))
            if entries is None or top in entries[0] or not top.isascii() or top.lower() in entries[1]:
                yield sibling  # listed, unreadable, or a name a case-folding disk may match: the disk decides
            else:
                self._exists.setdefault(f"../{sibling}/{top}", False)

    def in_claude_plugin(self) -> bool:
        """A skill of a Claude Code plugin: `<plugin>/skills/<name>/` beside `<plugin>/.claude-plugin/`,
        installed whole and listed by Claude Code 2.1.332 as a project skill, `<plugin>:<folder>`
        (harness/claude_plugin.py). The lookup is kept with a cached result."""
        d = self.skill_dir
        return d is not None and os.path.basename(os.path.dirname(d)) == "skills" and self.exists_up("../../.claude-plugin")

    def _recorded(self, key: str) -> bool:
        """``observe`` once per key, kept in the lookups a cached result depends on."""
        assert self.skill_dir is not None
        hit = self._exists.get(key)
        if hit is None:
            hit = self._exists[key] = observe(self.skill_dir, key)
        return hit is True

    def siblings(self) -> list[str]:
        """The names in the folder holding the skill folder, sorted (its own among them)."""
        assert self.skill_dir is not None
        if self._parent is None:
            parent = os.path.dirname(self.skill_dir)
            kept = _KEPT_PARENTS.get(parent) if _KEPT is not None else None
            if kept is None:
                try:
                    names = sorted(os.listdir(parent))
                except OSError:
                    names = []
                kept = (names, names_digest(names))
                if _KEPT is not None:
                    _KEPT_PARENTS[parent] = kept
            self._parent = kept[0]
            self._exists[LISTING + ".."] = kept[1]
        return self._parent


# Entry names (as listed, and lowered) of the folders beside skill folders, while a `check` run
# keeps them (``listings_kept``): a skill that names a file it lacks asks up to 300 sibling skills
# whether they hold it, 300 lookups a mention (unseen thcjp/hermes-skills, 995 skills in one
# folder: a fifth of the check). The server's checks ask the disk each time, which changes under it.
_KEPT: dict[str, tuple[frozenset[str], frozenset[str]] | None] | None = None
# The sorted names and digest of the folders holding skill folders, while the above are kept: a
# skill asks for its siblings when it names a file it lacks (each of 2,922 skills in one folder
# listed and sorted it again).
_KEPT_PARENTS: dict[str, tuple[list[str], bytes]] = {}
# By (folder, how many of its entries are asked): of those entries, the positions of the ones whose
# listing holds each name, holds it lowered, and whose listing could not be read.
_KEPT_HOLDERS: dict[tuple[str, int], tuple[dict[str, list[int]], dict[str, list[int]], list[int]]] = {}


def listings_kept(on: bool) -> None:
    """Keep the siblings' listings from now until ``listings_kept(False)`` (one run of `check`,
    whose workers fork with it on)."""
    global _KEPT
    _KEPT = {} if on else None
    _KEPT_PARENTS.clear()
    _KEPT_HOLDERS.clear()


def _kept(folder: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """``_entries`` of ``folder``, listed once while listings are kept."""
    assert _KEPT is not None
    if folder not in _KEPT:
        _KEPT[folder] = _entries(folder)
    return _KEPT[folder]


def _holders(parent: str, names: list[str]) -> tuple[dict[str, list[int]], dict[str, list[int]], list[int]]:
    exact: dict[str, list[int]] = {}
    lowered: dict[str, list[int]] = {}
    unread: list[int] = []
    for i, name in enumerate(names):
        entries = _kept(os.path.join(parent, name))
        if entries is None:
            unread.append(i)
            continue
        for entry in entries[0]:
            exact.setdefault(entry, []).append(i)
        for entry in entries[1]:
            lowered.setdefault(entry, []).append(i)
    return exact, lowered, unread


def _entries(folder: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """``folder``'s entry names and their lowered forms; empty when it is no folder, None when
    it cannot be read (the disk is then asked for each path)."""
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        names = []
    except OSError:
        return None
    return frozenset(names), frozenset(n.lower() for n in names)


def _shown(name: str) -> bool:
    """A file ``Context.folder_files`` lists: not hidden, not compiled Python."""
    return not name.startswith(".") and not name.endswith((".pyc", ".pyo"))


# The folders above a skill folder, relative to it, nearest first.
UP = tuple("../" * k for k in range(1, 7))
# Key prefixes of ``Context._exists`` for lookups other than existence: no path holds a NUL.
IS_FILE = "\0f"
LISTING = "\0l"
# A path leaving the skill folder, looked up from the folder's real path (its links resolved).
REAL = "\0r"


def observe(skill_dir: str, key: str) -> bool | bytes:
    """What the lookup recorded under ``key`` in ``Context._exists`` finds now (the result cache
    asks again to know whether a kept result still holds)."""
    if key.startswith(IS_FILE):
        return os.path.isfile(os.path.normpath(os.path.join(skill_dir, key[len(IS_FILE):])))
    if key.startswith(REAL):
        return os.path.exists(os.path.normpath(os.path.join(os.path.realpath(skill_dir), key[len(REAL):])))
    if key.startswith(LISTING):
        try:
            names = sorted(os.listdir(os.path.normpath(os.path.join(skill_dir, key[len(LISTING):]))))
        except OSError:
            names = []
        return names_digest(names)
    return os.path.exists(os.path.normpath(os.path.join(skill_dir, key)))


def names_digest(names: list[str]) -> bytes:
    """What a listing's stamp keeps of a folder's sorted entry names."""
    import hashlib  # noqa: PLC0415 - only a skill that looks at its siblings needs it

    return hashlib.blake2b("\0".join(names).encode("utf-8", "surrogateescape"), digest_size=16).digest()


def list_skill_files(skill_dir: str, limit: int = 5000, max_depth: int = 8) -> frozenset[str]:
    """Files under a skill folder, bounded, never following symlinked directories."""
    found: set[str] = set()
    stack = [("", 0)]
    while stack and len(found) < limit:
        rel, depth = stack.pop()
        try:
            with os.scandir(os.path.join(skill_dir, rel) if rel else skill_dir) as it:
                for entry in it:
                    path = f"{rel}/{entry.name}" if rel else entry.name
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            found.add(path + "/")
                            if depth < max_depth:
                                stack.append((path, depth + 1))
                        else:
                            found.add(path)
                    except OSError:
                        continue
                    if len(found) >= limit:
                        break
        except OSError:
            continue
    return frozenset(found)
