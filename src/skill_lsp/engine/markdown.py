"""The Markdown body: links, images, reference definitions and headings with raw spans.

The hot path parses with pulldown-cmark (``pyromark``), a CommonMark parser
that reports source ranges for every event: on the 3,223-skill corpus it takes
0.12 s where markdown-it-py's block pass alone takes 1.0 s. Where pyromark has
no wheel, or one older than 0.10 (the last with CPython 3.10 wheels is 0.9.14,
without ``merge_text``), markdown-it-py is the fallback (``_markdown_mdit``). Either way links
inside code spans and code blocks are not links, and every span is a code point
offset into the whole document.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from operator import add

from .lazyre import lazy_re
from .markdown_base import _WEB, Body, Heading, Link, RawSpans, _destination, may_define

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

_UNLOADED: Any = object()
# pulldown-cmark, imported by the first body that needs a parse (most skills need none, and a
# one-skill `check` should not pay for it); None where it has no (recent) wheel.
_pyromark: Any = _UNLOADED


def pyromark() -> Any:
    """The pyromark module, or None where it is not installed or too old (markdown-it-py is used instead)."""
    global _pyromark
    if _pyromark is _UNLOADED:
        module: Any = None
        try:
            import pyromark as module  # noqa: PLC0415

            module.events_with_range("", merge_text=True)  # TypeError before 0.10
        except (ImportError, TypeError):  # pragma: no cover - exercised where pyromark has no (recent) wheel
            module = None
        _pyromark = module
    return _pyromark


class _ByteMap:
    """UTF-8 byte offsets of ``text`` -> code point offsets, per line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        if not self.ascii:
            # Line starts from the lines' lengths, summed in C (a Python loop encoding each line
            # took 0.1 ms a real body), plus one line feed per line before; one more past the end.
            # A line feed is one byte in UTF-8 and inside no other character's bytes.
            n = text.count("\n") + 1
            self.byte_starts = list(map(add, accumulate(map(len, text.encode("utf-8").split(b"\n")), initial=0),
                                        range(n + 1)))
            self.char_starts = list(map(add, accumulate(map(len, text.split("\n")), initial=0), range(n + 1)))

    def __call__(self, b: int) -> int:
        if self.ascii:
            return b
        starts = self.byte_starts
        i = bisect_right(starts, b) - 1
        c0 = self.char_starts[i]
        if starts[i + 1] - starts[i] == self.char_starts[i + 1] - c0:
            return c0 + b - starts[i]  # an ASCII line: a byte is a character
        line_end = self.text.find("\n", c0)
        line = self.text[c0 : len(self.text) if line_end < 0 else line_end]
        prefix = line.encode("utf-8")[: b - self.byte_starts[i]]
        return c0 + len(prefix.decode("utf-8", "ignore"))


_OPTIONS = None
# A URL scheme of two or more letters (one letter is a Windows drive), or an anchor.
# The common destination: <bracketed>, or a run without blanks, escapes or nested parentheses.
_SURROGATE = lazy_re("[\ud800-\udfff]")
_LONE_CR = lazy_re(r"\r(?!\n)")


def pulldown_text(body: str) -> str:
    """``body`` as pulldown-cmark reads it right. A lone CR ends a line in CommonMark, but
    pulldown-cmark does not end a fence's opening line there (```` ```\rcode ```` is a paragraph
    to it, a code block to markdown-it). A line feed in its place is one character and one byte
    as well, so every offset holds."""
    return _LONE_CR.sub("\n", body) if "\r" in body else body


def _recorded(target: str) -> bool:
    """Whether a link target is kept: not a web URL or in-page anchor (a file: URL is kept)."""
    # A scheme ends in ':', an anchor starts with '#': most targets (paths) hold neither, and
    # two `in` tests on a short string cost less than the pattern's match call.
    if ":" not in target and not target.startswith("#"):
        return True
    return not _WEB.match(target) or target.startswith(("file:", "FILE:"))


def _options() -> Any:
    global _OPTIONS
    if _OPTIONS is None and pyromark() is not None:
        o = _pyromark.Options
        _OPTIONS = o.ENABLE_TABLES | o.ENABLE_STRIKETHROUGH | o.ENABLE_TASKLISTS | o.ENABLE_FOOTNOTES
    return _OPTIONS


def parse(body: str, base: int) -> Body:
    """Parse ``body`` (which starts at document offset ``base``)."""
    if pyromark() is None:
        from ._markdown_mdit import parse as parse_mdit  # noqa: PLC0415

        return parse_mdit(body, base)
    return _parse_pulldown(body, base)


def _parse_pulldown(body: str, base: int) -> Body:
    out = Body()
    if not body:
        return out
    if not body.isascii():
        try:
            body.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates from a client: same length, parseable
            body = _SURROGATE.sub("\ufffd", body)
    body = pulldown_text(body)
    # One char per byte, so byte offsets index it directly.
    src = body if body.isascii() else body.encode("utf-8").decode("latin-1")
    to_char = _ByteMap(body)
    # [kind, target, start, end-of-text-so-far, end] per open link/image.
    links: list[list] = []
    heading: list | None = None  # [level, start, end, text parts]
    # The hot loop of a check: most events are str-tagged Start/End pairs (items,
    # paragraphs, table cells), so they are dismissed with `in` tests first.
    for ev, rng in _pyromark.events_with_range(body, options=_options(), merge_text=True):
        if ev.__class__ is not dict:
            if links:
                links[-1][3] = max(links[-1][3], rng["end"])
            continue
        if "Start" in ev:
            if links:  # the link text reaches at least this far
                links[-1][3] = max(links[-1][3], rng["end"])
            start_tag = ev["Start"]
            if start_tag.__class__ is str:
                continue
            if "Link" in start_tag or "Image" in start_tag:
                image = "Image" in start_tag
                info = start_tag["Image"] if image else start_tag["Link"]
                lt = info["link_type"]
                kind = ("image" if image else "inline") if lt == "Inline" else (
                    "reference" if lt in ("Reference", "Collapsed", "Shortcut") else "")
                links.append([kind, info["dest_url"], rng["start"], rng["start"] + (2 if image else 1), rng["end"]])
            elif "Heading" in start_tag:
                heading = [int(start_tag["Heading"]["level"][1:]), rng["start"], rng["end"], []]
            elif "CodeBlock" in start_tag:
                out.code_blocks.append((base + to_char(rng["start"]), base + to_char(rng["end"])))
            continue
        if "End" in ev:
            end_tag = ev["End"]
            if end_tag.__class__ is str:
                if (end_tag == "Link" or end_tag == "Image") and links:
                    _close_link(links, out, src, to_char, base)
                continue
            if heading is not None and "Heading" in end_tag:
                level, s, e, parts = heading
                out.headings.append(Heading(level, "".join(parts).strip(), base + to_char(s), base + to_char(e)))
                heading = None
            continue
        if links:
            links[-1][3] = max(links[-1][3], rng["end"])
        if heading is not None:
            piece = ev.get("Text") or ev.get("Code")
            if piece:
                heading[3].append(piece)
    # A definition has ']:' in it, after a label opening a line: without one, no second parse
    # (0.02 ms of a 12 KiB body's 0.27).
    defs = _pyromark.reference_definitions(body, options=_options()) if may_define(body) else {}
    for info in defs.values():
        if not _recorded(info["dest"]):
            continue
        span = info["span"]
        ts = _definition_target(src, span["start"], span["end"])
        if ts is None:
            continue
        out.links.append(Link("definition", info["dest"], base + to_char(span["start"]),
                              base + to_char(span["end"]), base + to_char(ts[0]), base + to_char(ts[1])))
    out.links.sort(key=lambda link: link.start)
    return out


def _close_link(links: list[list], out: Body, src: str, to_char: _ByteMap, base: int) -> None:
    kind, target, s, text_end, e = links.pop()
    if links:
        links[-1][3] = max(links[-1][3], e)
    if not _recorded(target):
        return  # a web URL or an in-page anchor: nothing looks at its span
    if kind in ("inline", "image"):
        span = _inline_target(src, text_end, e)
        if span is not None:
            out.links.append(Link(kind, target, base + to_char(s), base + to_char(e),
                                  base + to_char(span[0]), base + to_char(span[1])))
    elif kind:
        s_c, e_c = base + to_char(s), base + to_char(e)
        out.links.append(Link("reference", target, s_c, e_c, s_c, e_c))


def _inline_target(src: str, text_end: int, end: int) -> tuple[int, int] | None:
    """Byte span of the destination of an inline link whose text ends at or after ``text_end``."""
    close = src.find("](", text_end, end)
    if close < 0:
        return None
    return _destination(src, close + 2, end)


def _definition_target(src: str, start: int, end: int) -> tuple[int, int] | None:
    colon = src.find("]:", start, end)
    if colon < 0:
        return None
    return _destination(src, colon + 2, end)


# --- links without the event stream -------------------------------------------------------
#
# Most bodies only need their links (the rules check targets; code blocks matter for
# trailing whitespace and mentions, which ask for the full parse themselves). Turning
# pulldown-cmark's events into Python objects is most of a parse (0.49 ms of a generated
# 12 KiB body); its HTML writer runs natively (0.05 ms) and says which raw `](target`
# candidates are links: a candidate inside code, raw HTML or broken syntax renders as text.
# Where that answer could be ambiguous the full parse decides (None below), so the links
# are always exactly the full parse's (tests/engine/test_markdown_fast.py holds them equal).

# A raw `](target` candidate: (1) a line break first (the target is on the next line),
# (2) the target in characters the HTML writer emits unchanged and CommonMark decodes to
# themselves, (3) the character after it when that is no blank or ')' (then the target is
# bracketed, escaped, encoded or holds parentheses, and the HTML would not show it as written).
_CANDIDATE = lazy_re(r"\]\([ \t]*(?:([\r\n])|([A-Za-z0-9!#$*+,\-./:;=?@_~^]*)([^ \t\r\n)]?))")
_HTML_TARGET = lazy_re(r'<(a|img) (?:href|src)="([^"]*)"')
# Raw HTML tags in the form the writer emits, and file: autolinks (kept targets that are no `](`
# candidate). One search: four `in` tests walked a 12 KiB body in 16 us, this in 3.
_GIVES_UP = lazy_re(r'<(?:a href="|img src="|file:|FILE:)')
# Characters that could make the nearest '[' not the link's opener (code spans, nested
# brackets, escapes, raw HTML): with one of them in a link's text the full parse decides.
_UNSURE_TEXT = lazy_re(r"[\[\]`\\<>]")
_CLOSE = lazy_re(r"[ \t]*\)")


def _encodes(body: str) -> bool:
    """Whether pyromark takes ``body`` as it is (a client's lone surrogates do not encode; the full
    parse replaces them, which the shortcuts do not)."""
    if body.isascii():
        return True
    try:
        body.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def html(body: str) -> str:
    """``body`` rendered: what a reader of the page sees (pyromark; markdown-it-py without it)."""
    if pyromark() is None or not _encodes(body):
        from ._markdown_mdit import _md  # noqa: PLC0415

        return _md().render(body)  # type: ignore[no-any-return]
    return _pyromark.html(pulldown_text(body), options=_options())  # type: ignore[no-any-return]


def hard_breaks(body: str, base: int) -> list[tuple[int, int]] | None:
    """Where the body breaks a line (two spaces or more, or a backslash, before a line end), as
    document offsets [start, end); None without pyromark or for a body it does not take as it is."""
    if pyromark() is None or not _encodes(body):
        return None
    body = pulldown_text(body)
    to_char = _ByteMap(body)
    return [(base + to_char(rng["start"]), base + to_char(rng["end"]))
            for ev, rng in _pyromark.events_with_range(body, options=_options()) if ev == "HardBreak"]


def links_fast(body: str, base: int) -> list[Link] | None:
    """The links ``parse(body, base)`` finds, or None when only the full parse can tell."""
    # Definitions and reference links ("]:"), and what _GIVES_UP finds.
    if pyromark() is None or may_define(body) or _GIVES_UP.search(body) is not None \
            or not _encodes(body):
        return None
    body = pulldown_text(body)
    cands: dict[str, list[tuple[int, int, int]]] = {}  # target -> (where "](" is, target span)
    empty = False  # a `]()`: the HTML shows whether it is a link (href="")
    for m in _CANDIDATE.finditer(body):
        brk, d, after = m.groups()
        if brk is not None or after:
            return None
        if not d:
            empty = True
        elif _recorded(d):
            k = m.start(2)
            cands.setdefault(d, []).append((m.start(), k, k + len(d)))
    if not cands and not empty:
        # Every `](` led to a web URL or an anchor (or there is none): a kept link would have
        # been a candidate, an empty target or made the scan give up above, so the HTML has
        # nothing to add.
        return []
    shown: dict[str, list[str]] = {}
    for tag, target in _HTML_TARGET.findall(_pyromark.html(body, options=_options())):
        if _recorded(target):
            if target not in cands:
                return None  # a link the candidates do not explain (a bare empty target...)
            shown.setdefault(target, []).append(tag)
    out: list[Link] = []
    rfind, unsure, close_at = body.rfind, _UNSURE_TEXT.search, _CLOSE.match
    for d, occ in cands.items():
        tags = shown.get(d)
        if tags is None:
            # None of them is a link, unless one sits in an image's description, where the
            # parse sees a link but the HTML only alt text.
            for close, _k, _e in occ:
                if body.find("![", max(rfind("\n\n", 0, close), 0), close) >= 0:
                    return None
            continue
        if len(tags) != len(occ):
            return None  # some are links, some are not: which, only the parse knows
        # In source order, as the HTML lists them: with no bracket in any of their texts
        # (checked next), none is nested in another.
        for (close, k, e), tag in zip(occ, tags, strict=True):
            p = rfind("[", 0, close)
            if p < 0 or (p > 0 and body[p - 1] == "\\") or unsure(body, p + 1, close):
                return None
            end = close_at(body, e)
            if end is None:
                return None  # a title follows
            image = tag == "img"
            start = p - 1 if image else p
            out.append(Link("image" if image else "inline", d, base + start, base + end.end(), base + k, base + e))
    out.sort(key=lambda link: link.start)
    return out


# A code block in pyromark's HTML: (1) the language its info string names, (2) its text, both
# escaped (so the text holds no '<' of its own).
_HTML_CODE = lazy_re(r'<pre><code(?: class="language-([^"<>]*)")?>([^<]*)</code></pre>')
# A fence opening a line (searched in "\n" + body, as bodyscan does): (1) its indentation, (2) the
# fence, (3) the info string.
_FENCE_OPEN = lazy_re(r"\n( *)(`{3,}|~{3,})([^\n]*)")
# A list item's first line (searched in "\n" + body).
_LIST_LINE = lazy_re(r"\n {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\n|$)")
# A line that may open an HTML block (searched in "\n" + body).
_HTML_LINE = lazy_re(r"\n {0,3}<")
# Raw HTML that renders as a code block itself (led by its literal: the scan skips to each '<').
_RAW_CODE = lazy_re(r"<(?i:pre|code)")


def code_blocks_fast(body: str, base: int) -> list[tuple[int, int]] | None:
    """The code blocks ``parse(body, base)`` finds, or None when only the full parse can tell.

    Fenced blocks come from a scan for fence lines; pyromark's HTML (rendered in Rust: a
    fraction of the event walk a full parse pays) must then hold exactly these blocks, in order,
    each with the text the scan gives it. Anything else (an indented block, a fence in a block
    quote or an HTML block, a fence the scan misreads) makes the two disagree, and the full
    parse decides.
    """
    # A tab indents by columns, not characters; '\r' ends lines the scan does not split at.
    if pyromark() is None or "\t" in body or "\r" in body or ("<" in body and _RAW_CODE.search(body) is not None) \
            or not _encodes(body):
        return None
    blocks: list[tuple[int, int]] = []
    texts: list[str] = []
    langs: list[str] = []
    n = len(body)
    lined = "\n" + body  # offsets in it are the body's plus one
    list_at = -1  # where the first list item's line is, looked for at the first indented fence
    pos = 0
    while (m := _FENCE_OPEN.search(lined, pos)) is not None:
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
        if indent > 3 or (fence[0] == "`" and "`" in info):
            # Indented past a fence's three spaces (in a list item, or code), or no fence at all
            # (a backtick in a backtick fence's info string makes the line text).
            return None
        start = m.start(2) - 1
        first = body.find("\n", start) + 1  # the first line of the text (0: none)
        close = _closing(fence).search(lined, first) if first else None
        if close is None:  # unclosed: the block runs to the end
            end = n
            text = body[first:] if first else ""
            if text and not text.endswith("\n"):
                text += "\n"
        else:
            end = close.end() - 1
            text = body[first:close.start()]  # its lines, each with its line feed
        if indent:
            if list_at < 0:
                item = _LIST_LINE.search(lined)
                list_at = item.start() if item is not None else len(lined)
            if list_at < m.start() and _outdented(indent).search(body, first or n, end) is not None:
                # An indented fence after a list item may be the item's, which a line indented
                # less ends before the next fence line does (blocks the HTML shows with the same
                # texts, at other places).
                return None
            if text:
                text = _dedent(indent).sub("", text)  # the fence's indentation goes from each line
        blocks.append((base + start, base + end))
        texts.append(text)
        langs.append(info.split(maxsplit=1)[0] if info.strip() else "")
        if close is None:
            break
        pos = close.end()  # the line feed ending the closing fence's line, in ``lined``
    if blocks and _HTML_LINE.search(lined) is not None:
        return None  # an HTML block may hold fence lines as text
    html = _pyromark.html(body, options=_options())
    if not blocks:
        # No fence: a code block the HTML shows is an indented one, which the scan cannot place.
        return None if "<pre><code" in html else []
    shown = _HTML_CODE.findall(html)
    if len(shown) != len(texts):
        return None
    for (lang, got), text, info in zip(shown, texts, langs, strict=True):
        if got != _escape(text) or lang != _escape(info):
            return None
    return blocks


def _escape(text: str) -> str:
    """As pyromark's HTML writes text inside code (no quotes escaped there)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") if "&" in text or "<" in text \
        or ">" in text else text


@lru_cache(maxsize=32)
def _closing(fence: str) -> re.Pattern[str]:
    """A line closing ``fence``: its character at least as many times, spaces around (searched
    in "\n" + body from the text's first line; the match starts at the line feed before it)."""
    return re.compile(r"\n *" + re.escape(fence[0]) + "{" + str(len(fence)) + r",} *(?=\n|$)")


@lru_cache(maxsize=4)
def _outdented(indent: int) -> re.Pattern[str]:
    """A line with text indented less than ``indent`` (1-3) spaces."""
    return re.compile(r"(?m)^ {0," + str(indent - 1) + r"}(?! )(?=[^\n])")


@lru_cache(maxsize=4)
def _dedent(indent: int) -> re.Pattern[str]:
    """Up to ``indent`` spaces at each line's start (a fence's indentation, at most 3)."""
    return re.compile(r"(?m)^ {1," + str(indent) + "}")


# --- code and raw HTML, for the fix guard ---------------------------------------------------
#
# Only fixes ask for these (engine/protected.py), so they come from a pass of their own and
# cost a check nothing.

# Inline elements whose text is code or literal input: their content is kept as written.
_CODE_TAGS = ("code", "kbd", "samp", "pre", "tt", "var")


def raw_spans(body: str, base: int) -> RawSpans:
    """Inline code and raw HTML of ``body`` (which starts at document offset ``base``)."""
    if _pyromark is None:
        from ._markdown_mdit import raw_spans as raw_mdit  # noqa: PLC0415

        return raw_mdit(body, base)
    code: list[tuple[int, int]] = []
    html: list[tuple[int, int]] = []
    if not body:
        return RawSpans(code, html)
    if not body.isascii():
        try:
            body.encode("utf-8")
        except UnicodeEncodeError:
            body = _SURROGATE.sub("\ufffd", body)
    body = pulldown_text(body)
    src = body if body.isascii() else body.encode("utf-8").decode("latin-1")
    to_char = _ByteMap(body)
    open_tag: tuple[str, int] | None = None  # an inline <code>-like element waiting for its close
    for ev, rng in _pyromark.events_with_range(body, options=_options()):
        if ev.__class__ is not dict:
            continue
        start = ev.get("Start")
        if start is not None:
            if start == "HtmlBlock":
                html.append((base + to_char(rng["start"]), base + to_char(rng["end"])))
            continue
        if "Code" in ev:
            code.append((base + to_char(rng["start"]), base + to_char(rng["end"])))
        elif "InlineHtml" in ev:
            s, e = rng["start"], rng["end"]
            raw = ev["InlineHtml"]
            if raw.startswith("<!--"):
                close = src.find("-->", s + 4)
                html.append((base + to_char(s), base + to_char(max(e, close + 3 if close >= 0 else e))))
                continue
            tag = _tag_name(raw)
            if open_tag is None and tag in _CODE_TAGS and not raw.startswith("</"):
                open_tag = (tag, s)
            elif open_tag is not None and raw.startswith("</") and tag == open_tag[0]:
                code.append((base + to_char(open_tag[1]), base + to_char(e)))
                open_tag = None
    return RawSpans(sorted(code), sorted(html))


_TAG = lazy_re(r"</?([A-Za-z][A-Za-z0-9-]*)")


def _tag_name(raw: str) -> str:
    m = _TAG.match(raw)
    return m.group(1).lower() if m else ""
