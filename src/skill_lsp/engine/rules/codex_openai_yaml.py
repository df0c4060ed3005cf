"""Codex's `agents/openai.yaml` beside SKILL.md (codex-rs core skills loader).

Codex deserialises the file with serde into {interface, dependencies, policy}
and fails open: invalid YAML drops the whole file, a bad value drops that
value (with a log line nobody sees), unknown keys are ignored. Each of those
is reported here, on the SKILL.md's opening fence, naming the line in the YAML;
an unknown key only where it looks like a misspelt known one (authors keep keys
of their own tooling there: unseen jieli-cqwl/org-claude-skills, 27 warnings).
Limits: display_name ≤ 64, short_description and default_prompt ≤ 1,024
characters (whitespace collapsed), brand_color `#RRGGBB`, icons relative under
assets/, dependencies.tools[] need type and value (type ≤ 64 characters).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from .. import fuzzy
from ..discovery import read_regular
from ..document import SkillDocument
from ..findings import Finding
from ..lazyre import lazy_re
from ..text import SourceText
from ..yamlnodes import Node, compose, resolve_scalar
from .context import Context
from .levels import emit

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

PATH = "agents/openai.yaml"
MAX_BYTES = 256 * 1024
TOP_KEYS = ("interface", "dependencies", "policy")
INTERFACE = {"display_name": 64, "short_description": 1024, "icon_small": 0, "icon_large": 0, "brand_color": 0,
             "default_prompt": 1024}
TOOL_KEYS = {"type": 64, "value": 1024, "description": 1024, "transport": 64, "command": 1024, "url": 1024}
POLICY_KEYS = ("allow_implicit_invocation", "products")
_COLOR = lazy_re(r"^#[0-9A-Fa-f]{6}$")


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    if ctx.skill_dir is None:
        return
    # A stat first: a failed open raises, and nearly every skill has no such file (3x cheaper).
    # (rules.depth_check makes the same test before importing this module.)
    if ctx.exists(PATH) is False:
        return
    path = os.path.join(ctx.skill_dir, "agents", "openai.yaml")
    data = read_regular(path, MAX_BYTES + 1)
    if data is None:
        return
    sp = doc.split
    anchor = (sp.open_start, max(sp.open_end, sp.open_start + 1)) if sp is not None and sp.has_frontmatter \
        else (0, max(doc.src.line_end(0), 1))
    for line, message in problems(data.decode("utf-8", "replace"), ctx.skill_dir):
        yield from emit(ctx, "INVALID_OPENAI_YAML", f"{PATH} line {line}: {message}", *anchor,
                        {"file": PATH, "line": line})


def problems(text: str, skill_dir: str | None = None) -> list[tuple[int, str]]:
    """(1-based line, message) for each value Codex would drop or ignore."""
    src = SourceText(text)
    root, err, _tagged = compose(text)
    if err is not None:
        return [(src.line_of(err.offset) + 1, f"invalid YAML ({err.message}); Codex ignores the whole file")]
    return _problems(root, src, skill_dir)


def _problems(root: Node | None, src: SourceText, skill_dir: str | None) -> list[tuple[int, str]]:
    if root is None:
        return []
    out: list[tuple[int, str]] = []

    def at(node: Node, message: str) -> None:
        out.append((src.line_of(node.start) + 1, message))

    if root.kind != "map":
        at(root, "must be a mapping with interface, dependencies or policy; Codex ignores the whole file")
        return out
    for k, v in _items(root):
        key = k.value
        if key not in TOP_KEYS:
            # A section's key written at the top (`display_name:`) is ignored as well.
            _unknown(k, "", TOP_KEYS, at) or _unknown(k, "interface.", tuple(INTERFACE), at, moved=True) or \
                _unknown(k, "policy.", POLICY_KEYS, at, moved=True)
        elif key == "interface":
            _interface(v, skill_dir, at)
        elif key == "dependencies":
            _dependencies(v, at)
        else:
            _policy(v, at)
    return out


def _unknown(key: Node, where: str, known: tuple[str, ...], at: Any, moved: bool = False) -> bool:
    """A key Codex ignores, reported only when it looks like a misspelt ``known`` one (``moved``: a
    top-level key that is ``where``'s); whether it was."""
    near = _near(str(key.value), known)
    if near is not None:
        written = key.value if moved else f"{where}{key.value}"
        at(key, f"unknown key '{written}' is ignored by Codex: did you mean '{where}{near}'?")
    return near is not None


def _near(key: str, known: tuple[str, ...]) -> str | None:
    """The known key ``key`` differs from only in case and separators, or by at most one edit (two
    for keys of six characters or more)."""
    folded = key.lower().replace("-", "_").replace(" ", "_")
    if folded in known:
        return folded
    fuzzy.load()
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 - loaded by the first unknown key

    return next((k for k in known if Levenshtein.distance(folded, k) <= (2 if len(k) >= 6 else 1)), None)


def implicit_invocation(skill_dir: str) -> bool:
    """False when the skill's agents/openai.yaml sets `policy.allow_implicit_invocation: false` and
    Codex reads the file (nothing in it makes Codex ignore the whole file): Codex then leaves the
    skill out of its catalog, and only a `$name` mention loads it (capture diff --real: 15 real
    skills of jieli-cqwl/org-claude-skills)."""
    data = read_regular(os.path.join(skill_dir, "agents", "openai.yaml"), MAX_BYTES + 1)
    if data is None or len(data) > MAX_BYTES:
        return True
    text = data.decode("utf-8", "replace")
    root, err, _tagged = compose(text)
    if err is not None or root is None or root.kind != "map":
        return True
    policy = next((v for k, v in _items(root) if k.value == "policy"), None)
    if policy is None or policy.kind != "map":
        return True
    value = next((v for k, v in _items(policy) if k.value == "allow_implicit_invocation"), None)
    if value is None or value.kind != "scalar" or resolve_scalar(value) is not False:
        return True
    return any("ignores the whole file" in message for _, message in _problems(root, SourceText(text), None))


def _items(node: Node) -> list[tuple[Node, Node]]:
    return [(k.target(), v.target()) for k, v in node.items if k.target().kind == "scalar"]


def _string(node: Node) -> str | None:
    value = resolve_scalar(node) if node.kind == "scalar" else None
    return value if isinstance(value, str) else None


def _mapping(node: Node, where: str, at: Any) -> bool:
    if node.kind == "map":
        return True
    if not (node.kind == "scalar" and resolve_scalar(node) is None):
        at(node, f"'{where}' must be a mapping; Codex ignores the whole file")
    return False


def _interface(node: Node, skill_dir: str | None, at: Any) -> None:
    if not _mapping(node, "interface", at):
        return
    for k, v in _items(node):
        key = k.value
        if key not in INTERFACE:
            _unknown(k, "interface.", tuple(INTERFACE), at)
            continue
        value = _string(v)
        if value is None:
            if not (v.kind == "scalar" and resolve_scalar(v) is None):
                at(v, f"'interface.{key}' must be a string; Codex ignores the whole file")
            continue
        flat = " ".join(value.split())
        if not flat:
            # Codex ignores it, as it would the key left out: nothing an author would change
            # (unseen mhjiang0408/my_codex `default_prompt: ""`, 2 of 2 read as noise).
            continue
        if INTERFACE[key] and len(flat) > INTERFACE[key]:
            at(v, f"'interface.{key}' is {len(flat)} characters; Codex ignores values over {INTERFACE[key]}")
        elif key == "brand_color" and not _COLOR.match(value.strip()):
            at(v, f"'interface.brand_color' \"{value}\" is not #RRGGBB; Codex ignores it")
        elif key.startswith("icon_"):
            _icon(v, key, value, skill_dir, at)


def _icon(node: Node, key: str, value: str, skill_dir: str | None, at: Any) -> None:
    parts = [p for p in value.replace("\\", "/").split("/") if p not in ("", ".")]
    if value.startswith("/") or ".." in parts or not parts or parts[0] != "assets":
        at(node, f"'interface.{key}' must be a relative path under assets/; Codex ignores \"{value}\"")
    elif skill_dir is not None and not os.path.isfile(os.path.join(skill_dir, *parts)):
        at(node, f"'interface.{key}' points at '{'/'.join(parts)}', which does not exist")


def _dependencies(node: Node, at: Any) -> None:
    if not _mapping(node, "dependencies", at):
        return
    for k, v in _items(node):
        if k.value != "tools":
            _unknown(k, "dependencies.", ("tools",), at)
            continue
        if v.kind != "seq":
            at(v, "'dependencies.tools' must be a list; Codex ignores the whole file")
            continue
        for item in v.items:
            tool = item.target()
            if tool.kind != "map":
                at(tool, "each dependencies.tools entry must be a mapping with type and value")
                continue
            fields = {k2.value: (k2, v2) for k2, v2 in _items(tool)}
            for need in ("type", "value"):
                if need not in fields or not (_string(fields[need][1]) or "").strip():
                    at(tool, f"dependencies.tools entry without '{need}' is dropped by Codex")
            for key, (k2, v2) in fields.items():
                if key not in TOOL_KEYS:
                    _unknown(k2, "dependencies.tools[].", tuple(TOOL_KEYS), at)
                    continue
                s = _string(v2)
                if s is not None and len(" ".join(s.split())) > TOOL_KEYS[key]:
                    at(v2, f"dependencies.tools '{key}' is over {TOOL_KEYS[key]} characters; Codex ignores it")


def _policy(node: Node, at: Any) -> None:
    if not _mapping(node, "policy", at):
        return
    for k, v in _items(node):
        if k.value not in POLICY_KEYS:
            _unknown(k, "policy.", POLICY_KEYS, at)
        elif k.value == "allow_implicit_invocation" and not isinstance(resolve_scalar(v) if v.kind == "scalar" else None, bool):
            at(v, "'policy.allow_implicit_invocation' must be true or false; Codex ignores the whole file")
        elif k.value == "products" and v.kind != "seq":
            at(v, "'policy.products' must be a list; Codex ignores the whole file")
