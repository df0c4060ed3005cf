"""The markdown-it-py path (used where pyromark has no wheel) finds the same links as pulldown-cmark."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import corpus
from skill_lsp.engine import _markdown_mdit, document, markdown

REPO = Path(__file__).resolve().parents[2]

CASES = [
    "See [a](references/a.md) and ![img](assets/x.png).\n",
    "`[not](code.md)` and [yes](yes.md \"title\") and [angle](<with space.md>)\n",
    "```\n[fenced](no.md)\n```\n\n    [indented](no.md)\n\n[after](ok.md)\n",
    "- item [one](one.md)\n  - nested [two](two.md)\n\n> quoted [three](three.md)\n",
    "[![badge](assets/b.svg)](references/r.md)\n",
    "[ref]: /abs/path.md\n\nUse [it][ref].\n",
    "| a | b |\n|---|---|\n| [cell](cell.md) | x |\n",
    "Unicode é😀 [ünï](dir/ü.md) and [p](x(1).md)\n",
    "[web](https://example.com) [anchor](#top) [mail](mailto:a@b.c) [abs](/etc/passwd)\n",
]


def keys(body: markdown.Body) -> list[tuple]:
    return sorted((link.kind, link.target, link.target_start, link.target_end)
                  for link in body.links if link.kind != "reference")


@pytest.mark.parametrize("text", CASES)
def test_fallback_finds_the_same_links_as_pulldown(text: str) -> None:
    assert keys(_markdown_mdit.parse(text, 7)) == keys(markdown._parse_pulldown(text, 7))


def test_parse_uses_the_fallback_when_pyromark_is_missing(monkeypatch) -> None:
    monkeypatch.setattr(markdown, "_pyromark", None)
    body = markdown.parse("# Title\n\n[a](a.md)\n", 0)
    assert [(link.kind, link.target) for link in body.links] == [("inline", "a.md")]
    assert [h.text for h in body.headings] == ["Title"]


def _bodies(root: Path, limit: int):
    n = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            if name == "SKILL.md":
                doc = document.parse(Path(dirpath, name).read_text(encoding="utf-8", errors="replace"), name)
                if doc.split.closed or not doc.split.has_frontmatter:
                    yield Path(dirpath, name), doc
                    n += 1
                    if n >= limit:
                        return


@pytest.mark.parametrize("root", ["sample-workspace", "corpus"])
def test_fallback_agrees_with_pulldown_on_real_skills(root: str) -> None:
    root = REPO / "sample-workspace" if root == "sample-workspace" else corpus()
    disagreements = []
    for path, doc in _bodies(root, 800):
        a = keys(markdown._parse_pulldown(doc.body_text, doc.body_start))
        b = keys(_markdown_mdit.parse(doc.body_text, doc.body_start))
        if a != b:
            disagreements.append(path)
    assert not disagreements, disagreements[:5]
