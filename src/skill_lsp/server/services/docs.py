"""Markdown about frontmatter fields, shared by completion and hover."""

from __future__ import annotations

from ...engine.harness import read_by
from ...engine.profiles import Field, Profile


def field_doc(f: Field, profile: Profile) -> str:
    status = ("accepted" if f.key in profile.known else
              "recognised but deferred (no effect)" if f.key in profile.deferred else "not defined")
    lines = [f"**{f.key}** — {f.summary}", ""]
    if f.limit:
        lines.append(f"- Limit: {f.limit:,} characters")
    if f.values:
        lines.append(f"- Values: {', '.join(f'`{v}`' for v in f.values)}")
    lines.append(f"- Read by: {read_by(f.key)}")
    lines.append(f"- Targets `{profile.name}`: {status}")
    return "\n".join(lines)
