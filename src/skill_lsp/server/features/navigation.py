"""Document links and go-to-definition for relative links; outline symbols; folding ranges."""

from __future__ import annotations

import os

from lsprotocol import types as t

from ...engine.links import classify, relative_path
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..services import graph
from ..uris import path_to_uri


def _targets(od, analysis):
    """(link, absolute target path) for relative links whose target exists inside the skill."""
    doc = analysis.doc
    if od.path is None or doc.split is None or not (doc.split.closed or not doc.split.has_frontmatter):
        return
    skill_dir = os.path.realpath(os.path.dirname(od.path))
    for link in doc.body.links:
        if link.kind == "reference" or classify(link.target) != "relative":
            continue
        rel = relative_path(link.target)
        if not rel or rel.startswith(".."):
            continue
        full = os.path.realpath(os.path.join(skill_dir, rel))
        if full.startswith(skill_dir + os.sep) and os.path.exists(full):
            yield link, full


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_LINK)
    @guarded([])
    def document_links(ls: SkillLanguageServer, params: t.DocumentLinkParams) -> list[t.DocumentLink]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        od, analysis = got
        src, enc = analysis.doc.src, ls.encoding
        td = ls.client_capabilities.text_document
        tooltips = bool(td and td.document_link and td.document_link.tooltip_support)
        return [t.DocumentLink(range=convert.range_(src, link.target_start, link.target_end, enc),
                               target=path_to_uri(full),
                               tooltip=os.path.relpath(full, os.path.dirname(od.path)) if tooltips else None)
                for link, full in _targets(od, analysis)]

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    @guarded(None)
    def definition(ls: SkillLanguageServer, params: t.DefinitionParams) -> list[t.Location] | None:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return None
        od, analysis = got
        offset = convert.offset(analysis.doc.src, params.position, ls.encoding)
        for link, full in _targets(od, analysis):
            if link.start <= offset <= link.end:
                zero = t.Range(t.Position(0, 0), t.Position(0, 0))
                return [t.Location(uri=path_to_uri(full), range=zero)]
        return graph.definition(ls, params.text_document.uri, params.position)

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded([])
    def symbols(ls: SkillLanguageServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        _, analysis = got
        doc, enc = analysis.doc, ls.encoding
        src = doc.src
        out: list[t.DocumentSymbol] = []
        sp = doc.split
        if sp is not None and sp.has_frontmatter:
            end = sp.close_end if sp.closed else len(src.text)
            children = []
            if doc.frontmatter_ok:
                for key, entry in doc.entries.items():
                    s, e = entry.key_node.start, max(entry.value.end, entry.key_node.end)
                    value = src.text[entry.value.start:entry.value.end].split("\n", 1)[0][:60]
                    children.append(t.DocumentSymbol(
                        name=key, detail=value or None, kind=t.SymbolKind.Property,
                        range=convert.range_(src, s, e, enc), selection_range=convert.range_(src, s, entry.key_node.end, enc)))
            out.append(t.DocumentSymbol(name="frontmatter", kind=t.SymbolKind.Namespace,
                                        range=convert.range_(src, sp.open_start, end, enc),
                                        selection_range=convert.range_(src, sp.open_start, sp.open_end, enc),
                                        children=children or None))
        if sp is not None and (sp.closed or not sp.has_frontmatter):
            stack: list[tuple[int, t.DocumentSymbol]] = []
            headings = doc.body.headings
            for i, h in enumerate(headings):
                # A section runs to the next heading of the same or a higher level.
                nxt = next((x.start for x in headings[i + 1:] if x.level <= h.level), len(src.text))
                sym = t.DocumentSymbol(name=h.text or "(empty heading)", kind=t.SymbolKind.String,
                                       range=convert.range_(src, h.start, max(h.start, nxt - 1), enc),
                                       selection_range=convert.range_(src, h.start, src.line_end(src.line_of(h.start)), enc),
                                       children=[])
                while stack and stack[-1][0] >= h.level:
                    stack.pop()
                (stack[-1][1].children if stack else out).append(sym)  # type: ignore[union-attr]
                stack.append((h.level, sym))
        return out

    @server.feature(t.TEXT_DOCUMENT_FOLDING_RANGE)
    @guarded([])
    def folding(ls: SkillLanguageServer, params: t.FoldingRangeParams) -> list[t.FoldingRange]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        _, analysis = got
        doc = analysis.doc
        src = doc.src
        out = []
        sp = doc.split
        if sp is not None and sp.has_frontmatter:
            last = src.line_of(sp.close_start) if sp.closed else src.line_count - 1
            if last > 0:
                out.append(t.FoldingRange(start_line=0, end_line=last, kind=t.FoldingRangeKind.Region))
        if sp is not None and (sp.closed or not sp.has_frontmatter):
            headings = doc.body.headings
            for i, h in enumerate(headings):
                nxt = next((x.start for x in headings[i + 1:] if x.level <= h.level), None)
                first = src.line_of(h.start)
                last = (src.line_of(nxt) - 1) if nxt is not None else src.line_count - 1
                while last > first and not src.line_text(last).strip():
                    last -= 1
                if last > first:
                    out.append(t.FoldingRange(start_line=first, end_line=last))
            for s, e in doc.body.code_blocks:
                first, last = src.line_of(s), src.line_of(max(s, e - 1))
                if last > first:
                    out.append(t.FoldingRange(start_line=first, end_line=last))
        return out
