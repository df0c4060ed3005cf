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
from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from skill_lsp.engine.activation.jsstr import js_trim, locale_key
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.listing import record_listing

from ..datarecord import datarecord, field
from ..gemini_frontmatter import NAME_UNSAFE, GeminiFrontmatter, read_document
from ..gemini_frontmatter import read as read_frontmatter
from ..lenient import fields, simple_frontmatter, text_value
from .base import Dialect, unsubstituted_body

__all__ = ["GeminiDialect", "folder_structure", "listed"]

MAX_ITEMS = 200
_HEADING = (
    "# Available Agent Skills\n\n"
    "You have access to the following specialized skills. To activate a skill and receive its "
    "detailed instructions, call the `activate_skill` tool with the skill's name."
)


@lru_cache(maxsize=4096)
def _read_text(text: str) -> GeminiFrontmatter:
    return read_frontmatter(text)


def _read(record: SkillRecord) -> GeminiFrontmatter | None:
    """The SKILL.md as Gemini CLI's reader reads it (gemini_frontmatter.py); None for a record
    built in memory without its text."""
    doc = getattr(record.checked, "doc", None)
    if doc is not None and (record.text is None or doc.text == record.text):
        return read_document(doc)  # type: ignore[arg-type]
    return _read_text(record.text) if record.text is not None else None


def _name(record: SkillRecord) -> str | None:
    """The name as read, with `:\\/<>*?"|` as '-' (characters a file name may not hold on Windows:
    `a:b` -> `a-b`; capture case non-string-values); "" is listed as an empty <name> (capture case
    empty-and-duplicate-fields)."""
    read = _read(record)
    if read is not None:
        return read.listed_name
    name = text_value(fields(record).get("name"))
    return None if name is None else NAME_UNSAFE.sub("-", name)


def _listed_name(record: SkillRecord) -> str:
    name = _name(record)
    return record.folder if name is None else name


def _description(record: SkillRecord) -> str | None:
    read = _read(record)
    if read is not None:
        return read.description
    value = fields(record).get("description")
    if isinstance(value, str):
        return value
    if value is not None:  # YAML gave a list or map: gemini-cli re-reads the lines
        return (simple_frontmatter(record.text) or {}).get("description")
    return None


def _read_order(roots: dict[int, list[SkillRecord]], index: int) -> tuple[int, int, int]:
    """Where the root ``index`` stands in the order Gemini CLI reads its roots: the folders holding
    them in ``root_index`` order (the user's, then the workspace's), and in one folder .gemini/skills
    before .agents/skills, whose skill of a name therefore wins (capture case same-name-two-roots).
    A workspace's roots keep skill-lsp's own order otherwise, where .agents/skills comes first: the
    preview listed the .gemini/skills copy that the release does not."""
    root = roots[index][0].root.replace("\\", "/").rstrip("/")
    for kind, tail in enumerate(("/.gemini/skills", "/.agents/skills")):
        if root.endswith(tail):
            base = root[:-len(tail)]
            first = min(i for i, rs in roots.items()
                        if rs[0].root.replace("\\", "/").rstrip("/") in (base + "/.gemini/skills", base + "/.agents/skills"))
            return (first, kind, index)
    return (index, 0, index)


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
    for index in sorted(roots, key=lambda i: _read_order(roots, i)):
        for r in sorted(roots[index], key=lambda r: r.folder, reverse=True):
            if record_listing(r, "gemini").listed:
                by_name[_listed_name(r)] = r
    return list(by_name.values())


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


# getFolderStructure (gemini-cli-core 0.61.0 dist/src/utils/getFolderStructure.js, read in the pinned
# release): at most 200 items, breadth first; these folders are shown as `name/...`, unread.
_IGNORED_FOLDERS = frozenset({"node_modules", ".git", "dist", "__pycache__"})
_MORE = "..."


@datarecord
class _Folder:
    name: str
    ignored: bool = False
    files: list[str] = field(default_factory=list)
    subs: list[_Folder] = field(default_factory=list)
    more_files: bool = False
    more_subs: bool = False

    def truncated(self) -> bool:
        return self.more_files or self.more_subs or self.ignored or any(s.truncated() for s in self.subs)


def folder_structure(root: str, resources: Sequence[str] = ()) -> str:
    """gemini-cli's getFolderStructure for the skill folder, as its activate_skill tool calls it.

    Breadth first, at most MAX_ITEMS files and folders; in each folder its files, then its
    folders, each by ``localeCompare``; symbolic links and other non-regular entries are not
    shown; node_modules, .git, dist and __pycache__ are shown as ``name/...`` and not read. Any
    folder cut short or not read adds a sentence to the header. When ``root`` is not on disk, the
    tree is drawn from ``resources`` (relative paths)."""
    on_disk = os.path.isdir(root)
    listing = _listing_tree(resources)

    def entries(path: str, node: dict | None) -> list[tuple[str, bool]]:
        """(name, is a folder) in localeCompare order."""
        if on_disk:
            try:
                with os.scandir(path) as it:
                    found = [(e.name, e.is_dir(follow_symlinks=False)) for e in it
                             if e.is_dir(follow_symlinks=False) or e.is_file(follow_symlinks=False)]
            except OSError:
                return []
        else:
            found = [(k, v is not None) for k, v in (node or {}).items()]
        return sorted(found, key=lambda e: locale_key(e[0]))

    top = _Folder(os.path.basename(root.rstrip("/")))
    queue: deque[tuple[_Folder, str, dict | None]] = deque([(top, root, listing)])
    count = 0
    while queue:
        folder, path, node = queue.popleft()
        if count >= MAX_ITEMS:
            continue
        found = entries(path, node)
        for name, is_dir in found:
            if not is_dir:
                if count >= MAX_ITEMS:
                    folder.more_files = True
                    break
                folder.files.append(name)
                count += 1
        for name, is_dir in found:
            if is_dir:
                if count >= MAX_ITEMS:
                    folder.more_subs = True
                    break
                sub = _Folder(name, ignored=name in _IGNORED_FOLDERS)
                folder.subs.append(sub)
                count += 1
                if not sub.ignored:
                    queue.append((sub, os.path.join(path, name), (node or {}).get(name) if not on_disk else None))

    lines: list[str] = []

    def draw(folder: _Folder, indent: str, last: bool, is_top: bool) -> None:
        if not is_top:
            lines.append(f"{indent}{'└───' if last else '├───'}{folder.name}/{_MORE if folder.ignored else ''}")
        inner = "" if is_top else indent + ("    " if last else "│   ")
        for i, name in enumerate(folder.files):
            end = i == len(folder.files) - 1 and not folder.subs and not folder.more_subs
            lines.append(f"{inner}{'└───' if end else '├───'}{name}")
        if folder.more_files:
            lines.append(f"{inner}{'└───' if not folder.subs and not folder.more_subs else '├───'}{_MORE}")
        for i, sub in enumerate(folder.subs):
            draw(sub, inner, i == len(folder.subs) - 1 and not folder.more_subs, False)
        if folder.more_subs:
            lines.append(f"{inner}└───{_MORE}")

    draw(top, "", True, True)
    head = f"Showing up to {MAX_ITEMS} items (files + folders)."
    if top.truncated():
        head += (f" Folders or files indicated with {_MORE} contain more items not shown, were ignored, or the "
                 f"display limit ({MAX_ITEMS} items) was reached.")
    return f"{head}\n\n{root.rstrip('/')}/\n" + "\n".join(lines)


class GeminiDialect(Dialect):
    name = "gemini"
    label = "Gemini CLI (gemini-cli-core 0.61.0)"
    harness = "gemini"
    # activate_skill's result names the skill as it was asked for (`<activated_skill name="${skillName}">`,
    # params.name): the listed name, `:` and the like made '-', not the name as written.
    echoes_name = True

    def render_ok(self, result: OkResult) -> str:
        tree = folder_structure(result.dir, result.resources)
        # match[2]?.trim() ?? '': what follows the block's closing `---` and its line break.
        text = result.source_text
        body = _read_text(text).body if text is not None else js_trim(unsubstituted_body(result))
        return (
            f'<activated_skill name="{result.name}">\n'
            f"  <instructions>\n"
            f"    {body}\n"
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
        # activate_skill's schema takes only a listed name, as listed (an enum of them: another case
        # is refused before getSkill, which ignores case, is asked; the differential tester).
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
