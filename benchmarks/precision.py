#!/usr/bin/env python3
"""Precision report (issues 11 and 26): what `skill-lsp check` says, and how much of it is worth acting on.

    python benchmarks/precision.py                  # the corpus (tuned on): its section of docs/precision.md
    python benchmarks/precision.py --samples CODE   # print the audit sample of CODE with context, to judge
    python benchmarks/precision.py --heldout test   # held-out skills (issue 26): the section at the top
    python benchmarks/precision.py --heldout test --samples all   # print that sample with context, to judge

Held-out: the repositories of benchmarks/heldout.toml, checked out by ``heldout.py checkout``
under ``--heldout-root`` (default /work/heldout). `skill-lsp check` runs once per repository (as
a user would run it in their checkout, so description overlap stays inside a repository), at
default settings. The sample: the ``--size`` warnings and errors that rank first by a hash of
``--seed`` and the finding's code, path and position (a seeded random draw that follows their
volume, and stays put when a rule change removes other findings), plus up to ``--per-new`` of each code issue 26 added that the
draw missed (their precision is reported apart and not counted in the by-volume figure). Verdicts
(actionable / noise / wrong and a one-line reason) live in precision_heldout_audit.json; every
sampled finding is judged in its real file (``--samples`` reads the file at the finding's path).

Runs `skill-lsp check --format json` over ``--corpus`` (default /work/shared/corpus) at
default settings and writes docs/precision.md with:

* counts per code before (``precision_baseline.json``: git main before the issue 11
  work) and now;
* for every warning or error code, 20 findings drawn with a fixed seed, each with the
  verdict a person gave it in ``precision_audit.json`` (actionable / noise / false and
  a one-line reason). A sampled finding without a verdict is listed as "unaudited".

Only corpus paths, positions and codes are written, never the skills' text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CORPUS, REPO, skill_lsp_cmd  # noqa: E402

HERE = Path(__file__).resolve().parent
SPLIT = HERE / "heldout.toml"
HELDOUT_AUDIT = HERE / "precision_heldout_audit.json"
HELDOUT_ROOT = Path("/work/heldout")
HELDOUT_SEED = 26
HELDOUT_SIZE = 150
PER_NEW = 8
# Codes issue 26 added: measured apart when the by-volume draw holds too few of them.
NEW_CODES = ("DESCRIPTION_PLACEHOLDER", "DESCRIPTION_STUB", "NOT_A_TOOL", "FORK_WITHOUT_TASK", "MISSING_SCRIPT",
             "MISSING_MENTIONED_FILE", "DESCRIPTION_OVERLAP")
START, END = "<!-- heldout:start -->", "<!-- heldout:end -->"

# The readings of the test half, in order (commits on the precision branch, issue 26). Only the
# first measured rules that had never seen the test half; each later one follows fixes that the
# reading before it asked for, so for the codes fixed it is no longer a held-out figure.
HELDOUT_READINGS = [
    ("c25cf67", "rules tuned on the tune half only (random.sample draw)", "120 of 150 actionable (80.0 %, 95 % "
     "interval 73–86 %), 21 noise, 9 wrong: BROKEN_LINK on glob links to folders that exist (6), "
     "MISSING_MENTIONED_FILE on scripts a skill installs into the project, MISSING_FIELD and UNKNOWN_FIELD on a "
     "wiki page named skill.md; noise: BODY_TOO_LONG at 501–550 lines (12), test fixtures, duplicates of "
     "BROKEN_LINK"),
    ("1b3875e", "after the fixes the first reading asked for (a fresh random.sample draw)", "134 of 150 (89.3 %), "
     "12 noise, 4 wrong: MISSING_MENTIONED_FILE on a copy table and on a pattern name, DESCRIPTION_OVERLAP on "
     "one skill copied to .agents/ and .claude/, UNKNOWN_FIELD on `agents`"),
    ("this commit", "after the fixes the second reading asked for; the draw is now stable under rule changes "
     "(hash rank)", "the table above"),
]
# What the held-out work changed, with the evidence (tune half unless a reading is named).
HELDOUT_CHANGES = [
    ("TRAILING_WHITESPACE", "warning → hint. Tune half: all 135 were whitespace-only lines or single spaces in "
     "prose (K-Dense, Composio); the model reads the same text."),
    ("METADATA_NOT_STRING", "warning → hint (warning under agentskills). Tune half: 29, all nested metadata "
     "(openclaw, tags lists) that skills-ref stringifies and no captured harness rejects; the test half has 1,256."),
    ("UNKNOWN_LICENSE", "warning → information (warning under agentskills); `MIT license`, `Apache-2.0 (…)` and "
     "`SEE LICENSE IN LICENSE` with the file up the tree are accepted. Tune half: 18 of 18 were these or a copied "
     "template sentence."),
    ("INVALID_VERSION", "`version: 1.0` (a YAML float that prints as written) is quiet; `1.10` (read as 1.1) is "
     "still reported."),
    ("UNKNOWN_SKILL", "warning → hint; harness built-in commands (read from claude-code 2.1.332's command "
     "table, others documented), commands in `commands/*.md` up the tree, HTTP routes and OData options are "
     "skipped. Tune half: 0 of 26 actionable (`/help`, `/forget` defined in commands/, `$skip`, other tools' "
     "commands)."),
    ("BROKEN_LINK", "placeholder targets (`url`, `link`), templates (`{id}`), hidden project folders; after the "
     "first reading, glob targets (`references/setup/*.md`). Tune half: `[Smith et al.](url)`, `task.{id}.md`."),
    ("BODY_TOO_LONG", "reported past 550 lines (10 % margin, as SKILL_TOO_LARGE). Tune half: 32 of 144 were "
     "501–550 lines; first reading: 12 of 43 sampled."),
    ("SHADOWED", "a Claude Code plugin's `skills/` root (`.claude-plugin/` beside it) takes no part: its skills are "
     "`plugin:name`. Tune half: 23, all K-Dense's plugin skills against its own `.claude/skills` copies."),
    ("BACKSLASH_PATH, SCRIPT_NO_SHEBANG, SECRET", "the issue's trial cases (PowerShell, `✗ Avoid` examples, ASCII "
     "diagrams, placeholder keys with counting runs): none occurred in the tune half, so the fixes rest on the "
     "issue's report and the fixture tests."),
    ("Test data", "after the second reading: a skill found outside the roots under tests/, fixtures/, golden/ (of "
     "the workspace) is reported as information. Tune half: EveryInc's tests/fixtures; test half: Skill_Seekers' "
     "goldens, Salesforce eval fixtures."),
    ("skill.md pages", "after the first reading: a lowercase skill.md found outside the roots counts only with a "
     "name or description in frontmatter."),
]
BASELINE = HERE / "precision_baseline.json"
AUDIT = HERE / "precision_audit.json"
REPORT = REPO / "docs" / "precision.md"
SEED = 11
SAMPLE = 20
AUDITED = ("error", "warning")
TARGET = 90.0  # % actionable per code

# What the first reading of the samples found, and what changed in the rules because of
# it (the verdicts above are on the rules as they are now).
AUDIT_CHANGES = [
    ("UNKNOWN_FIELD", "22,607 info lines, 80 % of all output, every one a custom key (slug, category, author) no "
     "target but skills-ref rejects: now reported only under `agentskills` or as a likely misspelling (warning)."),
    ("ABSOLUTE_LINK", "10 of 20 false: `/uipath:uipath-solution` is a slash-command reference to another skill, "
     "not a path. Such links are no longer reported."),
    ("LINK_OUTSIDE_SKILL", "the existing targets were sibling skills of the same plugin, which resolve when the "
     "plugin is installed whole: lowered to info. Missing targets outside the folder are now BROKEN_LINK."),
    ("SKILL_TOO_LARGE", "3 of 20 noise (5,030 to 5,360 estimated tokens, within the estimate's error): reported "
     "only past 10 % over the recommendation."),
    ("INVISIBLE_CHARACTERS", "5 of 6 on one line of pasted math, all lone zero-width spaces: a lone U+200B in the "
     "body is no longer reported (bidi controls, tag characters and runs still are)."),
    ("PERSONAL_PATH", "4 of 6 actionable (the rest worked examples and provenance notes): lowered to info."),
    ("MISSING_FRONTMATTER", "0 of 4 actionable: template fragments named SKILL.md under UiPath's skill-flavors/, "
     "where no harness looks: information when no skills/ folder holds the file."),
    ("TRAILING_WHITESPACE", "not audited as noise, but spaces inside fenced and indented code are no longer "
     "reported (markdownlint MD009's default)."),
]


def run_check(corpus: Path) -> dict:
    proc = subprocess.run([*skill_lsp_cmd(), "check", "--format", "json", "--fail-on", "never", str(corpus)],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    if proc.returncode != 0:
        sys.exit(f"skill-lsp check failed ({proc.returncode}): {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def key(f: dict, corpus: Path) -> str:
    """A finding's identity in the audit file: code, corpus-relative path, line, column."""
    return f"{f['code']} {Path(f['path']).relative_to(corpus)}:{f['line']}:{f['column']}"


def samples(findings: list[dict]) -> dict[str, list[dict]]:
    by_code: dict[str, list[dict]] = {}
    for f in sorted(findings, key=lambda f: (f["code"], f["path"], f["line"], f["column"])):
        if f["severity"] in AUDITED:
            by_code.setdefault(f["code"], []).append(f)
    return {code: random.Random(f"{SEED}:{code}").sample(fs, min(SAMPLE, len(fs))) for code, fs in by_code.items()}


def show(code: str, picked: list[dict], corpus: Path, verdicts: dict) -> None:
    """The sample with the message and the source line, for the person judging it."""
    for f in picked:
        k = key(f, corpus)
        lines = Path(f["path"]).read_text(encoding="utf-8", errors="replace").splitlines()
        line = lines[f["line"] - 1] if 0 < f["line"] <= len(lines) else ""
        done = verdicts.get(k, {}).get("verdict", "-")
        print(f"[{done}] {k}\n    {f['message'][:300]}\n    > {line.strip()[:200]}")


def write_report(data: dict, corpus: Path, verdicts: dict) -> str:
    base = json.loads(BASELINE.read_text(encoding="utf-8"))
    before: dict[str, int] = base["counts"]
    now = Counter(f"{f['code']}:{f['severity']}" for f in data["findings"])
    out = ["# Precision on the corpus", "",
           "Generated by `python benchmarks/precision.py` (do not edit by hand). "
           f"`skill-lsp check` at default settings over {data['summary']['skills']:,} skills "
           f"({corpus.name}/: anthropics, openai, UiPath, terrylica and agentskillexchange skills). "
           f"Before: git main at {base['commit'][:7]} (benchmarks/precision_baseline.json).", "",
           "## Findings per code", "", "| code | severity | before | now |", "|---|---|---:|---:|"]
    rows = sorted(set(before) | set(now), key=lambda k: (-now.get(k, 0), -before.get(k, 0), k))
    for k in rows:
        code, sev = k.split(":")
        out.append(f"| `{code}` | {sev} | {before.get(k, 0):,} | {now.get(k, 0):,} |")
    tb, tn = sum(before.values()), sum(now.values())
    out += [f"| **all** | | **{tb:,}** | **{tn:,}** |", ""]
    picked = samples(data["findings"])
    out += ["## Hand audit", "",
            f"For every warning and error code, {SAMPLE} findings drawn with a fixed seed (all of them when "
            "fewer), each read in its file and marked **actionable** (an author would fix it), **noise** "
            "(true but not worth an edit) or **false** (wrong). Verdicts: benchmarks/precision_audit.json. "
            f"Target: at least {TARGET:.0f} % actionable and no false finding per code.", "",
            "| code | sampled | actionable | noise | false | unaudited | actionable % |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    details: list[str] = []
    for code in sorted(picked):
        tally: Counter[str] = Counter()
        details += [f"### {code}", ""]
        for f in picked[code]:
            k = key(f, corpus)
            v = verdicts.get(k)
            verdict = v["verdict"] if v else "unaudited"
            tally[verdict] += 1
            reason = f" — {v['reason']}" if v else ""
            details.append(f"- `{k.split(' ', 1)[1]}` **{verdict}**{reason}")
        details.append("")
        judged = sum(tally[x] for x in ("actionable", "noise", "false"))
        share = f"{100 * tally['actionable'] / judged:.0f} %" if judged else "–"
        out.append(f"| `{code}` | {len(picked[code])} | {tally['actionable']} | {tally['noise']} | "
                   f"{tally['false']} | {tally['unaudited']} | {share} |")
    out += ["", "## Rules changed by the audit", ""]
    out += [f"- `{code}`: {what}" for code, what in AUDIT_CHANGES]
    out += ["", "## Sampled findings", "", *details]
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------- held-out (issue 26)

def heldout_repos(half: str) -> list[dict]:
    import tomllib  # noqa: PLC0415 - Python 3.11+

    return [r for r in tomllib.loads(SPLIT.read_text(encoding="utf-8"))["repository"] if r["half"] == half]


def _check_one(folder: Path) -> dict:
    return run_check(folder)


def heldout_run(root: Path, half: str, jobs: int = 2) -> tuple[list[dict], list[dict], int]:
    """Findings of every repository of ``half`` (paths relative to root/half), the repositories, skills."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    repos = heldout_repos(half)
    base = root / half
    folders = [base / r["name"].replace("/", "+", 1) for r in repos]
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        sys.exit(f"missing checkouts ({len(missing)}), e.g. {missing[0]}: run benchmarks/heldout.py checkout")
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_check_one, folders))
    findings: list[dict] = []
    skills = 0
    for data in results:
        skills += data["summary"]["skills"]
        for f in data["findings"]:
            f["rel"] = str(Path(f["path"]).relative_to(base))
            findings.append(f)
    findings.sort(key=lambda f: (f["rel"], f["line"], f["column"], f["code"]))
    return findings, repos, skills


def hkey(f: dict) -> str:
    return f"{f['code']} {f['rel']}:{f['line']}:{f['column']}"


def heldout_sample(findings: list[dict], seed: int, size: int, per_new: int) -> tuple[list[dict], list[dict]]:
    """(by-volume draw, extra draw of the new codes the first one holds fewer than ``per_new`` of)."""
    # Each finding's rank is a hash of the seed and its identity, so the draw is stable: a finding a
    # rule change removes leaves the sample and the next in rank comes in; the others stay (a
    # random.sample over the list would redraw everything after any change).
    audited = sorted((f for f in findings if f["severity"] in AUDITED), key=lambda f: _rank(seed, f))
    main = audited[:size]
    taken = {hkey(f) for f in main}
    extra: list[dict] = []
    for code in NEW_CODES:
        have = sum(f["code"] == code for f in main)
        rest = [f for f in audited if f["code"] == code and hkey(f) not in taken]
        extra += rest[:max(0, per_new - have)]
    return main, extra


def _rank(seed: int, f: dict) -> str:
    return hashlib.sha256(f"{seed}|{hkey(f)}".encode()).hexdigest()


def heldout_show(picked: list[dict], root: Path, half: str, verdicts: dict) -> None:
    for f in picked:
        k = hkey(f)
        lines = Path(f["path"]).read_text(encoding="utf-8", errors="replace").splitlines()
        i = f["line"] - 1
        done = verdicts.get(k, {}).get("verdict", "-")
        print(f"[{done}] {k}  ({f['severity']})\n    {f['message'][:400]}")
        for j in range(max(0, i - 2), min(len(lines), i + 3)):
            print(f"    {'>' if j == i else ' '} {lines[j][:240]}")


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return 100 * (c - h), 100 * (c + h)


def heldout_report(findings: list[dict], repos: list[dict], skills: int, half: str, seed: int, size: int,
                   per_new: int, verdicts: dict) -> str:
    main, extra = heldout_sample(findings, seed, size, per_new)
    volume = Counter(f"{f['code']}:{f['severity']}" for f in findings)
    audited_total = sum(n for k, n in volume.items() if k.split(":")[1] in AUDITED)
    out = [START, "# Precision on held-out skills", "",
           f"Generated by `python benchmarks/precision.py --heldout {half} --seed {seed}` (do not edit by hand). "
           f"The {half} half of benchmarks/heldout.toml: {len(repos)} public repositories, {skills:,} skills "
           "(the split by repository was drawn with a fixed seed before any finding was read; the rules were tuned "
           "on the other half, and this half was read only to measure: see \"Readings\" below for what the "
           "readings changed). `skill-lsp check --format json` at default settings, "
           "once per repository. Re-create the checkouts with `python benchmarks/heldout.py checkout --mirror "
           "<git dirs of the fetched repositories>`.", "",
           f"**{audited_total:,} warnings and errors** ({sum(volume.values()):,} findings of every severity). "
           f"A seeded random sample of {len(main)} of the warnings and errors (so it follows their volume), each "
           "read in its file and judged **actionable** (an author would act on it), **noise** (true, not worth an "
           "edit) or **wrong**. Verdicts and reasons: benchmarks/precision_heldout_audit.json.", ""]
    tally: dict[str, Counter[str]] = {}
    for f in main:
        v = verdicts.get(hkey(f), {}).get("verdict", "unaudited")
        tally.setdefault(f["code"], Counter())[v] += 1
    tot: Counter[str] = Counter()
    for t in tally.values():
        tot.update(t)
    judged = tot["actionable"] + tot["noise"] + tot["wrong"]
    lo, hi = _wilson(tot["actionable"], judged)
    share = f"{100 * tot['actionable'] / judged:.1f} %" if judged else "–"
    out += [f"By volume: **{share} actionable** ({tot['actionable']} of {judged} judged; 95 % interval "
            f"{lo:.0f}–{hi:.0f} %), {tot['noise']} noise, {tot['wrong']} wrong, {tot['unaudited']} unaudited. "
            f"Goal: at least {TARGET:.0f} % by volume and no code with a wrong finding.", "",
            "| code | severity | in the half | sampled | actionable | noise | wrong | unaudited |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for code in sorted(tally, key=lambda c: (-sum(tally[c].values()), c)):
        t = tally[code]
        sev = next(f["severity"] for f in main if f["code"] == code)
        out.append(f"| `{code}` | {sev} | {volume.get(f'{code}:{sev}', 0):,} | {sum(t.values())} | "
                   f"{t['actionable']} | {t['noise']} | {t['wrong']} | {t['unaudited']} |")
    out.append(f"| **all** | | **{audited_total:,}** | **{len(main)}** | **{tot['actionable']}** | "
               f"**{tot['noise']}** | **{tot['wrong']}** | **{tot['unaudited']}** |")
    # The codes issue 26 added, over the draw and the extra draw together.
    out += ["", "## The codes issue 26 added", "",
            f"Each new warning code over the by-volume draw plus up to {per_new} more of it drawn with the same "
            "seed (all of them when fewer); the extra findings do not count in the by-volume figure above.", "",
            "| code | in the half | judged | actionable | noise | wrong |", "|---|---:|---:|---:|---:|---:|"]
    both = main + extra
    for code in NEW_CODES:
        t = Counter(verdicts.get(hkey(f), {}).get("verdict", "unaudited") for f in both if f["code"] == code)
        n = sum(v for k, v in volume.items() if k.startswith(code + ":") and k.split(":")[1] in AUDITED)
        out.append(f"| `{code}` | {n:,} | {t['actionable'] + t['noise'] + t['wrong']} | {t['actionable']} | "
                   f"{t['noise']} | {t['wrong']} |")
    out += ["", "## Readings of the test half", "",
            "Only the first reading measured rules that had never seen these repositories: it is the held-out "
            "figure. Each later reading follows fixes the one before asked for, so it says how the rules do now, "
            "not how they do on skills nobody has read.", "",
            "| reading | rules | result |", "|---|---|---|"]
    out += [f"| {c} | {what} | {result} |" for c, what, result in HELDOUT_READINGS]
    out += ["", "## What changed, and the evidence", ""]
    out += [f"- `{code}`: {what}" if " " not in code else f"- {code}: {what}" for code, what in HELDOUT_CHANGES]
    out += ["", "## Findings per code in the half", "", "| code | severity | findings |", "|---|---|---:|"]
    for k, n in sorted(volume.items(), key=lambda kv: (-kv[1], kv[0])):
        code, sev = k.split(":")
        out.append(f"| `{code}` | {sev} | {n:,} |")
    out += ["", "## Repositories", "", "| repository | commit | skills |", "|---|---|---:|"]
    for r in sorted(repos, key=lambda r: r["name"].lower()):
        src = r["name"] if not r["folder"] else f"{r['name']} (in {r['source']})"
        out.append(f"| {src} | {r['commit'][:10]} | {r['skills']:,} |")
    out += ["", "## Sampled findings", ""]
    for f in sorted(both, key=lambda f: (f["code"], f["rel"], f["line"])):
        v = verdicts.get(hkey(f))
        tag = " (extra draw)" if f in extra else ""
        out.append(f"- `{hkey(f)}`{tag} **{v['verdict'] if v else 'unaudited'}**" + (f" — {v['reason']}" if v else ""))
    out += ["", END, ""]
    return "\n".join(out)


def splice(report_path: Path, heldout: str | None = None, corpus: str | None = None) -> str:
    """docs/precision.md: the held-out block first, the corpus report below; replace one, keep the other."""
    old = report_path.read_text(encoding="utf-8") if report_path.exists() else ""
    if START in old and END in old:
        a, b = old.index(START), old.index(END) + len(END)
        old_heldout, old_corpus = old[a:b] + "\n", (old[:a] + old[b:]).strip() + "\n"
    else:
        old_heldout, old_corpus = "", old
    return (heldout or old_heldout) + ("\n" if (heldout or old_heldout) else "") + (corpus or old_corpus)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--samples", metavar="CODE", help="print the audit sample of CODE with context instead")
    ap.add_argument("--out", type=Path, default=REPORT)
    ap.add_argument("--heldout", choices=("tune", "test"), help="the held-out half to measure instead of the corpus")
    ap.add_argument("--heldout-root", type=Path, default=HELDOUT_ROOT)
    ap.add_argument("--seed", type=int, default=HELDOUT_SEED)
    ap.add_argument("--size", type=int, default=HELDOUT_SIZE)
    ap.add_argument("--per-new", type=int, default=PER_NEW)
    args = ap.parse_args(argv)
    if args.heldout:
        verdicts = json.loads(HELDOUT_AUDIT.read_text(encoding="utf-8")) if HELDOUT_AUDIT.exists() else {}
        findings, repos, skills = heldout_run(args.heldout_root.resolve(), args.heldout)
        if args.samples:
            main_draw, extra = heldout_sample(findings, args.seed, args.size, args.per_new)
            picked = [f for f in main_draw + extra if args.samples == "all" or f["code"] == args.samples]
            heldout_show(picked, args.heldout_root, args.heldout, verdicts)
            return 0
        block = heldout_report(findings, repos, skills, args.heldout, args.seed, args.size, args.per_new, verdicts)
        args.out.write_text(splice(args.out, heldout=block), encoding="utf-8")
        print(f"wrote {args.out}")
        return 0
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}; nothing to measure", file=sys.stderr)
        return 0
    corpus = args.corpus.resolve()
    verdicts = json.loads(AUDIT.read_text(encoding="utf-8")) if AUDIT.exists() else {}
    data = run_check(corpus)
    if args.samples:
        show(args.samples, samples(data["findings"]).get(args.samples, []), corpus, verdicts)
        return 0
    args.out.write_text(splice(args.out, corpus=write_report(data, corpus, verdicts)), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
