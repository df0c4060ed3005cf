"""Gemini CLI 0.61.0's own reading of a SKILL.md (engine/gemini_frontmatter.py).

Every expected value below is what the release's loader gave: ``FRONTMATTER_REGEX`` and
``parseFrontmatter`` of @google/gemini-cli-core 0.61.0 (dist/src/skills/skillLoader.js, js-yaml
4.1.1) run in node on the text, the name sanitized and the body trimmed as ``loadSkillFromFile``
does. ``None``: the regex finds no frontmatter; ``{"fm": None}``: no skill (no name or no
description). The last test runs the release itself on generated files when it is installed.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.gemini_frontmatter import read

CASES = [
    ("---\nname: a:b\ndescription: x: y\n---\nbody\n", {"name": "a-b", "description": "x: y", "body": "body"}),
    ("---\nname: 3\ndescription: d\n---\n", {"name": "3", "description": "d", "body": ""}),
    ("---\nname: plain\ndescription: >+\n  kept\n\n\n---\nBody\n", {"name": "plain", "description": "kept\n\n", "body": "Body"}),
    ("---\nname: plain\ndescription: |\n  clip\n---\nBody\n", {"name": "plain", "description": "clip\n", "body": "Body"}),
    ("---\nname: x\ndescription: a\u2028b\n---\nBody\n", {"name": "x", "description": "a\u2028b", "body": "Body"}),
    ("---\nname: x\ndescription: [a, b]\n---\nBody\n", {"name": "x", "description": "[a, b]", "body": "Body"}),
    ("---\nname: x\ndescription: [a, b]\nmore: a\u2028b\n---\nBody\n", {"name": "x", "description": "[a, b]", "body": "Body"}),
    ("---\nname: x\u2028y\ndescription: 2024-01-01\n---\n", {"fm": None}),
    ("---\nname:\tx\ndescription: a\tb\t\n---\nBody\n", {"name": "x", "description": "a\tb", "body": "Body"}),
    ("---\nname: x\ndescription: one\n  two\n\n  three\n---\n  Body  \n", {"name": "x", "description": "one two\nthree", "body": "Body"}),
    ("---\nname: x\ndescription: one\ndescription: two\n---\n", {"name": "x", "description": "two", "body": ""}),
    ("---\nname: x\ndescription: d\n--- \nBody\n", {"name": "x", "description": "d", "body": ""}),
    ("---\nname: x\ndescription: d\n---x\nBody\n", {"name": "x", "description": "d", "body": ""}),
    ("--- \nname: x\ndescription: d\n---\nBody\n", None),
    ("\ufeff---\nname: x\ndescription: d\n---\nBody\n", None),
    ("---\r\nname: x\r\ndescription: d\r\n---\r\nBody\r\n", {"name": "x", "description": "d", "body": "Body"}),
    ("---\nname: x\ndescription: 'a \n  b'\n---\n", {"name": "x", "description": "a  b", "body": ""}),
    ("---\nname: x\ndescription: d\nmeta: !foo y\n---\n", {"name": "x", "description": "d", "body": ""}),
    ("---\nname: x\ndescription: d\n...\nmore: y\n---\n", {"name": "x", "description": "d", "body": ""}),
    ("---\n<<: {name: m}\ndescription: d\n---\n", {"name": "m", "description": "d", "body": ""}),
    ("---\nname: x\ndescription: \"r\u007fd\"\n---\n", {"name": "x", "description": "r\u007fd", "body": ""}),
    ("---\nname: ~\ndescription: null\n---\n", {"name": "~", "description": "null", "body": ""}),
    ("---\nname: 0b101\ndescription: 1_000\n---\n", {"name": "0b101", "description": "1_000", "body": ""}),
    ("---\nname: x\ndescription: yes\n---\n", {"name": "x", "description": "yes", "body": ""}),
    ("---\nname: x\ndescription: |+\n  keep\n\t\n\nother: y\n---\n", {"name": "x", "description": "keep\n", "body": ""}),
    ("---\n  name:   padded  \n\tdescription:\u3000d\u3000\n---\n", {"name": "padded", "description": "d", "body": ""}),
    ("---\nname: x\ndescription: !!int 3\n---\n", {"name": "x", "description": "!!int 3", "body": ""}),
    ("---\nname: 'q'\ndescription: d\nbad: [\n---\n", {"name": "'q'", "description": "d", "body": ""}),
    ("---\nname: a\ndescription: one\n  name: b\n---\n", {"name": "a", "description": "one name: b", "body": ""}),
    ("---\nname: A/B?\ndescription: d\n---\n\n\n  Body \ufeff\n", {"name": "A-B-", "description": "d", "body": "Body"}),
]


def _mine(text: str, doc: document.SkillDocument | None = None) -> dict | None:
    got = read(text, doc)
    if not got.block:
        return None
    if not got.skill:
        return {"fm": None}
    return {"name": got.listed_name, "description": got.description, "body": got.body}


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_read_as_the_release_reads(text, expected):
    assert _mine(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_skill_lsp_parse_stands_in_only_where_it_agrees(text, expected):
    # The fast path (skill-lsp's own parse of the same block) gives the same reading.
    assert _mine(text, document.parse(text, "/ws/x/SKILL.md")) == expected


_LOADER = (Path.home() / ".cache/skill-lsp/harness/gemini@0.61.0/node_modules/@google/gemini-cli-core/dist/src/"
           "skills/skillLoader.js")
_ORACLE = """
for (const k of ["log", "debug", "info", "warn", "error"]) console[k] = () => {};
const { FRONTMATTER_REGEX, parseFrontmatter } = await import(process.argv[1]);
let data = ""; process.stdin.setEncoding("utf8"); for await (const c of process.stdin) data += c;
process.stdout.write(JSON.stringify(JSON.parse(data).map((content) => {
  const match = content.match(FRONTMATTER_REGEX);
  if (!match) return null;
  const fm = parseFrontmatter(match[1]);
  if (!fm) return { fm: null };
  return { name: fm.name.replace(/[:\\\\/<>*?"|]/g, "-"), description: fm.description, body: match[2]?.trim() ?? "" };
})));
"""


def _generated(seed: int, n: int) -> list[str]:
    from capture.diff import grammar  # noqa: PLC0415

    r = random.Random(seed)
    out = []
    for _ in range(n):
        text = grammar.skill_md(r, grammar._word_name(r))[0].decode("utf-8", "replace")
        if r.random() < 0.3:  # a tab, a line separator or a kept block where the release reads them
            lines = text.split("\n")
            at = r.randrange(1, max(2, min(len(lines), 6)))
            lines.insert(at, r.choice(["other:\tx\ty", "x: a\u2028b", "y: |+\n  keep\n", "name: n\u2029",
                                       "description: 'a \n  b'", "z: 2024-01-01"]))
            text = "\n".join(lines)
        out.append(text)
    return out


def test_generated_files_read_as_the_release_reads_them():
    node = shutil.which("node")
    if node is None or not _LOADER.is_file():
        pytest.skip("node or the pinned gemini-cli-core release (python -m capture install) is missing")
    texts = _generated(20260, 400)
    proc = subprocess.run([node, "--input-type=module", "-e", _ORACLE, str(_LOADER)], input=json.dumps(texts),
                          capture_output=True, text=True, check=True, timeout=120)
    expected = json.loads(proc.stdout)
    differ = [(t, e) for t, e in zip(texts, expected, strict=True) if _mine(t) != e]
    assert not differ, differ[:3]
