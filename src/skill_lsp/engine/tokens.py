"""Offline token estimate.

No tokenizer ships with skill-lsp, so the estimate is a fixed, documented rule:

    tokens = ceil(ascii_chars / 4) + ceil(cyrillic_chars / 2) + other_non_ascii_chars

BPE tokenizers average roughly four ASCII characters per token on English prose
and Markdown, and two Cyrillic letters (cl100k: 0.46-0.55 tokens a letter over 89
Russian and Ukrainian skills, o200k 0.30), while another non-ASCII code point (CJK,
emoji, symbols) usually costs about one token (cl100k 1.2, o200k 0.9 on Chinese).
Claude's own tokenizer is not available offline: the proxies bound the rule, which
errs high where they disagree, the safe direction for a budget warning. It is
deterministic and has no dependencies, so the editor, the CLI and the tests agree on
every number.
"""

from __future__ import annotations

from .lazyre import lazy_bytes_re

__all__ = ["estimate_tokens"]

# U+0500-U+052F in UTF-8 (U+0530-U+053F share its lead byte).
_CYRILLIC_SUPPLEMENT = lazy_bytes_re(b"\xd4[\x80-\xaf]")


def estimate_tokens(text: str) -> int:
    """Estimated token count of ``text`` (see module docstring)."""
    if text.isascii():
        return -(-len(text) // 4)
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_chars
    # Cyrillic letters (U+0400-U+052F) counted as the lead bytes of their UTF-8 encoding: a byte
    # count is a pass in C each, where a pattern made a string of every letter (68 µs a Russian skill).
    utf8 = text.encode("utf-8", "surrogatepass")
    cyrillic = sum(utf8.count(lead) for lead in (b"\xd0", b"\xd1", b"\xd2", b"\xd3"))
    if b"\xd4" in utf8:
        cyrillic += len(_CYRILLIC_SUPPLEMENT.findall(utf8))
    return -(-ascii_chars // 4) + -(-cyrillic // 2) + other - cyrillic
