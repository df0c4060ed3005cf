"""How the description and name read to the harnesses that judge them.

Angle brackets and reserved words make validators refuse a skill; a missing
trigger clause, first/second person and vague names are guidance (hints).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..document import SkillDocument
from ..findings import Finding
from ..lazyre import lazy_re
from ..unicodetext import without_format_characters
from .context import Context
from .harness_values import string_value
from .levels import active, emit

# Codex's and Anthropic's skill-creator validators (quick_validate.py) refuse `<` or `>`;
# the Claude API refuses XML tags in a description.
_TAG = lazy_re(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
_ANGLE = lazy_re(r"[<>]")
RESERVED_WORDS = ("anthropic", "claude")
# platform.claude.com best practices: avoid vague names.
VAGUE_NAMES = frozenset(("helper", "helpers", "utils", "util", "utility", "utilities", "tools", "tool", "misc",
                         "common", "general", "stuff", "documents", "data", "files"))
MIN_WORDS = 8
# A clause that says when to use the skill: single words, then phrases (plain tests on the
# lowercased description; a regex alternation of these cost a quarter of the rule's time).
_TRIGGER_WORDS = frozenset(("when", "whenever", "trigger", "triggers", "triggered", "invoke", "invoked", "activate",
                            "activates", "activated", "upon", "before", "after",
                            # "when" in German, Spanish, French, Portuguese and Italian, Dutch, Russian
                            # (unseen AlltagshilfeFischer: "Laden wenn … relevant sind", 4 wrong hints)
                            "wenn", "sobald", "cuando", "quand", "lorsque", "quando", "wanneer", "когда"))
_TRIGGER_PHRASES = ("use this", "use it", "use for", "use to", "use on", "use in", "use with", "use if", "use after",
                    "use as", "use any time", "use anytime",
                    "use before", "use during", "if the user", "if user", "if you", "asks to", "asks for",
                    "asks about", "asked to", "asked for", "asked about", "need to", "needs to", "needed to",
                    "for tasks", "for requests", "for questions", "for any", "applies to", "used to", "used for",
                    "used by", "used during", "used before", "used after", "used in")
# The same clauses in Japanese, Chinese, Korean and Russian ("…などで使用", "用于…", "…할 때 사용"): the
# unseen Fandhe-AI/agent-reference-skills wrote its triggers so, each report on them wrong (24 of
# 24 on the corpus and 15 unseen repositories).
_CJK_TRIGGERS = ("で使用", "に使用", "で使う", "に使う", "時に使", "ときに使", "場合に使", "際に使", "呼び出", "起動",
                 "トリガー", "用于", "用於", "适用于", "適用於", "使用场景", "使用場景", "当用户", "當用戶", "时使用", "時使用",
                 "时调用", "触发", "觸發", "用途", "何时使用", "使用时机", "사용", "트리거", "호출",
                 # Korean "activated", "on request", "when needed", "when doing" (unseen16
                 # k-codepoet/my-claude-plugins: "… 등 요청 시 활성화", 37 of its 68 such hints)
                 "활성화", "요청 시", "필요 시", "할 때",
                 # Japanese "invoked by" ("「アーキテクチャ設計」…などで発動": unseen17 suwa-sh, 6 hints)
                 "発動",
                 # Russian ("Активируется при …", "Используй для …": unseen dex-it/claude-code-marketplace)
                 "активиру", "используй", "используется для", "применяй", "применяется для", "вызыва")
_PUNCT = str.maketrans({c: " " for c in ".,;:!?()[]{}\"'`/*_-"})
# "my notes" inside a quoted trigger phrase is the user speaking: only the skill's own "I" counts.
_FIRST_PERSON = lazy_re(r"\bI(?:'m|'ll| am| can| will| help| create| generate| provide)\b")
_SECOND_PERSON = lazy_re(r"(?:^|[.!?]\s+)You (?:can|should|will|may|must)\b")
# Someone else's words: "double", “curly” or 'single' quotes (an apostrophe inside, I'm, stays
# in; a double or curly quote may go on over one line break, as a block scalar wraps it: unseen17
# microsoft's `"I'm presenting slides X-Y, what⏎ should I say"`), and an <example> block's dialogue.
_QUOTED = lazy_re(r'"[^"\n]*(?:\n[^"\n]*)?"|“[^”\n]*(?:\n[^”\n]*)?”|‘[^’\n]*’|「[^」\n]*」|『[^』\n]*』|(?<!\w)\'(?:[^\'\n]|\'(?=\w))*\'(?!\w)'
                  r'|<example>.*?</example>', re.S)


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    yield from _description(doc, ctx)
    yield from _name(doc, ctx)


def _description(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    value = string_value(doc, "description")
    if not value or not value.strip():
        return
    node = doc.entries["description"].value
    raw = doc.text[node.start:node.end]
    tag = _TAG.search(value) if "<" in value else None
    if tag is not None or "<" in value or ">" in value:
        shown = tag.group(0) if tag is not None else _ANGLE.search(value).group(0)  # type: ignore[union-attr]
        # Past a block scalar's header: its `>` indicator is no character of the text (unseen
        # Ryukijano/agent-skills: the range was the indicator's).
        at = raw.find(shown, raw.find("\n") + 1 if node.style in ("|", ">") else 0)
        s, e = (node.start + at, node.start + at + len(shown)) if at >= 0 else (node.start, node.end)
        what = f"an XML-like tag {shown}" if tag is not None else f"'{shown}'"
        yield from emit(ctx, "DESCRIPTION_ANGLE_BRACKETS", f"description contains {what}: Codex's and Anthropic's "
                        "skill validators refuse '<' and '>', and the Claude API refuses XML tags", s, e,
                        {"text": shown})
    # A placeholder with an invisible character in it is still the template's words (as for _is_stub).
    plain = without_format_characters(value)
    placeholder = _PLACEHOLDER.search(plain) if _may_be_placeholder(plain) else None
    if placeholder is not None:
        shown = placeholder.group(0).strip()
        yield from emit(ctx, "DESCRIPTION_PLACEHOLDER", f"the description is still the template's placeholder "
                        f"('{shown[:60]}'); write what the skill does and when to use it: the model picks skills by "
                        "this text", node.start, max(node.end, node.start + 1), {"text": shown})
    elif _is_stub(value) or _restates_name(value, string_value(doc, "name")):
        yield from emit(ctx, "DESCRIPTION_STUB", f"the description '{value.strip()}' names a topic, not what the "
                        "skill does or when to use it; the model picks skills by this text: say what it does and add "
                        "\"Use when ...\"", node.start, max(node.end, node.start + 1), {"text": value.strip()})
    # A stub of a few words is not judged: the rule is about descriptions that explain only the "what".
    # A skill only the user invokes (`disable-model-invocation: true`) is never picked by its
    # description (unseen j4flmao/agent-skills fix-issue).
    if active(ctx, "DESCRIPTION_NO_TRIGGER") and len(value.split()) >= MIN_WORDS and "when_to_use" not in doc.entries and "whenToUse" not in doc.entries \
            and not _has_trigger(value.lower()) and doc.value("disable-model-invocation") is not True:
        yield from emit(ctx, "DESCRIPTION_NO_TRIGGER", "description says what the skill does but not when to use it; "
                        "add a clause such as \"Use when ...\" (the model picks skills by this text)",
                        node.start, max(node.end, node.start + 1))
    person = _person(value)
    if person is not None and ('"' in value or "'" in value or "“" in value or "‘" in value or "<" in value):
        # Quoted speech is someone else's voice: `assistant: "I'll use /x"` in an example dialogue.
        person = _person(_unquoted(value))
    if person is not None:
        word = person.group(0).strip(" .!?")
        at = _unquoted(raw).find(word)  # not a quoted one before it
        at = raw.find(word) if at < 0 else at
        s, e = (node.start + at, node.start + at + len(word)) if at >= 0 else (node.start, node.end)
        yield from emit(ctx, "DESCRIPTION_PERSON", f"description speaks in the {'first' if person.re.pattern == _FIRST_PERSON.pattern else 'second'} "
                        f"person ('{word}'); write it in the third person (\"Extracts ...\", \"Use when ...\"): it is "
                        "read inside the model's own prompt", s, e, {"text": word})


def _unquoted(text: str) -> str:
    """``text`` with quoted speech blanked out, each character's place kept."""
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), text)


def _person(value: str) -> re.Match[str] | None:
    return (_FIRST_PERSON.search(value) if "I " in value or "I'" in value else None) or \
        (_SECOND_PERSON.search(value) if "You " in value else None)


# Phrases by their first three letters: one test skips a whole group (most descriptions hold
# no "ask" or "need" at all).
_PHRASES_BY_LEAD: dict[str, tuple[str, ...]] = {}
for _p in _TRIGGER_PHRASES:
    _PHRASES_BY_LEAD[_p[:3]] = (*_PHRASES_BY_LEAD.get(_p[:3], ()), _p)


def _has_trigger(low: str) -> bool:
    if "when" in low:
        return True
    if not low.isascii() and any(t in low for t in _CJK_TRIGGERS):
        return True
    # Phrases the user would say, quoted one after another ("install packages", "개발 도구 설치"):
    # a list of triggers in any language.
    if ('"' in low or "“" in low or "「" in low or "『" in low) and len(_QUOTED.findall(low)) >= 2:
        return True
    for lead, phrases in _PHRASES_BY_LEAD.items():
        if lead in low and any(p in low for p in phrases):
            return True
    # Whole words only ("after" but not "afterwards"); the split runs only when one occurs at all.
    return any(w in low for w in _TRIGGER_WORDS) and not _TRIGGER_WORDS.isdisjoint(low.translate(_PUNCT).split())


# A template's words left in place of a description (issue 26: `[TODO: …]`, `<description>`,
# "Describe what this skill does…", "Replace with description of the skill…").
_PLACEHOLDER = lazy_re(
    r"^\s*(?:\[\s*(?:TODO|TBD|FIXME|INSERT|DESCRIBE|DESCRIPTION|ADD)\b[^\]]*\]|(?:TODO|TBD|FIXME)\b[:.!\s-]*|"
    r"<\s*(?:description|describe[^>]*|your[- _]description|skill[- _]description|todo[^>]*)\s*>|"
    r"\{\{?\s*(?:description|skill[_ ]description)\s*\}?\}|"
    r"(?:Replace (?:this|with)\b|Describe (?:what|when|the|your|this)\b|(?:A |An )?(?:Brief|Short|One-line) "
    r"description of\b|Description of (?:the|this|what) skill\b|Add (?:a|your) (?:short )?description\b|"
    r"Your (?:skill )?description\b|Lorem ipsum\b|Explain what this skill does\b)[^\n]{0,120})"
    r"|\[(?:describe|insert|add|your|todo)\b[^\]]{0,80}\]", re.I)
# How a _PLACEHOLDER match can start (after leading white space, any case): a description that
# starts otherwise and has no "[" is not one, and the long pattern is never compiled for it.
_PLACEHOLDER_HEADS = ("<", "{", "todo", "tbd", "fixme", "replace", "describe", "a ", "an ", "brief", "short",
                      "one-line", "description", "add", "your", "lorem", "explain")


def _may_be_placeholder(value: str) -> bool:
    if "[" in value:
        return True
    head = value.lstrip()[:12]
    # Non-ASCII: re.I folds some letters onto ASCII ones (the Kelvin sign, a long s), so ask the pattern.
    return not head.isascii() or head.lower().startswith(_PLACEHOLDER_HEADS)


# A description shorter than this, with no trigger, is a topic ("Spreadsheet utilities."), not a
# description a model can route on.
STUB_CHARS = 40


_TOPIC_WORDS = frozenset(("utilities", "utility", "utils", "tools", "tool", "tooling", "helpers", "helper", "skill",
                          "skills", "misc", "miscellaneous", "functions", "snippets", "notes", "stuff", "things",
                          "support", "commands", "scripts", "toolkit", "kit", "library", "stuff", "resources"))


def _is_stub(value: str) -> bool:
    """A topic, not a description: short, no trigger, and only a noun phrase (`Spreadsheet utilities.`,
    `PDF tools`, `Helpers`). A short sentence with a verb (`Send an email.`) is left alone."""
    v = value.strip()
    if len(v) >= STUB_CHARS:
        return False
    # Invisible characters (INVISIBLE_CHARACTERS removes them) do not make a stub a sentence.
    v = without_format_characters(v)
    if not v.isascii():
        return False  # CJK and other scripts pack a sentence into few characters
    low = v.lower()
    if _has_trigger(low):
        return False
    words = low.translate(_PUNCT).split()
    # One word of one or two letters is a test stub, not a topic.
    return bool(words) and ((len(words) == 1 and len(words[0]) >= 3) or words[-1] in _TOPIC_WORDS)


def _restates_name(value: str, name: str | None) -> bool:
    """Whether the description only says the skill's name again (`Git Worktree Manager` for
    git-worktree-manager, `Skill: git-combine-commits`): 7 such descriptions on the corpus and 93
    unseen repositories, one of which a stub already; quoting the other, the safe fix of an unquoted
    `: `, left no finding on it (unseen14 audit)."""
    if not name or not value.isascii():
        return False
    words = value.lower().translate(_PUNCT).split()
    if words[:1] == ["skill"]:
        words = words[1:]
    elif words[-1:] == ["skill"]:
        words = words[:-1]
    return bool(words) and words == name.lower().translate(_PUNCT).split()


def _name(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    value = string_value(doc, "name")
    if not value or not value.strip():
        return
    node = doc.entries["name"].value
    name = value.strip().lower()
    parts = name.replace("_", "-").replace(" ", "-").split("-")
    reserved = [w for w in RESERVED_WORDS if w in parts]
    # A Claude Code plugin's skill is installed with its plugin, never uploaded alone (ten such
    # hints in an audit of 14 unseen repositories, Anthropic's own marketplace among them).
    if reserved and not ctx.in_claude_plugin():
        yield from emit(ctx, "RESERVED_NAME_WORD", f"name contains the reserved word '{reserved[0]}': skills uploaded "
                        "to the Claude API or claude.ai may not use 'anthropic' or 'claude' in their name",
                        node.start, max(node.end, node.start + 1), {"word": reserved[0]})
    if name in VAGUE_NAMES or (len(parts) > 1 and all(p in VAGUE_NAMES for p in parts)):
        yield from emit(ctx, "VAGUE_NAME", f"name '{value.strip()}' says little about what the skill does; name the "
                        "task (e.g. processing-pdfs, reviewing-migrations)", node.start, max(node.end, node.start + 1))
