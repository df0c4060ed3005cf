"""Diagnostics as the JSON the client receives, without lsprotocol: what a scan's worker
processes write (they never import lsprotocol, so the process they fork from starts in a
fraction of the time). ``convert.diagnostic`` builds the same as lsprotocol objects; a test
keeps the two identical."""

from __future__ import annotations

from ..engine.findings import Finding
from ..engine.text import Encoding, SourceText
from .uris import path_to_uri

DOCS_URL = "https://github.com/skill-lsp/skill-lsp/blob/main/docs/rules.md"
SOURCE = "skill-lsp"
# LSP DiagnosticTag numbers.
TAGS = {"unnecessary": 1, "deprecated": 2}


def diagnostic_json(f: Finding, src: SourceText, enc: Encoding, sources: dict | None = None,
                    related_support: bool = True) -> dict:
    """``diagnostic()`` already in its JSON form, for bulk publishing (a workspace scan
    publishes tens of thousands): skips building and unstructuring lsprotocol objects.
    A test keeps the two identical."""
    sl, sc = src.position(f.start, enc)
    el, ec = src.position(max(f.start, f.end), enc)
    out: dict = {
        "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
        "message": f.message,
        "severity": int(f.severity),
        "code": f.code,
        "codeDescription": {"href": f"{DOCS_URL}#{f.code.lower()}"},
        "source": SOURCE,
        "data": {"code": f.code, **(f.data or {})},
    }
    tags = [TAGS[x] for x in f.tags if x in TAGS]
    if tags:
        out["tags"] = tags
    if related_support and f.related:
        rel = []
        for r in f.related:
            rsrc = (sources or {}).get(r.path)
            if rsrc is not None:
                rs, re_ = rsrc.position(r.start, enc), rsrc.position(max(r.start, r.end), enc)
            else:
                rs = re_ = (0, 0)
            rel.append({"location": {"uri": path_to_uri(r.path), "range": {
                "start": {"line": rs[0], "character": rs[1]}, "end": {"line": re_[0], "character": re_[1]}}},
                "message": r.message})
        out["relatedInformation"] = rel
    return out
