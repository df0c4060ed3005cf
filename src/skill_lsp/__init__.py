"""skill-lsp: language server, linter and activation previewer for Agent Skills."""

__version__ = "0.1.0"
