"""convert.py: the typed and the bulk JSON forms of a diagnostic are the same."""

from __future__ import annotations


def test_bulk_json_diagnostics_equal_the_typed_ones():
    from pygls.protocol import default_converter

    from skill_lsp.engine.findings import Related, make
    from skill_lsp.engine.text import Encoding, SourceText
    from skill_lsp.server import convert

    src = SourceText("---\nname: 😀x\n---\nbody  \n")
    other = SourceText("---\nname: x\n---\n")
    findings = [make("TRAILING_WHITESPACE", "trailing", 18, 20, {"fix": "trim"}, tags=("unnecessary",)),
                make("SHADOWED", "shadowed", 10, 13, {"name": "x"}, related=(Related("/o/SKILL.md", 10, 11, "winner"),)),
                make("IO_ERROR", "no data", 0, 0)]
    conv = default_converter()
    for enc in Encoding:
        for f in findings:
            typed = conv.unstructure(convert.diagnostic(f, src, enc, {"/o/SKILL.md": other}))
            assert convert.diagnostic_json(f, src, enc, {"/o/SKILL.md": other}) == typed
