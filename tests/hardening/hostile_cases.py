"""Hostile and broken SKILL.md texts, shared by tests/hardening and benchmarks/bench_hostile.py.

Each entry: name -> (text or bytes, codes that must be among the findings, or None when any is fine).
"""

from __future__ import annotations

FM = "---\nname: demo\ndescription: Does a thing. Use when testing.\n"


def bomb(levels: int = 9, width: int = 9) -> str:
    lines = [FM.rstrip("\n"), "a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n---\nbody\n"


def merge_bomb() -> str:
    lines = [FM.rstrip("\n"), "m0: &m0 {k: v}"]
    for i in range(1, 40):
        lines.append(f"m{i}: &m{i} {{<<: *m{i - 1}, a: *m{i - 1}, b: *m{i - 1}}}")
    return "\n".join(lines) + "\n---\n"


YAML_CASES = {
    "billion-laughs": (bomb(), {"FRONTMATTER_LIMIT"}),
    "billion-laughs-wide": (bomb(levels=20, width=2), {"FRONTMATTER_LIMIT"}),
    "merge-key-bomb": (merge_bomb(), {"FRONTMATTER_LIMIT"}),
    "self-alias": (FM + "x: &x [*x]\n---\n", None),
    "undefined-alias": (FM + "x: *nope\n---\n", {"INVALID_FRONTMATTER"}),
    "thousands-of-[": (FM + "x: " + "[" * 5000 + "\n---\n", {"FRONTMATTER_LIMIT"}),
    "thousands-of-{": (FM + "x: " + "{a: " * 5000 + "\n---\n", {"FRONTMATTER_LIMIT"}),
    "deep-block-nesting": (FM + "".join(" " * i + f"k{i}:\n" for i in range(400)) + "---\n", {"FRONTMATTER_LIMIT"}),
    "deep-block-seq": (FM + "x:\n" + "".join("  " * i + "-\n" for i in range(400)) + "---\n", {"FRONTMATTER_LIMIT"}),
    "many-closing-]": (FM + "x: " + "]" * 5000 + "\n---\n", {"INVALID_FRONTMATTER"}),
    "tab-indentation": ("---\nname: demo\n\tdescription: x\n---\n", {"INVALID_FRONTMATTER"}),
    "tab-in-nested": (FM + "metadata:\n\tk: v\n---\n", {"INVALID_FRONTMATTER"}),
    "duplicate-keys": ("---\nname: demo\nname: demo\ndescription: x\n---\n", {"DUPLICATE_KEY"}),
    "duplicate-nested": (FM + "metadata:\n  a: 1\n  a: 2\n---\n", {"DUPLICATE_KEY"}),
    "doc-is-list": ("---\n- name: demo\n- description: x\n---\n", {"INVALID_FRONTMATTER"}),
    "doc-is-scalar": ("---\njust text\n---\n", {"INVALID_FRONTMATTER"}),
    "doc-is-null": ("---\n~\n---\n", None),
    "two-documents": ("---\nname: demo\n...\n---\ndescription: x\n---\n", None),
    "python-object": (FM + "x: !!python/object/apply:os.system ['touch /tmp/skill-lsp-pwned']\n---\n", {"YAML_TAG"}),
    "python-name": ("---\nname: !!python/name:os.system demo\ndescription: x\n---\n", {"YAML_TAG"}),
    "python-module": (FM + "x: !!python/module:subprocess\n---\n", {"YAML_TAG"}),
    "custom-tags": (FM + "x: !custom {a: !other 1}\ny: !<tag:example.com,2000:app/foo> z\n---\n", {"YAML_TAG"}),
    "invalid-escape": ('---\nname: demo\ndescription: "bad \\q escape"\n---\n', {"INVALID_FRONTMATTER"}),
    "invalid-unicode-escape": ('---\nname: demo\ndescription: "\\uZZZZ \\U0011FFFF"\n---\n', {"INVALID_FRONTMATTER"}),
    "invalid-timestamp": (FM + "updated: 2025-13-45\ncreated: 2025-02-30T99:99:99\n---\n", None),
    "huge-int": (FM + "version: " + "9" * 5000 + "\n---\n", None),
    "huge-float": (FM + "x: 1e99999\ny: .nan\n---\n", None),
    "unclosed-quote": ('---\nname: "demo\ndescription: x\n---\n', {"INVALID_FRONTMATTER"}),
    "control-char": (FM + "x: a\x07b\n---\n", {"INVALID_FRONTMATTER"}),
    "directive": ("---\n%YAML 1.1\n---\nname: demo\n---\n", None),
    "complex-key": (FM + "? [a, b]\n: v\n? {x: y}\n: w\n---\n", None),
    "anchor-on-name": ("---\nname: &n demo\ndescription: *n\n---\n", None),
    "alias-as-key": ("---\nk: &k name\n*k : demo\ndescription: x\n---\n", None),
}


# Text-level oddities.
TEXT_CASES = {
    "nul-bytes": (FM + "---\nbo\x00dy\n", None),
    "nul-in-frontmatter": ("---\nname: de\x00mo\ndescription: x\n---\n", {"INVALID_FRONTMATTER"}),
    "lone-cr": ("---\rname: demo\rdescription: Does a thing. Use when testing.\r---\rbody\r", set()),
    "mixed-endings": ("---\r\nname: demo\ndescription: Does a thing. Use when testing.\r---\r\nbody\n\rmore\r\n", set()),
    "u2028-u2029-body": (FM + "---\nbo\u2028dy\u2029end\n", set()),
    "u2028-in-value": ("---\nname: demo\ndescription: a\u2028b\n---\n", None),
    "form-feeds": (FM + "---\n\x0c\nbody\x0cpage\n", None),
    "form-feed-in-value": ("---\nname: demo\ndescription: a\x0cb\n---\n", None),
    "zero-width-name": ("---\nname: de\u200bmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "zwj-name": ("---\nname: de\u200dmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bidi-override-name": ("---\nname: demo\u202e\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bidi-isolate-name": ("---\nname: \u2066demo\u2069\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bom-in-name": ("---\nname: de\ufeffmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "soft-hyphen-name": ("---\nname: de\u00admo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "arabic-mark-name": ("---\nname: demo\u061c\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "lone-surrogate": (FM + "---\nbad \ud800 surrogate\n", None),
    "astral": ("---\nname: demo\ndescription: 😀😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n---\n😀 [x](😀.md)\n", None),
    "empty": ("", {"MISSING_FRONTMATTER"}),
    "only-dashes": ("---", {"INVALID_FRONTMATTER"}),
    "only-dashes-newline": ("---\n", {"INVALID_FRONTMATTER"}),
    "two-fences": ("---\n---\n", {"MISSING_FIELD"}),
    "bom-only": ("\ufeff", {"MISSING_FRONTMATTER"}),
    "whitespace-only": (" \n\t\n  ", {"MISSING_FRONTMATTER"}),
    "crlf-only-fences": ("---\r\n---\r\n", {"MISSING_FIELD"}),
}

# Bytes on disk (decoding).
BYTE_CASES = {
    "invalid-utf8": (b"---\nname: demo\ndescription: caf\xe9\n---\n", "INVALID_ENCODING"),
    "truncated-utf8": (b"---\nname: demo\ndescription: x\n---\n\xe2\x82", "INVALID_ENCODING"),
    "utf16-le-bom": ("\ufeff---\nname: demo\ndescription: x\n---\n".encode("utf-16-le"), "INVALID_ENCODING"),
    "utf16-be-bom": ("\ufeff---\nname: demo\ndescription: x\n---\n".encode("utf-16-be"), "INVALID_ENCODING"),
    "utf16-odd-length": (b"\xff\xfe-\x00-\x00-", "INVALID_ENCODING"),
    "nul-bytes": (b"---\nname: demo\ndescription: x\n---\nbo\x00dy\n", "INVALID_ENCODING"),
    "utf8-bom": (b"\xef\xbb\xbf---\nname: demo\ndescription: Does a thing. Use when testing.\n---\nbody\n", None),
    "empty": (b"", "MISSING_FRONTMATTER"),
    "only-dashes": (b"---", "INVALID_FRONTMATTER"),
}
