-- :checkhealth skill_lsp
local M = {}

local health = vim.health
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local err = health.error or health.report_error
local info = health.info or health.report_info

--- The client config in effect (0.11 vim.lsp.config, else the defaults).
local function resolved_config()
  if vim.lsp.config then
    local okc, cfg = pcall(function()
      return vim.lsp.config[require('skill_lsp').name]
    end)
    if okc and cfg then
      return cfg
    end
  end
  return require('skill_lsp.config').default()
end

--- cmd with "serve" (and what follows) replaced by "--version".
local function version_cmd(cmd)
  local out = {}
  for _, a in ipairs(cmd) do
    if a == 'serve' then
      break
    end
    out[#out + 1] = a
  end
  out[#out + 1] = '--version'
  return out
end

function M.check()
  start('skill-lsp: Neovim')
  local v = vim.version()
  local vs = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    ok('Neovim ' .. vs .. ' (vim.lsp.config / vim.lsp.enable available)')
  elseif vim.fn.has('nvim-0.10') == 1 then
    warn('Neovim ' .. vs .. ': use require("skill_lsp").setup() (0.10 fallback); lsp/skill_lsp.lua needs 0.11+')
  else
    err('Neovim ' .. vs .. ' is too old: skill-lsp needs 0.10+')
  end

  start('skill-lsp: server executable')
  local cfg = resolved_config()
  local cmd = cfg.cmd
  if type(cmd) ~= 'table' then
    info('cmd is a function (custom transport); not checked')
  else
    info('cmd: ' .. table.concat(cmd, ' '))
    local exe = cmd[1]
    if vim.fn.executable(exe) ~= 1 then
      err(('`%s` not found on $PATH'):format(exe), {
        'pip install skill-lsp (or pipx install skill-lsp)',
        "or set the full path: vim.lsp.config('skill_lsp', { cmd = { '/path/to/skill-lsp', 'serve' } })",
      })
    else
      ok(('`%s` found: %s'):format(exe, vim.fn.exepath(exe)))
      local vcmd = version_cmd(cmd)
      local okr, res = pcall(function()
        return vim.system(vcmd, { text = true }):wait(10000)
      end)
      if not okr then
        err('could not run `' .. table.concat(vcmd, ' ') .. '`: ' .. tostring(res))
      elseif res.code ~= 0 then
        err(('`%s` exited %s: %s'):format(table.concat(vcmd, ' '), tostring(res.code), vim.trim((res.stderr or '') .. (res.stdout or ''))))
      else
        ok('version: ' .. vim.trim(res.stdout or ''))
      end
    end
  end

  start('skill-lsp: client')
  if vim.lsp.is_enabled then
    local okc, enabled = pcall(vim.lsp.is_enabled, require('skill_lsp').name)
    if okc then
      if enabled then
        ok("vim.lsp.enable('skill_lsp') is on")
      else
        info("vim.lsp.enable('skill_lsp') has not been called (fine if you use setup() on 0.10 or nvim-lspconfig)")
      end
    end
  end
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ name = require('skill_lsp').name })
  if #clients == 0 then
    warn('no skill_lsp client is running: open a SKILL.md (the client attaches only to SKILL.md / skill.md)')
  end
  for _, c in ipairs(clients) do
    local bufs = {}
    for b in pairs(c.attached_buffers or {}) do
      local name = vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b) or ''
      bufs[#bufs + 1] = ('%d:%s'):format(b, vim.fn.fnamemodify(name, ':~:.'))
    end
    local server = c.server_info and (c.server_info.name .. ' ' .. (c.server_info.version or '')) or '?'
    ok(('client %d attached (server %s, root %s) to %d buffer(s): %s'):format(
      c.id, vim.trim(server), tostring(c.root_dir or (c.config and c.config.root_dir)), #bufs, table.concat(bufs, ', ')))
    local status = require('skill_lsp').status[c.id]
    if status then
      info(('last skillLsp/status: profile %s, %s skills%s'):format(tostring(status.profile), tostring(status.skills), status.scanning and ' (scanning)' or ''))
    end
  end
  local alt = vim.fn.bufnr('#')
  if alt > 0 and require('skill_lsp.config').is_skill_buffer(alt) then
    local attached = #get({ name = require('skill_lsp').name, bufnr = alt }) > 0
    if attached then
      ok('the SKILL.md you came from has the client attached')
    else
      err('the SKILL.md you came from has NO skill_lsp client attached')
    end
  end
end

return M
