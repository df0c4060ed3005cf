"""Whether the harnesses that read a frontmatter again after their YAML parser refuses it read a
value holding an unquoted ': ' as its author wrote it.

`description: Use it: when asked` is invalid YAML. Claude Code quotes such values and parses once
more, Codex does the same line by line, OpenCode makes each of them a block scalar, and Gemini CLI
reads `key: value` lines: each lists `Use it: when asked` (capture case invalid-yaml-kinds). Not
always: another problem in the block, a value their rewriting breaks (a quote or a `#` inside it),
or a key their line reader does not take makes one of them read something else, or nothing. The
readers modelled on each release (claude_frontmatter, codex_frontmatter through yamlreads,
opencode_frontmatter, gemini_frontmatter; the differential tester holds them to the releases)
answer for the document at hand.

Asked only for a frontmatter whose YAML failed on an unquoted ': ', so it imports its readers then.
"""

from __future__ import annotations

import json

from .document import SkillDocument, parse

_FIELDS = ("name", "description")


def meant(doc: SkillDocument, values: list[tuple[int, int, str]]) -> dict[str, object] | None:
    """`name` and `description` as the author meant them: the frontmatter read with each of
    ``values`` ((start, end, text) of a plain value holding ': ') quoted; None when that does not
    make it valid YAML (another problem remains)."""
    text = doc.text
    for start, end, value in sorted(values, reverse=True):
        text = text[:start] + json.dumps(value, ensure_ascii=False) + text[end:]
    again = parse(text, doc.path, doc.decode_issue)
    if not again.frontmatter_ok:
        return None
    return {key: again.value(key) for key in _FIELDS}


def read_as_written(doc: SkillDocument, values: list[tuple[int, int, str]]) -> bool:
    """Whether Claude Code, Codex, OpenCode and Gemini CLI each list the skill with the `name` and
    `description` ``meant`` gives, but for blanks around them (Claude Code quotes a value with the
    spaces after it)."""
    want = meant(doc, values)
    if want is None:
        return False
    from . import claude_frontmatter, gemini_frontmatter, opencode_frontmatter, yamlreads  # noqa: PLC0415
    from .harness import HARNESSES  # noqa: PLC0415

    claude = claude_frontmatter.read(doc.text)
    codex = yamlreads.read_by(doc, HARNESSES["codex"])
    opencode = opencode_frontmatter.read_document(doc)
    gemini = gemini_frontmatter.read_document(doc)
    reads = [
        (claude.fields.get("name"), claude.fields.get("description")) if claude.parsed else None,
        (codex.value("name"), codex.value("description")) if codex.frontmatter_ok else None,
        (opencode.name, opencode.description),
        (gemini.name, gemini.description) if gemini.skill else None,
    ]
    meant_pair = (_trimmed(want["name"]), _trimmed(want["description"]))
    return all(r is not None and (_trimmed(r[0]), _trimmed(r[1])) == meant_pair for r in reads)


def _trimmed(value: object) -> object:
    return value.strip() if isinstance(value, str) else value
