"""What `check` and `catalog` run on: configured roots plus a recursive search."""

from __future__ import annotations

import os

from ..engine import discovery, pathglobs
from ..engine.config import DEFAULT_ROOTS, Settings, find_config_file, load_workspace, merge
from ..engine.datarecord import datarecord, field
from ..engine.discover import discover

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable


@datarecord
class Targets:
    """What a command checks: the workspace, its settings and the skills found."""

    workspace: str
    settings: Settings
    problems: list[str] = field(default_factory=list)  # kept for callers; settings problems are errors now
    # A missing PATH or --config file, or a setting that is wrong: nothing is linted (exit 2).
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said on stderr; the exit code does not change
    locations: list[discovery.Location] = field(default_factory=list)  # in roots, with precedence
    loose: list[discovery.Location] = field(default_factory=list)  # found elsewhere by the recursive search
    # With SKILL.md paths given (a pre-commit hook passes the changed files): those files. Every
    # skill of their workspace is checked, for the cross-skill rules, but only these reported.
    focus: set[str] | None = None

    def in_focus(self, path: str) -> bool:
        return self.focus is None or os.path.normpath(os.path.abspath(path)) in self.focus


def missing_config(config: str | None) -> str | None:
    if config is not None and not os.path.isfile(config):
        return f"config file not found: {config}"
    return None


def load_settings(workspace: str, config: str | None, profile: str | None,
                  target: str | None = None, cli: dict | None = None) -> tuple[Settings, list[str]]:
    """Config file, then --profile / --target, then ``cli``: the command line's own layer
    (select / extend-select / ignore), with each problem found on the way."""
    if (missing := missing_config(config)) is not None:
        return Settings(), [missing]
    settings, problems = load_workspace(workspace, config)
    if profile:
        settings, more = merge(settings, {"profile": profile}, "--profile")
        problems += more
    if target:
        settings, more = merge(settings, {"targets": target}, "--target")
        problems += more
    if cli:
        settings, more = merge(settings, cli, "command line", anchor=os.getcwd())
        problems += more
    return settings, problems


def workspace_of(skill_md: str) -> str:
    """The workspace a SKILL.md given alone belongs to: the folder of the config that governs it,
    else the repository root (the nearest folder holding `.git`), else the folder holding the
    skills root it lives in (`ws/.claude/skills/x/SKILL.md` -> `ws`), else the folder holding
    the skill folder."""
    start = os.path.dirname(os.path.abspath(skill_md))
    config = find_config_file(start)
    if config is not None:
        return os.path.dirname(config)
    folder = start
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    root = os.path.dirname(start)
    for default in sorted(DEFAULT_ROOTS, key=len, reverse=True):
        if root.endswith(os.sep + default.replace("/", os.sep)):
            return root[: -len(default) - 1] or os.sep
    return root


def collect(paths: list[str], config: str | None, profile: str | None, target: str | None = None, *,
            cli: dict | None = None, force_exclude: bool = False,
            early: Callable[[discovery.Location, Settings], None] | None = None) -> Targets:
    """Resolve CLI paths into skill locations.

    Every folder is a workspace whose configured (or default) roots are scanned with
    precedence, and which is also searched recursively for SKILL.md files anywhere
    else (a folder holding SKILL.md is a skill, listed first): ``discover()``, which
    the language server's scan uses too. `exclude` globs leave out what the search
    finds; a path named here is checked anyway unless ``force_exclude`` (as ruff does).
    A settings problem is an error: nothing is collected.

    SKILL.md paths alone (no folder: what a pre-commit hook passes) are checked within their
    workspace (``workspace_of``): it is discovered whole, so duplicate names, shadowing and
    mentions see every skill, and ``focus`` keeps the report to the files given.

    ``early(location, settings)``: each skill as the walk finds it (``discover``'s ``early``): a
    large `check` starts checking them while the walk goes on. Only the returned targets are the
    answer.
    """
    first_dir = next((p for p in paths if os.path.isdir(p)), None)
    files_only = bool(paths) and first_dir is None
    if files_only and all(os.path.lexists(os.path.abspath(p)) for p in paths):
        workspace = workspace_of(paths[0])
    else:
        workspace = os.path.abspath(first_dir or os.path.dirname(os.path.abspath(paths[0])) if paths else ".")
    errors = [m for m in (missing_config(config),) if m is not None]
    errors += [f"no such file or folder: {raw}" for raw in paths if not os.path.lexists(os.path.abspath(raw))]
    if errors:
        return Targets(workspace, Settings(), errors=errors)
    settings, problems = load_settings(workspace, config, profile, target, cli)
    refused = settings.refused_roots(workspace)
    if refused and settings.roots:
        # A configuration error: the run would read (or --fix write) outside the repository.
        problems = problems + refused
    t = Targets(workspace, settings, errors=problems, notes=[] if settings.roots else refused)
    if problems:
        return t
    seen: set[str] = set()
    excluded = pathglobs.compile_all(settings.exclude + settings.extend_exclude) if force_exclude else None

    def add(loc: discovery.Location, into: list[discovery.Location]) -> None:
        key = os.path.normpath(loc.path)
        if key not in seen:
            seen.add(key)
            into.append(loc)

    found = None if early is None else (lambda loc: early(loc, settings))
    if files_only:
        files = [os.path.normpath(os.path.abspath(p)) for p in paths]
        # --force-exclude: a named file is left out like one the search found.
        return _with_context(t, [f for f in files if excluded is None or not pathglobs.matches(f, excluded)], add,
                             found)
    for raw in paths:
        path = os.path.abspath(raw)
        if excluded is not None and pathglobs.matches(path, excluded):
            continue  # --force-exclude: a named path is left out like one the search found
        if not os.path.isdir(path):
            d = os.path.dirname(path)
            named = None
            if discovery.is_case_variant(os.path.basename(path)):  # SKILL.MD named on the command line
                named = discovery.locate(d, d, -1, [], settings.sensitive_patterns, skill_md=path)
            add(named or discovery.Location(d, path, -1, d), t.loose)
            continue
        inv = discover(path, settings, early=found)
        for loc in inv.locations:
            add(loc, t.locations)
        for loc in inv.loose:
            add(loc, t.loose)
    return t


def _with_context(t: Targets, files: list[str], add, found) -> Targets:
    """Every skill of ``t.workspace``, with ``focus`` on ``files``; a file the workspace's
    discovery does not list (outside it, in an ignored folder) is checked alone, as before."""
    inv = discover(t.workspace, t.settings, early=found)
    where = {os.path.normpath(loc.path): loc for loc in inv.all}
    t.focus = set(files)
    for loc in inv.locations:
        add(loc, t.locations)
    for loc in inv.loose:
        add(loc, t.loose)
    for path in files:
        if path in where:
            continue
        d = os.path.dirname(path)
        named = None
        if discovery.is_case_variant(os.path.basename(path)):  # SKILL.MD named on the command line
            named = discovery.locate(d, d, -1, [], t.settings.sensitive_patterns, skill_md=path)
        add(named or discovery.Location(d, path, -1, d), t.loose)
    return t
