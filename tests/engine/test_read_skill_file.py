"""read_skill_file(): every way a SKILL.md is not a readable regular file is an IO_ERROR with its own message.

The scan-level tests (tests/engine/test_discovery.py, tests/hardening/test_filesystem.py) check
the codes; these check the exact messages, that nothing blocks, and the read limit. Tests run as
root in CI, so nothing here relies on file modes.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import tempfile
import threading
from pathlib import Path

import pytest

from skill_lsp.engine import discovery
from skill_lsp.engine.discovery import READ_LIMIT, ReadError, read_skill_file


def _error(path: Path | str) -> ReadError:
    with pytest.raises(ReadError) as info:
        read_skill_file(str(path))
    exc = info.value
    assert exc.code == "IO_ERROR"
    assert str(exc) == exc.message  # what a log line or a traceback shows
    return exc


def _folder(tmp_path: Path) -> Path:
    d = tmp_path / "demo"
    d.mkdir()
    return d


def test_a_directory(tmp_path: Path) -> None:
    (tmp_path / "demo" / "SKILL.md").mkdir(parents=True)
    assert _error(tmp_path / "demo" / "SKILL.md").message == "SKILL.md is a directory, not a regular file"


def test_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(_folder(tmp_path) / "SKILL.md")
    assert _error(tmp_path / "demo" / "SKILL.md").message == "SKILL.md is a FIFO, not a regular file"


def test_a_socket() -> None:
    short = tempfile.mkdtemp(dir="/tmp")  # AF_UNIX paths are limited to ~100 bytes
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(os.path.join(short, "SKILL.md"))
            assert _error(os.path.join(short, "SKILL.md")).message == "SKILL.md is a socket, not a regular file"
    finally:
        shutil.rmtree(short)


def test_a_device(tmp_path: Path) -> None:
    os.symlink("/dev/null", _folder(tmp_path) / "SKILL.md")
    assert _error(tmp_path / "demo" / "SKILL.md").message == "SKILL.md is a device, not a regular file"


def test_a_dangling_symlink(tmp_path: Path) -> None:
    os.symlink(tmp_path / "gone.md", _folder(tmp_path) / "SKILL.md")
    assert _error(tmp_path / "demo" / "SKILL.md").message == \
        "SKILL.md does not exist (dangling symlink or deleted during the scan)"


def test_a_symlink_loop(tmp_path: Path) -> None:
    d = _folder(tmp_path)
    os.symlink(d / "other.md", d / "SKILL.md")
    os.symlink(d / "SKILL.md", d / "other.md")
    assert _error(d / "SKILL.md").message == "SKILL.md is a symlink loop"


def test_a_path_below_a_regular_file(tmp_path: Path) -> None:
    """Any other errno says what the OS said (its strerror), not the exception's repr."""
    (tmp_path / "demo").write_text("a file where a folder was expected")
    assert _error(tmp_path / "demo" / "SKILL.md").message == "cannot read SKILL.md: Not a directory"


def test_a_file_larger_than_the_limit_is_cut_and_its_size_reported(tmp_path: Path) -> None:
    p = _folder(tmp_path) / "SKILL.md"
    content = bytes(range(256)) * (READ_LIMIT // 256) + b"tail beyond"
    p.write_bytes(content)
    data, size = read_skill_file(str(p))
    assert data == content[:READ_LIMIT]
    assert size == len(content) == READ_LIMIT + len(b"tail beyond")


def test_a_read_error_after_opening_is_io_error_and_closes_the_file(tmp_path: Path, monkeypatch) -> None:
    p = _folder(tmp_path) / "SKILL.md"
    p.write_text("---\nname: demo\n---\n")
    real_open, real_read = os.open, os.read
    opened: list[int] = []

    def tracking_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        if os.fspath(path) == str(p):
            opened.append(fd)
        return fd

    def failing_read(fd, n):
        if fd in opened:
            raise OSError(errno.EIO, "Input/output error")
        return real_read(fd, n)

    monkeypatch.setattr(discovery.os, "open", tracking_open)
    monkeypatch.setattr(discovery.os, "read", failing_read)
    assert _error(p).message == "cannot read SKILL.md: Input/output error"
    monkeypatch.undo()
    (fd,) = opened
    with pytest.raises(OSError) as closed:
        os.fstat(fd)
    assert closed.value.errno == errno.EBADF


def test_a_file_swapped_for_a_fifo_after_the_stat_is_refused_without_blocking(tmp_path: Path, monkeypatch) -> None:
    """The stat said "regular file", the open finds a FIFO: the open must not wait for a writer."""
    d = _folder(tmp_path)
    regular = d / "regular.md"
    regular.write_text("x")
    fifo = d / "SKILL.md"
    os.mkfifo(fifo)
    real_stat = os.stat

    def stale_stat(path, *args, **kwargs):
        return real_stat(regular if os.fspath(path) == str(fifo) else path, *args, **kwargs)

    monkeypatch.setattr(discovery.os, "stat", stale_stat)
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(read_skill_file(str(fifo)))
        except ReadError as exc:
            outcome.append(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # release the blocked open (a writer arriving ends its wait), then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        t.join(5)
        pytest.fail("opening a FIFO blocked: O_NONBLOCK is missing")
    (exc,) = outcome
    assert isinstance(exc, ReadError)
    assert (exc.code, exc.message, str(exc)) == ("IO_ERROR", "SKILL.md is not a regular file",
                                                 "SKILL.md is not a regular file")


@pytest.mark.parametrize("length", [0, 1, 4096, (1 << 16) - 1, 1 << 16, 70_000])
def test_a_stat_that_no_longer_holds_never_changes_what_is_read(tmp_path: Path, length: int):
    # The read trusts the stat's size only to skip a second read: a file that grew or shrank since
    # is read whole all the same.
    data = bytes(range(256)) * (length // 256 + 1)
    path = tmp_path / "f"
    path.write_bytes(data[:length])
    for size in (-1, 0, length, max(0, length - 10), length + 10):
        fd = os.open(path, os.O_RDONLY)
        try:
            assert discovery._read_up_to(fd, 100_000, size) == data[:min(length, 100_000)], size
        finally:
            os.close(fd)
