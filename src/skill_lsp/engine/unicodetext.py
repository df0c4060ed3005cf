"""Unicode normalisation that loads the Unicode database only for text that is not ASCII.

NFKC and NFKD leave ASCII as it is, and no ASCII character is a format (Cf) or combining one:
names, folders and most descriptions never need ``unicodedata`` (0.1-0.2 ms to load).
"""

from __future__ import annotations


def nfkc(text: str) -> str:
    if text.isascii():
        return text
    import unicodedata  # noqa: PLC0415

    return unicodedata.normalize("NFKC", text)


def without_accents(text: str) -> str:
    """NFKD with the combining marks dropped: 'Café' -> 'Cafe'."""
    if text.isascii():
        return text
    import unicodedata  # noqa: PLC0415

    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def without_format_characters(text: str) -> str:
    """``text`` without its Cf characters (zero-width spaces, joiners, bidi controls, soft hyphens)."""
    if text.isascii():
        return text
    import unicodedata  # noqa: PLC0415

    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
