"""Probes: one rule of a release asked many times in one run, its answers stored for the tests.

``python -m capture diff --probe arguments`` activates one skill per argument string on the
pinned Claude Code (every placeholder form in the body), stores what the release sent under
tests/golden/probes/claude-code@<version>/arguments.json, and prints where skill-lsp's
substitution differs. tests/engine/test_claude_code_arguments.py compares skill-lsp with the
stored answers, so a change to the splitting is checked against the release without running it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from skill_lsp.capture import drivers

from ..drivers import pinned
from ..install import pins
from ..layout import REPO
from .grammar import Skill
from .workspace import lay_out

PROBES = REPO / "tests" / "golden" / "probes"

BODY = ("0=[$0] 1=[$1] 2=[$2] A0=[$ARGUMENTS[0]] A1=[$ARGUMENTS[1]] ALL=[$ARGUMENTS] X=[$1x] T=[$10] "
        "U=[$1_] D=[$1-] AX=[$ARGUMENTS[0]x] AW=[$ARGUMENTSx] Z=[$0a] E=[\\$1]\n")
ARGUMENTS = [
    "one two", '"a b" c', "'a b' c", 'a "b', "a 'b", "$HOME x", "${HOME}", "a;b", "a | b", "a && b", "*.md",
    "a\\ b", "a  b", " lead", "trail ", "a\tb", "x=1 y=2", "$1", "$ARGUMENTS", "(a) [b]", "`cmd`", "$(date)",
    'a\\"b', '""', "''", "a#b", "~/x", "a # b", "a>b c", "a<b", "a>>b", "a 2>&1 b", "{a,b}", "a=$b", '"$HOME"',
    "'$HOME'", "a\\nb", "!x y", 'a"b"c d', "x'y'z w", "a!b c", "x !y", "a ! b", "(a b) c", "; a b", "a; b c",
    "a 2> b", "a & b", "a || b", "a |& b", "x `y` z", "`y`z w", "a`b` c", "a\\!b", "a <(b) c", "a >& b", "&& a",
    "a ;; b", "!", "a\n b", "\u00e9 \u00fc", "\U0001f600 smile", "a $(x y) b", "", "--flag=x y",
    # command substitution with $( ): where it opens a word, and what follows it
    "a $(x) b", "$(x y)", "$(x y) b", "a $(x y)", "a b $(x y) c", "a$(x y) b", "$(x) y", 'a "$(x y)" b',
    "a $((1 + 2)) b", "a ${X} b", "a $(x", "a $x) b", "a $HOME b", "a ${X}y b", "a y${X} b", "a $((1))x b",
    "a b) c", "$x) b",
]


def arguments_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    skills = [Skill("ws", ".claude/skills", f"p{i:02d}",
                    {"SKILL.md": f"---\nname: p{i:02d}\ndescription: argument probe\n---\n{BODY}".encode()},
                    None, f"p{i:02d}", a) for i, a in enumerate(ARGUMENTS)]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = lay_out(skills, Path(tmp) / "p")
        got = drivers.run("claude-code", pinned(pin), ws, home, [(s.folder, s.arguments) for s in skills], set())
    from skill_lsp.engine.render.claude_code import substitute  # noqa: PLC0415

    rows = []
    differ = 0
    for a, act in zip(ARGUMENTS, got.activations, strict=True):
        text = act.text or ""
        body = text.split("\n\n", 1)[1] if "\n\n" in text else text
        mine = substitute(BODY, a, "/x")
        if body != mine:
            differ += 1
            print(f"{a!r}:\n  release:   {body!r}\n  skill-lsp: {mine!r}", file=sys.stderr)
        rows.append({"arguments": a, "release": body})
    print(f"arguments probe: {differ} of {len(rows)} differ", file=sys.stderr)
    if write:
        dest = PROBES / pin.label / "arguments.json"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps({"body": BODY, "note": "what Claude Code sent for BODY activated with each "
                                    "argument string (python -m capture diff --probe arguments)", "rows": rows},
                                   indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0
