"""``python -m capture diff``: generate, run in batches, compare, count; shrink and store on request."""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from skill_lsp.capture import drivers

from ..drivers import pinned
from ..install import Pin, ensure, pins
from . import grammar
from .compare import Outcome, dump, run_batch

#: Skills per catalog: under every budget (Claude Code's is reached near 40 skills of 300
#: characters with its built-ins), so one skill's entry does not depend on the others.
BATCH_SIZE = {"claude-code": 24, "codex": 24, "opencode": 80, "gemini": 40, "copilot": 18}
#: Activations per run at most (OpenCode takes about 20 s to start, then ~0.3 s per call).
MAX_ACTIVATIONS = {"opencode": 40}
#: Batches that run past the listing budgets, per this many ordinary ones.
BUDGET_EVERY = 12


def baseline(harness: str, argv: list[str], tmp: Path) -> dict[str, int] | None:
    """Built-in skill names and their entries' sizes, from a run on a workspace with no skills of its
    own (Claude Code)."""
    if harness != "claude-code":
        return {}
    from .workspace import lay_out  # noqa: PLC0415

    ws, home = lay_out([], tmp / "baseline")
    got = drivers.run(harness, argv, ws, home, [("capture-missing-skill", "")], None)
    return {b["name"]: b["entry_chars"] for b in got.builtins}


class Tally:
    def __init__(self) -> None:
        self.skills = self.skills_ok = self.acts = self.acts_ok = self.catalogs = self.catalogs_ok = 0
        self.batches = self.errors = self.nondeterministic = 0
        self.kinds: Counter[str] = Counter()
        self.tags: Counter[str] = Counter()
        self.seconds = 0.0

    def add(self, o: Outcome) -> None:
        self.batches += 1
        if o.error:
            self.errors += 1
            return
        self.catalogs += 1
        self.catalogs_ok += o.catalog_agrees
        self.skills += len(o.skills)
        # A skill the release decides differently from run to run (documented) counts as agreeing:
        # the figures stay the same from run to run; how many there were is reported beside them.
        self.skills_ok += sum(v.agrees or v.nondeterministic for v in o.skills)
        self.nondeterministic += sum(v.nondeterministic for v in o.skills)
        self.nondeterministic += sum(v.nondeterministic for v in o.activations)
        self.acts += len(o.activations)
        self.acts_ok += sum(v.agrees or v.nondeterministic for v in o.activations)
        for what, kind, v in o.disagreements():
            self.kinds[f"{what}:{kind}"] += 1
            for t in getattr(getattr(v, "skill", None), "tags", ()):
                self.tags[t.split(":", 1)[0] if t.startswith(("placeholder", "arguments")) else t] += 1

    def as_dict(self) -> dict:
        return {"batches": self.batches, "errors": self.errors, "catalogs": self.catalogs,
                "catalogs_agree": self.catalogs_ok, "skills": self.skills, "skills_agree": self.skills_ok,
                "activations": self.acts, "activations_agree": self.acts_ok, "seconds": round(self.seconds),
                "nondeterministic": self.nondeterministic,
                "disagreements": dict(self.kinds.most_common()), "tags": dict(self.tags.most_common(40))}


def run_harness(pin: Pin, seed: int, skills: int, out: Path, *, size: int | None = None,
                every: list[tuple[grammar.Batch, Outcome]] | None = None,
                quiet: bool = False, real: list[Path] | None = None) -> tuple[Tally, list[tuple[grammar.Batch, Outcome]]]:
    """Run ``skills`` generated skills on ``pin`` in batches (``real``: skills drawn from these
    repositories instead); the tally and the batches that disagree (``every`` receives every batch)."""
    argv = pinned(pin)
    size = size or BATCH_SIZE[pin.harness]
    tally = Tally()
    bad: list[tuple[grammar.Batch, Outcome]] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"diff-{pin.harness}-", dir="/tmp") as tmp_name:
        tmp = Path(tmp_name)
        names = baseline(pin.harness, argv, tmp)
        for b in _batches(pin.harness, seed, skills, size, real):
            t0 = time.monotonic()
            calls = b.calls()[: MAX_ACTIVATIONS.get(pin.harness)]
            o = run_batch(pin.harness, argv, b.skills, calls, tmp / b.name, names)
            tally.add(o)
            if every is not None:
                every.append((b, o))
            if o.error or o.disagreements() or not o.catalog_agrees:
                bad.append((b, o))
                dump(o, out / pin.label / f"{b.name}.json")
            if not quiet:
                print(f"{pin.label} {b.name}: {len(o.skills)} skills, "
                      f"{sum(v.agrees or v.nondeterministic for v in o.skills)} agree; {len(o.activations)} "
                      f"activations, {sum(v.agrees or v.nondeterministic for v in o.activations)} agree"
                      f"{'' if o.catalog_agrees or o.error else '; the whole catalog differs'}"
                      f"{'; ERROR ' + o.error[:200] if o.error else ''} ({time.monotonic() - t0:.1f}s)",
                      file=sys.stderr)
    tally.seconds = time.monotonic() - started
    return tally, bad


def _batches(harness: str, seed: int, skills: int, size: int, real: list[Path] | None) -> Iterator[grammar.Batch]:
    if real:
        from .real import batches  # noqa: PLC0415

        yield from batches(real, harness, seed, skills, size)
        return
    for index in range(math.ceil(skills / size)):
        over = index % BUDGET_EVERY == BUDGET_EVERY - 1
        yield grammar.batch(seed, harness, index, size * (3 if over else 1), over_budget=over)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m capture diff")
    parser.add_argument("harness", nargs="*", help="default: every pinned harness")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skills", type=int, default=200, help="generated skills per harness (default 200)")
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--out", type=Path, default=Path("/tmp/capture-diff"))
    parser.add_argument("--shrink", type=int, default=0, metavar="N",
                        help="shrink up to N disagreements per harness and store them as capture cases")
    parser.add_argument("--report", action="store_true", help="write the agreement section of docs/harnesses.md")
    parser.add_argument("--report-heldout", action="store_true",
                        help="write this run's figures as the held-out seed's (one never run while the engine was "
                             "fixed) in the same section")
    parser.add_argument("--real", type=Path, nargs="+", default=None, metavar="REPO",
                        help="real skills drawn from these repository checkouts instead of generated ones "
                             "(--skills of them per harness, --seed draws them)")
    parser.add_argument("--plugins", type=Path, nargs="+", default=None, metavar="REPO",
                        help="load each Claude Code plugin of these checkouts (at most --skills of them, drawn by "
                             "--seed) and each folder with .claude/commands in the release, and compare what it lists "
                             "with `skill-lsp catalog` (capture/diff/plugins.py)")
    parser.add_argument("--pins", type=Path, default=None, help="another pins.toml (capture newer)")
    parser.add_argument("--expect", type=Path, default=None, metavar="JSON",
                        help="exit 1 when fewer skills, activations or catalogs agree than this summary says "
                             "(.ci/run: capture/diff/ci-sample.json)")
    parser.add_argument("--recheck", action="store_true",
                        help="compare the stored disagreements with today's engine (no release is run) and unmark "
                             "those that agree now")
    parser.add_argument("--findings", action="store_true",
                        help="rewrite the case list of capture/diff/FINDINGS.md from the stored cases")
    parser.add_argument("--probe", choices=("arguments", "plugin", "plugin-names", "plugin-layouts", "commands", "paths", "joiners", "unknown-names"), help="run a probe and print what the release did")
    parser.add_argument("--write", action="store_true", help="with --probe: store the release's answers")
    args = parser.parse_args(argv)
    if args.probe:
        from .probes import (  # noqa: PLC0415
            arguments_probe,
            commands_probe,
            joiners_probe,
            paths_probe,
            plugin_layouts_probe,
            plugin_names_probe,
            plugin_probe,
            unknown_names_probe,
        )

        probe = {"arguments": arguments_probe, "plugin": plugin_probe, "plugin-names": plugin_names_probe,
                 "plugin-layouts": plugin_layouts_probe,
                 "commands": commands_probe, "paths": paths_probe, "joiners": joiners_probe,
                 "unknown-names": unknown_names_probe}[args.probe]
        return probe(args.write)
    if args.plugins:
        from .plugins import run as run_plugins  # noqa: PLC0415

        return run_plugins(args.plugins, args.out, args.seed, args.skills)
    if args.findings:
        from .findings import write  # noqa: PLC0415

        return write()
    if args.recheck:
        from .recheck import recheck  # noqa: PLC0415

        return recheck()
    all_pins = pins(args.pins) if args.pins else pins()
    chosen = args.harness or list(all_pins)
    summary: dict[str, dict] = {}
    for h in chosen:
        pin = all_pins[h]
        ensure(pin)
        tally, bad = run_harness(pin, args.seed, args.skills, args.out, size=args.batch_size, real=args.real)
        summary[pin.label] = {"seed": args.seed, **({"real": len(args.real)} if args.real else {}),
                              **tally.as_dict()}
        print(f"{pin.label}: skills {tally.skills_ok}/{tally.skills} agree, activations "
              f"{tally.acts_ok}/{tally.acts} agree, catalogs {tally.catalogs_ok}/{tally.catalogs} "
              f"({tally.seconds:.0f}s)", file=sys.stderr)
        if args.shrink and bad:
            from .shrink import shrink_all  # noqa: PLC0415

            summary[pin.label]["stored"] = shrink_all(pin, args.seed, bad, args.shrink, args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=1))
    if args.report or args.report_heldout:
        from .report import write_report  # noqa: PLC0415

        write_report(summary, args, heldout=args.report_heldout)
    return check_expected(summary, args.expect) if args.expect else 0


def check_expected(summary: dict[str, dict], path: Path) -> int:
    """Fewer agreements than recorded is a regression (exit 1); more is reported, to record."""
    expected = json.loads(path.read_text(encoding="utf-8"))
    status = 0
    for label, got in summary.items():
        want = expected.get(label)
        if want is None:
            print(f"capture diff: {label}: no expected figures in {path}", file=sys.stderr)
            status = 1
            continue
        for key in ("skills", "activations", "catalogs"):
            have, had = got[f"{key}_agree"], want[f"{key}_agree"]
            if got[key] != want[key] or have < had:
                print(f"capture diff: {label}: {key} agreeing {have}/{got[key]}, expected {had}/{want[key]}",
                      file=sys.stderr)
                status = 1
            elif have > had:
                print(f"capture diff: {label}: {key} agreeing {have}/{got[key]}, more than the {had} recorded: "
                      f"update {path}", file=sys.stderr)
    return status
