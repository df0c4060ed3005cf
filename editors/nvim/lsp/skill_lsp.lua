-- Neovim 0.11+ native configuration for skill-lsp.
--
--   vim.lsp.enable('skill_lsp')
--
-- Override any field with vim.lsp.config('skill_lsp', { ... }), e.g.
--   vim.lsp.config('skill_lsp', { settings = { skillLsp = { profile = 'claude-code' } } })
--
-- The client attaches only to buffers named SKILL.md or skill.md: `root_dir`
-- returns without calling `on_dir` for any other Markdown file.
return require('skill_lsp.config').default()
