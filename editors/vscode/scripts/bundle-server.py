#!/usr/bin/env python3
"""Vendor skill-lsp and its dependencies into bundled/ for a platform .vsix.

    python3 scripts/bundle-server.py --target linux-x64 [--wheel skill_lsp-X-py3-none-any.whl]

For each supported CPython (3.10-3.14) it runs `pip install --target` with the
target's platform tags and `--only-binary=:all:` (no compiler, wheels from the
index only), so the compiled dependencies (ruamel.yaml.clib, rapidfuzz,
pyromark) match that platform and interpreter. Top-level entries that come out
byte-identical for every version (pygls, lsprotocol, skill_lsp, ...) are moved to
bundled/libs/common; the rest stay in bundled/libs/cp3XX. bundled/manifest.json
tells the extension what is there. Without --wheel the wheel is built from the
repository (pip wheel --no-deps).

Other targets: the same command with --target linux-arm64, alpine-x64,
darwin-x64, darwin-arm64, win32-x64 or win32-arm64 (see TARGETS), then
`vsce package --target <target>`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # editors/vscode
ROOT = HERE.parents[1]
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
# vsce target -> pip --platform tags (newest first; pip takes any of them).
TARGETS: dict[str, list[str]] = {
    "linux-x64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux-arm64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "alpine-x64": ["musllinux_1_2_x86_64", "musllinux_1_1_x86_64"],
    "darwin-x64": ["macosx_10_12_x86_64", "macosx_10_9_x86_64", "macosx_10_9_universal2", "macosx_10_12_universal2"],
    "darwin-arm64": ["macosx_11_0_arm64", "macosx_10_9_universal2", "macosx_10_12_universal2"],
    "win32-x64": ["win_amd64"],
    "win32-arm64": ["win_arm64"],
}


def tree_hash(path: Path) -> str:
    h = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for f in files:
        h.update(str(f.relative_to(path.parent)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def build_wheel(out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)], check=True)
    wheels = sorted(out.glob("skill_lsp-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one skill_lsp wheel in {out}, found {wheels}")
    return wheels[0]


def install(wheel: Path, target: str, python: str, dest: Path) -> None:
    tag = "cp" + python.replace(".", "")
    cmd = [
        sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile",
        "--target", str(dest), "--only-binary=:all:", "--implementation", "cp",
        "--python-version", python, "--abi", tag, "--abi", "abi3", "--abi", "none",
    ]
    for plat in TARGETS[target]:
        cmd += ["--platform", plat]
    subprocess.run([*cmd, str(wheel)], check=True)
    for junk in [dest / "bin", *dest.rglob("__pycache__")]:
        shutil.rmtree(junk, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True, choices=sorted(TARGETS))
    ap.add_argument("--wheel", type=Path, help="the skill-lsp wheel (default: built from the repository)")
    ap.add_argument("--out", type=Path, default=HERE / "bundled")
    ap.add_argument("--pythons", default=",".join(PYTHONS), help="CPython versions to bundle for")
    args = ap.parse_args()
    pythons = [p.strip() for p in args.pythons.split(",") if p.strip()]

    with tempfile.TemporaryDirectory(prefix="skill-lsp-bundle-") as tmp_s:
        tmp = Path(tmp_s)
        wheel = args.wheel or build_wheel(tmp / "wheel")
        version = wheel.name.split("-")[1]
        staged = {}
        for py in pythons:
            dest = tmp / ("cp" + py.replace(".", ""))
            install(wheel, args.target, py, dest)
            staged[dest.name] = dest
        shutil.rmtree(args.out, ignore_errors=True)
        libs = args.out / "libs"
        (libs / "common").mkdir(parents=True)
        names = set.intersection(*(set(p.name for p in d.iterdir()) for d in staged.values()))
        for name in sorted(names):
            hashes = {tree_hash(d / name) for d in staged.values()}
            if len(hashes) == 1:
                shutil.move(str(next(iter(staged.values())) / name), libs / "common" / name)
                for d in staged.values():
                    if (d / name).exists():
                        shutil.rmtree(d / name) if (d / name).is_dir() else (d / name).unlink()
        for tag, d in staged.items():
            shutil.move(str(d), libs / tag)
    manifest = {
        "skillLsp": version,
        "target": args.target,
        "platforms": TARGETS[args.target],
        "pythons": ["cp" + p.replace(".", "") for p in pythons],
        "minPython": pythons[0],
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file())
    print(f"bundled skill-lsp {version} for {args.target}, CPython {', '.join(pythons)}: {size / 1e6:.1f} MB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
