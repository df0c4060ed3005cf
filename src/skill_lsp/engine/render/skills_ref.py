"""A skill as skills-ref 0.1.1 reads it for `to-prompt` (``skills_ref.parser.read_properties``).

`to-prompt` lists every skill folder it is given whose SKILL.md (or skill.md) ``read_properties``
accepts, under the name and description it reads; on any other it raises, and the whole
command fails. What it reads is not what a YAML parser reads:

- the file is decoded as strict UTF-8 with universal newlines (a bad byte is a traceback, a
  BOM means "no frontmatter");
- the frontmatter is ``text.split("---", 2)[1]``: it ends at the first ``---`` anywhere,
  even inside a value;
- strictyaml rejects flow collections (``[a, b]``), anchors, aliases, tags and duplicate
  keys, and gives every scalar as the text written (``name: 123`` is ``"123"``);
- ``name`` and ``description`` must be non-empty strings after ``strip()``; nothing else is
  checked (not the name's charset, nor the folder, nor unknown fields).

tests/engine/test_catalog_references.py compares this with skills-ref itself on a generated
set of odd skills.
"""

from __future__ import annotations

import os

from ..datarecord import datarecord
from ..discovery import ReadError, read_skill_file
from ..yamlnodes import Node, compose

__all__ = ["RefSkill", "read_skill"]


@datarecord(frozen=True, slots=True)
class RefSkill:
    name: str | None  # as to-prompt prints it (stripped, not yet escaped); None when it fails
    description: str | None
    location: str | None  # the SKILL.md path to-prompt prints
    error: str | None  # why read_properties fails (skills-ref's own message where it has one)


def _fail(message: str) -> RefSkill:
    return RefSkill(None, None, None, message)


def find_skill_md(skill_dir: str) -> str | None:
    for name in ("SKILL.md", "skill.md"):
        path = os.path.join(skill_dir, name)
        if os.path.exists(path):
            return path
    return None


def read_skill(skill_dir: str) -> RefSkill:
    """``read_properties`` of the folder ``skill_dir``, and the location to-prompt prints."""
    resolved = os.path.realpath(skill_dir)
    path = find_skill_md(resolved)
    if path is None:
        return _fail(f"SKILL.md not found in {resolved}")
    try:
        data, size = read_skill_file(path)
    except ReadError as exc:
        return _fail(f"{exc.message}: skills-ref stops with a traceback")
    if size > len(data):
        return _fail("too large for skill-lsp to read whole, so what skills-ref makes of it is not known")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _fail("invalid UTF-8: skills-ref stops with a UnicodeDecodeError traceback (to-prompt lists nothing)")
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # read_text's universal newlines
    got = read_properties(text)
    if got.error is not None:
        return got
    return RefSkill(got.name, got.description, path, None)


def read_properties(text: str) -> RefSkill:
    """The name and description ``read_properties`` reads from a SKILL.md text (no location)."""
    if not text.startswith("---"):
        return _fail("SKILL.md must start with YAML frontmatter (---)")
    parts = text.split("---", 2)
    if len(parts) < 3:
        return _fail("SKILL.md frontmatter not properly closed with ---")
    root, error, _tagged = compose(parts[1])
    if error is not None:
        return _fail(f"Invalid YAML in frontmatter: {error.message}")
    strict = _strict_problem(root) if root is not None else None
    if strict is not None:
        return _fail(f"Invalid YAML in frontmatter: {strict} (strictyaml)")
    if root is None or root.kind != "map":
        return _fail("SKILL.md frontmatter must be a YAML mapping")
    fields = {k.value: v for k, v in root.items}
    for key in ("name", "description"):
        if key not in fields:
            return _fail(f"Missing required field in frontmatter: {key}")
    values = []
    for key in ("name", "description"):
        node = fields[key]
        if node.kind != "scalar" or not node.value.strip():
            return _fail(f"Field '{key}' must be a non-empty string")
        values.append(node.value.strip())
    return RefSkill(values[0], values[1], None, None)


def _strict_problem(root: Node) -> str | None:
    """What strictyaml refuses that YAML allows, in the tree under ``root``."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_alias:
            return "aliases are not allowed"
        if node.anchor is not None:
            return "anchors are not allowed"
        if node.tag is not None:
            return "tags are not allowed"
        if node.style in ("[", "{"):
            return "flow style is not allowed"
        if node.kind == "map":
            seen: set[str] = set()
            for k, v in node.items:
                if k.kind != "scalar":
                    return "complex keys are not allowed"
                if k.value in seen:
                    return f"duplicate key '{k.value}'"
                seen.add(k.value)
                stack += [k, v]
        elif node.kind == "seq":
            stack += node.items
    return None
