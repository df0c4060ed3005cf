"""Body rules: trailing whitespace, links, length and size."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from ..document import SkillDocument
from ..findings import Finding, make
from ..tokens import estimate_tokens
from . import Context

MAX_BODY_LINES = 500
MAX_INSTRUCTION_TOKENS = 5000

# The last blank before a line break (LSP breaks only) or the end of the text; one
# character class plus lookahead keeps the scan linear and fast on prose.
_BLANKS = " \t\f\v"
_LAST_BLANK = re.compile(r"[ \t\f\v](?=[\r\n]|\Z)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_WINDOWS_ABS = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    yield from _trailing_whitespace(doc)
    yield from _links(doc, ctx)
    yield from _size(doc)


def _has_trailing_blank(text: str) -> bool:
    """Whether ``_LAST_BLANK`` can match: a few substring tests, 3-4x cheaper than the scan
    itself on texts without trailing whitespace (all but 4 of the corpus's 3,223)."""
    return (" \n" in text or "\t\n" in text or ("\r" in text and (" \r" in text or "\t\r" in text))
            or "\f" in text or "\v" in text or text[-1:] in (" ", "\t"))


def _trailing_whitespace(doc: SkillDocument) -> Iterator[Finding]:
    src = doc.src
    text = src.text
    if not _has_trailing_blank(text):
        return
    for m in _LAST_BLANK.finditer(text):
        end = m.end()
        line_start = src.line_starts[src.line_of(m.start())]
        start = m.start()
        while start > line_start and text[start - 1] in _BLANKS:
            start -= 1
        only = start == line_start
        if end - start == 2 and text[start:end] == "  " and not only and start >= doc.body_start:
            continue  # a Markdown hard line break: allowed in the body, never on the fences or in the YAML
        if start >= doc.body_start and _in_code_block(doc, start):
            # As markdownlint MD009 (code_blocks: false): some languages need the space, and
            # the model reads code verbatim; nothing for the author to fix.
            continue
        yield make("TRAILING_WHITESPACE", "line holds only whitespace" if only else "trailing whitespace",
                   start, end, {"fix": "trim"}, tags=("unnecessary",))


def _in_code_block(doc: SkillDocument, offset: int) -> bool:
    return any(start <= offset < end for start, end in doc.body.code_blocks)


# `/plugin:skill`: how Claude Code names a plugin's skill as a slash command; a link to
# it points at a skill, not a file (UiPath's skills cross-link this way).
_SLASH_COMMAND = re.compile(r"^/[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$")


def classify(target: str) -> str:
    """'url' | 'absolute' | 'anchor' | 'relative' | 'command' for a link destination."""
    if not target or target.startswith("#"):
        return "anchor"
    if _SLASH_COMMAND.match(target):
        return "command"
    if _WINDOWS_ABS.match(target):
        return "absolute"
    if target.startswith("file:"):
        return "absolute"
    if _SCHEME.match(target):
        return "url"
    if target.startswith(("/", "~/", "~\\")) or target == "~":
        return "absolute"
    return "relative"


# Placeholders harnesses replace with the skill folder before the model reads the body:
# Claude Code `${CLAUDE_SKILL_DIR}` (render/claude_code.py), OpenClaw `{baseDir}`.
_SKILL_DIR_PLACEHOLDER = re.compile(r"^(?:\$\{CLAUDE_SKILL_DIR\}|\{baseDir\})/+")


def relative_path(target: str) -> str:
    """Percent-decoded path part of a relative link, '/'-separated and normalised.

    A leading skill-folder placeholder is dropped: the rest is relative to the skill.
    """
    if not (target.startswith((".", "$", "{")) or target.endswith("/") or "/." in target or "//" in target
            or "#" in target or "?" in target or "%" in target or "\\" in target):
        return target  # already what the steps below would make of it (most targets)
    path = target.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path).replace("\\", "/")
    path = _SKILL_DIR_PLACEHOLDER.sub("", path)
    return posixpath.normpath(path) if path else ""


def absolute_to_relative(target: str, skill_dir: str) -> str | None:
    """The relative form of an absolute link that points inside the skill folder."""
    path = target
    if path.startswith("file://"):
        path = unquote(path[len("file://"):])
    path = path.replace("\\", "/")
    base = skill_dir.replace("\\", "/").rstrip("/") + "/"
    if path.startswith(base):
        rel = path[len(base):]
        return rel or None
    return None


# Raw candidate targets: inline destinations, and reference definitions at a line start.
# Two scans: the inline one starts with a literal the regex engine skips to; in one
# alternation with the line-anchored branch it was tried at every character (4x slower).
_CANDIDATE_INLINE = re.compile(r"\]\(\s*<?([^\s)>]*)")
_CANDIDATE_DEFINITION = re.compile(r"^[ \t>]*\[[^\]\n]+\]:[ \t]*\n?[ \t]*<?(\S*)", re.M)


def _candidates(body: str) -> Iterator[str]:
    for m in _CANDIDATE_INLINE.finditer(body):
        yield m.group(1)
    if "]:" in body:
        for m in _CANDIDATE_DEFINITION.finditer(body):
            yield m.group(1)


# Every raw "](" destination and "]:" definition destination, wherever it stands: a
# superset of the targets the CommonMark parse finds (definitions in list items too).
_RAW_TARGET = re.compile(r"\](?:\(\s*<?([^\s)>]*)|:[ \t]*(?:\r\n|\r|\n)?[ \t]*<?(\S*))")


def may_leave_folder(doc: SkillDocument) -> bool:
    """Whether a link target in the body could lead out of the skill folder ('../').

    A cheap, conservative gate for the exact parse: raw targets with escapes,
    entities or percent-encoding count, since the parse may decode them into '../'.
    """
    hit = doc.memo.get("may_leave_folder")
    if hit is None:
        hit = doc.memo["may_leave_folder"] = _may_leave(doc.body_text)
    return hit


def _may_leave(body: str) -> bool:
    if "](" not in body and "]:" not in body:
        return False
    if ".." not in body and "\\" not in body and "&" not in body and "%" not in body:
        return False  # no target can hold '..' or decode into it
    for m in _RAW_TARGET.finditer(body):
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        if not raw or (".." not in raw and "\\" not in raw and "&" not in raw and "%" not in raw):
            continue
        if "\\" in raw or "&" in raw or "%" in raw:
            return True
        if classify(raw) == "relative":
            path = relative_path(raw)
            if path == ".." or path.startswith("../"):
                return True
    return False


def _could_matter(raw: str, ctx: Context) -> bool:
    """Whether a raw link target might yield a finding (so the exact parse is worth it).

    Conservative: anything with escapes, entities or percent-encoding counts.
    """
    if not raw or any(c in raw for c in "\\&%"):
        return bool(raw)
    kind = classify(raw)
    if kind == "absolute":
        return True
    if kind != "relative":
        return False
    path = relative_path(raw)
    if not path or path == ".":
        return False
    if path == ".." or path.startswith("../"):
        return True
    return ctx.check_links and ctx.exists(path) is False


# `[Smith et al., 2025](url)`, `[source](link)`: a format the skill shows the model, not a
# link to follow (issue 26, held-out tune half).
_PLACEHOLDER_TARGETS = frozenset(("url", "link", "href", "path", "uri", "source", "target", "todo", "tbd", "...",
                                  "your-url", "your-link", "link-here", "url-here", "placeholder"))


def _placeholder_target(path: str) -> bool:
    """A format or template, not a file: `url`, `task.{id}.md`, `<file>.md`, a glob the model expands
    (`references/setup/*.md`, issue 26); or a path into a hidden
    folder of the project the skill works on (`.repo-wiki/x.md`), which the skill never bundles."""
    return (path.lower() in _PLACEHOLDER_TARGETS or "{" in path or "<" in path or "*" in path or "?" in path
            or (path.startswith(".") and not path.startswith("./")))


def _links(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = doc.body_text
    # Inline links need "](" and reference links a "]:" definition. A raw scan finds
    # every candidate target; only when one could be a finding does the exact
    # CommonMark parse run (it decides what is code and what is a link). Most
    # skills link only to files that exist, and skip the parse entirely.
    if "](" not in body and "]:" not in body:
        return
    if not any(_could_matter(raw, ctx) for raw in _candidates(body)):
        return
    for link in doc.links:
        if link.kind == "reference":
            continue  # checked at its definition
        target = link.target
        kind = classify(target)
        if kind == "absolute":
            rel = absolute_to_relative(target, doc.skill_dir) if doc.path else None
            what = "image" if link.kind == "image" else "link"
            msg = f"absolute {what} target '{target}'; use a path relative to the skill folder"
            data = {"target": target}
            if rel is not None:
                data["relative"] = rel
                msg += f" ('{rel}')"
            yield make("ABSOLUTE_LINK", msg, link.target_start, link.target_end, data)
            continue
        if kind != "relative":
            continue
        path = relative_path(target)
        if not path or path == ".":
            continue
        if path == ".." or path.startswith("../"):
            if ctx.check_links and ctx.exists_outside(path) is False:
                yield make("BROKEN_LINK", f"link target '{path}' does not exist (and it leaves the skill folder)",
                           link.target_start, link.target_end, {"target": target, "path": path})
                continue
            yield make("LINK_OUTSIDE_SKILL", f"link '{target}' leaves the skill folder; harnesses install the folder alone",
                       link.target_start, link.target_end, {"target": target})
            continue
        if not ctx.check_links or ctx.exists(path) is not False or _placeholder_target(path):
            continue
        yield make("BROKEN_LINK", f"link target '{path}' does not exist in the skill folder",
                   link.target_start, link.target_end, {"target": target, "path": path})


def _size(doc: SkillDocument) -> Iterator[Finding]:
    src = doc.src
    first_body_line = src.line_of(doc.body_start)
    body_lines = src.line_count - first_body_line
    if src.line_starts[-1] == len(src.text) and src.line_count > 1:
        body_lines -= 1  # the empty "line" after a final line break is not a line of the body
    # Within 10 % of the recommendation nobody restructures a skill (issue 26: 32 of 144 findings on
    # the held-out tune half, 12 of 43 sampled on the test half, were 501 to 550 lines), as for the size.
    if body_lines > MAX_BODY_LINES * 1.1:
        line = first_body_line + MAX_BODY_LINES
        yield make("BODY_TOO_LONG", f"body is {body_lines:,} lines; keep SKILL.md under {MAX_BODY_LINES} lines and "
                   "move detail into references/", src.line_start(line), src.line_end(line),
                   {"lines": body_lines})
    body = doc.body_text
    # The count is an offline estimate: within 10 % of the recommendation it is noise
    # (issue 11 audit: 5,030 and 5,252 estimated tokens are nothing an author would cut).
    limit = MAX_INSTRUCTION_TOKENS * 1.1
    # Cheap bound before estimating: the estimate never exceeds the character count (a
    # non-ASCII character is one token), so a shorter body cannot be over the limit.
    if len(body) > limit:
        tokens = estimate_tokens(body)
        if tokens > limit:
            line = first_body_line
            yield make("SKILL_TOO_LARGE", f"instructions are about {tokens:,} tokens; the spec recommends under "
                       f"{MAX_INSTRUCTION_TOKENS:,} (offline estimate)", src.line_start(line),
                       src.line_end(line), {"tokens": tokens})
