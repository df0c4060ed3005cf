"""A misbehaving client, over stdio with a raw JSON-RPC client (issue 7, "Misbehaving client").

After every case the server still answers a hover on an open document correctly, and
everything it wrote to stdout is a framed JSON-RPC message (checked by the fixture).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import GOOD, assert_hover_ok
from .rawlsp import RawClient, frame, frame_raw


def _errors(client: RawClient) -> list[dict]:
    return [m for m in client.messages if "error" in m]


def _shown(client: RawClient) -> list[dict]:
    return [m for m in client.messages if m.get("method") == "window/showMessage"]


def test_malformed_json_answers_parse_error_and_keeps_serving(server, demo_md):
    uri = server.open(demo_md, GOOD)
    assert_hover_ok(server, uri)
    for body in (b"{not json", b"\xff\xfe\x00", b'{"jsonrpc": "2.0", "id": 1, "method": ', b""):
        server.send_bytes(frame_raw(body))
    server.wait(lambda m: m.get("error", {}).get("code") == -32700)
    assert_hover_ok(server, uri)
    assert sum(1 for m in _errors(server) if m["error"]["code"] == -32700) >= 3
    assert not _shown(server), "a malformed message must not pop a message at the user"


def test_non_object_json_is_an_invalid_request(server, demo_md):
    uri = server.open(demo_md, GOOD)
    for body in (b"[]", b"[1, 2]", b"42", b'"text"', b"null", b"true", b'{"id": 5}'):
        server.send_bytes(frame_raw(body))
    assert_hover_ok(server, uri)
    codes = [m["error"]["code"] for m in _errors(server)]
    assert codes.count(-32600) >= 6, codes
    assert not _shown(server)


def test_invalid_params_are_answered(server, demo_md):
    uri = server.open(demo_md, GOOD)
    for params in ({"textDocument": {"uri": 1}}, {"textDocument": {"uri": uri}}, [1, 2], "x",
                   {"textDocument": {"uri": uri}, "position": {"line": -1, "character": "a"}}):
        res = server.request("textDocument/hover", params)
        assert res["error"]["code"] == -32602, res
    # Ids that are falsy are ids all the same: 0 and "" get their answer too.
    for id_ in (0, ""):
        server.send({"jsonrpc": "2.0", "id": id_, "method": "textDocument/hover", "params": [1, 2]})
        res = server.response(id_)
        assert res["error"]["code"] == -32602, res
    # A notification with broken params is dropped, never answered and never fatal.
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri}, "contentChanges": "oops"})
    assert_hover_ok(server, uri)


def test_unknown_methods(server, demo_md):
    uri = server.open(demo_md, GOOD)
    res = server.request("skillLsp/noSuchMethod", {})
    assert res["error"]["code"] == -32601
    before = len(server.messages)
    server.notify("$/noSuchNotification", {"x": 1})
    server.notify("$/setTrace", {"value": "off"})
    server.notify("custom/unknownNotification", {})
    assert_hover_ok(server, uri)
    after = [m for m in server.messages[before:] if "id" not in m or m.get("method")]
    # `$/` and unknown notifications are ignored: nothing is answered and nothing is logged as an error.
    assert not [m for m in after if m.get("method") in ("window/showMessage",)
                or (m.get("method") == "window/logMessage" and m["params"]["type"] == 1)], after
    # An unknown request is not an internal error of the server either.
    assert not [m for m in server.messages if m.get("method") == "window/logMessage"
                and "noSuchMethod" in m["params"]["message"] and m["params"]["type"] == 1]


def _fifo_skill(tmp_path: Path) -> Path:
    d = tmp_path / "fifo-skill"
    d.mkdir()
    fifo = d / "SKILL.md"
    os.mkfifo(fifo)
    return fifo


REQUESTS = [
    ("textDocument/hover", lambda u: {"textDocument": {"uri": u}, "position": {"line": 0, "character": 0}}),
    ("textDocument/completion", lambda u: {"textDocument": {"uri": u}, "position": {"line": 0, "character": 0}}),
    ("textDocument/documentSymbol", lambda u: {"textDocument": {"uri": u}}),
    ("textDocument/foldingRange", lambda u: {"textDocument": {"uri": u}}),
    ("textDocument/documentLink", lambda u: {"textDocument": {"uri": u}}),
    ("textDocument/codeLens", lambda u: {"textDocument": {"uri": u}}),
    ("textDocument/definition", lambda u: {"textDocument": {"uri": u}, "position": {"line": 0, "character": 0}}),
    ("textDocument/codeAction", lambda u: {"textDocument": {"uri": u}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
    ("textDocument/diagnostic", lambda u: {"textDocument": {"uri": u}}),
]


def _empty(result) -> bool:
    if result is None or result == []:
        return True
    if isinstance(result, dict):
        return result.get("items") == [] or result.get("applied") is False
    return False


def test_never_opened_documents_are_never_read(server, demo_md, tmp_path):
    """A FIFO would block a reader forever and /dev/zero would eat memory: answers are empty and immediate."""
    open_uri = server.open(demo_md, GOOD)
    fifo = _fifo_skill(tmp_path)
    targets = [fifo.as_uri(), "file:///dev/zero", (tmp_path / "missing" / "SKILL.md").as_uri()]
    envfile = tmp_path / ".env"
    envfile.write_text("SECRET=hunter2\n")
    targets.append(envfile.as_uri())
    for target in targets:
        for method, params in REQUESTS:
            res = server.request(method, params(target), timeout=5)  # a blocked read would time out here
            if method == "textDocument/diagnostic" and "error" in res:
                assert res["error"]["code"] == -32601  # push client: pull diagnostics not offered
            else:
                assert "error" not in res, (method, target, res)
                assert _empty(res["result"]), (method, target, res)
        res = server.request("workspace/executeCommand", {"command": "skill-lsp.fixAll", "arguments": [{"uri": target}]})
        assert res.get("result") == {"applied": False}, res
    assert "hunter2" not in str(server.messages)
    assert_hover_ok(server, open_uri)
    assert server.rss_kib() < 400_000


def test_preview_of_a_never_opened_path_outside_the_workspace_is_refused(server, tmp_path):
    """previewActivation on a URI that is neither open nor in a root must not read it (secrets, FIFOs)."""
    outside = tmp_path / "elsewhere" / "secret"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_text("---\nname: secret\ndescription: TOPSECRET-BODY\n---\nTOPSECRET-BODY\n")
    fifo = _fifo_skill(tmp_path)
    for target in (outside / "SKILL.md", fifo, Path("/etc/passwd")):
        res = server.request("workspace/executeCommand", {"command": "skill-lsp.previewActivation",
                                                          "arguments": [{"uri": target.as_uri()}]}, timeout=5)
        assert "TOPSECRET" not in str(res) and "root:" not in str(res), res
    res = server.request("workspace/executeCommand", {"command": "skill-lsp.status", "arguments": []})
    assert "result" in res


def test_positions_past_the_end(server, demo_md):
    uri = server.open(demo_md, GOOD)
    positions = [(1, 10_000), (10_000, 0), (10_000, 10_000), (0, 2**31 - 1), (2**31 - 1, 2**31 - 1)]
    for line, ch in positions:
        pos = {"line": line, "character": ch}
        for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
            res = server.request(method, {"textDocument": {"uri": uri}, "position": pos})
            assert "error" not in res, (method, pos, res)
        res = server.request("textDocument/codeAction", {"textDocument": {"uri": uri},
                                                         "range": {"start": pos, "end": pos}, "context": {"diagnostics": []}})
        assert "error" not in res, res
    # Past the end of line 1 ("name: demo") clamps to the line: still the `name` field.
    res = server.hover(uri, 1, 10_000)
    assert "name" in res["result"]["contents"]["value"]
    assert_hover_ok(server, uri)


def _versions(pubs: list[dict]) -> list[int]:
    return [p.get("version") for p in pubs]


def test_did_change_with_older_or_unknown_versions_never_goes_back(server, demo_md):
    uri = server.open(demo_md, GOOD, version=1)
    server.change(uri, GOOD.replace("demo\n", "demo-v5\n", 1), 5)
    server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 5)
    # Older version, then a version equal to... anything below 5: ignored.
    server.change(uri, "garbage v3", 3)
    server.change(uri, "garbage v4", 4)
    res = server.hover(uri, 1, 1)
    assert "Current length: 7" in res["result"]["contents"]["value"]  # still "demo-v5"
    # A change for a document that was never opened: ignored.
    ghost = (demo_md.parent / "ghost.md").as_uri()
    server.change(ghost, "x", 1)
    # Out of order then in order again.
    server.change(uri, GOOD, 7)
    server.change(uri, "garbage v6", 6)
    server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 7)
    assert_hover_ok(server, uri)
    versions = [v for v in _versions(server.publications(uri)) if v is not None]
    assert versions == sorted(versions), versions
    assert 3 not in versions and 4 not in versions and 6 not in versions
    assert not server.publications(ghost)


def test_cancel_in_flight_request(server, demo_md):
    uri = server.open(demo_md, GOOD)
    ids = []
    for _ in range(20):
        id_ = server.request_async("workspace/executeCommand", {
            "command": "skill-lsp.previewCatalog", "arguments": [{"uri": uri}]})
        server.notify("$/cancelRequest", {"id": id_})
        ids.append(id_)
        hid = server.request_async("textDocument/hover", {"textDocument": {"uri": uri},
                                                          "position": {"line": 1, "character": 1}})
        server.notify("$/cancelRequest", {"id": hid})
        ids.append(hid)
    # Cancelling an id that does not exist (or already answered) is harmless.
    server.notify("$/cancelRequest", {"id": 999_999})
    for id_ in ids:
        res = server.response(id_)
        assert "result" in res or res["error"]["code"] == -32800, res  # RequestCancelled
    assert_hover_ok(server, uri)
    # Late cancels are routine; editors show server stderr as errors, so nothing is logged.
    server.notify("$/cancelRequest", {"id": 999_998})
    assert_hover_ok(server, uri)
    assert b"Cancel notification" not in server.stderr_path.read_bytes()


def _burst(client: RawClient, uri: str, n: int) -> None:
    payload = b"".join(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": v},
        "contentChanges": [{"text": GOOD.replace("Use when testing.", f"Use when testing {v}.")}]}})
        for v in range(2, n + 2))
    client.send_bytes(payload)
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri and m["params"].get("version") == n + 1, timeout=30)


def _assert_in_order(versions: list) -> None:
    assert all(a is not None and b is not None and a <= b for a, b in zip(versions, versions[1:], strict=False)), versions


def test_burst_of_1000_changes_debounced_publishes_only_the_last(tmp_path, ws):
    """With the default debounce, a burst of 1,000 changes publishes the last version only."""
    client = RawClient(tmp_path, debounce_ms=50)
    try:
        client.initialize(ws)
        uri = client.open(ws / ".agents/skills/demo/SKILL.md", GOOD, version=1)
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1)
        n = 1000
        _burst(client, uri, n)
        assert_hover_ok(client, uri)
        versions = _versions(client.publications(uri))
        _assert_in_order(versions)
        assert versions[-1] == n + 1
        burst = [v for v in versions if v != 1]
        # Coalesced: the burst arrives faster than the debounce, so (almost) only the last is analysed.
        assert len(burst) <= 5, burst
        res = client.hover(uri, 2, 1)
        assert "description" in res["result"]["contents"]["value"]
    finally:
        client.close()
    assert not client.violations


def test_burst_of_1000_changes_without_debounce_stays_in_order(server, demo_md):
    """debounceMs 0: every change may publish, but never an older version after a newer one."""
    uri = server.open(demo_md, GOOD, version=1)
    n = 1000
    _burst(server, uri, n)
    assert_hover_ok(server, uri)
    versions = _versions(server.publications(uri))
    _assert_in_order(versions)
    assert versions[-1] == n + 1


def test_requests_before_initialize_and_after_shutdown(tmp_path, ws):
    client = RawClient(tmp_path)
    try:
        res = client.request("textDocument/hover", {"textDocument": {"uri": "file:///x/SKILL.md"},
                                                    "position": {"line": 0, "character": 0}})
        assert res["error"]["code"] == -32002
        client.initialize(ws)
        demo = ws / ".agents/skills/demo/SKILL.md"
        uri = client.open(demo, GOOD)
        assert_hover_ok(client, uri)
        assert client.request("shutdown")["result"] is None
        res = client.hover(uri, 1, 1)
        assert res["error"]["code"] == -32600
        client.notify("exit")
        assert client.proc.wait(10) == 0
    finally:
        client.close()
    assert not client.violations


def test_exit_without_shutdown_exits(tmp_path, ws):
    client = RawClient(tmp_path)
    try:
        client.initialize(ws)
        uri = client.open(ws / ".agents/skills/demo/SKILL.md", GOOD)
        assert_hover_ok(client, uri)
        client.notify("exit")
        code = client.proc.wait(10)
        assert code == 1  # LSP: exit without shutdown exits with 1
    finally:
        client.close()
    assert not client.violations


def test_closed_stdin_exits(tmp_path, ws):
    client = RawClient(tmp_path)
    try:
        client.initialize(ws)
        assert client.proc.stdin is not None
        client.proc.stdin.close()
        client.proc.wait(10)
    finally:
        client.close()


def test_client_that_stops_reading_stays_bounded(server, demo_md):
    """While the client does not read, the server blocks on stdout instead of buffering without bound."""
    uri = server.open(demo_md, GOOD)
    assert_hover_ok(server, uri)
    # The server's start-up asks this client for its configuration; were that request still to
    # come while the client neither reads nor can queue a reply, neither side would move (a real
    # client queues without bound). The scan's end comes after it.
    server.wait(lambda m: m.get("method") == "skillLsp/status" and m.get("params", {}).get("scanning") is False,
                timeout=30)
    base = server.rss_kib()
    server.reading.clear()  # stop reading stdout (after the message in progress)
    big = GOOD + "\n" + ("padding line for the diagnostics payload\n" * 50)
    stop = threading.Event()
    sent = [0]

    def writer() -> None:
        v = 2
        while not stop.is_set() and v < 20_000:
            try:
                server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": big + f"\nv{v}\n"}]}})
                server.send({"jsonrpc": "2.0", "id": 10_000_000 + v, "method": "textDocument/hover", "params": {
                    "textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}}})
            except OSError:
                return
            sent[0] = v
            v += 1

    th = threading.Thread(target=writer, daemon=True)
    th.start()
    peak = base
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline:
        time.sleep(0.2)
        peak = max(peak, server.rss_kib())
        assert server.proc.poll() is None, "the server died while its client was not reading"
    stop.set()
    assert peak - base < 150_000, (base, peak, sent[0])  # bounded: blocked writes, not an unbounded queue
    server.reading.set()  # read again: everything drains
    th.join(30)
    assert not th.is_alive()
    assert_hover_ok(server, uri, timeout=60)
    assert server.proc.poll() is None


def test_socket_message_on_stdin_garbage_headers(server, demo_md):
    """Header noise (no Content-Length, unknown headers) is skipped; the next good message is served."""
    uri = server.open(demo_md, GOOD)
    server.send_bytes(b"X-Junk: 1\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(
        {"jsonrpc": "2.0", "method": "$/ping"}))
    assert_hover_ok(server, uri)


def _ends_quietly(client: RawClient, data: bytes, *, then_close: bool) -> None:
    """Send ``data`` (and close stdin): the server exits, without a traceback."""
    try:
        client.send_bytes(data)
        if then_close:
            while client.pending_writes():
                time.sleep(0.01)
            time.sleep(0.2)
            client.proc.stdin.close()
        client.proc.wait(10)
    finally:
        client.close()
    assert "Traceback" not in client.stderr_text()
    assert not client.violations


def test_a_header_line_without_end_closes_the_connection(tmp_path, ws):
    """stdin is read on the event loop (server/stdio.py) with a bounded line: a megabyte of header
    without a line break is no client, and the server stops instead of buffering it."""
    client = RawClient(tmp_path)
    client.initialize(ws)
    _ends_quietly(client, b"X" * (3 << 20), then_close=False)  # it stops reading: it is not kept open
    assert "header line longer than" in client.stderr_text()


def test_a_body_cut_short_by_the_client_leaving(tmp_path, ws):
    client = RawClient(tmp_path)
    client.initialize(ws)
    _ends_quietly(client, b"Content-Length: 500\r\n\r\n" + b'{"jsonrpc": "2.0", "method": "initialized"',
                  then_close=True)


def test_stdin_that_is_no_pipe(tmp_path, ws):
    """A regular file or /dev/null as stdin: read by pygls's own reader, served, and the server
    exits at the end of it (the event loop cannot watch either)."""
    script = tmp_path / "session.bin"
    script.write_bytes(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"processId": None, "rootUri": ws.as_uri(), "capabilities": {}}})
                       + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
                       + frame({"jsonrpc": "2.0", "method": "exit"}))
    for source in (str(script), os.devnull):
        with open(source, "rb") as stdin:
            proc = subprocess.run([sys.executable, "-m", "skill_lsp", "serve"], stdin=stdin, capture_output=True,
                                  cwd=tmp_path, timeout=30, check=False)
        assert proc.returncode == 0, proc.stderr
        assert b"Traceback" not in proc.stderr
        if source != os.devnull:
            assert b'"id": 2' in proc.stdout.replace(b'"id":2', b'"id": 2')


# --- framing faults: logged, repaired or skipped, never a deaf server ---


def _hover_body(client: RawClient, uri: str, id_: int) -> bytes:
    import json

    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "textDocument/hover",
                       "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}}}).encode()


def _framing_logged(client: RawClient, words: str) -> None:
    client.wait(lambda m: m.get("method") == "window/logMessage" and "badly framed" in m["params"]["message"]
                and words in m["params"]["message"])


def _answered(client: RawClient, id_: int) -> None:
    res = client.response(id_, timeout=10)
    assert "result" in res and "name" in res["result"]["contents"]["value"].lower(), res


def test_a_content_length_too_small_is_repaired(server, demo_md):
    uri = server.open(demo_md, GOOD)
    body = _hover_body(server, uri, 901)
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) - 7) + body + frame_raw(_hover_body(server, uri, 902)))
    _answered(server, 901)
    _answered(server, 902)
    _framing_logged(server, "short of the message")
    assert_hover_ok(server, uri)


def test_a_content_length_too_large_stops_at_the_next_header(server, demo_md):
    uri = server.open(demo_md, GOOD)
    body = _hover_body(server, uri, 903)
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) + 40) + body + frame_raw(_hover_body(server, uri, 904)))
    _answered(server, 903)
    _answered(server, 904)
    _framing_logged(server, "runs into the next message")


def test_a_content_length_too_large_on_the_last_message_is_answered(server, demo_md):
    # The client waits for the answer: no more bytes come, the body is taken as it is.
    uri = server.open(demo_md, GOOD)
    body = _hover_body(server, uri, 905)
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) + 500) + body)
    _answered(server, 905)
    _framing_logged(server, f"Content-Length {len(body) + 500}")  # repaired: however it came
    assert_hover_ok(server, uri)


def test_headers_ending_in_a_bare_line_feed_are_read(server, demo_md):
    uri = server.open(demo_md, GOOD)
    body = _hover_body(server, uri, 906)
    server.send_bytes(b"Content-Length: %d\nContent-Type: application/vscode-jsonrpc\n\n" % len(body) + body)
    _answered(server, 906)


def test_a_repeated_content_length(server, demo_md):
    uri = server.open(demo_md, GOOD)
    body = _hover_body(server, uri, 907)
    server.send_bytes(b"Content-Length: %d\r\ncontent-length: %d\r\n\r\n" % (len(body), len(body)) + body)
    _answered(server, 907)  # the same value twice: fine
    bad = _hover_body(server, uri, 908)
    server.send_bytes(b"Content-Length: %d\r\nContent-Length: 3\r\n\r\n" % len(bad) + bad)
    _framing_logged(server, "contradictory Content-Length")
    assert_hover_ok(server, uri)


@pytest.mark.parametrize("header", [b"", b"Content-Type: application/vscode-jsonrpc\r\n",
                                    b"Content-Length: twelve\r\n", b"Content-Length: -5\r\n",
                                    b"Content-Length: 99999999999999\r\n", b"garbage without a colon\r\n"])
def test_a_message_without_a_usable_length_is_skipped(server, demo_md, header: bytes):
    uri = server.open(demo_md, GOOD)
    lost = _hover_body(server, uri, 909)
    server.send_bytes((header or b"X-Junk: 1\r\n") + b"\r\n" + lost + frame_raw(_hover_body(server, uri, 910)))
    _answered(server, 910)
    _framing_logged(server, "skipping to the next message")
    assert_hover_ok(server, uri)


def test_bytes_between_messages_are_skipped(server, demo_md):
    uri = server.open(demo_md, GOOD)
    server.send_bytes(b"}]stray bytes\r\n" + frame_raw(_hover_body(server, uri, 911)))
    _answered(server, 911)
    _framing_logged(server, "not a header line")
