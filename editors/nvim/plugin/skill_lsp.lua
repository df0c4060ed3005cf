-- skill-lsp: :SkillPreview, :SkillCatalog, :SkillStatus, :SkillFixAll and the
-- client-side handlers of the server's code-lens commands.
-- Starting the server is up to the user: vim.lsp.enable('skill_lsp') (0.11+),
-- require('skill_lsp').setup{} or nvim-lspconfig (see README.md).
if vim.g.loaded_skill_lsp or vim.fn.has('nvim-0.10') ~= 1 then
  return
end
require('skill_lsp').init_plugin()
