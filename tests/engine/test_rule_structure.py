"""Stage 1 (rules/structure.py) as an author meets it: encoding, size, frontmatter presence,
YAML syntax with the unquoted-colon diagnosis, shape, duplicates and tags -- code, severity,
exact range, message and data (issue 15)."""

from __future__ import annotations

import pytest

from helpers import check, codes, only, rng, skill_text
from skill_lsp.engine import document, rules
from skill_lsp.engine.findings import Severity

E, W = Severity.ERROR, Severity.WARNING
COLON_HINT = " -- quote it or make it a block scalar"
MAPPING = "invalid YAML: mapping values are not allowed here"


def load_bytes(data: bytes):
    doc = document.load("/virtual/demo/SKILL.md", data)
    return doc, rules.check(doc, rules.Context())


def fm(*lines: str, body: str = "") -> str:
    return "---\n" + "".join(line + "\n" for line in lines) + "---\n" + body


# --------------------------------------------------------------------- encoding and size


def test_an_invalid_byte_as_the_last_character_is_spanned_to_the_end():
    doc, fs = load_bytes(b"---\nname: demo\ndescription: Does a thing. Use when testing.\n---\nab\xff")
    f = only(fs, "INVALID_ENCODING")
    assert rng(doc, f) == ((4, 2), (4, 3))
    assert f.end == len(doc.text)
    assert f.message == "invalid UTF-8 byte 0xff; harnesses fail to read this file"


def test_a_file_over_the_analysis_limit_says_how_much_was_read():
    doc, fs = check(skill_text(body="x\n" * 600_000))
    f = only(fs, "FILE_TOO_LARGE")
    assert f.message == ("file is 1,200,064 characters; only the first 1024 KiB (1,048,576 characters) "
                         "are analysed")
    assert (f.start, f.end) == (len(doc.text) - 1, len(doc.text))


def test_a_file_whose_second_line_is_over_the_limit_keeps_its_first_line_break():
    doc, fs = check("\n" + "x" * 1_100_000)
    f = [f for f in fs if f.code == "FILE_TOO_LARGE"][0]
    assert doc.text == "\n"
    assert rng(doc, f) == ((0, 0), (1, 0))


def test_a_frontmatter_over_its_limit_is_one_finding_on_the_opening_fence():
    doc, fs = check(fm("name: demo", "description: " + "x" * 300_000))
    assert codes(fs) == ["FRONTMATTER_LIMIT"]
    assert fs[0].severity is E
    assert fs[0].message == "frontmatter is 292 KiB; skill-lsp parses frontmatter up to 256 KiB"
    assert rng(doc, fs[0]) == ((0, 0), (0, 3))


def test_the_frontmatter_size_is_given_in_whole_kibibytes():
    # 307,300 characters between the fences: 300.1 KiB.
    doc, fs = check(fm("name: demo", "description: " + "x" * 307_275))
    assert doc.split is not None and doc.split.yaml_end - doc.split.yaml_start == 307_300
    assert only(fs, "FRONTMATTER_LIMIT").message == ("frontmatter is 300 KiB; skill-lsp parses frontmatter up to "
                                                     "256 KiB")


def test_a_frontmatter_closing_beyond_the_analysis_limit():
    doc, fs = check(fm("name: demo", "description: d", *(["x: " + "y" * 1000] * 1100)))
    f = only(fs, "FRONTMATTER_LIMIT")
    assert f.message == ("frontmatter closes beyond the analysis limit (1024 KiB); skill-lsp parses frontmatter "
                         "up to 256 KiB")
    assert rng(doc, f) == ((0, 0), (0, 3))
    assert "INVALID_FRONTMATTER" not in codes(fs)


def test_a_limit_inside_the_yaml_is_reported_on_its_line():
    rows = ["  a: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"  {c}: &{c} [{','.join(['*' + p] * 10)}]" for p, c in zip("abc", "bcd", strict=True)]
    doc, fs = check(skill_text(extra="metadata:\n" + "\n".join(rows)))
    f = only(fs, "FRONTMATTER_LIMIT")
    assert f.message.startswith("frontmatter not analysed: ")
    assert rng(doc, f) == ((7, 0), (7, len(rows[-1])))


# --------------------------------------------------------------------- presence and closing


def test_an_empty_file_is_missing_frontmatter_at_its_start():
    doc, fs = check("")
    f = only(fs, "MISSING_FRONTMATTER")
    assert rng(doc, f) == ((0, 0), (0, 0))
    assert f.message == ("SKILL.md must start with YAML frontmatter between two `---` lines (name and description "
                         "are required)")
    assert f.data == {"fix": "insert-frontmatter"}


def test_missing_frontmatter_spans_the_first_line():
    doc, fs = check("# Deploy\n\nRun it.\n")
    assert codes(fs) == ["MISSING_FRONTMATTER"]  # nothing about fields: there are none
    assert rng(doc, fs[0]) == ((0, 0), (0, 8))


def test_unclosed_frontmatter_message():
    doc, fs = check("---\nname: demo\ndescription: d\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.message == ("frontmatter has an opening `---` but no closing `---`; the file must have YAML between "
                         "two `---` lines at the top")
    assert codes(fs) == ["INVALID_FRONTMATTER"]


def test_an_empty_frontmatter_leaves_the_findings_to_the_field_rules():
    _, fs = check("---\n---\n# Body\n")
    assert codes(fs) == ["MISSING_FIELD", "MISSING_FIELD"]
    _, fs = check("---\n# only a comment\n---\n")
    assert codes(fs) == ["MISSING_FIELD", "MISSING_FIELD"]


# --------------------------------------------------------------------- shape


@pytest.mark.parametrize("yaml, what, span", [
    ("- a", "a list", ((1, 0), (2, 0))),
    ("42", "a scalar", ((1, 0), (1, 2))),
    ("5", "a scalar", ((1, 0), (1, 1))),
    ('"just text"', "a scalar", ((1, 0), (1, 11))),
])
def test_frontmatter_that_is_not_a_mapping(yaml, what, span):
    doc, fs = check(fm(yaml))
    assert codes(fs) == ["INVALID_FRONTMATTER"]
    f = fs[0]
    assert f.message == f"frontmatter must be a YAML mapping of fields, not {what}"
    assert rng(doc, f) == span
    assert f.data == {"reason": "not-mapping"}


# --------------------------------------------------------------------- YAML syntax


def test_a_syntax_error_at_the_end_of_a_line_spans_that_line():
    doc, fs = check(fm("name: demo", "description: [a"))
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data == {"reason": "yaml", "yaml": "unclosed-flow"}
    assert f.message.startswith("invalid YAML: expected ',' or ']'")
    assert rng(doc, f) == ((3, 0), (3, 1))


def test_a_syntax_error_at_the_end_of_a_line_spans_the_whole_line():
    # `allowed-tools: *` (meaning "every tool") is an alias without a name to YAML.
    doc, fs = check(fm("name: demo", "description: Does a thing. Use when testing.", "allowed-tools: *"))
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.message == ("invalid YAML: expected alphabetic or numeric character, but found '\\n' "
                         "(while scanning an alias)")
    # Claude Code quotes it: `*` as written, and so does the fix.
    assert f.data == {"reason": "yaml", "yaml": "reserved", "key": "allowed-tools", "value": "*",
                      "valueStart": doc.text.index("*"), "valueEnd": doc.text.index("*") + 1}
    assert rng(doc, f) == ((3, 0), (3, 16))


def test_a_syntax_error_names_the_character_it_stopped_at():
    doc, fs = check(fm("name: demo", "description: Use when\tasked: now"))
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data == {"reason": "yaml", "yaml": "tab"}
    assert rng(doc, f) == ((2, 21), (2, 22))


@pytest.mark.parametrize("lines, key, value, span, kind", [
    (("description: Use this: now",), "description", "Use this: now", ((2, 13), (2, 26)), "colon"),
    # Claude Code and Codex quote a value only for a ": " inside it:
    # both read no field here.
    (("description: Use when:", "license: MIT"), "description", "Use when:", ((2, 13), (2, 22)), "colon-misread"),
    (("description:   Use this: now   ",), "description", "Use this: now", ((2, 15), (2, 28)), "colon"),
    (("description: Use this", "  to do: things", "  and more", "", "license: MIT"), "description",
     "Use this to do: things and more", ((2, 13), (4, 10)), "colon-continued"),
    (("description: Use this", "  to do: things", "license: MIT"), "description", "Use this to do: things",
     ((2, 13), (3, 15)), "colon-continued"),
    (("description: Use:", "  x"), "description", "Use: x", ((2, 13), (3, 3)), "colon-continued"),
    (("description: XML parser: fast",), "description", "XML parser: fast", ((2, 13), (2, 29)), "colon"),
    (("description: Use this: now", "   ", "  more text"), "description", "Use this: now", ((2, 13), (2, 26)),
     "colon-misread"),
    (("description: Use this: now", "\tand more"), "description", "Use this: now and more", ((2, 13), (3, 9)), "colon-continued"),
    (('"description": use: it',), '"description"', "use: it", ((2, 15), (2, 22)), "colon-misread"),
    (("description: ok", "x: a: b"), "x", "a: b", ((3, 3), (3, 7)), "colon"),
])
def test_an_unquoted_colon_is_diagnosed_on_the_whole_value(lines, key, value, span, kind):
    doc, fs = check(fm("name: demo", *lines))
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.severity is E
    assert f.message == f"{MAPPING}; the value of '{key}' contains ': '{COLON_HINT}"
    assert rng(doc, f) == span
    # ``yaml``: a value on one line that every harness reading the block again takes as written, one
    # some of them read otherwise, or one continued on more lines (harness fallbacks differ).
    assert f.data == {"reason": "unquoted-colon", "key": key, "value": value,
                      "valueStart": f.start, "valueEnd": f.end, "yaml": kind}


def test_an_unquoted_colon_on_the_first_line_of_the_frontmatter():
    doc, fs = check(fm("description: Use this: now", "name: demo"))
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data is not None and f.data["key"] == "description"
    assert rng(doc, f) == ((1, 13), (1, 26))


def test_an_unquoted_colon_with_crlf_line_breaks():
    doc, fs = check("---\r\nname: demo\r\ndescription: Use this: now\r\n---\r\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data is not None and f.data["reason"] == "unquoted-colon"
    assert rng(doc, f) == ((2, 13), (2, 26))


@pytest.mark.parametrize("lines, span", [
    (("description: &d Use this: now",), ((2, 24), (2, 25))),  # an anchor: not a plain value
    (("description: Use this:now",), None),  # no error at all: 'this:now' is one word
    (("description:", "  a: b: c"), ((3, 6), (3, 7))),  # the key line holds no value
    (("description: a", "", "  b: c"), ((4, 3), (4, 4))),  # a blank line ends the plain value
    (("description: [a: b, c: d]: x",), ((2, 25), (2, 26))),  # a flow collection
])
def test_colon_errors_the_diagnosis_does_not_claim(lines, span):
    doc, fs = check(fm("name: demo", *lines))
    if span is None:
        assert "INVALID_FRONTMATTER" not in codes(fs)
        return
    f = only(fs, "INVALID_FRONTMATTER")
    # No colon is blamed (Claude Code's second reading may still take the line as written: `reserved`).
    assert f.data is not None and f.data["reason"] == "yaml" and f.data.get("yaml") in (None, "reserved")
    assert f.message == MAPPING
    assert rng(doc, f) == span


def test_a_colon_error_on_the_first_line_indented_has_no_key_to_blame():
    doc, fs = check("---\n  a: b: c\n---\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data == {"reason": "yaml"}
    assert rng(doc, f) == ((1, 6), (1, 7))


# --------------------------------------------------------------------- duplicates and tags


def test_every_duplicate_top_level_key_points_at_its_first_definition():
    doc, fs = check(fm("name: demo", "description: d", "list: [1, 2]", "list: [3]", "name: again"))
    dups = [f for f in fs if f.code == "DUPLICATE_KEY"]
    assert [(rng(doc, f), f.message, f.data) for f in dups] == [
        (((4, 0), (4, 4)), "duplicate key 'list' (first defined on line 4)", {"key": "list", "field": "list"}),
        (((5, 0), (5, 4)), "duplicate key 'name' (first defined on line 2)", {"key": "name", "field": "name"})]
    assert [(doc.src.position(f.related[0].start), doc.src.position(f.related[0].end), f.related[0].message)
            for f in dups] == [((3, 0), (3, 4), "first definition"), ((1, 0), (1, 4), "first definition")]
    assert all(f.related[0].path == doc.path and f.severity is E for f in dups)


def test_duplicates_one_level_down_each_point_at_their_own_first():
    doc, fs = check(skill_text(extra="metadata:\n  a: 1\n  b: 2\n  a: 3\n  b: 4"))
    dups = [f for f in fs if f.code == "DUPLICATE_KEY"]
    assert [(rng(doc, f), f.message) for f in dups] == [
        (((6, 2), (6, 3)), "duplicate key 'a' (first defined on line 5)"),
        (((7, 2), (7, 3)), "duplicate key 'b' (first defined on line 6)")]
    # Not a field: harness effects keyed by a field (DUPLICATE_KEY:name) do not apply.
    assert all("field" not in f.data for f in dups)


def test_a_quoted_and_a_plain_spelling_of_one_key_are_duplicates():
    doc, fs = check(skill_text(extra='metadata:\n  a: x\n  "a": y'))
    f = only(fs, "DUPLICATE_KEY")
    assert f.message == "duplicate key '\"a\"' (first defined on line 5)"
    assert rng(doc, f) == ((5, 2), (5, 5))


def test_different_complex_keys_are_no_duplicates():
    _, fs = check(skill_text(extra="metadata: {? [a] : x, ? [b] : y}"))
    assert "DUPLICATE_KEY" not in codes(fs)


def test_a_repeated_complex_key_is_a_duplicate():
    doc, fs = check(skill_text(extra="metadata: {? [a, b] : x, ? [a, b] : y}"))
    f = only(fs, "DUPLICATE_KEY")
    assert f.data == {"key": "[a, b]"}
    assert rng(doc, f) == ((3, 27), (3, 33))


def test_distinct_keys_in_a_nested_mapping_are_fine():
    _, fs = check(skill_text(extra="metadata:\n  a: x\n  b: y\nhooks:\n  - a: 1\n  - a: 2"), profile="claude-code")
    assert "DUPLICATE_KEY" not in codes(fs)


def test_tags_are_reported_on_the_tagged_value_even_when_empty():
    doc, fs = check(skill_text(extra="x: !custom\ny: !!binary aGk=\nz: plain"))
    tags = [f for f in fs if f.code == "YAML_TAG"]
    assert [(rng(doc, f), f.message) for f in tags] == [
        (((3, 3), (3, 10)), "explicit tag !custom is ignored; the value is read as plain text"),
        (((4, 3), (4, 16)), "explicit tag tag:yaml.org,2002:binary is ignored; the value is read as plain text")]
    assert all(f.severity is W and f.data is None for f in tags)
