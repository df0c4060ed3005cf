-- Shared defaults for every way of starting skill-lsp from Neovim:
--   * lsp/skill_lsp.lua (Neovim 0.11+ `vim.lsp.enable('skill_lsp')`),
--   * require('skill_lsp').setup() (0.11 and the 0.10 fallback),
--   * the nvim-lspconfig snippet in README.md.
local M = {}

--- Dialect names accepted by the preview commands (docs/server.md).
M.dialects = { 'skill-tool', 'dsh', 'agentskills', 'claude-code', 'codex', 'opencode', 'gemini', 'copilot' }

--- Skill roots relative to a workspace: the server's default roots (the roots the
--- harnesses read, `skill-lsp harnesses`); tests/cli/test_editor_defaults.py keeps
--- this list equal to the engine's.
M.skill_roots = {
  '.agents/skills',
  '.claude/skills',
  '.skills',
  'skills',
  '.codex/skills',
  '.opencode/skills',
  '.opencode/skill',
  '.gemini/skills',
  '.github/skills',
  '.dsh/skills',
  '.goose/skills',
}

--- Files that mark a workspace root, in priority order.
M.root_markers = {
  '.skill-lsp.toml',
  '.git',
  '.agents',
  '.claude',
  '.skills',
  'pyproject.toml',
}

--- The file names the server acts on.
M.skill_file_names = { ['SKILL.md'] = true, ['skill.md'] = true }

---@param name string|nil a path or buffer name
---@return boolean
function M.is_skill_path(name)
  if not name or name == '' then
    return false
  end
  return M.skill_file_names[vim.fs.basename(name)] == true
end

---@param bufnr integer|nil
---@return boolean
function M.is_skill_buffer(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  return M.is_skill_path(vim.api.nvim_buf_get_name(bufnr))
end

--- The workspace root for a SKILL.md: the nearest folder holding one of the
--- markers (first marker wins), else the folder holding the skill root
--- (`.claude/skills/<name>/SKILL.md` -> the folder holding `.claude`; roots from
--- M.skill_roots), else the skill's own parent folder.
---@param path string absolute path of a SKILL.md
---@param markers string[]|nil
---@return string
function M.find_root(path, markers)
  markers = markers or M.root_markers
  for _, marker in ipairs(markers) do
    local root = vim.fs.root(path, marker)
    if root then
      return root
    end
  end
  local skill_dir = vim.fs.dirname(path)
  local parent = vim.fs.dirname(skill_dir)
  -- Longest root first: `.claude/skills` before `skills`.
  local roots = vim.deepcopy(M.skill_roots)
  table.sort(roots, function(a, b)
    return #a > #b
  end)
  for _, root in ipairs(roots) do
    local tail = '/' .. root
    if parent:sub(-#tail) == tail then
      return parent:sub(1, #parent - #tail)
    end
  end
  return parent
end

--- The 0.11 `root_dir` function form: attach only to SKILL.md / skill.md
--- buffers (return without calling `on_dir` for any other file).
---@param bufnr integer
---@param on_dir fun(root: string)
function M.root_dir(bufnr, on_dir)
  if not M.is_skill_buffer(bufnr) then
    return
  end
  local path = vim.fs.normalize(vim.api.nvim_buf_get_name(bufnr))
  on_dir(M.find_root(path, M.root_markers))
end

--- Default settings sent as `workspace/configuration` section `skillLsp`.
--- Empty means "server defaults"; see docs/server.md for the keys.
M.settings = { skillLsp = vim.empty_dict() }

--- The client configuration, in the shape `vim.lsp.config()` expects.
---@return vim.lsp.Config
function M.default()
  return {
    cmd = { 'skill-lsp', 'serve' },
    filetypes = { 'markdown', 'skill' },
    root_markers = vim.deepcopy(M.root_markers),
    root_dir = M.root_dir,
    settings = vim.deepcopy(M.settings),
    handlers = {
      ['skillLsp/status'] = function(...)
        return require('skill_lsp').on_status(...)
      end,
    },
  }
end

return M
