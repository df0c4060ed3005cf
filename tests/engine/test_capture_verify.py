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


def test_only_a_difference_its_case_repeats_fails_verify(tmp_path: Path, monkeypatch, capsys) -> None:
    """A release that decides by timing (Copilot CLI once answered before a project's skills loaded)
    gets a second run of the differing case; a difference it repeats still fails."""
    from types import SimpleNamespace  # noqa: PLC0415

    import capture.__main__ as cap  # noqa: PLC0415

    golden = tmp_path / "golden" / "h@1"
    for case, text in (("flaky", b"a"), ("broken", b"b"), ("fine", b"c")):
        (golden / case).mkdir(parents=True)
        (golden / case / "catalog.txt").write_bytes(text)
    monkeypatch.setattr(cap.layout, "GOLDEN", tmp_path / "golden")
    monkeypatch.setattr(cap, "pins", lambda: {"h": SimpleNamespace(label="h@1")})
    calls: list = []

    def run(harnesses, cases, out, all_pins=None):  # noqa: ANN001, ANN202
        calls.append(cases)
        for case, first, later in (("flaky", b"x", b"a"), ("broken", b"y", b"y"), ("fine", b"c", b"c")):
            if cases is None or case in cases:
                (out / "h@1" / case).mkdir(parents=True, exist_ok=True)
                (out / "h@1" / case / "catalog.txt").write_bytes(first if cases is None else later)
        return 0

    monkeypatch.setattr(cap, "run", run)
    assert cap.verify(["h"]) == 1
    assert calls == [None, ["broken"], ["broken"], ["flaky"]]  # a repeated difference twice more, then given up
    out = capsys.readouterr()
    assert "h@1/flaky differed, and agreed when it ran again" in out.err
    assert "fresh/h@1/broken/catalog.txt" in out.out and "flaky" not in out.out
    assert "1 file(s) differ" in out.err
