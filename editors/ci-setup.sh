#!/usr/bin/env bash
# Sourced by .ci/run with the venv active: installs what the real-editor tests need.
# Each editor keeps its own script; this one only chains them.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Debian packages: Emacs 28 + eglot + markdown-mode (tests/editors/emacs), Vim 9 +
# ALE in tmux (tests/editors/vim), zsh and fish (tests/cli/test_cli_completion.py).
# Only what is missing; apt-get update first, as the package lists may be stale.
_skill_lsp_debs=()
for _p in emacs-nox elpa-eglot elpa-markdown-mode vim-nox vim-ale tmux zsh fish git; do
  dpkg-query -W -f='${Status}' "$_p" 2>/dev/null | grep -q 'install ok installed' || _skill_lsp_debs+=("$_p")
done
if [ "${#_skill_lsp_debs[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "editors/ci-setup.sh: apt-get install ${_skill_lsp_debs[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${_skill_lsp_debs[@]}" >/dev/null
  else
    echo "editors/ci-setup.sh: missing ${_skill_lsp_debs[*]} (not root or no apt-get); their tests will fail under CI=true"
  fi
fi
unset _p _skill_lsp_debs

. "$here/nvim/ci-setup.sh"
if [ -f "$here/vscode/ci-setup.sh" ]; then
  . "$here/vscode/ci-setup.sh"
fi
