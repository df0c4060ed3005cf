#!/usr/bin/env python3
"""Build everything a release publishes, and check it.

    python scripts/release.py [--out dist/release] [--tag vX.Y.Z] [--targets linux-x64,...]

1. the Python sdist and wheel (scripts/check-dist.sh: `python -m build`,
   `twine check --strict`, the wheel installed in a clean venv lints the sample
   workspace) into OUT/pypi/;
2. the VS Code extension (editors/vscode: `npm ci` when its lock file changed,
   esbuild) and one .vsix per platform, OUT/skill-lsp-TARGET-X.Y.Z.vsix, each
   bundling the server and its dependencies' wheels for that platform and every
   CPython the extension supports (editors/vscode/scripts/bundle-server.py), then
   the universal OUT/skill-lsp-X.Y.Z.vsix (no server inside) for the platforms
   without a package of their own;
3. scripts/check_vsix.py on every platform .vsix (wheel tags, binaries' CPU,
   Requires-Dist per Python), and OUT/SHA256SUMS.

The wheels pip downloads for the bundles are kept in $SKILL_LSP_CACHE/wheels
(default ~/.cache/skill-lsp/wheels), outside the clone, and read first on the
next build (--refresh: fetch from the index again). --tag fails the build when
the tag is not v + the version of both the package and the extension. Needs
Python >= 3.10 with build, twine and packaging, Node.js >= 20 and npm.
The release workflow (.github/workflows/release.yml) runs this on a tag.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "editors" / "vscode"
sys.path.insert(0, str(ROOT / "scripts"))
import check_vsix  # noqa: E402

TARGETS = ("linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64")
# Every CPython the package supports (pyproject classifiers) must be in every bundle.
REQUIRED_PYTHONS = ("3.10", "3.11", "3.12", "3.13")
VSCE_SAYS = ("DONE", "WARNING", "ERROR")
# Sentences true only until the first release; a tagged build refuses to ship them.
UNRELEASED_WORDING = (
    ("README.md", "has not been released yet"),
    ("editors/vscode/README.md", "once skill-lsp has had its first release"),
    ("docs/ci.md", "Before the first release"),
)  # vsce package also lists every file: not those


def python_version() -> str:
    tree = ast.parse((ROOT / "src" / "skill_lsp" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__version__":
            return str(ast.literal_eval(node.value))
    raise SystemExit("no __version__ in src/skill_lsp/__init__.py")


def run(cmd: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None, keep: tuple[str, ...] = ()) -> None:
    """Run CMD; with KEEP, print only the output lines that contain one of those words (all on failure)."""
    print("+", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE if keep else None, stderr=subprocess.STDOUT if keep else None)
    if keep:
        lines = proc.stdout.splitlines()
        print("\n".join(line for line in lines if proc.returncode or any(k in line for k in keep)), flush=True)
    if proc.returncode:
        raise SystemExit(f"release: `{' '.join(cmd)}` exited {proc.returncode}")


def npm_ci() -> None:
    """`npm ci` in editors/vscode unless node_modules matches package-lock.json (scripts/e2e.sh's stamp)."""
    stamp = EXT / "node_modules" / ".e2e-stamp"
    lock = EXT / "package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=EXT)
    stamp.touch()


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "dist" / "release")
    ap.add_argument("--tag", help="the git tag being released (must be v + the version)")
    ap.add_argument("--targets", default=",".join(TARGETS), help="platform .vsix files to build")
    ap.add_argument("--refresh", action="store_true", help="download the bundles' wheels again (ignore the cache)")
    args = ap.parse_args(argv)
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    unknown = [t for t in targets if t not in check_vsix.PLATFORMS]
    if unknown:
        raise SystemExit(f"release: unknown target(s) {unknown}; known: {', '.join(check_vsix.PLATFORMS)}")

    version = python_version()
    ext_version = json.loads((EXT / "package.json").read_text())["version"]
    if ext_version != version:
        raise SystemExit(f"release: skill-lsp is {version} but the extension (editors/vscode/package.json) is {ext_version}")
    if args.tag and args.tag != f"v{version}":
        raise SystemExit(f"release: tag {args.tag} does not match version {version} (expected v{version})")
    if args.tag:
        # What the docs say before the first release must not ship in it (the extension's
        # README is its Marketplace page).
        stale = [f"{path}: {phrase!r}" for path, phrase in UNRELEASED_WORDING
                 if phrase in (ROOT / path).read_text(encoding="utf-8")]
        if stale:
            raise SystemExit("release: the docs still say skill-lsp is unreleased:\n  " + "\n  ".join(stale))
    for mod in ("build", "twine", "packaging"):
        try:
            __import__(mod)
        except ImportError:
            raise SystemExit(f"release: `{mod}` is missing: pip install build twine packaging") from None
    cache_root = Path(os.environ.get("SKILL_LSP_CACHE") or Path.home() / ".cache" / "skill-lsp")
    wheel_cache = cache_root / "wheels"
    if args.refresh:
        shutil.rmtree(wheel_cache, ignore_errors=True)

    out = args.out.resolve()
    if out.exists():
        # Only ever replace a previous release build: never a folder holding anything else.
        foreign = [c.name for c in out.iterdir()
                   if not (c.name in ("pypi", "SHA256SUMS") or (c.name.startswith("skill-lsp-") and c.suffix == ".vsix"))]
        if foreign:
            raise SystemExit(f"release: {out} holds other files ({', '.join(sorted(foreign)[:5])}): give an empty --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    timings: list[tuple[str, float]] = []
    t0 = time.monotonic()

    def lap(what: str) -> None:
        nonlocal t0
        now = time.monotonic()
        timings.append((what, now - t0))
        print(f"release: {what} ({now - t0:.0f}s)", flush=True)
        t0 = now

    env = dict(os.environ, PYTHON=sys.executable)
    run(["bash", str(ROOT / "scripts" / "check-dist.sh"), str(out / "pypi")], env=env)
    wheel = out / "pypi" / f"skill_lsp-{version}-py3-none-any.whl"
    sdist = out / "pypi" / f"skill_lsp-{version}.tar.gz"
    lap("sdist + wheel built and checked")

    npm_ci()
    run(["node", "esbuild.mjs", "--production"], cwd=EXT)
    lap("extension built")

    vsce = str(EXT / "node_modules" / ".bin" / "vsce")
    bundled = EXT / "bundled"
    vsix_files = []
    try:
        for target in targets:
            run([sys.executable, str(EXT / "scripts" / "bundle-server.py"), "--target", target,
                 "--wheel", str(wheel), "--wheel-cache", str(wheel_cache), "--out", str(bundled)])
            vsix = out / f"skill-lsp-{target}-{version}.vsix"
            run([vsce, "package", "--no-dependencies", "--target", target, "-o", str(vsix)], cwd=EXT, keep=VSCE_SAYS)
            vsix_files.append((target, vsix))
            lap(f"{vsix.name}")
    finally:
        shutil.rmtree(bundled, ignore_errors=True)  # keep the universal package (and `npm run package`) free of it
    universal = out / f"skill-lsp-{version}.vsix"
    run([vsce, "package", "--no-dependencies", "-o", str(universal)], cwd=EXT, keep=VSCE_SAYS)
    lap(f"{universal.name} (universal, no server inside)")

    failed = False
    for target, vsix in vsix_files:
        rep = check_vsix.check(vsix, list(REQUIRED_PYTHONS))
        if rep.target != target:
            rep.problems.append(f"built for {target} but packaged as {rep.target}")
        print(check_vsix.summary(rep))
        for p in rep.problems:
            print(f"  PROBLEM {p}")
        failed |= bool(rep.problems)
    if failed:
        raise SystemExit("release: a platform .vsix does not hold what its platform needs (see PROBLEM lines)")
    lap("platform packages checked")

    artifacts = [sdist, wheel, *(v for _, v in vsix_files), universal]
    (out / "SHA256SUMS").write_text("".join(f"{sha256(a)}  {a.relative_to(out)}\n" for a in artifacts))
    print("\nrelease artifacts:")
    for a in artifacts:
        print(f"  {a.stat().st_size / 1e6:7.1f} MB  {a.relative_to(out)}")
    print(f"release: {version} built in {sum(t for _, t in timings):.0f}s into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
