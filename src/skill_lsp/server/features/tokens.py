"""Semantic tokens (what harnesses substitute or read in a SKILL.md) and the catalog-cost inlay hint."""

from __future__ import annotations

from lsprotocol import types as t

from ...engine import bodytokens
from ...engine.config import DIALECT_NAMES
from .. import convert
from ..server import SkillLanguageServer, guarded

LEGEND = t.SemanticTokensLegend(token_types=list(bodytokens.TYPES), token_modifiers=list(bodytokens.MODIFIERS))


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    @guarded(t.SemanticTokens(data=[]))
    def semantic_tokens(ls: SkillLanguageServer, params: t.SemanticTokensParams) -> t.SemanticTokens:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return t.SemanticTokens(data=[])
        _, analysis = got
        src, enc = analysis.doc.src, ls.encoding
        data: list[int] = []
        prev_line = prev_char = 0
        for start, end, kind, mods in bodytokens.tokens(analysis.doc, analysis.settings.profile):
            line, char = src.position(start, enc)
            _, end_char = src.position(end, enc)
            data += [line - prev_line, char - prev_char if line == prev_line else char, end_char - char, kind, mods]
            prev_line, prev_char = line, char
        return t.SemanticTokens(data=data)

    @server.feature(t.TEXT_DOCUMENT_INLAY_HINT)
    @guarded([])
    def inlay_hints(ls: SkillLanguageServer, params: t.InlayHintParams) -> list[t.InlayHint]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        od, analysis = got
        doc = analysis.doc
        if not analysis.settings.inlay_hints or not doc.frontmatter_ok or "description" not in doc.entries:
            return []
        from ...engine.preview import record_for  # noqa: PLC0415 - dialects stay off start-up
        from ...engine.render import catalog_report  # noqa: PLC0415

        record = record_for(ls.state.result_for(od, analysis))
        parts = []
        for dialect in DIALECT_NAMES:
            report = catalog_report(record, dialect)
            parts.append(f"{dialect} ≈{report.tokens}" if report.included else f"{dialect} not listed")
        value = doc.entries["description"].value
        src = doc.src
        # At the end of the description's first line: a block scalar's value starts on the next line.
        line = src.line_of(value.start)
        at = convert.position(src, src.line_end(line), ls.encoding)
        if not (params.range.start.line <= at.line <= params.range.end.line):
            return []
        return [t.InlayHint(position=at, label="catalog tokens: " + ", ".join(parts), padding_left=True,
                            tooltip="Estimated catalog cost of this skill's entry, per target dialect")]
