"""Rust's string functions, as the native readers of Codex and GitHub Copilot CLI run them."""

from __future__ import annotations

__all__ = ["RUST_WHITESPACE", "rust_lines", "rust_trim"]

# char::is_whitespace: the Unicode White_Space property. str.isspace() also takes U+001C..U+001F
# and str.strip() with no argument strips them too; Rust does not, nor U+FEFF or U+200B.
RUST_WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                   "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def rust_trim(text: str) -> str:
    """str::trim."""
    return text.strip(RUST_WHITESPACE)


def rust_lines(text: str) -> list[str]:
    """str::lines: split at ``\\n``, a ``\\r`` before it dropped, no empty last line."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [line[:-1] if line.endswith("\r") else line for line in out]
