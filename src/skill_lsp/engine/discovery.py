"""Finding skills on disk, safely (spec 000 §5).

Roots are scanned one level deep: each immediate subfolder holding SKILL.md (or
skill.md) is a skill. Nothing walks up from a root. A skill folder or SKILL.md
that resolves outside every root is OUTSIDE_WORKSPACE and is never read; FIFOs,
sockets and devices are never opened; symlink loops and unreadable files become
IO_ERROR findings.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from functools import lru_cache

from . import regexcache
from .datarecord import datarecord

SKILL_FILES = ("SKILL.md", "skill.md")
# Bytes read from one SKILL.md at most; the analysis limit is 1 Mi characters.
READ_LIMIT = 4 * 1024 * 1024
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
                       ".mypy_cache", ".ruff_cache", ".pytest_cache", "site-packages", ".cache"})
# Build output by convention, walked only where it holds skills itself: real repositories name a
# skill `build` (plugins/cesdk/skills/build) or group skill folders under `build/` (an SEO pack's
# research/ build/ optimize/), and a copy a build step makes is most often git-ignored as well.
OUTPUT_DIRS = frozenset({"build", "dist"})


@datarecord(frozen=True, slots=True)
class Location:
    """A skill discovery found: its folder, SKILL.md and the root it came from."""

    dir: str  # the skill folder as found (absolute, not symlink-resolved)
    path: str  # its SKILL.md (absolute)
    root_index: int  # -1 when found by a recursive search outside the configured roots
    root: str
    problem: tuple[str, str] | None = None  # (code, message): OUTSIDE_WORKSPACE / SENSITIVE / IO_ERROR
    # The SKILL.md a link leads to, where it is not ``path`` (a root that links to another root,
    # a skill folder linked into a root): one file found at two places (engine/aliases.py).
    real: str | None = None


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """A path glob: ``**`` any depth (``**/`` also zero folders), ``*`` and ``?`` within a segment."""
    return re.compile(glob_source(pattern), re.DOTALL)


@lru_cache(maxsize=256)
def glob_source(pattern: str) -> str:
    """``glob_to_regex``'s pattern text (for DOTALL), to join into a larger pattern."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def is_sensitive(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """Whether a folder matches a sensitive pattern, as the folder (`**/private-*`) or as
    what lies inside it (`**/secrets/**` matches `.../secrets` itself too)."""
    if not patterns:
        return False
    bare = path.replace(os.sep, "/").rstrip("/")
    any_of = _any_pattern(tuple(patterns))
    return any_of.fullmatch(bare) is not None or any_of.fullmatch(bare + "/") is not None


@lru_cache(maxsize=64)
def _any_pattern(patterns: tuple[str, ...]) -> re.Pattern[str]:
    # One alternation instead of a match per pattern: discovery asks for every skill folder.
    return regexcache.compile("|".join(f"(?:{glob_source(p)})" for p in patterns), re.DOTALL)


def is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def ancestors(folder: str, levels: int = 6) -> Iterator[str]:
    """``folder`` and the folders above it, at most ``levels`` of them, stopping at the top."""
    for _ in range(levels):
        yield folder
        up = os.path.dirname(folder)
        if up == folder:
            return
        folder = up


@lru_cache(maxsize=256)
def _realpath(root: str) -> str:
    return os.path.realpath(root)


def _skill_file(dir_path: str) -> str | None:
    """The skill file of ``dir_path`` as the walk picks it (``_pick_skill_file``), from its listing."""
    try:
        names = os.listdir(dir_path)
    except OSError:
        return None
    name = _pick_skill_file(names)
    return os.path.join(dir_path, name) if name is not None else None


def holds_skills(folder: str, plugin: bool = True) -> bool:
    """Whether ``folder`` is a skill folder, one of its folders is, or (``plugin``) its `skills/`
    folder holds one, as a plugin's does (what lets an OUTPUT_DIRS folder be walked: unseen
    adaptive-enforcement-lab/claude-skills keeps a plugin named build): one listing, and a look
    into each folder it holds."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return False
    if _pick_skill_file([e.name for e in entries]) is not None:
        return True
    return any(_is_dir(e) and (_skill_file(e.path) is not None
                               or (plugin and e.name == "skills" and holds_skills(e.path, plugin=False)))
               for e in entries)


def _pick_skill_file(names) -> str | None:
    """SKILL.md, else skill.md, else the first case variant by name, among ``names``."""
    best = None
    for name in names:
        if len(name) == 8 and (name in SKILL_FILES or is_case_variant(name)) and (
                best is None or (_rank(name), name) < (_rank(best), best)):
            best = name
    return best


def is_case_variant(name: str) -> bool:
    """'SKILL.MD', 'Skill.md', ...: found here so the author learns harnesses miss it."""
    return name.lower() == "skill.md" and name not in SKILL_FILES


def case_message(base: str, aside: str = "") -> str:
    """SKILL_FILE_CASE's message for a skill file named ``base``; ``aside``: who reads it all the same."""
    return (f"'{base}' is not 'SKILL.md': Claude Code, Codex, OpenCode, Gemini CLI and Copilot CLI look for the "
            f"exact name, so on a case-sensitive file system (Linux) this skill is not found{aside}; rename it to "
            "SKILL.md")


def locate(dir_path: str, root: str, root_index: int, fence: list[str],
           sensitive: tuple[str, ...], *, real_dir: str | None = None,
           skill_md: str | None = None, md_is_link: bool | None = None) -> Location | None:
    """A Location for ``dir_path`` if it is a skill folder, with its fence problem if any.

    ``real_dir`` / ``skill_md`` / ``md_is_link`` may be passed by a caller that already
    knows them (a directory walk that saw no symlink), saving the realpath, listing and lstat.
    """
    skill_md = skill_md or _skill_file(dir_path)
    if skill_md is None or (os.path.basename(skill_md) != "SKILL.md" and _in_a_skill(dir_path, root, fence)):
        return None
    if real_dir is None:
        real_dir = os.path.realpath(dir_path)
    if fence and not any(is_inside(real_dir, _realpath(r)) for r in fence):
        return Location(dir_path, skill_md, root_index, root,
                        ("OUTSIDE_WORKSPACE", f"Skill directory is outside all configured workspace roots: {real_dir}"))
    if md_is_link is None:
        md_is_link = os.path.islink(skill_md)
    real_md = os.path.realpath(skill_md) if md_is_link else os.path.join(real_dir, os.path.basename(skill_md))
    if not is_inside(real_md, real_dir):
        return Location(dir_path, skill_md, root_index, root,
                        ("OUTSIDE_WORKSPACE", f"SKILL.md resolves outside its skill folder: {real_md}"))
    real = real_md if real_md != skill_md else None
    if is_sensitive(dir_path, sensitive) or (real_dir != dir_path and is_sensitive(real_dir, sensitive)):
        return Location(dir_path, skill_md, root_index, root,
                        ("SENSITIVE", f"Refusing to activate skill in sensitive path: {dir_path}"), real)
    base = os.path.basename(skill_md)
    if is_case_variant(base):
        return Location(dir_path, skill_md, root_index, root, ("SKILL_FILE_CASE", case_message(base)), real)
    return Location(dir_path, skill_md, root_index, root, real=real)


def _in_a_skill(dir_path: str, root: str, fence: list[str]) -> bool:
    """Whether a folder above ``dir_path`` holds a SKILL.md, up to and including the workspace
    folder holding it (``root`` without one): what ``find_skill_files`` knows from its walk, for
    a `skill.md` there."""
    stop = {os.path.normpath(f) for f in fence} or {os.path.normpath(root)}
    d = os.path.dirname(os.path.normpath(dir_path))
    for _ in range(64):
        if os.path.isfile(os.path.join(d, "SKILL.md")):
            return True
        if d in stop or os.path.dirname(d) == d:
            return False
        d = os.path.dirname(d)
    return False


# What a walk saw in a folder: (its skill file's path or None, whether that file is a symlink,
# None when that could not be read).
Seen = dict[str, tuple[str | None, bool | None]]


def scan_roots(roots: list[str], sensitive: tuple[str, ...], walked: Seen | None = None,
               cancelled: Callable[[], bool] | None = None) -> list[Location]:
    """Immediate skill subfolders of each root, in root order then name order.

    ``walked``: what ``find_skill_files`` saw (folders it listed), so that a root inside
    the walked tree is not listed a second time. ``cancelled``: asked every CANCEL_EVERY
    skills (raises Cancelled when it turns true).
    """
    out: list[Location] = []
    for index, root in enumerate(roots):
        real_root = _realpath(root)
        try:
            with os.scandir(root) as it:
                children = sorted((e.name, e.is_symlink()) for e in it if _is_dir(e))
        except OSError:
            continue
        for name, is_link in children:
            real = None if is_link else os.path.join(real_root, name)
            d = os.path.join(root, name)
            known = walked.get(d) if walked is not None and not is_link else None
            if known is None:
                loc = locate(d, root, index, roots, sensitive, real_dir=real)
            elif known[0] is None:
                continue
            else:
                loc = locate(d, root, index, roots, sensitive, real_dir=real, skill_md=known[0], md_is_link=known[1])
            if loc is not None:
                out.append(loc)
                if cancelled is not None and len(out) % CANCEL_EVERY == 0 and cancelled():
                    raise Cancelled
    return out


def nested_in_roots(loose: list[Location], roots: list[str]) -> list[Location]:
    """The skills among ``loose`` (found by the workspace walk) that sit below a root rather than in
    it (``root/group/skill``), as locations of that root: the harnesses that search a root
    recursively list them (Harness.depth; capture case nested-folders)."""
    out = []
    for loc in loose:
        parent = os.path.dirname(loc.dir)
        for index, root in enumerate(roots):
            if parent != root and is_inside(parent, root):
                out.append(Location(loc.dir, loc.path, index, root, loc.problem, loc.real))
                break
    return out


def scan_nested(roots: list[str], sensitive: tuple[str, ...], depth: int = 64) -> list[Location]:
    """Skill folders two to ``depth`` levels below each root (hidden folders and node_modules left
    out), as locations of their root: what a recursive harness scan finds beyond ``scan_roots``.
    A link to a folder is a skill folder when it holds one (Codex, OpenCode and Copilot CLI list
    it: the differential tester, seed 2026), with the fence's verdict; it is not searched further."""
    out: list[Location] = []
    for index, root in enumerate(roots):
        todo = [(root, 0)]
        while todo:
            folder, level = todo.pop()
            try:
                with os.scandir(folder) as it:
                    subs = sorted((e.name, _is_link(e) is not False) for e in it
                                  if not e.name.startswith(".") and e.name != "node_modules" and _is_dir(e))
            except OSError:
                continue
            for name, link in subs:
                d = os.path.join(folder, name)
                if level + 1 >= 2:
                    loc = locate(d, root, index, roots, sensitive)
                    if loc is not None:
                        out.append(loc)
                if level + 1 < depth and not link:
                    todo.append((d, level + 1))
    return out


def _is_link(entry: os.DirEntry[str]) -> bool | None:
    try:
        return entry.is_symlink()
    except OSError:
        return None  # unknown: locate() asks the file system itself


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows symlinks; the fence checks where they lead
    except OSError:
        return False


def git_ignored_dirs(top: str) -> frozenset[str]:
    """Absolute paths of git-ignored folders under ``top`` (empty when not a git work tree)."""
    probe = top
    while True:
        if os.path.exists(os.path.join(probe, ".git")):
            break
        parent = os.path.dirname(probe)
        if parent == probe:
            return frozenset()
        probe = parent
    import subprocess  # noqa: PLC0415 - only a walk inside a git repository asks git

    try:
        res = subprocess.run(
            # An untrusted repository's .git/config must not run anything: core.fsmonitor names a
            # command git would execute for ls-files. Nothing is read from stdin, no prompts.
            ["git", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-C", top, "ls-files",
             "--others", "--ignored", "--exclude-standard", "--directory", "-z"],
            capture_output=True, timeout=10, check=False, stdin=subprocess.DEVNULL,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    if res.returncode != 0:
        return frozenset()
    # Decoded as the file system's names are (surrogateescape): a folder whose name is not UTF-8
    # must compare equal to what scandir lists, or it is walked although git ignores it.
    return frozenset(os.path.normpath(os.path.join(top, os.fsdecode(p)))
                     for p in res.stdout.split(b"\0") if p.endswith(b"/"))


def _rank(name: str) -> int:
    return SKILL_FILES.index(name) if name in SKILL_FILES else len(SKILL_FILES)


class Cancelled(Exception):
    """A walk stopped because its caller no longer wants the answer."""


# Folders listed between two ``cancelled()`` calls (a 10,000-skill tree lists ~26,000 in ~1 s): a
# server's scan thread gives way to an edit there, so the stretch between two is kept short (about
# 1 ms; 256 folders held an edit's analysis back for up to 10 ms).
CANCEL_EVERY = 32


def find_skill_files(top: str, max_files: int = 200_000,
                     ignored: frozenset[str] | None = None, walked: Seen | None = None,
                     cancelled: Callable[[], bool] | None = None,
                     excluded: Callable[[str], bool] | None = None,
                     on_found: Callable[[str, str, bool | None], None] | None = None) -> list[tuple[str, str]]:
    """(SKILL.md path, real folder path) for every SKILL.md / skill.md under ``top``.

    Skips VCS, dependency, virtualenv and git-ignored folders; follows symlinked
    folders once (a cycle is never entered twice). ``walked`` receives, for every
    folder listed, its skill file (or None) and whether that file is a symlink.
    ``cancelled()`` is asked every CANCEL_EVERY folders; when it says so, Cancelled is raised.
    ``excluded(folder)``: folders not to walk (the `exclude` globs).
    ``on_found(path, real folder, whether the file is a symlink)``: each skill file of a folder
    walked, as the walk finds it (before the sorted list is returned).
    """
    top = os.path.normpath(top)
    if ignored is None:
        ignored = git_ignored_dirs(top)
    found: list[tuple[str, str]] = []
    real_top = os.path.realpath(top)
    seen_links: set[str] = {real_top}
    # (folder, real path, whether a folder above it holds a SKILL.md)
    stack: list[tuple[str, str, bool]] = [(top, real_top, False)]
    # The hot loop of discovery (a 10,000-skill tree lists ~26,000 folders): names are
    # tested before any call, and paths are joined by hand (every base is normalised).
    listed = 0
    while stack:
        d, real, in_skill = stack.pop()
        listed += 1
        if cancelled is not None and listed % CANCEL_EVERY == 0 and cancelled():
            raise Cancelled
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError:
            continue
        skill_files = []
        subdirs = []
        venv = False
        for e in entries:
            name = e.name
            if len(name) == 8 and (name in SKILL_FILES or is_case_variant(name)):
                skill_files.append(e)
            elif name == "pyvenv.cfg":
                venv = True
            elif name not in SKIP_DIRS and _is_dir(e) and (name not in OUTPUT_DIRS or holds_skills(e.path)):
                subdirs.append(e)
        if venv and d != top:
            continue
        # SKILL.md, then skill.md, then a case variant by name (reported as SKILL_FILE_CASE)
        chosen = _pick_skill_file([e.name for e in skill_files]) if skill_files else None
        if chosen is not None and chosen != "SKILL.md" and in_skill:
            # A `skill.md` in another skill's folder is one of its files (a template under
            # templates/: unseen vinnie357/claude-skills), not a skill no harness would read anyway.
            chosen = None
        skill = next((e for e in skill_files if e.name == chosen), None)
        is_link = _is_link(skill) if skill is not None else False
        if walked is not None:
            walked[d] = (skill.path, is_link) if skill is not None else (None, False)
        base = real if real.endswith(os.sep) else real + os.sep
        below = in_skill or chosen == "SKILL.md"
        kept = []
        links = []
        for e in subdirs:
            if (ignored and e.path in ignored) or (excluded is not None and excluded(e.path)):
                continue
            if e.is_symlink():
                links.append(e)
            else:
                kept.append((e.path, base + e.name, below))
        # Links in name order: which of two links to one folder is walked (the other is a
        # duplicate) must not depend on the order the file system lists them.
        for e in sorted(links, key=lambda e: e.name):
            target = os.path.realpath(e.path)
            # A link back into what is being walked would loop (or double-count).
            if target in seen_links or is_inside(real, target):
                continue
            seen_links.add(target)
            if not is_inside(target, real_top):
                # Never walk outside the folder; a skill there is reported, not read.
                md = next((os.path.join(e.path, n) for n in SKILL_FILES
                           if os.path.lexists(os.path.join(e.path, n))), None)
                if md is not None:
                    found.append((md, target))
                continue
            kept.append((e.path, target, below))
        if skill is not None:
            found.append((skill.path, real))
            if on_found is not None:
                on_found(skill.path, real, is_link)
            if len(found) >= max_files:
                break
        stack.extend(sorted(kept, reverse=True))
    found.sort()
    return found


class ReadError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_skill_file(path: str) -> tuple[bytes, int]:
    """Bytes of a SKILL.md (at most READ_LIMIT) and its full size.

    Never blocks on a FIFO or device: the file is opened non-blocking and must be
    a regular file.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ReadError("IO_ERROR", _os_reason(path, exc)) from None
    if not stat.S_ISREG(st.st_mode):
        what = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device")
        raise ReadError("IO_ERROR", f"{os.path.basename(path)} is {what}, not a regular file")
    try:
        fd = os.open(path, _NON_BLOCKING)
    except OSError as exc:
        raise ReadError("IO_ERROR", _os_reason(path, exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped after the stat
            raise ReadError("IO_ERROR", f"{os.path.basename(path)} is not a regular file")
        return _read_up_to(fd, READ_LIMIT, st.st_size), st.st_size
    except OSError as exc:
        raise ReadError("IO_ERROR", _os_reason(path, exc)) from None
    finally:
        os.close(fd)


def read_regular(path: str, limit: int) -> bytes | None:
    """The first ``limit`` bytes of a regular file, or None for anything else (missing, a folder,
    unreadable, a FIFO or a device: opened non-blocking and never read, so a FIFO named where a
    skill's file is expected cannot hang a check)."""
    try:
        fd = os.open(path, _NON_BLOCKING)
    except OSError:
        return None
    try:
        return _read_up_to(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(fd)


# Opening a FIFO this way returns at once (and a terminal never becomes the controlling one).
_NON_BLOCKING = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def _read_up_to(fd: int, limit: int, size: int = -1) -> bytes:
    """At most ``limit`` bytes of an open regular file, a buffer of at most 64 KiB a read.
    ``size``: what a stat said it holds; one read of a byte more tells it ends there (a short
    read of a regular file is its end), without a 64 KiB buffer and a second read."""
    if 0 <= size < min(limit, 1 << 16):
        head = os.read(fd, size + 1)
        if len(head) <= size:
            return head
        return head + _read_up_to(fd, limit - len(head))  # it grew since the stat
    chunks = []
    while limit > 0:
        chunk = os.read(fd, min(limit, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
    return b"".join(chunks)


def _os_reason(path: str, exc: OSError) -> str:
    import errno  # noqa: PLC0415

    name = os.path.basename(path)
    if exc.errno == errno.ELOOP:
        return f"{name} is a symlink loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied reading {name}"
    if exc.errno == errno.ENOENT:
        return f"{name} does not exist (dangling symlink or deleted during the scan)"
    return f"cannot read {name}: {exc.strerror or exc}"
