"""Command line: check | preview | catalog | serve | schema | rules | harnesses | capture | completion.

Never imports pygls or lsprotocol except for `serve`, so `check` starts as fast
as the interpreter allows.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

from . import __version__

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .quickargs import Recorder

    # Subcommands declare their arguments to argparse's parser, or to the quick parser's recorder.
    Declares = argparse.ArgumentParser | Recorder

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# The subcommands whose plain command lines are parsed without argparse (`quickargs.py`).
QUICK = frozenset({"check", "preview", "catalog", "serve"})


COMMANDS = {
    "check": "lint skills (workspace folders, skill folders or SKILL.md files)",
    "preview": "print exactly what a harness hands the model when the skill activates",
    "catalog": "print the skill catalog a harness shows the model, with per-entry sizes",
    "serve": "run the language server (stdio by default)",
    "schema": "print a JSON Schema: SKILL.md frontmatter (default) or .skill-lsp.toml",
    "rules": "print the rule table",
    "harnesses": "print what each harness reads, lists and refuses",
    "capture": "run your installed harness against a loopback endpoint and compare what it sends the model "
               "with skill-lsp's preview",
    "completion": "print a shell completion script (bash, zsh or fish)",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``only`` the arguments of that one subcommand (the others
    are listed, with their help, but empty; ``only=""``: none, for --version, --help and a
    mistyped command): a run pays for the options it can parse and the modules their
    choices come from, not for every subcommand's."""
    from .argparser import Parser, RawFormatter, bind_argparse_translations  # noqa: PLC0415

    bind_argparse_translations()
    p = Parser(prog="skill-lsp", description="Language server, linter and activation previewer for Agent Skills.")
    p.add_argument("--version", action="version", version=f"skill-lsp {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, helptext in COMMANDS.items():
        sp = sub.add_parser(name, help=helptext)
        if only is not None and name != only:
            continue
        _ARGUMENTS[name](sp)
        # The examples at the end of every subcommand's --help.
        from .commands.examples import EXAMPLES  # noqa: PLC0415

        sp.epilog = EXAMPLES.get(name)
        sp.formatter_class = RawFormatter
    return p


def _target_help() -> str:
    from .engine.harness import HARNESSES  # noqa: PLC0415

    return (f"harnesses to check for, comma-separated ({', '.join(HARNESSES)}); "
            "default: inferred from the root each skill lives in")


def _harness_names() -> list[str]:
    from .engine.harness import HARNESSES  # noqa: PLC0415

    return list(HARNESSES)


def _check_arguments(c: Declares) -> None:
    c.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                   help="workspace folder, skill folder or SKILL.md (default: the current folder)")
    c.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text",
                   help="text (default), json, sarif (code scanning) or github (Actions annotations)")
    c.add_argument("--fail-on", choices=("error", "warning", "info", "hint", "never"), default="error",
                   help="exit 1 when a finding has at least this severity (default: error)")
    c.add_argument("--target", metavar="NAME[,NAME...]", help=_target_help())
    c.add_argument("--profile", choices=_harness_names(), help="one target (alias of --target NAME)")
    c.add_argument("--config", help="config file (TOML; default: .skill-lsp.toml or pyproject.toml [tool.skill-lsp])")
    c.add_argument("--fix", action="store_true", help="apply every safe fix in place")
    c.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix: apply unsafe fixes too (they may change meaning: code, examples, placeholders)")
    c.add_argument("--diff", action="store_true", help="with --fix: print the fixes as a unified diff, write nothing")
    c.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text format (default auto: on a terminal; NO_COLOR and FORCE_COLOR are honoured)")
    c.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (default: CPU count for large runs)")
    c.add_argument("--no-cache", action="store_true",
                   help="check every skill: do not reuse results of earlier runs (kept for runs of 200 skills or "
                        "more, in $XDG_CACHE_HOME/skill-lsp or SKILL_LSP_CACHE_DIR; off disables it)")
    sel = "rule codes or prefixes, comma-separated (NAME or NAME_: every NAME_* code; ALL: every rule)"
    c.add_argument("--select", action="append", metavar="CODES", help=f"report only these {sel}")
    c.add_argument("--extend-select", action="append", metavar="CODES", help=f"report these too: {sel}")
    c.add_argument("--ignore", action="append", metavar="CODES", help=f"do not report these: {sel}")
    c.add_argument("--statistics", action="store_true",
                   help="print how many findings of each code instead of the findings (text or json)")
    c.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE instead of stdout")
    c.add_argument("--quiet", "-q", action="store_true",
                   help="print the findings only: no summary line, nothing when there are none")
    c.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when there are findings (2 still means a usage or configuration error)")
    c.add_argument("--force-exclude", action="store_true",
                   help="apply exclude / extend-exclude to the paths named here too (pre-commit passes files)")
    c.add_argument("--watch", "-w", action="store_true",
                   help="check again whenever a file changes (needs the watch extra: pip install 'skill-lsp[watch]')")


def _preview_arguments(q: Declares, name: str) -> None:
    from .engine.config import DIALECT_NAMES  # noqa: PLC0415

    if name == "preview":
        q.add_argument("skill", metavar="NAME|PATH", help="skill name (from the workspace catalog) or a skill folder / SKILL.md")
        q.add_argument("--arguments", help="arguments: a string, or a JSON object for named arguments")
        q.add_argument("--as-user", action="store_true", help="user-initiated activation (passes disable-model-invocation)")
        q.add_argument("--workspace", default=".", help="workspace folder for name lookup (default: .)")
    else:
        q.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                       help="workspace folder or skills folder (default: the current folder)")
        q.add_argument("--state", choices=("first", "replacement"), default="first",
                       help="DSH: first publication or replacement wording")
    q.add_argument("--dialect", choices=DIALECT_NAMES, default=None,
                   help="the harness whose wording to reproduce (default: the configured dialect)")
    q.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: exactly what the model sees (default); json: with the details")
    q.add_argument("--config", help="config file (TOML; default: .skill-lsp.toml or pyproject.toml [tool.skill-lsp])")
    q.add_argument("--profile", choices=_harness_names(), help="one target (alias of --target NAME)")
    q.add_argument("--target", metavar="NAME[,NAME...]", help=_target_help())


def _serve_arguments(s: Declares) -> None:
    s.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    s.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead")


def _schema_arguments(sc: Declares) -> None:
    sc.add_argument("which", nargs="?", choices=("frontmatter", "config"), default="frontmatter",
                    help="frontmatter: SKILL.md frontmatter, for yaml-language-server (default); "
                         "config: .skill-lsp.toml and [tool.skill-lsp], for Even Better TOML / taplo")


def _table_arguments(r: Declares, what: str) -> None:
    r.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                   help=f"text (default), markdown (docs/{what}.md) or json")


def _capture_arguments(k: argparse.ArgumentParser) -> None:
    from .commands.capture import add_arguments  # noqa: PLC0415

    add_arguments(k)


def _completion_arguments(k: argparse.ArgumentParser) -> None:
    from .commands.completion import SHELLS  # noqa: PLC0415

    k.add_argument("shell", choices=SHELLS, help="the shell to print the script for")


_ARGUMENTS = {
    "check": _check_arguments,
    "preview": lambda q: _preview_arguments(q, "preview"),
    "catalog": lambda q: _preview_arguments(q, "catalog"),
    "serve": _serve_arguments,
    "schema": _schema_arguments,
    "rules": lambda r: _table_arguments(r, "rules"),
    "harnesses": lambda h: _table_arguments(h, "harnesses"),
    "capture": _capture_arguments,
    "completion": _completion_arguments,
}


def _quick_args(command: str, argv: Sequence[str]) -> Any:
    from . import quickargs  # noqa: PLC0415

    recorder = quickargs.Recorder()
    _ARGUMENTS[command](recorder)
    return quickargs.parse(recorder, command, argv)


def _usage_problem(args: Any) -> str | None:
    """The combinations argparse cannot refuse by itself."""
    if args.command != "check":
        return None
    if args.diff and not args.fix:
        return "--diff needs --fix (check --fix --diff shows the fixes without writing them)"
    if args.statistics and args.format not in ("text", "json"):
        return "--statistics prints text or json, not " + args.format
    if args.watch and args.diff:
        return "--watch does not go with --diff"
    if args.unsafe_fixes and not args.fix:
        return "--unsafe-fixes needs --fix (check --fix --unsafe-fixes applies safe and unsafe fixes)"
    return None


def _keep_patterns() -> None:
    """The regular expressions this run compiled, kept for the next (`engine/regexcache.py`)."""
    cache = sys.modules.get(f"{__package__}.engine.regexcache")
    if cache is not None:
        cache.save()


# Commands whose process ends when they return (``entry``).
_ENDS_HERE = frozenset({"check", "preview", "catalog"})


def entry() -> None:
    """The `skill-lsp` command: ``main``, then out without tearing the interpreter down.

    Finalising the interpreter frees every object and module one by one and collects them all:
    3-4 ms of a one-skill `check`, 10-50 ms after a 3,223-skill one. Once the report is out
    nothing is left to do (reports are written and closed, caches replaced into place, worker
    pools shut down), so check, preview and catalog flush and end there, as mypy does; the
    server and the other commands end as usual.
    """
    ends_here = sys.argv[1:2] and sys.argv[1] in _ENDS_HERE
    if ends_here:
        from . import modulecache  # noqa: PLC0415

        modulecache.install()
    code = main()
    if ends_here:
        gc.disable()  # the process ends below: a collection now would walk every object for nothing
        modulecache.save()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:
            raise SystemExit(code) from None  # the usual way, which reports a stream it cannot write
        os._exit(code)
    raise SystemExit(code)


def main(argv: Sequence[str] | None = None) -> int:
    # No cyclic collection while a command loads its modules and runs on a few skills: what
    # loads lives as long as the process, and each collection walks all of it (16 of them in a
    # one-skill check). `check` turns it back on for large runs (`commands/check.py`), every
    # other command before it runs.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv, collecting)
    finally:
        (gc.enable if collecting else gc.disable)()


def _lone_surrogates(err: UnicodeError) -> tuple[bytes, int]:
    """What a lone surrogate (an escape like `"\\ud83c"` in a YAML value) is written as: U+FFFD, as
    Node writes it to the model, not a traceback; one standing for a byte of a file name that is
    not UTF-8 (Python's surrogateescape, U+DC80-U+DCFF) as that byte, so the path printed is the
    file's. Bytes: a UTF-8 encoder takes a replacement str only when it is ASCII."""
    assert isinstance(err, UnicodeEncodeError)
    return b"".join(bytes((ord(c) - 0xDC00,)) if 0xDC80 <= ord(c) <= 0xDCFF else b"\xef\xbf\xbd"
                    for c in err.object[err.start:err.end]), err.end


def _main(argv: Sequence[str] | None, collecting: bool) -> int:
    import codecs  # noqa: PLC0415 - loaded at start-up already

    codecs.register_error("skill-lsp-fffd", _lone_surrogates)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure") and stream.encoding.lower().replace("-", "") == "utf8" and \
                stream.errors in ("strict", "surrogateescape"):
            stream.reconfigure(errors="skill-lsp-fffd")
    args_in = sys.argv[1:] if argv is None else list(argv)
    # The top level has no option taking a value: a first word naming a command is that command.
    command = args_in[0] if args_in and args_in[0] in COMMANDS else ""
    args: Any = _quick_args(command, args_in[1:]) if command in QUICK else None
    parser = None
    if args is None:
        parser = build_parser(command)
        args = parser.parse_args(args_in)
    problem = _usage_problem(args)
    if problem:
        (parser or build_parser(command)).error(problem)
    if args.command is None:
        (parser or build_parser("")).print_help()
        return EXIT_USAGE
    try:
        if args.command == "check":
            from .commands.check import run  # noqa: PLC0415
        elif args.command == "preview":
            from .commands.preview import run_preview as run  # noqa: PLC0415
        elif args.command == "catalog":
            from .commands.preview import run_catalog as run  # noqa: PLC0415
        elif args.command == "serve":
            from .commands.serve import run  # noqa: PLC0415
        elif args.command == "completion":
            from .commands.completion import run  # noqa: PLC0415
        elif args.command == "schema":
            from .commands.schema import run  # noqa: PLC0415
        elif args.command == "harnesses":
            from .commands.harnesses import run  # noqa: PLC0415
        elif args.command == "capture":
            from .commands.capture import run  # noqa: PLC0415
        else:
            from .commands.rules import run  # noqa: PLC0415
        if collecting and args.command != "check":
            gc.enable()
        code = run(args)
        _keep_patterns()
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `skill-lsp check | head`: the reader went away; exit quietly.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return EXIT_OK
