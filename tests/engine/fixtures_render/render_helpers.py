"""Shared builders for the render tests (not a test module)."""

from __future__ import annotations

from skill_lsp.engine.activation import (
    AlreadyLoadedResult,
    ErrorResult,
    NotFoundResult,
    OkResult,
    SkillRecord,
    ToolError,
)

DIR = "/ws/.skills/pdf-tools"


def ok(**kw) -> OkResult:
    base = dict(
        name="pdf-tools",
        dir=DIR,
        path=DIR + "/SKILL.md",
        body="\n# PDF tools\n\nRun `scripts/extract.py`.\n",
        frontmatter={"name": "pdf-tools", "description": "Extract text from PDFs."},
        resources=("scripts/extract.py", "references/spec.md"),
        bytes=38,
        source_text="---\nname: pdf-tools\ndescription: Extract text from PDFs.\n---\n# PDF tools\n",
    )
    base.update(kw)
    return OkResult(**base)  # type: ignore[arg-type]


def record(
    name: str = "pdf-tools", description: object = "Extract text from PDFs.", **fm
) -> SkillRecord:
    d = f"/ws/.skills/{name}"
    return SkillRecord(
        name=name,
        folder=name,
        dir=d,
        path=d + "/SKILL.md",
        root_index=0,
        root="/ws/.skills",
        frontmatter={"name": name, "description": description, **fm},
        body="\nBody\n",
    )


ALREADY = AlreadyLoadedResult(name="pdf-tools", at_turn=None, previous=None)
NOT_FOUND = NotFoundResult(name="pdf-tool", siblings=("pdf-tools",))
DISABLED = ErrorResult(
    ToolError(
        "DISABLED",
        'skill "pdf-tools" has disable-model-invocation: true; only user-initiated activation is allowed',
    ),
    name="pdf-tools",
)
