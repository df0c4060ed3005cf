"""What `capture/verify` accepts as the same capture: the harnesses' known nondeterminism only."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from capture.__main__ import _same  # noqa: E402

STORED = REPO / "tests/golden/harness/gemini@0.61.0/multiline-description/catalog.txt"


def _blocks(data: bytes) -> tuple[bytes, list[bytes], bytes]:
    head, _, rest = data.partition(b"<available_skills>\n")
    body, _, tail = rest.partition(b"</available_skills>")
    return head, [b + b"</skill>\n" for b in body.split(b"</skill>\n") if b], tail


def _join(head: bytes, blocks: list[bytes], tail: bytes) -> bytes:
    return head + b"<available_skills>\n" + b"".join(blocks) + b"</available_skills>" + tail


def test_gemini_catalog_in_another_order_is_the_same() -> None:
    old = STORED.read_bytes()
    head, blocks, tail = _blocks(old)
    assert len(blocks) >= 2 and _join(head, blocks, tail) == old
    swapped = _join(head, [blocks[1], blocks[0], *blocks[2:]], tail)
    assert swapped != old
    assert _same("gemini@0.61.0/multiline-description/catalog.txt", old, swapped)


def test_anything_else_still_differs() -> None:
    old = STORED.read_bytes()
    head, blocks, tail = _blocks(old)
    swapped = _join(head, [blocks[1], blocks[0], *blocks[2:]], tail)
    # Another harness's catalog order is part of its format.
    assert not _same("copilot@1.0.102/multiline-description/catalog.txt", old, swapped)
    # A changed entry, a missing one, or changed text around the entries.
    assert not _same("gemini@0.61.0/multiline-description/catalog.txt", old, old.replace(b"third", b"3rd"))
    assert not _same("gemini@0.61.0/multiline-description/catalog.txt", old, _join(head, blocks[1:], tail))
    assert not _same("gemini@0.61.0/multiline-description/catalog.txt", old, old.replace(b"# Available", b"# Known"))
    assert not _same("gemini@0.61.0/multiline-description/catalog.txt", old, None)
