"""argparse's side of the command line: the parser classes, help width and translations.

Imported only when argparse parses (help, completion, a command line `quickargs` leaves to it).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys

from .cli import EXIT_USAGE


def bind_argparse_translations() -> None:
    """argparse translates each message with ``gettext.gettext``, which looks for ``.mo`` files on
    every call (about thirty times while the check parser is built, a few ms): look them up once and
    hand argparse the one translation, as it would have found it each time."""
    import gettext  # noqa: PLC0415 - argparse has imported it already

    domain = gettext.textdomain()
    t = gettext.translation(domain, gettext.bindtextdomain(domain), fallback=True)
    argparse._ = t.gettext  # type: ignore[attr-defined]
    argparse.ngettext = t.ngettext  # type: ignore[attr-defined]


@functools.cache
def _help_width() -> int:
    """What argparse's formatter asks shutil for (COLUMNS, else the terminal's, else 80), asked
    once: argparse builds a formatter for every add_argument, and importing shutil for it (with
    bz2 and lzma) was a tenth of a one-skill `check`."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns - 2


class Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width)


class RawFormatter(Formatter, argparse.RawDescriptionHelpFormatter):
    pass


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - argparse's own signature
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # usage errors exit 2 with one line, as argparse does
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"skill-lsp: error: {message}\n")
