"""The platform .vsix files scripts/release.py builds, and the check that reads them.

The first tests feed scripts/check_vsix.py small hand-made packages, each wrong in
one way, so the check itself is shown to fail when it should. The others read the
real release artifacts: `.ci/run` builds them (`python scripts/release.py`) and
sets SKILL_LSP_RELEASE_DIR; elsewhere they are read from dist/release when a
developer built them, and skipped otherwise. Last, the linux-x64 package's server
is run, from the unpacked .vsix, by every CPython 3.10-3.14 this machine has.
"""

from __future__ import annotations

import ast
import json
import os
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import check_vsix  # noqa: E402
import release  # noqa: E402

VERSION = next(
    ast.literal_eval(n.value) for n in ast.parse((ROOT / "src/skill_lsp/__init__.py").read_text()).body
    if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__version__"
)
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
RELEASE_DIR = Path(os.environ.get("SKILL_LSP_RELEASE_DIR") or ROOT / "dist" / "release")
REQUIRED = list(release.REQUIRED_PYTHONS)


# --- hand-made packages ----------------------------------------------------------------

def elf(machine: int) -> bytes:
    head = bytearray(64)
    head[:4] = b"\x7fELF"
    head[4], head[5] = 2, 1  # 64-bit, little-endian
    struct.pack_into("<H", head, 18, machine)
    return bytes(head)


def pe(machine: int) -> bytes:
    head = bytearray(0x100)
    head[:2] = b"MZ"
    struct.pack_into("<I", head, 0x3C, 0x80)
    head[0x80:0x84] = b"PE\0\0"
    struct.pack_into("<H", head, 0x84, machine)
    return bytes(head)


def macho(cpu: int) -> bytes:
    return b"\xcf\xfa\xed\xfe" + struct.pack("<i", cpu) + bytes(24)


def dist_info(folder: str, name: str, version: str, tag: str, requires: tuple[str, ...] = ()) -> dict[str, bytes]:
    base = f"extension/bundled/libs/{folder}/{name.replace('-', '_')}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
    return {f"{base}/WHEEL": f"Wheel-Version: 1.0\nTag: {tag}\n".encode(), f"{base}/METADATA": (meta + "\n").encode()}


def package(tmp: Path, target: str, pythons: list[str], files: dict[str, bytes], packaged_as: str | None = None) -> Path:
    """A .vsix laid out as vsce and bundle-server.py lay it out."""
    path = tmp / f"skill-lsp-{target}-{VERSION}.vsix"
    tags = ["cp" + p.replace(".", "") for p in pythons]
    manifest = {"skillLsp": VERSION, "target": target, "pythons": tags, "minPython": pythons[0]}
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("extension.vsixmanifest",
                    f'<Identity Language="en-US" Id="skill-lsp" Version="{VERSION}" Publisher="skill-lsp" '
                    f'TargetPlatform="{packaged_as or target}"/>')
        zf.writestr("extension/package.json", json.dumps({"name": "skill-lsp", "version": VERSION}))
        zf.writestr("extension/dist/extension.js", "")
        zf.writestr("extension/bundled/manifest.json", json.dumps(manifest))
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def good_linux_x64(pythons: list[str]) -> dict[str, bytes]:
    files = dist_info("common", "skill-lsp", VERSION, "py3-none-any",
                      ("rapidfuzz>=3", "tomli>=2; python_version < '3.11'", "ruff; extra == 'test'"))
    for py in pythons:
        tag = "cp" + py.replace(".", "")
        files |= dist_info(tag, "rapidfuzz", "3.14.6", f"{tag}-{tag}-manylinux_2_28_x86_64")
        files[f"extension/bundled/libs/{tag}/rapidfuzz/fuzz_cpp.cpython-{tag[2:]}-x86_64-linux-gnu.so"] = elf(62)
        if py == "3.10":
            files |= dist_info(tag, "tomli", "2.5.0", "py3-none-any")
    return files


def problems(path: Path) -> list[str]:
    return check_vsix.check(path, REQUIRED).problems


def test_a_complete_package_passes(tmp_path: Path) -> None:
    assert problems(package(tmp_path, "linux-x64", REQUIRED, good_linux_x64(REQUIRED))) == []


def test_another_platforms_wheel_is_caught(tmp_path: Path) -> None:
    files = good_linux_x64(REQUIRED) | dist_info("cp312", "rapidfuzz", "3.14.6", "cp312-cp312-win_amd64")
    found = problems(package(tmp_path, "linux-x64", REQUIRED, files))
    assert any("3.12" in p and "win_amd64" in p and "not for this platform" in p for p in found), found


def test_another_pythons_wheel_is_caught(tmp_path: Path) -> None:
    files = good_linux_x64(REQUIRED) | dist_info("cp313", "rapidfuzz", "3.14.6", "cp312-cp312-manylinux_2_28_x86_64")
    found = problems(package(tmp_path, "linux-x64", REQUIRED, files))
    assert any("3.13" in p and "another CPython" in p for p in found), found


def test_a_binary_for_another_cpu_is_caught(tmp_path: Path) -> None:
    files = good_linux_x64(REQUIRED)
    files["extension/bundled/libs/cp311/rapidfuzz/fuzz_cpp.cpython-311-x86_64-linux-gnu.so"] = elf(183)  # aarch64
    found = problems(package(tmp_path, "linux-x64", REQUIRED, files))
    assert any("fuzz_cpp.cpython-311" in p and "ELF for machine 183" in p for p in found), found
    win = {"extension/bundled/libs/cp312/x/m.cp312-win_amd64.pyd": pe(0xAA64)}
    found = problems(package(tmp_path, "win32-x64", ["3.12"], win))
    assert any("PE for machine 0xaa64" in p for p in found), found
    mac = {"extension/bundled/libs/cp312/x/m.cpython-312-darwin.so": macho(check_vsix.MACHO_X86_64)}
    assert any("Mach-O for CPU type" in p for p in problems(package(tmp_path, "darwin-arm64", ["3.12"], mac)))


def test_a_requirement_left_out_for_one_python_is_caught(tmp_path: Path) -> None:
    # pip evaluates markers for the Python it runs in: a 3.10 bundle built by 3.11 lacked tomli.
    files = {k: v for k, v in good_linux_x64(REQUIRED).items() if "/tomli" not in k}
    found = problems(package(tmp_path, "linux-x64", REQUIRED, files))
    assert found == ["CPython 3.10: skill-lsp needs tomli, which is not bundled"], found


def test_a_version_a_requirement_refuses_is_caught(tmp_path: Path) -> None:
    files = good_linux_x64(REQUIRED) | dist_info("cp311", "rapidfuzz", "2.15.0", "cp311-cp311-manylinux_2_28_x86_64")
    found = problems(package(tmp_path, "linux-x64", REQUIRED, files))
    assert found == ["CPython 3.11: skill-lsp needs rapidfuzz>=3, the bundle has 2.15.0"], found


def test_a_missing_python_and_a_wrong_label_are_caught(tmp_path: Path) -> None:
    pythons = ["3.11", "3.12", "3.13"]
    found = problems(package(tmp_path, "linux-x64", pythons, good_linux_x64(pythons), packaged_as="darwin-x64"))
    assert "no server for CPython 3.10 (bundle has 3.11, 3.12, 3.13)" in found
    assert "bundled for 'linux-x64' but packaged for 'darwin-x64'" in found


def test_a_package_without_compiled_modules_is_caught(tmp_path: Path) -> None:
    files = {k: v for k, v in good_linux_x64(REQUIRED).items() if not k.endswith(".so")}
    assert "no compiled module at all: the native dependencies are missing" in problems(
        package(tmp_path, "linux-x64", REQUIRED, files))


def test_the_platform_tables_agree() -> None:
    """bundle-server.py's pip tags and check_vsix.py's accepted tags describe the same targets."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bundle_server", ROOT / "editors/vscode/scripts/bundle-server.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert set(mod.TARGETS) == set(check_vsix.PLATFORMS)
    import re

    for target, tags in mod.TARGETS.items():
        for tag in tags:
            assert re.fullmatch(check_vsix.PLATFORMS[target].wheel_tag, tag), (target, tag)
    assert set(release.TARGETS) <= set(mod.TARGETS)
    assert release.REQUIRED_PYTHONS == mod.PYTHONS[: len(release.REQUIRED_PYTHONS)]


# --- the real artifacts ----------------------------------------------------------------

def release_file(name: str) -> Path:
    path = RELEASE_DIR / name
    if not path.is_file():
        if CI or os.environ.get("SKILL_LSP_RELEASE_DIR"):
            pytest.fail(f"{path} is missing: .ci/run builds it with `python scripts/release.py`", pytrace=False)
        pytest.skip(f"no {path}: build the release first (python scripts/release.py)")
    return path


@pytest.mark.parametrize("target", release.TARGETS)
def test_each_platform_package_holds_its_platforms_wheels(target: str) -> None:
    rep = check_vsix.check(release_file(f"skill-lsp-{target}-{VERSION}.vsix"), REQUIRED)
    print(check_vsix.summary(rep))
    assert rep.problems == []
    assert rep.target == target
    # Every Python: the compiled dependencies, each a wheel for this platform (pyromark from
    # 3.11: the releases skill-lsp needs have no 3.10 wheels, markdown-it-py parses there).
    for py in REQUIRED:
        natives = {n.split()[0] for n in rep.native["cp" + py.replace(".", "")]}
        assert natives >= {"pyyaml", "rapidfuzz"} | ({"pyromark"} if py != "3.10" else set()), (py, natives)


def test_the_universal_package_carries_no_server_and_the_sums_match() -> None:
    universal = release_file(f"skill-lsp-{VERSION}.vsix")
    with zipfile.ZipFile(universal) as zf:
        assert not [n for n in zf.namelist() if n.startswith("extension/bundled/")]
        assert "TargetPlatform" not in zf.read("extension.vsixmanifest").decode()
    import hashlib

    sums = release_file("SHA256SUMS").read_text().splitlines()
    names = {line.split("  ", 1)[1] for line in sums}
    # All five in CI; a developer may have built fewer (release.py --targets).
    built = [t for t in release.TARGETS if CI or (RELEASE_DIR / f"skill-lsp-{t}-{VERSION}.vsix").is_file()]
    assert names == {f"pypi/skill_lsp-{VERSION}.tar.gz", f"pypi/skill_lsp-{VERSION}-py3-none-any.whl",
                     f"skill-lsp-{VERSION}.vsix", *(f"skill-lsp-{t}-{VERSION}.vsix" for t in built)}
    for line in sums:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((RELEASE_DIR / name).read_bytes()).hexdigest() == digest, name


def local_pythons() -> dict[str, str]:
    """CPython 3.10-3.14 interpreters on this machine: version -> executable."""
    found = {f"{sys.version_info.major}.{sys.version_info.minor}": sys.executable}
    candidates = [Path.home() / ".pyenv" / "versions"]
    for base in candidates:
        for exe in sorted(base.glob("3.1[0-4].*/bin/python3")):
            found.setdefault(".".join(exe.parts[-3].split(".")[:2]), str(exe))
    for minor in range(10, 15):
        for d in os.environ.get("PATH", "").split(os.pathsep):
            exe = Path(d) / f"python3.{minor}"
            if exe.is_file() and os.access(exe, os.X_OK):
                found.setdefault(f"3.{minor}", str(exe))
    return found


def test_the_linux_x64_server_runs_on_every_local_python(tmp_path: Path) -> None:
    vsix = release_file(f"skill-lsp-linux-x64-{VERSION}.vsix")
    with zipfile.ZipFile(vsix) as zf:
        zf.extractall(tmp_path)
    libs = tmp_path / "extension" / "bundled" / "libs"
    # What the extension runs (BUNDLE_BOOT in editors/vscode/src/lib.ts), with `check` for `serve`.
    boot = ("import sys; sys.path[0:0] = sys.argv[1:3]; del sys.argv[1:3]; "
            "from skill_lsp.cli import main; sys.exit(main(sys.argv[1:]))")
    ran = []
    for version, exe in sorted(local_pythons().items()):
        tag = "cp" + version.replace(".", "")
        if not (libs / tag).is_dir():
            continue
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        proc = subprocess.run([exe, "-I", "-c", boot, str(libs / tag), str(libs / "common"),
                               "check", str(ROOT / "sample-workspace")],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
        assert proc.returncode == 1 and "NAME_MISMATCH" in proc.stdout, (version, exe, proc.stderr[-3000:])
        # The compiled modules are the bundle's, not the machine's.
        probe = ("import sys; sys.path[0:0] = sys.argv[1:3]; import skill_lsp, yaml._yaml, rapidfuzz.fuzz_cpp; "
                 "print(skill_lsp.__file__, yaml._yaml.__file__, rapidfuzz.fuzz_cpp.__file__)")
        where = subprocess.run([exe, "-I", "-c", probe, str(libs / tag), str(libs / "common")],
                               capture_output=True, text=True, timeout=60, env=env)
        assert where.returncode == 0 and all(f.startswith(str(libs)) for f in where.stdout.split()), (
            version, where.stdout, where.stderr)
        ran.append(version)
    print(f"the bundled server ran on CPython {', '.join(ran)}")
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in ran


def test_the_release_workflow_publishes_what_release_py_builds() -> None:
    """The workflow runs the same script, and its globs name exactly the files it writes."""
    import fnmatch

    from ruamel.yaml import YAML

    flow = YAML(typ="safe").load(ROOT / ".github" / "workflows" / "release.yml")
    assert flow["on"]["push"]["tags"] == ["v*"]
    build = "\n".join(s.get("run", "") for s in flow["jobs"]["build"]["steps"])
    assert 'python scripts/release.py --out dist/release ${TAG:+--tag "$TAG"}' in build
    pypi = flow["jobs"]["pypi"]
    assert pypi["permissions"] == {"id-token": "write"}
    publish = next(s for s in pypi["steps"] if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@"))
    assert publish["with"]["packages-dir"] == "dist/release/pypi/"
    ext = "\n".join(s.get("run", "") for s in flow["jobs"]["extension"]["steps"])
    names = [f"skill-lsp-{t}-{VERSION}.vsix" for t in release.TARGETS] + [f"skill-lsp-{VERSION}.vsix"]
    for pattern in ("skill-lsp-*-*.vsix", "skill-lsp-[0-9]*.vsix"):
        assert f"dist/release/{pattern}" in ext
    platform = fnmatch.filter(names, "skill-lsp-*-*.vsix")
    universal = fnmatch.filter(names, "skill-lsp-[0-9]*.vsix")
    assert sorted(platform + universal) == sorted(names) and not set(platform) & set(universal)
    assert "secrets.VSCE_PAT" in str(flow["jobs"]["extension"]) and "secrets.OVSX_PAT" in str(flow["jobs"]["extension"])


def test_a_tagged_build_refuses_docs_that_say_unreleased() -> None:
    """Each sentence release.py looks for is in the docs now, and --tag stops on it before building."""
    for path, phrase in release.UNRELEASED_WORDING:
        assert phrase in (ROOT / path).read_text(encoding="utf-8"), (path, phrase)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "release.py"), "--tag", f"v{VERSION}",
                           "--out", "/nonexistent/never-written"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "the docs still say skill-lsp is unreleased" in proc.stderr, proc.stderr
    assert not Path("/nonexistent/never-written").exists()
    wrong = subprocess.run([sys.executable, str(ROOT / "scripts" / "release.py"), "--tag", "v9.9.9"],
                           capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 1 and f"does not match version {VERSION}" in wrong.stderr, wrong.stderr


def test_release_never_empties_a_folder_it_did_not_write(tmp_path: Path) -> None:
    keep = tmp_path / "notes.txt"
    keep.write_text("mine")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "release.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "holds other files (notes.txt)" in proc.stderr, proc.stderr
    assert keep.read_text() == "mine"
