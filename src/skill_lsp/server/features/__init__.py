"""Server features, one module each; each exposes register(server)."""
