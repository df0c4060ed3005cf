"""The differential tester: generated workspaces, run on the pinned releases and compared with skill-lsp.

``python -m capture diff`` (see capture/README.md). Modules: ``grammar`` (the seeded
generator), ``workspace`` (on disk, and as a stored case), ``compare`` (one batch),
``shrink`` (a disagreement made minimal), ``cli`` (runs, counts, reports).
"""
