"""The CLI keeps Python's cyclic collector off while modules load and while a small run checks
(cli.main, commands/check.py), on for large runs, and as it found it when `main` returns."""

from __future__ import annotations

import contextlib
import gc
import io
from pathlib import Path

import pytest

from helpers import skill_text, write_skill
from skill_lsp import cli
from skill_lsp.commands import check


def _workspace(tmp_path: Path, skills: int) -> Path:
    for i in range(skills):
        write_skill(tmp_path / ".agents/skills", f"s{i}", skill_text(name=f"s{i}"))
    return tmp_path


def _collecting_during_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, skills: int) -> set[bool]:
    seen: set[bool] = set()
    real = check.check_job

    def job(work):  # noqa: ANN001, ANN202 - the check job's own signature
        seen.add(gc.isenabled())
        return real(work)

    monkeypatch.setattr(check, "check_job", job)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["check", "--format", "json", "--jobs", "1", str(_workspace(tmp_path, skills))]) == 0
    return seen


def test_off_while_a_small_run_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert _collecting_during_check(tmp_path, monkeypatch, 2) == {False}
    assert gc.isenabled()


def test_on_for_a_large_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert _collecting_during_check(tmp_path, monkeypatch, check._COLLECT_MIN) == {True}


@pytest.mark.parametrize("before", [True, False])
def test_main_leaves_the_collector_as_it_found_it(tmp_path: Path, before: bool):
    _workspace(tmp_path, 1)
    (gc.enable if before else gc.disable)()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["check", str(tmp_path)])
            cli.main(["rules"])
        assert gc.isenabled() is before
    finally:
        gc.enable()
