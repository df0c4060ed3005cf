"""Rules: pure functions from a parsed document to findings, run in stages.

Stage 1 (structure) always runs. Field rules run only when the frontmatter
parsed into a mapping, so one YAML typo yields one finding, not twenty. Body
rules run whenever the body is known (the frontmatter closed or is absent).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..document import SkillDocument
from ..findings import Finding
from .bodyscan import body_of
from .context import Context, list_skill_files

__all__ = ["RULE_MODULES", "Context", "check", "depth_check", "first_check", "list_skill_files", "load_all",
           "load_steps"]


RULE_MODULES = ("structure", "name", "fields", "body", "harness_values", "description", "codex_openai_yaml",
                "security", "arguments", "files")


def load_all() -> None:
    """Import every rule module now, and what the engine loads on first use (the Markdown and
    YAML parsers, the fuzzy matcher, percent-decoding, the SPDX list): before a process pool
    forks, so workers inherit them instead of each importing them on its first skill. A
    one-skill `check` never calls it; a server runs ``load_steps()`` between keystrokes."""
    for step in load_steps():
        step()


def load_steps() -> list[Callable[[], object]]:
    """``load_all()`` one step at a time."""
    from importlib import import_module  # noqa: PLC0415 - with warnings, 0.26 ms a one-skill check need not pay

    from .. import fuzzy, lazyre, markdown, regexcache, spdx, yamlnodes  # noqa: PLC0415

    # Last: the patterns of every module loaded by then, compiled in eight short steps (a one-skill
    # check compiles only those its text asks for), and kept for the next process.
    return [*(partial(import_module, f"{__name__}.{module}") for module in RULE_MODULES), markdown.pyromark,
            fuzzy.load, partial(import_module, "urllib.parse"),
            yamlnodes._c_parser_class, spdx.ids,
            *(partial(lazyre.compile_all, part, 8) for part in range(8)), regexcache.save]


def check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    from . import body  # noqa: PLC0415 - keeps module import cheap

    out = _stage_one(doc, ctx)
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(body.check(doc, ctx))
    out.extend(depth_check(doc, ctx))
    if doc.memo.get("nested fences"):
        out = _outside(out, doc)
    # Severities and harness notes follow the targets' facts (engine/harness), not the rule defaults.
    out = [ctx.profile.adjust(f) for f in out]
    out.sort(key=lambda f: (f.start, f.end, f.code))
    return out


def _outside(found: list[Finding], doc: SkillDocument) -> list[Finding]:
    """``found`` less what stands in the text a nested fence spilled out of its block (a template
    read as Markdown: NESTED_FENCE reports the fence instead)."""
    from .fences import SPILLED_CODES, spilled  # noqa: PLC0415 - loaded by body already

    spans = spilled(doc)
    return [f for f in found if f.code not in SPILLED_CODES or not any(s <= f.start < e for s, e in spans)]


def _stage_one(doc: SkillDocument, ctx: Context) -> list[Finding]:
    from . import fields, name, structure  # noqa: PLC0415

    out: list[Finding] = list(structure.check(doc, ctx))
    if doc.frontmatter_ok:
        out.extend(name.check(doc, ctx))
        out.extend(fields.check(doc, ctx))
    return out


def first_check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    """Stage one alone (structure, name, fields: what decides whether a harness lists the
    skill at all), at the targets' severities: the findings a workspace scan publishes
    first. ``check`` returns each of them too."""
    out = [ctx.profile.adjust(f) for f in _stage_one(doc, ctx)]
    out.sort(key=lambda f: (f.start, f.end, f.code))
    return out


def depth_check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    """The rule-depth modules (issue 12), staged like the rules above.

    A module whose rules cannot fire on this skill is not even imported (a one-skill `check`
    pays for what it runs): the Codex file probe needs the file, the argument rules a '$'.
    Each gate is the first test its module's ``check`` makes.
    """
    from . import description, files, harness_values, security  # noqa: PLC0415

    out: list[Finding] = []
    if doc.frontmatter_ok:
        out.extend(harness_values.check(doc, ctx))
        out.extend(description.check(doc, ctx))
        if ctx.skill_dir is not None and ctx.exists("agents/openai.yaml") is not False:
            from . import codex_openai_yaml  # noqa: PLC0415

            out.extend(codex_openai_yaml.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(security.check(doc, ctx))
        if "$" in body_of(doc):
            from . import arguments  # noqa: PLC0415

            out.extend(arguments.check(doc, ctx))
        out.extend(files.check(doc, ctx))
    return out
