"""Shared fuzzing pieces: SKILL.md-shaped text strategies, corpus mutators and the invariants.

Used by test_fuzz.py (a few hundred examples in CI) and benchmarks/fuzz_long.py (>= 100,000).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterable

from hypothesis import strategies as st

from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import RULES
from skill_lsp.engine.harness.data import RULE_LEVELS
from skill_lsp.engine.rules import codex_openai_yaml, description, fields, harness_values
from skill_lsp.engine.rules import name as name_rules
from skill_lsp.engine.text import Encoding
from skill_lsp.engine.workspace import check_text, fix_all_text

from .rendered_page import SHOWN_TEXT_FIXES, page

PATH = "/virtual/demo-skill/SKILL.md"
SETTINGS = Settings()

KEYS = ["name", "description", "license", "allowed-tools", "allowedTools", "metadata", "compatibility",
        "disable-model-invocation", "user-invocable", "argument-hint", "arguments", "version", "when_to_use",
        "model", "context", "x", "Name", "name ", "description\t", "? name", "- name", "&a name", "*a"]
VALUES = ["demo", "demo-skill", "Demo Skill", "", " ", "~", "null", "true", "yes", "1", "0x1F", "1e999",
          "2025-13-45", "'quoted'", '"dq \\q"', '"\\u00e9"', "a: b", "a #c", "[a, b", "{a: b}", "[Bash(git:*), Read]",
          "|", ">-", "&a x", "*a", "!!python/object:os.system", "!custom v", "MIT", "Apache-2.0", "LICENSE.txt",
          "x" * 70, "d" * 1100, "de\u200bmo", "demo\u202e", "caf\u00e9", "😀", "a\u2028b", "a\x0cb", "a\x00b", "\t",
          "'unterminated", '"unterminated', "- a\n- b", "\n  k: v\n  k: w", "\n  - x\n  -\n", "--- x", "..."]
BODY_LINES = ["# Title", "", "See [ref](references/a.md).", "[abs](/etc/passwd)", "[up](../../x.md)", "![img](x.png)",
              "```", "```yaml", "---", "<skill>", "</skill_content>", "$ARGUMENTS", "$ARGUMENTS[0]", "${CLAUDE_SKILL_DIR}",
              "!`echo hi`", "line with trailing space ", "\t- item", "| a | b |", "[ref]: http://x", "<!-- c -->",
              "😀 text", "\u2028", "\x0c", "x" * 300]
NEWLINES = ["\n", "\r\n", "\r"]


@st.composite
def skill_texts(draw) -> str:
    """SKILL.md-shaped text: a frontmatter-ish head built from keys/values, then a body."""
    nl = draw(st.sampled_from(NEWLINES))
    mixed = draw(st.booleans())
    parts: list[str] = []
    if draw(st.integers(0, 9)) > 0:
        parts.append(draw(st.sampled_from(["---", "---", "--- ", "\ufeff---", "----", " ---"])))
    for _ in range(draw(st.integers(0, 8))):
        indent = draw(st.sampled_from(["", "", "", "  ", "\t", "    "]))
        key = draw(st.sampled_from(KEYS) | st.text(max_size=8))
        sep = draw(st.sampled_from([": ", ":", " : ", ":\t", ": ", ": "]))
        value = draw(st.sampled_from(VALUES) | st.text(max_size=20))
        parts.append(f"{indent}{key}{sep}{value}")
    if draw(st.integers(0, 9)) > 1:
        parts.append("---")
    for _ in range(draw(st.integers(0, 6))):
        parts.append(draw(st.sampled_from(BODY_LINES) | st.text(max_size=30)))
    if mixed:
        return "".join(p + draw(st.sampled_from(NEWLINES)) for p in parts)
    return nl.join(parts) + (nl if draw(st.booleans()) else "")


# Bodies of Markdown's marks with invisible characters and blanks among them: where a deletion
# joins two marks into syntax (a fence, a link, a command Claude Code runs) or ends a paragraph.
JUNCTION_PIECES = ["`", "``", "```", "~~~", "~", "[", "]", "(", ")", "<", ">", "!", "*", "_", "-", "#", "|", "\\",
                   ":", " ", "  ", "   ", "\t", "\n", "\n", "\r\n", "\r", "\f", "\v", "<!--", "-->", "<div>", "x",
                   "word", "1.", "$0", "$ARGUMENTS", "../../x.md", "references/a.md", "https://a.b/c", "\ufeff",
                   "\u2060", "\u200d", "\u202e", "\u200b", "\ufeff", "\u2060"]
_JUNCTION_TAIL = "\n\nRun with $0 and [x](../../../x.md).\n\n```\ncode [y](../../../y.md)\n```\n"


@st.composite
def junction_texts(draw) -> str:
    body = "".join(draw(st.lists(st.sampled_from(JUNCTION_PIECES), max_size=40)))
    return ("---\nname: demo-skill\ndescription: Demo. Use when asked.\n---\n" + body
            + draw(st.sampled_from(["", _JUNCTION_TAIL])))


any_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=400)
texts = st.one_of(skill_texts(), any_text, st.builds(lambda a, b: a + b, skill_texts(), any_text), junction_texts())


# Findings that stop field analysis.
MASKING = frozenset({"INVALID_FRONTMATTER", "MISSING_FRONTMATTER", "FRONTMATTER_LIMIT"})


def _codes_of_modules(*modules: object) -> frozenset[str]:
    """The finding codes a rule module's source names (every code is a quoted literal there)."""
    codes = set(RULES) | set(RULE_LEVELS)
    return frozenset(c for m in modules for c in codes if f'"{c}"' in inspect.getsource(m))  # type: ignore[arg-type]


# What a fix that makes the frontmatter parse may reveal: every code of the modules that run only
# on a parsed frontmatter (rules.check: name, fields, harness values, description, openai.yaml),
# read from their source so the set keeps up with the rules; rules that read a field (`$ARGUMENTS`
# without an argument-hint, a `!command` allowed-tools does not permit, invisible characters in
# the description); and what a body split anew reports.
REVEALED = _codes_of_modules(name_rules, fields, harness_values, description, codex_openai_yaml) | frozenset({
    "DUPLICATE_KEY", "YAML_TAG", "TRAILING_WHITESPACE", "BODY_TOO_LONG", "SKILL_TOO_LARGE",
    "ABSOLUTE_LINK", "BROKEN_LINK", "LINK_OUTSIDE_SKILL", "ARGUMENTS_WITHOUT_HINT", "DYNAMIC_COMMAND_NOT_ALLOWED",
    "INVISIBLE_CHARACTERS"})


# Renaming a camelCase key (allowedTools -> allowed-tools) lets the field's value rules see a
# value that was already there: a null value then shows as INVALID_TYPE. Revealed, not added.
VALUE_CODES = frozenset({"INVALID_TYPE", "INVALID_VALUE", "EMPTY_FIELD", "TOO_LONG", "INVALID_ARGUMENTS",
                         "UNKNOWN_LICENSE", "METADATA_NOT_STRING", "INVALID_VERSION"})


def new_codes(before: set[str], after: set[str]) -> set[str]:
    """Finding codes that fix-all added, not counting those a removed masking finding revealed."""
    new = after - before
    if (before & MASKING) - after:
        # The fix made an unparsable frontmatter parse: field rules now run and may report
        # what the syntax error hid. Or it made a frontmatter of what was none, which may itself
        # be unfinished: an invisible character removed from "-\ufeff--" leaves an opening line
        # whose closing one a mutation deleted (MISSING_FRONTMATTER -> INVALID_FRONTMATTER).
        new -= REVEALED | MASKING
    if "CAMELCASE_FIELD" in before:
        new -= VALUE_CODES
    return new


def _body_line(doc) -> int | None:  # noqa: ANN001
    return doc.src.line_of(doc.body_start) if doc.split is not None else None


def rendered_body(doc) -> str:  # noqa: ANN001
    return page(doc.text[doc.body_start:] if doc.split is not None else doc.text)


def check_invariants(text: str, path: str = PATH, on_disk: bool = False) -> set[str]:
    """Every invariant of issue 7 on one text; returns its finding codes. Raises AssertionError on a violation.

    ``on_disk``: ``path`` is a real SKILL.md whose folder the rules read (links, scripts, listings;
    nothing is written), as for a skill the author edits in place."""
    doc, findings = check_text(text, path, SETTINGS, on_disk=on_disk)
    src = doc.src
    n = len(src.text)
    assert len(src.text) <= len(text)
    for f in findings:
        assert 0 <= f.start <= f.end <= n, (f.code, f.start, f.end, n)
        for enc in (Encoding.UTF8, Encoding.UTF16, Encoding.UTF32):
            for off in (f.start, f.end):
                line, ch = src.position(off, enc)
                assert 0 <= line < src.line_count and ch >= 0
                back = src.offset(line, ch, enc)
                # Offsets inside a CRLF pair map to the end of the line's content.
                assert back == off or (back < off and set(src.text[back:off]) <= {"\r", "\n"}), (f.code, off, enc, back)
    codes = {f.code for f in findings}
    fixed = fix_all_text(text, path, SETTINGS, on_disk=on_disk)
    if fixed != text:
        again = fix_all_text(fixed, path, SETTINGS, on_disk=on_disk)
        assert again == fixed, "fix-all is not idempotent"
        fixed_doc, fixed_findings = check_text(fixed, path, SETTINGS, on_disk=on_disk)
        # A safe fix never breaks what a harness could read: a frontmatter that parsed still does.
        assert fixed_doc.frontmatter_ok or not doc.frontmatter_ok, "fix-all made the frontmatter unparsable"
        new = new_codes(codes, {f.code for f in fixed_findings})
        assert not new, f"fix-all added {sorted(new)}"
        # A safe fix changes nothing a reader of the rendered page sees (unless the frontmatter
        # reads anew or ends elsewhere: a blank trimmed from `---<VT>` closes it there; fixes meant
        # to change shown text aside).
        if (fixed_doc.frontmatter_ok == doc.frontmatter_ok and _body_line(fixed_doc) == _body_line(doc)
                and not codes & SHOWN_TEXT_FIXES):
            assert rendered_body(fixed_doc) == rendered_body(doc), \
                f"fix-all changed the rendered body (fixing {sorted(codes - {f.code for f in fixed_findings})})"
    return codes


# --- mutation-based fuzzing seeded from real skills -----------------------------------------

SPLICES = ["---", ": ", '"', "'", ":", "\n---\n", "- ", "  ", "\t", "&a ", "*a", "!!str ", "#", "[", "]", "{", "}",
           "|", ">", "\r", "\r\n", "\u2028", "\x00", "\ufeff", "\u200b", "\\", "%", "@", "`", "name: x\n"]


def mutate(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """Insert/delete/duplicate/swap lines, flip bytes, splice YAML-significant fragments."""
    for _ in range(rounds or rng.randint(1, 4)):
        op = rng.randrange(8)
        lines = text.split("\n")
        if op == 0 and lines:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif op == 1 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == 2 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == 3:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(SPLICES + ["---", "name: demo", "description:"]))
            text = "\n".join(lines)
        elif op in (4, 5):
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(SPLICES) + text[i:]
        elif op == 6 and text:
            data = bytearray(text.encode("utf-8", "surrogatepass"))
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
            text = bytes(data).decode("utf-8", "replace")
        elif text:
            i = rng.randrange(len(text))
            j = min(len(text), i + rng.randint(1, 40))
            text = text[:i] + text[j:]
    return text


def corpus_texts(root: str, limit: int | None = None) -> Iterable[str]:
    for _path, text in corpus_files(root, limit):
        yield text


def corpus_files(root: str, limit: int | None = None) -> Iterable[tuple[str, str]]:
    """(path, text) of each SKILL.md under ``root`` (its first 256 KiB)."""
    import os  # noqa: PLC0415

    count = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name in ("SKILL.md", "skill.md"):
                path = os.path.join(dirpath, name)
                try:
                    with open(path, "rb") as fh:
                        data = fh.read(256 * 1024)
                except OSError:
                    continue
                yield path, data.decode("utf-8", "replace")
                count += 1
                if limit is not None and count >= limit:
                    return
