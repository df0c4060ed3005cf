#!/usr/bin/env python3
"""Vendor skill-lsp and its dependencies into bundled/ for a platform .vsix.

    python3 scripts/bundle-server.py --target linux-x64 [--wheel skill_lsp-X-py3-none-any.whl]

For each supported CPython (3.10-3.14) it installs the skill-lsp wheel, then
what it requires, then what those require, each with `pip install --target
--no-deps --only-binary=:all:`, the target's platform tags and that
--python-version, evaluating the requirements' markers for that Python on that
platform itself (pip would use the Python running it). So the compiled
dependencies (PyYAML, rapidfuzz, pyromark from 3.11) are that platform's
wheels for that interpreter. With --wheel-cache DIR the wheels come from DIR
first (`--no-index --find-links DIR`); only what DIR lacks is fetched from the
index (`pip download` into DIR), so a second build is offline and reuses the
versions already there (empty the cache to pick up newer releases). Top-level
entries that come out byte-identical for every version (pygls, lsprotocol,
skill_lsp, ...) are moved to bundled/libs/common; the rest stay in
bundled/libs/cp3XX. bundled/manifest.json tells the extension what is there.
Without --wheel the wheel is built from the repository (pip wheel --no-deps).

Other targets: the same command with --target linux-arm64, alpine-x64,
darwin-x64, darwin-arm64, win32-x64 or win32-arm64 (see TARGETS), then
`vsce package --target <target>`; scripts/release.py at the repository root
does that for every released target.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # editors/vscode
ROOT = HERE.parents[1]
# scripts/check_vsix.py: the platforms' marker environments (and the check of the result).
sys.path.insert(0, str(ROOT / "scripts"))
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
# vsce target -> pip --platform tags (newest first; pip takes any of them).
TARGETS: dict[str, list[str]] = {
    "linux-x64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux-arm64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "alpine-x64": ["musllinux_1_2_x86_64", "musllinux_1_1_x86_64"],
    # pip widens a macOS tag to every older release and to universal2 wheels; 11.0 is the
    # oldest macOS that VS Code still runs on, so wheels built for 10.13-11.0 all qualify.
    "darwin-x64": ["macosx_11_0_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64"],
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


def pip_platform_args(target: str, python: str) -> list[str]:
    tag = "cp" + python.replace(".", "")
    args = ["--only-binary=:all:", "--implementation", "cp", "--python-version", python,
            "--abi", tag, "--abi", "abi3", "--abi", "none"]
    for plat in TARGETS[target]:
        args += ["--platform", plat]
    return args


DOWNLOAD_LOCK = threading.Lock()


def pip(*args: str, quiet_failure: bool = False) -> bool:
    # -qq: errors only (a machine's pip.conf may add an index that warns on every package).
    cmd = [sys.executable, "-m", "pip", "-qq", "--disable-pip-version-check", *args]
    proc = subprocess.run(cmd, capture_output=quiet_failure, text=True)
    return proc.returncode == 0


def pip_install(reqs: list[str], target: str, python: str, dest: Path, cache: Path | None, *extra: str) -> None:
    """`pip install --target dest` with TARGET's wheels for PYTHON: from the cache when it can."""
    plat = pip_platform_args(target, python)
    base = ["install", "--no-compile", "--target", str(dest), *plat, *extra]
    what = f"{' '.join(Path(r).name for r in reqs)} for {target} / CPython {python}"
    if cache is None:
        if not pip(*base, *reqs):
            raise SystemExit(f"pip could not install {what}")
        return
    offline = [*base, "--no-index", "--find-links", str(cache), *reqs]
    if pip(*offline, quiet_failure=True):
        return
    # Not all in the cache yet: fetch what this target and Python need, then install offline.
    # One download at a time: the installs run in parallel and share the cache.
    with DOWNLOAD_LOCK:
        cache.mkdir(parents=True, exist_ok=True)
        if not pip("download", "--dest", str(cache), *plat, *extra, *reqs):
            raise SystemExit(f"pip could not download {what}")
        for own in cache.glob("skill_lsp-*"):  # built per commit under one version: never cache it
            own.unlink()
    if not pip(*offline):
        raise SystemExit(f"pip could not install {what} from {cache}")


def unmet_requirements(dest: Path, target: str, python: str) -> list[str]:
    """Requires-Dist of what is in DEST that apply to PYTHON on TARGET but are not installed.

    pip evaluates environment markers for the interpreter it runs in, not for
    --python-version / --platform: run by 3.11 it leaves `tomli; python_version <
    "3.11"` out of a 3.10 bundle and asks for `pyromark>=0.10; python_version >=
    "3.11"`, which has no 3.10 wheel. So everything is installed with --no-deps
    and the requirements are followed here, markers evaluated for the target.
    """
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    from check_vsix import PLATFORMS, marker_env

    env = marker_env(PLATFORMS[target], python)
    have: dict[str, str] = {}
    wanted: list[Requirement] = []
    for meta in dest.glob("*.dist-info/METADATA"):
        head = meta.read_text(encoding="utf-8", errors="replace").split("\n\n", 1)[0]
        fields = [line.partition(":")[::2] for line in head.splitlines()]
        have[canonicalize_name(next(v.strip() for k, v in fields if k == "Name"))] = next(
            v.strip() for k, v in fields if k == "Version")
        wanted += [Requirement(v.strip()) for k, v in fields if k == "Requires-Dist"]
    missing = set()
    for r in wanted:
        if r.marker is not None and not Marker(str(r.marker)).evaluate(env):
            continue
        name = canonicalize_name(r.name)
        if name not in have:
            missing.add(f"{r.name}{r.specifier}")
        elif not r.specifier.contains(have[name], prereleases=True):
            raise SystemExit(f"{target} / CPython {python}: {name} {have[name]} does not satisfy {r}")
    return sorted(missing)


def install(wheel: Path, target: str, python: str, dest: Path, cache: Path | None = None) -> None:
    pip_install([str(wheel)], target, python, dest, cache, "--no-deps")
    for _ in range(20):
        missing = unmet_requirements(dest, target, python)
        if not missing:
            break
        pip_install(missing, target, python, dest, cache, "--no-deps")
    else:
        raise SystemExit(f"{target} / CPython {python}: requirements still unmet: {missing}")
    for junk in [dest / "bin", *dest.rglob("__pycache__")]:
        shutil.rmtree(junk, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True, choices=sorted(TARGETS))
    ap.add_argument("--wheel", type=Path, help="the skill-lsp wheel (default: built from the repository)")
    ap.add_argument("--out", type=Path, default=HERE / "bundled")
    ap.add_argument("--pythons", default=",".join(PYTHONS), help="CPython versions to bundle for")
    ap.add_argument("--wheel-cache", type=Path, help="folder of downloaded wheels, read first and filled from the index")
    args = ap.parse_args()
    pythons = [p.strip() for p in args.pythons.split(",") if p.strip()]

    with tempfile.TemporaryDirectory(prefix="skill-lsp-bundle-") as tmp_s:
        tmp = Path(tmp_s)
        wheel = args.wheel or build_wheel(tmp / "wheel")
        version = wheel.name.split("-")[1]
        staged = {"cp" + py.replace(".", ""): tmp / ("cp" + py.replace(".", "")) for py in pythons}
        # pip mostly waits (index, disk): three at a time took 17 s instead of 22 s here (darwin-arm64).
        with ThreadPoolExecutor(max_workers=3) as pool:
            for job in [pool.submit(install, wheel, args.target, py, staged["cp" + py.replace(".", "")],
                                    args.wheel_cache) for py in pythons]:
                job.result()
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
