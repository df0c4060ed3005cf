"""Rules: pure functions from a parsed document to findings, run in stages.

Stage 1 (structure) always runs. Field rules run only when the frontmatter
parsed into a mapping, so one YAML typo yields one finding, not twenty. Body
rules run whenever the body is known (the frontmatter closed or is absent).
"""

from __future__ import annotations

from importlib import import_module

from ..document import SkillDocument
from ..findings import Finding
from .context import Context, list_skill_files

__all__ = ["RULE_MODULES", "Context", "check", "depth_check", "list_skill_files", "load_all"]


RULE_MODULES = ("structure", "name", "fields", "body", "harness_values", "description", "codex_openai_yaml",
                "security", "arguments", "files")


def load_all() -> None:
    """Import every rule module now (before a process pool forks, so workers inherit them
    instead of each importing them on its first skill)."""
    for module in RULE_MODULES:
        import_module(f"{__name__}.{module}")


def check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    from . import body, fields, name, structure  # noqa: PLC0415 - keeps module import cheap

    out: list[Finding] = list(structure.check(doc, ctx))
    if doc.frontmatter_ok:
        out.extend(name.check(doc, ctx))
        out.extend(fields.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(body.check(doc, ctx))
    out.extend(depth_check(doc, ctx))
    # Severities and harness notes follow the targets' facts (engine/harness), not the rule defaults.
    out = [ctx.profile.adjust(f) for f in out]
    out.sort(key=lambda f: (f.start, f.end, f.code))
    return out


def depth_check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    """The rule-depth modules (issue 12), staged like the rules above."""
    from . import arguments, codex_openai_yaml, description, files, harness_values, security  # noqa: PLC0415

    out: list[Finding] = []
    if doc.frontmatter_ok:
        out.extend(harness_values.check(doc, ctx))
        out.extend(description.check(doc, ctx))
        out.extend(codex_openai_yaml.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(security.check(doc, ctx))
        out.extend(arguments.check(doc, ctx))
        out.extend(files.check(doc, ctx))
    return out
