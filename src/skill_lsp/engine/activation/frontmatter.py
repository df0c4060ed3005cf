"""Small frontmatter helpers the activation engine needs (no YAML parsing here)."""

from __future__ import annotations

__all__ = [
    "normalize_allowed_tools",
    "normalized_frontmatter",
    "declares_arguments",
    "is_disabled_for_model",
]


def normalize_allowed_tools(value: object) -> list[str] | object:
    """``allowed-tools`` as a list of tool patterns.

    A string is split on commas and whitespace that sit *outside* parentheses,
    so ``"Read, Grep, Bash(git log:*)"`` gives ``["Read", "Grep", "Bash(git log:*)"]``.
    (Deviation: the TypeScript reference splits on ``[,\\s]+`` everywhere, which
    breaks ``Bash(git log:*)`` into ``Bash(git`` and ``log:*)``.)  A list keeps its
    items (non-strings converted with ``str``); any other type is returned as is
    for the validator to report.
    """
    if isinstance(value, str):
        tools: list[str] = []
        current: list[str] = []
        depth = 0
        for ch in value:
            if ch == "(":
                depth += 1
            elif ch == ")" and depth > 0:
                depth -= 1
            if depth == 0 and (ch == "," or ch.isspace()):
                if current:
                    tools.append("".join(current))
                    current = []
                continue
            current.append(ch)
        if current:
            tools.append("".join(current))
        return tools
    if isinstance(value, (list, tuple)):
        return [item if isinstance(item, str) else str(item) for item in value]
    return value


def normalized_frontmatter(frontmatter: dict) -> dict:
    """A copy of ``frontmatter`` with ``allowed-tools`` normalised (file order kept)."""
    out = dict(frontmatter)
    if "allowed-tools" in out and out["allowed-tools"] is not None:
        out["allowed-tools"] = normalize_allowed_tools(out["allowed-tools"])
    return out


def declares_arguments(frontmatter: dict) -> bool:
    return frontmatter.get("arguments") is not None


def is_disabled_for_model(frontmatter: dict) -> bool:
    """``disable-model-invocation: true`` (a YAML boolean, as the reference checks)."""
    return frontmatter.get("disable-model-invocation") is True
