"""A running scan's thread steps aside for an edit being analysed (``ls.quiet``, services/sync.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

from helpers import skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.skillgraph import PAUSE_EVERY
from skill_lsp.engine.workspace import SkillIndex, check_file
from skill_lsp.server.services import sync


class _Quiet:
    """An Event that records how the scan asked it."""

    def __init__(self, is_set: bool) -> None:
        self.event = threading.Event()
        if is_set:
            self.event.set()
        self.waits: list[float] = []

    def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        return self.event.wait(0)


def test_the_scan_waits_for_an_edit_only_while_the_user_types() -> None:
    typing = SimpleNamespace(last_edit=time.monotonic(), quiet=_Quiet(is_set=False), scan_turn=0.0)
    sync._yield_to_edits(typing)  # type: ignore[arg-type]
    assert typing.quiet.waits == [sync.EDIT_WAIT_S]  # bounded: an analysis that never ends costs a scan little
    assert typing.scan_turn > 0  # and it paused: a millisecond of scan work had passed since the last pause
    typing.scan_turn = paused = time.perf_counter() + 60  # as if it had just paused (a loaded CI stays within)
    sync._yield_to_edits(typing)  # type: ignore[arg-type]
    assert typing.scan_turn == paused and len(typing.quiet.waits) == 2  # waits again, pauses once a millisecond

    idle = SimpleNamespace(last_edit=time.monotonic() - sync.TYPING_S - 1, quiet=_Quiet(is_set=False), scan_turn=0.0)
    sync._yield_to_edits(idle)  # type: ignore[arg-type]
    assert idle.quiet.waits == [] and idle.scan_turn == 0.0


def test_the_event_loop_never_waits_for_an_edit() -> None:
    # The edit's analysis runs on the loop: waiting there for it would stall the keystroke 50 ms.
    typing = SimpleNamespace(last_edit=time.monotonic(), quiet=_Quiet(is_set=False), scan_turn=0.0)

    async def on_the_loop() -> None:
        sync._yield_to_edits(typing)  # type: ignore[arg-type]

    asyncio.run(on_the_loop())
    assert typing.quiet.waits == []


def test_rebuilding_the_index_pauses_every_few_skills(tmp_path) -> None:
    names = [f"s{i:03d}" for i in range(PAUSE_EVERY * 2 + 1)]
    paths = [write_skill(tmp_path / "skills", n, skill_text(n, f"Does task {n} when asked.")) for n in names]
    results = [check_file(str(p), Settings()).slim() for p in paths]
    calls = []
    SkillIndex(Settings()).rebuild(results, pause=lambda: calls.append(1))
    # Each pass over the skills pauses once per PAUSE_EVERY of them: the name groups, the
    # description index, the name index, the graph's names and its mentions (these descriptions
    # are too short to overlap: no pass over overlapping skills). With two passes pausing, a
    # keystroke waited for the other three (36 ms of 10,000 skills without a pause).
    assert len(calls) == 5 * 3
