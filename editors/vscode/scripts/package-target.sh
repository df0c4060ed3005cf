#!/usr/bin/env bash
# A platform .vsix with the skill-lsp server inside:
#
#   bash scripts/package-target.sh linux-x64 [SKILL_LSP_WHEEL]
#
# Builds the extension, vendors skill-lsp and its dependencies for TARGET into
# bundled/ (scripts/bundle-server.py: one folder per CPython 3.10-3.14, wheels
# only, kept in $SKILL_LSP_CACHE/wheels) and packages dist/skill-lsp-TARGET.vsix
# with `vsce package --target`. scripts/release.py at the repository root builds
# every released target (and checks them) the same way.
# Any vsce target that bundle-server.py knows works the same way (linux-arm64,
# alpine-x64, darwin-x64, darwin-arm64, win32-x64, win32-arm64): pip downloads
# that platform's wheels, so one Linux machine builds them all.
set -euo pipefail
TARGET=${1:?usage: package-target.sh TARGET [WHEEL]}
WHEEL=${2:-}
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
node esbuild.mjs --production
"$PY" scripts/bundle-server.py --target "$TARGET" ${WHEEL:+--wheel "$WHEEL"} \
  --wheel-cache "${SKILL_LSP_CACHE:-$HOME/.cache/skill-lsp}/wheels"
mkdir -p dist
rm -f "dist/skill-lsp-$TARGET.vsix"
npx vsce package --no-dependencies --target "$TARGET" -o "dist/skill-lsp-$TARGET.vsix"
rm -rf bundled   # keep the universal `npm run package` free of it
ls -l "dist/skill-lsp-$TARGET.vsix"
