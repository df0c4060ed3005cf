#!/usr/bin/env python3
"""Measure what real skill repositories hold: the shapes gen_realistic.py draws from.

    python benchmarks/measure_repos.py /work/shared/corpus /work/heldout/tune --out benchmarks/repo_shape.json
    python benchmarks/measure_repos.py /work/heldout/test --compare benchmarks/repo_shape.json

Each folder given holds repositories (one subfolder each); every ``SKILL.md`` below a
repository is a skill. Per skill it records the SKILL.md size, lines, line ends, non-ASCII
text, frontmatter length and keys, description length and form, the body's headings,
code fences, list items, tables, links (relative, web, anchors; relative ones whose
target exists or not), images, inline code; the files bundled beside it; where the skill
sits in its repository (the layout). Only numbers and key names are kept, never text.

A repository with more than ``--cap`` skills (default 500) contributes a fixed sample of
that many (by the hash of the path), so one marketplace does not make the shape its own.

``--out`` writes the shape (quantiles of each measure, frequencies of each category, and
where they came from); ``--compare SHAPE`` prints the measured folders beside a shape
(the held-out check: a generator tuned on some repositories, compared with others).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

QUANTILES = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)
SKIP = {".git", "node_modules", ".venv", "venv", "__pycache__"}
LINK = re.compile(r"(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]*)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)
HEADING = re.compile(r"^#{1,6} ", re.M)
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)]) ", re.M)
TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{3,}", re.M)
INLINE_CODE = re.compile(r"`[^`\n]+`")
WEB = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def repositories(folders: list[Path]) -> list[Path]:
    out = []
    for f in folders:
        out += sorted(p for p in f.iterdir() if p.is_dir() and not p.name.startswith("."))
    return out


def skill_files(repo: Path) -> list[Path]:
    found = []
    for dp, dn, fn in os.walk(repo):
        dn[:] = sorted(d for d in dn if d not in SKIP)
        if "SKILL.md" in fn:
            found.append(Path(dp) / "SKILL.md")
    return sorted(found)


def layout(rel_dir: str) -> str:
    """Where a skill folder sits in its repository, with the varying names replaced."""
    parts = rel_dir.split("/")[:-1]  # the folders above the skill's own
    if not parts:
        return "<repo root is the skill>" if rel_dir in ("", ".") else "NAME"
    keep = {"skills", "skill", ".claude", ".agents", ".codex", ".github", ".opencode", "plugins", ".cursor",
            ".gemini", "src", "packages"}
    return "/".join(p if p in keep else "*" for p in parts) + "/NAME"


def split_frontmatter(text: str) -> tuple[list[str], str] | None:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return lines[1:i], "\n".join(lines[i + 1:])
    return None


def measure_skill(path: Path, repo: Path) -> dict:
    raw = path.read_bytes()
    text = raw.decode("utf-8", "replace")
    crlf = "\r\n" in text
    text = text.replace("\r\n", "\n")
    d: dict = {"bytes": len(raw), "lines": text.count("\n") + (not text.endswith("\n")), "crlf": crlf,
               "ascii": raw.isascii()}
    rel_dir = os.path.relpath(path.parent, repo).replace(os.sep, "/")
    d["layout"] = layout(rel_dir)
    d["folder"] = path.parent.name
    fm = split_frontmatter(text)
    if fm is None:
        d["frontmatter"] = "none"
        body = text
    else:
        fm_lines, body = fm
        d["frontmatter"] = "ok"
        d["fm_lines"] = len(fm_lines)
        keys = [m.group(1) for m in (re.match(r"([A-Za-z0-9_-]+)\s*:", line) for line in fm_lines) if m]
        d["keys"] = sorted(set(keys))
        for line_no, line in enumerate(fm_lines):
            m = re.match(r"description\s*:\s*(.*)$", line)
            if m:
                head = m.group(1).strip()
                form = "block" if head[:1] in ("|", ">") else "quoted" if head[:1] in ("\"", "'") else \
                    "empty" if not head else "plain"
                value = head
                for cont in fm_lines[line_no + 1:]:
                    if cont.startswith((" ", "\t")) or not cont.strip():
                        value += " " + cont.strip()
                    else:
                        break
                if form == "plain" and value != head:
                    form = "plain-multiline"
                d["desc_form"] = form
                d["desc_chars"] = len(value.strip(" |>-\"'"))
            m = re.match(r"name\s*:\s*['\"]?([^'\"#]*)", line)
            if m:
                d["name_is_folder"] = m.group(1).strip() == path.parent.name
    d["body_lines"] = body.count("\n")
    d["body_bytes"] = len(body.encode("utf-8"))
    d["headings"] = len(HEADING.findall(body))
    fences = FENCE.findall(body)
    d["code_blocks"] = len(fences) // 2
    d["list_items"] = len(LIST_ITEM.findall(body))
    d["tables"] = len(TABLE_SEP.findall(body))
    d["inline_code"] = len(INLINE_CODE.findall(body))
    rel, web, anchor, images, missing = 0, 0, 0, 0, 0
    for m in LINK.finditer(body):
        target = m.group(2)
        if m.group(1):
            images += 1
        if not target or target.startswith("#"):
            anchor += 1
        elif WEB.match(target) or target.startswith("//"):
            web += 1
        else:
            rel += 1
            clean = target.split("#", 1)[0].split("?", 1)[0]
            if clean and not clean.startswith("/") and not (path.parent / clean).exists():
                missing += 1
    d.update(links_relative=rel, links_web=web, links_anchor=anchor, images=images, links_missing=missing)
    bundled: Counter = Counter()
    sizes = []
    for dp, dn, fn in os.walk(path.parent):
        dn[:] = [x for x in dn if x not in SKIP and not (Path(dp) / x / "SKILL.md").exists()]
        top = os.path.relpath(dp, path.parent).split(os.sep)[0]
        for f in fn:
            if dp == str(path.parent) and f == "SKILL.md":
                continue
            bundled["(top)" if top == "." else top] += 1
            try:
                sizes.append(os.path.getsize(os.path.join(dp, f)))
            except OSError:
                pass
    d["bundled_files"] = sum(bundled.values())
    d["bundled_dirs"] = sorted(bundled)
    d["bundled_sizes"] = sizes
    return d


def sample(files: list[Path], cap: int) -> list[Path]:
    if len(files) <= cap:
        return files
    return sorted(files, key=lambda p: hashlib.sha256(str(p).encode()).hexdigest())[:cap]


def quantiles(values: list[float]) -> list[float]:
    if not values:
        return []
    s = sorted(values)
    out = []
    for q in QUANTILES:
        k = (len(s) - 1) * q
        lo = int(k)
        hi = min(lo + 1, len(s) - 1)
        out.append(round(s[lo] + (s[hi] - s[lo]) * (k - lo), 3))
    return out


NUMERIC = ("bytes", "lines", "fm_lines", "desc_chars", "body_lines", "body_bytes", "headings", "code_blocks",
           "list_items", "tables", "inline_code", "links_relative", "links_web", "links_anchor", "images",
           "links_missing", "bundled_files")


def shape_of(skills: list[dict], repos: list[tuple[str, int, int]], sources: list[str]) -> dict:
    n = len(skills)
    with_fm = [s for s in skills if s["frontmatter"] == "ok"]
    keys = Counter(k for s in with_fm for k in s["keys"])
    dirs = Counter(d for s in skills for d in s["bundled_dirs"])
    per_repo = [k for _, k, _ in repos]
    shape = {
        "about": {"sources": sources, "repositories": len(repos), "skills_measured": n,
                  "skills_found": sum(total for _, _, total in repos), "cap_per_repository": None,
                  "measured": time.strftime("%Y-%m-%d"), "quantiles": list(QUANTILES),
                  "repositories_list": [{"repo": r, "skills_measured": k, "skills": t} for r, k, t in repos]},
        "quantiles": {m: quantiles([s[m] for s in skills if m in s]) for m in NUMERIC},
        "bundled_file_bytes": quantiles([x for s in skills for x in s["bundled_sizes"]]),
        "share": {
            "crlf": round(sum(s["crlf"] for s in skills) / n, 4),
            "non_ascii": round(sum(not s["ascii"] for s in skills) / n, 4),
            "no_frontmatter": round(sum(s["frontmatter"] == "none" for s in skills) / n, 4),
            "name_not_folder": round(sum(s.get("name_is_folder") is False for s in with_fm) / max(1, len(with_fm)), 4),
            "with_missing_link": round(sum(s["links_missing"] > 0 for s in skills) / n, 4),
            "with_bundled_files": round(sum(s["bundled_files"] > 0 for s in skills) / n, 4),
        },
        "frontmatter_keys": {k: round(v / max(1, len(with_fm)), 4) for k, v in keys.most_common(40)},
        # Which keys come together (a repository's skills share a template): the 60 commonest sets.
        "frontmatter_key_sets": [[list(ks), round(v / max(1, len(with_fm)), 4)] for ks, v in
                                 Counter(tuple(s["keys"]) for s in with_fm).most_common(60)],
        "description_form": {k: round(v / max(1, len(with_fm)), 4) for k, v in
                             Counter(s.get("desc_form", "missing") for s in with_fm).most_common()},
        "bundled_dirs": {k: round(v / n, 4) for k, v in dirs.most_common(15)},
        "layout": {k: round(v / n, 4) for k, v in Counter(s["layout"] for s in skills).most_common(12)},
        "skills_per_repository": quantiles(per_repo),
    }
    return shape


def measure(folders: list[Path], cap: int) -> tuple[list[dict], list[tuple[str, int, int]]]:
    skills: list[dict] = []
    repos = []
    for repo in repositories(folders):
        files = skill_files(repo)
        if not files:
            continue
        picked = sample(files, cap)
        for f in picked:
            try:
                skills.append(measure_skill(f, repo))
            except OSError:
                pass
        repos.append((repo.name, len(picked), len(files)))
    return skills, repos


def compare(shape: dict, other: dict, label: str) -> str:
    rows = []
    for m in ("bytes", "body_lines", "fm_lines", "desc_chars", "code_blocks", "links_relative", "links_web",
              "links_missing", "headings", "bundled_files"):
        a, b = shape["quantiles"].get(m), other["quantiles"].get(m)
        if not a or not b:
            continue
        i50, i90 = QUANTILES.index(0.5), QUANTILES.index(0.9)
        rows.append(f"| {m} | {a[i50]:g} / {a[i90]:g} | {b[i50]:g} / {b[i90]:g} |")
    shares = [f"| {k} | {v:.3f} | {other['share'].get(k, 0):.3f} |" for k, v in shape["share"].items()]
    return "\n".join([f"| measure (median / p90) | shape | {label} |", "|---|---|---|", *rows, "",
                      f"| share of skills | shape | {label} |", "|---|---|---|", *shares])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("folders", nargs="+", type=Path, help="folders whose subfolders are repositories")
    ap.add_argument("--cap", type=int, default=500, help="at most this many skills of one repository")
    ap.add_argument("--out", type=Path, help="write the shape here (JSON)")
    ap.add_argument("--compare", type=Path, help="print these folders' measures beside this shape")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    skills, repos = measure(a.folders, a.cap)
    if not skills:
        print("no SKILL.md found", file=sys.stderr)
        return 1
    shape = shape_of(skills, repos, [str(f) for f in a.folders])
    shape["about"]["cap_per_repository"] = a.cap
    print(f"{len(skills)} skills from {len(repos)} repositories in {time.perf_counter() - t0:.1f} s; "
          f"SKILL.md median {statistics.median(s['bytes'] for s in skills):.0f} bytes", file=sys.stderr)
    if a.out:
        a.out.write_text(json.dumps(shape, indent=1) + "\n")
        print(f"wrote {a.out}", file=sys.stderr)
    if a.compare:
        print(compare(json.loads(a.compare.read_text()), shape, ", ".join(f.name for f in a.folders)))
    elif not a.out:
        print(json.dumps(shape, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
