#!/usr/bin/env bash
# For tests/editors/vscode (code-server in headless Chromium): Debian packages the
# e2e script cannot install itself. Node 24, code-server and the npm dependencies
# are installed by editors/vscode/scripts/e2e.sh into .cache/ (cached between runs).
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium libkrb5-dev curl >/dev/null
fi
export SKILL_LSP_REQUIRE_EDITORS=1
