#!/usr/bin/env python3
"""Check that a platform .vsix carries a server that can run on its platform.

    python scripts/check_vsix.py dist/release/skill-lsp-*-X.Y.Z.vsix [--require-pythons 3.10,3.11,3.12,3.13]

For each .vsix (a zip) it reads the target from extension.vsixmanifest and
extension/bundled/manifest.json, then, for every CPython the bundle names
(libs/cp3XY together with libs/common, as the extension puts them on sys.path):

- every installed distribution's wheel tags (its *.dist-info/WHEEL) fit that
  interpreter (py3-none-any, cp3XY-cp3XY-*, or abi3 from an older cp3N) and,
  when compiled, the target's platform (manylinux x86_64 for linux-x64, ...);
- every compiled file (.so, .pyd, .dll, .dylib) is a binary for the target's
  OS and CPU (ELF machine, Mach-O CPU type, PE machine), and its file-name ABI
  tag, if any, is that interpreter's;
- every Requires-Dist of every distribution (markers evaluated for that Python
  on that platform, extras ignored) is installed in a version it accepts: the
  offline `pip check`.

Exit 0 when every file passes, 1 with one line per problem otherwise.
`--summary` prints what each bundle holds (sizes, native wheels per Python).
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name


@dataclass(frozen=True)
class Platform:
    os: str  # sys_platform
    machine: str  # platform_machine as that OS reports it
    wheel_tag: str  # regex a compiled wheel's platform tag must match
    binary: str  # "elf" | "macho" | "pe"
    cpu: frozenset[int]  # accepted ELF e_machine / Mach-O cputype / PE machine values


ELF_X86_64, ELF_AARCH64 = 62, 183
MACHO_X86_64, MACHO_ARM64 = 0x01000007, 0x0100000C
PE_AMD64, PE_ARM64 = 0x8664, 0xAA64

# vsce --target -> what runs there. Must agree with TARGETS in editors/vscode/scripts/bundle-server.py.
PLATFORMS: dict[str, Platform] = {
    "linux-x64": Platform("linux", "x86_64", r"manylinux(1|2010|2014|_\d+_\d+)_x86_64", "elf", frozenset({ELF_X86_64})),
    "linux-arm64": Platform("linux", "aarch64", r"manylinux(2014|_\d+_\d+)_aarch64", "elf", frozenset({ELF_AARCH64})),
    "alpine-x64": Platform("linux", "x86_64", r"musllinux_\d+_\d+_x86_64", "elf", frozenset({ELF_X86_64})),
    "darwin-x64": Platform("darwin", "x86_64", r"macosx_\d+_\d+_(x86_64|universal2|intel)", "macho",
                           frozenset({MACHO_X86_64})),
    "darwin-arm64": Platform("darwin", "arm64", r"macosx_\d+_\d+_(arm64|universal2)", "macho",
                             frozenset({MACHO_ARM64})),
    "win32-x64": Platform("win32", "AMD64", r"win_amd64", "pe", frozenset({PE_AMD64})),
    "win32-arm64": Platform("win32", "ARM64", r"win_arm64", "pe", frozenset({PE_ARM64})),
}
NATIVE_SUFFIXES = (".so", ".pyd", ".dll", ".dylib")


@dataclass
class Dist:
    name: str  # canonical
    version: str
    tags: list[str]
    requires: list[str]
    where: str  # libs/<folder>


@dataclass
class Report:
    path: Path
    target: str = "?"
    version: str = "?"
    pythons: list[str] = field(default_factory=list)
    native: dict[str, list[str]] = field(default_factory=dict)  # cp3XY -> ["rapidfuzz 3.14.6 cp312-cp312-win_amd64", ...]
    binaries: int = 0
    problems: list[str] = field(default_factory=list)


def marker_env(plat: Platform, python: str) -> dict[str, str]:
    return {
        "python_version": python,
        "python_full_version": python + ".0",
        "implementation_name": "cpython",
        "implementation_version": python + ".0",
        "platform_python_implementation": "CPython",
        "sys_platform": plat.os,
        "platform_system": {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}[plat.os],
        "os_name": "nt" if plat.os == "win32" else "posix",
        "platform_machine": plat.machine,
        "platform_release": "",
        "platform_version": "",
        "extra": "",
    }


def tag_fits(tag: str, python: str, plat: Platform) -> str | None:
    """Why a wheel tag (interp-abi-platform) cannot run on CPython `python` on `plat`, or None."""
    try:
        interp, abi, platform = tag.split("-")
    except ValueError:
        return f"malformed wheel tag {tag!r}"
    minor = int(python.split(".")[1])
    if platform == "any":
        if abi != "none" or not re.fullmatch(r"py3\d*|cp3\d+", interp):
            return f"wheel tag {tag} is not for CPython {python}"
        return None
    if not re.fullmatch(plat.wheel_tag, platform):
        return f"wheel tag {tag} is not for this platform ({plat.wheel_tag})"
    m = re.fullmatch(r"cp3(\d+)", interp)
    if not m:
        return f"wheel tag {tag} is not a CPython 3 wheel"
    if abi == "abi3":
        return None if int(m.group(1)) <= minor else f"wheel tag {tag} needs a newer CPython than {python}"
    if abi != interp or int(m.group(1)) != minor:
        return f"wheel tag {tag} is for another CPython than {python}"
    return None


def binary_problem(data: bytes, plat: Platform) -> str | None:
    """Why these bytes are not a binary for `plat`'s OS and CPU, or None."""
    if plat.binary == "elf":
        if data[:4] != b"\x7fELF" or len(data) < 20:
            return "not an ELF file"
        endian = "<" if data[5] == 1 else ">"
        (machine,) = struct.unpack_from(endian + "H", data, 18)
        return None if machine in plat.cpu else f"ELF for machine {machine}"
    if plat.binary == "macho":
        magic = data[:4]
        if magic in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe"):  # thin, little-endian
            (cpu,) = struct.unpack_from("<i", data, 4)
            return None if cpu in plat.cpu else f"Mach-O for CPU type {cpu:#x}"
        if magic in (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf"):  # fat (universal2): any slice fits
            (count,) = struct.unpack_from(">I", data, 4)
            step = 20 if magic == b"\xca\xfe\xba\xbe" else 32
            cpus = {struct.unpack_from(">i", data, 8 + i * step)[0] for i in range(min(count, 16))}
            return None if cpus & plat.cpu else f"universal Mach-O without this CPU (has {sorted(hex(c) for c in cpus)})"
        return "not a Mach-O file"
    if data[:2] != b"MZ" or len(data) < 0x40:
        return "not a PE file"
    (pe,) = struct.unpack_from("<I", data, 0x3C)
    if data[pe:pe + 4] != b"PE\0\0":
        return "not a PE file"
    (machine,) = struct.unpack_from("<H", data, pe + 4)
    return None if machine in plat.cpu else f"PE for machine {machine:#x}"


def abi_tag_problem(name: str, python: str) -> str | None:
    """A compiled module named for another interpreter (`x.cpython-311-...so` in the 3.12 folder)."""
    m = re.search(r"\.(?:cpython-|cp)3(\d+)", name)
    if m and int(m.group(1)) != int(python.split(".")[1]):
        return f"compiled for CPython 3.{m.group(1)}"
    return None


def _dists(files: dict[str, bytes], folder: str) -> list[Dist]:
    out = []
    prefix = f"extension/bundled/libs/{folder}/"
    for path in files:
        p = PurePosixPath(path)
        if not path.startswith(prefix) or p.name != "WHEEL" or not p.parent.name.endswith(".dist-info"):
            continue
        wheel = files[path].decode("utf-8", "replace")
        meta = files.get(str(p.parent / "METADATA"), b"").decode("utf-8", "replace")
        head = meta.split("\n\n", 1)[0]
        fields = [line.split(":", 1) for line in head.splitlines() if ":" in line]
        name = next((v.strip() for k, v in fields if k == "Name"), p.parent.name.split("-")[0])
        version = next((v.strip() for k, v in fields if k == "Version"), "?")
        tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
        requires = [v.strip() for k, v in fields if k == "Requires-Dist"]
        out.append(Dist(canonicalize_name(name), version, tags, requires, f"libs/{folder}"))
    return out


def check(path: Path, require_pythons: list[str] | None = None) -> Report:
    rep = Report(path)
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as e:
        rep.problems.append(f"cannot open: {e}")
        return rep
    with zf:
        names = zf.namelist()
        wanted = [n for n in names if n.startswith("extension/bundled/") and (
            n.endswith(("/WHEEL", "/METADATA", "manifest.json")) or n.endswith(NATIVE_SUFFIXES) or ".so." in n)]
        files = {n: zf.read(n) for n in wanted}
        vsixmanifest = zf.read("extension.vsixmanifest").decode() if "extension.vsixmanifest" in names else ""
        package = json.loads(zf.read("extension/package.json")) if "extension/package.json" in names else {}
        has_main = "extension/dist/extension.js" in names
    m = re.search(r'TargetPlatform="([^"]+)"', vsixmanifest)
    rep.target = m.group(1) if m else "universal"
    rep.version = str(package.get("version", "?"))
    if not has_main:
        rep.problems.append("no extension/dist/extension.js")
    raw = files.get("extension/bundled/manifest.json")
    if raw is None:
        rep.problems.append(f"no bundled server (extension/bundled/manifest.json) in a {rep.target} package")
        return rep
    manifest = json.loads(raw)
    if manifest.get("target") != rep.target:
        rep.problems.append(f"bundled for {manifest.get('target')!r} but packaged for {rep.target!r}")
    if manifest.get("skillLsp") != rep.version:
        rep.problems.append(f"bundles skill-lsp {manifest.get('skillLsp')} in extension {rep.version}")
    plat = PLATFORMS.get(rep.target)
    if plat is None:
        rep.problems.append(f"unknown target {rep.target!r}")
        return rep
    tags = [t for t in manifest.get("pythons", []) if re.fullmatch(r"cp3\d+", t)]
    rep.pythons = [f"3.{t[3:]}" for t in tags]
    for need in require_pythons or []:
        if need not in rep.pythons:
            rep.problems.append(f"no server for CPython {need} (bundle has {', '.join(rep.pythons) or 'none'})")
    common = _dists(files, "common")
    for tag, python in zip(tags, rep.pythons, strict=True):
        folder = f"extension/bundled/libs/{tag}/"
        if not any(n.startswith(folder) for n in names):
            rep.problems.append(f"CPython {python}: manifest names {tag} but there is no libs/{tag}/")
            continue
        view = _dists(files, tag) + common
        have = {d.name: d.version for d in view}
        env = marker_env(plat, python)
        rep.native[tag] = sorted(f"{d.name} {d.version} {','.join(d.tags)}" for d in view
                                 if any(not t.endswith("-any") for t in d.tags))
        for d in view:
            for t in d.tags or ["(no Tag in WHEEL)"]:
                why = tag_fits(t, python, plat)
                if why:
                    rep.problems.append(f"CPython {python}: {d.name} {d.version} ({d.where}): {why}")
            for spec in d.requires:
                try:
                    req = Requirement(spec)
                except InvalidRequirement:
                    rep.problems.append(f"CPython {python}: {d.name}: unreadable Requires-Dist {spec!r}")
                    continue
                if req.marker is not None and not Marker(str(req.marker)).evaluate(env):
                    continue
                got = have.get(canonicalize_name(req.name))
                if got is None:
                    rep.problems.append(f"CPython {python}: {d.name} needs {req.name}, which is not bundled")
                elif not req.specifier.contains(got, prereleases=True):
                    rep.problems.append(f"CPython {python}: {d.name} needs {req}, the bundle has {got}")
        if "skill-lsp" not in have:
            rep.problems.append(f"CPython {python}: skill-lsp itself is not bundled")
    for name, data in files.items():
        if not (name.endswith(NATIVE_SUFFIXES) or ".so." in name):
            continue
        rep.binaries += 1
        why = binary_problem(data, plat)
        if why:
            rep.problems.append(f"{name}: {why}, not {rep.target}")
        folder = PurePosixPath(name).parts[3] if len(PurePosixPath(name).parts) > 3 else ""
        if re.fullmatch(r"cp3\d+", folder):
            why = abi_tag_problem(PurePosixPath(name).name, f"3.{folder[3:]}")
            if why:
                rep.problems.append(f"{name}: {why}, in the {folder} folder")
        elif folder == "common" and abi_tag_problem(PurePosixPath(name).name, "3.0"):
            rep.problems.append(f"{name}: an interpreter-specific module in libs/common")
    if rep.binaries == 0:
        rep.problems.append("no compiled module at all: the native dependencies are missing")
    return rep


def summary(rep: Report) -> str:
    size = rep.path.stat().st_size / 1e6 if rep.path.exists() else 0
    lines = [f"{rep.path.name}: {rep.target}, {size:.1f} MB, extension {rep.version}, CPython "
             f"{', '.join(rep.pythons)}, {rep.binaries} compiled files"]
    for tag, natives in rep.native.items():
        lines.append(f"  {tag}: " + "; ".join(natives))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vsix", nargs="+", type=Path)
    ap.add_argument("--require-pythons", default="", help="comma-separated CPython versions every bundle must carry")
    ap.add_argument("--summary", action="store_true", help="print what each bundle holds")
    args = ap.parse_args(argv)
    need = [p.strip() for p in args.require_pythons.split(",") if p.strip()]
    bad = 0
    for path in args.vsix:
        rep = check(path, need)
        if args.summary:
            print(summary(rep))
        for p in rep.problems:
            print(f"{path.name}: {p}")
        bad += bool(rep.problems)
        if not rep.problems and not args.summary:
            print(f"{path.name}: OK ({rep.target}, CPython {', '.join(rep.pythons)}, {rep.binaries} compiled files)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
