"""skill-lsp rejects a frontmatter exactly when PyYAML and js-yaml both reject it.

The YAML parsers harnesses load SKILL.md with are PyYAML (``yaml.safe_load``,
Python harnesses) and js-yaml (``load``; Gemini CLI's skill loader imports it).
For every frontmatter of the real corpus (when present) and a generated table of
flow collections, the two verdicts are compared with skill-lsp's: where both
parse, skill-lsp must report no INVALID_FRONTMATTER; where both fail, it must.
Where the two disagree either answer is defensible and nothing is asserted.

js-yaml is installed outside the clone (pinned to the release Gemini CLI ships):
    npm install --prefix "${SKILL_LSP_CACHE:-$HOME/.cache/skill-lsp}/js-yaml@4.1.1" js-yaml@4.1.1
Without it the test skips locally and fails under CI=true.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

import helpers
from skill_lsp.engine.document import parse

JS_YAML = "js-yaml@4.1.1"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _js_yaml_dir() -> Path | None:
    cache = Path(os.environ.get("SKILL_LSP_CACHE") or Path.home() / ".cache" / "skill-lsp")
    where = cache / JS_YAML
    if shutil.which("node") and (where / "node_modules" / "js-yaml" / "package.json").is_file():
        return where
    return None


@pytest.fixture(scope="module")
def js_yaml() -> Path:
    where = _js_yaml_dir()
    helpers.require(where, f"node and {JS_YAML}", "see this module's docstring for the install line")
    assert where is not None
    return where


def js_verdicts(where: Path, texts: list[str]) -> list[bool]:
    out = subprocess.run(
        ["node", str(HERE / "differential" / "yaml_verdicts.cjs"), str(where)],
        input=json.dumps(texts), capture_output=True, text=True, encoding="utf-8", check=True, timeout=300,
    ).stdout
    return [v == "ok" for v in json.loads(out)]


def py_verdict(text: str) -> bool:
    try:
        yaml.safe_load(text)
    except Exception:  # any failure: the harness would not load the skill
        return False
    return True


def lsp_verdict(text: str) -> bool:
    """True when skill-lsp reads ``---\\n<text>---`` as loadable: no YAML error, and
    no unknown tag (YAML_TAG) or duplicate key (DUPLICATE_KEY), which the
    harness parsers refuse when they construct the values."""
    doc = parse(f"---\n{text}---\nbody\n", "/x/SKILL.md")
    if doc.yaml_error is not None:
        return doc.yaml_error.limit
    return not doc.tagged and not doc.duplicates


def disagreements(where: Path, texts: list[str]) -> tuple[list[str], list[str], int]:
    """(false rejections, missed rejections, cases where PyYAML and js-yaml disagree)."""
    js = js_verdicts(where, texts)
    false_reject, missed, split = [], [], 0
    for text, js_ok in zip(texts, js, strict=True):
        py_ok = py_verdict(text)
        if py_ok != js_ok:
            split += 1
            continue
        ours = lsp_verdict(text)
        if py_ok and not ours:
            false_reject.append(text)
        elif not py_ok and ours:
            missed.append(text)
    return false_reject, missed, split


# Flow collections whose plain scalars hold ':' -- the shapes libyaml 0.1 rejected.
KNOWN = [
    "links: [http://example.com]\n",
    "tags: [a:b]\n",
    "x: {k: a:b}\n",
    "x: {a:b}\n",
    "x: [a, b:c, d]\n",
    "x: [a:]\n",
    "x: [a: b]\n",
    "x: [:a]\n",
]


def test_flow_scalars_with_colons_parse():
    for text in KNOWN[:5]:
        assert lsp_verdict(text), text
    assert not lsp_verdict("a: b: c\n")  # a real error stays one


_PIECES = ["a", "b:c", "http://x.y/z", ":", ": ", "a:", ":a", ",", ", ", " ", "[", "]", "{", "}",
           "'q'", '"d"', "-", "- ", "#", " #c", "?", "? ", "k: v", "&x ", "*x", "!", "|", "@", "%"]


def generated_cases(count: int = 4000, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        opener, closer = rng.choice([("[", "]"), ("{", "}")])
        inner = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 6)))
        close = closer if rng.random() < 0.9 else ""
        cases.append(f"key: {opener}{inner}{close}\nname: n\n")
    return cases


def test_generated_flow_collections_agree(js_yaml):
    cases = generated_cases()
    false_reject, missed, split = disagreements(js_yaml, cases)
    assert false_reject == []
    assert missed == []
    assert split < len(cases)  # most cases are decided by both parsers


def _frontmatters(corpus: Path) -> list[str]:
    texts = []
    for path in sorted(corpus.rglob("SKILL.md")):
        doc = parse(path.read_bytes().decode("utf-8", "replace"), str(path))
        sp = doc.split
        if sp is not None and sp.has_frontmatter and sp.closed:
            texts.append(doc.src.text[sp.yaml_start:sp.yaml_end])
    return texts


def test_corpus_frontmatters_agree(js_yaml):
    corpus = helpers.corpus()  # skips, or fails under CI=true, without one
    texts = _frontmatters(corpus)
    assert len(texts) > 1000
    false_reject, missed, _split = disagreements(js_yaml, texts)
    assert false_reject == []
    assert missed == []
