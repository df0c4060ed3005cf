#!/usr/bin/env python3
"""Precision audit of the rule-depth codes (issue 12) over the corpus.

    python benchmarks/audit_rules.py                       # counts + 20 samples per code
    python benchmarks/audit_rules.py --profile agentskills --codes SECRET,HIDDEN_COMMENT
    python benchmarks/audit_rules.py --json out.json       # samples as data, to label

Runs the engine in-process over every SKILL.md under ``--corpus`` (default
/work/shared/corpus) with the chosen profile, keeps only the codes from
``harness/data.py`` RULE_LEVELS (or ``--codes``), and prints for each code the number of
findings and skills, then a fixed-seed sample of 20 as ``file:line  text``.
With ``--labels FILE`` (JSON: code -> {"file:line": "actionable"|"noise"|"false"})
it also prints the share of the labelled sample that is actionable.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CORPUS  # noqa: E402

from skill_lsp.engine.config import Settings  # noqa: E402
from skill_lsp.engine.harness.data import RULE_LEVELS as SEVERITY_BY_HARNESS  # noqa: E402
from skill_lsp.engine.workspace import check_file  # noqa: E402

SAMPLE = 20
SEED = 12


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--profile", default="claude-code")
    ap.add_argument("--codes", default="", help="comma-separated codes (default: every rule-depth code)")
    ap.add_argument("--json", help="write the samples to this file")
    ap.add_argument("--labels", help="JSON labels to score the samples with")
    args = ap.parse_args(argv)
    codes = [c for c in args.codes.split(",") if c] or list(SEVERITY_BY_HARNESS)
    settings = Settings(profile=args.profile)
    corpus = Path(args.corpus)
    hits: dict[str, list[dict]] = defaultdict(list)
    files = sorted(corpus.rglob("SKILL.md"))
    for path in files:
        result = check_file(str(path), settings)
        doc = result.doc
        for f in result.findings:
            if f.code not in codes or doc is None:
                continue
            line = doc.src.line_of(f.start) + 1
            hits[f.code].append({"where": f"{path.relative_to(corpus)}:{line}",
                                 "text": doc.text[f.start:f.end][:120], "message": f.message[:160]})
    labels = json.loads(Path(args.labels).read_text()) if args.labels else {}
    out: dict[str, dict] = {}
    print(f"{len(files)} skills, profile {args.profile}")
    for code in codes:
        found = hits.get(code, [])
        skills = len({h["where"].rsplit(":", 1)[0] for h in found})
        sample = random.Random(SEED).sample(found, min(SAMPLE, len(found)))
        out[code] = {"findings": len(found), "skills": skills, "sample": sample}
        score = ""
        marks = labels.get(code, {})
        if marks:
            judged = [marks[h["where"]] for h in sample if h["where"] in marks]
            if judged:
                ok = sum(1 for j in judged if j == "actionable")
                score = f"  actionable {ok}/{len(judged)} = {100 * ok / len(judged):.0f} %"
        print(f"\n== {code}: {len(found)} findings in {skills} skills{score}")
        for h in sample:
            mark = marks.get(h["where"], "")
            print(f"  {h['where']}  {h['text']!r}  {mark}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
