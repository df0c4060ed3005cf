"""Targets: the harnesses a skill is written for, and what the lint expects for them.

A target set comes from `--target` / `targets = [...]`, from the historical
`--profile` / `profile = "..."` (an alias for one target), or by default from
the root a skill lives in (`.claude/skills` -> the harnesses that read it).
:func:`view` turns a set into the lint's :class:`~.profiles.Profile`; the four
historical profiles are ``view((name,))``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from .findings import RULES, Severity
from .harness import HARNESSES, SPEC_FIELDS, Harness, get, roots_reading
from .lazyre import lazy_re
from .profiles import DEFAULT_PROFILE, Profile

LEGACY_PROFILES = ("skill-tool", "agentskills", "claude-code", "dsh")


def parse(value: str | Iterable[str]) -> tuple[str, ...]:
    """`"claude-code,codex"` or a list -> canonical names, in order, without repeats; ValueError if unknown."""
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError("expected target names")
        if not item.strip():
            continue
        name = get(item).name
        if name not in out:
            out.append(name)
    if not out:
        raise ValueError(f"expected at least one of {', '.join(HARNESSES)}")
    return tuple(out)


def harnesses(targets: Sequence[str]) -> tuple[Harness, ...]:
    return tuple(HARNESSES[t] for t in targets)


def infer(skill_dir: str | None) -> tuple[str, ...]:
    """The harnesses that read the root ``skill_dir`` lives in (documented-only ones left out), else
    Claude Code for a skill of a plugin it loads (`<plugin>/skills/<name>/` beside
    `<plugin>/.claude-plugin/`, a manifest it takes or none, or a folder its plugin.json's `skills`
    names: installed whole, its skills listed as `plugin:name`); () if none."""
    if not skill_dir:
        return ()
    found = roots_reading(skill_dir)
    if found:
        return found
    from .harness.claude_plugin import named, plugin_of, plugin_skills_folder  # noqa: PLC0415 - outside every root

    # A plugin's `skills/` folder, else a folder its plugin.json's `skills` names (probe plugin-layouts).
    plugin = plugin_of(skill_dir) if plugin_skills_folder(os.path.dirname(skill_dir)) else named(skill_dir)
    return ("claude-code",) if plugin is not None and plugin.name is not None else ()


def for_skill(configured: Sequence[str], fallback: str, skill_dir: str | None) -> tuple[str, ...]:
    """Configured targets, else those inferred from the skill's root, else the fallback profile."""
    return tuple(configured) or infer(skill_dir) or (fallback,)


def _effect_key(hs: Sequence[Harness], code: str) -> list[str]:
    """CODE plus every CODE:field some target grades separately."""
    keys = [code]
    for h in hs:
        for k in h.effects:
            if k.startswith(code + ":") and k not in keys:
                keys.append(k)
    return keys


def severity(code: str, targets: Sequence[str], field: str | None = None) -> Severity:
    """The worst severity among the targets; a target that says nothing keeps the rule's default."""
    worst = None
    for h in harnesses(targets):
        e = h.effect(code, field)
        level = e.level() if e is not None else RULES[code].severity
        worst = level if worst is None else min(worst, level)
    return worst if worst is not None else RULES[code].severity


# A later verb of the same subject: "cannot read it and leaves it out", "ignores it and never
# shows it", "parses it again ..., else reads no field", "reads no fields from it: lists it ..."
# (not "letters, digits and spaces as written", nor "; its editor warns": an object follows the verb).
_LATER_VERB = lazy_re(r"(?:(?<=\band )|(?<=, else )|(?<=\bbut )|(?<=: )|(?<=\(then ))((?:never )?)([a-z]+s)"
                      r"(?= (?:it|its|the|a|an|no|them|this|not)\b)")


def _plural(note: str) -> str:
    """``note`` (third person singular) for more than one harness: each of its verbs plural."""
    verb, _, rest = note.partition(" ")
    out = f"{_base(verb)} {rest}" if rest else _base(verb)
    return _LATER_VERB.sub(lambda m: m.group(1) + _base(m.group(2)), out)


def _base(verb: str) -> str:
    return {"does": "do", "has": "have", "is": "are"}.get(verb, verb[:-1] if verb.endswith("s") else verb)


def describe(code: str, targets: Sequence[str], field: str | None = None, *, always: bool = False) -> str:
    """What each target does, grouped: "Codex and OpenCode ignore it; skills-ref rejects it".

    Empty (unless ``always``) when the targets agree with each other and with the rule's
    default severity: then the message alone says what happens.
    """
    hs = harnesses(targets)
    levels = {(e.level() if e is not None else RULES[code].severity) for e in (h.effect(code, field) for h in hs)}
    if levels == {RULES[code].severity} and not always:
        return ""
    groups: dict[str, list[str]] = {}
    for h in hs:
        e = h.effect(code, field)
        if e is not None:
            groups.setdefault(e.note, []).append(h.title)
    parts = []
    for note, titles in groups.items():
        who = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
        text = f"{who} {note if len(titles) == 1 else _plural(note)}"
        parts.append(text)
    return "; ".join(parts)


def _union(groups: Iterable[Sequence[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for g in groups:
        out.extend(k for k in g if k not in out)
    return tuple(out)


class _Notes(dict):
    """The sentence naming what the targets do, by CODE or CODE:field, worded when a finding first
    asks for it: a view's ~60 sentences were a tenth of a one-skill check's run."""

    def __init__(self, targets: tuple[str, ...]) -> None:
        super().__init__()
        self.targets = targets

    def __missing__(self, key: str) -> str:
        code, _, field = key.partition(":")
        t = self.targets
        # A single harness that is not a historical profile is always named.
        note = self[key] = describe(code, t, field or None, always=len(t) == 1 and t[0] not in LEGACY_PROFILES)
        return note

    def get(self, key: str, default: object = None) -> str:  # type: ignore[override]
        return self[key]  # Profile.adjust asks only for the codes the targets grade


@lru_cache(maxsize=64)
def view(targets: tuple[str, ...]) -> Profile:
    """The lint's expectations for skills written for ``targets`` (a tuple of canonical names)."""
    hs = harnesses(targets)
    # The agentskills spec fields are the common floor: a harness that does not act on `license`
    # is no reason to flag it (it is not an unknown field, only an unused one).
    # ... unless a target reports one as unsupported (VS Code: allowed-tools) and no target reads it.
    flagged = {k for h in hs for k in h.flags}
    known = _union([*(h.reads for h in hs), tuple(k for k in SPEC_FIELDS if k not in flagged)])
    deferred = tuple(k for k in _union(h.deferred for h in hs) if k not in known)
    codes = {k for h in hs for k in h.effects} | {"UNKNOWN_FIELD", "CAMELCASE_FIELD", "NAME_MISMATCH"}
    severities: dict[str, Severity] = {}
    for code in sorted({c.split(":")[0] for c in codes}):
        for key in _effect_key(hs, code):
            field = key.split(":", 1)[1] if ":" in key else None
            severities[key] = severity(code, targets, field)
    notes = _Notes(targets)

    def label(code: str) -> str:
        return "error" if severities[code] == Severity.ERROR else "warning" if severities[code] == Severity.WARNING \
            else "info"

    readers = [h for h in hs if "allowed-tools" in h.reads]
    arg_readers = [h for h in hs if "arguments" in h.reads]
    bool_readers = [h for h in hs if "disable-model-invocation" in h.reads or "user-invocable" in h.reads]
    if len(hs) == 1:
        name, title, unknown_note = hs[0].name, _TITLES.get(hs[0].name, hs[0].summary.rstrip(".")), hs[0].unknown_note
    else:
        name = ",".join(targets)
        title = ", ".join(h.title for h in hs)
        unknown_note = "'{key}' is read by none of the targets (" + ", ".join(h.title for h in hs) + ")"
    return Profile(
        name, title, known, deferred,
        unknown_severity=label("UNKNOWN_FIELD"),
        unicode_names=all(h.unicode_names for h in hs),
        string_booleans=bool(bool_readers) and all(h.string_booleans for h in bool_readers),
        tools_form="string" if any(h.tools_form == "string" for h in readers) else "any",
        camel_case_severity="error" if severities["CAMELCASE_FIELD"] == Severity.ERROR else "warning",
        name_mismatch_severity=label("NAME_MISMATCH"),
        targets=targets,
        free_arguments=bool(arg_readers) and all(h.free_arguments for h in arg_readers),
        unknown_note=unknown_note,
        severities=severities,
        notes=notes,
    )


# The titles the historical profiles carried (shown by `skill-lsp rules`).
_TITLES = {
    "skill-tool": "skill-tool spec (000): the cross-language skill tool",
    "agentskills": "agentskills.io spec and skills-ref (strict)",
    "claude-code": "Claude Code",
    "dsh": "DeepSeek Harness",
}

class _Profiles:
    """The historical profiles by name, each built on first use: a check builds the views of
    its skills' targets, seldom these four (half a millisecond of a one-skill check)."""

    def __getitem__(self, name: str) -> Profile:
        if name not in LEGACY_PROFILES:
            raise KeyError(name)
        return view((name,))

    def __contains__(self, name: object) -> bool:
        return name in LEGACY_PROFILES

    def __iter__(self) -> Iterator[str]:
        return iter(LEGACY_PROFILES)

    def __len__(self) -> int:
        return len(LEGACY_PROFILES)

    def values(self) -> list[Profile]:
        return [self[name] for name in LEGACY_PROFILES]


PROFILES = _Profiles()
TARGET_NAMES: tuple[str, ...] = tuple(HARNESSES)
assert DEFAULT_PROFILE in PROFILES
