"""What skill-lsp says a harness sends for a workspace: the side compared with a real run.

The one adapter between the capture machinery (``skill-lsp capture``, the rig's stored
captures and its differential tester) and the engine's harness model, dialects and
activation session. When the engine's listing API changes, this module changes and
nothing else in ``capture``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import discovery
from ..engine.activation import SessionConfig, SkillSession
from ..engine.activation.records import SkillRecord
from ..engine.activation.results import OkResult
from ..engine.config import Settings
from ..engine.datarecord import replace
from ..engine.harness import HARNESSES
from ..engine.preview import followed_roots, link_targets, read_through_links, record_for
from ..engine.readings import records_read_by
from ..engine.render import DIALECTS, get_dialect
from ..engine.workspace import check_file
from .normalise import normalise

__all__ = ["Expected", "activated", "activation", "catalog", "catalog_roots", "entries", "listing_roots", "records"]


# The roots each captured release reads, in the order it reads them (observed in the captures).
def listing_roots(harness: str, ws: Path, home: Path) -> list[list[str]]:
    """Root groups in listing precedence; skills of one group share a root_index
    (Codex: one group per scope, repo then user)."""
    groups = {
        # user before project: the user copy of a name wins and is listed first
        "claude-code": [[home / ".claude/skills"], [ws / ".claude/skills"]],
        "codex": [[ws / ".codex/skills", ws / ".agents/skills"], [home / ".codex/skills", home / ".agents/skills"]],
        # no capture pins which copy of one name wins (the scan is parallel); the preview
        # keeps the last root's
        "opencode": [[home / ".claude/skills"], [home / ".agents/skills"], [ws / ".claude/skills"],
                     [ws / ".agents/skills"], [ws / ".opencode/skills"], [home / ".config/opencode/skills"]],
        # discovery order; a later root overrides an earlier one
        "gemini": [[home / ".gemini/skills"], [home / ".agents/skills"], [ws / ".gemini/skills"],
                   [ws / ".agents/skills"]],
        # which copy of a name wins is the harness record's root order (render/copilot.listed)
        "copilot": [[ws / ".agents/skills"], [ws / ".claude/skills"], [ws / ".github/skills"],
                    [home / ".copilot/skills"], [home / ".agents/skills"]],
    }[harness]
    return [[str(r) for r in group] for group in groups]


def catalog_roots(harness: str, ws: Path, home: Path) -> list[str] | None:
    """Codex's roots in the order of its ``### Skill roots`` table (the renderer keeps
    those holding a listed skill; the system root holds the built-ins)."""
    if harness != "codex":
        return None
    table = [ws / ".codex/skills", home / ".codex/skills", home / ".agents/skills",
             home / ".codex/skills/.system", ws / ".agents/skills"]
    return [str(r) for r in table]


def records(harness: str, ws: Path, home: Path) -> list[SkillRecord]:
    """The records of the roots ``harness`` reads, as `skill-lsp catalog` builds them (a skill folder
    that is a link into the workspace read through it)."""
    settings = Settings()
    out = []
    results = []
    for index, group in enumerate(listing_roots(harness, ws, home)):
        found = discovery.scan_roots(group, settings.sensitive_patterns)
        for loc in found + discovery.scan_nested(group, settings.sensitive_patterns):
            result = check_file(loc.path, settings, loc)
            results.append(result)
            out.append(replace(record_for(result), root_index=index))
    linked = link_targets(results, str(ws), settings)
    return records_read_by(read_through_links(out, [*results, *linked]), harness)


def _hidden_codex(builtins: list[dict[str, Any]], home: Path) -> list[tuple[str, str, str]]:
    """Codex's system skills, stripped from a capture but sharing its budget: stand-in
    descriptions with the recorded length and multi-byte characters in their places."""
    system = str(home / ".codex/skills/.system")
    out = []
    for b in builtins:
        chars = ["x"] * b["description_chars"]
        for index, width in b.get("description_multibyte", []):
            chars[index] = {2: "\u00e9", 3: "\u2014", 4: "\U0001f600"}[width]
        out.append((b["name"], "".join(chars), system))
    return out


def dialect_for(harness: str, home: Path):  # type: ignore[no-untyped-def]
    dialect = get_dialect(harness)
    if harness in ("copilot", "opencode"):  # Copilot: user or project scope; OpenCode: where a cut result is saved
        dialect = type(dialect)(home=str(home))  # type: ignore[call-arg]
    return dialect


def catalog(harness: str, ws: Path, home: Path, builtins: list[dict[str, Any]],
            recs: list[SkillRecord] | None = None) -> str:
    """The catalog text skill-lsp renders for ``harness`` (built-ins left out, their sizes counted)."""
    dialect = dialect_for(harness, home)
    recs = records(harness, ws, home) if recs is None else recs
    roots = catalog_roots(harness, ws, home)
    if roots is not None:  # codex
        return dialect.render_catalog(recs, roots=roots, hidden=_hidden_codex(builtins, home))  # type: ignore[call-arg]
    if harness == "copilot":  # built-ins come last and share the budget
        return dialect.render_catalog(recs, hidden=[(b["name"], b["entry_chars"]) for b in builtins])  # type: ignore[call-arg]
    return dialect.render_catalog(recs)


def _ok(record: SkillRecord, arguments: str, harness: str = "", called: str | None = None) -> OkResult:
    # The harness activates what it lists; skill-lsp's own findings do not block the preview.
    # skill-lsp's session only takes kebab-case names; the harnesses take any listed name.
    session = SkillSession([replace(record, name="capture-key", error=None)], SessionConfig(
        untrusted_project_skills="allow", unsafe_allow_skill_without_hook=True, workspace_roots=followed_roots(record),
        dialect=harness if harness in DIALECTS else "skill-tool"))
    params = {"name": "capture-key", "arguments": arguments} if arguments else {"name": "capture-key"}
    h = HARNESSES.get(harness)
    result = session.activate(params, user_initiated=h is not None and h.activates_hidden)
    if not isinstance(result, OkResult):
        raise ValueError(f"skill-lsp's session refused {record.path}: {result}")
    # The name the harness shows: the declared one as it reads it, else the folder (as preview.activate);
    # Claude Code's Skill tool result names the skill as it was ``called``.
    if called is not None and harness == "claude-code":
        return replace(result, name=called)
    declared = record.frontmatter.get("name")
    return replace(result, name=declared if isinstance(declared, str) and declared else record.name)


@dataclass(frozen=True)
class Expected:
    text: str | None  # None: skill-lsp says the harness activates no skill of that name
    tool_result: str | None = None
    record: SkillRecord | None = None


def activation(harness: str, ws: Path, home: Path, skill: str, arguments: str,
               recs: list[SkillRecord] | None = None) -> Expected:
    """What skill-lsp says ``harness`` hands the model when asked for ``skill`` (arguments only
    reach Claude Code's substitution; the others take a name alone)."""
    dialect = dialect_for(harness, home)  # Copilot: which copy of a name wins is told by the home folder too
    recs = records(harness, ws, home) if recs is None else recs
    record = dialect.activation_record(recs, skill)  # type: ignore[attr-defined]
    if record is None:
        return Expected(None)
    result = _ok(record, arguments if harness == "claude-code" else "", harness, called=skill)
    tool_result = dialect.tool_result(result) if hasattr(dialect, "tool_result") else None
    return Expected(dialect.render(result), tool_result, record)


#: How each release's activation starts when it activated the skill (anything else: an error,
#: "not found", a refusal, or nothing).
OK_START = {"claude-code": "Base directory for this skill:", "codex": "<skill>", "opencode": "<skill_content",
            "gemini": "<activated_skill", "copilot": "<skill-context"}


def activated(harness: str, text: str | None) -> bool:
    """Whether ``text`` (what the release sent for an activation) is the skill's content."""
    return bool(text) and text.startswith(OK_START[harness])  # type: ignore[union-attr]


# -- one catalog as entries ----------------------------------------------------------

_BLOCKS = {
    "copilot": re.compile(r"^<skill>\n.*?\n</skill>$", re.M | re.S),
    "gemini": re.compile(r"^  <skill>\n.*?\n  </skill>$", re.M | re.S),
    "opencode": re.compile(r"^  <skill>\n.*?\n  </skill>$", re.M | re.S),
}
_CODEX_LINE = re.compile(r"^- .*\(file: (?P<file>[^\n]*)\)$", re.M)
_NAME = re.compile(r"<name>(.*?)</name>", re.S)
_LOCATION = re.compile(r"<location>(.*?)</location>", re.S)
_CLAUDE_LABEL = re.compile(r"- (?P<folder>[^\n]*?)(?: \([^\n]*?\))?: ")


def entries(harness: str, text: str) -> list[tuple[str, str]]:
    """(key, entry) for every skill a catalog lists, in its order. The key tells which skill
    an entry is: the folder (Claude Code), the file (Codex, OpenCode, Gemini CLI), the name
    (Copilot CLI, whose entries say only project or user)."""
    if not text:
        return []
    out = []
    if harness == "claude-code":
        from .drivers import claude_entries  # noqa: PLC0415

        for e in claude_entries(text):
            m = _CLAUDE_LABEL.match(e)
            out.append((m.group("folder") if m else e, e))
    elif harness == "codex":
        for m in _CODEX_LINE.finditer(text):
            out.append((m.group("file"), m.group(0)))
    else:
        for m in _BLOCKS[harness].finditer(text):
            block = m.group(0)
            key = _LOCATION.search(block) if harness != "copilot" else _NAME.search(block)
            out.append((key.group(1) if key else block, block))
        if harness == "copilot":  # past the budget the rest are named on one line
            more = re.search(r"^Additional skills available[^\n]*$", text, re.M)
            if more:
                out.append(("<additional>", more.group(0)))
    return out


def same_files(a: str, b: str) -> bool:
    """OpenCode's <skill_files> lines come in the file system's directory order: compare as sets."""
    def split(text: str) -> tuple[str, list[str], str]:
        head, sep, rest = text.partition("<skill_files>\n")
        if not sep:
            return text, [], ""
        files, _, tail = rest.partition("</skill_files>")
        return head, sorted(files.split("\n")), tail
    return split(a) == split(b)


def sampled_alike(theirs: str, mine: str, eligible: set[str], limit: int) -> bool:
    """OpenCode lists the first ``limit`` files ripgrep finds, in the file system's directory order
    (ext4: a hash of the name), which nothing in the skill decides: with more eligible files than
    that, two texts that differ only in which of the ``eligible`` lines they sample are alike."""
    def split(text: str) -> tuple[str, list[str], str]:
        head, _, rest = text.partition("<skill_files>\n")
        files, _, tail = rest.partition("</skill_files>")
        return head, [f for f in files.split("\n") if f], tail
    h1, f1, t1 = split(theirs)
    h2, f2, t2 = split(mine)
    return (h1, t1) == (h2, t2) and len(eligible) > limit and len(f1) == len(f2) == limit \
        and set(f1) <= eligible and set(f2) <= eligible


_CUT = re.compile(r"\n\n\.\.\.\d+ (?:bytes|lines) truncated\.\.\.\n\n")


def cut_alike(theirs: str, mine: str, eligible: int, limit: int) -> bool:
    """Two OpenCode results cut past its size limits (render.opencode.truncate) that differ only
    where the file system's directory order decides: the <skill_files> lines kept before the cut,
    or, with more than ``limit`` eligible files (which ones are sampled), how many bytes were cut."""
    a, b = _CUT.search(theirs), _CUT.search(mine)
    if a is None or b is None or theirs[a.end():] != mine[b.end():]:
        return False
    head_a, head_b = theirs[:a.start()], mine[:b.start()]
    if head_a == head_b:
        return eligible > limit
    at = head_a.find("\n<skill_files>\n")
    return at >= 0 and at == head_b.find("\n<skill_files>\n") and head_a[:at] == head_b[:at]


def norm(text: str | None, ws: Path, home: Path) -> str | None:
    return None if text is None else normalise(text, ws, home)


def relpath_key(key: str, ws: Path, home: Path) -> str:
    """An entry key with the workspace and home folders as tokens (a file key is absolute)."""
    key = normalise(key, ws, home)
    return key.replace(os.sep, "/")
