"""Every renderer against what the real harness releases sent the model (tests/golden/harness).

Each stored capture was recorded by ``python -m capture run`` from a pinned
release; here the same case workspace is laid out again, read with skill-lsp's
engine, rendered by the harness's dialect, normalised the same way, and
compared byte for byte.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from capture import layout  # noqa: E402

from skill_lsp.capture import expect  # noqa: E402
from skill_lsp.engine.activation.records import SkillRecord  # noqa: E402
from skill_lsp.engine.activation.results import OkResult  # noqa: E402
from skill_lsp.engine.render import get_dialect  # noqa: E402
from skill_lsp.engine.render.codex import codex_name  # noqa: E402
from skill_lsp.engine.rules.security import dynamic_spans  # noqa: E402

listing_roots = expect.listing_roots
catalog_roots = expect.catalog_roots


def _exact(path: Path) -> str:
    """A stored capture as written: a lone CR or a CRLF the release sent is kept (read_text would make it LF)."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def activation_name(harness: str, records: list[SkillRecord], name: str) -> SkillRecord | None:
    """The record the harness activates for ``name`` (None when it activates none)."""
    return get_dialect(harness).activation_record(records, name)  # type: ignore[attr-defined]


CAPTURES = sorted(p.parent for p in layout.GOLDEN.glob("*@*/*/meta.json"))


def _id(folder: Path) -> str:
    return f"{folder.parent.name.split('@')[0]}/{folder.name}"


def _known(part: str, strict: bool = True):  # type: ignore[no-untyped-def]
    """The captures, those where skill-lsp is known to disagree with the release on ``part``
    ("catalog" or "activation") marked xfail (strict: a fix makes them fail until unmarked; not for a
    deliberate one, `"deliberate": true`).
    The disagreements were found and shrunk by `python -m capture diff`; capture/diff/FINDINGS.md."""
    out = []
    for folder in CAPTURES:
        harness = folder.parent.name.split("@")[0]
        marks = []
        for data in layout.findings(layout.CASES / folder.name):
            if data["harness"] == folder.parent.name and not data["agrees"][part]:
                # A deliberate one (skill-lsp's own fence) may agree where a test looks at skill-lsp alone.
                marks.append(pytest.mark.xfail(strict=strict and not data.get("deliberate", False),
                                               reason=f"{harness}: known {data['what']} disagreement ({data['kind']})"))
        out.append(pytest.param(folder, id=_id(folder), marks=marks))
    return out


def _ok(record, arguments: str, harness: str = "", called: str | None = None) -> OkResult:
    # The harness activates what it lists (skill-lsp's own findings do not block the preview), as
    # skill_lsp.capture.expect asks it.
    return expect._ok(record, arguments, harness, called)


def _files_unordered(text: str) -> str:
    """OpenCode's <skill_files> come from ripgrep in the file system's directory order."""
    head, sep, rest = text.partition("<skill_files>\n")
    if not sep:
        return text
    files, sep2, tail = rest.partition("</skill_files>")
    return head + sep + "\n".join(sorted(files.split("\n"))) + sep2 + tail


def _hidden_builtins(folder: Path, roots: list[str], home: Path) -> list[tuple[str, str, str]]:
    """Codex's system skills, stripped from the capture but sharing its budget."""
    data = json.loads((folder.parent / "builtins.json").read_text(encoding="utf-8"))
    return expect._hidden_codex(data["skills"], home)


def _base_like_the_rig(parent: Path, chars: int | None) -> Path:
    """A folder whose path is as long as the one the capture ran in (Codex's budget
    depends on the length of its roots table)."""
    if chars is None or chars <= len(str(parent)) + 1:
        return parent / "case"
    return parent / ("p" * (chars - len(str(parent)) - 1))


@contextlib.contextmanager
def _lay_out(folder: Path):
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    case = next(c for c in layout.cases() if c.name == meta["case"])
    parent = Path(tempfile.mkdtemp(prefix="hc", dir="/tmp" if os.path.isdir("/tmp") else None))
    try:
        base = _base_like_the_rig(parent, meta.get("base_path_chars"))
        workspace, home = layout.materialise(case, meta["harness"], base)
        yield folder, meta, workspace, home
    finally:
        shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture(params=_known("catalog"))
def laid_out(request):
    with _lay_out(request.param) as laid:
        yield laid


# One skill's entry may agree where the catalog around it does not: not strict.
@pytest.fixture(params=_known("catalog", strict=False))
def laid_out_entries(request):
    with _lay_out(request.param) as laid:
        yield laid


@pytest.fixture(params=_known("activation"))
def laid_out_activation(request):
    with _lay_out(request.param) as laid:
        yield laid


# Codex cases with skills in one root only: with home roots too (`every-root`,
# `same-name-two-roots`) the release orders its table by root, which the other catalog
# test covers with the roots given explicitly.
@pytest.fixture(params=[c for c in CAPTURES if c.parent.name.startswith("codex@")
                        and not (layout.CASES / c.name / "home").exists()
                        and not (layout.CASES / c.name / "finding.json").exists()], ids=_id)
def codex_laid_out(request):
    with _lay_out(request.param) as laid:
        yield laid


def test_there_are_captures_for_every_harness():
    assert {p.parent.name.split("@")[0] for p in CAPTURES} >= {"claude-code", "codex", "opencode", "gemini"}
    assert len({p.name for p in CAPTURES}) >= 15


def test_catalog_matches_capture(laid_out):
    folder, meta, workspace, home = laid_out
    harness = meta["harness"]
    dialect = get_dialect(harness)
    if harness == "copilot":  # user or project scope is told by the home folder
        dialect = type(dialect)(home=str(home))  # type: ignore[call-arg]
    records = expect.records(harness, workspace, home)
    roots = catalog_roots(harness, workspace, home)
    if roots is not None:  # codex
        hidden = _hidden_builtins(folder, roots, home)
        text = dialect.render_catalog(records, roots=roots, hidden=hidden)  # type: ignore[call-arg]
    elif harness == "copilot":  # built-ins come last and share the budget
        builtins = json.loads((folder.parent / "builtins.json").read_text(encoding="utf-8"))["skills"]
        text = dialect.render_catalog(records, hidden=[(b["name"], b["entry_chars"]) for b in builtins])  # type: ignore[call-arg]
    else:
        text = dialect.render_catalog(records)
    expected = _exact(folder / "catalog.txt")
    assert layout.normalise(text, workspace, home) == expected


def test_codex_default_roots_and_system_skills_match_capture(codex_laid_out, monkeypatch):
    """Without ``roots``/``hidden`` Codex's renderer puts the system root (``$CODEX_HOME/skills/.system``,
    holding the release's built-ins) after the home roots: the capture's table when the skills sit in
    one project root."""
    folder, meta, workspace, home = codex_laid_out
    records = expect.records("codex", workspace, home)
    assert len({r.root for r in records}) == 1
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    text = get_dialect("codex").render_catalog(records)
    assert layout.normalise(text, workspace, home) == _exact(folder / "catalog.txt")
    monkeypatch.delenv("CODEX_HOME")
    monkeypatch.setenv("HOME", str(home))  # $CODEX_HOME defaults to ~/.codex
    assert get_dialect("codex").render_catalog(records) == text


def test_activation_matches_capture(laid_out_activation):
    folder, meta, workspace, home = laid_out_activation
    harness = meta["harness"]
    dialect = expect.dialect_for(harness, home)  # OpenCode saves a cut result under the home folder
    records = expect.records(harness, workspace, home)
    expected = _exact(folder / "activation.txt")
    record = activation_name(harness, records, meta["skill"])
    if record is None:
        assert not expect.activated(harness, expected), "the harness activated a skill skill-lsp says it would not"
        return
    if harness == "claude-code":
        _assert_permission_check_predicted(folder, record, expected)
        if expected == "":
            return
    result = _ok(record, meta["arguments"] if harness == "claude-code" else "", harness, meta["skill"])
    rendered = layout.normalise(dialect.render(result), workspace, home)
    if harness == "opencode":
        rendered, expected = _files_unordered(rendered), _files_unordered(expected)
    if harness == "claude-code" and dynamic_spans(rendered):
        _assert_commands_replaced(rendered, expected)
    else:
        assert rendered == expected
    if (folder / "tool_result.txt").exists():
        tool_result = dialect.tool_result(result)  # type: ignore[attr-defined]
        assert layout.normalise(tool_result, workspace, home) == _exact(folder / "tool_result.txt")


def _assert_commands_replaced(rendered: str, expected: str) -> None:
    """Claude Code ran the `!` commands skill-lsp lists (hover, preview, RISKY_DYNAMIC_COMMAND) and put
    their output in their place: the text between them is the capture's byte for byte, so a
    command skill-lsp does not list was not run, and no listed command reached the model as written."""
    spans = dynamic_spans(rendered)
    pattern, last = "", 0
    for start, end, _command in spans:
        pattern += re.escape(rendered[last:start]) + "(.*?)"
        last = end
    match = re.fullmatch(pattern + re.escape(rendered[last:]), expected, re.S)
    assert match is not None, "Claude Code changed text outside the `!` commands skill-lsp lists"
    for (start, end, _command), output in zip(spans, match.groups(), strict=True):
        assert rendered[start:end] not in output and "!`" not in output and "```!" not in output


def _assert_permission_check_predicted(folder: Path, record: SkillRecord, expected: str) -> None:
    """Claude Code refused the skill because a `!` command failed its permission check exactly when
    skill-lsp reports DYNAMIC_COMMAND_NOT_ALLOWED for that command."""
    flagged = [f.data["command"] for f in record.checked.findings  # type: ignore[union-attr]
               if f.code == "DYNAMIC_COMMAND_NOT_ALLOWED"]
    tool_result = _exact(folder / "tool_result.txt")
    refused = re.match(r'Shell command permission check failed for pattern "!`(.*?)`"', tool_result)
    assert flagged == ([refused.group(1)] if refused else [])
    assert (expected == "") == (refused is not None)


def test_builtin_numbers_in_the_harness_table_are_the_captured_ones():
    """engine.harness.data holds the built-ins' numbers as facts; they must be what the captures recorded."""
    from skill_lsp.engine.harness import data

    def recorded(harness: str) -> list[dict]:
        (path,) = layout.GOLDEN.glob(f"{harness}@*/builtins.json")
        return json.loads(path.read_text(encoding="utf-8"))["skills"]

    assert [(b["name"], b["description_chars"], tuple(tuple(m) for m in b.get("description_multibyte", [])))
            for b in recorded("codex")] == list(data.CODEX_BUILTINS)
    assert [(b["name"], b["entry_chars"]) for b in recorded("copilot")] == list(data.COPILOT_BUILTINS)
    assert [(b["name"], b["entry_chars"]) for b in recorded("claude-code")] == list(data.CLAUDE_CODE_BUILTINS)


_BLOCKS = {
    "claude-code": re.compile(r"^- .*$", re.M),
    "copilot": re.compile(r"^<skill>\n.*?\n</skill>$", re.M | re.S),
    "gemini": re.compile(r"^  <skill>\n.*?\n  </skill>$", re.M | re.S),
    "opencode": re.compile(r"^  <skill>\n.*?\n  </skill>$", re.M | re.S),
}


def test_each_entry_and_the_order_match_capture(laid_out_entries):
    """One skill's own entry (what a hover or `catalog --json` reports) is the block the release
    shows for it, and the dialect's order is the release's."""
    folder, meta, workspace, home = laid_out_entries
    harness = meta["harness"]
    dialect = get_dialect(harness)
    if harness == "copilot":
        dialect = type(dialect)(home=str(home))  # type: ignore[call-arg]
    records = expect.records(harness, workspace, home)
    ordered = dialect.order(records)
    expected = _exact(folder / "catalog.txt")
    if harness == "codex":  # entries carry absolute paths there; the catalog a short root label
        lines = re.findall(r"^- (?!`)(.*\(file: .*)$", expected, re.M)  # a name may hold ': ' ({a: 1})
        assert len(ordered) == len(lines)
        assert all(line.startswith(f"{codex_name(r)}: ") for r, line in zip(ordered, lines, strict=True)), lines
        return
    shown = _BLOCKS[harness].findall(expected)
    reports = [dialect.report(r) for r in ordered]
    assert all(rep.included for rep in reports)
    entries = [layout.normalise(rep.entry, workspace, home) for rep in reports]
    if harness == "claude-code":
        assert [r.folder for r in ordered] == [re.match(r"- ([^ :]+)", line)[1] for line in shown]  # type: ignore[index]
        # Past the listing budget the catalog lists some by name only (case listing-budget).
        short = {w.path for w in dialect.catalog_warnings(records) if w.code == "claude-code-name-only"}
        entries = [f"- {r.folder}" if r.path in short else e for r, e in zip(ordered, entries, strict=True)]
        if meta["case"] in ("duplicate-declared-name", "same-name-paths"):
            return  # a declared name is shown by its first claimant only: the catalog decides, not the entry
    assert entries[: len(shown)] == shown
    assert len(entries) == len(shown) or harness == "copilot"  # Copilot names the rest on one line


def test_a_captured_workspace_catalogued_as_a_user_would_lists_the_releases_project_copies(laid_out):
    """`skill-lsp catalog` on the case's workspace (skill-lsp's own discovery and root order, no home
    folder) lists the project skills the release listed. The catalog test above lays the roots out in
    the harness's order; this one catches Gemini CLI's preview keeping another copy of a name than the
    release in a workspace holding .gemini/skills and .agents/skills (case same-name-two-roots)."""
    import os  # noqa: PLC0415

    from skill_lsp.commands.preview import _listed  # noqa: PLC0415 - the catalog command's own path
    from skill_lsp.commands.targets import collect  # noqa: PLC0415
    from skill_lsp.engine.decisions import SEEN, decide  # noqa: PLC0415
    from skill_lsp.engine.preview import link_targets, records_for  # noqa: PLC0415

    folder, meta, workspace, home = laid_out
    harness = meta["harness"]
    model = expect.dialect_for(harness, home).order(expect.records(harness, workspace, home))
    at_home = {key for r in model if str(home) in r.path for key in (r.name, r.folder)}
    if harness == "opencode" and at_home:
        pytest.skip("OpenCode keeps either copy of a name (a SAME_NAME fact)")

    def project(paths: list[str]) -> set[str]:
        ws = os.path.realpath(workspace)
        return {p for p in map(os.path.realpath, paths) if p.startswith(ws + os.sep)}

    expected = project([r.path for r in model if r.name not in at_home and r.folder not in at_home])
    targets = collect([str(workspace)], None, None)
    settings = targets.settings
    results = _listed(targets, settings, harness)
    records = records_for(results, len(settings.resolved_roots(targets.workspace)),
                          link_targets(results, targets.workspace, settings))
    seen = [d for d in decide(records, harness, targets.workspace) if d.state in SEEN]
    got = project([d.path for d in seen if os.path.basename(os.path.dirname(d.path)) not in at_home
                   and d.name not in at_home])
    assert got == expected


def test_a_captured_workspace_previewed_as_a_user_would_activates_the_releases_copy(laid_out_activation):
    """`skill-lsp preview NAME` on the case's workspace (skill-lsp's discovery and root order, no home
    folder) activates the project skill the release activated, where no skill of the user's took it."""
    import os  # noqa: PLC0415

    from skill_lsp.commands.preview import _listed  # noqa: PLC0415 - the preview command's own path
    from skill_lsp.commands.targets import collect  # noqa: PLC0415
    from skill_lsp.engine.preview import activate, link_targets, records_for  # noqa: PLC0415

    folder, meta, workspace, home = laid_out_activation
    harness = meta["harness"]
    model = expect.records(harness, workspace, home)
    wanted = activation_name(harness, model, meta["skill"])
    if wanted is None or str(home) in wanted.path or any(str(home) in r.path for r in model
                                                        if meta["skill"] in (r.name, r.folder)):
        pytest.skip("the release activated no project skill, or a skill of the user's holds the name")
    if harness == "opencode" and sum(meta["skill"] in (r.name, r.folder) for r in model) > 1:
        pytest.skip("OpenCode keeps either copy of a name (a SAME_NAME fact)")
    targets = collect([str(workspace)], None, None)
    settings = targets.settings
    results = _listed(targets, settings, harness)
    records = records_for(results, len(settings.resolved_roots(targets.workspace)),
                          link_targets(results, targets.workspace, settings))
    got = activate(records, settings, name=meta["skill"], dialect=harness, workspace=str(workspace))
    assert got.kind == "ok", got
    assert os.path.realpath(got.path) == os.path.realpath(wanted.path)  # type: ignore[union-attr]
