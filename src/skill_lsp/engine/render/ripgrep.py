"""The files ``rg --files --hidden`` lists under a folder: what OpenCode's skill tool samples.

OpenCode 1.18.33 runs ``rg --no-config --files --hidden --glob=!**/SKILL.md --glob=!**/.git/** .``
in the skill's folder (read from the release). ripgrep leaves out symbolic links (no
``--follow``) and what ignore files exclude: ``.rgignore`` and ``.ignore`` always,
``.gitignore`` and ``.git/info/exclude`` only inside a git repository, from the folder's own
up through its parents; a file nearer the path wins within a kind, and the kinds rank
``.rgignore`` > ``.ignore`` > ``.gitignore`` > ``exclude`` (the ``ignore`` crate's
``matched_ignore``). A user's global excludes file is not read here.

Patterns follow gitignore's syntax, each matched against the path itself (a folder's contents
are left out because the walk does not enter an ignored folder, as ripgrep's does not).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from ..discovery import read_regular

KINDS = (".rgignore", ".ignore", ".gitignore")


class Patterns:
    """One ignore file's patterns: the last one that matches a path decides."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.rules: list[tuple[re.Pattern[str], bool, bool]] = []  # (regex, negated, folders only)
        for line in lines:
            rule = _rule(line)
            if rule is not None:
                self.rules.append(rule)

    def check(self, rel: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included (``!``), None: no pattern matches ``rel``."""
        for regex, negated, dirs_only in reversed(self.rules):
            if (is_dir or not dirs_only) and regex.fullmatch(rel):
                return not negated
        return None


def _rule(line: str) -> tuple[re.Pattern[str], bool, bool] | None:
    line = line.removesuffix("\r")
    # Trailing spaces go unless escaped with a backslash.
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    line = stripped
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated or line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dirs_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    if "/" in line:
        line = line.removeprefix("/")  # anchored to the ignore file's folder
    else:
        line = "**/" + line  # a bare name matches at any depth
    parts = line.split("/")
    out = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:.*/)?")
        else:
            out.append(_component(part) + ("" if last else "/"))
    return re.compile("".join(out), re.DOTALL), negated, dirs_only


def _component(part: str) -> str:
    out = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < len(part):
            i += 1
            out.append(re.escape(part[i]))
        elif c == "[":
            end = _class_end(part, i)
            if end is None:
                out.append(re.escape(c))
            else:
                body = part[i + 1:end]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                body = body.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
                body = body.replace("^", "\\^")
                out.append(f"(?!/)[^{body}]" if neg else f"[{body}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _class_end(part: str, start: int) -> int | None:
    i = start + 1
    if i < len(part) and part[i] in "!^":
        i += 1
    if i < len(part) and part[i] == "]":
        i += 1  # a ] first is a member
    while i < len(part):
        if part[i] == "]":
            return i
        i += 1
    return None


@lru_cache(maxsize=256)
def _patterns_of(lines: tuple[str, ...]) -> Patterns | None:
    patterns = Patterns(lines)
    return patterns if patterns.rules else None


def _read_lines(path: str) -> tuple[str, ...] | None:
    data = read_regular(path, 1 << 30)  # the whole file, as ripgrep reads it; never a FIFO
    return None if data is None else tuple(data.decode("utf-8", "replace").splitlines())


class _Layer:
    """The ignore files of one folder (None: that kind is absent or has no pattern)."""

    def __init__(self, folder: str, defaults: Mapping[str, Sequence[str]]) -> None:
        self.folder = folder
        self.specs: dict[str, Patterns | None] = {}
        for kind in KINDS:
            lines = _read_lines(os.path.join(folder, kind))
            if lines is None and kind == ".gitignore" and folder in defaults:
                lines = tuple(defaults[folder])
            self.specs[kind] = _patterns_of(lines) if lines is not None else None
        self.has_git = os.path.exists(os.path.join(folder, ".git"))
        exclude = _read_lines(os.path.join(folder, ".git", "info", "exclude")) if self.has_git else None
        self.exclude = _patterns_of(exclude) if exclude else None

    def check(self, spec: Patterns | None, path: str, is_dir: bool) -> bool | None:
        if spec is None:
            return None
        return spec.check(os.path.relpath(path, self.folder).replace(os.sep, "/"), is_dir)


def _ignored(path: str, is_dir: bool, layers: Sequence[_Layer]) -> bool:
    """``layers`` nearest first: each kind decided by its nearest match, the kinds in rank order."""
    any_git = any(layer.has_git for layer in layers)
    for kind in KINDS:
        for layer in layers:
            if kind == ".gitignore" and not any_git:
                break
            got = layer.check(layer.specs[kind], path, is_dir)
            if got is not None:
                return got
            if kind == ".gitignore" and layer.has_git:
                break  # a repository's root: .gitignore files above it do not apply
    if any_git:
        for layer in layers:
            if layer.has_git:
                got = layer.check(layer.exclude, path, is_dir)
                return bool(got)
    return False


def _parents(folder: str) -> list[str]:
    out = [folder]
    while True:
        up = os.path.dirname(out[-1])
        if up == out[-1]:
            return out
        out.append(up)


def files(folder: str, *, skip_names: frozenset[str] = frozenset(),
          default_gitignores: Mapping[str, Sequence[str]] | None = None) -> Iterator[str]:
    """Absolute paths of the files ripgrep lists under ``folder``, folders walked in name order
    (ripgrep's own order follows the file system). ``skip_names``: file names left out at any depth
    (``--glob=!**/NAME``); ``default_gitignores``: a folder's ``.gitignore`` lines when the file is
    not there (OpenCode writes one into each config folder when it starts)."""
    defaults = default_gitignores or {}
    # ripgrep runs with the folder as its working directory, whose parents are those of its real
    # path (a skill folder that is a link); the paths reported stay under ``folder`` as given.
    real = os.path.realpath(folder)
    parents = [_Layer(p, defaults) for p in _parents(real)]
    yield from _walk(real, os.path.abspath(folder), parents, skip_names, defaults)


def _walk(folder: str, shown: str, layers: list[_Layer], skip_names: frozenset[str],
          defaults: Mapping[str, Sequence[str]]) -> Iterator[str]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    subdirs = []
    for entry in entries:
        if entry.is_symlink():
            continue  # no --follow: links to files and to folders are both left out
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            if entry.name != ".git" and not _ignored(entry.path, True, layers):
                subdirs.append(entry.name)
        elif entry.name not in skip_names and not _ignored(entry.path, False, layers):
            yield os.path.join(shown, entry.name)
    for name in subdirs:
        sub = os.path.join(folder, name)
        yield from _walk(sub, os.path.join(shown, name), [_Layer(sub, defaults), *layers], skip_names, defaults)
