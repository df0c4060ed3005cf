"""compose_simple (no parser, for plain `key: value` frontmatter) builds exactly what compose builds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import corpus
from skill_lsp.engine import document, yamlnodes

REPO = Path(__file__).resolve().parents[2]


def same(a, b, depth: int = 0) -> bool:
    if depth > 50:
        return True  # a recursive alias: both sides reached the same depth
    a, b = a.target(), b.target()
    if (a.kind, a.start, a.end, a.value, a.style, a.tag, a.anchor, a.size, len(a.items)) != (
            b.kind, b.start, b.end, b.value, b.style, b.tag, b.anchor, b.size, len(b.items)):
        return False
    if a.kind == "map":
        return all(same(x[0], y[0], depth + 1) and same(x[1], y[1], depth + 1)
                   for x, y in zip(a.items, b.items, strict=True))
    return all(same(x, y, depth + 1) for x, y in zip(a.items, b.items, strict=True))


def agrees(text: str, base: int = 5) -> bool:
    fast = yamlnodes.compose_simple(text, base)
    if fast is None:
        return True
    full, err, tagged = yamlnodes.compose(text, base)
    return err is None and not tagged and full is not None and same(fast, full)


CASES = [
    "name: demo\ndescription: Does things. Use when needed.\n",
    'name: "quoted: yes"\ndescription: \'single # not a comment\'\nversion: 1.2.0\n',
    "name: x\nmetadata:\n  owner: me\n  count: 3\nempty:\nafter: ok\n",
    "name: C# tips\nurl: http://a.b/c\nflag: true\nnum: 0x1F\nnothing: ~\n",
    "# comment\nname: a\n\n  # indented comment\ndescription: b\n",
    "first: 1\nnest:\n  a: 1\n  b: 2\nlast:\n",  # a nested map, then an empty value at the end
    "nest:\n  a: 1\nnext:\n  b: 2",  # two nested maps, no final newline
    "a:",
    "a: 1\nb:",
    "\na: b\n",  # a leading blank line
    "name: 技能\ndescription: 😀 emoji and CJK 漢字\n",
    "m:\n  a: 1\n# c\n\nb: 2\n",  # a nested map ends where the next key starts, past comments
    "allowed-tools:\n  - Read\n  - 'Bash(git:*)'\n  - \"Web Fetch\"\n\n# c\nname: x\n",
    "tools:\n- Read\n- Grep\nname: x",  # a list at the key's own column
    "description: >\n  folded\n",
    "list:\n  - a\n",
    "d: |\n  line one\n    more: indented # kept\n\n  last\nn: 1\n",
    "d: |-\n  a\n\n\nn: 1\n",
    "d: |+\n  a\n\n\n",
    "d: >-\n  a\n  b\n\n\n  c  \n# comment\nn: 1\n",
    "d: >+\n  a\n\n",
    "description: Use this skill when\n  the user asks.\n\n  Second paragraph.\nname: x\n",  # plain, continued
    "description: a\n  b\n  # a comment ends the value\nname: x\n",
    "m:\n  k: a\n    b\nn: 1\n",  # continued one level down
    "d: >   \n   three\n   spaces\n",
    "tags: [a, b]\n",
    "allowed-tools: [Read, Write, Edit, Bash]\nname: x\n",
    "metadata:\n  mcp: [rube]\n  empty: []\n  spaced: [ a b ,c ]\nname: y\n",
    "d: 'it''s ''quoted'''\n",
    "description: 'Validate models and datasets.\n  Use when auditing;\n\n  another paragraph'\nname: z\n",
    "description: 'first  \n    second   \n  \n   ''third'' # kept'\n",
    "metadata:\n  note: 'one\n    two'\n  k: v\n",
]
REJECTED = [
    "description: Use when: colon\n",  # invalid YAML: the parser reports it
    "tags: [a, 'b']\n",  # quoted words in a flow list
    "tags: [a, b,]\n",
    "tags: [a, [b]]\n",
    "tags: [a: b]\n",
    "tags: [a] # c\n",
    "d: 'no closing\n  quote\n",
    "d: 'text\nat column 0'\n",
    "d: 'text\n  more' trailing\n",
    "d: '\n  first line empty'\n",
    "list:\n  - a: 1\n",  # a map in a list
    "list:\n  - a\n    - b\n",
    "list:\n  -\n",
    "m:\n  a: 1\n  - b\n",
    "d: |2\n  indicated\n",
    "d: | # comment\n  x\n",
    "d: |\n\n  leading empty line\n",
    "d: |\n  a\n  \n  spaces-only line\n",
    "d: >\n  a\n    more indented, folded\n",
    "d: |\n  no final break",
    "d: |\nn: 1\n",  # no content
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: 1 # comment\n",
    "a:\tb\n",
    "deep:\n  one:\n    two: 3\n",
    "  indented: first\n",
    "a: b\u2028c\n",
    "a: b:\n",
    "a: 1\n  b: 2\n",  # indented under a key that has a value
]


@pytest.mark.parametrize("text", CASES)
def test_fast_path_handles_plain_frontmatter_like_the_parser(text: str) -> None:
    assert yamlnodes.compose_simple(text, 5) is not None
    assert agrees(text)


@pytest.mark.parametrize("text", REJECTED)
def test_fast_path_leaves_everything_else_to_the_parser(text: str) -> None:
    assert yamlnodes.compose_simple(text) is None


_key = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
_value = st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"]), max_size=20)


@settings(max_examples=int(os.environ.get("SKILL_LSP_FUZZ_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.tuples(_key, st.sampled_from(["", '"', "'", "nest"]), _value), min_size=1, max_size=6))
def test_fast_path_agrees_with_the_parser_on_generated_lines(rows) -> None:
    lines = []
    for key, quote, value in rows:
        if quote == "nest":
            lines += [f"{key}:", f"  {key}x: {value}"]
        else:
            lines.append(f"{key}: {quote}{value}{quote}")
    assert agrees("\n".join(lines) + "\n")


_WORDS = ["a", "Read", "Bash(git:*)", "x y", "C# z", "http://a.b/c", "é ü", "😀", "a#b", "x-y", "1", "true",
          "a  b", "a: b", "k:", " lead", "trail ", "'q'", '"d"', "-x", "[a]", "&a", "|", "# c", ""]


def _frontmatter(rng) -> str:
    """Keys with values, lists, block scalars and nested maps, with comments, blank lines,
    spaces-only lines and odd indentation mixed in."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 7)):
        key = rng.choice(["name", "description", "allowed-tools", "metadata", "x.y", "a_b"])
        shape = rng.random()
        if shape < 0.25:
            lines.append(f"{key}: {rng.choice(_WORDS)}")
        elif shape < 0.45:
            lines.append(f"{key}:")
            indent = rng.choice(["", "  ", "    ", " "])
            lines += [f"{indent}-{rng.choice([' ', '  ', ''])}{rng.choice(_WORDS)}" for _ in range(rng.randint(0, 4))]
        elif shape < 0.75:
            lines.append(f"{key}: {rng.choice('|>')}{rng.choice(['', '-', '+', '', '2'])}{rng.choice(['', '  ', ' # c'])}")
            indent = rng.choice(["  ", "  ", "    ", " "])
            for _ in range(rng.randint(0, 5)):
                lines.append(rng.choice(["", "", "  ", "# comment", indent + "  " + rng.choice(_WORDS)]
                                        + [indent + rng.choice(_WORDS)] * 6))
        elif shape < 0.9:
            lines.append(f"{key}:")
            indent = rng.choice(["  ", "  ", " ", "    "])
            lines += [f"{indent}{rng.choice('abc')}: {rng.choice(_WORDS)}" for _ in range(rng.randint(0, 3))]
        else:
            lines.append(rng.choice(["# c", "", "  # c", "   ", "  - x", "  k: v", "- y"]))
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n", "\n# end\n"])


def _taken(generate, seed: int):
    """(text, tree) of each generated frontmatter the fast path takes, once it agrees with the parser."""
    import random  # noqa: PLC0415

    rng = random.Random(seed)
    for _ in range(int(os.environ.get("SKILL_LSP_FUZZ_EXAMPLES", "300")) * 40):
        text = generate(rng)
        fast = yamlnodes.compose_simple(text, 3)
        if fast is not None:
            assert agrees(text, 3), text
            yield text, fast


def test_fast_path_agrees_with_the_parser_on_generated_shapes() -> None:
    taken = shapes = 0
    for _, fast in _taken(_frontmatter, 11):
        taken += 1
        shapes += any(v.kind == "seq" or v.style in ("|", ">") for _, v in fast.items)
    assert taken > 1_000 and shapes > 300  # the fast path took lists and block scalars


_FLOW_WORDS = ["a", "Read", "x y", "web-search", "v1.2", "a/b", "f(x)", "a+b", "@me", "k=v", "", " ", "'q'", '"d"',
               "a: b", "a:b", "#c", "a #c", "[x]", "{x}", "-x", "?x", "&x", "*x", "!x", "|x", ">x", "%x", "`x`",
               "true", "1", "~", "null", "é", "😀", "a\tb"]
_QUOTED_PIECES = ["text", "more text", "it''s", "''", "a # b", "k: v", "- item", "[x]", "é ü", "😀", "  ", "",
                  "\"d\"", "trailing  ", "   lead", "---", "...", "#", "a\\b", "'", "x'y"]


def _flow_and_quoted(rng) -> str:
    """Frontmatter with one-line flow lists and single-quoted scalars over several lines, at the
    top level and one level down, with the pieces either shape must refuse mixed in."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 5)):
        key = rng.choice(["tags", "description", "allowed-tools", "x.y"])
        nested = rng.random() < 0.3
        pad = rng.choice(["  ", "  ", " ", "    "]) if nested else ""
        if nested:
            lines.append("metadata:")
        if rng.random() < 0.5:
            words = [rng.choice(_FLOW_WORDS) for _ in range(rng.randint(0, 4))]
            sep = rng.choice([", ", ",", " , ", ",  "])
            lines.append(f"{pad}{key}: [{sep.join(words)}]{rng.choice(['', ' ', '', ' # c', ','])}")
        else:
            first = rng.choice(_QUOTED_PIECES)
            body = [rng.choice(["", "  ", pad + rng.choice(["  ", "   ", " ", ""]) + rng.choice(_QUOTED_PIECES)])
                    for _ in range(rng.randint(0, 4))]
            last = pad + rng.choice(["  ", "    ", " ", ""]) + rng.choice(_QUOTED_PIECES)
            lines += [f"{pad}{key}: '{first}", *body, f"{last}'{rng.choice(['', ' ', '', ' # c', ' x'])}"]
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n"])


def test_fast_path_agrees_with_the_parser_on_flow_lists_and_quoted_lines() -> None:
    flows = quoted = 0
    for text, fast in _taken(_flow_and_quoted, 12):
        values = [v for _, v in fast.items] + [w for _, v in fast.items if v.kind == "map" for _, w in v.items]
        flows += any(v.style == "[" for v in values)
        quoted += any(v.style == "'" and "\n" in text[v.start - 3:v.end - 3] for v in values)
    assert flows > 200 and quoted > 200  # both shapes were taken, and checked against the parser


# Pieces of double-quoted values: the escapes the fast path decodes, the ones it must leave to the
# parser (other escapes, short or surrogate \u, a backslash at the end), and text around them.
_DOUBLE_PIECES = ["text", "a b", "\\\"q\\\"", "\\\\", "\\n", "\\t", "\\u00e9", "\\u2014", "\\u0041", "\\uFFFF",
                  "\\u0000", "\\U0001F600", "\\x41", "\\d", "\\/", "\\0", "\\e", "\\N", "\\ ", "\\u12", "\\ud83d",
                  "\\uDE80", "\\", "é", "😀", "# c", "k: v", "'", "  "]


def _double_quoted(rng) -> str:
    """Double-quoted values (top level, one level down, list items) built from escapes."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        value = "".join(rng.choice(_DOUBLE_PIECES) for _ in range(rng.randint(0, 5)))
        shape = rng.random()
        if shape < 0.6:
            lines.append(f'{rng.choice(["description", "name", "x"])}: "{value}"{rng.choice(["", " ", " # c"])}')
        elif shape < 0.8:
            lines += ["metadata:", f'  k: "{value}"']
        else:
            lines += ["tags:", f'  - "{value}"']
    return "\n".join(lines) + rng.choice(["\n", ""])


def test_fast_path_agrees_with_the_parser_on_escapes_in_double_quotes() -> None:
    escaped = 0
    for text, _fast in _taken(_double_quoted, 13):
        escaped += "\\" in text
    assert escaped > 200  # values with escapes were taken, and checked against the parser


# Lines that may continue a plain value, and lines the parser reads otherwise (a key, a comment, an
# indicator, ': ' or ' #' inside, a document marker).
_CONTINUATIONS = ["the user asks", "more words.", "x", "a#b", "a:b", "http://x.y/z", "é ü 😀", "1", "true",
                  "b: c", "# c", "b # c", "- item", "? q", ": v", "[x]", "{x}", "&a", "*a", "!t", "|", ">", "'q'",
                  '"d"', "%x", "@x", "`x`", "---", "...", "a,b", "trail  "]


def _plain_continued(rng) -> str:
    """Plain values continued on the lines below their key, at the top level and one level down,
    with empty and spaces-only lines, odd indentation and lines the parser must judge mixed in."""
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        nested = rng.random() < 0.3
        if nested:
            lines.append("metadata:")
        pad = "  " if nested else ""
        lines.append(f"{pad}{rng.choice(['description', 'name', 'x'])}: {rng.choice(['Use when', 'a', 'one two', '1'])}"
                     f"{rng.choice(['', ' ', '  '])}")
        for _ in range(rng.randint(0, 4)):
            lines.append(rng.choice(["", "  ", pad + rng.choice(["  ", "   ", "    ", " ", ""]) + rng.choice(_CONTINUATIONS)]))
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n"])


def test_fast_path_agrees_with_the_parser_on_plain_values_over_lines() -> None:
    continued = 0
    for text, fast in _taken(_plain_continued, 14):
        values = [v for _, v in fast.items] + [w for _, v in fast.items if v.kind == "map" for _, w in v.items]
        continued += any(v.kind == "scalar" and v.style == "" and "\n" in text[v.start - 3:v.end - 3] for v in values)
    assert continued > 200  # values over several lines were taken, and checked against the parser


@pytest.mark.parametrize("root", ["sample-workspace", "corpus"])
def test_fast_path_agrees_with_the_parser_on_real_skills(root: str) -> None:
    root = REPO / "sample-workspace" if root == "sample-workspace" else corpus()
    checked = 0
    for dirpath, _, files in os.walk(root):
        if "SKILL.md" not in files:
            continue
        doc = document.parse(Path(dirpath, "SKILL.md").read_text(encoding="utf-8", errors="replace"), "SKILL.md")
        if doc.split.closed:
            assert agrees(doc.text[doc.split.yaml_start:doc.split.yaml_end], doc.split.yaml_start), dirpath
            checked += 1
    assert checked


# Pieces of block and flow YAML: where compose trusts libyaml alone (it accepted, and
# libyaml_suffices says none of the shapes where it and PyYAML's pure parser part is
# present), both must give the same tree.
_PIECES = ["a", "b:c", ": ", ":", "- ", "-", "#", " #c", "? ", "?", "&x ", "*x", "&", "*", "|", ">", "|-", ">+",
           "|2", "@", "%", "'q'", '"d"', "'", '"', "\\", "  ", " ", "\n", "\n  ", "\n    ", "\n- ", "\n  - ",
           "key: ", "\n? ", "\n: ", "é", "😀", "---", "...", "<<: *x", "~", "null", "1e3", "\\n", "''", "\t",
           "!", "\r", "Read", "Bash(git:*)", "http://x.y/z", "a:", ":a", ",", ", ", "[", "]", "{", "}", "k: v",
           "(", ")", "/", ".", "_", "'a''b'", '"\\n"', "`"]


def test_libyaml_alone_gives_the_pure_parsers_tree() -> None:
    import random  # noqa: PLC0415

    if not yamlnodes._c_parser_class():  # noqa: SLF001
        pytest.skip("PyYAML without libyaml: compose always uses the pure parser")
    rng = random.Random(7)
    trusted = flow = 0
    for _ in range(40_000):
        text = rng.choice(["name: n\nk: ", "", "- ", "k:\n  ", "key: [", "k: {", "- [", "k:\n  - {"]) + "".join(
            rng.choice(_PIECES) for _ in range(rng.randint(1, 12))) + rng.choice(["\n", "", "]\n", "}\n"])
        if not yamlnodes.libyaml_suffices(text):
            continue
        fast = yamlnodes._compose(text, 3, libyaml=True)  # noqa: SLF001
        if fast[1] is not None:
            continue
        trusted += 1
        flow += "[" in text or "{" in text
        root, err, tagged = yamlnodes._compose(text, 3, libyaml=False)  # noqa: SLF001
        assert err is None, text
        assert len(tagged) == len(fast[2]), text
        assert (root is None) == (fast[0] is None), text
        if root is not None:
            assert same(root, fast[0]), text
    assert trusted > 4_000 and flow > 500  # both shapes take the libyaml-only path


def test_libyaml_alone_with_its_flow_spans_gives_the_pure_parsers_tree() -> None:
    """As compose decides: the flow-only shapes searched in the flow collections libyaml found, so
    a backtick, `|` or ` #` elsewhere (a description beside `metadata: {...}`) no longer sends the
    text to the pure parser. Fails when a span stops short of its closing bracket."""
    import random  # noqa: PLC0415

    if not yamlnodes._c_parser_class():  # noqa: SLF001
        pytest.skip("PyYAML without libyaml: compose always uses the pure parser")
    rng = random.Random(11)
    heads = ["name: n\nk: ", "", "- ", "k:\n  ", "key: [", "k: {", "- [", "k:\n  - {", 'metadata: {"a": ',
             "d: |\n  x\nm: {", "m: [a]\nd: ", "m: {a: b}\n", 'd: `x`\nm: {"k": [', "- {a: 1}\n- "]
    tails = ["\n", "", "]\n", "}\n", "}\nd: |\n  `x` # y\n", "]\nd: >\n  a ? b\n", "}}\n", "} # c\n", "]\n? x\n: y\n"]
    trusted = newly = 0
    for _ in range(40_000):
        text = rng.choice(heads) + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12))) + rng.choice(tails)
        if rng.random() < 0.5:
            text += rng.choice(["d: ", "- ", "k:\n  ", "", "m: {"]) + "".join(
                rng.choice(_PIECES) for _ in range(rng.randint(1, 8))) + rng.choice(tails)
        fast = yamlnodes._compose(text, 3, libyaml=True)  # noqa: SLF001
        if fast[1] is not None or not yamlnodes.libyaml_suffices(text, yamlnodes._flow_spans(fast[0], 3)):  # noqa: SLF001
            continue
        trusted += 1
        newly += not yamlnodes.libyaml_suffices(text)
        root, err, tagged = yamlnodes._compose(text, 3, libyaml=False)  # noqa: SLF001
        assert err is None and len(tagged) == len(fast[2]) and (root is None) == (fast[0] is None), text
        if root is not None:
            assert same(root, fast[0]), text
    assert trusted > 2_000 and newly > 700  # the spans trust texts the whole-text search refused


def test_libyaml_suffices_refuses_the_shapes_where_the_parsers_part() -> None:
    for text in ["k: [a: ]\n", "k: {? }\n", "k: |#\n", "k: !t v\n", "k:\tv\n", "k: v\r\n", "k: [&x a]\n",
                 "k: {a: b # c\n}\n", "k: v\u2028\n"]:
        assert not yamlnodes.libyaml_suffices(text), text
    for text in ["k: [Read, Grep, Bash(git:*)]\n", "d: |\n  text # not a comment\nl:\n  - a\n", "k: {a: b}\n"]:
        assert yamlnodes.libyaml_suffices(text), text


def test_the_plain_scalar_forms_of_every_python_agree_with_the_lazy_one():
    """The possessive form (3.11+) and the greedy one (3.10) accept what the lazy, original form
    accepts, with the same value once trailing spaces are dropped."""
    import random
    import re
    import sys

    head = r"([^\s\-?:,\[\]{}#&*!|>'\"%@`]"
    forms = [r"(?:[^:#\n]|:(?=\S)|(?<! )#)*?", r"(?:[^:#\n]|:(?=\S)|(?<! )#)*"]
    if sys.version_info >= (3, 11):
        forms.append(r"(?:[^:#\n]++|:(?=\S)|(?<! )#)*+")
    lazy, *others = [re.compile(r"( *)(k):(?:( +)" + head + f + r"))?( *)") for f in forms]
    r = random.Random(28)
    for _ in range(30000):
        line = "k: " + "".join(r.choice("ab :#-x\"'") for _ in range(r.randint(0, 10)))
        want = lazy.fullmatch(line)
        for other in others:
            got = other.fullmatch(line)
            assert (want is None) == (got is None), line
            if want is not None:
                assert want.groups()[:3] == got.groups()[:3], line
                value = got.group(4)
                assert want.group(4) == (value.rstrip(" ") if value is not None else None), line


def test_libyaml_suffices_is_the_one_alternation_it_splits() -> None:
    """The parts searched apart, each behind its literal, decide as the single regex did."""
    import random  # noqa: PLC0415
    import re  # noqa: PLC0415

    whole = re.compile(r"[\t\r\x85\u2028\u2029\ufeff]|(?:^|[\s\[{,])!|[|>][-+0-9]*#")

    def reference(text: str) -> bool:
        if whole.search(text):
            return False
        return yamlnodes._FLOW_START.search(yamlnodes._QUOTED.sub("", text)) is None or \
            not yamlnodes._FLOW_MAY_DIFFER.search(text)  # noqa: SLF001

    rng = random.Random(29)
    pieces = [*_PIECES, "\x85", "\u2028", "\u2029", "\ufeff", "!x", " !", "[!", "|#", ">-#", "|2 #", "> #"]
    refused = accepted = 0
    for _ in range(20_000):
        text = rng.choice(["", "k: ", "- ", "!", "k:\n  "]) + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
        want = reference(text)
        assert yamlnodes.libyaml_suffices(text) is want, text
        refused += not want
        accepted += want
    assert refused > 3_000 and accepted > 3_000
