"""JavaScript string semantics needed to reproduce JS reference output byte for byte.

The DSH packages and the skill-tool reference are JavaScript/TypeScript; a few of
their observable behaviours depend on JS string rules that differ from Python's:

* ``/\\s/`` and ``String.prototype.trim`` use the ECMAScript WhiteSpace +
  LineTerminator set (which includes U+FEFF but not U+0085 or U+001C..U+001F,
  unlike ``str.strip``);
* ``length`` and ``slice`` count UTF-16 code units, not code points;
* ``Array.prototype.sort`` without a comparator orders by UTF-16 code units;
* ``JSON.stringify`` escapes only ``"``, ``\\``, control characters and lone
  surrogates;
* ``\\b`` in a non-unicode RegExp knows only ASCII word characters.
"""

from __future__ import annotations

import functools
import math
import os
import re
import unicodedata

from ..lazyre import lazy_re

__all__ = [
    "JS_WHITESPACE",
    "js_trim",
    "js_split_ws",
    "js_collapse_ws",
    "utf16_len",
    "utf16_slice",
    "utf16_key",
    "js_json_string",
    "js_string",
    "js_number",
    "to_utf8_bytes",
    "well_formed",
]

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
#: JavaScript's regular-expression ``\s``, ``\S`` and ``.`` (which stops at any line terminator).
JS_WS = "[" + re.escape(JS_WHITESPACE) + "]"
JS_NOT_WS = "[^" + re.escape(JS_WHITESPACE) + "]"
JS_DOT = "[^\n\r\u2028\u2029]"
_WS_RUN = lazy_re(JS_WS + "+")


def js_trim(value: str) -> str:
    """``String.prototype.trim``."""
    return value.strip(JS_WHITESPACE)


def js_split_ws(value: str) -> list[str]:
    """``value.trim().split(/\\s+/)`` with the empty string giving ``[]``."""
    trimmed = js_trim(value)
    if not trimmed:
        return []
    return _WS_RUN.split(trimmed)


def js_collapse_ws(value: str) -> str:
    """``value.replaceAll(/\\s+/g, " ").trim()``."""
    return js_trim(_WS_RUN.sub(" ", value))


def utf16_len(value: str) -> int:
    """``value.length``: UTF-16 code units."""
    return len(value.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(value: str, end: int) -> str:
    """``value.slice(0, end)``; may leave a lone surrogate exactly like JS."""
    data = value.encode("utf-16-le", "surrogatepass")[: max(end, 0) * 2]
    return data.decode("utf-16-le", "surrogatepass")


def utf16_key(value: str) -> bytes:
    """Sort key equal to the JS default sort (UTF-16 code unit order)."""
    return value.encode("utf-16-be", "surrogatepass")


_JSON_SHORT = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def js_json_string(value: str) -> str:
    """``JSON.stringify(value)`` for a string (well-formed JSON.stringify, ES2019+)."""
    out = ['"']
    for ch in value:
        code = ord(ch)
        short = _JSON_SHORT.get(ch)
        if short is not None:
            out.append(short)
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def js_number(value: float | int) -> str:
    """``String(number)`` for the values YAML can produce."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        exp = int(exponent)
        if -7 < exp < 21:
            # JS switches to exponent notation only outside [1e-7, 1e21).
            return format(value, "f").rstrip("0").rstrip(".") if exp < 0 else str(int(value))
        sign = "+" if exp > 0 else "-"
        return f"{mantissa}e{sign}{abs(exp)}"
    return text


def js_string(value: object) -> str:
    """``String(value)`` for plain YAML values."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def well_formed(value: str) -> str:
    """The text a JS string reaches the model as: Node writes each lone surrogate as U+FFFD."""
    # Python keeps a *paired* surrogate as one astral code point, so every
    # surrogate left in a str is a lone one.
    return _SURROGATE.sub("\ufffd", value)


def to_utf8_bytes(value: str) -> bytes:
    """UTF-8 as Node encodes a JS string: lone surrogates become U+FFFD."""
    return well_formed(value).encode("utf-8")


_SURROGATE = lazy_re("[\ud800-\udfff]")


# ICU's root collation (what JavaScript's localeCompare uses with no locale) orders spaces, then
# this punctuation in this order, then other symbols, then digits, then letters; accents and case
# only break ties, lowercase first.
_PUNCTUATION = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


# Small hiragana -> the full-size one (ぁ -> あ, っ -> つ, ゕ -> か, ゖ -> け).
_SMALL_KANA = {**{cp: cp + 1 for cp in (0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087,
                                        0x308E)}, 0x3095: 0x304B, 0x3096: 0x3051}


# Marks that repeat or lengthen a kana sort as symbols, after the others and before the digits, in
# this order (ゞ and ヾ are ゝ and ヽ with a voiced mark): the seed-12 real-skill run's Claude Code
# listed `サーバーレス…` before `サブカテゴリー…`.
_KANA_MARKS = "々ゝーヽ"


def _primary(c: str) -> tuple[int, int]:
    if c.isspace():
        return (0, 0)
    at = _PUNCTUATION.find(c)
    if at >= 0:
        return (1, at)
    at = _KANA_MARKS.find(c)
    if at >= 0:
        return (2, 0x110000 + at)
    if c.isdigit():
        return (3, ord(c))
    if c.isalpha():
        cp = ord(c)
        if 0x30A1 <= cp <= 0x30F6:
            # Katakana sorts with the hiragana of the same sound (テスト before のり: Claude Code's
            # listing, capture case listing-order-locale); a voiced mark is an accent (NFD took it).
            cp -= 0x60
        if 0x3041 <= cp <= 0x3096:
            cp = _SMALL_KANA.get(cp, cp)  # a small kana only differs from its full size in the tie
        return (4, 0x4E00 + _han_rank()[cp - 0x4E00]) if 0x4E00 <= cp <= 0x9FFF else (4, cp)
    return (2, ord(c))


@functools.lru_cache(maxsize=1)
def _han_rank() -> list[int]:
    """ICU's place of each of U+4E00..U+9FFF among them (radical and stroke order, not code points:
    data/han_order.txt, measured by scripts/han_order.py). Gemini CLI's folder tree put
    `柜台流通式债券最优报价.md` before `柜台流通式债券报价.md` (capture diff --real)."""
    rank = [0] * 0x5200
    at = 0
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "han_order.txt"),
              encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            start, end = (int(x, 16) for x in line.split())
            for cp in range(start, end + 1):
                rank[cp - 0x4E00] = at
                at += 1
    return rank


# A catalog sorts its skills several times over (listing order, shown names, budgets): 0.14 ms a
# key on the corpus's 3,223 folder names, 29,000 keys a `catalog --dialect claude-code`.
@functools.lru_cache(maxsize=16384)
def locale_key(text: str) -> tuple:
    """A sort key giving ``a.localeCompare(b)``'s order for names (ICU root collation, approximated:
    letters without accents and case first, then accents and voiced marks, then lowercase before
    uppercase, hiragana before katakana, a small kana before its full size)."""
    folded = text.casefold()
    primary: list[tuple[int, int]] = []
    marks: list[tuple[int, ...]] = []
    for c in unicodedata.normalize("NFD", folded):
        if unicodedata.combining(c):
            if marks:
                marks[-1] += (ord(c),)
        else:
            primary.append(_primary(c))
            marks.append(())
    return tuple(primary), tuple(marks), tuple(_tertiary(c) for c in text), text


def _tertiary(c: str) -> tuple[bool, bool, bool]:
    cp = ord(c)
    katakana = 0x30A1 <= cp <= 0x30F6
    full = (cp - 0x60 if katakana else cp) not in _SMALL_KANA
    return c.isupper(), katakana, full

