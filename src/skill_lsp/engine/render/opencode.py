"""``opencode``: OpenCode, proven against the 1.18.33 release (tests/golden/harness).

Catalog in the system prompt: two lines of prose, then ``<available_skills>``
with one indented ``<skill>`` block per skill (name, description and the
absolute SKILL.md path, unescaped), ordered by name as ``localeCompare`` does.
Activation: the ``skill`` tool's result; ``$ARGUMENTS`` is not substituted
(the model-invoked tool takes no arguments).  The ``<skill_files>`` sample is
up to 10 files from ripgrep (render/ripgrep.py: no links, ignore files honoured),
whose order follows the file system's directory order; the preview walks folders
in name order. Like every tool result, it is cut past 2,000 lines or 51,200 UTF-8
bytes (``truncate``), the whole text saved to a file the model is pointed at.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from functools import lru_cache

from skill_lsp.engine.activation.jsstr import js_trim, locale_key, to_utf8_bytes
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.listing import record_listing

from ..frontmatter import split
from ..lenient import fields
from ..opencode_frontmatter import OpenCodeFrontmatter, read_document
from ..opencode_frontmatter import read as read_frontmatter
from ..readings import block_runs_to_the_end
from ..text import SourceText
from .base import Dialect, unsubstituted_body
from .ripgrep import files as ripgrep_files

__all__ = ["OpenCodeDialect", "listed", "sample_files", "truncate"]

_PREAMBLE = (
    "Skills provide specialized instructions and workflows for specific tasks.\n"
    "Use the skill tool to load a skill when a task matches its description."
)
MAX_FILES = 10
#: Truncate.MAX_LINES and MAX_BYTES of the release (its `tool_output` setting can change them).
MAX_LINES, MAX_BYTES = 2000, 51200
#: Where the release saves a cut tool result: a new name each time (`tool_` + an ascending id).
SAVED_AS = "tool_<id>"
_HINT = ("The tool call succeeded but the output was truncated. Full output saved to: {path}\n"
         "Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). "
         "Do NOT read the full file yourself - delegate to save context.")


def truncate(text: str, saved_to: str) -> str:
    """What the model gets of a tool result ``text`` (Truncate.output of the release, from the head,
    for an agent that may use the Task tool, as its default agent may): the whole text while it
    has at most MAX_LINES lines ("\n" ends one) and MAX_BYTES bytes; else the lines that fit
    both, how many bytes (or lines) were left out, and where the whole text was saved."""
    lines = text.split("\n")
    total = len(to_utf8_bytes(text))
    if len(lines) <= MAX_LINES and total <= MAX_BYTES:
        return text
    kept, size, by_bytes = 0, 0, False
    for i, line in enumerate(lines[:MAX_LINES]):
        step = len(to_utf8_bytes(line)) + (i > 0)
        if size + step > MAX_BYTES:
            by_bytes = True
            break
        kept, size = kept + 1, size + step
    cut = f"{total - size} bytes" if by_bytes else f"{len(lines) - kept} lines"
    return "\n".join(lines[:kept]) + f"\n\n...{cut} truncated...\n\n" + _HINT.format(path=saved_to)


def saved_folder(home: str | None = None) -> str:
    """The release's tool-output folder: under XDG_DATA_HOME, else ~/.local/share (``home``: that
    home folder, the environment not read)."""
    data = os.environ.get("XDG_DATA_HOME") if home is None else None
    return os.path.join(data or os.path.join(home or os.path.expanduser("~"), ".local", "share"),
                        "opencode", "tool-output")


@lru_cache(maxsize=4096)
def _read_text(text: str) -> OpenCodeFrontmatter:
    return read_frontmatter(text)


def _read(record: SkillRecord) -> OpenCodeFrontmatter | None:
    """The SKILL.md as OpenCode's reader reads it (opencode_frontmatter.py); None for a record built
    in memory without its text."""
    doc = getattr(record.checked, "doc", None)
    if doc is not None and (record.text is None or doc.text == record.text):
        return read_document(doc)  # type: ignore[arg-type]
    return _read_text(record.text) if record.text is not None else None


def _name(record: SkillRecord) -> str | None:
    """The name as written; "" is listed as an empty <name> (capture case empty-and-duplicate-fields)."""
    read = _read(record)
    if read is not None:
        return read.name
    value = fields(record).get("name")
    return value if isinstance(value, str) else None


def _listed_name(record: SkillRecord) -> str:
    name = _name(record)
    return record.folder if name is None else name


def _description(record: SkillRecord) -> str | None:
    read = _read(record)
    if read is not None:
        return read.description  # gray-matter's split: a `|+` block ending the matter keeps one newline less
    value = fields(record).get("description")
    if not isinstance(value, str):
        return None
    # gray-matter hands js-yaml the text up to `\n---`: a `|+`/`>+` block that runs to the closing
    # line keeps one trailing newline less (a clipped one keeps its newline: js-yaml adds it at the
    # end of its input; capture case multiline-description, the differential tester, seed 2026).
    if value.endswith("\n") and block_runs_to_the_end(record.text, "description", keep_only=True):
        return value[:-1]
    return value


def listed(records: Sequence[SkillRecord], *, tool: bool = False) -> list[SkillRecord]:
    """Who OpenCode lists (engine.listing: a string name and a string description,
    empty allowed); roots are read in ``root_index`` order, folders by name, and a later
    skill with the same name replaces an earlier one; listed by name."""
    by_name: dict[str, SkillRecord] = {}
    for r in sorted(records, key=lambda r: (r.root_index, r.folder)):
        if record_listing(r, "opencode", tool=tool).listed:
            by_name[_listed_name(r)] = r
    return [by_name[n] for n in sorted(by_name, key=locale_key)]


# What OpenCode writes into each config folder (`.opencode`, ~/.config/opencode) as .gitignore
# when it starts and the file is not there (Config.ensureGitignore, read from the 1.18.33 release):
# in a git repository ripgrep then leaves these out of a skill's files.
CONFIG_GITIGNORE = ("node_modules", "package.json", "package-lock.json", "bun.lock", ".gitignore")


def config_folders(skill_dir: str) -> dict[str, tuple[str, ...]]:
    """The config folders above ``skill_dir`` (its real path: ripgrep runs in it), with the
    .gitignore OpenCode writes there."""
    found: dict[str, tuple[str, ...]] = {}
    at = os.path.realpath(skill_dir)
    user = os.path.join(os.path.expanduser("~"), ".config", "opencode")
    while True:
        if os.path.basename(at) == ".opencode" or at == user:
            found[at] = CONFIG_GITIGNORE
        up = os.path.dirname(at)
        if up == at:
            return found
        at = up


def sample_files(skill_dir: str) -> list[str]:
    """The files OpenCode's skill tool lists: ripgrep's (render/ripgrep.py), SKILL.md left out;
    the first 10 by name where ripgrep takes the file system's order."""
    walk = ripgrep_files(skill_dir, skip_names=frozenset({"SKILL.md"}),
                         default_gitignores=config_folders(skill_dir))
    return list(itertools.islice(walk, MAX_FILES))


class OpenCodeDialect(Dialect):
    name = "opencode"
    label = "OpenCode 1.18.33"
    harness = "opencode"

    def __init__(self, home: str | None = None) -> None:
        self.home = home

    def render_ok(self, result: OkResult) -> str:
        return truncate(self._content(result), os.path.join(saved_folder(self.home), SAVED_AS))

    @staticmethod
    def _body(result: OkResult) -> str:
        """gray-matter's content where it found a matter: what follows its closing `---` (seed-11
        real-skill run: `---# Title`, which skill-lsp's split takes for no closing line)."""
        text = result.source_text
        if text is not None and "\n---" in text:
            read = read_frontmatter(text)
            if read.front:
                sp = split(SourceText(text))
                if not sp.closed or sp.body_start != len(text) - len(read.content):
                    return read.content  # gray-matter's matter ends elsewhere than skill-lsp's split
        return unsubstituted_body(result)

    def _content(self, result: OkResult) -> str:
        if os.path.isdir(result.dir):
            files = sample_files(result.dir)
        else:  # not on disk (a result built in memory): the engine's resource listing
            files = [f"{result.dir}/{r}" for r in result.resources if not r.rsplit("/", 1)[-1].startswith("(... ")]
            files = files[:MAX_FILES]
        return "\n".join(
            [
                f'<skill_content name="{result.name}">',
                f"# Skill: {result.name}",
                "",
                js_trim(self._body(result)),
                "",
                f"Base directory for this skill: {result.dir}",
                "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
                "Note: file list is sampled.",
                "",
                "<skill_files>",
                "\n".join(f"<file>{f}</file>" for f in files),
                "</skill_files>",
                "</skill_content>",
            ]
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Skill "{result.name}" not found. Available skills: {", ".join(result.siblings) or "none"}'

    def includes(self, record: SkillRecord) -> bool:
        return self.listing(record).listed

    def order(self, records):  # type: ignore[no-untyped-def]
        return listed(list(records))

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        """Its skill tool loads any skill it read by name, those its catalog leaves out for a missing
        description included (Harness.tool_loads)."""
        return next((r for r in listed(records, tool=True) if _name(r) == name), None)

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
        return "\n".join([_PREAMBLE, "<available_skills>", *entries, "</available_skills>"])
