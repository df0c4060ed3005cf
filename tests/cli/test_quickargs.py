"""The quick parser (`quickargs.py`) against argparse, on generated command lines: where the
quick parser answers, argparse parses the same line to the same values; where argparse
refuses a line, the quick parser leaves it to argparse."""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skill_lsp import quickargs
from skill_lsp.cli import _ARGUMENTS, QUICK, build_parser


def _quick(command: str, words: list[str]) -> dict | None:
    recorder = quickargs.Recorder()
    _ARGUMENTS[command](recorder)
    ns = quickargs.parse(recorder, command, words)
    return None if ns is None else vars(ns)


def _argparse(command: str, words: list[str]) -> dict | None:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(build_parser(command).parse_args([command, *words]))
        except SystemExit:
            return None


def _vocabulary(command: str) -> list[str]:
    """Words a command line of ``command`` is made of: every option string, abbreviations,
    ``=`` forms, each choice and wrong ones, numbers, paths, and argparse's own specials."""
    sub = next(a for a in build_parser(command)._actions if isinstance(a, argparse._SubParsersAction))
    words = {"-", "--", "-h", "--help", "a", "b/c", "SKILL.md", "0", "3", "-1", "x", "", "=", "-qw", "-j2",
             "-o=r.json", "--no-such-option"}
    for action in sub.choices[command]._actions:
        for option in action.option_strings:
            words.add(option)
            if option.startswith("--"):
                words.add(option[:5])
                words.add(option + "=")
                words.add(option + "=x")
                words.update(f"{option}={c}" for c in action.choices or ())
        words.update(str(c) for c in action.choices or ())
        if action.choices:
            words.add(str(next(iter(action.choices))).upper())
    return sorted(words)


@pytest.mark.parametrize("command", sorted(QUICK))
def test_quick_parse_agrees_with_argparse_on_generated_lines(command: str) -> None:
    vocabulary = _vocabulary(command)
    answered = 0

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(st.lists(st.sampled_from(vocabulary), max_size=7))
    def agree(words: list[str]) -> None:
        nonlocal answered
        quick = _quick(command, words)
        if quick is not None:
            answered += 1
            assert quick == _argparse(command, words), words

    agree()
    assert answered > 5, f"the quick parser answered only {answered} of 400 generated lines"


@pytest.mark.parametrize("words", [
    ["check"], ["check", "."], ["check", "--format", "json", "."], ["check", "--format=sarif", "-o", "r.sarif"],
    ["check", "-q", "--fix", "a", "b/SKILL.md"], ["check", "--select", "NAME", "--select", "LINK_", "--jobs", "2"],
    ["check", "a", "b", "--exit-zero", "--fail-on", "warning", "--target", "codex,claude-code"],
    ["check", "--fix", "--diff", "--unsafe-fixes", "--force-exclude", "x"], ["check", "--profile", "codex"],
    ["preview", "my-skill", "--dialect", "codex"], ["preview", "--as-user", "my-skill", "--arguments", "{}"],
    ["catalog"], ["catalog", "--format", "json", "a", "b"], ["serve"], ["serve", "--stdio"],
])
def test_plain_command_lines_are_parsed_without_argparse(words: list[str]) -> None:
    quick = _quick(words[0], words[1:])
    assert quick is not None
    assert quick == _argparse(words[0], words[1:])


@pytest.mark.parametrize("words", [
    ["check", "-h"], ["check", "--form", "json"], ["check", "-qw"], ["check", "a", "-q", "b"],
    ["check", "--format", "yaml"], ["check", "--jobs", "two"], ["check", "--fix=yes"], ["check", "--", "-a"],
    ["check", "--output-file"], ["check", "-o", "-"], ["preview"], ["preview", "a", "b"], ["serve", "x"],
])
def test_what_argparse_must_decide_is_left_to_it(words: list[str]) -> None:
    assert _quick(words[0], words[1:]) is None


def test_a_plain_check_does_not_import_argparse(tmp_path) -> None:
    code = ("import sys, io, contextlib\n"
            "from skill_lsp.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['check', '--format', 'json', '--quiet', '.'])\n"
            "print(sorted(m for m in ('argparse', 'gettext', 'locale') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_usage_errors_still_come_from_argparse(tmp_path) -> None:
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--diff", "."], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.startswith("usage: skill-lsp ")
    assert "--diff needs --fix" in out.stderr


def _declare(p) -> None:
    """Shapes no subcommand declares today, so that a new one is parsed as argparse parses it."""
    p.add_argument("which", nargs="?", choices=("one", "two"), default="one")
    p.add_argument("--count", "-c", type=int, default="4")
    p.add_argument("--tag", action="append")
    p.add_argument("--loud", action="store_true")
    p.add_argument("--mode", choices=("a", "b"))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["one", "two", "three", "--count", "-c", "--count=7", "x", "5", "--tag", "--tag=t",
                                 "--loud", "--loud=1", "--mode", "a", "c", "--mode=b", "-", "--", "--co"]), max_size=6))
def test_other_declarations_are_parsed_as_argparse_parses_them(words: list[str]) -> None:
    recorder = quickargs.Recorder()
    _declare(recorder)
    quick = quickargs.parse(recorder, "x", words)
    parser = argparse.ArgumentParser(exit_on_error=False)
    _declare(parser)
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            expected = {"command": "x", **vars(parser.parse_args(words))}
        except (SystemExit, argparse.ArgumentError):
            expected = None
    if quick is not None:
        assert vars(quick) == expected
