#!/usr/bin/env python3
"""Held-out skills (issue 26): public repositories this project never tuned on, split by repository.

    python benchmarks/heldout.py split --mirror DIR...      # draw the split once, write heldout.toml
    python benchmarks/heldout.py checkout --mirror DIR...    # lay out /work/heldout/{tune,test}/owner+name
    python benchmarks/heldout.py replicate --copies 2 --out /tmp/heldout-2x  # the test half twice over

``--mirror`` takes the git directories the search tool's ``fetch`` returned
(``/work/.mirror/owner+name/repo``). A repository that gathers other authors' repositories
(``thereisnotime/skills-collection``: one folder ``skills/owner--name`` a repository) is split
into those, each its own unit of the draw. Authors whose skills are in /work/shared/corpus
(the rules were tuned there) are left out, as are repositories with no SKILL.md.

``split`` draws with a fixed seed, before anyone reads a finding: the units in a seeded random
order, each to the half that has fewer skills so far, so that the halves are near the same size.
``checkout`` re-creates the folders from the mirrors at the commits heldout.toml records
(``git cat-file``; files the snapshot lacks are left out), outside the repository; their content is never committed.
``replicate`` lays a half out ``--copies`` times side by side (``OUT/copyN/owner+name``, hard links where
the file system allows): a workspace of real skills about the size of the generated ones (2 copies
of the test half: 11,992 skills), for the first-open figures of docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT = HERE / "heldout.toml"
ROOT = Path("/work/heldout")
SEED = 26
# Authors of /work/shared/corpus, where the rules were tuned.
CORPUS_AUTHORS = {"anthropics", "openai", "uipath", "terrylica", "agentskillexchange"}
COLLECTIONS = {"thereisnotime/skills-collection": "skills"}


def git(gitdir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True, check=True).stdout


def repo_name(gitdir: Path) -> str:
    """owner/name from the fetch path /work/.mirror/owner+name/repo."""
    folder = gitdir.parent.name if gitdir.name == "repo" else gitdir.name
    return folder.replace("+", "/", 1)


def skill_count(paths: list[str]) -> int:
    return sum(1 for p in paths if p.rsplit("/", 1)[-1].lower() == "skill.md")


def units(mirrors: list[Path]) -> list[dict]:
    """Each repository (or collected repository) with its commit, folder inside the mirror and skill count."""
    out: list[dict] = []
    for gitdir in mirrors:
        name = repo_name(gitdir)
        commit = git(gitdir, "rev-parse", "HEAD").decode().strip()
        # Regular files only: a symlinked SKILL.md is another harness's view of a skill already counted.
        paths = [line.split("\t", 1)[1] for line in git(gitdir, "ls-tree", "-r", "HEAD").decode("utf-8", "replace")
                 .splitlines() if line.startswith(("100644", "100755"))]
        sub = COLLECTIONS.get(name)
        if sub is None:
            parts = {"": paths}
        else:
            parts = {}
            for p in paths:
                bits = p.split("/")
                if len(bits) > 2 and bits[0] == sub:
                    parts.setdefault(f"{sub}/{bits[1]}", []).append(p)
        for folder, ps in sorted(parts.items()):
            repo = folder.split("/", 1)[1].replace("--", "/", 1) if folder else name
            n = skill_count(ps)
            if n == 0 or repo.split("/")[0].lower() in CORPUS_AUTHORS:
                continue
            out.append({"repository": repo, "source": name, "folder": folder, "commit": commit, "skills": n})
    return out


def draw(found: list[dict], seed: int) -> list[dict]:
    order = sorted(found, key=lambda u: u["repository"].lower())
    random.Random(seed).shuffle(order)
    size = {"tune": 0, "test": 0}
    for u in order:
        # Ties go to a coin flip so that the first unit's half is drawn too.
        half = min(size, key=lambda h: (size[h], random.Random(f"{seed}:{u['repository']}").random()))
        u["half"] = half
        size[half] += u["skills"]
    return sorted(order, key=lambda u: (u["half"], u["repository"].lower()))


def write_split(rows: list[dict], seed: int) -> None:
    total = {h: sum(r["skills"] for r in rows if r["half"] == h) for h in ("tune", "test")}
    out = ["# Held-out skills for the precision audit (issue 26). Written by",
           "# `python benchmarks/heldout.py split`, drawn before any finding was read.",
           f"# tune: {total['tune']} skills, test: {total['test']} skills.",
           f"seed = {seed}", ""]
    for r in rows:
        out += ["[[repository]]", f'name = "{r["repository"]}"', f'source = "{r["source"]}"',
                f'folder = "{r["folder"]}"', f'commit = "{r["commit"]}"', f"skills = {r['skills']}",
                f'half = "{r["half"]}"', ""]
    SPLIT.write_text("\n".join(out), encoding="utf-8")


def load_split() -> list[dict]:
    import tomllib  # noqa: PLC0415 - Python 3.11+ (the benchmarks' floor; the package supports 3.10)

    return tomllib.loads(SPLIT.read_text(encoding="utf-8"))["repository"]


def blobs(gitdir: Path, commit: str, folder: str):
    """(path inside folder, mode, content) of each file; blobs the snapshot lacks (4 MiB and more) are skipped."""
    listing = git(gitdir, "ls-tree", "-r", "-z", commit, *([folder] if folder else []))
    entries = []
    for rec in listing.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755"):
            entries.append((path.decode("utf-8", "replace"), mode, sha))
    proc = subprocess.run(["git", "--git-dir", str(gitdir), "cat-file", "--batch"], check=True, capture_output=True,
                          input=b"".join(sha + b"\n" for _, _, sha in entries))
    out, pos = proc.stdout, 0
    for path, mode, _ in entries:
        end = out.index(b"\n", pos)
        head = out[pos:end].split()
        pos = end + 1
        if head[-1] == b"missing":
            continue
        size = int(head[2])
        yield path[len(folder) + 1:] if folder else path, mode, out[pos:pos + size]
        pos += size + 1


def checkout(rows: list[dict], mirrors: list[Path], root: Path) -> None:
    by_name = {repo_name(m): m for m in mirrors}
    for r in rows:
        gitdir = by_name.get(r["source"])
        if gitdir is None:
            print(f"no mirror of {r['source']} given; {r['name']} skipped", file=sys.stderr)
            continue
        dest = root / r["half"] / r["name"].replace("/", "+", 1)
        if dest.exists():
            shutil.rmtree(dest)
        for rel, mode, data in blobs(gitdir, r["commit"], r["folder"]):
            target = dest / rel
            if ".." in Path(rel).parts:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            if mode == b"100755":
                target.chmod(0o755)
        print(f"{r['half']:4} {r['skills']:5} {dest}")


def replicate(source: Path, copies: int, out: Path) -> None:
    """``copies`` copies of ``source`` under ``out/copy1``..; hard links, or copies across devices.
    An earlier replica at ``out`` is replaced; any other folder there is left alone (an error)."""
    if not source.is_dir():
        raise SystemExit(f"{source}: not a folder (run `heldout.py checkout` first)")
    if out.exists():
        if not out.is_dir() or any(not re.fullmatch(r"copy\d+", p.name) for p in out.iterdir()):
            raise SystemExit(f"{out} exists and holds more than an earlier replica: choose another --out")
        shutil.rmtree(out)
    for i in range(1, copies + 1):
        shutil.copytree(source, out / f"copy{i}", symlinks=True, copy_function=_link)
    print(f"{copies} copies of {source} in {out}")


def _link(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("split", "checkout", "replicate"))
    ap.add_argument("--mirror", type=Path, nargs="+", help="git directories from fetch (split, checkout)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--half", choices=("tune", "test"), default="test", help="replicate: which half")
    ap.add_argument("--copies", type=int, default=2, help="replicate: how many copies")
    ap.add_argument("--out", type=Path, default=Path("/tmp/heldout-2x"), help="replicate: where")
    args = ap.parse_args(argv)
    if args.action == "replicate":
        replicate(args.root / args.half, args.copies, args.out)
        return 0
    if not args.mirror:
        ap.error(f"{args.action} needs --mirror")
    if args.action == "split":
        rows = draw(units(args.mirror), args.seed)
        write_split(rows, args.seed)
        print(f"wrote {SPLIT}: {len(rows)} repositories")
    else:
        checkout(load_split(), args.mirror, args.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
