"""`skill-lsp capture`: the user's own installed harness against a loopback endpoint.

The pinned releases of the capture rig (installed by `python -m capture install` into
~/.cache/skill-lsp/harness) stand in for what a user has installed: their npm `.bin`
folder goes on PATH, exactly as `npm install -g` would put it there.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from helpers import REPO, require, run_cli

sys.path.insert(0, str(REPO))

from capture.install import install_dir, pins  # noqa: E402


def _bin(harness: str) -> Path:
    return install_dir(pins()[harness]) / "node_modules" / ".bin"


def _need(harness: str) -> Path:
    folder = _bin(harness)
    require((folder / ("claude" if harness == "claude-code" else harness)).exists(),
            f"the pinned {harness} release", "python -m capture install")
    return folder


def _workspace(root: Path) -> Path:
    ws = root / "project"
    for rel, name, description in ((".claude/skills", "pdf-toolkit", "Extracts text from PDF files."),
                                   (".claude/skills", "release-notes", "Drafts release notes. Use when releasing."),
                                   (".agents/skills", "csv-report", "Summarises a CSV file as a table.")):
        folder = ws / rel / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n"
                                         f"# {name}\n\nRun it on $ARGUMENTS.\n", encoding="utf-8")
    (ws / ".claude/skills/pdf-toolkit/scripts").mkdir()
    (ws / ".claude/skills/pdf-toolkit/scripts/extract.py").write_text("print('x')\n", encoding="utf-8")
    return ws


def _env(*folders: Path) -> dict[str, str]:
    return {"PATH": os.pathsep.join([*map(str, folders), os.environ.get("PATH", "")])}


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_capture_runs_the_installed_harness_and_agrees(tmp_path, harness):
    ws = _workspace(tmp_path)
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    proc = run_cli("capture", "--harness", harness, str(ws), "--skill", "pdf-toolkit" if harness == "claude-code"
                   else "csv-report", "--arguments", "report.pdf", "--format", "json",
                   env=_env(_need(harness)), timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(proc.stdout)
    assert data["agrees"] is True and data["version"] == pins()[harness].version
    assert data["catalog"]["release"] == data["catalog"]["skill_lsp"]
    if harness == "claude-code":
        assert "- pdf-toolkit: Extracts text from PDF files." in data["catalog"]["release"]
        assert "csv-report" not in data["catalog"]["release"]  # Claude Code does not read .agents/skills
        (act,) = data["activations"]
        assert act["release"].startswith("Base directory for this skill: <workspace>/.claude/skills/pdf-toolkit\n")
        assert "Run it on report.pdf." in act["release"]
    else:
        assert "- csv-report: Summarises a CSV file as a table." in data["catalog"]["release"]
        (act,) = data["activations"]
        assert act["release"].startswith("<skill>\n<name>csv-report</name>\n")
    # Built-in skills are named, never shown.
    assert all(b not in data["catalog"]["release"] for b in data["builtins"])
    # The workspace itself is never written: the harness ran on a copy.
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before


def test_capture_text_output_shows_catalog_activation_and_verdict(tmp_path):
    ws = _workspace(tmp_path)
    proc = run_cli("capture", "--harness", "claude", str(ws), "--all", env=_env(_need("claude-code")), timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert proc.stdout.startswith("== catalog (Claude Code 2.1.332, roots: .claude/skills; built-in skills left out: ")
    assert proc.stdout.count("== skill-lsp's preview: the same ==") == 3  # the catalog and two activations
    assert "== activation of release-notes ==" in proc.stdout
    assert "agrees: catalog same, 2/2 activations the same" in proc.stderr


def test_capture_shows_a_difference_as_a_diff(tmp_path):
    """A block scalar header after a lone carriage return: js-yaml refuses it and Gemini CLI's line
    reader reads "> Folded text."; skill-lsp's reading of its reader takes the YAML (capture/diff/
    FINDINGS.md, still open), so the comparison shows the difference."""
    core = install_dir(pins()["gemini"]) / "node_modules" / "@google" / "gemini-cli-core"
    require(core.is_dir(), "the pinned gemini-cli-core release", "python -m capture install")
    ws = tmp_path / "project"
    folder = ws / ".gemini/skills/cr-block"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_bytes(b"---\nname: cr-block\ndescription: \r>\n  Folded text.\n---\nBody\n")
    proc = run_cli("capture", "--harness", "gemini", "--command", str(core), str(ws), timeout=300)
    assert proc.returncode == 1, proc.stderr + proc.stdout
    assert "== skill-lsp's preview differs ==" in proc.stdout
    assert "--- skill-lsp/catalog\n+++ release/catalog\n" in proc.stdout
    assert "+    <description>> Folded text.</description>" in proc.stdout
    assert "DIFFERS" in proc.stderr


def test_capture_names_the_version_when_it_is_not_the_proven_one(tmp_path):
    """A newer `claude` on PATH (a wrapper answering --version with 9.9.9): the comparison says which
    release skill-lsp's facts were proven on."""
    real = _need("claude-code") / "claude"
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "claude").write_text(f'#!/bin/sh\nif [ "$1" = "--version" ]; then echo "9.9.9 (Claude Code)"; exit 0; fi\n'
                                 f'exec "{real}" "$@"\n', encoding="utf-8")
    (fake / "claude").chmod(0o755)
    ws = _workspace(tmp_path)
    proc = run_cli("capture", "--harness", "claude-code", str(ws), env=_env(fake), timeout=300)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "skill-lsp capture: Claude Code 9.9.9" in proc.stderr
    assert "skill-lsp's facts were proven on 2.1.332: this comparison is the proof for 9.9.9" in proc.stderr


def test_capture_without_the_harness_says_how_to_install_it(tmp_path):
    proc = run_cli("capture", "--harness", "opencode", str(tmp_path), "--command", str(tmp_path / "nope"))
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("not found; install opencode-ai (npm) or pass --command PATH")
    assert proc.stdout == ""


def test_capture_endpoint_binds_loopback_and_answers_its_queue():
    """The endpoint the harness talks to listens on 127.0.0.1, answers one queued call per turn
    that offers the tool, then plain text; it stops by itself."""
    import urllib.request  # noqa: PLC0415

    from skill_lsp.capture.endpoint import Endpoint, ToolCall  # noqa: PLC0415

    body = json.dumps({"model": "m", "tools": [{"name": "Skill"}], "messages": []}).encode()
    with Endpoint([ToolCall("Skill", {"skill": "a"}), ToolCall("Skill", {"skill": "b"})], max_requests=5,
                  lifetime=30) as ep:
        assert ep.server.server_address[0] == "127.0.0.1"
        answers = []
        for _ in range(3):
            req = urllib.request.Request(f"{ep.url}/v1/messages", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - loopback
                answers.append(json.loads(resp.read()))
    assert [(b["id"], b["input"]) for b in answers[0]["content"]] == [("toolu_mock_1", {"skill": "a"})]
    assert [(b["id"], b["input"]) for b in answers[1]["content"]] == [("toolu_mock_2", {"skill": "b"})]
    assert answers[2]["content"] == [{"type": "text", "text": "Done."}]  # the queue is empty: plain text
    with Endpoint([ToolCall("Skill", {"skill": "a"}), ToolCall("Skill", {"skill": "b"})], parallel=True,
                  max_requests=5, lifetime=30) as ep:
        req = urllib.request.Request(f"{ep.url}/v1/messages", data=body, method="POST")
        with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - loopback
            both = json.loads(resp.read())
    assert [b["input"]["skill"] for b in both["content"]] == ["a", "b"]  # parallel: every call in one turn
