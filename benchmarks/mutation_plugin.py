"""pytest plugin of benchmarks/mutation.py's own runner (loaded with ``-p mutation_plugin``).

Mapping run (MUTATION_MAP_OUT set): each test's coverage goes under its node id as the
coverage context (the servers and CLIs a test starts name it through PYTEST_CURRENT_TEST,
see mutation_select.py), and each test's duration and outcome is written to the file
MUTATION_MAP_OUT names.

Mutant run (MUTATION_ORDER set): the selected tests run in the order that file lists
(fastest first, so a killed mutant dies early under -x), not in collection order.
"""

from __future__ import annotations

import json
import os
import time

import pytest


def pytest_collection_modifyitems(session, config, items):
    order_file = os.environ.get("MUTATION_ORDER")
    if not order_file:
        return
    with open(order_file, encoding="utf-8") as f:
        rank = {nodeid: i for i, nodeid in enumerate(json.load(f))}
    items.sort(key=lambda item: rank.get(item.nodeid, len(rank)))


_results: dict[str, dict] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not os.environ.get("MUTATION_MAP_OUT"):
        yield
        return
    import coverage  # noqa: PLC0415

    cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(item.nodeid)
    started = time.monotonic()
    yield
    _results.setdefault(item.nodeid, {})["seconds"] = round(time.monotonic() - started, 3)


def pytest_runtest_logreport(report):
    if not os.environ.get("MUTATION_MAP_OUT"):
        return
    entry = _results.setdefault(report.nodeid, {})
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and entry.get("outcome") != "failed":
        entry["outcome"] = "skipped"
    elif report.when == "call" and "outcome" not in entry:
        entry["outcome"] = "passed"


def pytest_sessionfinish(session, exitstatus):
    out = os.environ.get("MUTATION_MAP_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(_results, f, indent=0)
