"""OpenCode 1.18.33's own reading of a SKILL.md (engine/opencode_frontmatter.py).

Every expected value below is what the release's reader gave: ``ConfigMarkdown.parse`` and
``sanitize`` copied from the 1.18.33 bundle, run in node with gray-matter 4.0.3 and js-yaml 3
(``safeLoad``) on the text. ``None``: no skill (the YAML failed twice, or `name` is not a string,
or `description` is given and not a string). The last test compares with that reader on generated
files when /tmp/ocjs holds it (``npm install js-yaml@3 gray-matter`` and its oracle.mjs).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.opencode_frontmatter import read, sanitize

CASES = [
    ("\ufeff---\nname: a\ndescription: x: y\n---\n", None),
    ("---\nname: a\ndescription: Use when: x\n---\nbody\n", {'name': 'a', 'description': 'Use when: x', 'content': 'body\n'}),
    ("---\nname: a\ndescription: b: c\nwhen-to-use: x: y\n---\n", None),
    ("---\nname: a\ndescription: 'b: c'\n---\n", {'name': 'a', 'description': 'b: c', 'content': ''}),
    ("---\nname: a\n  description: b: c\n---\n", None),
    ("---\nname: a\ndescription: 2024-01-01\n---\n", None),
    ("---\nname: a\ndescription: 012\n---\n", None),
    ("---\nname: a\ndescription: 08\n---\n", {'name': 'a', 'description': '08', 'content': ''}),
    ("---\nname: a\ndescription: 1:30\n---\n", None),
    ("---\nname: a\ndescription: 0o7\n---\n", {'name': 'a', 'description': '0o7', 'content': ''}),
    ("---\nname: a\n---\nbody", {'name': 'a', 'description': None, 'content': 'body'}),
    ("---\nname: a\ndescription: d\nmetadata:\n\tauthor: x\n---\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---\n\tname: a\ndescription: d\n---\n", None),
    ("---\nname: a\ndescription: d\nmetadata:\n\tdescription: x\n---\n", None),
    ("---\n  name: a\ndescription: d\n---\n", None),
    ("---\nname: a\ndescription: \"d\" other: y\n---\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---\nname: a\ndescription: x\tb\n---\n", {'name': 'a', 'description': 'x\tb', 'content': ''}),
    ("---\nname: a\ndescription: |+\n  keep\n\n---\nBody\n", {'name': 'a', 'description': 'keep\n', 'content': 'Body\n'}),
    ("---\nname: a\ndescription: d\n----\nBody\n", {'name': 'a', 'description': 'd', 'content': '-\nBody\n'}),
    ("---\nname: a\ndescription: d\n---x\r\nBody\n", {'name': 'a', 'description': 'd', 'content': 'x\r\nBody\n'}),
    ("---\nname: a\ndescription: d\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---yaml\nname: a\ndescription: d\n---\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---coffee\nname: a\ndescription: d\n---\n", None),
    ("\ufeff---\nname: a\ndescription: d\n---\nB\n", {'name': 'a', 'description': 'd', 'content': 'B\n'}),
    ("---\r\nname: a\r\ndescription: x: y\r\n---\r\nBody\r\n", {'name': 'a', 'description': 'x: y', 'content': 'Body\r\n'}),
    ("---\nname: a\ndescription: d\n...\n---\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---\nname: a\ndescription: d\n# only\n---\n", {'name': 'a', 'description': 'd', 'content': ''}),
    ("---\n# only a comment\n---\nBody\n", None),
    ("---\nname: 12\ndescription: d\n---\n", None),
    ("---\nname: a\ndescription: [x]\n---\n", None),
    ("---\nname: a\nname: b\ndescription: d\n---\n", None),
    ("---\nname: a\ndescription: x: y\nname: b\n---\n", None),
    ("----\nname: a\ndescription: d\n---\n", None),
]


def _mine(text: str, doc: document.SkillDocument | None = None) -> dict | None:
    got = read(text, doc)
    if not got.skill:
        return None
    return {"name": got.name, "description": got.description, "content": got.content}


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads_as_the_release(text: str, expected: dict | None) -> None:
    assert _mine(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_fast_path_agrees(text: str, expected: dict | None) -> None:
    """skill-lsp's own parse, where it stands for js-yaml 3's, gives the same reading."""
    assert _mine(text, document.parse(text, "/x/a/SKILL.md")) == expected


def test_a_byte_order_mark_kept_apart_still_stops_the_retry() -> None:
    from skill_lsp.engine.opencode_frontmatter import read_document

    doc = document.parse("\ufeff---\nname: a\ndescription: x: y\n---\n", "/x/a/SKILL.md")
    assert doc.bom and not read_document(doc).skill
    doc = document.parse("---\nname: a\ndescription: x: y\n---\n", "/x/a/SKILL.md")
    assert read_document(doc).description == "x: y"


def test_sanitize_rewrites_plain_values_holding_a_colon() -> None:
    text = "---\nname: a\ndescription: Use when: x\nwhen-to-use: a: b\nquoted: 'a: b'\n  deep: a: b\n---\nBody: x\n"
    assert sanitize(text) == ("---\nname: a\ndescription: |-\n  Use when: x\nwhen-to-use: a: b\nquoted: 'a: b'\n"
                              "  deep: a: b\n---\nBody: x\n")
    assert sanitize("\ufeff---\nname: a: b\n---\n") == "\ufeff---\nname: a: b\n---\n"


_ORACLE = Path("/tmp/ocjs/oracle.mjs")


@pytest.mark.skipif(not _ORACLE.exists() or shutil.which("node") is None, reason="the node reader is not installed")
def test_generated_against_the_release_reader() -> None:
    rng = random.Random(5)
    keys = ["name", "description", "description", "when-to-use", "metadata", "x_1"]
    values = ["a: b", "Use when: x", "plain", "'q: x'", "\"d\" k: v", "012", "1:30", "08", "2024-01-01", "x\tb", "|-\n  lit: x",
              "a #c: d", "[a, b]", "~", "true"]
    texts = []
    for _ in range(400):
        lines = [rng.choice(["", "", " ", "\t"]) + rng.choice(keys) + rng.choice([": ", ":", ":\t"]) + rng.choice(values)
                 for _ in range(rng.randint(1, 4))]
        texts.append("---\n" + "\n".join(lines) + rng.choice(["\n---\nBody\n", "\n---", "\n"]))
    proc = subprocess.run(["node", str(_ORACLE)], input=json.dumps(texts), capture_output=True, text=True,
                          check=True, timeout=120)
    for text, theirs in zip(texts, json.loads(proc.stdout), strict=True):
        expected = None
        if theirs["ok"] and theirs["skill"]:
            d = theirs["description"]
            expected = {"name": theirs["name"], "description": None if d == "undefined" else d,
                        "content": theirs["content"]}
        assert _mine(text) == expected, text
