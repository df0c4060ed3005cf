"""Worker processes (a server's scan, a large `check`), driven by the one thread that hands them
work and takes it back.

``concurrent.futures.ProcessPoolExecutor`` runs two threads of its own beside the scan's: one
feeds the call queue, one collects results and completes futures, each waking for every chunk
and taking the GIL in turn with a keystroke's analysis. Here the thread that waits for a job's
result (the scan's) sends the queued jobs and reads the answers while it waits: no other thread,
a pipe per worker, no queue and locks shared between workers. On a first open of 10,000 skills
the server spent 1.45-1.48 CPU-s instead of 1.66-1.73 and the workers 4.2 instead of 4.3-4.4.

Each worker has at most ``IN_FLIGHT`` jobs sent and not answered, so it never waits for the next
one while the scan thread is busy, and no pipe fills in either direction. Jobs go out in the
order they were submitted; a worker answers its own in order. A worker that dies breaks the
pool: every job not answered fails with ``BrokenPool`` (the scan then checks in its own thread,
as before). Not thread-safe: one thread at a time (the pool is built in one and used in another
only after it is handed over).

Workers import this module (their entry point is defined here) and what their jobs name: nothing
of pygls or lsprotocol.
"""

from __future__ import annotations

import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

IN_FLIGHT = 3
_PROTOCOL = pickle.HIGHEST_PROTOCOL


class BrokenPool(RuntimeError):
    """A worker process ended (killed, out of memory) with jobs not answered."""


class Job:
    """One submitted call: what ``concurrent.futures.Future`` offers the scan (``done``,
    ``result``, ``exception``, ``cancelled``), completed by the pool while its thread waits."""

    __slots__ = ("_error", "_pool", "_value", "call", "state")

    def __init__(self, pool: WorkerPool, call: tuple) -> None:
        self._pool = pool
        self.call: tuple | None = call  # (fn, args), dropped once sent
        self.state = "pending"  # -> "sent" -> "done" | "failed" | "cancelled"
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        if self.state in ("pending", "sent"):
            self._pool.pump(timeout=0)
        return self.state not in ("pending", "sent")

    def cancelled(self) -> bool:
        return self.state == "cancelled"

    def result(self, timeout: float | None = None) -> Any:
        self._pool.wait_for(self, timeout)
        if self.state == "done":
            return self._value
        raise self._error if self._error is not None else BrokenPool("cancelled")

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._pool.wait_for(self, timeout)
        return self._error

    def _finish(self, ok: bool, value: Any) -> None:
        self.state = "done" if ok else "failed"
        if ok:
            self._value = value
        else:
            self._error = value


class WorkerPool:
    """``workers`` processes of ``ctx`` (a multiprocessing context), each running
    ``initializer(*initargs)`` first."""

    def __init__(self, ctx, workers: int, initializer: Callable | None = None, initargs: tuple = ()) -> None:
        from multiprocessing.connection import wait  # noqa: PLC0415

        self._wait = wait
        self._pending: deque[Job] = deque()
        self._sent: dict[Any, deque[Job]] = {}  # connection -> its jobs not answered, in order
        self._procs = []
        self.broken: BrokenPool | None = None
        try:
            for _ in range(workers):
                mine, theirs = ctx.Pipe(duplex=True)
                proc = ctx.Process(target=serve, args=(theirs, initializer, initargs), daemon=True,
                                   name="skill-lsp-worker")
                proc.start()
                theirs.close()
                self._sent[mine] = deque()
                self._procs.append(proc)
        except BaseException:
            self.shutdown()
            raise

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._procs if p.pid is not None]

    def submit(self, fn: Callable, *args: Any) -> Job:
        job = Job(self, (fn, args))
        if self.broken is not None:
            job._finish(False, self.broken)  # noqa: SLF001
            return job
        self._pending.append(job)
        self._send()
        return job

    def map(self, fn: Callable, items: Iterable, chunksize: int = 1, helping: bool = False) -> Iterator:
        """``fn`` of each item, in order; the chunks are queued now (behind what was submitted
        before), their results read as the iterator is. ``helping``: as ``gather``'s."""
        items = list(items)
        step = max(1, chunksize)
        return self.gather([self.submit(run_chunk, fn, items[i:i + step]) for i in range(0, len(items), step)],
                           helping)

    def gather(self, jobs: Iterable[Job], helping: bool = False) -> Iterator:
        """The items of each job's result (``run_chunk`` jobs: lists), in the jobs' order, read as
        the iterator is. ``helping``: the thread reading them runs jobs no worker has taken yet,
        from the last one submitted back, while the workers take them from the first one on (a
        `check` then needs one worker process fewer)."""
        queue = deque(jobs)

        def results() -> Iterator:
            while queue:
                if helping and queue[0].state in ("pending", "sent") and self._pending:
                    self._run_here(self._pending.pop())
                    self.pump(timeout=0)
                    continue
                yield from queue.popleft().result()  # let go of each chunk's results once taken
        return results()

    def _run_here(self, job: Job) -> None:
        """Run a job not sent in this thread."""
        call, job.call = job.call, None
        fn, args = call  # type: ignore[misc]
        try:
            job._finish(True, fn(*args))  # noqa: SLF001
        except Exception as exc:  # noqa: BLE001 - as a worker would answer
            job._finish(False, exc)  # noqa: SLF001

    def wait_for(self, job: Job, timeout: float | None = None) -> None:
        """Send and take back until ``job`` is answered (``TimeoutError`` after ``timeout`` s)."""
        if job.state not in ("pending", "sent"):
            return
        import time  # noqa: PLC0415

        end = None if timeout is None else time.monotonic() + timeout
        while job.state in ("pending", "sent"):
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            if not self.pump(left) and job.state in ("pending", "sent"):
                job._finish(False, self.broken or BrokenPool("no worker has the job"))  # noqa: SLF001 - never expected

    def pump(self, timeout: float | None = 0) -> bool:
        """Send what the workers can take, then read the answers there are (waiting up to
        ``timeout`` s for one; None: until one comes). False when no job is in a worker's hands."""
        self._send()
        busy = [c for c, q in self._sent.items() if q]
        if not busy:
            return False
        for conn in self._wait(busy, timeout):
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError) as exc:
                self._break(f"a scan worker ended: {exc!r}")
                return False
            job = self._sent[conn].popleft()
            try:
                ok, value = pickle.loads(data)
            except Exception as exc:  # noqa: BLE001 - this job fails, the others go on
                ok, value = False, exc
            job._finish(ok, value)  # noqa: SLF001
        self._send()
        return True

    def _send(self) -> None:
        if self.broken is not None or not self._sent:
            return
        while self._pending:
            # To the worker with the fewest jobs in hand: two chunks go to two workers.
            conn, queue = min(self._sent.items(), key=lambda cq: len(cq[1]))
            if len(queue) >= IN_FLIGHT:
                return
            job = self._pending.popleft()
            call, job.call = job.call, None
            try:
                data = pickle.dumps(call, _PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - this job fails, the others go on
                job._finish(False, exc)  # noqa: SLF001
                continue
            job.state = "sent"
            queue.append(job)
            try:
                conn.send_bytes(data)
            except OSError as exc:
                self._break(f"a scan worker ended: {exc!r}")
                return

    def _break(self, why: str) -> None:
        self.broken = BrokenPool(why)
        for queue in self._sent.values():
            while queue:
                queue.popleft()._finish(False, self.broken)  # noqa: SLF001
        while self._pending:
            self._pending.popleft()._finish(False, self.broken)  # noqa: SLF001
        self.shutdown()

    def shutdown(self, wait: bool = False, cancel_futures: bool = True) -> None:
        """Cancel what was not sent, fail what was, close the pipes and end the workers (a
        superseded scan stops costing CPU at once; a worker writes nothing anywhere). ``wait``:
        until they have ended. (``cancel_futures``: always, as the executor's keyword.)"""
        while self._pending:
            job = self._pending.popleft()
            job.state, job.call = "cancelled", None
        for conn, queue in self._sent.items():
            for job in queue:
                job._finish(False, BrokenPool("the pool was shut down"))  # noqa: SLF001
            queue.clear()
            conn.close()
        self._sent = {}
        self.broken = self.broken or BrokenPool("the pool was shut down")
        for proc in self._procs:
            if proc.is_alive():
                proc.terminate()
        if wait:
            for proc in self._procs:
                proc.join()


def run_chunk(fn: Callable, items: list) -> list:
    return [fn(x) for x in items]


def serve(conn, initializer: Callable | None, initargs: tuple) -> None:
    """A worker process: run each call that comes, send back (True, its value) or (False, the
    exception), until the other end is closed."""
    import signal  # noqa: PLC0415

    # Ctrl-C in a terminal reaches the whole process group: the parent stops the run and ends the
    # workers, which would each print a traceback of the job they were on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(data)  # a job naming what this worker cannot import fails alone
            out = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - the scan decides what a failed job means
            out = (False, exc)
        try:
            data = pickle.dumps(out, _PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an unpicklable value or exception
            data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")), _PROTOCOL)
        try:
            conn.send_bytes(data)
        except (EOFError, OSError):
            return


__all__ = ["BrokenPool", "Job", "WorkerPool"]
