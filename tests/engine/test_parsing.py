"""The document model: line index and positions, frontmatter splitting, staging, Markdown link spans."""

from __future__ import annotations

import random

import pytest

from helpers import check, check_raw, codes, only, rng, skill_text, write_skill
from skill_lsp.engine import frontmatter, markdown
from skill_lsp.engine.config import Settings
from skill_lsp.engine.text import Encoding, PositionTable, SourceText
from skill_lsp.engine.workspace import check_file

U8, U16, U32 = Encoding.UTF8, Encoding.UTF16, Encoding.UTF32

# --------------------------------------------------------------------- line index


def test_only_lf_crlf_and_lone_cr_end_lines():
    src = SourceText("a\u2028b\fc\r\nd\re\nf")
    assert src.lines() == ["a\u2028b\fc", "d", "e", "f"]
    assert src.line_starts == [0, 7, 9, 11]


def test_u2028_nel_and_form_feed_are_not_line_breaks():
    src = SourceText("x\u2028y\u2029z\x85w\fv\vu\n")
    assert src.line_count == 2
    assert src.position(len("x\u2028y\u2029z\x85w\fv\vu")) == (0, 11)


def test_offset_inside_crlf_belongs_to_the_line_end():
    src = SourceText("ab\r\ncd")
    assert src.position(3) == (0, 2)  # between \r and \n
    assert src.position(4) == (1, 0)
    assert src.line_end(0) == 2


def test_final_line_break_makes_an_empty_last_line():
    src = SourceText("a\n")
    assert src.line_count == 2
    assert src.position(2) == (1, 0)


@pytest.mark.parametrize(("line", "offset", "u8", "u16", "u32"), [
    # emoji (outside the BMP: 4 UTF-8 bytes, 2 UTF-16 units, 1 code point)
    ("a😀b", 2, 5, 3, 2),
    ("a😀b", 3, 6, 4, 3),
    # CJK (3 UTF-8 bytes, 1 UTF-16 unit)
    ("技能x", 2, 6, 2, 2),
    # form feed and U+2028 are one character each, on the same line
    ("\fé\u2028z", 3, 6, 3, 3),
    ("\u00e9\u0301q", 2, 4, 2, 2),  # combining mark: its own code point
    # the edges of each width: U+007F/U+0080, U+07FF/U+0800, U+FFFF (last BMP) / U+10000 (first astral)
    ("\x7fx", 1, 1, 1, 1),
    ("\x80x", 1, 2, 1, 1),
    ("\u07ffx", 1, 2, 1, 1),
    ("\u0800x", 1, 3, 1, 1),
    ("\uffffx", 1, 3, 1, 1),
    ("\U00010000x", 1, 4, 2, 1),
    ("\uffff\U00010000x", 2, 7, 3, 2),
])
def test_position_in_each_encoding(line: str, offset: int, u8: int, u16: int, u32: int):
    src = SourceText("first\n" + line + "\nlast")
    off = 6 + offset
    assert src.position(off, U8) == (1, u8)
    assert src.position(off, U16) == (1, u16)
    assert src.position(off, U32) == (1, u32)
    for enc, ch in ((U8, u8), (U16, u16), (U32, u32)):
        assert src.offset(1, ch, enc) == off


def test_positions_after_crlf_lone_cr_and_bom():
    text = "\ufeff---\r\nname: 😀\rx: 技\n"
    src = SourceText(text)
    assert src.position(text.index("name")) == (1, 0)
    assert src.position(text.index("x:")) == (2, 0)
    assert src.position(text.index("技") + 1, U16) == (2, 4)
    assert src.position(text.index("技") + 1, U8) == (2, 6)
    assert src.position(text.index("😀") + 1, U16) == (1, 8)
    assert src.position(text.index("😀") + 1, U8) == (1, 10)
    # The BOM is a character of line 0 (editors count it).
    assert src.position(1, U16) == (0, 1)


def test_offset_inside_a_surrogate_pair_snaps_to_the_character_start():
    src = SourceText("a😀b")
    assert src.offset(0, 2, U16) == 1
    assert src.offset(0, 3, U8) == 1


def test_offset_is_clamped_to_line_and_document():
    src = SourceText("ab\ncd")
    assert src.offset(0, 99) == 2
    assert src.offset(9, 0) == 5
    assert src.offset(-1, 0) == 0
    assert src.position(99) == (1, 2)


def test_finding_range_in_utf16_after_emoji_on_the_same_line():
    doc, fs = check(skill_text(extra="author: 😀x", body="# 😀 \n"))
    f = only(fs, "TRAILING_WHITESPACE")
    assert rng(doc, f, U16) == ((5, 4), (5, 5))
    assert rng(doc, f, U8) == ((5, 6), (5, 7))
    assert rng(doc, f, U32) == ((5, 3), (5, 4))


def test_closed_file_positions_match_the_open_text_in_every_encoding(tmp_path):
    """A worker's position table (CLI reports, unopened files in the editor) answers like the text."""
    body = "\uffff x \n\U00010000 y \n😀😀 [a](/abs.md) \nplain \n"
    path = write_skill(tmp_path, "demo", skill_text(body=body))
    full = check_file(str(path), Settings())
    table = full.slim(keep_text=False).src
    assert isinstance(table, PositionTable)
    got = {}
    for f in full.findings:
        for enc in (U8, U16, U32):
            assert table.position(f.start, enc) == full.doc.src.position(f.start, enc)
            assert table.position(f.end, enc) == full.doc.src.position(f.end, enc)
        assert table.columns(f.start) == full.doc.src.columns(f.start)
        got[f.code, full.doc.src.line_of(f.start)] = [table.position(f.start, e) for e in (U8, U16, U32)]
    assert got == {
        ("TRAILING_WHITESPACE", 4): [(4, 5), (4, 3), (4, 3)],  # U+FFFF: 3 bytes, 1 unit
        ("TRAILING_WHITESPACE", 5): [(5, 6), (5, 4), (5, 3)],  # U+10000: 4 bytes, 2 units
        ("ABSOLUTE_LINK", 6): [(6, 13), (6, 9), (6, 7)],
        ("TRAILING_WHITESPACE", 6): [(6, 21), (6, 17), (6, 15)],
        ("TRAILING_WHITESPACE", 7): [(7, 5), (7, 5), (7, 5)],  # ASCII: every unit is a character
    }
    # An offset the table was not built with answers the start of the file, never raises.
    assert table.position(10**6) == (0, 0) and table.columns(10**6) == (0, 0, 0)


def test_crlf_first_line_and_the_end_of_the_last_line():
    src = SourceText("\r\nab\r\n")
    assert src.line_text(0) == "" and src.line_end(0) == 0
    assert src.position(1) == (0, 0)  # inside the CRLF pair
    assert src.columns(3) == (1, 1, 1)
    assert SourceText("ab").columns(0) == (0, 0, 0) and SourceText("ab").columns(-1) == (0, 0, 0)
    assert src.offset(src.line_count, 0) == len(src.text)  # one past the last line: the end
    assert src.offset(src.line_count - 1, 5) == len(src.text)


def test_finding_range_after_u2028_and_cjk_in_a_value():
    # Quoted: libyaml (YAML 1.1) treats U+2028 in a plain scalar as a line break.
    text = "---\nname: demo\ndescription: \"技\u2028能\"\nversion: v1\n---\n"
    doc, fs = check(text)
    f = only(fs, "INVALID_VERSION")
    assert rng(doc, f) == ((3, 9), (3, 11))  # U+2028 did not start a line


def test_form_feed_in_yaml_is_an_error_at_the_form_feed_even_after_cjk():
    # YAML forbids C0 controls other than tab/LF/CR; libyaml reports a byte offset.
    doc, fs = check("---\nname: demo\ndescription: 技😀\f能\n---\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert doc.text[f.start:f.end] == "\f"
    assert rng(doc, f, U16) == ((2, 16), (2, 17))
    assert "#x000c" in f.message


def test_form_feed_and_u2028_in_the_body_keep_line_numbers():
    doc, fs = check(skill_text(body="a\fb\u2028c \n[x](/abs)\n"))
    assert [(f.code, rng(doc, f)) for f in fs] == [
        ("TRAILING_WHITESPACE", ((4, 5), (4, 6))), ("ABSOLUTE_LINK", ((5, 4), (5, 8)))]


# --------------------------------------------------------------------- counted before the table

# What SKILL.md lines hold where positions get hard: every line break, astral and wide
# characters, separators that are not line breaks, a BOM, fences.
_PIECES = ["a", "é", "😀", "技", " ", "\t", "\n", "\n", "\r\n", "\r", "---", "--- ", "\ufeff", "\u2028",
           "name: x", "\f"]


def _texts(seed: int, count: int, pieces: list[str] = _PIECES):
    r = random.Random(seed)
    for _ in range(count):
        yield "".join(r.choice(pieces) for _ in range(r.randrange(0, 24)))


def test_offsets_placed_by_counting_are_where_the_line_table_puts_them():
    # A SourceText answers its first offsets without a line table (text.SourceText); every
    # answer must be the table's, before and after it gives up counting.
    for text in _texts(7, 1500):
        table = SourceText(text)
        assert table.line_starts is not None  # built now: the reference
        offsets = range(-2, len(text) + 3)
        fresh = [SourceText(text) for _ in range(3)]
        assert fresh[0].line_count == table.line_count
        for o in offsets:
            want = (table.line_of(o), table.position(o, U16), table.position(o, U8), table.position(o, U32),
                    table.columns(o))
            assert SourceText(text).line_of(o) == want[0], (text, o)
            assert SourceText(text).position(o, U8) == want[2], (text, o)
            one = SourceText(text)
            assert (one.position(o, U16), one.position(o, U32), one.columns(o)) == (want[1], want[3], want[4])
            # One text asked for every offset: counted at first, then from the table.
            assert (fresh[0].line_of(o), fresh[1].position(o, U16), fresh[2].columns(o)) == (
                want[0], want[1], want[4]), (text, o)
        picked = set(offsets)
        counted, built = PositionTable(SourceText(text), picked), PositionTable(table, picked)
        assert [counted.columns(o) for o in picked] == [built.columns(o) for o in picked]
        assert [counted.position(o, U8) for o in picked] == [built.position(o, U8) for o in picked]


def _split_by_lines(text: str) -> tuple:
    """frontmatter.split's parts as its docstring defines them, from the line table."""
    src = SourceText(text)
    starts, n = src.line_starts, len(text)
    bom = 1 if text.startswith("\ufeff") else 0
    fence = frontmatter._is_fence
    if not fence(text[bom:src.line_end(0)]):
        return (False, bom, bom, bom, bom, -1, -1, bom)
    yaml_start = starts[1] if len(starts) > 1 else n
    for line in range(1, len(starts)):
        if fence(src.line_text(line)):
            body = starts[line + 1] if line + 1 < len(starts) else n
            return (True, bom, src.line_end(0), yaml_start, starts[line], starts[line], src.line_end(line), body)
    return (True, bom, src.line_end(0), yaml_start, n, -1, -1, n)


def test_split_without_the_line_table_is_the_split_by_lines():
    # Texts without \r are split by searching for fences (frontmatter._split_lf), the others
    # from the line table: both must cut where the lines say.
    pieces = ["---", "---", "--- \t", "----", " ---", "\n", "\n", "\n", "\r\n", "a: b", "\ufeff", "-", "x"]
    for text in _texts(11, 20000, pieces):
        s = split(text)
        got = (s.has_frontmatter, s.open_start, s.open_end, s.yaml_start, s.yaml_end, s.close_start, s.close_end,
               s.body_start)
        assert got == _split_by_lines(text), text


# --------------------------------------------------------------------- frontmatter split


def split(text: str) -> frontmatter.Split:
    return frontmatter.split(SourceText(text))


def test_bom_before_the_opening_fence_is_tolerated():
    text = "\ufeff---\nname: demo\ndescription: d\n---\nbody\n"
    sp = split(text)
    assert sp.has_frontmatter and sp.closed
    assert sp.open_start == 1
    assert text[sp.body_start:] == "body\n"
    _, fs = check(text)
    assert fs == []


def test_crlf_and_trailing_spaces_after_fences():
    text = "---  \r\nname: demo\r\ndescription: d\r\n---\t\r\nbody\r\n"
    sp = split(text)
    assert sp.closed
    assert text[sp.yaml_start:sp.yaml_end] == "name: demo\r\ndescription: d\r\n"
    assert text[sp.body_start:] == "body\r\n"


@pytest.mark.parametrize(("text", "parts"), [
    # has_frontmatter, open_start, open_end, yaml_start, yaml_end, close_start, close_end, body_start
    ("", (False, 0, 0, 0, 0, -1, -1, 0)),
    ("# T\n", (False, 0, 0, 0, 0, -1, -1, 0)),
    ("\ufeff# T\n", (False, 1, 1, 1, 1, -1, -1, 1)),
    ("--- x\na: b\n---\n", (False, 0, 0, 0, 0, -1, -1, 0)),
    ("---", (True, 0, 3, 3, 3, -1, -1, 3)),
    ("\ufeff---", (True, 1, 4, 4, 4, -1, -1, 4)),
    ("---\n", (True, 0, 3, 4, 4, -1, -1, 4)),
    ("---\nname: x\n", (True, 0, 3, 4, 12, -1, -1, 12)),
    ("---\nname: x\n---", (True, 0, 3, 4, 12, 12, 15, 15)),
    ("---\nname: x\n--- \nbody\n", (True, 0, 3, 4, 12, 12, 16, 17)),
    ("\ufeff---\na: b\n---\n", (True, 1, 4, 5, 10, 10, 13, 14)),
    ("---\t\na\n---\t\n", (True, 0, 4, 5, 7, 7, 11, 12)),
    ("---\n---", (True, 0, 3, 4, 4, 4, 7, 7)),  # two lines: closed and empty
    ("---\na: b\n---\nbody", (True, 0, 3, 4, 9, 9, 12, 13)),
    ("---\f\na: b\n---\n", (False, 0, 0, 0, 0, -1, -1, 0)),  # only spaces and tabs may follow a fence
    ("---\na: b\n---\v\n", (True, 0, 3, 4, 14, -1, -1, 14)),
])
def test_split_parts_for_every_shape(text: str, parts: tuple):
    s = split(text)
    assert (s.has_frontmatter, s.open_start, s.open_end, s.yaml_start, s.yaml_end, s.close_start, s.close_end,
            s.body_start) == parts


def test_dashes_inside_a_value_do_not_cut_the_frontmatter():
    text = "---\nname: demo\ndescription: a --- b\nmetadata:\n  x: |\n    ---\n    y\n---\nbody\n"
    sp = split(text)
    assert text[sp.body_start:] == "body\n"
    doc, fs = check(text)
    assert fs == []
    assert doc.value("description") == "a --- b"
    assert doc.value("metadata") == {"x": "---\ny\n"}


def test_four_dashes_do_not_close():
    sp = split("---\nname: demo\n----\n")
    assert not sp.closed


def test_only_dashes_file_is_unclosed_at_line_zero():
    for text in ("---", "---\n", "---\r\n"):
        doc, fs = check(text)
        assert codes(fs) == ["INVALID_FRONTMATTER"], text
        assert rng(doc, fs[0]) == ((0, 0), (0, 3))


def test_no_opening_fence_means_no_frontmatter():
    sp = split("x\n---\nname: y\n---\n")
    assert not sp.has_frontmatter
    assert sp.body_start == 0


def test_dashes_not_on_the_first_line_are_not_frontmatter():
    _, fs = check("\n---\nname: demo\ndescription: d\n---\n")
    assert codes(fs) == ["MISSING_FRONTMATTER"]


def test_no_closing_fence_is_invalid_frontmatter_at_line_zero():
    doc, fs = check("---\nname: demo\ndescription: d\n\n# Body\n")
    assert codes(fs) == ["INVALID_FRONTMATTER"]
    assert rng(doc, fs[0]) == ((0, 0), (0, 3))


def test_empty_frontmatter_reports_missing_fields():
    _, fs = check("---\n---\nbody\n")
    assert codes(fs) == ["MISSING_FIELD", "MISSING_FIELD"]


# --------------------------------------------------------------------- staging


@pytest.mark.parametrize("bad", [
    "description: Use when: asked",
    "description: [unclosed",
    "description: 'open",
    "\tname: tab",
])
def test_a_yaml_error_yields_exactly_one_finding(bad: str):
    # Every field problem in this file would be reported if field rules ran.
    text = f"---\nname: Not_Valid\nversion: v1\nauthor: x\nmetadata:\n  n: 3\n{bad}\n---\nbody  \t\n"
    _, fs = check(text)
    fm = [f for f in fs if f.code != "TRAILING_WHITESPACE"]
    assert codes(fm) == ["INVALID_FRONTMATTER"]


def test_unclosed_frontmatter_runs_no_body_rules():
    _, fs = check("---\nname: demo\n[x](/abs)  \t\n")
    assert codes(fs) == ["INVALID_FRONTMATTER"]


def test_body_rules_run_without_frontmatter():
    _, fs = check("# T\n[x](/abs)\n")
    assert codes(fs) == ["MISSING_FRONTMATTER", "ABSOLUTE_LINK"]


def test_duplicate_keys_are_findings_not_crashes_and_fields_still_run():
    _, fs = check("---\nname: demo\ndescription: d\ndescription: e\nversion: v1\n---\n")
    assert codes(fs) == ["DUPLICATE_KEY", "INVALID_VERSION"]


@pytest.mark.parametrize(("value", "found"), [
    ("2025-13-45", []),  # not a date: a string
    ("!!binary abc", [("YAML_TAG", "!!binary abc")]),
    ("&a x", []),
    ("*nope", [("INVALID_FRONTMATTER", "*")]),
    ("0x1F", [("METADATA_NOT_STRING", "the number 31")]),
    (".inf", [("METADATA_NOT_STRING", "the number inf")]),
    ("-.Inf", [("METADATA_NOT_STRING", "the number -inf")]),
    (".NaN", [("METADATA_NOT_STRING", "the number nan")]),
    ("~", [("METADATA_NOT_STRING", "empty (null)")]),
])
def test_odd_scalars_resolve_like_yaml_1_2(value: str, found: list[tuple[str, str]]):
    """Each value is read as the YAML 1.2 core schema reads it, and reported at the value."""
    doc, fs = check(skill_text(extra=f"metadata:\n  x: {value}"))
    assert [f.code for f in fs] == [code for code, _ in found]
    for f, (_, part) in zip(fs, found, strict=True):
        assert part in f.message or doc.text[f.start:f.end] == part, (f.message, doc.text[f.start:f.end])


# --------------------------------------------------------------------- Markdown link spans


BODY = (
    "[a](x.md) ![i](img/p.png) [r][ref] `[c](code.md)`\n"
    "\n"
    "```\n[f](fence.md)\n```\n"
    "\n"
    "    [ind](indent.md)\n"
    "\n"
    "[ref]: refs/a%20b.md \"t\"\n"
    "[x](<a b.md>) [t](y.md \"title\") [p](q(1).md)\n"
)


def links(body: str = BODY, base: int = 0) -> list[markdown.Link]:
    return markdown.parse(body, base).links


def test_inline_image_reference_and_definition_spans():
    got = [(link.kind, link.target, BODY[link.target_start:link.target_end]) for link in links()]
    assert got == [
        ("inline", "x.md", "x.md"),
        ("image", "img/p.png", "img/p.png"),
        ("reference", "refs/a%20b.md", "[r][ref]"),
        ("definition", "refs/a%20b.md", "refs/a%20b.md"),
        ("inline", "a b.md", "a b.md"),
        ("inline", "y.md", "y.md"),
        ("inline", "q(1).md", "q(1).md"),
    ]


def test_whole_construct_spans():
    first = links()[0]
    assert BODY[first.start:first.end] == "[a](x.md)"
    image = links()[1]
    assert BODY[image.start:image.end] == "![i](img/p.png)"


def test_links_in_code_spans_fences_and_indented_code_are_not_links():
    targets = {link.target for link in links()}
    assert not targets & {"code.md", "fence.md", "indent.md"}


def test_spans_are_offset_by_base_and_count_code_points():
    body = "技能 😀 [a](x.md)\n"
    (link,) = links(body, base=1000)
    assert (link.target_start, link.target_end) == (1000 + body.index("x.md"), 1000 + body.index("x.md") + 4)


def test_percent_encoded_targets_are_decoded_for_existence_checks():
    body = "[a](my%20notes.md) [b](refs/a%20b.md) [c](%E6%8A%80.md) [d](missing%20file.md)\n"
    files = frozenset({"SKILL.md", "my notes.md", "refs/", "refs/a b.md", "技.md"})
    doc, fs = check_raw(skill_text(body=body), files=files)
    f = only(fs, "BROKEN_LINK")
    assert f.data == {"target": "missing%20file.md", "path": "missing file.md"}
    assert doc.text[f.start:f.end] == "missing%20file.md"


def test_reference_definition_targets_are_checked_once():
    body = "[r][ref] and [r2][ref]\n\n[ref]: nope.md\n"
    doc, fs = check_raw(skill_text(body=body), files=frozenset({"SKILL.md"}))
    f = only(fs, "BROKEN_LINK")
    assert rng(doc, f) == ((6, 7), (6, 14))


def test_anchor_and_url_links_are_never_checked():
    body = "[a](#section) [b](https://example.com/x) [c](mailto:a@b.c)\n"
    _, fs = check_raw(skill_text(body=body), files=frozenset({"SKILL.md"}))
    assert fs == []


def test_link_to_a_folder_and_with_fragment_exists():
    body = "[s](scripts/) [r](references/guide.md#usage) [dot](./references/guide.md)\n"
    files = frozenset({"SKILL.md", "scripts/", "references/", "references/guide.md"})
    _, fs = check_raw(skill_text(body=body), files=files)
    assert fs == []


def test_link_spans_in_crlf_document():
    text = skill_text(body="intro\r\n[a](missing.md)\r\n", nl="\r\n")
    doc, fs = check_raw(text, files=frozenset({"SKILL.md"}))
    f = only(fs, "BROKEN_LINK")
    assert rng(doc, f) == ((5, 4), (5, 14))


def test_the_trailing_blank_gate_opens_whenever_the_scan_finds_one():
    import random

    from skill_lsp.engine.rules.body import _LAST_BLANK, _has_trailing_blank

    r = random.Random(28)
    for _ in range(20000):
        text = "".join(r.choice("ab \t\n\r\f\v") for _ in range(r.randint(0, 12)))
        if _LAST_BLANK.search(text) is not None:
            assert _has_trailing_blank(text), repr(text)


def test_utf16_units_count_astral_characters_twice_and_lone_surrogates_once():
    import random

    from skill_lsp.engine.text import Encoding, _units

    r = random.Random(28)
    pool = ["a", "é", "日", "🙂", "\ud800", "\udfff", "\U0010ffff", "\uffff", "\x00"]
    for _ in range(5000):
        s = "".join(r.choice(pool) for _ in range(r.randint(0, 8)))
        assert _units(s, Encoding.UTF16) == sum(2 if ord(ch) > 0xFFFF else 1 for ch in s), repr(s)
