"""``claude-code``: Claude Code, proven against the 2.1.332 release (tests/golden/harness).

Catalog: ``The following skills are available for use with the Skill tool:``,
a blank line, then one ``- folder: text`` line per skill (``- folder (name): text``
when the frontmatter name differs from the folder).  The text is the
description (or, without one, the first body line: a heading's text, cut at
100 characters; ``Skill`` for an empty body) and `` - when_to_use`` (any value
as JavaScript's ``String()`` gives it);
runs of newlines and tabs become one space, ``<`` and ``>`` are escaped, and
it is cut at 1,535 characters + ``…``.  Activation: the tool result
``Launching skill: <folder>`` and a separate text block ``Base directory for
this skill: <dir>`` + blank line + the body with leading whitespace removed
and arguments substituted as the release does.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Collection, Sequence
from functools import lru_cache

from skill_lsp.engine.activation.jsstr import (
    JS_DOT,
    JS_NOT_WS,
    JS_WHITESPACE,
    JS_WS,
    js_string,
    js_trim,
    locale_key,
    utf16_len,
    utf16_slice,
    well_formed,
)
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.harness.data import (
    CLAUDE_CODE_BUILTINS,
    CLAUDE_CODE_COMMAND_NAMES,
    CLAUDE_CODE_SHORTENED_BUILTINS,
    CLAUDE_CODE_SUGGESTED,
)
from skill_lsp.engine.listing import described, record_listing

from .. import fuzzy
from ..claude_frontmatter import ClaudeFrontmatter, same_block
from ..claude_frontmatter import read as read_frontmatter
from ..datarecord import replace
from ..harness import HARNESSES
from ..harness.claude_commands import Command, commands_in, plugins_under
from ..harness.claude_plugin import Plugin, inside_another, plugin_at, plugin_of, skill_name
from ..lazyre import lazy_re
from ..lenient import fields, text_value
from ..rules.harness_values import argument_names
from .base import BudgetWarning, Dialect, unsubstituted_body
from .cells import string_width

__all__ = ["ClaudeCodeDialect", "MAX_LISTING_DESCRIPTION_CHARS", "substitute", "split_arguments"]

MAX_LISTING_DESCRIPTION_CHARS = 1536
_HEADER = "The following skills are available for use with the Skill tool:"
#: Stand-in for the session id a real run substitutes for ${CLAUDE_SESSION_ID}.
PREVIEW_SESSION_ID = "00000000-0000-4000-8000-000000000000"
#: Stands for a `context: fork` skill's answer: its subagent's, known only once it ran.
FORKED_ANSWER = "<the subagent's answer>"
#: ${CLAUDE_EFFORT}: the turn's effort level ("low" ... "max"); a session at its default sends
#: "medium" (capture case effort-level, found by capture diff --real).
PREVIEW_EFFORT = "medium"
#: A Markdown heading's text (JavaScript's `.` stops at any line terminator).
# JavaScript's \s and \S (a byte order mark is whitespace there, not to Python's \s).
_HEADING = lazy_re(f"#+{JS_WS}+({JS_NOT_WS}{JS_DOT}*)")
MAX_FIRST_LINE_CHARS = 100
_BUILTIN_SKILLS = frozenset(name for name, _ in CLAUDE_CODE_BUILTINS)
_BUILTIN_NAMES = _BUILTIN_SKILLS | CLAUDE_CODE_COMMAND_NAMES


# Shell operators end the arguments (probed: `a;b`, `a | b`, `a && b`, `(a) [b]`, `a>b c`, `a 2>&1 b`,
# a newline); the longest spelling first.
_OPERATORS = ("2>&1", ">>", "&&", "||", "|&", ";;", "<(", ">&", "&", ";", "|", "(", ")", "<", ">", "\n")
_REDIRECT = lazy_re(r"\d+(?:>&\d*|>>?|<)")
_BANG = lazy_re(r"(^|[ \t])!")


def _expansion_end(text: str, i: int) -> int | None:
    """Where the expansion at ``text[i] == "$"`` ends: `$NAME`, `$N`, `${…}` or `$((…))`; None otherwise."""
    if text.startswith("${", i):
        end = text.find("}", i + 2)
        return None if end < 0 else end + 1
    if text.startswith("$((", i):
        depth, j = 0, i + 1
        while j < len(text):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                return j
        return None
    m = _SIMPLE_EXPANSION.match(text, i)
    return m.end() if m else None


_SIMPLE_EXPANSION = lazy_re(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9])")


class _Unbalanced(ValueError):
    pass


def _tokens(arguments: str) -> list[str | None]:
    """Shell words (quotes and backslashes resolved, `$VARS` kept as written, `#` at a word's
    start a comment) and operators (None)."""
    out: list[str | None] = []
    cur: str | None = None
    i, n = 0, len(arguments)

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            out.append(cur)
        cur = None

    while i < n:
        c = arguments[i]
        if c in " \t":
            flush()
            i += 1
            continue
        redirect = _REDIRECT.match(arguments, i) if cur is None and c.isdigit() else None
        op = redirect.group(0) if redirect else next((o for o in _OPERATORS if arguments.startswith(o, i)), None)
        if op is not None:
            flush()
            out.append(None)
            i += len(op)
            continue
        if c == "#" and cur is None:
            break
        if c == "$" and cur is None and any(t is not None for t in out):
            # A later word that is only an expansion: `$(…)` ends the words, `$VAR`, `${…}` and
            # `$((…))` are left out (`a $HOME b` -> a, b); with more in the word it stays as
            # written (`${X}y`). Probe arguments: 18 strings.
            if arguments.startswith("$(", i) and not arguments.startswith("$((", i):
                out.append(None)
                return out
            end = _expansion_end(arguments, i)
            if end is not None and (end == n or arguments[end] in " \t"
                                    or any(arguments.startswith(o, end) for o in _OPERATORS)):
                i = end
                continue
        if c == "`":
            # Its bash parser (tree-sitter-bash's node types in its bundle): a backtick opening the
            # first word makes the rest of the string one word without it (`` `cmd` `` -> `` cmd` ``);
            # one opening a later word ends the words (`` x `y` z `` -> `x`); inside a word it stays,
            # up to its closing one (`` a`b` c `` -> `` a`b` ``, `c`). The probe's four backtick strings.
            if cur is None:
                if not any(t is not None for t in out):
                    out.append(arguments[i + 1:])
                else:
                    out.append(None)
                return out
            end = arguments.find("`", i + 1)
            end = n - 1 if end < 0 else end
            cur += arguments[i:end + 1]
            i = end + 1
            continue
        if c == "'":
            end = arguments.find("'", i + 1)
            if end < 0:
                raise _Unbalanced(arguments)
            cur = (cur or "") + arguments[i + 1:end]
            i = end + 1
            continue
        if c == '"':
            j, piece = i + 1, []
            while j < n and arguments[j] != '"':
                if arguments[j] == "\\" and j + 1 < n and arguments[j + 1] in '"\\$`':
                    piece.append(arguments[j + 1])
                    j += 2
                else:
                    piece.append(arguments[j])
                    j += 1
            if j >= n:
                raise _Unbalanced(arguments)
            cur = (cur or "") + "".join(piece)
            i = j + 1
            continue
        if c == "\\" and i + 1 < n:
            cur = (cur or "") + arguments[i + 1]
            i += 2
            continue
        if arguments.startswith("$(", i):  # a command substitution stays in its word, as written
            depth, j = 0, i + 1
            while j < n:
                depth += {"(": 1, ")": -1}.get(arguments[j], 0)
                j += 1
                if depth == 0:
                    break
            cur = (cur or "") + arguments[i:j]
            i = j
            continue
        cur = (cur or "") + c
        i += 1
    flush()
    return out


def split_arguments(arguments: str) -> list[str]:
    """The arguments as Claude Code 2.1.332 splits them (probed with 83 argument strings,
    capture/diff/FINDINGS.md): shell words, quotes removed, `$VARS` not expanded (a later word
    that is only one left out); leading operators skipped and the words after the first later
    operator or command substitution dropped; a `!` starting a word escaped as `\\!`. Unbalanced
    quotes fall back to splitting at whitespace."""
    try:
        tokens = _tokens(arguments)
    except _Unbalanced:
        return arguments.split()
    words: list[str] = []
    for t in tokens:
        if t is None:
            if words:
                break
            continue
        words.append(t)
    return [_BANG.sub(r"\1\\!", w) for w in words]


# `$N` followed by a word character is not a placeholder (`$1x`, `$0a`, `$1_`); `$ARGUMENTS` is
# one whatever follows (`$ARGUMENTSx`).
_PLACEHOLDER = lazy_re(r"(\\?)\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)|(\d+)(?!\w))")


def _named(body: str, names: Sequence[str], parts: Sequence[str]) -> tuple[str, bool]:
    """``$name`` of each declared name filled with its argument, an empty one past the last (the
    release fills it anyway), before any other placeholder: a name `ARGUMENTS` takes the first
    argument. Not followed by a word character or `[`; `\\$name` stays, without the backslash,
    and is no replacement; two backslashes escape nothing. Whether anything was replaced."""
    found = False
    for i, name in enumerate(names):
        value = parts[i] if i < len(parts) else ""

        def one(m: re.Match[str], value: str = value) -> str:
            nonlocal found
            if m.group(1) == "\\":
                return m.group(0)[1:]
            found = True
            return (m.group(1) or "") + value

        body = re.sub(r"(\\\\|\\)?\$" + re.escape(name) + r"(?![\w\[])", one, body)
    return body, found


def substitute(body: str, arguments: str, skill_dir: str | None, session_id: str = PREVIEW_SESSION_ID,
               effort: str = PREVIEW_EFFORT, project_dir: str | None = None, names: Sequence[str] = (),
               plugin: Plugin | None = None) -> str:
    """The body as Claude Code hands it over: placeholders replaced, else ``ARGUMENTS:`` appended
    (also when every placeholder is past the last argument: nothing was replaced). ``names``: the
    declared argument names (``argument_names``); ``plugin``: the plugin of a plugin's skill, whose
    variables are filled as `--plugin-dir` fills them (probe plugin-names); ``skill_dir`` None: a
    command's, where `${CLAUDE_SKILL_DIR}` stays as written (probe commands)."""
    parts = split_arguments(arguments)
    body, found = _named(body, names, parts) if names else (body, False)
    arguments = _BANG.sub(r"\1\\!", arguments)  # as $ARGUMENTS and `ARGUMENTS:` show it

    def one(m: re.Match[str]) -> str:
        nonlocal found
        escaped, index, whole, position = m.groups()
        if escaped:
            # \$ARGUMENTS stays literal, without the backslash, and is no replacement: `ARGUMENTS:`
            # is still appended (the differential tester, seed 2026).
            return m.group(0)[1:]
        if whole:
            found = True
            return arguments
        n = int(index if index is not None else position)
        if n < len(parts):
            found = True
            return parts[n]
        return m.group(0)

    out = _PLACEHOLDER.sub(one, body)
    if skill_dir is not None:
        out = out.replace("${CLAUDE_SKILL_DIR}", skill_dir)
    out = out.replace("${CLAUDE_SESSION_ID}", session_id)
    out = out.replace("${CLAUDE_EFFORT}", effort)
    if project_dir is not None:  # the session's folder (capture case project-dir)
        out = out.replace("${CLAUDE_PROJECT_DIR}", project_dir)
    if plugin is not None:
        # An installed plugin's data folder ends in its marketplace's name instead of `inline`.
        data = os.path.join(os.path.expanduser("~"), ".claude", "plugins", "data", f"{plugin.name}-inline")
        out = out.replace("${CLAUDE_PLUGIN_ROOT}", plugin.root).replace("${CLAUDE_PLUGIN_DATA}", data)
    if not found and arguments:
        out += f"\n\nARGUMENTS: {arguments}"
    return out


def _first_line(body: str) -> str:
    """What the release lists for a skill without a description (capture case
    listing-fallbacks): the first non-blank line, a heading's text without its
    marker, over 100 UTF-16 units cut to 97 + ``...``; ``Skill`` for a blank body."""
    for line in body.split("\n"):
        text = js_trim(line)
        if text:
            heading = _HEADING.fullmatch(text)
            text = heading.group(1) if heading else text
            if utf16_len(text) <= MAX_FIRST_LINE_CHARS:
                return text
            return well_formed(utf16_slice(text, MAX_FIRST_LINE_CHARS - 3)) + "..."
    return "Skill"


# Terminal escape sequences the listing removes (ECMA-48): CSI (ESC [ or 0x9B, parameters,
# intermediates, a final byte); OSC, DCS, SOS, PM and APC strings up to BEL or ST (ESC \ or 0x9C),
# or to the end when unterminated; any other ESC, intermediates and a final byte.
_ESCAPES = lazy_re(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])(?:.*?(?:\x07|\x1b\\|\x9c)|.*$)"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?", re.S)
# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt).
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _invisible(ch: str) -> bool:
    """Controls, format, private-use and unassigned characters, line and paragraph separators, and
    default-ignorable ones: what the listing turns into spaces."""
    if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn", "Zl", "Zp", "Cs"):
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE)


def _pictographic(ch: str) -> bool:
    """Unicode's Extended_Pictographic, near enough for the joiners below: the emoji blocks, the
    arrows, technical, dingbat and symbol blocks, and the few pictographs elsewhere (©, ®, ‼, ™)."""
    cp = ord(ch)
    return (0x1F000 <= cp <= 0x1FAFF or 0x2190 <= cp <= 0x21FF or 0x2300 <= cp <= 0x23FF
            or 0x2460 <= cp <= 0x27BF or 0x2900 <= cp <= 0x297F or 0x2B00 <= cp <= 0x2BFF
            or cp in (0xA9, 0xAE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D, 0x3297, 0x3299))


def _joins(text: str, i: int, kept_before: bool) -> bool:
    """Whether the invisible character at ``i`` holds an emoji or a conjunct together, which the
    listing keeps (probe joiners, stored): VS16 after a pictograph or before a keycap mark, a ZWJ
    between pictographs (a skin tone or a VS16 between), a ZWJ or ZWNJ after a virama before a
    letter, a tag after a black flag or a tag. ``kept_before``: whether the character before it was
    kept as such a joiner."""
    ch = text[i]
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ch == "\ufe0f":
        return bool(before) and _pictographic(before) or after == "\u20e3"
    if ch == "\u200d" and after and _pictographic(after):
        return bool(before) and (_pictographic(before) or "\U0001f3fb" <= before <= "\U0001f3ff"
                                 or (before == "\ufe0f" and kept_before))
    if ch in "\u200c\u200d" and before and after:
        return unicodedata.combining(before) == 9 and unicodedata.category(after).startswith("L")
    if "\U000e0020" <= ch <= "\U000e007f":
        return before == "\U0001f3f4" or ("\U000e0020" <= before <= "\U000e007f" and kept_before)
    return False


def sanitize(text: str) -> str:
    """What Claude Code 2.1.332 makes of a listing's text (probed with the capture rig, one skill per
    character: capture/diff/FINDINGS.md): escape sequences removed, then each run of invisible
    characters (newlines and tabs included) one space, but for the joiners an emoji or a conjunct
    holds (probe joiners); other spaces kept as written."""
    if text.isascii() and text.isprintable():
        return text  # no escape sequence (ESC is not printable) and no invisible character
    text = _ESCAPES.sub("", text)
    out: list[str] = []
    run = kept = False
    for i, ch in enumerate(text):
        if _invisible(ch) and not (kept := _joins(text, i, kept)):
            if not run:
                out.append(" ")
            run = True
        else:
            out.append(ch)
            run = False
    return "".join(out)


# When its YAML parse fails, Claude Code parses again with every one-line `key: value` value that holds
# ': ' or opens a flow collection put in double quotes as written; when that fails too (a `"` inside
# such a value, a value continued on indented lines, a quote never closed) it reads no field. Found
# by the probe case invalid-yaml-kinds and the differential tester (seed 2026).
def _fields(record: SkillRecord) -> dict:
    """The frontmatter as Claude Code reads it (claude_frontmatter.py)."""
    if not record.text or (record.frontmatter and same_block(record.text)):
        return fields(record)  # parsed as the release parses it (claude_frontmatter.same_block)
    read = _read(record.text).fields
    # A number or a boolean is read as JavaScript's String() of it, a list or a map not at all
    # (probe case non-string-values); when_to_use keeps its value (a list reads "a,b").
    out = dict(read)
    for key in ("name", "description"):
        value = read.get(key)
        if value is not None and not isinstance(value, str):
            out[key] = js_string(value) if isinstance(value, (bool, int, float)) else None
    return out


@lru_cache(maxsize=4096)
def _read(text: str) -> ClaudeFrontmatter:
    return read_frontmatter(text)


def declared_name(record: SkillRecord) -> str | None:
    """The frontmatter's `name` as Claude Code reads it (a number as JavaScript's String() of it)."""
    return text_value(_fields(record).get("name"))


def shows_declared(declared: str | None, folder: str) -> bool:
    """Whether the listing shows a declared name beside the folder (`- folder (name): …`): a name of
    letters, digits, '-', '_', '.' and ':' only, not the folder, not the name of one of its built-in skills or commands."""
    return (bool(declared) and declared != folder and all(c.isalnum() or c in "-_.:" for c in declared or "")
            and declared not in _BUILTIN_NAMES)


def listing_text(record: SkillRecord) -> str:
    """Description (or first body line) and when_to_use, as one listing line."""
    fm = _fields(record)
    description = fm.get("description")
    text = js_trim(description) if isinstance(description, str) else ""
    if not text:
        # No usable description: the first line of what follows the frontmatter block (of the
        # whole file without one). (capture cases gen-claude-code-skill-bytes-invalid-yaml-*)
        text = _first_line(record.body if not record.text else _read(record.text).content)
    when = fm.get("when_to_use")
    when = None if when is None else js_string(when)  # a list reads "first,second"
    if when:
        text = f"{text} - {when}"
    return sanitize(text).replace("<", "&lt;").replace(">", "&gt;")


# The listing budget of 2.1.332. The release reserves a share of the model's context window for
# the listing (1 % of it, at 4 characters a token, by its own code) and measures the listing in
# terminal columns (Bun.stringWidth: a wide character counts 2, a zero-width one or a tab 0; see
# cells.py), not in UTF-16 units. With the model of the captured runs, the largest listing it gives
# in full is 30,136 columns (every line, the built-ins' lines, one separator between two): found by
# bisection with the capture rig, the same with 24 and with 74 skills (capture case listing-budget
# holds one run). Past it, the built-in skills keep their full lines; then `security-review` and
# the user's skills in listing order keep theirs while what is left of the budget allows (a later,
# shorter one may still fit); the rest are listed by name only.
# SLASH_COMMAND_TOOL_CHAR_BUDGET, the skillListingBudgetFraction setting and another model's
# window change it in a real run; the preview assumes none of them.
LISTING_BUDGET = 30_136

# Claude Code adds a column for each Indic spacing vowel sign (its terminal draws them wider than
# Bun counts) and for a few symbols Bun counts narrow in a one-column cluster.
_EXTRA_COLUMNS = lazy_re(
    "[\u093b\u093e-\u0940\u0949-\u094c\u0982\u09be-\u09c0\u09c7\u09c8\u09cb\u09cc\u09d7"
    "\u0a3e-\u0a40\u0abe-\u0ac0\u0ac9\u0acb\u0acc\u0b02\u0b3e\u0b40\u0b47\u0b48\u0b4b\u0b4c"
    "\u0b57\u0bbe\u0bbf\u0bc1\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcc\u0bd7\u0c01\u0c02\u0c41-\u0c44"
    "\u0c82\u0cbe\u0cc0-\u0cc4\u0cc7\u0cc8\u0cca\u0ccb\u0cd5\u0cd6\u0d02\u0d3e-\u0d40\u0d46-\u0d48"
    "\u0d4a-\u0d4c]")


def columns(text: str) -> int:
    """Columns of one listing line as Claude Code counts them against its budget."""
    return string_width(text) + len(_EXTRA_COLUMNS.findall(text))


def builtins_kept(replaced: Collection[str] = ()) -> list[tuple[str, int]]:
    """The built-in skills' (name, line columns) the listing holds: a user's skill whose folder
    has a built-in's name replaces it (capture case builtin-names)."""
    return [(name, chars) for name, chars in CLAUDE_CODE_BUILTINS if name not in replaced]


def listing_chars(lines: Sequence[str], replaced: Collection[str] = ()) -> int:
    """The listing's size as the release counts it: every line in columns, the built-ins ``replaced``
    does not name included, one separator between two."""
    builtins = [chars for _, chars in builtins_kept(replaced)]
    count = len(lines) + len(builtins)
    return sum(columns(line) for line in lines) + sum(builtins) + max(0, count - 1)


def name_only(lines: Sequence[tuple[str, str, str]], budget: int = LISTING_BUDGET,
              replaced: Collection[str] = ()) -> set[str]:
    """Paths of the skills listed by name only, from (path, full line, name-only line) in listing
    order; ``replaced``: the built-ins a user's skill stands in for."""
    kept = builtins_kept(replaced)
    if listing_chars([full for _, full, _ in lines], replaced) <= budget:
        return set()
    fixed = [chars for name, chars in kept if name not in CLAUDE_CODE_SHORTENED_BUILTINS]
    # The built-ins that may be shortened come first, with their own lines' sizes: the three
    # over-budget batches of the differential tester that pin the boundary (seed 2026, batches 11,
    # 23, 83) agree only so; with them after the user's skills, 73 columns too many were left.
    first = [(f"builtin:{name}", "x" * chars, f"- {name}") for name, chars in kept
             if name in CLAUDE_CODE_SHORTENED_BUILTINS]
    entries = [*first, *lines]
    count = len(entries) + len(fixed)
    left = budget - (sum(fixed) + sum(columns(brief) for _, _, brief in entries) + max(0, count - 1))
    short = set()
    for path, full, brief in entries:
        extra = columns(full) - columns(brief)
        if extra <= left:
            left -= extra
        else:
            short.add(path)
    return {p for p in short if not p.startswith("builtin:")}


def _replaced(lines: Sequence[tuple[SkillRecord, str, str]]) -> set[str]:
    """The built-in skills the listed skills replace (a folder of a built-in's name)."""
    # A plugin's `kit:security-review` replaces none (probed: both are listed).
    return {key(r) for r, _, _ in lines} & _BUILTIN_SKILLS


def key(record: SkillRecord) -> str:
    """The name the ``Skill`` tool takes and the listing shows: the folder name, `plugin:folder` for a
    plugin's skill (probe plugin-names: plugin.json's name, else the plugin's folder); a command's."""
    if isinstance(record.checked, Command):
        return record.checked.key
    plugin = plugin_of(record.dir)
    if plugin is None or plugin.name is None:
        return record.folder
    return f"{plugin.name}:{skill_name(plugin, record.dir, lambda: declared_name(record))}"


def _plugin(record: SkillRecord) -> Plugin | None:
    return record.checked.plugin if isinstance(record.checked, Command) else plugin_of(record.dir)


def _suggested_as(record: SkillRecord) -> str:
    """The name the ``Skill`` tool suggests a skill by: its declared name, else its key (probe
    unknown-names: `declared-on` is one edit from `declared-one`, `folder-on` from nothing)."""
    if isinstance(record.checked, Command):
        return key(record)
    declared = declared_name(record)
    return _prefixed(record, declared) if declared else key(record)


def _units(text: str) -> str | list[int]:
    """``text`` as JavaScript indexes it: astral characters as two UTF-16 units."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def _prefixed(record: SkillRecord, name: str) -> str:
    """``name`` as the listing shows it for ``record``: a plugin's skill's or command's with the
    plugin's prefix, unless it holds that prefix already (probe plugin-names: `kit:one-x` stays,
    `other:two-x` is `kit:other:two-x`). A plugin's command in a folder takes the folders too, as its
    key does (`commands/ns/d.md` named `other` is `kit:ns:other`, `kit:x` is `kit:ns:kit:x`,
    `kit:ns:c` stays; held-out unseen24's yellow-plugins, 13 plugins, and a probe of the release)."""
    command = record.checked if isinstance(record.checked, Command) else None
    if command is not None and command.plugin is not None:
        prefix = command.key[:len(command.key) - len(command.stem)]
    else:
        plugin = _plugin(record)
        prefix = f"{plugin.name}:" if plugin is not None and plugin.name else ""
    return name if name.startswith(prefix) else f"{prefix}{name}"


def _with_commands(records: Sequence[SkillRecord], workspace: str | None = None) -> list[SkillRecord]:
    """``records`` and the commands Claude Code lists beside them (harness/claude_commands.py): a
    project's or the user's `.claude/commands` beside a `.claude/skills` root they come from or in
    ``workspace``, a plugin's beside its skills or anywhere in ``workspace``."""
    places: dict[str, Plugin | None] = {}  # commands folder -> its plugin
    if workspace is not None:
        places[os.path.join(workspace, ".claude", "commands")] = None
        for found in plugins_under(workspace):
            if found.name:
                places[os.path.join(found.root, "commands")] = found
    for r in records:
        of = plugin_of(r.dir)
        if of is not None and of.name:
            if not inside_another(of):
                places.setdefault(os.path.join(of.root, "commands"), of)
        elif r.root.replace(os.sep, "/").endswith("/.claude/skills"):
            places.setdefault(os.path.join(os.path.dirname(r.root), "commands"), None)
    out = list(records)
    for folder, owner in places.items():
        commands = commands_in(folder, owner)
        for c in _in_walk_order(commands) if owner is not None else commands:
            out.append(SkillRecord(c.key, c.key, os.path.dirname(c.path), c.path, 0, folder, {},
                                   _read(c.text).content, text=c.text, checked=c))
    return out


def _in_walk_order(commands: list[Command]) -> list[Command]:
    """A plugin's ``commands``, each with its place in the release's walk of the folder it was found
    in: in localeCompare order, a folder's subfolders named before its first file come first, then
    its files, then its other subfolders (probes of the release: `ns/a.md` before `top.md`, `a.md`
    and `c.md` before `b/x.md`, `aa/x.md`, `bb.md`, `zz.md`, then `mm/a.md`)."""
    first: dict[tuple[int, tuple[str, ...]], tuple] = {}  # (rank, folder) -> its first file's key
    for c in commands:
        *folders, name = c.rel.split("/")
        at = (c.rank, tuple(folders))
        if at not in first or locale_key(name) < first[at]:
            first[at] = locale_key(name)
    out = []
    for c in commands:
        *folders, name = c.rel.split("/")
        walk = []
        for i, part in enumerate(folders):
            before = first.get((c.rank, tuple(folders[:i])))
            walk.append((0 if before is None or locale_key(part) < before else 2, locale_key(part)))
        walk.append((1, locale_key(name)))
        out.append(replace(c, walk=tuple(walk)))
    return out


def _is_command(path: str) -> bool:
    """Whether ``path`` is a command's file rather than a skill's SKILL.md."""
    return os.path.basename(path) != "SKILL.md" and f"{os.sep}commands{os.sep}" in path


def _command_listed(record: SkillRecord, loaded: bool) -> bool:
    """Whether Claude Code lists a command: unless a flag hides it (``loaded``: whether it loads
    it), or it is a plugin's without a description."""
    fm = _fields(record)
    command = record.checked
    if isinstance(command, Command) and command.plugin is not None and not described(fm.get("description")):
        return False
    return loaded or not HARNESSES["claude-code"].hides(fm)


def _shown(records: Sequence[SkillRecord], chosen: Sequence[SkillRecord]) -> dict[str, str]:
    """Path -> the declared name the listing shows beside the key of each of ``chosen`` (the listed
    among ``records``), which the ``Skill`` tool takes too (probe plugin-names: `mm-declared`
    activates the folder nn-named). A declared name is shown only by the first skill claiming it,
    and never when it is another skill's key: among every skill the release loads, those that
    disable-model-invocation keeps out of the catalog too (held-out seed 9001, batch 70)."""
    every = sorted({r.path: r for r in (*listed(records, loaded=True), *chosen)}.values(), key=_order)
    claimed = {key(r) for r in every}
    shown: dict[str, str] = {}
    for r in every:
        declared = declared_name(r)
        command = r.checked if isinstance(r.checked, Command) else None
        if command is not None and command.plugin is None:
            continue  # a project's command shows none, and is not called by it (probe of commands)
        of = plugin_of(r.dir) if command is None else None  # a plugin's skill: its key's part, `a-b` for `a.b`
        folder = command.stem if command is not None else key(r).removeprefix(f"{of.name}:") if of and of.name else r.folder
        if declared is not None and shows_declared(declared, folder) and _prefixed(r, declared) not in claimed:
            shown[r.path] = _prefixed(r, declared)
            claimed.add(shown[r.path])
    return shown


def _order(r: SkillRecord) -> tuple:
    # A plugin's skills come after the project's and the user's (probe plugin-names); a project's
    # commands after its skills, a plugin's before them (probes of commands).
    command = r.checked if isinstance(r.checked, Command) else None
    plugin = _plugin(r)
    if plugin is None:
        # A project's commands by their names (probe commands: `review` before `review-pr`, `a-c:x` before `a:x`).
        return (False, "", command is not None, r.root_index, locale_key(command.key if command is not None else r.folder))
    if command is not None:
        return (True, plugin.root, False, command.rank, command.walk)
    # Its root's SKILL.md last; its `skills/` folder's first, then each folder plugin.json names, in order.
    return (True, plugin.root, True, r.dir == plugin.root, plugin.rank(r.dir), r.root_index, locale_key(key(r)))


def listed(records: Sequence[SkillRecord], *, loaded: bool = False) -> list[SkillRecord]:
    """Who Claude Code lists (engine.listing), in its order: roots in the order
    given, folder names in localeCompare order within a root (capture case listing-order-locale:
    `a_b` before `a-b`, `ab` before `Ab`, テスト before のり), plugins' skills last; the first of a
    name wins. ``loaded``: who it loads, those a flag keeps out of the model's catalog among them."""
    seen: set[str] = set()
    out = []
    for r in sorted(records, key=_order):
        name = key(r)
        if name in seen:
            continue
        if not (_command_listed(r, loaded) if isinstance(r.checked, Command)
                else record_listing(r, "claude-code", loaded=loaded).listed):
            continue
        seen.add(name)
        out.append(r)
    return out


def project_folder(skill_dir: str) -> str | None:
    """The folder a session started in, for a project skill (`<folder>/.claude/skills/<name>`); None
    for a skill elsewhere (a user skill: the session's folder is not the skill's to tell)."""
    path = skill_dir.replace(os.sep, "/")
    at = path.rfind("/.claude/skills/")
    if at <= 0:
        return None
    folder = skill_dir[:at]
    return None if os.path.normpath(folder) == os.path.normpath(os.path.expanduser("~")) else folder


class ClaudeCodeDialect(Dialect):
    name = "claude-code"
    label = "Claude Code 2.1.332"
    harness = "claude-code"
    string_for_named_arguments = True
    # The Skill tool's result names the skill as it was called: its key, a declared name (captures
    # mention-names, same-name-paths: `Launching skill: spaced name`) or a plugin's skill's folder.
    echoes_name = True

    def listed_name(self, record: SkillRecord) -> str:
        """What the model calls ``record`` by: its key."""
        return key(record)

    def includes(self, record: SkillRecord) -> bool:
        return self.listing(record).listed

    def order(self, records):  # type: ignore[no-untyped-def]
        return listed(list(records))

    def render_ok(self, result: OkResult) -> str:
        arguments = result.arguments if isinstance(result.arguments, str) else ""
        text = result.source_text
        read = _read(text) if text is not None else None
        # A file without a frontmatter block (claude_frontmatter.py) is handed over whole, a byte
        # order mark included (the differential tester).
        # Where the release's block is not the one skill-lsp split off (text after the closing
        # `---` on its line, a `---` inside a value), what follows the release's block (seed-11
        # real-skill run: `---# Title`).
        theirs = read is not None and (not read.block or not same_block(text or ""))
        body = read.content if read is not None and theirs else unsubstituted_body(result)
        if read is not None and not read.block and result.bom:
            body = "\ufeff" + body  # the document keeps the mark apart from its text
        if read is None or read.block:
            # After a frontmatter, leading whitespace goes before arguments are put in or appended:
            # an empty body keeps the blank lines before `ARGUMENTS:` (capture case
            # gen-claude-code-skill-bytes-invalid-yaml-unbalanced-quote). A file without one is
            # handed over as it is, leading blank lines included (the differential tester). Trimmed
            # as JavaScript trims: a byte order mark goes, NEL stays.
            body = body.lstrip(JS_WHITESPACE)
        declared = (read.fields if read is not None else result.frontmatter).get("arguments")
        if _is_command(result.path):
            # A command's body alone, its plugin's variables and the session's folder filled, not
            # `${CLAUDE_SKILL_DIR}` (probe commands).
            root, _, _ = result.path.rpartition(f"{os.sep}commands{os.sep}")
            plugin = plugin_at(root)
            project = root[:-len(f"{os.sep}.claude")] if root.endswith(f"{os.sep}.claude") else None
            return substitute(body, arguments, None, project_dir=project, names=argument_names(declared),
                              plugin=plugin if plugin is not None and plugin.name else None)
        plugin = plugin_of(result.dir)
        body = substitute(body, arguments, result.dir, project_dir=project_folder(result.dir),
                          names=argument_names(declared), plugin=plugin if plugin is not None and plugin.name else None)
        return f"Base directory for this skill: {result.dir}\n\n{body}"

    def tool_result(self, result: OkResult) -> str:
        """The ``Skill`` tool's own result; the body follows as a separate block, except for a
        `context: fork` skill, whose body is a subagent's prompt and whose result is the subagent's
        answer (capture case context-fork)."""
        folder = result.dir.rstrip('/').rsplit('/', 1)[-1]
        if result.frontmatter.get("context") == "fork":
            return f'Skill "{folder}" completed (forked execution).\n\nResult:\n{FORKED_ANSWER}'
        return f"Launching skill: {result.name}"  # as called (echoes_name), its key for a file previewed

    def render_not_found(self, result: NotFoundResult) -> str:
        return f"Unknown skill: {result.name}"

    def unknown(self, records: Sequence[SkillRecord], name: str, workspace: str | None = None) -> str:
        """What the ``Skill`` tool answers for a name it finds nothing by (probe unknown-names): the
        plugin's skill or command whose key ends in `:x` (`Did you mean kit:x? Invoke it by that full
        name.`), else `Unknown skill: x. Did you mean y?` for the first name at most two edits away with the
        fewest (optimal string alignment, in UTF-16 units, case counted): the skills it loads in
        listing order, each by its declared name else its folder (those disable-model-invocation
        or user-invocable keep from the model or the menu among them, conditional ones not yet),
        then its commands, their aliases and its built-in skills (``CLAUDE_CODE_SUGGESTED``)."""
        if not name:
            return "Invalid skill format: "
        loaded = listed(list(_with_commands(records, workspace)), loaded=True)
        # A plugin's skill or command called without its prefix: the one whose key ends in `:name`
        # (probe plugin-layouts: `fold-b` for `pb:fold-b`; more than one such key is not probed).
        ends = [k for k in map(key, loaded) if k.endswith(f":{name}")]
        if len(ends) == 1:
            return f"Unknown skill: {name}. Did you mean {ends[0]}? Invoke it by that full name."
        fuzzy.load()
        from rapidfuzz.distance import OSA  # noqa: PLC0415 - only a name nothing is found by

        best, fewest = None, 3
        units = _units(name)
        for candidate in (*map(_suggested_as, loaded), *CLAUDE_CODE_SUGGESTED):
            other = _units(candidate)
            if abs(len(other) - len(units)) > 2:
                continue
            d = OSA.distance(units, other, score_cutoff=2)  # optimal string alignment; 3 past two edits
            if d < fewest:
                best, fewest = candidate, d
        return f"Unknown skill: {name}. Did you mean {best}?" if best is not None else f"Unknown skill: {name}"

    def activation_record(self, records: Sequence[SkillRecord], name: str,
                          workspace: str | None = None) -> SkillRecord | None:
        """The ``Skill`` tool takes the listed key (the folder name, `plugin:folder` for a plugin's
        skill) or a declared name, first the one the listing shows beside a key, then one it does
        not show (capture mention-names: `spaced name`); a plugin's skill's declared name holding
        no `:` alone finds it too (probes plugin-names, plugin-layouts: `uno` finds `kit:one`, never the
        folder's name `one`) unless a project, user or built-in skill has that
        name (probed: `alpha` activates `.claude/skills/alpha` beside `kit:alpha`, `security-review`
        the built-in beside `kit:security-review`)."""
        chosen = listed(records)
        hit = next((r for r in chosen if key(r) == name), None)
        if hit is None:
            shown = _shown(records, chosen)
            hit = next((r for r in chosen if shown.get(r.path) == name), None) or next(
                (r for r in chosen if (d := declared_name(r)) and _prefixed(r, d) == name), None)
        hit = hit or (None if name in _BUILTIN_NAMES or ":" in name else next(
            (r for r in chosen if declared_name(r) == name and plugin_of(r.dir) is not None), None))
        if hit is None:
            # A command, by its key or a plugin's command by the declared name shown beside it (probe
            # of commands: `kit:own` for kit/commands/q2.md); never a project command's declared name.
            every = _with_commands(records, workspace)
            commands = [r for r in listed(every) if isinstance(r.checked, Command)]
            shown = _shown(every, commands)
            hit = next((r for r in commands if key(r) == name), None) or next(
                (r for r in commands if shown.get(r.path) == name), None)
        return hit

    def entry_name(self, record: SkillRecord) -> str:
        """A plugin's skill under its listed name (`plugin:folder`)."""
        return key(record) if plugin_of(record.dir) is not None else record.name

    def catalog_entry(self, record: SkillRecord) -> str:
        return self._entry(record, shows_declared(declared_name(record), record.folder))

    def _entry(self, record: SkillRecord, show_declared: bool) -> str:
        """``show_declared``: the declared name beside the key, prefixed as the key is."""
        text = listing_text(record)
        # Counted in UTF-16 units, as JavaScript counts: an astral character takes two (capture case
        # gen-claude-code-skill-bytes-nbsp-line-sep-zwj).
        if utf16_len(text) > MAX_LISTING_DESCRIPTION_CHARS:
            # A cut inside a surrogate pair reaches the model as U+FFFD (held-out seed 9001, batch 60).
            text = well_formed(utf16_slice(text, MAX_LISTING_DESCRIPTION_CHARS - 1)) + "\u2026"
        label = key(record)
        if show_declared:
            label = f"{label} ({_prefixed(record, declared_name(record) or '')})"
        return f"- {label}: {text}"

    def _lines(self, records: Sequence[SkillRecord], workspace: str | None = None
               ) -> list[tuple[SkillRecord, str, str]]:
        """(record, full line, name-only line) of every listed skill, in listing order."""
        records = _with_commands(records, workspace)
        chosen = listed(records)
        shown = _shown(records, chosen)
        out = []
        for r in chosen:
            full = self._entry(r, r.path in shown)
            out.append((r, full, f"- {key(r)} ({shown[r.path]})" if r.path in shown else f"- {key(r)}"))
        return out

    def render_catalog(self, records: Sequence[SkillRecord], workspace: str | None = None) -> str:
        """``workspace``: where the commands listed with the skills are looked for too."""
        lines = self._lines(records, workspace)
        short = name_only([(r.path, full, brief) for r, full, brief in lines], replaced=_replaced(lines))
        shown = [brief if r.path in short else full for r, full, brief in lines]
        # Its built-in skills are always listed after these (not rendered here), so the header is
        # always sent (capture case gen-claude-code-skill-listing-disable-model-invocation-quoted).
        return "\n".join([_HEADER, "", *shown])

    def catalog_warnings(self, records: Sequence[SkillRecord], workspace: str | None = None) -> list[BudgetWarning]:
        out = super().catalog_warnings(records)
        lines = self._lines(records, workspace)
        replaced = _replaced(lines)
        short = name_only([(r.path, full, brief) for r, full, brief in lines], replaced=replaced)
        if not short:
            return out
        total = listing_chars([full for _, full, _ in lines], replaced)
        builtins = len(builtins_kept(replaced))
        before = 0
        for r, _, _ in lines:
            if r.path in short:
                out.append(BudgetWarning(
                    self.name, "claude-code-name-only",
                    f"{self.label} lists this skill by name only: its listing budget ({LISTING_BUDGET:,} "
                    f"columns, a wide character counting two) is used up by the {builtins} built-in skills and the "
                    f"{before} skill{'s' if before != 1 else ''} before it (the whole listing would be "
                    f"{total:,})", LISTING_BUDGET, total, path=r.path))
            before += 1
        return out

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        if not self.includes(record):
            return []
        text = listing_text(record)
        if utf16_len(text) <= MAX_LISTING_DESCRIPTION_CHARS:
            return []
        return [
            BudgetWarning(
                self.name,
                "claude-code-listing-cap",
                f"description + when_to_use is {len(text)} chars; Claude Code lists at most {MAX_LISTING_DESCRIPTION_CHARS} per skill",
                MAX_LISTING_DESCRIPTION_CHARS,
                len(text),
                kept=utf16_slice(text, MAX_LISTING_DESCRIPTION_CHARS - 1),
                cut=text[len(utf16_slice(text, MAX_LISTING_DESCRIPTION_CHARS - 1)):],
            )
        ]
