"""``gemini``: Gemini CLI, proven against ``@google/gemini-cli-core`` 0.61.0 (tests/golden/harness).

Catalog: ``renderAgentSkills`` (a heading, one line of prose naming
``activate_skill``, then ``<available_skills>`` with indented ``<skill>``
blocks; nothing escaped, descriptions as parsed).  Activation:
``activate_skill``'s ``<activated_skill>`` block with the JS-trimmed body
(``$ARGUMENTS`` is not substituted) and the skill folder drawn by
``getFolderStructure``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from skill_lsp.engine.activation.jsstr import js_trim
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.listing import record_listing

from ..lenient import fields, simple_frontmatter, text_value
from .base import Dialect, unsubstituted_body

__all__ = ["GeminiDialect", "folder_structure", "listed"]

MAX_ITEMS = 200
_HEADING = (
    "# Available Agent Skills\n\n"
    "You have access to the following specialized skills. To activate a skill and receive its "
    "detailed instructions, call the `activate_skill` tool with the skill's name."
)


# Characters a file name may not hold on Windows: each becomes '-' in the listed name
# (`a:b` -> `a-b`, `{a: 1}` -> `{a- 1}`; capture case non-string-values, the differential tester).
_NAME_UNSAFE = re.compile(r'[:\\/<>*?"|]')


def _name(record: SkillRecord) -> str | None:
    """The name as written, with `:\\/<>*?"|` as '-'; "" is listed as an empty <name> (capture case
    empty-and-duplicate-fields)."""
    name = text_value(fields(record).get("name"))
    return None if name is None else _NAME_UNSAFE.sub("-", name)


def _listed_name(record: SkillRecord) -> str:
    name = _name(record)
    return record.folder if name is None else name


def _description(record: SkillRecord) -> str | None:
    value = fields(record).get("description")
    if isinstance(value, str):
        return value
    if value is not None:  # YAML gave a list or map: gemini-cli re-reads the lines
        return (simple_frontmatter(record.text) or {}).get("description")
    return None


def listed(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """Who Gemini CLI lists (engine.listing: a frontmatter name and a description,
    empty allowed).  Roots are read in order (user, then workspace); within a root the loader's
    glob yields names in reverse code-point order in most runs (it globs asynchronously, so not
    in all: render/proof.py says so); a later root's skill replaces an earlier one of the same
    name in place."""
    by_name: dict[str, SkillRecord] = {}
    roots: dict[int, list[SkillRecord]] = {}
    for r in records:
        roots.setdefault(r.root_index, []).append(r)
    for index in sorted(roots):
        for r in sorted(roots[index], key=lambda r: r.folder, reverse=True):
            if record_listing(r, "gemini").listed:
                by_name[_listed_name(r)] = r
    return list(by_name.values())


def _sort_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def _listing_tree(resources: Sequence[str]) -> dict:
    tree: dict = {}
    for item in resources:
        if item.rsplit("/", 1)[-1].startswith("(... "):
            continue
        node = tree
        parts = item.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = None
    return tree


def folder_structure(root: str, resources: Sequence[str] = ()) -> str:
    """gemini-cli's getFolderStructure for one folder (files before folders, by name).

    When ``root`` is not on disk, the tree is drawn from ``resources`` (relative paths)."""
    lines: list[str] = []
    on_disk = os.path.isdir(root)
    listing = _listing_tree(resources)

    def children_of(folder: str, node: dict | None) -> tuple[list[str], list[str]]:
        if on_disk:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                return [], []
            return ([e.name for e in entries if not e.is_dir()], [e.name for e in entries if e.is_dir()])
        node = node or {}
        return ([k for k, v in node.items() if v is None], [k for k, v in node.items() if v is not None])

    def walk(folder: str, prefix: str, node: dict | None = None) -> None:
        file_names, dir_names = children_of(folder, node)
        files = sorted(file_names, key=_sort_key)
        dirs = sorted(dir_names, key=_sort_key)
        children = [(n, False) for n in files] + [(n, True) for n in dirs]
        for i, (name, is_dir) in enumerate(children):
            last = i == len(children) - 1
            lines.append(f"{prefix}{'└───' if last else '├───'}{name}{'/' if is_dir else ''}")
            if is_dir:
                sub = (node or {}).get(name) if not on_disk else None
                walk(os.path.join(folder, name), prefix + ("    " if last else "│   "), sub)

    walk(root, "", listing)
    head = f"Showing up to {MAX_ITEMS} items (files + folders).\n\n{root.rstrip('/')}/"
    return "\n".join([head, *lines])


class GeminiDialect(Dialect):
    name = "gemini"
    label = "Gemini CLI (gemini-cli-core 0.61.0)"
    harness = "gemini"

    def render_ok(self, result: OkResult) -> str:
        tree = folder_structure(result.dir, result.resources)
        return (
            f'<activated_skill name="{result.name}">\n'
            f"  <instructions>\n"
            f"    {js_trim(unsubstituted_body(result))}\n"
            f"  </instructions>\n"
            f"\n"
            f"  <available_resources>\n"
            f"    {tree}\n"
            f"  </available_resources>\n"
            f"</activated_skill>"
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Error: Skill "{result.name}" not found. Available skills are: {", ".join(result.siblings)}'

    def includes(self, record: SkillRecord) -> bool:
        return self.listing(record).listed

    def order(self, records):  # type: ignore[no-untyped-def]
        return listed(list(records))

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        return next((r for r in listed(records) if _name(r) == name), None)

    def catalog_entry(self, record: SkillRecord) -> str:
        return (
            "  <skill>\n"
            f"    <name>{_listed_name(record)}</name>\n"
            f"    <description>{_description(record) or ''}</description>\n"
            f"    <location>{record.path}</location>\n"
            "  </skill>"
        )

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        entries = [self.catalog_entry(r) for r in listed(records)]
        if not entries:
            return ""
        return "\n".join([_HEADING, "", "<available_skills>", *entries, "</available_skills>"])
