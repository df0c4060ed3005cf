"""The plain command lines, parsed without argparse.

Importing argparse (with gettext and locale) and building a subcommand's parser was about 5 ms,
a sixth of a one-skill `check`, paid by every pre-commit hook and on-save lint. A subcommand
declares its arguments once (`cli.py`); here the declarations are recorded instead of handed to
argparse, and a command line made only of exact option names, values that cannot be mistaken
for options and one run of positional arguments is parsed from them. Anything else (``-h``,
an abbreviation, ``-qw``, ``--``, a value argparse would refuse, a second run of positionals)
answers None and goes to argparse, which parses it or words the error. A test compares both
on generated command lines: where this parser answers, argparse answers the same.
"""

from __future__ import annotations

import types

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

_MISSING = object()


class Argument:
    """One declared argument, as much of it as parsing needs."""

    __slots__ = ("action", "choices", "default", "dest", "nargs", "type")

    def __init__(self, dest: str, action: str | None, nargs: str | None, default: Any,
                 type_: Callable[[str], Any] | None, choices: Iterable[Any] | None) -> None:
        self.dest = dest
        self.action = action
        self.nargs = nargs
        self.default = default
        self.type = type_
        self.choices = None if choices is None else tuple(choices)


class Recorder:
    """Takes a subcommand's ``add_argument`` calls in place of an ArgumentParser. Declarations
    this parser does not model (another action, nargs on an option, a second positional, a
    required option) mark the command as argparse's alone."""

    def __init__(self) -> None:
        self.options: dict[str, Argument] = {}
        self.positional: Argument | None = None
        self.arguments: list[Argument] = []
        self.supported = True

    def add_argument(self, *names: str, action: str | None = None, nargs: str | None = None,
                     default: Any = None, type: Callable[[str], Any] | None = None,  # noqa: A002 - argparse's name
                     choices: Iterable[Any] | None = None, dest: str | None = None, required: bool = False,
                     metavar: str | None = None, help: str | None = None) -> None:  # noqa: A002, ARG002
        if not names[0].startswith("-"):
            arg = Argument(dest or names[0], action, nargs, default, type, choices)
            if self.positional is not None or action is not None or nargs not in (None, "?", "*"):
                self.supported = False
            self.positional = arg
        else:
            long = next((n for n in names if n.startswith("--")), names[0])
            if action == "store_true":
                default = False if default is None else default
            arg = Argument(dest or long[2:].replace("-", "_"), action, nargs, default, type, choices)
            if action not in (None, "store_true", "append") or nargs is not None or required:
                self.supported = False
            for n in names:
                self.options[n] = arg
        self.arguments.append(arg)


def parse(recorder: Recorder, command: str, argv: Sequence[str]) -> types.SimpleNamespace | None:
    """``argv`` (the words after the subcommand) as argparse would parse them, or None where
    argparse must decide."""
    if not recorder.supported:
        return None
    values: dict[str, Any] = {"command": command}
    seen: set[str] = set()
    positionals: list[str] | None = None  # the one run of positional words
    run_ended = False
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if not word.startswith("-") or word == "-":
            if word == "-" or run_ended:
                return None
            if positionals is None:
                positionals = []
            positionals.append(word)
            continue
        if positionals is not None:
            run_ended = True
        name, eq, explicit = word.partition("=") if word.startswith("--") else (word, "", "")
        arg = recorder.options.get(name)
        if arg is None:  # -h, --help, --, an abbreviation, -qw, -j4, an unknown option
            return None
        if arg.action == "store_true":
            if eq:
                return None
            values[arg.dest] = True
            seen.add(arg.dest)
            continue
        if eq:
            text = explicit
        elif i < len(argv) and not argv[i].startswith("-"):
            text = argv[i]
            i += 1
        else:
            return None
        value = _value(arg, text)
        if value is _MISSING:
            return None
        if arg.action == "append":
            values[arg.dest] = [*(values.get(arg.dest) or ()), value]
        else:
            values[arg.dest] = value
        seen.add(arg.dest)
    pos = recorder.positional
    if pos is not None:
        if positionals is None:
            if pos.nargs is None:
                return None  # a required positional is missing: argparse words it
            if pos.nargs == "*" and pos.default is None:
                values[pos.dest] = []
                seen.add(pos.dest)
        else:
            if pos.nargs != "*" and len(positionals) > 1:
                return None
            got = [_value(pos, text) for text in positionals]
            if any(v is _MISSING for v in got):
                return None
            values[pos.dest] = got if pos.nargs == "*" else got[0]
            seen.add(pos.dest)
    elif positionals is not None:
        return None
    for arg in recorder.arguments:
        if arg.dest not in seen:
            default = arg.default
            # argparse converts a string default with the argument's type.
            values[arg.dest] = arg.type(default) if isinstance(default, str) and arg.type else default
    return types.SimpleNamespace(**values)


def _value(arg: Argument, text: str) -> Any:
    if arg.type is not None:
        try:
            value = arg.type(text)
        except (TypeError, ValueError):
            return _MISSING
    else:
        value = text
    if arg.choices is not None and value not in arg.choices:
        return _MISSING
    return value
