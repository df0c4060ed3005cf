"""References from one skill to another, by name or by path (pure; spans are document offsets).

Forms recognised (docs/server.md lists where each is documented):

- ``/skill-name`` — a slash invocation (Claude Code, OpenCode and the skill tool
  let the user type it; skills tell the model to run one). Also the plugin
  namespaced ``/plugin:skill-name``; the span covers the skill name only.
- ``$skill-name`` and ``[$skill-name](path)`` — Codex's mention syntax (a mention
  in a prompt injects the skill); common environment variables are not mentions.
- ``Skill(skill-name)`` in ``allowed-tools`` — a Claude Code permission rule
  naming a skill (``Skill(name *)`` and ``Skill(name:*)`` prefix forms too;
  patterns with other wildcards name no single skill).
- A relative link into another skill's folder (``../other/SKILL.md``,
  ``../other/references/x.md``); the span is the folder segment of the target.

Fenced and indented code blocks hold no mentions (shell ``$var`` and paths such
as ``cd /tmp`` live there); inline code does (`` `/deploy` `` is how authors write
an invocation). Only inline-code slash mentions can be UNKNOWN_SKILL findings.
"""

from __future__ import annotations

import posixpath

from .datarecord import datarecord
from .document import SkillDocument
from .lazyre import lazy_re
from .links import classify, may_leave_folder, relative_path

NAME = r"[a-z0-9][a-z0-9-]*"
# Patterns start with their literal so the regex engine can skip to candidates (a lookbehind
# first made the scan cost as much as a whole check); what follows is checked in Python.
# A slash invocation: at a line start, after whitespace or an opening bracket/quote/backtick,
# looked at from behind the slash (a path's or URL's slashes, most of them, fail there, in C; no
# match spans two slashes, so the ones left are those a filter after the search kept).
_SLASH = lazy_re(r"/(?<![^ \t\r\n(\[`\"'>]/)(?:(" + NAME + r"):)?(" + NAME + r")")
# Codex: [A-Za-z0-9_-] after '$' (codex-rs mention parser); lowercase-initial kebab names only,
# so $ARGUMENTS, $1, $HOME and shell variables in prose never count.
_DOLLAR = lazy_re(r"\$([a-z][a-z0-9-]*)")
_WORD = lazy_re(r"[\w]")
_SKILL_RULE = lazy_re(r"\bSkill\(\s*(?:name:)?(" + NAME + r")(?:\s*\*|:\*)?\s*\)")
# Common environment variables Codex never treats as mentions (lowercase here: names are lowercase).
_ENV = frozenset({"path", "home", "user", "shell", "pwd", "tmpdir", "temp", "tmp", "lang", "term",
                  # OData and similar query options (`$filter`, `$top`, `$skip`): issue 26
                  "filter", "top", "skip", "select", "expand", "orderby", "count", "search", "format", "apply",
                  "inlinecount", "skiptoken", "batch", "metadata", "value", "ref", "each", "this", "root"})


# An HTTP route, not an invocation: `GET /users`, "the `/health` endpoint" (issue 26). The verbs
# count only in capitals.
_ROUTE = lazy_re(r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b|\b(?i:end-?points?|routes?|webhooks?|url path)\b")


def _route_context(text: str, at: int) -> bool:
    """Whether the line around a slash word says it is an HTTP route."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return _ROUTE.search(text, start, end if end >= 0 else len(text)) is not None


@datarecord(frozen=True, slots=True)
class Mention:
    """A reference to a skill in a document (slash command, `$name`, tool rule, link)."""

    name: str  # the skill name (for a link: the folder segment)
    start: int  # span of the name inside the document
    end: int
    kind: str  # "slash" | "dollar" | "tool" | "link"
    folder: str | None = None  # link mentions: the absolute folder the segment names
    # Certainly meant as a skill reference: a slash word in prose may be an endpoint or a
    # built-in command (`/healthz`, `/plan`); one in inline code (`` `/deploy` ``) is an invocation.
    strict: bool = True


def _in(spans: list[tuple[int, int]], offset: int) -> bool:
    return any(s <= offset < e for s, e in spans)


def extract(doc: SkillDocument, reported: bool = False) -> list[Mention]:
    """Every mention in one document, in document order. ``reported``: only those a check can
    report (UNKNOWN_SKILL: a tool rule, a `$name`, a slash invocation in inline code), which spares
    most skills the Markdown parse (`check` keeps no others; the server keeps all for navigation)."""
    out: list[Mention] = []
    text = doc.text
    if doc.frontmatter_ok:
        entry = doc.entries.get("allowed-tools")
        if entry is not None:
            v = entry.value
            for m in _SKILL_RULE.finditer(text, v.start, max(v.start, v.end)):
                out.append(Mention(m.group(1), m.start(1), m.end(1), "tool"))
    start = doc.body_start
    if start >= len(text):
        return out
    n = len(text)
    slash, dollar = [], []
    # Textual candidates first: the Markdown parse (code blocks, link targets) only runs
    # when one survives or a link could leave the folder -- most skills mention no skill.
    for m in _SLASH.finditer(text, start):
        at, end = m.start(), m.end()
        if reported and (at == 0 or text[at - 1] != "`"):
            continue  # only an invocation in inline code is strict
        # A path or file name goes on (`/usr/bin`, `/foo.md`, `/a:b/c`): not an invocation.
        nxt = text[end] if end < n else ""
        if nxt == "/" or nxt == "_" or nxt.isalnum() or (
                nxt in ".:-" and end + 1 < n and (text[end + 1].isalnum() or text[end + 1] in "/_*")):
            continue
        # A pattern of commands (`/core:*`, `/task-review-*`) names no one skill.
        if nxt == "*" or text[end - 1] == "-":
            continue
        slash.append(m)
    for m in _DOLLAR.finditer(text, start):
        at, end = m.start(), m.end()
        prev = text[at - 1] if at > 0 else ""
        if prev and (prev.isalnum() or prev in "_$\\."):
            continue  # `a$b`, `$$x`, `\$x`, `...$spread`
        nxt = text[end] if end < n else ""
        if nxt and (nxt.isalnum() or nxt in "_([" or (nxt == "." and end + 1 < n and _WORD.match(text[end + 1]))):
            continue  # `$x_y` (Codex would read more), `$fn(`, `$a[0]`, `$vars.x`
        if m.group(1) not in _ENV:
            dollar.append(m)
    skill_dir = doc.skill_dir if doc.path else ""
    # A link mention leaves the folder through '../' (or a form the parse decodes into it).
    links = not reported and bool(skill_dir) and may_leave_folder(doc)
    if not (slash or dollar or links):
        out.sort(key=lambda x: x.start)
        return out
    # Code blocks only matter to slash and dollar candidates: links alone may spare the full parse.
    blocks = doc.code_blocks if slash or dollar else []
    body_links = doc.links if slash or links else []
    targets = [(lk.target_start, lk.target_end) for lk in body_links]
    for m in slash:
        at = m.start()
        if _in(blocks, at) or _in(targets, at):
            continue
        strict = at > 0 and text[at - 1] == "`" and not _route_context(text, at)
        if strict or not reported:
            out.append(Mention(m.group(2), m.start(2), m.end(2), "slash", strict=strict))
    for m in dollar:
        if not _in(blocks, m.start()):
            out.append(Mention(m.group(1), m.start(1), m.end(1), "dollar"))
    if links:
        for lk in body_links:
            if lk.kind == "definition" and lk.target_start == lk.target_end:
                continue
            hit = _link_mention(text, lk.target, lk.target_start, lk.target_end, skill_dir)
            if hit is not None:
                out.append(hit)
    out.sort(key=lambda x: x.start)
    return out


def _step_at(raw: str, segment: str) -> int:
    """Where ``segment`` is a whole step of the path ``raw`` (after its start or a `/`, before a
    `/`, `#`, `?` or its end), or -1. A string search: a regex built per link was compiled anew
    for most skills (0.08 ms a skill of a real-size workspace)."""
    at = raw.find(segment)
    while at >= 0:
        end = at + len(segment)
        if (at == 0 or raw[at - 1] == "/") and (end == len(raw) or raw[end] in "/#?"):
            return at
        at = raw.find(segment, at + 1)
    return -1


def _link_mention(text: str, target: str, t_start: int, t_end: int, skill_dir: str) -> Mention | None:
    """A relative link whose first step out of the skill folder lands in a sibling folder."""
    if classify(target) != "relative":
        return None
    rel = relative_path(target)
    if not rel.startswith("../") or rel.startswith("../../"):
        return None
    segment = rel.split("/")[1] if rel.count("/") >= 1 else ""
    if not segment or segment == "..":
        return None
    raw = text[t_start:t_end]
    # The segment as written (no percent-escapes): the span a rename replaces.
    at = _step_at(raw, segment)
    if at < 0:
        return None
    s = t_start + at
    parent = posixpath.dirname(skill_dir.replace("\\", "/"))
    return Mention(segment, s, s + len(segment), "link", posixpath.join(parent, segment))
