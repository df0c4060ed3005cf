"""`check --watch`: check, then check again whenever a file under the named paths changes.

File events come from watchfiles (the Rust `notify` crate: inotify, FSEvents, ReadDirectoryChangesW),
an optional extra: the linter itself needs no native code beyond what it has, and an editor gets
file events from the client. Events are grouped (a `git checkout` is one re-check, not hundreds);
each re-check reads the config file again. Ctrl-C stops it quietly with exit 0.
"""

from __future__ import annotations

import os
import sys

from ..engine.config import find_config_file
from ..engine.discovery import OUTPUT_DIRS, SKIP_DIRS, holds_skills

TYPE_CHECKING = False  # type checkers take this as True; a run does not import argparse for a name
if TYPE_CHECKING:
    from argparse import Namespace

# Milliseconds: events are grouped until none came for STEP_MS, for at most DEBOUNCE_MS.
DEBOUNCE_MS = 800
STEP_MS = 50
RUST_TIMEOUT_MS = 200


def _watched(args: Namespace) -> list[str]:
    """Folders to watch: each named folder, the folder of each named file, and the config file."""
    out: list[str] = []
    for raw in args.paths:
        p = os.path.abspath(raw)
        out.append(p if os.path.isdir(p) else os.path.dirname(p))
    first = out[0] if out else os.getcwd()
    config = args.config or find_config_file(first)
    if config is not None:
        out.append(os.path.abspath(config))
    # A folder inside another one is watched through it (watching both reports events twice).
    keep = []
    for p in sorted(set(out), key=len):
        if not any(p == k or p.startswith(k.rstrip(os.sep) + os.sep) for k in keep if os.path.isdir(k)):
            keep.append(p)
    return keep


def _in_build_output(path: str, tops: list[str]) -> bool:
    """Whether ``path`` lies in a `build` or `dist` folder below a watched folder that the check
    does not walk (no skills in it): a build in watch mode must not start a check at each of its
    writes. The folders above a watched one are not the walk's."""
    for top in tops:
        if path.startswith(top.rstrip(os.sep) + os.sep):
            probe = top
            for part in os.path.relpath(os.path.dirname(path), top).split(os.sep):
                probe = os.path.join(probe, part)
                if part in OUTPUT_DIRS and not holds_skills(probe):
                    return True
            return False
    return False


def run_watch(args: Namespace) -> int:
    try:
        import watchfiles  # noqa: PLC0415
    except ImportError:
        print("skill-lsp: --watch needs the watchfiles package: pip install 'skill-lsp[watch]'", file=sys.stderr)
        return 2
    from .check import check_once  # noqa: PLC0415

    output = os.path.realpath(args.output_file) if args.output_file else None  # what ``check._output`` writes
    tops = sorted((p for p in _watched(args) if os.path.isdir(p)), key=len, reverse=True)

    class Filter(watchfiles.DefaultFilter):
        ignore_dirs = tuple(SKIP_DIRS)

        def __call__(self, change: watchfiles.Change, path: str) -> bool:
            name = os.path.basename(path)
            # Our own report (and its temporary file) must not start the next check.
            if path == output or (name.startswith(".skill-lsp-") and name.endswith(".tmp")):
                return False
            # A skill file always counts: the last one leaving `build/` changes what is checked.
            return super().__call__(change, path) and (name.lower() == "skill.md" or not _in_build_output(path, tops))

    try:
        check_once(args)
        sys.stdout.flush()
        paths = _watched(args)
        announced = False
        # yield_on_timeout: an empty set every RUST_TIMEOUT_MS, the first one once the watcher
        # runs -- only then is "watching" true (a change made before it would be missed).
        for changes in watchfiles.watch(*paths, watch_filter=Filter(), debounce=DEBOUNCE_MS, step=STEP_MS,
                                        rust_timeout=RUST_TIMEOUT_MS, yield_on_timeout=True):
            if not announced:
                print(f"skill-lsp: watching {', '.join(os.path.relpath(p) for p in paths)} for changes "
                      "(Ctrl-C stops)", file=sys.stderr, flush=True)
                announced = True
            if not changes:
                continue
            if sys.stdout.isatty() and not args.output_file:
                sys.stdout.write("\033[2J\033[H")  # a fresh screen, as `ruff --watch`
            n = len({p for _, p in changes})
            print(f"skill-lsp: {n} file{'s' if n != 1 else ''} changed; checking again", file=sys.stderr, flush=True)
            check_once(args)
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    return 0
