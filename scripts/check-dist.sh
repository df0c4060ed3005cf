#!/usr/bin/env bash
# Packaging check: build the sdist and wheel, `twine check` them, install the
# wheel into a clean venv (no editable install, no test extras) and lint the
# sample workspace with it. The sample workspace is full of deliberate mistakes,
# so `skill-lsp check` must exit 1 and report NAME_MISMATCH.
#
#   bash scripts/check-dist.sh [OUTDIR]     (default OUTDIR: dist/)
#
# Needs `build` and `twine` in the active Python (pip install build twine).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$ROOT/dist}
PY=${PYTHON:-python3}
cd "$ROOT"

rm -rf "$OUT" && mkdir -p "$OUT"
"$PY" -m build --outdir "$OUT" . >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
rm -f "$OUT/build.log"
version=$("$PY" -c 'import ast,sys; t=ast.parse(open("src/skill_lsp/__init__.py").read()); print(next(n.value.value for n in t.body if isinstance(n, ast.Assign) and n.targets[0].id == "__version__"))')
wheel="$OUT/skill_lsp-$version-py3-none-any.whl"
sdist="$OUT/skill_lsp-$version.tar.gz"
[ -f "$wheel" ] && [ -f "$sdist" ] || { ls -l "$OUT"; echo "check-dist: expected $wheel and $sdist"; exit 1; }
"$PY" -m twine check --strict "$wheel" "$sdist"

venv=$(mktemp -d /tmp/skill-lsp-dist.XXXXXX)
trap 'rm -rf "$venv"' EXIT
"$PY" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel"
got=$("$venv/bin/skill-lsp" --version)
[ "$got" = "skill-lsp $version" ] || { echo "check-dist: --version says '$got', expected 'skill-lsp $version'"; exit 1; }
set +e
# Run from outside the clone so nothing is imported from src/.
report=$(cd "$venv" && "$venv/bin/skill-lsp" check "$ROOT/sample-workspace" 2>&1)
rc=$?
set -e
echo "$report" | tail -3
[ "$rc" = 1 ] || { echo "$report"; echo "check-dist: skill-lsp check exited $rc, expected 1 (findings)"; exit 1; }
grep -q 'NAME_MISMATCH' <<<"$report" || { echo "check-dist: no NAME_MISMATCH finding"; exit 1; }
where=$("$venv/bin/python" -c 'import skill_lsp; print(skill_lsp.__file__)')
case "$where" in "$venv"/*) ;; *) echo "check-dist: skill_lsp imported from $where, not the venv"; exit 1 ;; esac
echo "check-dist: OK ($(basename "$wheel"), $(basename "$sdist"); installed wheel found the sample workspace's mistakes)"
