#!/usr/bin/env bash
# Sourced by .ci/run with the venv active: installs what the real-editor tests need.
# Each editor keeps its own script; this one only chains them.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/nvim/ci-setup.sh"
if [ -f "$here/vscode/ci-setup.sh" ]; then
  . "$here/vscode/ci-setup.sh"
fi
