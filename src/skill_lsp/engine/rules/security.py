"""What a skill makes a harness run or hides from its reviewer.

* ``!`command` `` and `` ```! `` blocks, dynamic context: Claude Code runs them when
  the skill loads, before the model reads anything (capture: claude-code@2.1.332 case
  dynamic-context; docs/harnesses.md says what it does).
* Invisible and bidirectional characters, and instructions inside HTML
  comments: the model reads them, a reviewer of the rendered Markdown does not.
* Secrets pasted into SKILL.md (reported with the value redacted).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..datarecord import datarecord
from ..document import SkillDocument
from ..findings import Finding
from ..lazyre import lazy_bytes_re, lazy_re
from .bodyscan import body_of, code_blocks
from .context import Context
from .harness_values import tool_tokens
from .levels import active, emit

# What Claude Code 2.1.332 runs (capture: claude-code@2.1.332 case dynamic-context): `!` at a line
# start or after a space or tab, then one backtick (`a!`x``, `(!`x`)`, `! `x`` and `!``x``
# stay text), inside code fences too; and a ```! fence (indented or not, any text after the bang
# is part of the command) up to its closing ```. A ~~~! fence stays text.
_DYNAMIC = lazy_re(r"(?<!\S)!`([^`\n]+)`")
_DYNAMIC_BLOCK = lazy_re(r"^[ \t]*(```!([^\n]*)\n(.*?)^[ \t]*```)[ \t]*$", re.M | re.S)
# Commands Claude Code 2.1.332 ran without any allowed-tools rule (its read-only check), observed
# one by one (capture case dynamic-context-read-only, and 36 probes of the commands unseen plugin
# skills run), alone or joined by `|`, `&&`, `||` or `;`, reading a file with `<`, errors sent to
# /dev/null: `touch` (with `Bash(*:*)` too), `mkdir`, `npm --version`, `git version`, `git remote
# get-url`, `gh`, `awk`, `> file`, a nested `$(…)` and `find … -exec` needed approval instead (cases
# dynamic-context-denied, -nested, -find-exec, -star-rule).
_READ_ONLY = ("echo", "printf", "ls", "pwd", "date", "cat", "head", "tail", "wc", "sort", "tr", "cut", "grep", "find",
              "test", "which", "uname", "hostname", "git log", "git status", "git diff", "git show",
              "git rev-parse", "git rev-list", "git remote -v", "git branch --show-current", "git branch -r")
# What its check cannot follow or did not take: output redirection (but errors to /dev/null),
# backticks, a single `&`, command or process substitution, a line break (not probed).
_UNCHECKED = lazy_re(r"[>`\n]|\$\(|<\(|(?<!&)&(?!&)")
_TO_NULL = lazy_re(r"\s*2>\s*/dev/null")
_JOINED = lazy_re(r"\s*(?:\|\||\||&&|;)\s*")
# A find or sort that runs or writes something.
_ACTING = lazy_re(r"\s-(?:exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)\b|^sort\b.*\s(?:-o|--output)\b")
_RISKY = (
    (lazy_re(r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^|;&]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|\biex\b"),
     "pipes a download into a shell"),
    (lazy_re(r"(?:^|[\s;&|(])sudo\s"), "runs sudo"),
    (lazy_re(r"\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)\b|\brm\s+-r\s+-f\b"), "deletes recursively (rm -rf)"),
    (lazy_re(r"(?:>>?|\btee\s+(?:-a\s+)?)\s*(?:~|/(?!dev/null|tmp/)|\$HOME|\.\./)"), "writes outside the skill folder"),
    (lazy_re(r"\bchmod\s+(?:-R\s+)?777\b"), "makes files world-writable"),
    # Issue 26: `!`./scripts/deploy.sh`` runs in the session's working folder, not the skill's, and
    # a script named for a side effect runs that side effect every time the skill loads.
    (lazy_re(r"(?:^|[\s;&|(])(?:(?:ba|z)?sh\s+|python3?\s+|node\s+|bun\s+|deno\s+run\s+)?(?:\./)?"
                r"(?:scripts|bin|tools)/[\w.@+-]"),
     "runs a script by a path relative to the session's working folder, not the skill folder (write "
     "${CLAUDE_SKILL_DIR}/scripts/…)"),
    (lazy_re(r"(?:^|[\s/])(?:deploy|release|publish|migrate|migration|destroy|teardown|drop|rollback|"
                r"provision|install|uninstall|push)[\w-]*\.(?:sh|py|js|mjs|ts|rb|ps1)\b", re.I),
     "runs a script named for a side effect on every load, before anyone asked for it"),
)


@datarecord(frozen=True)
class DynamicCommand:
    """A shell command a harness runs while loading the skill (!`...`)."""

    command: str
    start: int  # the whole !`...` construct or ```! fence
    end: int
    risks: tuple[str, ...]


def dynamic_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, command) of every `!` command Claude Code runs in ``text``, in order."""
    if "!`" not in text and "```!" not in text:
        return []
    spans = [(m.start(1), m.end(1), (m.group(2) + "\n" + m.group(3)).strip()) for m in _DYNAMIC_BLOCK.finditer(text)] \
        if "```!" in text else []
    blocks = list(spans)
    for m in _DYNAMIC.finditer(text):
        if not any(s <= m.start() < e for s, e, _ in blocks):
            spans.append((m.start(), m.end(), m.group(1).strip()))
    return sorted(spans)


def dynamic_commands(doc: SkillDocument) -> list[DynamicCommand]:
    """Every `!` command in the body, in order, with what makes it risky (for hover and preview)."""
    base = doc.body_start
    return [DynamicCommand(cmd, base + s, base + e, tuple(why for rx, why in _RISKY if rx.search(cmd)))
            for s, e, cmd in dynamic_spans(body_of(doc))]


def read_only(command: str) -> bool:
    """Whether Claude Code 2.1.332 runs ``command`` without an allowed-tools rule: commands seen to
    run so, alone or joined (no output redirection but errors to /dev/null, no substitution)."""
    command = _TO_NULL.sub("", command)
    if _UNCHECKED.search(command) is not None:
        return False
    return all(_ACTING.search(part) is None and any(part == c or part.startswith(c + " ") for c in _READ_ONLY)
               for part in _JOINED.split(command.strip()))


def dynamic_hover(doc: SkillDocument, offset: int) -> tuple[str, int, int] | None:
    """Markdown listing every `!` command of the skill when ``offset`` is on one (start, end of that one)."""
    commands = dynamic_commands(doc)
    here = next((c for c in commands if c.start <= offset <= c.end), None)
    if here is None:
        return None
    lines = ["**Dynamic context** — Claude Code runs these commands when the skill loads, before the model "
             "sees the skill, and puts their output in their place:", ""]
    for c in commands:
        risk = f" — ⚠ {', '.join(c.risks)}" if c.risks else ""
        mark = " ← this one" if c is here else ""
        shown = c.command.replace("\n", " ⏎ ")
        lines.append(f"- `{shown}`{risk}{mark}")
    return "\n".join(lines), here.start, here.end


# What the body's exclamation marks open: a dynamic command (`` !` `` or a ```` ```! ```` fence) or an
# HTML comment (`<!--`). One scan from '!' to '!' (rare in prose) instead of three of the body.
_BANG = lazy_re(r"!(?:`|(?<=```!)|(?<=<!)(--))")


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = body_of(doc)
    dynamic = comment = False
    for m in _BANG.finditer(body):
        if m.group(1) is None:
            dynamic = True
        else:
            comment = True
        if dynamic and comment:
            break
    if dynamic and active(ctx, "RISKY_DYNAMIC_COMMAND", "DYNAMIC_COMMAND_NOT_ALLOWED"):
        yield from _dynamic(doc, ctx)
    if not doc.text.isascii():
        yield from _invisible(doc, ctx)
    if comment:
        yield from _comments(doc, ctx)
    yield from _secrets(doc, ctx)


def _dynamic(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    commands = dynamic_commands(doc)
    if not commands:
        return
    rules = [t for t, _s, _e in tool_tokens(doc)] if doc.frontmatter_ok and "allowed-tools" in doc.entries else None
    for c in commands:
        if c.risks:
            yield from emit(ctx, "RISKY_DYNAMIC_COMMAND", f"Claude Code runs `{c.command}` when the skill loads, before "
                            f"the model or you see it; it {' and '.join(c.risks)}", c.start, c.end,
                            {"command": c.command, "risks": list(c.risks)})
        if rules is not None and not bash_allows(rules, c.command) and not read_only(c.command):
            yield from emit(ctx, "DYNAMIC_COMMAND_NOT_ALLOWED", f"allowed-tools does not permit `{c.command}`: add "
                            f"Bash({c.command.split()[0]}:*) or Claude Code refuses to load the skill (its "
                            "permission check fails)", c.start, c.end, {"command": c.command})


def bash_allows(rules: list[str], command: str) -> bool:
    """Whether Claude Code permission rules (``Bash``, ``Bash(git:*)``, ``Bash(git *)``) cover ``command``."""
    for r in rules:
        if r in ("Bash", "Bash(*)"):
            return True
        if not (r.startswith("Bash(") and r.endswith(")")):
            continue
        pattern = r[5:-1].strip()
        if pattern.endswith(":*"):
            prefix = pattern[:-2]
            if command == prefix or command.startswith(prefix + " ") or command.startswith(prefix):
                return True
        else:
            from fnmatch import fnmatchcase  # noqa: PLC0415 - only a Bash(pattern) rule with a glob gets here

            if fnmatchcase(command, pattern):
                return True
    return False


# --------------------------------------------------------------------- invisible characters

# Bidi embeddings/overrides/isolates (Trojan Source), zero-width space, word joiner and
# invisible operators, BOM, Unicode tag characters (ASCII smuggling): never needed in prose.
_ALWAYS = "\u202a-\u202e\u2066-\u2069\u200b\u2060-\u2064\ufeff\U000e0000-\U000e007f"
# Joiners and direction marks are needed in emoji sequences and right-to-left or Indic
# scripts; they are suspect only between ASCII characters.
_CONTEXTUAL = "\u200c\u200d\u200e\u200f\u061c"
_INVISIBLE = lazy_re(f"[{_ALWAYS}{_CONTEXTUAL}]+")
# The gate: every character of _INVISIBLE in UTF-8 (U+200B-200F, U+202A-202E, U+2060-2064,
# U+2066-2069, U+FEFF, U+061C, and the tags U+E0000-E007F, all F3 A0 ..), searched for among the
# text's non-ASCII bytes alone. Deleting the ASCII bytes keeps every character's bytes together
# and runs at C speed; a character class over the whole text cost 4x as much (35 µs of a real
# skill's 500: most skills hold an emoji or a dash, and the pattern then tried every character).
_INVISIBLE_UTF8 = lazy_bytes_re(rb"\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0-\xa4\xa6-\xa9]|\xef\xbb\xbf|\xd8\x9c|\xf3\xa0")
_ASCII = bytes(range(128))


def _invisible(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    text = doc.text
    if _INVISIBLE_UTF8.search(text.encode("utf-8", "surrogatepass").translate(None, _ASCII)) is None:
        return
    start_at = doc.body_start
    if doc.frontmatter_ok and "description" in doc.entries:
        start_at = min(start_at, doc.entries["description"].value.start)
    for m in _INVISIBLE.finditer(text, start_at):
        run = m.group(0)
        if m.start() == 0 and run == "\ufeff":
            continue
        if all(c in _CONTEXTUAL for c in run):
            before = text[m.start() - 1] if m.start() > 0 else " "
            after = text[m.end()] if m.end() < len(text) else " "
            if not (before.isascii() and after.isascii()):
                continue
        if m.start() < doc.body_start and not _in_description(doc, m.start()):
            continue
        if run == "\u200b" and m.start() >= doc.body_start:
            # A lone zero-width space in the body hides no text and reorders nothing; on the
            # corpus every one was debris from pasted web text (math, tables). Issue 11 audit.
            continue
        chars = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(run))
        yield from emit(ctx, "INVISIBLE_CHARACTERS", f"invisible or bidirectional control characters ({chars}): the "
                        "model reads them but a reviewer does not see them", m.start(), m.end(), {"fix": "delete"})


def _in_description(doc: SkillDocument, offset: int) -> bool:
    entry = doc.entries.get("description")
    return entry is not None and entry.value.start <= offset < entry.value.end


# --------------------------------------------------------------------- hidden instructions

_COMMENT = lazy_re(r"<!--(.*?)-->", re.S)
_INSTRUCTION = lazy_re(
    r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:instructions?|previous|above|rules|guidelines|prompt)\b"
    r"|\bdo not (?:tell|mention|reveal|inform|show|disclose)\b|\bwithout (?:telling|asking|informing|notifying)\b"
    r"|\bsystem prompt\b|\b(?:curl|wget)\s+\S|\bexfiltrat|\bsend (?:the |all |any )?(?:contents?|files?|keys?|tokens?|"
    r"secrets?|credentials?|data)\b|\b(?:secretly|silently|covertly)\b",
    re.I)


def _comments(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = body_of(doc)
    if "<!--" not in body:
        return
    base = doc.body_start
    code = code_blocks(doc)
    for m in _COMMENT.finditer(body):
        s = base + m.start()
        if any(cs <= s < ce for cs, ce in code):
            continue
        hit = _INSTRUCTION.search(m.group(1))
        if hit is None:
            continue
        if any(cs <= s < ce for cs, ce in doc.code_blocks):
            continue  # the fence scan misses indented blocks: the exact parse confirms a finding
        yield from emit(ctx, "HIDDEN_COMMENT", f"HTML comment carries an instruction (\"{hit.group(0).strip()}\"): the "
                        "model reads comments, the rendered Markdown a reviewer sees hides them", s, base + m.end(),
                        {"text": hit.group(0).strip()})


# --------------------------------------------------------------------- secrets

# Each kind: the literals it starts with (tests of them gate it: a regex alternation scan of
# every skill cost more than all other body rules together) and its pattern.
_SECRETS = (
    ("AWS access key id", ("AKIA",), lazy_re(r"AKIA[0-9A-Z]{16}\b")),
    ("GitHub token", ("ghp_", "github_pat_"),
     lazy_re(r"ghp_[A-Za-z0-9]{36,}\b|github_pat_[A-Za-z0-9_]{60,}\b")),
    ("Anthropic API key", ("sk-ant-",), lazy_re(r"sk-ant-[A-Za-z0-9_-]{32,}")),
    ("OpenAI API key", ("sk-",), lazy_re(r"sk-(?!ant-)(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}")),
    ("Slack token", ("xox",), lazy_re(r"xox[abprs]-[A-Za-z0-9-]{20,}")),
    ("Google API key", ("AIza",), lazy_re(r"AIza[0-9A-Za-z_-]{35}\b")),
    ("Stripe secret key", ("_live_",), lazy_re(r"[sr]k_live_[0-9A-Za-z]{24,}\b")),
    ("private key", ("PRIVATE KEY",), lazy_re(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY"
                                                 r"(?: BLOCK)?-----\s*(?:[A-Za-z0-9+/=]{40,}\s*){2,}")),
)
_PLACEHOLDER = lazy_re(r"x{4,}|X{4,}|EXAMPLE|example|your|YOUR|\.\.\.|<|\*{3,}|0{8,}|1234567|abcdef|placeholder|"
                          r"replace|dummy|fake|sample|redacted|changeme|insert|here|demo|test|secret|token|mykey|"
                          r"apikey|api_key|api-key|key_?here|(.)\1{5,}", re.I)


# One scan per first character of the literals above, before any literal is looked for: a
# pattern that opens with one literal character is searched for at C speed (the rarer the
# character, the faster), where each `in` test walks the text again. Six scans instead of
# eleven: 20 µs a real-size skill instead of 32. A gate is the union of its literals exactly.
_SECRET_GATES = (
    (lazy_re("A(?:KIA|Iza)"), ("AKIA", "AIza")),
    (lazy_re("g(?:hp_|ithub_pat_)"), ("ghp_", "github_pat_")),
    (lazy_re("sk-"), ("sk-ant-", "sk-")),
    (lazy_re("xox"), ("xox",)),
    (lazy_re("_live_"), ("_live_",)),
)


def _secrets(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    text = doc.text
    opened = {lit for gate, literals in _SECRET_GATES if gate.search(text) for lit in literals}
    if "PRIVATE KEY" in text:
        opened.add("PRIVATE KEY")
    if not opened:
        return
    for label, literals, rx in _SECRETS:
        for lit in literals:
            if lit in opened and lit in text:
                break
        else:
            continue
        for m in rx.finditer(text):
            value = m.group(0)
            if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-"):
                continue  # inside a longer word
            if _PLACEHOLDER.search(value) or _low_entropy(value) or _sequential(value):
                continue
            shown = value[:6] + "…" if label != "private key" else "-----BEGIN … PRIVATE KEY-----"
            yield from emit(ctx, "SECRET", f"{label} in the skill ({shown}, {len(value)} characters): anyone who "
                            "installs the skill gets it; revoke it and load it from the environment instead",
                            m.start(), m.end(), {"kind": label})


def _sequential(value: str) -> bool:
    """A run of 5 characters counting up or down (`abcde`, `12345`, `9876`…): a made-up key
    (issue 26: an obvious placeholder was reported as an error)."""
    run = 1
    for a, b in zip(value, value[1:], strict=False):
        run = run + 1 if a.isalnum() and b.isalnum() and abs(ord(b) - ord(a)) == 1 else 1
        if run >= 5:
            return True
    return False


def _low_entropy(value: str) -> bool:
    tail = value[-24:]
    return len(set(tail)) < 8
