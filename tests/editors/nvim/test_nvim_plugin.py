"""The Neovim plugin (editors/nvim) against the real `skill-lsp serve`.

These tests pin what the plugin itself does: the attach guard and root
(`root_dir`), the preview buffers of :SkillPreview / :SkillCatalog (exactly the
server's `text`, split on "\\n" only; re-run from inside a preview), the
`skillLsp/status` handler behind `statusline()`, :checkhealth, and setup() in
both modes (0.11 vim.lsp.config/enable and the 0.10 vim.lsp.start fallback).
Expected values come from the same server through a direct
`workspace/executeCommand`.

What the plugin has no code for, or test_nvim_e2e.py already proves on the real
server, is not repeated here: diagnostics, quick-fixes through
vim.lsp.buf.code_action(), the code lens opening the preview, :SkillFixAll and
settings reaching the server.

One Neovim (and one server) is shared by the tests that do not change the
workspace; each of them sets up its own buffers and windows.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from nvim_harness import (
    LUA_CLIENTS,
    LUA_CLOSE_PREVIEWS,
    LUA_EXECUTE,
    Nvim,
    make_workspace,
    preview_buffers,
    skip_or_fail,
    wait_preview,
)

SERVER = [sys.executable, "-m", "skill_lsp", "serve"]
PREVIEW = "skill-lsp-preview://"

# A valid skill (name == folder) whose text is awkward to carry into a buffer:
# a lone CR inside a line, a line ending in CR LF (Neovim keeps that CR: the
# other lines end in LF), a tab, non-ASCII, and blank lines at the end that
# some dialects keep (codex: "...\n\n\n\n</skill>").
AWKWARD = (
    "---\n"
    "name: awkward-skill\n"
    "description: Text that is hard to show faithfully. Use when testing previews.\n"
    "---\n"
    "\n"
    "A line with a\rcarriage return, a\ttab and \u2248 unicode.\n"
    "A line that ends in CR LF.\r\n"
    "\n"
    "\n"
)


@pytest.fixture(scope="module")
def server_cmd() -> list[str]:
    try:
        import skill_lsp.server  # noqa: F401, PLC0415
    except ImportError as e:
        skip_or_fail(f"the skill-lsp server is not importable: {e}")
    return SERVER


def _workspace(dest: Path) -> Path:
    ws = make_workspace(dest)
    skills = ws / ".claude" / "skills"
    # In .agents/skills: the codex dialect previews it (Codex does not read .claude/skills).
    (ws / ".agents" / "skills" / "awkward-skill").mkdir(parents=True)
    (ws / ".agents" / "skills" / "awkward-skill" / "SKILL.md").write_bytes(AWKWARD.encode("utf-8"))
    (skills / "lower-skill").mkdir()
    (skills / "lower-skill" / "skill.md").write_text(
        "---\nname: lower-skill\ndescription: A lower-case skill.md. Use when testing.\n---\n\nBody.\n",
        encoding="utf-8",
    )
    (skills / "bad-skill" / "reference.md").write_text("# not a skill\n", encoding="utf-8")
    return ws


def _attach(nv: Nvim, path: Path) -> int:
    """Edit path and wait for an initialized skill_lsp client on it."""
    buf = nv.edit(path)
    nv.wait_for(
        lambda: any(
            c["name"] == "skill_lsp" and c["initialized"] for c in nv.lua(LUA_CLIENTS, buf)
        ),
        what=f"skill_lsp to attach to {path.name} in {path.parent.name}",
    )
    return buf


def _uri(nv: Nvim, buf: int) -> str:
    return nv.lua("return vim.uri_from_bufnr(...)", buf)


@pytest.fixture(scope="module")
def shared(nvim_bin: str, server_cmd: list[str], tmp_path_factory) -> Iterator[tuple[Nvim, Path]]:
    ws = _workspace(tmp_path_factory.mktemp("plugin") / "ws")
    nv = Nvim(nvim_bin, ws, server_cmd, tmp_path_factory.mktemp("nvim"))
    try:
        _attach(nv, ws / ".claude" / "skills" / "bad-skill" / "SKILL.md")
        yield nv, ws
    finally:
        nv.close()


@pytest.fixture
def session(shared) -> tuple[Nvim, Path]:
    nv, ws = shared
    nv.lua(LUA_CLOSE_PREVIEWS)
    nv.cmd("silent! tabonly | silent! only")
    return nv, ws


def test_attach_guard_and_root(session) -> None:
    nv, ws = session
    skills = ws / ".claude" / "skills"
    bad = _attach(nv, skills / "bad-skill" / "SKILL.md")
    clients = nv.lua(LUA_CLIENTS, bad)
    assert [c["name"] for c in clients] == ["skill_lsp"]
    assert Path(clients[0]["root_dir"]) == ws
    for p in (ws / "README.md", skills / "bad-skill" / "reference.md"):
        b = nv.edit(p)
        assert nv.lua("return vim.bo[...].filetype", b) == "markdown"
        # a round trip to the running server, so any attach would have happened
        nv.lua(LUA_EXECUTE, bad, "skill-lsp.status", {})
        assert nv.lua(LUA_CLIENTS, b) == [], p
    # skill.md (lower case) attaches too, to the same client: one per root
    _attach(nv, skills / "lower-skill" / "skill.md")
    assert nv.lua("return #vim.lsp.get_clients({name = 'skill_lsp'})") == 1


def test_find_root_knows_every_default_root(session) -> None:
    # Without markers, the workspace is the folder holding the skill root (M.skill_roots,
    # kept equal to the engine's DEFAULT_ROOTS by tests/cli/test_editor_defaults.py).
    nv, _ = session
    find = "return require('skill_lsp.config').find_root(..., {})"
    assert nv.lua(find, "/nomark/ws/.github/skills/review/SKILL.md") == "/nomark/ws"
    assert nv.lua(find, "/nomark/ws/.gemini/skills/deploy/SKILL.md") == "/nomark/ws"
    assert nv.lua(find, "/nomark/ws/.claude/skills/pdf/SKILL.md") == "/nomark/ws"
    assert nv.lua(find, "/nomark/ws/plugins/tools/skills/pdf/SKILL.md") == "/nomark/ws/plugins/tools"
    assert nv.lua(find, "/nomark/ws/misc/pdf/SKILL.md") == "/nomark/ws/misc"


def _preview(nv: Nvim, buf: int, dialect: str | None) -> tuple[dict, dict]:
    """:SkillPreview [dialect] from buf: (the preview buffer, the server's result)."""
    nv.lua(LUA_CLOSE_PREVIEWS)
    nv.lua("vim.api.nvim_set_current_buf(...)", buf)
    nv.cmd("SkillPreview" + (f" {dialect}" if dialect else ""))
    pb = wait_preview(nv, PREVIEW + "activation/")
    args = {"uri": _uri(nv, buf), **({"dialect": dialect} if dialect else {})}
    return pb, nv.lua(LUA_EXECUTE, buf, "skill-lsp.previewActivation", args)


def test_preview_buffers_hold_the_exact_text(session) -> None:
    nv, ws = session
    skill = ws / ".agents" / "skills" / "awkward-skill" / "SKILL.md"
    buf = _attach(nv, skill)
    uri = _uri(nv, buf)
    for dialect in (None, "codex"):
        pb, expect = _preview(nv, buf, dialect)
        assert expect["kind"] == "ok", expect
        assert pb["text"] == expect["text"]
        assert pb["name"] == f"{PREVIEW}activation/awkward-skill/{expect['dialect']}"
        assert (pb["buftype"], pb["bufhidden"], pb["modifiable"], pb["modified"]) == (
            "nofile",
            "wipe",
            False,
            False,
        )
        assert pb["shown"] and pb["current"]
        assert pb["meta"]["uri"] == uri and pb["meta"]["result_kind"] == "ok"
    assert expect["dialect"] == "codex"
    # the codex text keeps both CRs and the body's blank lines
    for part in ("a\rcarriage", "CR LF.\r\n", "\n\n\n\n</skill>"):
        assert part in expect["text"], (part, expect["text"])
    # a trailing newline is kept as a trailing empty line (nothing the server
    # sends ends with one today, so the splitter is checked directly)
    for text in ("a\r\n\nb\n", "x\n\n", ""):
        assert nv.lua(
            "local s = ... return table.concat(require('skill_lsp').split_text(s), '\\n') == s",
            text,
        ), text

    # re-run from inside the preview buffer with another dialect: same window
    nv.cmd("SkillPreview gemini")
    pb = nv.wait_for(
        lambda: [b for b in preview_buffers(nv) if b["name"].endswith("/gemini")], what="gemini"
    )[0]
    expect = nv.lua(
        LUA_EXECUTE, buf, "skill-lsp.previewActivation", {"uri": uri, "dialect": "gemini"}
    )
    assert pb["text"] == expect["text"] and "a\rcarriage" in pb["text"]
    assert pb["meta"]["uri"] == uri and pb["current"]
    assert nv.lua("return #vim.api.nvim_tabpage_list_wins(0)") == 2

    # :SkillCatalog from the preview buffer: the catalog for that skill's workspace
    nv.cmd("SkillCatalog opencode")
    pb = wait_preview(nv, PREVIEW + "catalog/")
    expect = nv.lua(
        LUA_EXECUTE, buf, "skill-lsp.previewCatalog", {"dialect": "opencode", "uri": uri}
    )
    assert pb["text"] == expect["text"]
    assert "<name>awkward-skill</name>" in pb["text"] and "<name>good-skill</name>" in pb["text"]
    assert pb["name"] == f"{PREVIEW}catalog/opencode"
    assert nv.lua("return #vim.api.nvim_tabpage_list_wins(0)") == 2

    assert nv.lua("return vim.fn.getcompletion('SkillPreview c', 'cmdline')") == [
        "claude-code",
        "codex",
        "copilot",
    ]


def test_preview_of_a_broken_skill_warns(session) -> None:
    """The server's error text is shown as is, and the plugin says it is not `ok`."""
    nv, ws = session
    buf = _attach(nv, ws / ".claude" / "skills" / "bad-skill" / "SKILL.md")
    before = len(nv.notes())
    pb, expect = _preview(nv, buf, None)
    assert expect["kind"] == "error", expect
    assert expect["text"].startswith("Error [NAME_MISMATCH]: "), expect
    assert pb["text"] == expect["text"]
    assert pb["name"] == f"{PREVIEW}activation/bad-skill/{expect['dialect']}"
    assert pb["meta"]["result_kind"] == "error"
    notes = nv.wait_for(lambda: nv.notes()[before:], what="the warning")
    assert notes == [{"msg": "skill-lsp: activation preview: error", "level": 3}], notes


def test_status_notification_and_health(session) -> None:
    nv, ws = session
    skills = ws / ".claude" / "skills"
    nv.edit(ws / "README.md")
    assert nv.lua("return require('skill_lsp').statusline()") == ""  # no client here
    buf = _attach(nv, skills / "good-skill" / "SKILL.md")
    status = nv.lua(LUA_EXECUTE, buf, "skill-lsp.status", {})
    want = f"skills:{status['skills']} ({status['profile']})"
    assert status["skills"] >= 4 and status["profile"] == "skill-tool", status
    nv.wait_for(
        lambda: nv.lua("return require('skill_lsp').statusline()") == want,
        what=f"statusline() == {want!r} (the skillLsp/status notification)",
    )

    nv.cmd("checkhealth skill_lsp")
    text = nv.buf_text()
    assert f"version: skill-lsp {status['version']}" in text, text
    assert re.search(r"client \d+ attached \(server skill-lsp ", text), text
    assert f"last skillLsp/status: profile skill-tool, {status['skills']} skills" in text, text
    assert "Neovim 0.1" in text and "vim.lsp.enable('skill_lsp') is on" in text, text
    assert "ERROR" not in text, text


@pytest.mark.parametrize("mode", ["setup", "legacy"])
def test_setup_function(make_nvim, server_cmd, tmp_path: Path, mode: str) -> None:
    """require('skill_lsp').setup{} on 0.11 (vim.lsp.config + enable, with
    settings.skillLsp.dialect = 'opencode') and the 0.10 path (vim.lsp.start
    from autocmds, forced with use_lsp_start)."""
    ws = make_workspace(tmp_path / "ws")
    skills = ws / ".claude" / "skills"
    nv: Nvim = make_nvim(ws, server_cmd, mode)
    readme = nv.edit(ws / "README.md")
    bad = _attach(nv, skills / "bad-skill" / "SKILL.md")
    clients = nv.lua(LUA_CLIENTS, bad)
    assert [c["name"] for c in clients] == ["skill_lsp"]
    assert Path(clients[0]["root_dir"]) == ws
    assert nv.lua(LUA_CLIENTS, readme) == []
    good = _attach(nv, skills / "good-skill" / "SKILL.md")
    assert nv.lua("return #vim.lsp.get_clients({name = 'skill_lsp'})") == 1
    settings = nv.lua("return vim.lsp.get_clients({name = 'skill_lsp'})[1].settings")
    dialect = "opencode" if mode == "setup" else "skill-tool"
    assert settings["skillLsp"] == ({"dialect": "opencode"} if mode == "setup" else {})

    # the server's default dialect follows the settings the client sent
    pb, expect = _preview(nv, good, None)
    assert (expect["kind"], expect["dialect"]) == ("ok", dialect), expect
    assert pb["text"] == expect["text"]
    assert pb["name"] == f"{PREVIEW}activation/good-skill/{dialect}"

    # the skillLsp/status handler is in place on this path too
    nv.lua("vim.api.nvim_set_current_buf(...)", good)
    nv.wait_for(
        lambda: nv.lua("return require('skill_lsp').statusline()") == "skills:2 (skill-tool)",
        what="the statusline",
    )
