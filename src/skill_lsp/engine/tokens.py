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

from .lazyre import lazy_re

__all__ = ["estimate_tokens"]

_CYRILLIC = lazy_re("[\u0400-\u052f]")


def estimate_tokens(text: str) -> int:
    """Estimated token count of ``text`` (see module docstring)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_chars
    if not other:
        return -(-ascii_chars // 4)
    cyrillic = len(_CYRILLIC.findall(text))
    return -(-ascii_chars // 4) + -(-cyrillic // 2) + other - cyrillic
