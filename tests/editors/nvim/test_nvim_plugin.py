"""The Neovim plugin (editors/nvim) against a small fake server.

These tests pin the plugin's own behaviour (attach guard, quick-fix path,
preview buffers, code-lens commands, notifications, :checkhealth) with a
deterministic stand-in for skill-lsp (fake_server.py). The real server is
exercised by test_nvim_e2e.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from nvim_harness import (
    BAD_SKILL,
    LUA_APPLY_CODE_ACTION,
    LUA_CLIENTS,
    LUA_CLOSE_PREVIEWS,
    LUA_CODE_ACTIONS,
    LUA_DIAGNOSTICS,
    LUA_EXECUTE,
    Nvim,
    make_workspace,
    preview_buffers,
    wait_preview,
)

FAKE = [sys.executable, str(Path(__file__).with_name("fake_server.py"))]

pytest.importorskip("pygls", reason="the fake server needs pygls")


@pytest.fixture
def session(make_nvim, tmp_path: Path):
    ws = make_workspace(tmp_path / "ws")
    nv: Nvim = make_nvim(ws, FAKE)
    skill = ws / ".claude" / "skills" / "bad-skill" / "SKILL.md"
    buf = nv.edit(skill)
    nv.wait_for(
        lambda: any(
            c["name"] == "skill_lsp" and c["initialized"] for c in nv.lua(LUA_CLIENTS, buf)
        ),
        what="skill_lsp to attach",
    )
    return nv, ws, skill, buf


def test_attach_root_and_diagnostics(session) -> None:
    nv, ws, skill, buf = session
    clients = nv.lua(LUA_CLIENTS, buf)
    assert [c["name"] for c in clients] == ["skill_lsp"]
    assert Path(clients[0]["root_dir"]) == ws
    diags = nv.wait_for(
        lambda: len(nv.lua(LUA_DIAGNOSTICS, buf)) >= 2, what="diagnostics"
    ) and nv.lua(LUA_DIAGNOSTICS, buf)
    got = {(d["code"], d["lnum"], d["col"]) for d in diags}
    assert ("NAME_MISMATCH", 1, 6) in got
    trailing = BAD_SKILL.split("\n").index("This line ends with trailing spaces.   ")
    assert ("TRAILING_WHITESPACE", trailing, len("This line ends with trailing spaces.")) in got


def test_non_skill_markdown_gets_no_client(session) -> None:
    nv, ws, skill, buf = session
    for name in ("README.md", ".claude/skills/bad-skill/reference.md"):
        p = ws / name
        if not p.exists():
            p.write_text("# not a skill\n", encoding="utf-8")
        b = nv.edit(p)
        assert nv.lua("return vim.bo[...].filetype", b) == "markdown"
        # a round trip to the running server, so any attach would have happened
        nv.lua(LUA_EXECUTE, buf, "skill-lsp.status", {})
        assert nv.lua(LUA_CLIENTS, b) == [], name
    # and skill.md (lower case) does attach
    low = ws / ".claude" / "skills" / "good-skill" / "skill.md"
    (ws / ".claude" / "skills" / "good-skill" / "SKILL.md").rename(low)
    b = nv.edit(low)
    nv.wait_for(lambda: nv.lua(LUA_CLIENTS, b), what="skill_lsp on skill.md")
    assert nv.lua("return #vim.lsp.get_clients({name = 'skill_lsp'})") == 1, "one client per root"


def test_quick_fix_through_code_action(session) -> None:
    nv, ws, skill, buf = session
    nv.wait_for(lambda: len(nv.lua(LUA_DIAGNOSTICS, buf)) >= 2, what="diagnostics")
    lines = BAD_SKILL.split("\n")
    row = lines.index("This line ends with trailing spaces.   ")
    actions = nv.lua(LUA_CODE_ACTIONS, buf, row)
    trim = next(a for a in actions if "TRAILING_WHITESPACE" in a["codes"])
    nv.lua(LUA_APPLY_CODE_ACTION, buf, row, 0, trim["title"])
    want = BAD_SKILL.replace("spaces.   \n", "spaces.\n")
    nv.wait_for(lambda: nv.buf_text(buf) + "\n" == want, what="the trimmed buffer")
    actions = nv.lua(LUA_CODE_ACTIONS, buf, 1)
    fix = next(a for a in actions if "NAME_MISMATCH" in a["codes"])
    nv.lua(LUA_APPLY_CODE_ACTION, buf, 1, 0, fix["title"])
    want = want.replace("name: not-the-folder", "name: bad-skill")
    nv.wait_for(lambda: nv.buf_text(buf) + "\n" == want, what="the renamed buffer")
    nv.wait_for(lambda: nv.lua(LUA_DIAGNOSTICS, buf) == [], what="diagnostics to clear")
    assert nv.lua("return _G.__skilltest_selects") == [], "no selection prompt"


def test_preview_commands_show_exact_text(session) -> None:
    nv, ws, skill, buf = session
    uri = nv.lua("return vim.uri_from_bufnr(...)", buf)
    for dialect in ("", "codex"):
        nv.lua(LUA_CLOSE_PREVIEWS)
        nv.lua("vim.api.nvim_set_current_buf(...)", buf)
        nv.cmd(f"SkillPreview {dialect}".strip())
        pb = wait_preview(nv, "skill-lsp-preview://activation/")
        args = {"uri": uri, **({"dialect": dialect} if dialect else {})}
        expect = nv.lua(LUA_EXECUTE, buf, "skill-lsp.previewActivation", args)
        assert pb["text"] == expect["text"]
        assert expect["text"].endswith("\n\n") and "\r" in expect["text"]  # awkward on purpose
        assert pb["name"] == f"skill-lsp-preview://activation/bad-skill/{expect['dialect']}"
        assert (pb["buftype"], pb["bufhidden"], pb["modifiable"], pb["modified"]) == (
            "nofile",
            "wipe",
            False,
            False,
        )
        assert pb["shown"] and pb["current"]
    # re-run from inside the preview buffer with another dialect: same window
    nv.cmd("SkillPreview gemini")
    pb = nv.wait_for(
        lambda: [b for b in preview_buffers(nv) if b["name"].endswith("/gemini")], what="gemini"
    )[0]
    assert pb["meta"]["uri"] == uri
    assert nv.lua("return #vim.api.nvim_tabpage_list_wins(0)") == 2
    nv.cmd("SkillCatalog opencode")
    pb = wait_preview(nv, "skill-lsp-preview://catalog/")
    assert pb["text"] == "catalog for opencode\n- bad-skill: …\n"
    assert nv.lua("return vim.fn.getcompletion('SkillPreview c', 'cmdline')") == [
        "claude-code",
        "codex",
    ]


def test_code_lens_opens_preview(session) -> None:
    nv, ws, skill, buf = session
    lenses = nv.wait_for(
        lambda: nv.lua(
            "local out = {} for _, l in ipairs(vim.lsp.codelens.get(...)) do"
            " if l.command then out[#out + 1] = l.command end end return out",
            buf,
        ),
        what="code lenses (refreshed by the plugin on attach)",
    )
    assert [lens["command"] for lens in lenses] == [
        "skill-lsp.previewActivation",
        "skill-lsp.previewCatalog",
    ]
    nv.lua(
        "local buf, cmd = ... local c = vim.lsp.get_clients({bufnr = buf, name = 'skill_lsp'})[1]"
        " c:exec_cmd(cmd, {bufnr = buf})",
        buf,
        lenses[0],
    )
    pb = wait_preview(nv, "skill-lsp-preview://activation/")
    assert pb["text"].startswith("<skill dialect='skill-tool'")


def test_status_notification_and_health(session) -> None:
    nv, ws, skill, buf = session
    nv.wait_for(
        lambda: nv.lua("return require('skill_lsp').statusline()").startswith("skills:1"),
        what="status",
    )
    nv.cmd("checkhealth skill_lsp")
    text = nv.buf_text()
    assert "skill-lsp: server executable" in text
    assert "client " in text and "attached" in text
    assert "Neovim 0.11" in text


@pytest.mark.parametrize("mode", ["setup", "legacy"])
def test_setup_function(make_nvim, tmp_path: Path, mode: str) -> None:
    """require('skill_lsp').setup{} on 0.11 (vim.lsp.config + enable) and the
    0.10 path (vim.lsp.start from autocmds, forced with use_lsp_start)."""
    ws = make_workspace(tmp_path / "ws")
    nv: Nvim = make_nvim(ws, FAKE, mode)
    readme = nv.edit(ws / "README.md")
    buf = nv.edit(ws / ".claude" / "skills" / "bad-skill" / "SKILL.md")
    nv.wait_for(lambda: nv.lua(LUA_DIAGNOSTICS, buf), what="diagnostics")
    clients = nv.lua(LUA_CLIENTS, buf)
    assert [c["name"] for c in clients] == ["skill_lsp"]
    assert Path(clients[0]["root_dir"]) == ws
    assert nv.lua(LUA_CLIENTS, readme) == []
    other = nv.edit(ws / ".claude" / "skills" / "good-skill" / "SKILL.md")
    nv.wait_for(lambda: nv.lua(LUA_CLIENTS, other), what="attach to the second skill")
    assert nv.lua("return #vim.lsp.get_clients({name = 'skill_lsp'})") == 1
    settings = nv.lua("return vim.lsp.get_clients({name = 'skill_lsp'})[1].settings")
    assert settings["skillLsp"] == ({"dialect": "codex"} if mode == "setup" else {})
    nv.lua("vim.api.nvim_set_current_buf(...)", buf)
    nv.cmd("SkillPreview")
    assert wait_preview(nv, "skill-lsp-preview://activation/bad-skill/")["text"].startswith(
        "<skill"
    )
