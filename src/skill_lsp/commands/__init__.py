"""CLI subcommands, one module each (imported lazily by skill_lsp.cli)."""
