#!/usr/bin/env python3
"""Generate a realistic, deterministic Agent Skills workspace for benchmarks.

    python benchmarks/gen_workspace.py N OUT [--seed S] [--body-scale K] [--force]

N skills are split across the roots ``.agents/skills``, ``.claude/skills`` and
``skills`` (about 1 % of the names appear in two roots).  Each skill is a folder
``ROOT/NAME/SKILL.md`` with 5-30 lines of YAML frontmatter and a 50-800 line
Markdown body (times ``--body-scale``), plus the ``scripts/``, ``references/``
and ``assets/`` files its links point to.  A small share of the skills carry
defects a linter must report: name != folder, trailing spaces, an unquoted
``: `` that breaks YAML, a missing description; about 5 % use CRLF line ends.

The same (N, seed, body-scale) always yields byte-identical trees.  A manifest
``OUT/.skill-bench.json`` records the parameters and counts; when it matches,
the tree is reused instead of regenerated (unless ``--force``).

Only the standard library is used, so the generator runs anywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

ROOTS = (".agents/skills", ".claude/skills", "skills")
ROOT_WEIGHTS = (0.45, 0.35, 0.20)
MANIFEST = ".skill-bench.json"
GENERATOR_VERSION = 2

WORDS = (
    "pdf excel csv json yaml docker kube git github gitlab release deploy review "
    "test lint format debug profile trace log metric alert incident oncall slack "
    "email calendar notion jira linear figma design brand pitch deck slide chart "
    "report invoice budget forecast sql postgres mysql redis kafka spark pandas "
    "numpy plot map geo weather search crawl scrape summarize translate write "
    "edit outline blog tweet changelog commit branch merge rebase migrate schema "
    "api graphql grpc rest auth oauth token secret vault terraform ansible helm "
    "aws gcp azure lambda queue cron backup restore audit security scan fuzz "
    "bench cache cdn dns tls cert mobile ios android react vue svelte rust go "
    "python node deno bun swift kotlin java ruby php elixir haskell ocaml"
).split()

UNICODE_BITS = (
    "Résumé builder — génère des CV soignés",
    "データ分析とレポート作成",
    "数据清洗与可视化",
    "Überprüft Änderungen 🚀 vor dem Merge",
    "Анализ журналов и метрик",
    "naïve café façade — ‘smart’ quotes “everywhere”",
    "emoji ✅ 🧪 📦 🔒 included",
    "עברית ועربية mixed direction",
)

SENTENCES = (
    "Use this skill when the user asks to {a} or {b} files in the repository.",
    "It reads the {a} configuration, validates it and writes a {b} summary.",
    "Prefer the bundled scripts over ad-hoc shell commands for {a} tasks.",
    "Never print secrets; redact tokens found in {a} output before showing it.",
    "When the {a} step fails, re-run it once with verbose logging, then stop.",
    "The {a} helper accepts a path and an optional {b} flag.",
    "Keep answers short and cite the {a} section you relied on.",
    "Large {a} inputs should be streamed rather than loaded whole.",
    "See the reference notes for edge cases around {a} and {b}.",
    "Check the {a} version first; older releases lack the {b} command.",
)

LICENSES = (
    "MIT",
    "Apache-2.0",
    "BSD-3-Clause",
    "Proprietary. LICENSE.txt has complete terms",
    "CC-BY-4.0",
)
MODELS = ("haiku", "sonnet", "opus", "inherit", "claude-sonnet-4-5")
TOOLS = (
    "Read",
    "Write",
    "Edit",
    "Glob",
    "Grep",
    "Bash",
    "Bash(git:*)",
    "Bash(npm run *)",
    "WebFetch",
    "WebSearch",
    "Task",
)
LANGS = ("bash", "python", "json", "yaml", "markdown", "text", "typescript", "")

# 1x1 transparent PNG
PNG_BYTES = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def _sentence(rng: random.Random) -> str:
    return rng.choice(SENTENCES).format(a=rng.choice(WORDS), b=rng.choice(WORDS))


def _paragraph(rng: random.Random, n: int) -> str:
    return " ".join(_sentence(rng) for _ in range(n))


def make_name(rng: random.Random, taken: set[str]) -> str:
    while True:
        k = rng.choice((2, 2, 3, 3, 4))
        name = "-".join(rng.choice(WORDS) for _ in range(k))
        if name not in taken:
            taken.add(name)
            return name


class SkillPlan:
    """Which support files a skill has (links may only point at those)."""

    def __init__(self, rng: random.Random) -> None:
        self.scripts: list[str] = []
        self.references: list[str] = []
        self.assets: list[str] = []
        if rng.random() < 0.55:
            self.scripts = rng.sample(
                ["run.py", "check.sh", "extract.py", "helper.js"], rng.randint(1, 3)
            )
        if rng.random() < 0.65:
            self.references = rng.sample(
                ["REFERENCE.md", "api.md", "forms.md", "examples.md"], rng.randint(1, 3)
            )
        if rng.random() < 0.35:
            self.assets = rng.sample(
                ["template.json", "diagram.png", "logo.png", "style.css"], rng.randint(1, 2)
            )

    def existing(self) -> list[str]:
        return (
            [f"scripts/{s}" for s in self.scripts]
            + [f"references/{r}" for r in self.references]
            + [f"assets/{a}" for a in self.assets]
        )


def make_frontmatter(rng: random.Random, name: str, folder: str, defects: set[str]) -> list[str]:
    """5-30 frontmatter lines (without the --- fences)."""
    target = rng.randint(5, 30)
    lines: list[str] = []
    lines.append(f"name: {name if 'name_mismatch' not in defects else name + '-v2'}")
    if "missing_description" not in defects:
        style = rng.random()
        if "yaml_error" in defects:
            lines.append(f"description: Use when: the user wants to {rng.choice(WORDS)} things")
        elif style < 0.12:
            # long description (some over the 1,024-char limit)
            lines.append(
                "description: "
                + json.dumps(_paragraph(rng, rng.randint(6, 16)), ensure_ascii=False)
            )
        elif style < 0.25:
            lines.append("description: >-")
            for _ in range(rng.randint(2, 5)):
                lines.append("  " + _sentence(rng))
        elif style < 0.32:
            lines.append("description: |")
            for _ in range(rng.randint(2, 4)):
                lines.append("  " + _sentence(rng))
        elif style < 0.42:
            lines.append(f'description: "{rng.choice(UNICODE_BITS)}. {_sentence(rng)}"')
        else:
            lines.append(f"description: {_sentence(rng)} {_sentence(rng).rstrip('.')}")
    if rng.random() < 0.6:
        lines.append(f"license: {rng.choice(LICENSES)}")
    if rng.random() < 0.3:
        lines.append(
            f"compatibility: Requires {rng.choice(['Python 3.10+', 'Node 20+', 'git and network access', 'Docker'])}"
        )
    if rng.random() < 0.5:
        tools = rng.sample(TOOLS, rng.randint(1, 5))
        if rng.random() < 0.5:
            lines.append("allowed-tools: " + " ".join(tools))
        else:
            lines.append("allowed-tools:")
            lines.extend(f"  - {t}" for t in tools)
    # Claude Code fields
    if rng.random() < 0.35:
        claude = [
            f'argument-hint: "[{rng.choice(WORDS)}] [--{rng.choice(WORDS)}]"',
            f"disable-model-invocation: {rng.choice(['true', 'false'])}",
            f"user-invocable: {rng.choice(['true', 'false'])}",
            f"model: {rng.choice(MODELS)}",
            "context: fork",
            f"agent: {rng.choice(['general-purpose', 'Explore', 'Plan'])}",
        ]
        lines.extend(rng.sample(claude, rng.randint(1, 4)))
    # metadata map pads to the target length
    room = target - len(lines)
    if room >= 2:
        lines.append("metadata:")
        keys = [
            "author",
            "version",
            "category",
            "tags",
            "homepage",
            "owner",
            "team",
            "updated",
            "stability",
            "origin",
        ]
        for i in range(room - 1):
            key = keys[i] if i < len(keys) else f"x-{rng.choice(WORDS)}-{i}"
            if key == "version":
                val = f'"{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"'
            elif key == "homepage":
                val = f"https://example.com/{folder}"
            elif key == "updated":
                val = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            else:
                val = rng.choice(WORDS)
            lines.append(f"  {key}: {val}")
    if "trailing_spaces" in defects:
        i = rng.randrange(len(lines))
        lines[i] = lines[i] + "   "
    return lines


def make_body(
    rng: random.Random, title: str, plan: SkillPlan, n_lines: int, defects: set[str]
) -> list[str]:
    """About n_lines Markdown lines with headings, links, images and code."""
    out: list[str] = [f"# {title}", ""]
    existing = plan.existing()
    section = 0
    while len(out) < n_lines:
        r = rng.random()
        if r < 0.10:
            section += 1
            lvl = rng.choice(("##", "##", "###", "####"))
            out += [f"{lvl} {rng.choice(WORDS).title()} {rng.choice(WORDS)} {section}", ""]
        elif r < 0.45:
            para = _paragraph(rng, rng.randint(1, 4))
            lr = rng.random()
            if lr < 0.25 and existing:
                t = rng.choice(existing)
                para += f" See [{Path(t).stem}]({t})."
            elif lr < 0.32:
                para += f" Details in [missing notes](references/missing-{rng.choice(WORDS)}.md)."
            elif lr < 0.36:
                para += f" Also [the guide](/docs/{rng.choice(WORDS)}/guide.md)."
            elif lr < 0.50:
                para += f" Upstream: <https://github.com/example/{rng.choice(WORDS)}> and [docs](https://docs.example.com/{rng.choice(WORDS)}#{rng.choice(WORDS)})."
            elif lr < 0.53 and existing:
                t = rng.choice(existing)
                para += f" Anchor link [here]({t}#{rng.choice(WORDS)})."
            out += [para, ""]
        elif r < 0.62:
            for _ in range(rng.randint(2, 6)):
                bullet = rng.choice(("-", "*", "1."))
                item = _sentence(rng)
                if existing and rng.random() < 0.15:
                    item += f" ([{rng.choice(existing)}]({rng.choice(existing)}))"
                out.append(f"{bullet} {item}")
            out.append("")
        elif r < 0.80:
            lang = rng.choice(LANGS)
            out.append(f"```{lang}")
            for _ in range(rng.randint(2, 12)):
                if rng.random() < 0.2:
                    # a link inside code must not be checked
                    out.append(f"see [not a link](references/in-code-{rng.choice(WORDS)}.md)")
                elif plan.scripts and rng.random() < 0.3:
                    out.append(
                        f"python scripts/{rng.choice(plan.scripts)} --{rng.choice(WORDS)} input.{rng.choice(['json', 'csv', 'txt'])}"
                    )
                else:
                    out.append(
                        f"{rng.choice(WORDS)}_{rng.choice(WORDS)} = {rng.randint(0, 999)}  # {rng.choice(WORDS)}"
                    )
            out += ["```", ""]
        elif r < 0.85:
            pngs = [a for a in plan.assets if a.endswith(".png")]
            if pngs and rng.random() < 0.6:
                out += [f"![{rng.choice(WORDS)} diagram](assets/{rng.choice(pngs)})", ""]
            elif rng.random() < 0.5:
                out += [f"![missing image](assets/missing-{rng.choice(WORDS)}.png)", ""]
            else:
                out += [f"![badge](https://img.shields.io/badge/{rng.choice(WORDS)}-ok-green)", ""]
        elif r < 0.92:
            out += ["| option | meaning |", "| --- | --- |"]
            for _ in range(rng.randint(2, 5)):
                out.append(f"| `--{rng.choice(WORDS)}` | {_sentence(rng)} |")
            out.append("")
        else:
            out += [f"> **Note:** {_sentence(rng)}", ""]
    out = out[:n_lines]
    if "trailing_spaces" in defects and len(out) > 3:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(2, len(out))
            out[i] = out[i] + "  \t "
    return out


def body_lines_for(rng: random.Random) -> int:
    # skewed: most bodies are short, a long tail reaches 800 lines
    return 50 + int(750 * rng.random() ** 3)


def pick_defects(rng: random.Random) -> set[str]:
    d: set[str] = set()
    if rng.random() < 0.02:
        d.add("name_mismatch")
    if rng.random() < 0.03:
        d.add("trailing_spaces")
    if rng.random() < 0.01:
        d.add("yaml_error")
    if rng.random() < 0.01:
        d.add("missing_description")
    return d


def make_skill_text(
    rng: random.Random,
    name: str,
    body_lines: int,
    *,
    defects: set[str] | None = None,
    plan: SkillPlan | None = None,
    crlf: bool = False,
    body_scale: float = 1.0,
) -> str:
    """One SKILL.md as text (used by bench_server.py for single documents)."""
    defects = set() if defects is None else defects
    plan = plan or SkillPlan(rng)
    fm = make_frontmatter(rng, name, name, defects)
    body = make_body(rng, name.replace("-", " ").title(), plan, body_lines, defects)
    if body_scale != 1.0:
        # repeat the same body so that ×k is exactly k times the content (same rng stream)
        rest = body[2:]
        want = max(1, int(len(rest) * body_scale))
        body = body[:2] + (rest * (want // max(len(rest), 1) + 1))[:want]
    nl = "\r\n" if crlf else "\n"
    return nl.join(["---", *fm, "---", *body]) + nl


def support_file(rel: str, rng: random.Random) -> bytes:
    if rel.endswith(".png"):
        return PNG_BYTES
    if rel.endswith(".py"):
        return f'#!/usr/bin/env python3\n"""{_sentence(rng)}"""\nimport sys\n\nprint(sys.argv[1:])\n'.encode()
    if rel.endswith(".sh"):
        return f'#!/bin/sh\n# {_sentence(rng)}\nset -eu\necho "$@"\n'.encode()
    if rel.endswith(".js"):
        return f"// {_sentence(rng)}\nconsole.log(process.argv.slice(2));\n".encode()
    if rel.endswith(".json"):
        return json.dumps({"name": rng.choice(WORDS), "fields": rng.sample(WORDS, 4)}).encode()
    if rel.endswith(".css"):
        return b"body { font-family: sans-serif; }\n"
    return (
        "# "
        + Path(rel).stem
        + "\n\n"
        + "\n\n".join(_paragraph(rng, 3) for _ in range(rng.randint(2, 8)))
        + "\n"
    ).encode()


def generate(
    n: int, out: Path, seed: int = 0, body_scale: float = 1.0, force: bool = False, nested: float = 0.0
) -> dict:
    """Generate (or reuse) the workspace; returns the manifest.

    ``nested`` is the share of skills placed in plugin layouts below the roots
    (``plugins/P/skills/NAME/SKILL.md``), which only the recursive search finds.
    """
    params: dict = {"generator": GENERATOR_VERSION, "skills": n, "seed": seed, "body_scale": body_scale}
    if nested:
        params["nested"] = nested
    man_path = out / MANIFEST
    if not force and man_path.exists():
        try:
            man = json.loads(man_path.read_text())
            if man.get("params") == params:
                return man
        except (OSError, ValueError):
            pass
    if out.exists():
        if not (out / MANIFEST).exists() and any(out.iterdir()):
            raise SystemExit(
                f"refusing to overwrite {out}: not empty and not a generated workspace"
            )
        shutil.rmtree(out)
    t0 = time.perf_counter()
    rng = random.Random(seed)
    taken: dict[str, set[str]] = {r: set() for r in ROOTS}
    all_names: list[tuple[str, str]] = []
    stats = {
        "files": 0,
        "bytes": 0,
        "skill_md_bytes": 0,
        "skill_md_lines": 0,
        "crlf": 0,
        "duplicates": 0,
        "defects": {},
        "per_root": {r: 0 for r in ROOTS},
    }
    global_names: set[str] = set()
    made_dirs: set[str] = set()

    def write(path: Path, data: bytes) -> None:
        d = str(path.parent)
        if d not in made_dirs:
            os.makedirs(d, exist_ok=True)
            made_dirs.add(d)
        with open(path, "wb") as f:
            f.write(data)
        stats["files"] += 1
        stats["bytes"] += len(data)

    plugins = max(1, n // 200)
    for _i in range(n):
        root = rng.choices(ROOTS, ROOT_WEIGHTS)[0]
        if nested and rng.random() < nested:
            root = f"plugins/plugin-{rng.randrange(plugins)}/skills"
            taken.setdefault(root, set())
            stats["per_root"].setdefault(root, 0)
            name = make_name(rng, global_names)
            taken[root].add(name)
        elif all_names and rng.random() < 0.01:
            # the same name in a second root (shadowing / duplicate)
            other_root, name = rng.choice(all_names)
            alts = [r for r in ROOTS if r != other_root and name not in taken[r]]
            if alts:
                root = rng.choice(alts)
                taken[root].add(name)
                stats["duplicates"] += 1
            else:
                name = make_name(rng, global_names)
                taken[root].add(name)
        else:
            name = make_name(rng, global_names)
            taken[root].add(name)
        all_names.append((root, name))
        stats["per_root"][root] += 1
        defects = pick_defects(rng)
        for d in defects:
            stats["defects"][d] = stats["defects"].get(d, 0) + 1
        crlf = rng.random() < 0.05
        stats["crlf"] += crlf
        plan = SkillPlan(rng)
        n_body = body_lines_for(rng)
        text = make_skill_text(
            rng, name, n_body, defects=defects, plan=plan, crlf=crlf, body_scale=body_scale
        )
        data = text.encode("utf-8")
        sdir = out / root / name
        write(sdir / "SKILL.md", data)
        stats["skill_md_bytes"] += len(data)
        stats["skill_md_lines"] += text.count("\n")
        for rel in plan.existing():
            write(sdir / rel, support_file(rel, rng))
    man = {"params": params, "stats": stats, "seconds": round(time.perf_counter() - t0, 2)}
    man_path.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")
    return man


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="number of skills")
    ap.add_argument(
        "out", type=Path, help="output folder (created; replaced if it is a generated workspace)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--body-scale", type=float, default=1.0, help="multiply body line counts (size-growth runs)"
    )
    ap.add_argument("--force", action="store_true", help="regenerate even if the manifest matches")
    ap.add_argument("--nested", type=float, default=0.0,
                    help="share of skills in plugins/*/skills/* (found only by the recursive search)")
    a = ap.parse_args(argv)
    man = generate(a.n, a.out, a.seed, a.body_scale, a.force, a.nested)
    s = man["stats"]
    print(
        f"{a.out}: {a.n} skills, {s['files']} files, {s['bytes'] / 2**20:.1f} MiB, "
        f"{s['skill_md_lines']} SKILL.md lines, {s['duplicates']} cross-root duplicates, "
        f"defects {s['defects']}, crlf {s['crlf']} ({man['seconds']} s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
