"""A disagreement made minimal, checked for repeatability, and stored as a capture case.

Delta debugging over the batch's skills, then the target skill's resource files, then
the lines of its SKILL.md (body first, then frontmatter): a step is kept when the same
kind of disagreement about the same skill remains. Each step is a real run of the
release, so a shrink is bounded (``MAX_RUNS``). Before shrinking, the batch is run a
second time: when the release's own output for that skill changes between two runs of
the same workspace, it is recorded as the release's non-determinism, not stored.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from .. import layout
from ..drivers import pinned
from ..install import Pin
from ..layout import CASES, REPO
from .cli import baseline
from .compare import ActivationVerdict, Outcome, SkillVerdict, run_batch
from .grammar import Batch, Skill
from .workspace import write_case

MAX_RUNS = 30

# The first of these a skill's tags hold names its disagreement (one shrink per name and kind).
PRIORITY = ("bom", "crlf", "link-inside", "link-outside", "file:", "nested", "folder-odd", "frontmatter-",
            "no-frontmatter", "invalid-yaml:", "disable-model-invocation", "user-invocable", "when_to_use", "name-",
            "block", "description-", "double-escapes", "multi-line-plain", "same-name-twin", "files-", "root:",
            "placeholder:", "arguments:", "body-", "code-fence")


def signature(what: str, kind: str, skill: Skill | None) -> str:
    tags = skill.tags if skill is not None else ()
    for p in PRIORITY:
        hit = next((t for t in tags if t.startswith(p)), None)
        if hit is not None:
            return f"{what}:{kind}:{hit.split(':')[0] if p in ('placeholder:', 'arguments:') else hit}"
    return f"{what}:{kind}:plain"


class Shrinker:
    def __init__(self, pin: Pin, tmp: Path, names: dict[str, int] | None) -> None:
        self.pin, self.tmp, self.names = pin, tmp, names
        self.argv = pinned(pin)
        self.runs = 0

    def outcome(self, skills: list[Skill], calls: list[tuple[str, str]]) -> Outcome:
        self.runs += 1
        return run_batch(self.pin.harness, self.argv, skills, calls, self.tmp / f"s{self.runs}", self.names)

    def still(self, skills: list[Skill], target: Skill, what: str, kind: str, call: tuple[str, str] | None) -> bool:
        if self.runs >= MAX_RUNS:
            return False
        o = self.outcome(skills, [call] if call else [])
        if o.error:
            return False
        if what == "activation":
            return any(not v.agrees and v.kind == kind for v in o.activations)
        return any(v.skill is target and not v.agrees and v.kind == kind for v in o.skills)


def _ddmin(items: list, keep, test) -> list:  # type: ignore[no-untyped-def]
    """Smallest sublist of ``items`` (``keep`` always in) for which ``test`` holds, by halves."""
    if not keep and items and test([]):
        return []
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            rest = items[:start] + items[start + chunk:]
            if any(k in items[start:start + chunk] for k in keep):
                continue
            if test(rest):
                items, n, reduced = rest, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def _with_md(skill: Skill, name: str, data: bytes) -> Skill:
    files = dict(skill.files)
    files[name] = data
    return replace(skill, files=files)


def shrink_one(sh: Shrinker, batch: Batch, outcome: Outcome, what: str, kind: str, verdict) -> dict:  # type: ignore[no-untyped-def]
    """Shrink one disagreement; returns what is known about it (and the minimal skills)."""
    if isinstance(verdict, SkillVerdict):
        target, call = verdict.skill, None
    else:
        target = next((s for s in batch.skills if s.call == verdict.call), batch.skills[0])
        call = (verdict.call, verdict.arguments)
    skills = list(batch.skills)
    # Repeatable? The same workspace again, the release's side compared.
    again = sh.outcome(skills, batch.calls())
    if what == "skill":
        before = next(v.theirs for v in outcome.skills if v.skill is target)
        after = next((v.theirs for v in again.skills if v.skill is target), None)
    else:
        before = verdict.theirs
        after = next((v.theirs for v in again.activations if v.call == verdict.call), None)
    if before != after:
        return {"deterministic": False, "what": what, "kind": kind, "first": before, "second": after}
    twins = [s for s in skills if s.folder == target.folder]
    if sh.still(twins, target, what, kind, call):
        skills = twins
    else:
        skills = _ddmin(skills, [target], lambda c: sh.still(c, target, what, kind, call))
    # Resource files, then the lines of SKILL.md.
    md_name = next(n for n in target.files if n.lower() == "skill.md" and "/" not in n)
    others = [n for n in target.files if n != md_name]

    def with_target(new: Skill) -> list[Skill]:
        return [new if s is target else s for s in skills]

    if others:
        def files_ok(kept: list[str]) -> bool:
            cand = replace(target, files={n: target.files[n] for n in [md_name, *kept]})
            return sh.still(with_target(cand), cand, what, kind, call)

        kept = _ddmin(others, [], files_ok)
        cand = replace(target, files={n: target.files[n] for n in [md_name, *kept]})
        if files_ok(kept):
            skills, target = with_target(cand), cand
    data = target.files[md_name]
    lines = data.split(b"\n")

    def lines_ok(kept: list[int]) -> bool:
        cand = _with_md(target, md_name, b"\n".join(lines[i] for i in kept))
        return sh.still(with_target(cand), cand, what, kind, call)

    kept_lines = _ddmin(list(range(len(lines))), [], lines_ok) if len(lines) > 1 else [0]
    if kept_lines != list(range(len(lines))) and lines_ok(kept_lines):
        cand = _with_md(target, md_name, b"\n".join(lines[i] for i in kept_lines))
        skills, target = with_target(cand), cand
    return {"deterministic": True, "what": what, "kind": kind, "skills": skills, "target": target, "call": call,
            "runs": sh.runs}


def _capture(pin: Pin, case: str) -> bool:
    proc = subprocess.run([sys.executable, "-m", "capture", "run", pin.harness, "--case", case], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    return proc.returncode == 0


def shrink_all(pin: Pin, seed: int, bad: list[tuple[Batch, Outcome]], limit: int, out: Path) -> list[dict]:
    """Shrink up to ``limit`` disagreements of distinct signatures; store each as a capture case."""

    every = list(layout.PROJECT_ROOT)
    done: set[str] = {p.name for p in CASES.iterdir()}
    # Kinds already stored for this release (an earlier run's shrinks) are not shrunk again.
    seen: set[str] = set()
    for data in (d for f in CASES.glob("*/finding.json") for d in layout.findings(f.parent)):
        if data.get("harness") == pin.label and data.get("signature"):
            seen.add(data["signature"])
    stored: list[dict] = []
    with tempfile.TemporaryDirectory(prefix=f"shrink-{pin.harness}-", dir="/tmp") as tmp_name:
        tmp = Path(tmp_name)
        names = baseline(pin.harness, pinned(pin), tmp)
        for batch, outcome in bad:
            for what, kind, verdict in outcome.disagreements():
                skill = verdict.skill if isinstance(verdict, SkillVerdict) else \
                    next((s for s in batch.skills if s.call == verdict.call), None)  # type: ignore[union-attr]
                sig = signature(what, kind, skill)
                if sig in seen or len(stored) >= limit:
                    continue
                seen.add(sig)
                sh = Shrinker(pin, tmp / f"{len(stored)}", names)
                got = shrink_one(sh, batch, outcome, what, kind, verdict)
                row = {"signature": sig, "batch": batch.name, "runs": sh.runs}
                if not got["deterministic"]:
                    row.update(nondeterministic=True, first=got["first"], second=got["second"])
                    stored.append(row)
                    print(f"{pin.label} {sig}: the release answered differently on a second run", file=sys.stderr)
                    continue
                target: Skill = got["target"]
                call = got["call"] or (target.call or target.folder.rsplit("/", 1)[-1], target.arguments)
                slug = "-".join(features(got["skills"], target)[:3]) or sig.split(":", 2)[2]
                slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in slug).strip("-").lower()[:40]
                case = f"gen-{pin.harness}-{what}-{kind}-{slug}"
                n = 2
                while case in done:
                    case = f"gen-{pin.harness}-{what}-{kind}-{slug}-{n}"
                    n += 1
                done.add(case)
                final = Shrinker(pin, tmp / f"{len(stored)}-final", names).outcome(got["skills"], [call])
                detail = _detail(final, what, target, call)
                about = f"Shrunk by the differential tester: {what} disagreement ({kind}) on {pin.label}."
                reason = f"{what} ({kind}): see finding.json and capture/diff/FINDINGS.md"
                write_case(batch, got["skills"], call, CASES / case, about, reason, every)
                (CASES / case / "finding.json").write_text(json.dumps(
                    {"harness": pin.label, "what": what, "kind": kind, "signature": sig,
                     "features": features(got["skills"], target),
                     **detail}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                ok = _capture(pin, case)
                row.update(case=case, captured=ok, detail=detail)
                stored.append(row)
                print(f"{pin.label} {sig}: stored as {case} ({sh.runs} runs)", file=sys.stderr)
    (out / f"{pin.label}-shrunk.json").write_text(json.dumps(stored, indent=1, ensure_ascii=False, default=str)
                                                  + "\n", encoding="utf-8")
    return stored


def _detail(o: Outcome, what: str, target: Skill, call: tuple[str, str]) -> dict:
    # Which stored comparisons fail (tests/engine/test_harness_captures.py expects exactly those to).
    parts = {"catalog": o.catalog_agrees, "activation": all(v.agrees for v in o.activations)}
    if what == "skill":
        v = next((v for v in o.skills if v.skill.folder == target.folder and v.skill.where == target.where), None)
        return {"agrees": parts, "release": v.theirs if v else None, "skill_lsp": v.mine if v else None}
    a: ActivationVerdict | None = next((v for v in o.activations if v.call == call[0]), None)
    return {"agrees": parts, "release": a.theirs if a else None, "skill_lsp": a.mine if a else None}


_INVISIBLE = {"\u200b": "zwsp", "\ufeff": "bom-char", "\u00a0": "nbsp", "\u2028": "line-sep", "\u2029": "para-sep",
              "\u0085": "nel", "\u200d": "zwj", "\t": "tab"}


def features(skills: list[Skill], target: Skill) -> list[str]:
    """What the minimal workspace still holds, in words, most telling first (names the case)."""
    out: list[str] = []
    md_name = next((n for n in target.files if n.lower() == "skill.md" and "/" not in n), "SKILL.md")
    data = target.files.get(md_name, b"")
    text = data.decode("utf-8", "replace")
    if data.startswith(b"\xef\xbb\xbf"):
        out.append("bom")
    if b"\r\n" in data:
        out.append("crlf")
    if target.link:
        out.append(f"link-{target.link}")
    if md_name != "SKILL.md":
        out.append(md_name.replace(".", "-"))
    if "/" in target.folder:
        out.append("nested")
    if len([s for s in skills if s.folder == target.folder]) > 1:
        out.append("same-name")
    if len(skills) > 3:
        out.append(f"{len(skills)}-skills")
    if not text.lstrip("\ufeff").startswith("---"):
        out.append("no-frontmatter")
    for line in text.split("\n"):
        key, _, value = line.partition(":")
        value = value.strip()
        if key in ("name", "description", "when_to_use", "disable-model-invocation", "user-invocable"):
            if value[:2] in ("|-", "|+", ">-", ">+") or value[:1] in ("|", ">"):
                out.append(f"{key}-block{value[:2].strip()}")
            elif value[:1] in ("'", '"'):
                out.append(f"{key}-quoted")
            elif value[:1] in ("[", "{") or value in ("true", "false", "yes", "no", "on", "~", "null") \
                    or value.replace(".", "").isdigit():
                out.append(f"{key}-{value[:8] or 'empty'}")
    for ch, word in _INVISIBLE.items():
        if ch in text:
            out.append(word)
    if any(ord(c) > 0xFFFF for c in text):
        out.append("astral")
    for ph in ("$ARGUMENTS[", "$ARGUMENTS", "${CLAUDE_SKILL_DIR}", "\\$"):
        if ph in text:
            out.append("placeholder")
            break
    if any(n.startswith(".") or "/." in n for n in target.files):
        out.append("hidden-files")
    if any("node_modules" in n for n in target.files):
        out.append("node_modules")
    if sum(1 for n in target.files if n.startswith("many/")) > 100:
        out.append("many-files")
    return [ "".join(c if c.isalnum() or c == "-" else "-" for c in f).strip("-").lower() for f in out]
