"""A write to the client that fails is not reported to the client (over the same connection).

pygls reports every failed send to ``report_server_error``; logging that report to the
client failed again and was reported again, ~1,000 levels deep with a longer traceback each
time: after an `exit` (stdout closed) the process took ~10 s to end. In-process, because the
race that led there (an answer arriving with the `exit`) cannot be timed from outside.
"""

from __future__ import annotations

from lsprotocol import types as t

from skill_lsp.server import create_server
from skill_lsp.server.services import publish


class ClosedStdout:
    def __init__(self, error: Exception) -> None:
        self.error = error
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        raise self.error

    def close(self) -> None:
        pass


def _server(error: Exception):
    ls = create_server()
    writer = ClosedStdout(error)
    ls.protocol.set_writer(writer)
    return ls, writer


def test_a_failed_send_is_not_reported_over_the_connection() -> None:
    for error in (ValueError("I/O operation on closed file."), BrokenPipeError(32, "Broken pipe")):
        ls, writer = _server(error)
        ls.log("hello")
        assert writer.writes == 1, error  # the message itself, not a report of its failure


def test_after_exit_nothing_is_written() -> None:
    ls, writer = _server(ValueError("I/O operation on closed file."))
    ls.protocol.fm.features[t.EXIT](None)
    assert ls.exited and ls.shutting_down
    publish.send(ls, "file:///x/SKILL.md", [])
    ls.log("after exit")
    assert writer.writes == 0


def test_other_errors_are_still_logged_to_the_client() -> None:
    ls = create_server()
    sent: list[bytes] = []
    ls.protocol.set_writer(type("W", (), {"write": lambda self, d: sent.append(d), "close": lambda self: None})())
    ls.report_server_error(RuntimeError("boom"), "a_feature")
    assert len(sent) == 1 and b"boom" in sent[0] and b"window/logMessage" in sent[0]
