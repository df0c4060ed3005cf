"""End-to-end: real headless Neovim 0.11 + the editors/nvim plugin + the real
`skill-lsp serve`, on a copy of sample-workspace.

What this proves, through the editor's own LSP client:
  * the client attaches to a SKILL.md (and to no other Markdown file);
  * the server's diagnostics arrive with the NAME_MISMATCH and
    TRAILING_WHITESPACE codes at the right lines;
  * quick-fixes applied with vim.lsp.buf.code_action() change the buffer as
    expected and the diagnostics clear;
  * :SkillPreview / :SkillCatalog (and the server's code lens) show exactly the
    `text` of skill-lsp.previewActivation / previewCatalog;
  * :checkhealth skill_lsp finds the executable and its version.

Skipped (with the reason) when Neovim >= 0.11 or the server is missing, unless
SKILL_LSP_REQUIRE_EDITORS=1, when that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
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
    REPO,
    Nvim,
    make_workspace,
    skip_or_fail,
    wait_preview,
)

SAMPLE = REPO / "sample-workspace"
TIMEOUT = float(os.environ.get("SKILL_LSP_EDITOR_TIMEOUT", "60"))


# ---------------------------------------------------------------------------
# The server and the workspace
# ---------------------------------------------------------------------------


def _server_base() -> list[str]:
    """How to run skill-lsp: the console script beside this Python, else -m."""
    script = Path(sys.executable).parent / "skill-lsp"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "skill_lsp"]


@pytest.fixture(scope="module")
def server_base() -> list[str]:
    probe = subprocess.run(
        [sys.executable, "-c", "import skill_lsp.server, skill_lsp.cli"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if probe.returncode != 0:
        skip_or_fail(f"the skill-lsp server is not importable: {probe.stderr.strip()[-300:]}")
    base = _server_base()
    v = subprocess.run([*base, "--version"], capture_output=True, text=True, timeout=60)
    if v.returncode != 0 or not v.stdout.startswith("skill-lsp "):
        skip_or_fail(f"`{' '.join(base)} --version` failed: {v.stdout!r} {v.stderr[-300:]!r}")
    return base


def _frontmatter_name(text: str) -> str | None:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    for line in lines[1:]:
        if line.strip() == "---":
            return None
        m = re.match(r"name:\s*['\"]?([^'\"#]*?)['\"]?\s*$", line)
        if m:
            return m.group(1)
    return None


def _is_bad(path: Path) -> bool:
    if not path.is_file() or path.is_symlink():
        return False
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    name = _frontmatter_name(text)
    trailing = any(line != line.rstrip(" \t") for line in text.split("\n")[1:] if line.strip())
    return name is not None and name != path.parent.name and trailing


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace copy, the bad SKILL.md in it). Uses sample-workspace when it
    has a skill whose name differs from its folder and that has trailing
    spaces; otherwise adds .claude/skills/bad-skill (or nvim-e2e-bad)."""
    ws = tmp_path / "ws"
    if SAMPLE.is_dir() and any(SAMPLE.rglob("SKILL.md")):
        shutil.copytree(SAMPLE, ws, symlinks=True)
        bad = sorted(p for p in ws.rglob("SKILL.md") if ".claude" in p.parts and _is_bad(p))
        if bad:
            return ws, bad[0]
        folder = ws / ".claude" / "skills" / "bad-skill"
        if folder.exists():
            folder = folder.with_name("nvim-e2e-bad")
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(BAD_SKILL, encoding="utf-8")
        if not (ws / "README.md").exists():
            (ws / "README.md").write_text("# Workspace\n\nNot a skill.   \n", encoding="utf-8")
        return ws, folder / "SKILL.md"
    make_workspace(ws)
    return ws, ws / ".claude" / "skills" / "bad-skill" / "SKILL.md"


@pytest.fixture
def editor(make_nvim, server_base, workspace):
    ws, skill = workspace
    nv: Nvim = make_nvim(ws, [*server_base, "serve"])
    buf = nv.edit(skill)
    nv.wait_for(
        lambda: any(
            c["name"] == "skill_lsp" and c["initialized"] for c in nv.lua(LUA_CLIENTS, buf)
        ),
        timeout=TIMEOUT,
        what="skill_lsp to attach and initialize",
    )
    return nv, ws, skill, buf


def _lines(path: Path) -> list[str]:
    """The file's lines as Neovim's buffer holds them (no entry after a final newline)."""
    text = path.read_text("utf-8")
    return text.removesuffix("\n").split("\n")


def _name_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if re.match(r"name\s*:", line))


def _trailing_line(lines: list[str]) -> int:
    return next(
        i for i, line in enumerate(lines) if i > 0 and line.strip() and line != line.rstrip(" \t")
    )


def _wait_codes(nv: Nvim, buf: int, *codes: str) -> list[dict]:
    def ready():
        diags = nv.lua(LUA_DIAGNOSTICS, buf)
        return diags if set(codes) <= {d["code"] for d in diags} else None

    return nv.wait_for(ready, timeout=TIMEOUT, what=f"diagnostics {codes}")


def _pick_action(actions: list[dict], code: str, title_re: str) -> dict:
    by_code = [a for a in actions if code in (a.get("codes") or [])]
    by_title = [a for a in actions if re.search(title_re, a["title"], re.I)]
    picked = (by_code or by_title)[:1]
    assert picked, f"no quick-fix for {code} among {actions}"
    return picked[0]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_diagnostics_codes_and_positions(editor, server_base) -> None:
    nv, ws, skill, buf = editor
    lines = _lines(skill)
    diags = _wait_codes(nv, buf, "NAME_MISMATCH", "TRAILING_WHITESPACE")
    clients = nv.lua(LUA_CLIENTS, buf)
    assert len(clients) == 1 and Path(clients[0]["root_dir"]) == ws
    assert clients[0]["server"]["name"], clients

    name_row = _name_line(lines)
    mismatch = [d for d in diags if d["code"] == "NAME_MISMATCH"]
    assert [d["lnum"] for d in mismatch] == [name_row], mismatch
    trailing_rows = [
        i for i, line in enumerate(lines) if line.strip() and line != line.rstrip(" \t")
    ]
    trailing = [d for d in diags if d["code"] == "TRAILING_WHITESPACE"]
    assert {d["lnum"] for d in trailing} == set(trailing_rows), trailing
    for d in trailing:
        text = lines[d["lnum"]]
        assert d["col"] == len(text.rstrip(" \t")), d
        assert d["end_col"] in (len(text), len(text.encode("utf-16-le")) // 2), d
    for d in diags:
        assert d["source"], d  # every finding names its source

    # Every finding `skill-lsp check` reports for this file is in the editor,
    # same code, same place (the server may add workspace-level ones).
    report = _cli_json(server_base, ws, "check", str(skill))
    assert report is not None, "skill-lsp check --format json printed nothing"
    cli = {
        (f["code"], f["range"]["start"]["line"], f["range"]["start"]["character"])
        for f in report["findings"]
        if Path(f["path"]).resolve() == skill.resolve()
    }
    editor_set = {(d["code"], d["lnum"], d["col"]) for d in diags}
    assert {"NAME_MISMATCH", "TRAILING_WHITESPACE"} <= {c for c, _, _ in cli}, cli
    assert cli <= editor_set, (cli - editor_set, editor_set)


def test_quick_fixes_through_code_action(editor) -> None:
    nv, ws, skill, buf = editor
    lines = _lines(skill)
    _wait_codes(nv, buf, "NAME_MISMATCH", "TRAILING_WHITESPACE")

    row = _trailing_line(lines)
    actions = nv.lua(LUA_CODE_ACTIONS, buf, row)
    trim = _pick_action(actions, "TRAILING_WHITESPACE", r"trailing|whitespace|trim")
    nv.lua(LUA_APPLY_CODE_ACTION, buf, row, 0, trim["title"])

    def trimmed():
        now = nv.buf_text(buf).split("\n")
        return now if now[row] == lines[row].rstrip(" \t") else None

    now = nv.wait_for(trimmed, timeout=TIMEOUT, what="the trailing-whitespace fix")
    changed = [
        i
        for i in range(max(len(now), len(lines)))
        if i >= len(now) or i >= len(lines) or now[i] != lines[i]
    ]
    # a "this line" fix touches only the line; a "trim all" fix every such line
    assert all(lines[i] != lines[i].rstrip(" \t") for i in changed), changed

    name_row = _name_line(now)
    actions = nv.lua(LUA_CODE_ACTIONS, buf, name_row)
    fix = _pick_action(actions, "NAME_MISMATCH", r"name")
    nv.lua(LUA_APPLY_CODE_ACTION, buf, name_row, 0, fix["title"])
    folder = skill.parent.name
    pattern = rf"name:\s*['\"]?{re.escape(folder)}['\"]?\s*"

    def renamed():
        after = nv.buf_text(buf).split("\n")
        return after if re.fullmatch(pattern, after[name_row]) else None

    after = nv.wait_for(renamed, timeout=TIMEOUT, what="the name fix")
    assert [x for i, x in enumerate(after) if i != name_row] == [
        x for i, x in enumerate(now) if i != name_row
    ]

    def cleared():
        codes = {d["code"] for d in nv.lua(LUA_DIAGNOSTICS, buf) if d["lnum"] in (row, name_row)}
        return not codes & {"NAME_MISMATCH", "TRAILING_WHITESPACE"}

    nv.wait_for(cleared, timeout=TIMEOUT, what="the fixed diagnostics to clear")
    assert nv.lua("return _G.__skilltest_selects") == [], "vim.ui.select was never needed"


def _cli_json(server_base: list[str], ws: Path, *args: str) -> dict | None:
    """`skill-lsp ARGS --format json` run in the workspace, or None if it fails."""
    r = subprocess.run(
        [*server_base, *args, "--format", "json"], capture_output=True, timeout=120, cwd=ws
    )
    if not r.stdout.strip():
        return None
    try:
        return json.loads(r.stdout.decode("utf-8"))
    except ValueError:
        return None


def _good_skill(server_base: list[str], ws: Path, bad: Path) -> Path | None:
    """A skill in the workspace whose CLI preview is `ok`."""
    candidates = sorted(
        p for p in (ws / ".claude" / "skills").glob("*/SKILL.md") if p.is_file() and p != bad
    )
    for p in candidates[:12]:
        out = _cli_json(server_base, ws, "preview", str(p))
        if out and out.get("kind") == "ok":
            return p
    return None


def _check_preview(
    nv: Nvim, server_base: list[str], ws: Path, skill: Path, dialect: str | None
) -> dict:
    """:SkillPreview [dialect] on skill: the scratch buffer holds exactly the
    server's text, which is also what `skill-lsp preview` prints."""
    buf = nv.edit(skill)
    nv.wait_for(lambda: nv.lua(LUA_CLIENTS, buf), timeout=TIMEOUT, what=f"skill_lsp on {skill}")
    uri = nv.lua("return vim.uri_from_bufnr(...)", buf)
    nv.lua(LUA_CLOSE_PREVIEWS)
    nv.lua("vim.api.nvim_set_current_buf(...)", buf)
    nv.cmd("SkillPreview" + (f" {dialect}" if dialect else ""))
    pb = wait_preview(nv, "skill-lsp-preview://activation/", timeout=TIMEOUT)
    args = {"uri": uri, **({"dialect": dialect} if dialect else {})}
    expect = nv.lua(LUA_EXECUTE, buf, "skill-lsp.previewActivation", args)
    assert isinstance(expect["text"], str) and expect["text"], expect
    assert pb["text"] == expect["text"]
    if dialect:
        assert expect["dialect"] == dialect
    assert pb["name"] == f"skill-lsp-preview://activation/{skill.parent.name}/{expect['dialect']}"
    assert (pb["buftype"], pb["bufhidden"], pb["modifiable"]) == ("nofile", "wipe", False)
    assert pb["shown"] and pb["current"]
    cli = _cli_json(
        server_base, ws, "preview", str(skill), *(["--dialect", dialect] if dialect else [])
    )
    assert cli is not None, "skill-lsp preview --format json printed nothing"
    assert cli.get("kind") == expect["kind"], (cli.get("kind"), expect["kind"])
    if expect["kind"] == "ok":
        cli_text = cli.get("text", cli.get("output"))
        assert cli_text == expect["text"], (dialect, cli_text[-300:], expect["text"][-300:])
    return expect


def test_preview_buffers_show_the_exact_text(editor, server_base) -> None:
    nv, ws, skill, buf = editor
    kinds = [_check_preview(nv, server_base, ws, skill, None)["kind"]]
    good = _good_skill(server_base, ws, skill)
    assert good is not None, "no skill in the workspace previews ok"
    for dialect in (None, "opencode", "claude-code", "dsh"):  # each reads .claude/skills
        kinds.append(_check_preview(nv, server_base, ws, good, dialect)["kind"])
    assert kinds[1:] == ["ok"] * 4, kinds

    nv.lua(LUA_CLOSE_PREVIEWS)
    nv.cmd("SkillCatalog gemini")
    pb = wait_preview(nv, "skill-lsp-preview://catalog/", timeout=TIMEOUT)
    uri = nv.lua("return vim.uri_from_bufnr(vim.fn.bufnr(...))", str(good))
    expect = nv.lua(LUA_EXECUTE, 0, "skill-lsp.previewCatalog", {"dialect": "gemini", "uri": uri})
    assert pb["text"] == expect["text"]
    assert pb["name"] == "skill-lsp-preview://catalog/gemini"


def test_catalog_buffer_matches_cli(editor, server_base) -> None:
    nv, ws, skill, buf = editor
    nv.cmd("SkillCatalog gemini")
    pb = wait_preview(nv, "skill-lsp-preview://catalog/", timeout=TIMEOUT)
    cli = _cli_json(server_base, ws, "catalog", "--dialect", "gemini")
    assert cli is not None
    expect = nv.lua(LUA_EXECUTE, buf, "skill-lsp.previewCatalog", {"dialect": "gemini"})
    names = (
        [e.get("name") for e in cli.get("entries", [])],
        [e.get("name") for e in expect["entries"]],
    )
    assert names[0] == names[1], names
    assert pb["text"] == cli.get("text", cli.get("output"))


def test_code_lens_runs_the_preview(editor) -> None:
    nv, ws, skill, buf = editor
    lenses = nv.wait_for(
        lambda: nv.lua(
            "local out = {} for _, l in ipairs(vim.lsp.codelens.get(...)) do"
            " if l.command then out[#out + 1] = { command = l.command, line = l.range.start.line } end end"
            " return out",
            buf,
        ),
        timeout=TIMEOUT,
        what="the server's code lenses",
    )
    by_cmd = {lens["command"]["command"]: lens for lens in lenses}
    assert {"skill-lsp.previewActivation", "skill-lsp.previewCatalog"} <= set(by_cmd), lenses
    assert all(lens["line"] == 0 for lens in lenses), lenses
    # "≈N catalog tokens (dialect)", or why the skill is not in the catalog
    assert re.search(r"catalog", by_cmd["skill-lsp.previewCatalog"]["command"]["title"]), lenses
    lens_cmd = by_cmd["skill-lsp.previewActivation"]["command"]
    nv.lua(
        "local buf, cmd = ... local c = vim.lsp.get_clients({bufnr = buf, name = 'skill_lsp'})[1]"
        " c:exec_cmd(cmd, {bufnr = buf})",
        buf,
        lens_cmd,
    )
    pb = wait_preview(nv, "skill-lsp-preview://activation/", timeout=TIMEOUT)
    args = (lens_cmd.get("arguments") or [{}])[0]
    expect = nv.lua(LUA_EXECUTE, buf, "skill-lsp.previewActivation", args)
    assert pb["text"] == expect["text"]


def test_non_skill_markdown_gets_no_client(editor) -> None:
    nv, ws, skill, buf = editor
    readme = ws / "README.md"
    if not readme.exists():
        readme.write_text("# Workspace\n", encoding="utf-8")
    other = nv.edit(readme)
    assert nv.lua("return vim.bo[...].filetype", other) == "markdown"
    nv.lua(LUA_EXECUTE, buf, "skill-lsp.status", {})  # a round trip: any attach has happened
    assert nv.lua(LUA_CLIENTS, other) == []
    assert nv.lua(LUA_DIAGNOSTICS, other) == []


def test_checkhealth(editor) -> None:
    nv, ws, skill, buf = editor
    nv.cmd("checkhealth skill_lsp")
    text = nv.buf_text()
    assert re.search(r"version: skill-lsp \d+\.\d+\.\d+", text), text
    assert "found:" in text
    assert re.search(r"client \d+ attached", text), text
    assert "ERROR" not in text, text


def test_settings_reach_the_server(make_nvim, server_base, workspace) -> None:
    """settings.skillLsp from vim.lsp.config is what the server applies
    (workspace/configuration, section skillLsp)."""
    ws, skill = workspace
    nv: Nvim = make_nvim(
        ws, [*server_base, "serve"], settings={"skillLsp": {"profile": "claude-code"}}
    )
    buf = nv.edit(skill)
    _wait_codes(nv, buf, "NAME_MISMATCH")

    def scanned():
        status = nv.lua(LUA_EXECUTE, buf, "skill-lsp.status", {})
        return status if status["profile"] == "claude-code" and status["skills"] >= 1 else None

    status = nv.wait_for(
        scanned, timeout=TIMEOUT, what="skill-lsp.status: profile claude-code, scanned"
    )
    assert status["version"], status
    # the skillLsp/status notification reached the plugin too
    nv.wait_for(
        lambda: (
            "claude-code"
            in nv.lua(
                "vim.api.nvim_set_current_buf(...) return require('skill_lsp').statusline()", buf
            )
        ),
        timeout=TIMEOUT,
        what="the statusline to show the profile",
    )


def test_severity_setting_turns_a_rule_off(make_nvim, server_base, workspace) -> None:
    ws, skill = workspace
    nv: Nvim = make_nvim(
        ws,
        [*server_base, "serve"],
        settings={"skillLsp": {"severity": {"TRAILING_WHITESPACE": "off"}}},
    )
    buf = nv.edit(skill)
    _wait_codes(nv, buf, "NAME_MISMATCH")

    def settled():
        codes = {d["code"] for d in nv.lua(LUA_DIAGNOSTICS, buf)}
        return "NAME_MISMATCH" in codes and "TRAILING_WHITESPACE" not in codes

    nv.wait_for(settled, timeout=10, what="TRAILING_WHITESPACE to be off")


def test_fix_all_command(editor) -> None:
    """:SkillFixAll runs skill-lsp.fixAll; the server's workspace/applyEdit lands in the buffer."""
    nv, ws, skill, buf = editor
    lines = _lines(skill)
    _wait_codes(nv, buf, "TRAILING_WHITESPACE")
    nv.lua("vim.api.nvim_set_current_buf(...)", buf)
    nv.cmd("SkillFixAll")
    want = [line.rstrip(" \t") for line in lines]
    nv.wait_for(
        lambda: (
            [x.rstrip(" \t") for x in nv.buf_text(buf).split("\n")] == want
            and nv.buf_text(buf).split("\n") != lines
        ),
        timeout=TIMEOUT,
        what="the fix-all edit",
    )
    after = nv.buf_text(buf).split("\n")
    # A Markdown hard line break (exactly two spaces after text) is not trailing whitespace.
    assert all(a == a.rstrip(" \t") or (a.endswith("  ") and a[-3] not in " \t") for a in after), after


def test_key_completion_inserts_the_key_and_its_colon(editor) -> None:
    # Omnifunc alone inserts an item's label; the plugin turns on vim.lsp.completion,
    # whose CompleteDone expands the snippet, so `lic` becomes `license: MIT`.
    nv, ws, skill, buf = editor
    nv.lua(
        "local buf = ... vim.o.completeopt = 'menuone,noinsert,popup'"
        " vim.api.nvim_buf_set_lines(buf, 0, -1, false,"
        " {'---', 'name: x', 'description: d', 'lic', '---', 'Body.'})"
        " vim.api.nvim_win_set_cursor(0, {4, 3})",
        buf,
    )
    nv.lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('a<C-x><C-o>', true, false, true), 't', false)")

    def menu():
        info = nv.lua("return vim.fn.complete_info({'items', 'selected'})")
        words = [i["word"] for i in info.get("items", [])]
        return words if words and info.get("selected") == 0 else None

    words = nv.wait_for(menu, timeout=TIMEOUT, what="the completion menu")
    assert words[0] == "license", words
    nv.lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-y>', true, false, true), 't', false)")
    line = nv.wait_for(
        lambda: (row := nv.buf_text(buf).split("\n")[3]) != "license" and row.startswith("license") and row,
        timeout=TIMEOUT,
        what="the accepted key completion",
    )
    assert line == "license: MIT", line


def test_code_lens_follows_the_rename_folder_fix(editor) -> None:
    # The fix renames the buffer without changing its text; the lenses must point at
    # the new path at once, not after the buffer is reopened.
    nv, ws, skill, buf = editor
    _wait_codes(nv, buf, "NAME_MISMATCH")
    row = _name_line(_lines(skill))
    actions = nv.lua(LUA_CODE_ACTIONS, buf, row)
    rename = [a for a in actions if re.search(r"rename the folder", a["title"], re.I)]
    assert rename, actions
    nv.lua(LUA_APPLY_CODE_ACTION, buf, row, 0, rename[0]["title"])
    new_name = re.search(r"'([^']+)'", rename[0]["title"])[1]
    new_path = skill.parent.with_name(new_name) / "SKILL.md"
    nv.wait_for(new_path.is_file, timeout=TIMEOUT, what="the folder rename on disk")
    lua_lenses = (
        "local b = vim.fn.bufnr(...) local out = {}"
        " for _, l in ipairs(b > 0 and vim.lsp.codelens.get(b) or {}) do"
        " if l.command then out[#out + 1] = l.command.arguments[1].uri end end return out"
    )
    uris = nv.wait_for(
        lambda: (got := nv.lua(lua_lenses, str(new_path))) and all(u == new_path.as_uri() for u in got) and got,
        timeout=TIMEOUT,
        what="code lenses for the renamed file",
    )
    assert len(uris) >= 2


RENAME_DEPLOY = "---\nname: deploy\ndescription: Ships the build. Use when releasing.\n---\n# Deploy\n"
RENAME_CALLER = ("---\nname: caller\ndescription: Calls deploy. Use when testing.\nallowed-tools: Read Skill(deploy)\n"
                 "---\nRun `/deploy` first, then $deploy; see [it](../deploy/SKILL.md).\n")
LUA_RENAME = r"""
local buf, row, col, new = ...
vim.api.nvim_set_current_buf(buf)
vim.api.nvim_win_set_cursor(0, { row + 1, col })
vim.lsp.buf.rename(new, { name = "skill_lsp" })
return true
"""


def test_rename_a_skill_moves_the_folder_and_every_mention(make_nvim, server_base, tmp_path) -> None:
    """F2 in Neovim on a mention: the folder, its `name` and every mention change on disk."""
    ws = tmp_path / "ws"
    root = ws / ".claude" / "skills"
    for name, text in (("deploy", RENAME_DEPLOY), ("caller", RENAME_CALLER)):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(text, encoding="utf-8")
    nv: Nvim = make_nvim(ws, [*server_base, "serve"])
    caller = root / "caller" / "SKILL.md"
    buf = nv.edit(caller)
    nv.wait_for(lambda: any(c["name"] == "skill_lsp" and c["initialized"] for c in nv.lua(LUA_CLIENTS, buf)),
                timeout=TIMEOUT, what="skill_lsp to attach")
    lines = _lines(caller)
    row = next(i for i, line in enumerate(lines) if "`/deploy`" in line)
    # The workspace scan must know `deploy` before a mention of it can be renamed.
    nv.wait_for(lambda: nv.lua("for _, s in pairs(require('skill_lsp').status) do"
                               " if s.scanning == false and (s.skills or 0) >= 2 then return true end end"
                               " return false"), timeout=TIMEOUT, what="the workspace scan")
    nv.lua(LUA_RENAME, buf, row, lines[row].index("/deploy") + 2, "ship")
    nv.wait_for(lambda: (root / "ship").is_dir(), timeout=TIMEOUT, what="the folder rename")
    nv.cmd("silent! wall")
    shipped = root / "ship" / "SKILL.md"
    nv.wait_for(lambda: "name: ship\n" in shipped.read_text("utf-8"), timeout=TIMEOUT, what="the new name on disk")
    assert not (root / "deploy").exists()
    text = caller.read_text("utf-8")
    assert "Skill(ship)" in text and "`/ship`" in text and "$ship;" in text and "(../ship/SKILL.md)" in text
    assert "deploy" not in text.replace("Calls deploy", "")

    def settled():
        # True, not the list: with the link to `../ship/SKILL.md` no longer reported (a link into
        # another skill) nothing may be left at all.
        diags = nv.lua(LUA_DIAGNOSTICS, buf)
        return not any(d["code"] in ("BROKEN_LINK", "UNKNOWN_SKILL", "NAME_MISMATCH") for d in diags)

    assert nv.wait_for(settled, timeout=TIMEOUT, what="no stale diagnostics")


def test_hover_and_code_lens_say_the_listing_decision(make_nvim, server_base, tmp_path) -> None:
    """K on the description and the code lens of a skill past Claude Code's listing budget (the
    capture case listing-budget, 26 skills): the hover float and a lens say it is listed by name only."""
    ws = tmp_path / "ws"
    shutil.copytree(REPO / "capture" / "cases" / "listing-budget" / "skills", ws / ".claude" / "skills")
    nv: Nvim = make_nvim(ws, [*server_base, "serve"])
    skill = ws / ".claude" / "skills" / "b23" / "SKILL.md"
    buf = nv.edit(skill)
    nv.wait_for(lambda: any(c["name"] == "skill_lsp" and c["initialized"] for c in nv.lua(LUA_CLIENTS, buf)),
                timeout=TIMEOUT, what="skill_lsp to attach")
    nv.wait_for(lambda: nv.lua("for _, s in pairs(require('skill_lsp').status) do"
                               " if s.scanning == false and (s.skills or 0) >= 26 then return true end end"
                               " return false"), timeout=TIMEOUT, what="the workspace scan")
    row = next(i for i, line in enumerate(_lines(skill)) if line.startswith("description:"))
    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", row + 1, 3)
    nv.lua("vim.lsp.buf.hover()")
    float_text = (
        "for _, w in ipairs(vim.api.nvim_list_wins()) do"
        " if vim.api.nvim_win_get_config(w).relative ~= '' then"
        " return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\\n')"
        " end end return nil"
    )
    text = nv.wait_for(lambda: nv.lua(float_text), timeout=TIMEOUT, what="the hover float")
    assert "Listing decisions" in text, text
    assert "Claude Code 2.1.332 lists this skill by name only: its listing budget" in text, text
    titles = nv.wait_for(
        lambda: nv.lua(
            "local out = {} for _, l in ipairs(vim.lsp.codelens.get(...)) do"
            " if l.command then out[#out + 1] = l.command.title end end"
            " for _, x in ipairs(out) do if x:find('Claude Code 2.1.332 lists this skill by name only', 1, true) == 1"
            " then return out end end return nil",
            buf,
        ),
        timeout=TIMEOUT,
        what="a code lens with the listing decision",
    )
    assert "Preview activation" in titles, titles
