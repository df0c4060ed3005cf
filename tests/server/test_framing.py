"""The framer on its own: every framing fault, byte by byte, without a server (server/framing.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from skill_lsp.server import framing
from skill_lsp.server.framing import END, Framer


def _frame(obj: object, length_delta: int = 0) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) + length_delta) + body


def _read(chunks: list[bytes], *, then_wait: bool = False, n: int = 10) -> tuple[list[object], list[str]]:
    """Feed ``chunks`` one read at a time; ``then_wait``: the stream stays open (a waiting client)."""
    faults: list[str] = []

    async def main() -> list[object]:
        q: asyncio.Queue[bytes] = asyncio.Queue()
        for c in chunks:
            q.put_nowait(c)
        if not then_wait:
            q.put_nowait(b"")
        f = Framer(q.get, report=faults.append)
        out = []
        for _ in range(n):
            try:
                m = await asyncio.wait_for(f.next_message(), 5)
            except asyncio.TimeoutError:
                break
            except ValueError as exc:
                out.append(("error", type(exc).__name__))
                continue
            if m is END:
                break
            out.append(m)
        return out
    return asyncio.run(main()), faults


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framing, "QUIET_S", 0.05)


A, B = {"id": 1, "m": "a"}, {"id": 2, "m": "b"}


def test_good_frames_in_any_chunking():
    data = _frame(A) + _frame(B)
    for size in (1, 2, 7, len(data)):
        got, faults = _read([data[i:i + size] for i in range(0, len(data), size)])
        assert got == [A, B] and faults == []


def test_a_body_completed_by_the_read_that_brings_the_next_message_is_no_fault():
    # The read that ends a body also holds the next header, at exactly Content-Length.
    data = _frame(A) + _frame(B)
    cut = len(_frame(A)) - 5
    got, faults = _read([data[:cut], data[cut:]])
    assert got == [A, B] and faults == []


def test_too_small_a_length_reads_up_to_the_next_header():
    got, faults = _read([_frame(A, -4) + _frame(B)])
    assert got == [A, B] and "short of the message" in faults[0]


def test_too_large_a_length_stops_at_the_next_header():
    got, faults = _read([_frame(A, +30) + _frame(B)])
    assert got == [A, B] and "runs into the next message" in faults[0]


def test_too_large_a_length_with_the_next_message_later():
    got, faults = _read([_frame(A, +300), _frame(B)])
    assert got == [A, B] and "runs into the next message" in faults[0]


def test_too_large_a_length_on_a_waiting_client():
    got, faults = _read([_frame(A, +300)], then_wait=True, n=1)
    assert got == [A] and "only" in faults[0]


def test_a_cut_short_body_at_the_end_of_input_ends_quietly():
    got, faults = _read([b"Content-Length: 500\r\n\r\n" + b'{"jsonrpc": "2.0"'])
    assert got == [] and faults == []


@pytest.mark.parametrize("header", [b"X-Junk: 1", b"Content-Length: twelve", b"Content-Length: -1",
                                    b"Content-Length: 99999999999999", b"no colon here",
                                    b"Content-Length: 10\r\nContent-Length: 11"])
def test_an_unusable_header_skips_to_the_next_message(header: bytes):
    got, faults = _read([header + b"\r\n\r\n" + json.dumps(A).encode() + _frame(B)])
    assert got == [B] and len(faults) == 1 and "skipping to the next message" in faults[0]


def test_bare_line_feeds_and_mixed_case_headers():
    body = json.dumps(A).encode()
    got, faults = _read([b"content-length: %d\ncontent-type: x\n\n" % len(body) + body + _frame(B)])
    assert got == [A, B] and faults == []


def test_malformed_json_framed_right_is_an_error_and_the_stream_goes_on():
    got, faults = _read([b"Content-Length: 9\r\n\r\n{not json" + _frame(B)])
    assert got == [("error", "JSONDecodeError"), B] and faults == []


def test_a_null_body_is_a_message_not_the_end():
    got, _ = _read([b"Content-Length: 4\r\n\r\nnull" + _frame(B)])
    assert got == [None, B]


def test_a_header_without_end_closes(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(framing, "LINE_LIMIT", 1000)
    got, faults = _read([b"X" * 3000], then_wait=True)
    assert got == [] and "closing the connection" in faults[0]


@pytest.mark.parametrize("split", [None, 30, 60])
def test_a_skipped_body_that_runs_into_the_next_header(split):
    # A contradictory message is skipped; its body, read in pieces, must not swallow the next header.
    bad = json.dumps({"id": 9, "method": "x", "params": {"character": 1}}).encode()
    data = b"Content-Length: %d\r\nContent-Length: 3\r\n\r\n" % len(bad) + bad + _frame(B)
    chunks = [data] if split is None else [data[:split], data[split:split + 40], data[split + 40:]]
    got, faults = _read(chunks)
    assert got == [B], faults
