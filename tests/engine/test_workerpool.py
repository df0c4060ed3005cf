"""The scan's worker pool (workerpool.py): answers in order, a failing job fails alone,
a dead worker fails what it held instead of hanging, and shutdown ends every worker."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from skill_lsp.workerpool import IN_FLIGHT, BrokenPool, WorkerPool

METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


@pytest.fixture
def pool():
    p = WorkerPool(multiprocessing.get_context(METHOD), 2)
    yield p
    p.shutdown(wait=True)


def test_map_answers_in_order_across_workers(pool: WorkerPool) -> None:
    items = list(range(101))
    got = list(pool.map(abs, [-n for n in items], chunksize=7))
    assert got == items
    pids = {j.result(timeout=60) for j in [pool.submit(os.getpid) for _ in range(4 * IN_FLIGHT)]}
    assert pids <= set(pool.pids) and len(pool.pids) == 2


def test_a_helping_map_runs_the_last_chunks_here(pool: WorkerPool) -> None:
    here = []
    run_here = pool._run_here
    pool._run_here = lambda job: (here.append(job), run_here(job))[1]  # type: ignore[method-assign]
    items = list(range(200))
    assert list(pool.map(abs, [-n for n in items], chunksize=5, helping=True)) == items
    # The workers hold the first chunks (IN_FLIGHT each) as they are queued; this thread takes
    # others from the end while it waits for them.
    assert 0 < len(here) <= 40 - 2 * IN_FLIGHT


def test_a_helping_map_needs_no_worker() -> None:
    p = WorkerPool(multiprocessing.get_context(METHOD), 0)
    try:
        assert list(p.map(abs, [-3, 4, -5], chunksize=2, helping=True)) == [3, 4, 5]
        with pytest.raises(BrokenPool):
            list(p.map(abs, [-3], helping=False))  # no one else would ever run it
    finally:
        p.shutdown(wait=True)


def test_a_failing_job_fails_alone(pool: WorkerPool) -> None:
    bad = pool.submit(divmod, 1, 0)
    unpicklable = pool.submit(eval, "lambda: 0")  # its value cannot be sent back
    good = pool.submit(divmod, 7, 2)
    assert good.result(timeout=60) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        bad.result(timeout=60)
    assert isinstance(bad.exception(), ZeroDivisionError)
    with pytest.raises(RuntimeError, match="pickl"):
        unpicklable.result(timeout=60)
    assert pool.submit(abs, -3).result(timeout=60) == 3


def test_done_does_not_wait(pool: WorkerPool) -> None:
    job = pool.submit(time.sleep, 0.5)
    assert not job.done()  # had it waited for the job, the job would be done
    with pytest.raises(TimeoutError):
        job.result(timeout=0.05)
    assert job.result(timeout=60) is None and job.done()


def test_a_dead_worker_fails_what_is_not_answered(pool: WorkerPool) -> None:
    slow = [pool.submit(time.sleep, 30) for _ in range(2 * IN_FLIGHT + 3)]
    assert not slow[0].done()  # sent: each worker holds IN_FLIGHT, the rest wait
    os.kill(pool.pids[0], signal.SIGKILL)
    with pytest.raises(BrokenPool):  # not TimeoutError: the killed worker never answers
        for job in slow:
            job.result(timeout=60)
    assert all(job.done() and not job.cancelled() for job in slow)
    late = pool.submit(abs, -1)
    assert late.done() and isinstance(late.exception(), BrokenPool)


def test_shutdown_cancels_what_was_not_sent_and_ends_the_workers() -> None:
    p = WorkerPool(multiprocessing.get_context(METHOD), 2)
    jobs = [p.submit(time.sleep, 120) for _ in range(3 * IN_FLIGHT)]
    procs = list(p._procs)  # noqa: SLF001
    p.shutdown()
    for proc in procs:
        proc.join(60)  # a worker left to finish its job would still be asleep
    assert not any(proc.is_alive() for proc in procs)
    assert jobs[-1].cancelled()
    with pytest.raises(BrokenPool):
        jobs[0].result(timeout=1)
    assert isinstance(p.submit(abs, 1).exception(), BrokenPool)


def test_ctrl_c_is_the_parents_to_handle(pool: WorkerPool) -> None:
    # Ctrl-C in a terminal reaches every process of the group: a worker goes on with its job
    # (the parent stops the run and ends the workers) instead of dying with a traceback.
    for job in [pool.submit(os.getpid) for _ in range(2)]:
        job.result(timeout=60)  # both workers are up (a signal before that ends a process starting)
    job = pool.submit(time.sleep, 0.5)
    assert not job.done()
    os.kill(pool.pids[0], signal.SIGINT)
    os.kill(pool.pids[1], signal.SIGINT)
    assert job.result(timeout=60) is None
    assert pool.submit(abs, -2).result(timeout=60) == 2
