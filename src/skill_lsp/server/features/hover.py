"""Hover: field rules and limits, catalog entries per dialect, and a peek at link targets."""

from __future__ import annotations

import os

from lsprotocol import types as t

from ...engine import cursor as cur
from ...engine.config import DIALECT_NAMES
from ...engine.links import classify, relative_path
from ...engine.profiles import FIELDS
from ...engine.rules.security import dynamic_hover
from ...engine.workspace import profile_for
from ...engine.yamlnodes import resolve_scalar
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..services.docs import field_doc
from ..services.listing import decisions_for

PEEK_LINES = 12
PEEK_BYTES = 4096


def _catalog_table(ls: SkillLanguageServer, od, analysis) -> str:
    from ...engine.preview import left_out, record_for  # noqa: PLC0415 - activation and dialects stay off start-up
    from ...engine.render import catalog_report  # noqa: PLC0415
    from ...engine.render.proof import proof  # noqa: PLC0415

    record = record_for(ls.state.result_for(od, analysis))
    rows = ["", "**Catalog entry per dialect**", ""]
    for dialect in DIALECT_NAMES:
        # The same renderers and the same listing as `skill-lsp catalog`.
        rep = catalog_report(record, dialect)
        reason = left_out(record, dialect)
        status = f"{rep.chars:,} chars, ≈{rep.tokens:,} tokens" if reason is None else f"not listed: {reason}"
        if not proof(dialect, "catalog").verified:
            status += " (documented, not verified)"
        # One paragraph per dialect: Markdown joins adjacent lines into one (VS Code did).
        rows += ["", f"*{dialect}* — {status}"]
        if reason is None:
            rows += ["", "```text\n" + rep.entry + "\n```"]
        for w in rep.warnings:
            rows += ["", f"> ⚠ {w.message}"]
    return "\n".join(rows)


def _decisions_section(decisions) -> str:
    """What each target harness does with the skill, among the skills of the workspace."""
    from ...engine.render.proof import proof  # noqa: PLC0415

    if not decisions:
        return ""
    rows = ["", "**Listing decisions** (among the skills of this workspace)", ""]
    for d in decisions:
        note = "" if proof(d.dialect, "catalog").verified else " (documented, not verified)"
        rows.append(f"- {d.sentence()}{note}")
    return "\n".join(rows)


def _field_hover(ls, od, analysis, key: str) -> str:
    f = FIELDS.get(key)
    doc = field_doc(f, profile_for(analysis.settings, od.path)) if f else f"**{key}** — not a field known to any profile."
    entry = analysis.doc.entries.get(key)
    if entry is not None and f is not None and f.limit:
        node = entry.value.target()
        value = resolve_scalar(node) if node.kind == "scalar" else None
        if isinstance(value, str):
            n = len(value)
            if not value.strip():
                # Same verdict as EMPTY_FIELD: an empty value is not "within the limit".
                doc += f"\n- Current value: empty (limit {f.limit:,})"
            else:
                mark = "over the limit" if n > f.limit else "within the limit"
                doc += f"\n- Current length: {n:,} / {f.limit:,} ({mark})"
    if key in ("name", "description"):
        doc += "\n" + _catalog_table(ls, od, analysis)
    return doc


def _peek(od, target: str) -> str | None:
    if od.path is None:
        return None
    skill_dir = os.path.realpath(os.path.dirname(od.path))
    rel = relative_path(target)
    if not rel or rel.startswith(".."):
        return None
    full = os.path.realpath(os.path.join(skill_dir, rel))
    # Never read outside the skill folder (symlinks included), and only regular files.
    if not full.startswith(skill_dir + os.sep) or not os.path.isfile(full):
        return None
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            data = os.read(fd, PEEK_BYTES)
        finally:
            os.close(fd)
    except OSError:
        return None
    if b"\x00" in data:
        return f"`{rel}` (binary file, {os.path.getsize(full):,} bytes)"
    lines = data.decode("utf-8", "replace").split("\n")[:PEEK_LINES]
    fence = "````"
    return f"`{rel}`\n\n{fence}\n" + "\n".join(lines) + f"\n{fence}"


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_HOVER)
    @guarded(None)
    async def hover(ls: SkillLanguageServer, params: t.HoverParams) -> t.Hover | None:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return None
        od, analysis = got
        doc = analysis.doc
        enc = ls.encoding
        offset = convert.offset(doc.src, params.position, enc)
        hit = cur.key_at(doc, offset)
        if hit is not None:
            key, ks, ke = hit
            text = _field_hover(ls, od, analysis, key)
            if key in ("name", "description") and analysis.doc.frontmatter_ok:
                text += "\n" + _decisions_section(await decisions_for(ls, od, analysis))
            entry = doc.entries[key]
            end = max(ke, entry.value.end)
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                           range=convert.range_(doc.src, ks, end, enc))
        if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter) and offset >= doc.body_start:
            hit = dynamic_hover(doc, offset)
            if hit is not None:
                text, start, end = hit
                return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                               range=convert.range_(doc.src, start, end, enc))
            for link in doc.body.links:
                if link.kind != "reference" and link.start <= offset <= link.end and classify(link.target) == "relative":
                    peek = _peek(od, link.target)
                    if peek is None:
                        peek = f"`{relative_path(link.target)}` does not exist in the skill folder"
                    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=peek),
                                   range=convert.range_(doc.src, link.target_start, link.target_end, enc))
        return None
