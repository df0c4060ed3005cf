#!/usr/bin/env python3
"""Generate a workspace that looks like real skill repositories (sizes, links, code, layout).

    python benchmarks/gen_realistic.py N OUT [--seed S] [--shape benchmarks/repo_shape.json] [--force]

Every distribution comes from ``repo_shape.json``, which ``measure_repos.py`` measured on real
repositories (see its ``about``: which folders, how many repositories and skills): SKILL.md
length, frontmatter keys and description form and length, headings, code blocks, list
items, tables, inline code, links (relative, web, anchors, images; the share of skills with a
link to a missing file), bundled files (how many, in which folders, how large), where skills
sit (``skills/NAME``, ``plugins/P/skills/NAME``, category folders ...), names that differ
from their folder, files without frontmatter, non-ASCII text. Counts are drawn at one rank
per skill with a little jitter, so a long skill has more headings, code and links, as in
the repositories measured. The words are the generator's own (gen_workspace.py's), never
text from a measured skill.

``gen_workspace.py`` stays the stress workspace: 4-5× the bytes of real skills, 12× their
links and 16× their code blocks, and deliberate broken links in most of them.

The same N, seed and shape give byte-identical trees; ``OUT/.skill-bench.json`` records the
parameters and counts, and a matching tree is reused (``--force`` regenerates).
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_workspace import LANGS, MANIFEST, PNG_BYTES, SENTENCES, WORDS, _sentence, make_name  # noqa: E402

HERE = Path(__file__).resolve().parent
SHAPE = HERE / "repo_shape.json"
GENERATOR = "realistic-3"
NON_ASCII = ("—", "→", "✅", "é", "“quoted”", "…", "•", "⚠️")
# Top-level keys beyond name/description, with the values they take (own words, plausible forms).
KEY_VALUES = {
    "allowed-tools": lambda r: " ".join(r.sample(("Read", "Write", "Edit", "Glob", "Grep", "Bash", "WebFetch"),
                                                 r.randint(1, 4))),
    "license": lambda r: r.choice(("MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms")),
    "version": lambda r: f'"{r.randint(0, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)}"',
    "author": lambda r: r.choice(WORDS).title() + " " + r.choice(WORDS).title(),
    "compatibility": lambda r: r.choice(("Requires Python 3.10+", "Requires git and network access", "Node 20+")),
    "argument-hint": lambda r: f'"[{r.choice(WORDS)}]"',
    "model": lambda r: r.choice(("sonnet", "haiku", "opus", "inherit")),
    "disable-model-invocation": lambda r: r.choice(("true", "false")),
    "user-invocable": lambda r: r.choice(("true", "false")),
    "context": lambda r: "fork",
    "agent": lambda r: r.choice(("general-purpose", "Explore")),
}


class Shape:
    def __init__(self, data: dict) -> None:
        self.data = data
        self.q = data["about"]["quantiles"]

    def draw(self, measure: str, u: float) -> float:
        """The value at rank ``u`` (0..1) of a measured distribution, interpolated."""
        vals = self.data["quantiles"][measure] if measure in self.data["quantiles"] else self.data[measure]
        i = bisect.bisect_right(self.q, u) - 1
        i = max(0, min(i, len(self.q) - 2))
        lo, hi = self.q[i], self.q[i + 1]
        t = 0.0 if hi == lo else (u - lo) / (hi - lo)
        return vals[i] + (vals[i + 1] - vals[i]) * t

    def share(self, key: str) -> float:
        return self.data["share"][key]


_NORMAL = NormalDist()


def jitter(rng: random.Random, u: float, rho: float = 0.9) -> float:
    """A rank correlated with ``u`` (a Gaussian copula): uniform whatever ``rho``, so every
    measure keeps its measured distribution while long skills get more of everything."""
    z = _NORMAL.inv_cdf(min(max(u, 1e-9), 1 - 1e-9))
    return _NORMAL.cdf(rho * z + (1 - rho * rho) ** 0.5 * rng.gauss(0, 1))


def pick(rng: random.Random, table: dict[str, float]) -> str:
    keys = list(table)
    return rng.choices(keys, [table[k] for k in keys])[0]


def description(rng: random.Random, shape: Shape, u: float) -> list[str]:
    chars = int(shape.draw("desc_chars", jitter(rng, u, 0.3)))
    words: list[str] = []
    while len(" ".join(words)) < max(20, chars):
        words += _sentence(rng).split()
    text = " ".join(words)[: max(20, chars)].rstrip() + "."
    if "Use when" not in text and rng.random() < 0.7:
        text = text[: max(10, len(text) - 40)].rstrip(" .") + ". Use when the user asks to " + rng.choice(WORDS) + "."
    form = pick(rng, shape.data["description_form"])
    if form == "block":
        out, line = ["description: >-"], "  "
        for w in text.split():
            if len(line) + len(w) > 78:
                out.append(line.rstrip())
                line = "  "
            line += w + " "
        out.append(line.rstrip())
        return out
    if form == "quoted":
        return ["description: " + json.dumps(text, ensure_ascii=False)]
    if form == "missing":
        return []
    return ["description: " + text.replace(": ", " - ").replace(" #", " ")]


def frontmatter(rng: random.Random, shape: Shape, name: str, folder: str, u: float) -> list[str]:
    """Keys as a measured skill had them together (the commonest sets, by frequency), values
    of the generator's own; list-valued keys (tags, allowed-tools half the time) take lines."""
    sets = shape.data["frontmatter_key_sets"]
    keys = rng.choices([k for k, _ in sets], [w for _, w in sets])[0]
    shown = name if rng.random() >= shape.share("name_not_folder") else \
        " ".join(w.title() for w in folder.split("-"))  # the commonest mismatch: a display name
    lines = [f"name: {shown}"] if "name" in keys else []
    if "description" in keys:
        lines += description(rng, shape, u)
    for key in keys:
        if key in ("name", "description"):
            continue
        make = KEY_VALUES.get(key)
        if key in ("tags", "keywords", "triggers") or (key == "allowed-tools" and rng.random() < 0.5):
            lines.append(f"{key}:")
            lines += [f"  - {rng.choice(WORDS)}" for _ in range(rng.randint(2, 6))]
        elif key == "metadata":
            lines.append("metadata:")
            lines += [f"  {k}: {rng.choice(WORDS)}" for k in rng.sample(("author", "version", "category", "team"),
                                                                         rng.randint(1, 4))]
        elif make is not None:
            lines.append(f"{key}: {make(rng)}")
        else:
            lines.append(f"{key}: {rng.choice(WORDS)}")
    return lines


def paragraph(rng: random.Random, non_ascii: bool) -> str:
    s = " ".join(_sentence(rng) for _ in range(rng.randint(1, 3)))
    if non_ascii and rng.random() < 0.3:
        s = s.replace(" ", f" {rng.choice(NON_ASCII)} ", 1)
    return s


def body(rng: random.Random, shape: Shape, title: str, u: float, bundled: list[str], non_ascii: bool,
         siblings: list[str]) -> list[str]:
    """The body; relative links go to its bundled files, else to a skill beside it (both exist)."""
    n_lines = max(3, int(shape.draw("body_lines", u)))
    counts = {m: int(round(shape.draw(m, jitter(rng, u)))) for m in
              ("headings", "code_blocks", "list_items", "tables", "inline_code", "links_web", "links_anchor",
               "images")}
    rel = int(round(shape.draw("links_relative", jitter(rng, u)))) if bundled or siblings else 0
    missing = 0
    if rng.random() < shape.share("with_missing_link"):
        missing = max(1, int(round(shape.draw("links_missing", 0.95 + 0.05 * rng.random()))))
    blocks: list[list[str]] = []
    for _ in range(counts["code_blocks"]):
        lang = rng.choice(LANGS)
        code = [f"{rng.choice(WORDS)}_{rng.choice(WORDS)} = {rng.randint(0, 99)}" for _ in range(rng.randint(2, 10))]
        blocks.append([f"```{lang}", *code, "```", ""])
    for _ in range(counts["tables"]):
        rows = [f"| `{rng.choice(WORDS)}` | {_sentence(rng)} |" for _ in range(rng.randint(2, 6))]
        blocks.append(["| option | meaning |", "| --- | --- |", *rows, ""])
    items = counts["list_items"]
    while items > 0:
        k = min(items, rng.randint(2, 7))
        items -= k
        blocks.append([f"{rng.choice(('-', '*', '1.'))} {_sentence(rng)}" for _ in range(k)] + [""])
    targets = bundled or [f"../{o}/SKILL.md" for o in siblings]
    links = [f"[{os.path.basename(t)}]({t})" for t in (rng.choice(targets) for _ in range(rel))]
    links += [f"[the {rng.choice(WORDS)} notes](references/{rng.choice(WORDS)}-{rng.choice(WORDS)}.md)"
              for _ in range(missing)]
    links += [f"[docs](https://docs.example.com/{rng.choice(WORDS)})" for _ in range(counts["links_web"])]
    links += [f"[below](#{rng.choice(WORDS)})" for _ in range(counts["links_anchor"])]
    links += [f"![{rng.choice(WORDS)}](https://img.example.com/{rng.choice(WORDS)}.png)"
              for _ in range(counts["images"])]
    codes = [f"`{rng.choice(WORDS)}`" for _ in range(counts["inline_code"])]
    rng.shuffle(blocks)
    headings = max(1, counts["headings"])
    # The measured length holds: blocks that do not fit beside the headings are left out.
    room = n_lines - 2 * headings - 2
    kept = []
    for b in blocks:
        if len(b) <= room:
            kept.append(b)
            room -= len(b)
    blocks = kept
    # Prose paragraphs carry the links and inline code; headings split the blocks into sections.
    prose_lines = max(headings, n_lines - sum(len(b) for b in blocks) - 2 * headings)
    paras = [paragraph(rng, non_ascii) for _ in range(max(1, prose_lines // 2))]
    for extra in links + codes:
        i = rng.randrange(len(paras))
        paras[i] += " " + extra
    out = [f"# {title}", ""]
    sections = headings - 1
    chunks = [[] for _ in range(sections + 1)]
    for p in paras:
        chunks[rng.randrange(len(chunks))].append([p, ""])
    for b in blocks:
        chunks[rng.randrange(len(chunks))].append(b)
    for i, chunk in enumerate(chunks):
        if i:
            out += [f"## {rng.choice(WORDS).title()} {rng.choice(WORDS)}", ""]
        for part in chunk:
            out += part
    return out


def bundled_files(rng: random.Random, shape: Shape, u: float) -> list[tuple[str, int]]:
    if rng.random() >= shape.share("with_bundled_files"):
        return []
    # Among skills with bundled files (the upper ranks of the measured counts, 0 below).
    low = 1 - shape.share("with_bundled_files")
    n = max(1, int(round(shape.draw("bundled_files", low + (1 - low) * jitter(rng, u)))))
    dirs = shape.data["bundled_dirs"]
    out = []
    for i in range(min(n, 80)):
        d = pick(rng, dirs)
        ext = {"scripts": ".py", "assets": ".png"}.get(d, ".md")
        name = f"{rng.choice(WORDS)}-{i}{ext}"
        size = int(min(100_000, shape.draw("bundled_file_bytes", rng.random())))
        out.append((name if d == "(top)" else f"{d}/{name}", size))
    return out


def file_head(rel: str, rng: random.Random) -> bytes:
    """A bundled file's first bytes (the rules read no more than a script's first line); the
    file is then extended to its drawn size without writing it (a sparse file: the size shows,
    the disk holds a few bytes)."""
    if rel.endswith(".png"):
        return PNG_BYTES
    if rel.endswith(".py"):
        return f'#!/usr/bin/env python3\n"""{_sentence(rng)}"""\n'.encode()
    return f"# {Path(rel).stem}\n\n{rng.choice(SENTENCES).format(a=rng.choice(WORDS), b=rng.choice(WORDS))}\n".encode()


def place(rng: random.Random, shape: Shape, name: str, groups: dict[str, list[str]]) -> str:
    """The skill's folder, relative to the workspace: a measured layout, its `*` filled from a
    pool of plugin / category names that grows as skills are added (dozens of skills each)."""
    pattern = pick(rng, shape.data["layout"])
    if pattern == "<repo root is the skill>":
        pattern = "*/NAME"
    parts = []
    for i, part in enumerate(pattern.split("/")):
        if part == "*":
            pool = groups.setdefault(f"{pattern}:{i}", [])
            if not pool or rng.random() < 1 / 25:
                pool.append(f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{len(pool)}")
            part = rng.choice(pool)
        elif part == "NAME":
            part = name
        parts.append(part)
    return "/".join(parts)


def generate(n: int, out: Path, seed: int = 0, shape_path: Path = SHAPE, force: bool = False) -> dict:
    shape_data = json.loads(shape_path.read_text())
    digest = hashlib.sha256(json.dumps(shape_data, sort_keys=True).encode()).hexdigest()[:12]
    params = {"generator": GENERATOR, "skills": n, "seed": seed, "shape": digest}
    man_path = out / MANIFEST
    if not force and man_path.exists():
        try:
            man = json.loads(man_path.read_text())
            if man.get("params") == params:
                return man
        except (OSError, ValueError):
            pass
    if out.exists():
        if not man_path.exists() and any(out.iterdir()):
            raise SystemExit(f"refusing to overwrite {out}: not empty and not a generated workspace")
        shutil.rmtree(out)
    shape = Shape(shape_data)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    taken: set[str] = set()
    groups: dict[str, list[str]] = {}
    beside: dict[str, list[str]] = {}  # skill folders already written, by parent folder
    stats = {"files": 0, "bytes": 0, "skill_md_bytes": 0, "skill_md_lines": 0, "no_frontmatter": 0,
             "missing_links": 0, "layouts": {}}
    made: set[str] = set()

    def write(rel: str, data: bytes, size: int = 0) -> None:
        path = out / rel
        d = str(path.parent)
        if d not in made:
            os.makedirs(d, exist_ok=True)
            made.add(d)
        with open(path, "wb") as f:
            f.write(data)
            if size > len(data):
                f.truncate(size)
        stats["files"] += 1
        stats["bytes"] += max(size, len(data))

    for _ in range(n):
        name = make_name(rng, taken)
        folder = place(rng, shape, name, groups)
        u = rng.random()
        files = bundled_files(rng, shape, u)
        linkable = [rel for rel, _ in files if "/" in rel]
        non_ascii = rng.random() < shape.share("non_ascii")
        parent = os.path.dirname(folder)
        siblings = beside.setdefault(parent, [])
        lines = body(rng, shape, name.replace("-", " ").title(), u, linkable, non_ascii, siblings[-5:])
        siblings.append(os.path.basename(folder))
        if rng.random() < shape.share("no_frontmatter"):
            stats["no_frontmatter"] += 1
            text = "\n".join(lines) + "\n"
        else:
            fm = frontmatter(rng, shape, name, os.path.basename(folder), u)
            text = "\n".join(["---", *fm, "---", "", *lines]) + "\n"
        data = text.encode("utf-8")
        write(f"{folder}/SKILL.md", data)
        stats["skill_md_bytes"] += len(data)
        stats["skill_md_lines"] += text.count("\n")
        stats["missing_links"] += text.count("](references/") - sum(text.count(f"]({r})") for r in linkable
                                                                     if r.startswith("references/"))
        for rel, size in files:
            write(f"{folder}/{rel}", file_head(rel, rng), size)
        top = folder.split("/")[0] if "/" in folder else ""
        stats["layouts"][top] = stats["layouts"].get(top, 0) + 1
    man = {"params": params, "shape_about": {k: shape_data["about"][k] for k in
                                             ("sources", "repositories", "skills_measured", "measured")},
           "stats": stats, "seconds": round(time.perf_counter() - t0, 2)}
    man_path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")
    return man


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("n", type=int, help="number of skills")
    ap.add_argument("out", type=Path, help="output folder (created; replaced if it is a generated workspace)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shape", type=Path, default=SHAPE, help="the measured shape (measure_repos.py --out)")
    ap.add_argument("--force", action="store_true", help="regenerate even if the manifest matches")
    a = ap.parse_args(argv)
    man = generate(a.n, a.out, a.seed, a.shape, a.force)
    s = man["stats"]
    print(f"{a.out}: {a.n} skills, {s['files']} files, {s['bytes'] / 2**20:.1f} MiB "
          f"({s['skill_md_bytes'] / 2**20:.1f} MiB of SKILL.md, mean {s['skill_md_bytes'] / max(1, a.n):.0f} bytes) "
          f"in {man['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
