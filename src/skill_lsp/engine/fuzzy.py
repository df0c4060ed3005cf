"""rapidfuzz, imported whole under one lock.

Its submodules import each other: two threads importing different ones at once (the server's
scan threads and a command on the event loop) can meet a partially initialised module, which
importlib hands out to break what it sees as a deadlock ("cannot import name 'ScoreAlignment'
from partially initialized module 'rapidfuzz.distance'"). Every user calls ``load()`` first; the
names are then plain lookups in sys.modules.
"""

from __future__ import annotations

import _thread

_LOCK = _thread.allocate_lock()  # threading's own; importing threading costs a one-skill check 0.4 ms


def load() -> None:
    with _LOCK:
        import rapidfuzz.distance  # noqa: F401, PLC0415 - 17-30 ms: only when a fuzzy match is needed
        import rapidfuzz.fuzz  # noqa: F401, PLC0415
        import rapidfuzz.process  # noqa: F401, PLC0415
