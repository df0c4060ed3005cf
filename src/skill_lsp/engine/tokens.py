"""Offline token estimate.

No tokenizer ships with skill-lsp, so the estimate is a fixed, documented rule:

    tokens = ceil(ascii_chars / 4) + non_ascii_chars

BPE tokenizers average roughly four ASCII characters per token on English prose
and Markdown, while a non-ASCII code point (CJK, emoji, accented letters) usually
costs one token or more on its own.  The rule errs high for non-Latin text, which
is the safe direction for a budget warning.  It is deterministic and has no
dependencies, so the editor, the CLI and the tests agree on every number.
"""

from __future__ import annotations

__all__ = ["estimate_tokens"]


def estimate_tokens(text: str) -> int:
    """Estimated token count of ``text`` (see module docstring)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_chars
    return -(-ascii_chars // 4) + other
