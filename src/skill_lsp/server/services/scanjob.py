"""What a scan's worker process does for one skill: check it, and write its diagnostics as JSON.

Publishing 10,000 closed files used to build and encode every diagnostic in the server
process, one after the other (0.8 s of its 2.6 s on a reopened 10,000-skill workspace).
Workers do it in parallel instead, and the result cache keeps the text: the server only
frames it. The text depends on the client's position encoding and on whether it shows
related information (the *flavour*), and on this package's conversion code: both are in
the cache key.
"""

from __future__ import annotations

import json
import os
import pickle
from typing import TYPE_CHECKING

from ...engine.config import Settings
from ...engine.discovery import Location
from ...engine.findings import Severity
from ...engine.text import Encoding, SourceText
from ...engine.workspace import SkillResult, check_file
from ..diagjson import diagnostic_json

if TYPE_CHECKING:
    from ...engine.resultcache import Stamp

Flavour = tuple[str, bool]  # (position encoding name, related information shown)


def flavour(enc: Encoding, related_support: bool) -> Flavour:
    return (enc.name, related_support)


_CODE: str | None = None


def cache_extra(fl: Flavour | None) -> str:
    """The result cache's ``extra``: the flavour (None: nothing rendered) and the digest of the
    code that writes the JSON."""
    global _CODE
    if _CODE is None:
        from ...engine.resultcache import tree_digest  # noqa: PLC0415

        _CODE = tree_digest(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return f"{fl[0]}:{int(fl[1])}:{_CODE}" if fl is not None else f"unrendered:{_CODE}"


def render(result: SkillResult, fl: Flavour, settings: Settings) -> str | None:
    """The diagnostics array's inside, as JSON text; None when the server must build it (its
    related information points into other files, whose positions only the server knows, or a
    suppression names a cross-skill code, known only once every skill is)."""
    src = result.doc.src if result.doc is not None else result.src
    sup = result.suppressions
    if src is None or any(r.path != result.path for f in result.findings for r in f.related) or (
            sup is not None and sup.names_cross_codes):
        return None
    enc = Encoding[fl[0]]
    diags = [diagnostic_json(f, src, enc, {result.path: src}, fl[1]) for f in result.shown(settings, "local")]
    return json.dumps(diags)[1:-1]


def lower_priority(target: str | int) -> None:
    """Run this thread (a worker's only one, the forkserver's spawner) at ``target``
    (``sync._worker_priority``); a process forked from the forkserver is there already."""
    try:
        if target == "idle":
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        elif isinstance(target, int) and target > os.getpriority(os.PRIO_PROCESS, 0):
            os.nice(target - os.getpriority(os.PRIO_PROCESS, 0))
    except (AttributeError, OSError, ValueError):
        pass


def first_job(job: tuple[Location, Settings, Flavour]) -> str | None:
    """Worker-process entry of a scan's first pass: the errors of stage one of the rules (what
    makes a harness skip the skill: frontmatter, name, fields, a read or discovery problem) as
    the diagnostics array's JSON inside, or None without any. Reported as the complete check
    would report them (settings, suppressions, selection)."""
    loc, settings, fl = job
    result = check_file(loc.path, settings, loc, first=True)
    errors = [f for f in result.shown(settings, "local") if f.severity == Severity.ERROR]
    if not errors:
        return None
    src = result.doc.src if result.doc is not None else SourceText("")
    enc = Encoding[fl[0]]
    return json.dumps([diagnostic_json(f, src, enc, {result.path: src}, fl[1]) for f in errors])[1:-1]


def first_jobs(locations: list[Location], settings: Settings, fl: Flavour) -> list[str | None]:
    """``first_job`` of each location, in one round trip (a chunk a discovery walk handed over)."""
    return [first_job((loc, settings, fl)) for loc in locations]


def check_job(job: tuple[Location, Settings, Stamp | None, Flavour | None]) -> tuple[Stamp | None, bytes | None]:
    """Worker-process entry: (stamp, pickled (slim result, rendered diagnostics)), or (stamp, None)
    when the cached payload still holds."""
    from ...engine.resultcache import check_stamped  # noqa: PLC0415 - loaded by the first scan

    loc, settings, cached, fl = job
    stamp, result = check_stamped(loc, settings, cached)
    if result is None:
        return stamp, None
    text = render(result, fl, settings) if fl is not None else None
    # The location is not kept: the scan takes a result for the location it handed out, which the
    # cache's index compares before a kept payload is used (a seventh of the bytes unpickled).
    result.location = None
    return stamp, pickle.dumps((result, text), protocol=pickle.HIGHEST_PROTOCOL)
