-- skill-lsp for Neovim: setup(), preview commands, code-lens command handlers
-- and the `skillLsp/status` notification.
local config = require('skill_lsp.config')

local M = {}

M.name = 'skill_lsp'
M.dialects = config.dialects

--- Options of setup() that are not LSP client fields.
M.options = {
  -- refresh the server's code lenses ("Preview activation", "≈N catalog
  -- tokens") in SKILL.md buffers; run them with vim.lsp.codelens.run()
  codelens = true,
  -- turn on vim.lsp.completion for SKILL.md buffers (0.11+), so that accepting
  -- an item expands its snippet (`license: ` rather than a bare `license`);
  -- `{ autotrigger = true }` also opens the menu as you type
  completion = true,
  -- how the preview window opens: 'below' | 'above' | 'left' | 'right' | 'tab'
  preview_split = 'below',
  -- start the client with vim.lsp.start from autocmds (what setup() does on
  -- Neovim 0.10) even on 0.11+
  use_lsp_start = false,
}

--- Last `skillLsp/status` per client id: {profile, skills, scanning}.
M.status = {}

local has_011 = vim.fn.has('nvim-0.11') == 1

local function get_clients(filter)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  return vim.lsp.get_active_clients(filter) ---@diagnostic disable-line: deprecated
end

--- The skill-lsp client attached to `bufnr`, else any running skill-lsp client.
---@param bufnr integer|nil
---@return vim.lsp.Client|nil
function M.get_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local c = get_clients({ name = M.name, bufnr = bufnr })[1]
  if c then
    return c
  end
  return get_clients({ name = M.name })[1]
end

local function request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr) ---@diagnostic disable-line
end

--- Run a server command: workspace/executeCommand {command, arguments = {args}}.
---@param client vim.lsp.Client
---@param command string
---@param args table|nil
---@param bufnr integer|nil
---@param callback fun(err: table|nil, result: any)
function M.execute(client, command, args, bufnr, callback)
  local params = { command = command, arguments = { args or vim.empty_dict() } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    callback(err, result)
  end, bufnr)
end

-- ---------------------------------------------------------------------------
-- Preview buffers
-- ---------------------------------------------------------------------------

local PREFIX = 'skill-lsp-preview://'

local function find_buffer(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
end

local function find_preview_window()
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local b = vim.api.nvim_win_get_buf(w)
    if vim.startswith(vim.api.nvim_buf_get_name(b), PREFIX) then
      return w
    end
  end
end

--- Split `text` on "\n" only, so that table.concat(lines, "\n") == text
--- (a trailing newline gives a trailing empty line; "\r" stays in the line).
---@param text string
---@return string[]
function M.split_text(text)
  return vim.split(text, '\n', { plain = true })
end

--- Show `text` in a read-only scratch buffer named `name`, in a split.
---@param name string full buffer name (skill-lsp-preview://...)
---@param text string
---@param meta table|nil stored as b:skill_lsp_preview
---@return integer bufnr
function M.show_text(name, text, meta)
  local buf = find_buffer(name)
  if not buf then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  local bo = vim.bo[buf]
  bo.buftype = 'nofile'
  bo.bufhidden = 'wipe'
  bo.swapfile = false
  bo.modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, M.split_text(text))
  bo.modifiable = false
  bo.modified = false
  bo.filetype = 'skill-lsp-preview'
  vim.b[buf].skill_lsp_preview = meta or vim.empty_dict()

  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    win = find_preview_window()
    if win then
      vim.api.nvim_win_set_buf(win, buf)
      vim.api.nvim_set_current_win(win)
    elseif M.options.preview_split == 'tab' then
      vim.cmd('tab split')
      vim.api.nvim_win_set_buf(0, buf)
      win = vim.api.nvim_get_current_win()
    else
      win = vim.api.nvim_open_win(buf, true, { split = M.options.preview_split or 'below', win = -1 })
    end
  else
    vim.api.nvim_set_current_win(win)
  end
  vim.wo[win].wrap = true
  vim.wo[win].spell = false
  return buf
end

local function label_for(uri)
  if not uri then
    return 'workspace'
  end
  local path = vim.uri_to_fname(uri)
  return vim.fs.basename(vim.fs.dirname(path)) or 'skill'
end

--- Show a previewActivation / previewCatalog result.
---@param kind 'activation'|'catalog'
---@param result table {text, dialect, ...}
---@param args table the command arguments
---@return integer|nil bufnr
function M.show_result(kind, result, args)
  if type(result) ~= 'table' or type(result.text) ~= 'string' then
    vim.notify('skill-lsp: unexpected ' .. kind .. ' preview result: ' .. vim.inspect(result), vim.log.levels.ERROR)
    return nil
  end
  local dialect = result.dialect or args.dialect or 'default'
  local name
  if kind == 'activation' then
    name = ('%sactivation/%s/%s'):format(PREFIX, label_for(args.uri), dialect)
  else
    name = ('%scatalog/%s'):format(PREFIX, dialect)
  end
  local buf = M.show_text(name, result.text, {
    kind = kind,
    uri = args.uri,
    dialect = result.dialect or args.dialect,
    result_kind = result.kind,
    previewUri = result.previewUri,
  })
  if kind == 'activation' and result.kind and result.kind ~= 'ok' then
    vim.notify(('skill-lsp: activation preview: %s'):format(result.kind), vim.log.levels.WARN)
  end
  return buf
end

local COMMANDS = {
  activation = 'skill-lsp.previewActivation',
  catalog = 'skill-lsp.previewCatalog',
}

--- Run a preview and show it. `args` is the command argument object
--- ({uri, dialect} / {dialect, uri}); `done(bufnr|nil, err)` is optional.
---@param kind 'activation'|'catalog'
---@param client vim.lsp.Client
---@param args table
---@param bufnr integer|nil
---@param done fun(buf: integer|nil, err: any)|nil
function M.run_preview(kind, client, args, bufnr, done)
  M.execute(client, COMMANDS[kind], args, bufnr, function(err, result)
    local buf
    if err then
      vim.notify(('skill-lsp: %s failed: %s'):format(COMMANDS[kind], err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      buf = M.show_result(kind, result, args)
    end
    if done then
      done(buf, err)
    end
  end)
end

--- :SkillPreview [dialect] / :SkillCatalog [dialect]
---@param kind 'activation'|'catalog'
---@param dialect string|nil
---@param done fun(buf: integer|nil, err: any)|nil
function M.preview(kind, dialect, done)
  if dialect == '' then
    dialect = nil
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local uri
  local meta = vim.b[bufnr].skill_lsp_preview
  if config.is_skill_buffer(bufnr) then
    uri = vim.uri_from_bufnr(bufnr)
  elseif type(meta) == 'table' and meta.uri then
    -- re-run from inside a preview buffer (e.g. :SkillPreview codex)
    uri = meta.uri
    bufnr = vim.uri_to_bufnr(uri)
  end
  if kind == 'activation' and not uri then
    vim.notify('skill-lsp: :SkillPreview needs a SKILL.md buffer', vim.log.levels.ERROR)
    return
  end
  local client = M.get_client(bufnr)
  if not client then
    vim.notify('skill-lsp: no skill_lsp client is running (open a SKILL.md; see :checkhealth skill_lsp)', vim.log.levels.ERROR)
    return
  end
  local args = { uri = uri, dialect = dialect }
  M.run_preview(kind, client, args, bufnr, done)
end

--- Completion for the dialect argument.
function M.complete_dialect(arglead)
  return vim.tbl_filter(function(d)
    return vim.startswith(d, arglead)
  end, M.dialects)
end

--- Client-side handlers for the commands in the server's code lenses, so that
--- vim.lsp.codelens.run() opens the preview.
local function lens_handler(kind)
  return function(command, ctx)
    local args = (command.arguments and command.arguments[1]) or {}
    local client = vim.lsp.get_client_by_id(ctx.client_id) or M.get_client(ctx.bufnr)
    if not client then
      return
    end
    if kind == 'activation' and not args.uri and ctx.bufnr then
      args.uri = vim.uri_from_bufnr(ctx.bufnr)
    end
    M.run_preview(kind, client, args, ctx.bufnr)
  end
end

function M.register_commands()
  vim.lsp.commands[COMMANDS.activation] = lens_handler('activation')
  vim.lsp.commands[COMMANDS.catalog] = lens_handler('catalog')
end

-- ---------------------------------------------------------------------------
-- Other commands
-- ---------------------------------------------------------------------------

--- :SkillStatus — skill-lsp.status, echoed.
function M.show_status(done)
  local client = M.get_client()
  if not client then
    vim.notify('skill-lsp: no skill_lsp client is running', vim.log.levels.ERROR)
    return
  end
  M.execute(client, 'skill-lsp.status', vim.empty_dict(), nil, function(err, result)
    if err then
      vim.notify('skill-lsp: status failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      vim.notify(('skill-lsp %s: profile %s, %s skills, roots %s'):format(
        tostring(result.version), tostring(result.profile), tostring(result.skills),
        table.concat(result.roots or {}, ', ')))
    end
    if done then
      done(result, err)
    end
  end)
end

--- :SkillFixAll — skill-lsp.fixAll {uri} (the server applies the edit).
function M.fix_all(done)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = config.is_skill_buffer(bufnr) and M.get_client(bufnr)
  if not client then
    vim.notify('skill-lsp: :SkillFixAll needs a SKILL.md buffer with skill_lsp attached', vim.log.levels.ERROR)
    return
  end
  M.execute(client, 'skill-lsp.fixAll', { uri = vim.uri_from_bufnr(bufnr) }, bufnr, function(err, result)
    if err then
      vim.notify('skill-lsp: fixAll failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    if done then
      done(result, err)
    end
  end)
end

-- ---------------------------------------------------------------------------
-- skillLsp/status notification and statusline
-- ---------------------------------------------------------------------------

function M.on_status(_, result, ctx)
  if ctx and ctx.client_id and type(result) == 'table' then
    M.status[ctx.client_id] = result
    pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'SkillLspStatus', modeline = false, data = result })
    -- A code lens says what harnesses do with a skill among the others (listing decisions):
    -- once a scan has read the others, ask again (Neovim 0.11 does not take workspace/codeLens/refresh).
    local client = result.scanning == false and M.options.codelens and vim.lsp.get_client_by_id(ctx.client_id)
    if client then
      for bufnr in pairs(client.attached_buffers or {}) do
        pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
      end
    end
  end
end

--- A short statusline string, e.g. "skills:12 (skill-tool)"; "" when not attached.
function M.statusline()
  local client = get_clients({ name = M.name, bufnr = vim.api.nvim_get_current_buf() })[1]
  if not client then
    return ''
  end
  local s = M.status[client.id]
  if not s then
    return 'skills:…'
  end
  return ('skills:%s%s (%s)'):format(tostring(s.skills), s.scanning and '…' or '', tostring(s.profile))
end

-- ---------------------------------------------------------------------------
-- Code lens refresh
-- ---------------------------------------------------------------------------

function M.on_attach(client, bufnr)
  if M.options.completion and vim.lsp.completion and vim.lsp.completion.enable then
    -- Without this, omnifunc (<C-x><C-o>) inserts an item's label and drops
    -- the rest of its snippet: key completion left `license` with no `: `.
    local copts = type(M.options.completion) == 'table' and M.options.completion or {}
    pcall(vim.lsp.completion.enable, true, client.id, bufnr, copts)
  end
  if not M.options.codelens then
    return
  end
  if not (client.server_capabilities and client.server_capabilities.codeLensProvider) then
    return
  end
  local group = vim.api.nvim_create_augroup('skill_lsp_codelens_' .. bufnr, { clear = true })
  local function refresh()
    if vim.api.nvim_buf_is_valid(bufnr) then
      pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
    end
  end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
    group = group,
    buffer = bufnr,
    callback = refresh,
  })
  -- The "rename the folder" fix renames the buffer (:saveas) without changing
  -- its text; refresh after the client has re-opened it under the new path.
  vim.api.nvim_create_autocmd({ 'BufFilePost', 'BufWritePost' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      vim.defer_fn(refresh, 50)
    end,
  })
  refresh()
end

-- ---------------------------------------------------------------------------
-- User commands (plugin/skill_lsp.lua calls this; so does setup(), for
-- plugin managers that add editors/nvim to 'runtimepath' after startup)
-- ---------------------------------------------------------------------------

function M.init_plugin()
  if vim.g.loaded_skill_lsp then
    return
  end
  vim.g.loaded_skill_lsp = true
  local function complete(arglead)
    return M.complete_dialect(arglead)
  end
  vim.api.nvim_create_user_command('SkillPreview', function(a)
    M.preview('activation', a.args)
  end, {
    nargs = '?',
    complete = complete,
    desc = 'skill-lsp: preview what the harness hands the model when this skill activates',
  })
  vim.api.nvim_create_user_command('SkillCatalog', function(a)
    M.preview('catalog', a.args)
  end, {
    nargs = '?',
    complete = complete,
    desc = 'skill-lsp: preview the skill catalog (names + descriptions) for a dialect',
  })
  vim.api.nvim_create_user_command('SkillStatus', function()
    M.show_status()
  end, { nargs = 0, desc = 'skill-lsp: server version, profile, skill count and roots' })
  vim.api.nvim_create_user_command('SkillFixAll', function()
    M.fix_all()
  end, { nargs = 0, desc = 'skill-lsp: apply every safe fix in this SKILL.md' })

  -- The server's code lenses run these commands; handle them client-side so
  -- vim.lsp.codelens.run() opens the preview buffer.
  M.register_commands()

  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('skill_lsp_attach', { clear = true }),
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      if client and client.name == M.name then
        M.on_attach(client, ev.buf)
      end
    end,
  })
end

-- ---------------------------------------------------------------------------
-- setup()
-- ---------------------------------------------------------------------------

local CLIENT_FIELDS = {
  'cmd', 'cmd_env', 'cmd_cwd', 'filetypes', 'root_markers', 'root_dir', 'settings',
  'init_options', 'capabilities', 'handlers', 'on_attach', 'on_init', 'on_exit',
  'flags', 'before_init', 'workspace_folders',
}

--- Neovim 0.10: start the client from an autocmd, guarded by the file name.
local function setup_010(client_opts)
  local cfg = vim.tbl_deep_extend('force', config.default(), client_opts)
  cfg.name = M.name
  local function start(bufnr)
    if not config.is_skill_buffer(bufnr) then
      return
    end
    local root = cfg.root_dir
    if type(root) == 'function' then
      root = config.find_root(vim.fs.normalize(vim.api.nvim_buf_get_name(bufnr)), cfg.root_markers)
    end
    local start_cfg = vim.tbl_extend('force', cfg, { root_dir = root })
    start_cfg.root_markers = nil
    start_cfg.filetypes = nil
    vim.lsp.start(start_cfg, { bufnr = bufnr })
  end
  local group = vim.api.nvim_create_augroup('skill_lsp_start', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = cfg.filetypes,
    callback = function(ev)
      start(ev.buf)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = { 'SKILL.md', 'skill.md' },
    callback = function(ev)
      start(ev.buf)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      start(b)
    end
  end
end

--- require('skill_lsp').setup({ cmd = ..., settings = { skillLsp = {...} }, ... })
--- LSP client fields are passed to vim.lsp.config('skill_lsp', ...) (0.11+)
--- or vim.lsp.start (0.10); `codelens`, `preview_split` and `enable` are
--- plugin options.
---@param opts table|nil
function M.setup(opts)
  opts = opts or {}
  local client_opts = {}
  for _, k in ipairs(CLIENT_FIELDS) do
    if opts[k] ~= nil then
      client_opts[k] = opts[k]
    end
  end
  for k, v in pairs(opts) do
    if M.options[k] ~= nil then
      M.options[k] = v
    end
  end
  if opts.root_markers then
    -- the root_dir function of lsp/skill_lsp.lua reads these
    config.root_markers = opts.root_markers
  end
  M.init_plugin()
  if vim.lsp.config and vim.lsp.enable and not M.options.use_lsp_start then
    if next(client_opts) then
      vim.lsp.config(M.name, client_opts)
    end
    if opts.enable ~= false then
      vim.lsp.enable(M.name)
    end
  elseif opts.enable ~= false then
    setup_010(client_opts)
  end
end

return M
