"""`check`'s results kept between runs: a skill whose folder is as the last run left it is not
checked again (as ruff keeps its own).

The store is the server's result cache (``resultcache``: stamps, shards, the user's cache folder,
the engine's digest in the key) under a key of check's own: a payload is the slim result
``workspace.check_job`` returns, with what JSON output lists (the fixes, each finding's text) or
without. A stamp is taken before a skill is read and compared before its result is used again.
Results are kept before the cross-skill rules run: those run on every result, kept or fresh,
afterwards.
"""

from __future__ import annotations

import gc
import pickle

from . import resultcache
from .config import Settings
from .discovery import Location
from .result import SkillResult
from .workspace import slim_for_check

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .resultcache import Stamp

Job = tuple[Location, Settings, bool]
Checked = tuple["Stamp | None", bytes]


def stamped_job(job: Job) -> Checked:
    """Worker-process entry: ``workspace.check_job`` with its stamp (taken before the skill is
    read; None: not to be kept), the result pickled as the cache keeps it."""
    loc, settings, fixes = job
    stamp, result = resultcache.check_stamped(loc, settings, slim=lambda r: slim_for_check(r, fixes))
    assert result is not None  # no cached stamp to hold
    # Not kept: the location a result is taken for is the one it was checked at (the cache's
    # index compares them), and a seventh of the bytes to unpickle went to it.
    result.location = None
    return stamp, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def check_cached(locations: list[Location], settings: Settings, fixes: bool, workspace: str,
                 run: Callable[[Callable[[Job], Checked], list[Job]], Iterable[Checked]]) -> list[SkillResult]:
    """The results of ``locations`` in their order: kept ones whose stamps still hold, the others
    from ``run(stamped_job, jobs)`` (taken as they come); what changed is written back."""
    # One cache for JSON output, one for the others: a CI job that writes both keeps both.
    cache = resultcache.open_cache(workspace, settings, "check", kind=f"check:fixes={int(fixes)}")
    try:
        cache.load()
        results: list[SkillResult | None] = [None] * len(locations)
        todo: list[int] = []
        # Unpickling makes no garbage, only objects that stay: no collection while it runs (one
        # in ten milliseconds of a warm run went to them).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for i, loc in enumerate(locations):
                stamp = cache.stamp_for(loc)
                if stamp is not None and resultcache.holds(loc, stamp):
                    results[i] = _result(cache.payload(loc), loc)
                if results[i] is None:
                    todo.append(i)
        finally:
            if collecting:
                gc.enable()
        writer = resultcache.ShardWriter(cache, [loc.path for loc in locations], [loc.path for loc in locations])
        for i, (stamp, payload) in zip(todo, run(stamped_job, [(locations[i], settings, fixes) for i in todo]), strict=True):
            results[i] = _result(payload, locations[i])
            writer.put(locations[i], stamp, payload)
        fresh = set(todo)
        for i, loc in enumerate(locations):
            if i not in fresh:
                writer.keep(loc.path)
        writer.finish()
    finally:
        cache.close()
    done = [r for r in results if r is not None]
    assert len(done) == len(locations)
    return done


def _result(payload: bytes | None, loc: Location) -> SkillResult | None:
    """The result in ``payload``, at ``loc``; None when it does not unpickle into one (a file
    from another build)."""
    if payload is None:
        return None
    try:
        got = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a bad payload is checked afresh, not an error
        return None
    if not isinstance(got, SkillResult):
        return None
    got.location = loc
    return got
