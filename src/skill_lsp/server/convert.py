"""The one place that turns engine values into LSP types (and positions back into offsets)."""

from __future__ import annotations

from lsprotocol import types as t

from ..engine.findings import RULES, Finding
from ..engine.text import Encoding, SourceText
from .diagjson import DOCS_URL, SOURCE, diagnostic_json
from .uris import path_to_uri

__all__ = ["DOCS_URL", "SOURCE", "diagnostic", "diagnostic_json", "encoding_of", "offset", "position", "range_",
           "rule_title"]

_ENCODINGS = {
    t.PositionEncodingKind.Utf8: Encoding.UTF8,
    t.PositionEncodingKind.Utf16: Encoding.UTF16,
    t.PositionEncodingKind.Utf32: Encoding.UTF32,
    "utf-8": Encoding.UTF8,
    "utf-16": Encoding.UTF16,
    "utf-32": Encoding.UTF32,
}
_TAGS = {"unnecessary": t.DiagnosticTag.Unnecessary, "deprecated": t.DiagnosticTag.Deprecated}


def encoding_of(kind: object) -> Encoding:
    return _ENCODINGS.get(kind, Encoding.UTF16)  # type: ignore[call-overload]


def position(src: SourceText, offset: int, enc: Encoding) -> t.Position:
    line, character = src.position(offset, enc)
    return t.Position(line=line, character=character)


def range_(src: SourceText, start: int, end: int, enc: Encoding) -> t.Range:
    return t.Range(start=position(src, start, enc), end=position(src, max(start, end), enc))


def offset(src: SourceText, pos: t.Position, enc: Encoding) -> int:
    return src.offset(pos.line, pos.character, enc)


def diagnostic(f: Finding, src: SourceText, enc: Encoding, sources: dict[str, SourceText] | None = None,
               related_support: bool = True) -> t.Diagnostic:
    related = None
    if related_support and f.related:
        related = []
        for r in f.related:
            rsrc = (sources or {}).get(r.path)
            rng = range_(rsrc, r.start, r.end, enc) if rsrc is not None else t.Range(t.Position(0, 0), t.Position(0, 0))
            related.append(t.DiagnosticRelatedInformation(
                location=t.Location(uri=path_to_uri(r.path), range=rng), message=r.message))
    data = {"code": f.code, **(f.data or {})}
    return t.Diagnostic(
        range=range_(src, f.start, f.end, enc),
        message=f.message,
        severity=t.DiagnosticSeverity(int(f.severity)),
        code=f.code,
        code_description=t.CodeDescription(href=f"{DOCS_URL}#{f.code.lower()}"),
        source=SOURCE,
        tags=[_TAGS[x] for x in f.tags if x in _TAGS] or None,
        related_information=related,
        data=data,
    )


def rule_title(code: str) -> str:
    rule = RULES.get(code)
    return rule.title if rule else code
