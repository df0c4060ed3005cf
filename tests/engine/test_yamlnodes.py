"""The YAML layer on its own: scalar resolution, expansion limits, sizes, errors, plain values."""

from __future__ import annotations

import math

import pytest

from helpers import check, codes, skill_text
from skill_lsp.engine import yamlnodes
from skill_lsp.engine.yamlnodes import (
    MAX_DEPTH,
    MAX_EXPANDED_NODES,
    compose,
    resolve_scalar,
    to_python,
)


def value(text: str):
    root, err, _ = compose(f"x: {text}\n")
    assert err is None, err
    return resolve_scalar(root.items[0][1])


@pytest.mark.parametrize(("text", "expected"), [
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
    ("yes", "yes"), ("on", "on"), ("tRUE", "tRUE"),  # YAML 1.2: only true/false are booleans
    ("~", None), ("null", None), ("Null", None), ("NULL", None), ("", None), ("nULL", "nULL"),
    ("17", 17), ("-3", -3), ("+4", 4), ("017", 17), ("0o17", 15), ("0x1F", 31), ("0O17", "0O17"), ("0b11", "0b11"),
    ("1_000", "1_000"), ("1.5", 1.5), ("1.", 1.0), (".5", 0.5), ("1e3", 1000.0), ("-1.5e-3", -0.0015),
    (".inf", math.inf), ("-.Inf", -math.inf), ("+.INF", math.inf), (".nan", "nan"),
    ("'true'", "true"), ('"17"', "17"), ("!!str 17", "17"), ("!!bool true", True), ("!!bool false", False),
    ("!!bool yes", "yes"), ("! 5", "5"),  # the non-specific tag "!" makes a string
])
def test_plain_scalars_resolve_like_the_yaml_1_2_core_schema(text: str, expected):
    got = value(text)
    if expected == "nan":
        assert isinstance(got, float) and math.isnan(got)
    else:
        assert got == expected and type(got) is type(expected), (text, got)


def test_sizes_count_every_node_of_the_expanded_tree():
    root, _, _ = compose("a: [x, y]\nb: {k: v}\nc: z\n")
    assert [(k.size, v.size) for k, v in root.items] == [(1, 3), (1, 3), (1, 1)]
    assert root.size == 1 + 4 + 4 + 2


def aliases(n: int) -> str:
    # The anchored list has 99 items: 100 nodes; each alias expands to those 100.
    return "a: &a [" + ", ".join(["x"] * 99) + "]\nb: [" + ", ".join(["*a"] * n) + "]\n"


def test_alias_expansion_stops_exactly_past_the_limit():
    assert MAX_EXPANDED_NODES == 10_000
    _, err, _ = compose(aliases(100))  # 10,000 expanded nodes: allowed
    assert err is None
    _, err, _ = compose(aliases(101))
    assert err is not None and err.limit and "10,000" in err.message
    _, fs = check(skill_text(extra=aliases(101).rstrip("\n")))
    assert "FRONTMATTER_LIMIT" in codes(fs)


def test_nesting_stops_exactly_past_the_limit():
    ok = "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"  # with the root map: MAX_DEPTH levels
    assert compose(ok)[1] is None
    deep = "x: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    err = compose(deep)[1]
    assert err is not None and err.limit and f"deeper than {MAX_DEPTH}" in err.message


@pytest.mark.parametrize(("text", "message", "at"), [
    ("a: \x00", "#x0000", 3),  # refused by the C parser before the first event
    ("a: \x07b", "#x0007", 3),
    ("a: [b\nc: d", "", None),
    # Content after a `...` line: a second document, refused at the marker (capture case document-end).
    ("a: b\n...\nc: d\n", "document end marker", 5),
    ("a: b\n...\n---\nc: d\n", "document end marker", 5),
])
def test_parser_errors_carry_a_message_and_the_offset_of_the_fault(text: str, message: str, at: int | None):
    root, err, tagged = compose(text, 10)
    assert root is None and tagged == [] and err is not None and not err.limit
    assert message in err.message and err.message
    if at is not None:
        assert err.offset == 10 + at


@pytest.mark.parametrize("text", ["a: b\n...\n", "a: b\n...\n# a comment\n\n", "a: b\n"])
def test_a_document_end_marker_with_nothing_after_it_is_one_document(text: str):
    root, err, _ = compose(text)
    assert err is None and to_python(root) == {"a": "b"}


def test_a_self_alias_expands_to_exactly_max_depth_levels():
    # The value of x sits one level below the root map.
    root, err, _ = compose("x: &x [*x]\n")
    assert err is None
    v = to_python(root)["x"]
    depth = 0
    while isinstance(v, list):
        (v,) = v
        depth += 1
    assert (depth, v) == (MAX_DEPTH, None)


def test_expansion_budget_of_plain_values():
    # 9,999 items + the list itself = the whole budget; one more item and the last becomes None.
    root, err, _ = compose("[" + ", ".join(["x"] * (MAX_EXPANDED_NODES - 1)) + "]")
    assert err is None and to_python(root)[-1] == "x"
    root, err, _ = compose("[" + ", ".join(["x"] * MAX_EXPANDED_NODES) + "]")
    assert err is None
    values = to_python(root)
    assert values[-1] is None and values[-2] == "x"


def test_collection_keys_become_strings_and_a_null_key_stays_none():
    root, err, _ = compose("? [a, b]\n: v\n? {x: y}\n: w\n~: n\n")
    assert err is None
    assert to_python(root) == {"['a', 'b']": "v", "{'x': 'y'}": "w", None: "n"}


def test_an_alias_node_points_at_its_anchor_and_shares_its_value():
    text = 'a: &n "text"\nb: *n\nc: &l [1, 2]\nd: *l\n'
    root, _, _ = compose(text, 2)
    (_, anchored), (_, alias), (_, seq), (_, seq_alias) = root.items
    assert alias.is_alias and alias.target() is anchored and not anchored.is_alias
    assert anchored.anchor == "n" and seq.anchor == "l"
    assert (alias.kind, alias.value, alias.style, alias.size) == ("scalar", "text", '"', 1)
    assert (alias.start, alias.end) == (2 + text.index("*n"), 2 + text.index("*n") + 2)  # the alias, not its anchor
    assert (seq_alias.kind, seq_alias.style, seq_alias.items, seq_alias.size) == ("seq", "[", seq.items, 3)
    assert yamlnodes.to_python(root) == {"a": "text", "b": "text", "c": [1, 2], "d": [1, 2]}


def test_collection_styles_and_a_scalar_document():
    root, _, _ = compose("a: [x]\nb: {k: v}\nc:\n  - y\nd:\n  k: v\n")
    assert [v.style for _, v in root.items] == ["[", "{", "", ""]
    root, err, _ = compose("just text")
    assert err is None and (root.kind, root.value) == ("scalar", "just text")


def test_only_explicit_tags_are_reported():
    _, _, tagged = compose("a: ! x\nb: !!str y\nc: !custom z\n")
    assert [n.tag for n in tagged] == ["!custom"]


def test_a_lone_surrogate_is_an_error_at_its_character():
    root, err, tagged = compose("a: \ud800", 7)  # a lone surrogate cannot even be encoded
    assert root is None and tagged == [] and err.offset == 10 and "special characters are not allowed" in err.message


ERRORS = [
    # text, the deciding parser's message (PyYAML's, as yaml.safe_load says it), offset of
    # the fault in code points (base 3)
    ("a: [b\nc: d", "expected ',' or ']', but got ':' (while parsing a flow sequence)", 10),
    ("a: b: c", "mapping values are not allowed here", 7),
    ("技能: a: b", "mapping values are not allowed here", 8),  # characters, not libyaml's bytes
    ("x: *nope", "found undefined alias 'nope'", 6),
]


@pytest.mark.parametrize(("text", "message", "offset"), ERRORS)
def test_errors_name_the_problem_and_its_context_at_the_character_offset(text: str, message: str, offset: int):
    _, err, _ = compose(text, 3)
    assert (err.message, err.offset, err.limit) == (message, offset, False)


@pytest.mark.parametrize("text", [t for t, _, _ in ERRORS] + [
    "k: v\nk2: [1, 2]\nk3: {a: b}\n", "- a\n- b\n", "a: |\n  x\n", "a: &x 1\nb: *x\n", "é: ü\n"])
def test_the_pure_python_fallback_composes_like_the_c_parser(text: str, monkeypatch):
    c_root, c_err, c_tagged = compose(text, 3)
    monkeypatch.setattr(yamlnodes, "_CParser", False)  # as where the C extension is missing
    p_root, p_err, p_tagged = compose(text, 3)
    assert (c_err is None) == (p_err is None) and len(c_tagged) == len(p_tagged)
    if c_err is not None:
        assert p_err.offset == c_err.offset and p_err.message
    else:
        assert to_python(p_root) == to_python(c_root)
        assert [(k.start, v.start, v.end) for k, v in p_root.items] == [(k.start, v.start, v.end) for k, v in c_root.items] \
            if p_root.kind == "map" else [(i.start, i.end) for i in p_root.items] == [(i.start, i.end) for i in c_root.items]


@pytest.mark.parametrize("text, value", [
    ('d: "a \x85b"\n', "a \x85b"),  # YAML 1.1 folds a quoted line at NEL: "a b"
    ("d: one\u2028two three\n", "one\u2028two three"),  # 1.1: a plain scalar ends, "two three" is an error
    ("d: |\n  p\u2028q\n  r\n", "p\u2028q\nr\n"),
    ("d: 'x \u2029 y'\n", "x \u2029 y"),
])
def test_nel_ls_and_ps_are_ordinary_characters_as_in_yaml_1_2(text: str, value: str):
    # Claude Code, Gemini CLI and OpenCode (capture case yaml-line-breaks); the stand-ins used for the
    # parse never leak into a value, and offsets are the text's own.
    root, err, _ = compose(text)
    assert err is None and root is not None
    (key, node), = root.items
    assert node.value == value
    assert text[node.start:node.end].startswith(("'", '"', "|", "o"))


def test_stand_ins_already_in_the_text_are_kept_apart():
    text = 'd: "\ue000 \u2028 \ue001"\n'
    root, err, _ = compose(text)
    assert err is None and root is not None
    assert root.items[0][1].value == "\ue000 \u2028 \ue001"


@pytest.mark.parametrize("text, value, error", [
    ('d: "a \x85b"\n', "a b", None),  # folded at the break, as Codex and Copilot CLI read it
    ('d: "a \u2028b"\n', "a\u2028b", None),  # LS is kept, the space before it is not
    ("d: one\u2028two three\n", None, "could not find expected ':'"),
])
def test_yaml11_reads_them_as_line_breaks(text: str, value: str | None, error: str | None):
    root, err, _ = compose(text, yaml11=True)
    if error is None:
        assert err is None and root is not None and root.items[0][1].value == value
    else:
        assert err is not None and error in err.message
