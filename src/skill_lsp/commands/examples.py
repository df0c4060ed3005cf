"""Examples shown at the end of each subcommand's --help (one place, kept short)."""

from __future__ import annotations

EXAMPLES: dict[str, str] = {
    "check": """\
examples:
  skill-lsp check                          lint every skill under the current folder
  skill-lsp check .claude/skills/pdf/SKILL.md
  skill-lsp check --fail-on warning .      exit 1 on warnings too
  skill-lsp check --fix --diff .           show the safe fixes as a diff, write nothing
  skill-lsp check --fix .                  apply them
  skill-lsp check --format github .        annotations in GitHub Actions
  skill-lsp check --format sarif . > skill-lsp.sarif
  skill-lsp check --select NAME --ignore NAME_MISMATCH .   only the NAME_* rules but one
  skill-lsp check --statistics .           how many findings of each code
  skill-lsp check --watch .                check again on every change (pip install 'skill-lsp[watch]')
exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or configuration error""",
    "preview": """\
examples:
  skill-lsp preview pdf-toolkit            by name, from the workspace catalog
  skill-lsp preview skills/pdf/SKILL.md --dialect claude-code
  skill-lsp preview pdf-toolkit --arguments 'report.pdf'          $ARGUMENTS as a string
  skill-lsp preview deploy-preview --as-user --arguments '{"branch": "main"}'
  skill-lsp preview pdf-toolkit --format json""",
    "catalog": """\
examples:
  skill-lsp catalog                        the catalog of the current folder's skills
  skill-lsp catalog --dialect gemini .
  skill-lsp catalog --dialect dsh --state replacement
  skill-lsp catalog --format json . | jq '.entries[] | {name, tokens}'""",
    "capture": """\
examples:
  skill-lsp capture --harness claude-code .       your `claude` on this workspace: catalog + first skill
  skill-lsp capture --harness codex --all .        every listed skill activated
  skill-lsp capture --harness claude --skill pdf --arguments 'report.pdf'
  skill-lsp capture --harness opencode --command ~/bin/opencode --timeout 300
  skill-lsp capture --harness gemini --command node_modules/@google/gemini-cli-core
nothing leaves the machine: the harness talks to a recording endpoint on 127.0.0.1 with a dummy key
exit codes: 0 same as skill-lsp's preview, 1 differs, 2 harness not found or did not answer""",
    "serve": """\
examples:
  skill-lsp serve                          LSP over stdin/stdout (what editors start)
  skill-lsp serve --tcp 127.0.0.1:2087     listen on a local TCP port instead""",
    "schema": """\
examples:
  skill-lsp schema > skill.schema.json     JSON Schema for yaml-language-server
  skill-lsp schema config > skill-lsp.schema.json   JSON Schema of .skill-lsp.toml (Even Better TOML / taplo)""",
    "rules": """\
examples:
  skill-lsp rules                          every rule code with its severity
  skill-lsp rules --format markdown > rules.md
  skill-lsp rules --format json""",
    "harnesses": """\
examples:
  skill-lsp harnesses                      roots, fields, caps and budget of every harness
  skill-lsp harnesses --format json        the same facts for scripts""",
    "completion": """\
examples:
  eval "$(skill-lsp completion bash)"                       in ~/.bashrc
  skill-lsp completion zsh > "${fpath[1]}/_skill-lsp"       then restart zsh
  skill-lsp completion fish > ~/.config/fish/completions/skill-lsp.fish""",
}
