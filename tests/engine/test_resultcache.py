"""The on-disk result cache: a cached result is used exactly while nothing it read has changed."""

from __future__ import annotations

import os
import pickle
import shutil
import time
from pathlib import Path

import pytest

from skill_lsp.engine import resultcache
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discover import discover
from skill_lsp.engine.resultcache import (
    ShardWriter,
    check_stamped_job,
    folder_entries,
    open_cache,
    shard_of,
    where,
)
from skill_lsp.engine.workspace import check_file

SKILL = """---
name: {name}
description: Converts PDF files. Use when the user asks about PDFs.
---
# {name}

See [the guide](references/guide.md), [missing](references/missing.md) and [sibling](../other/notes.md).

```bash
scripts/run.sh
```
"""


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # Files a test just wrote are 'racy' (changed within RACY_S): lift the window, and make
    # every later change visible by its size or an explicit time instead.
    monkeypatch.setattr(resultcache, "RACY_S", -3600.0)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", str(home))
    return home


def _workspace(tmp_path: Path, name: str = "pdf") -> tuple[Path, Settings]:
    ws = tmp_path / "ws"
    skill = ws / ".agents" / "skills" / name
    (skill / "references").mkdir(parents=True)
    (skill / "scripts").mkdir()
    (skill / "SKILL.md").write_text(SKILL.format(name=name))
    (skill / "references" / "guide.md").write_text("guide\n")
    (skill / "scripts" / "run.sh").write_text("#!/bin/sh\necho hi\n")
    os.chmod(skill / "scripts" / "run.sh", 0o755)
    return ws, Settings()


def _loc(ws: Path, settings: Settings):
    (loc,) = discover(str(ws), settings).all
    return loc


def check_stamped(loc, settings, cached=None):
    return check_stamped_job((loc, settings, cached))


def _codes(payload: bytes) -> list[str]:
    return sorted(f.code for f in pickle.loads(payload).findings)


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_unchanged_skill_is_not_checked_again(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    assert stamp is not None and payload is not None
    assert check_stamped(loc, settings, stamp) == (stamp, None)
    # What the cache hands back is what a fresh check finds.
    fresh = check_file(loc.path, settings, loc).slim(keep_text=False)
    assert pickle.loads(payload).findings == fresh.findings
    assert "BROKEN_LINK" in _codes(payload) or any("missing" in f.message for f in fresh.findings)


@pytest.mark.parametrize("change", ["edit", "add", "remove", "chmod", "outside", "subfolder"])
def test_any_change_it_depends_on_means_a_fresh_check(tmp_path: Path, no_racy_window: None, change: str) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    skill = Path(loc.dir)
    stamp, first = check_stamped(loc, settings)
    if change == "edit":  # a fixed link, the same length
        _touch(skill / "SKILL.md", SKILL.format(name="pdf").replace("missing.md", "guide00.md"))
    elif change == "add":  # the missing link target appears
        (skill / "references" / "missing.md").write_text("now here\n")
    elif change == "remove":
        (skill / "references" / "guide.md").unlink()
    elif change == "chmod":
        os.chmod(skill / "scripts" / "run.sh", 0o644)
    elif change == "outside":  # the link leaving the folder now reaches something
        (skill.parent / "other").mkdir()
        (skill.parent / "other" / "notes.md").write_text("notes\n")
    elif change == "subfolder":
        (skill / "assets").mkdir()
    again, payload = check_stamped(loc, settings, stamp)
    assert payload is not None, f"{change}: the cached result was used"
    assert again != stamp
    if change in ("add", "remove", "chmod", "outside"):
        assert _codes(payload) != _codes(first)  # and the fresh result shows the change


def test_what_the_stamp_records(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, _ = check_stamped(loc, settings)
    assert stamp is not None
    digest, outside = stamp
    assert outside == (("../other/notes.md", False),)
    assert len(digest) == 16 and digest == resultcache.folder_digest(loc.dir)
    entries = folder_entries(loc.dir)
    assert entries is not None
    assert {"SKILL.md", "references", "references/guide.md", "scripts", "scripts/run.sh"} == {e[0] for e in entries}


def test_what_cannot_vouch_for_a_result_is_never_cached(tmp_path: Path, no_racy_window: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    skill = Path(loc.dir)
    # A symlink: what it points at can change unseen.
    (skill / "assets").symlink_to(tmp_path)
    stamp, payload = check_stamped(loc, settings)
    assert stamp is None and payload is not None
    (skill / "assets").unlink()
    # Too many entries to stat on every start.
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", 3)
    assert check_stamped(loc, settings)[0] is None
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", 2000)
    assert check_stamped(loc, settings)[0] is not None
    # A skill the discovery refused (never read): nothing to stamp.
    refused = type(loc)(loc.dir, loc.path, loc.root_index, loc.root, ("SENSITIVE", "no"))
    assert check_stamped(refused, settings)[0] is None


def test_a_file_changed_within_the_racy_window_is_not_cached(tmp_path: Path) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    assert check_stamped(loc, settings)[0] is None  # just written: a rewrite in the same tick would hide
    assert folder_entries(loc.dir, now=time.time() + 2 * resultcache.RACY_S) is not None


def _save(cache, loc, stamp, payload) -> bool:
    return cache.write_shard(shard_of(loc.path), [loc.path], {loc.path: (where(loc), stamp, payload)})


def test_cache_round_trip_and_what_drops_it(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    assert _save(cache, loc, stamp, payload)
    assert str(cache.folder).startswith(str(cache_home))
    assert oct(os.stat(cache.folder).st_mode & 0o777) == oct(0o700)

    again = open_cache(str(ws), settings)
    again.load()
    assert again.stamp_for(loc) == stamp
    assert again.payload(loc) == payload
    assert again.payload(loc) is None  # handed over once: no longer in memory
    # Another location for the same path (moved to another root) is not the cached one.
    moved = type(loc)(loc.dir, loc.path, loc.root_index + 1, loc.root)
    assert again.stamp_for(moved) is None
    # Other settings: nothing applies.
    other = open_cache(str(ws), Settings(profile="codex"))
    other.load()
    assert other.index == {}
    # Other engine code, or what the caller keeps with the result: nothing applies.
    stale = open_cache(str(ws), settings)
    stale.key = ("another engine", *stale.key[1:])
    stale.load()
    assert stale.index == {}
    other_extra = open_cache(str(ws), settings, extra="utf-8")
    other_extra.load()
    assert other_extra.index == {}


def test_a_cache_file_others_can_write_or_a_broken_one_is_ignored(tmp_path: Path, cache_home: Path,
                                                                   no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    _save(cache, loc, stamp, payload)
    (shard,) = Path(str(cache.folder)).glob("*.pickle")
    os.chmod(shard, 0o666)
    fresh = open_cache(str(ws), settings)
    fresh.load()
    assert fresh.index == {}
    os.chmod(shard, 0o600)
    whole = shard.read_bytes()
    shard.write_bytes(whole[:40])
    fresh = open_cache(str(ws), settings)
    fresh.load()  # no traceback: a cold start
    assert fresh.index == {}
    # The index reads, the payloads do not: the result is checked anew, not lost or made up.
    shard.write_bytes(whole[: len(whole) - 10])
    broken = open_cache(str(ws), settings)
    broken.load()
    assert broken.stamp_for(loc) == stamp
    assert broken.payload(loc) is None
    broken.close()


def test_shard_writer_keeps_what_holds_and_drops_what_is_gone(tmp_path: Path, cache_home: Path,
                                                               no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    cache.load()
    w = ShardWriter(cache, [loc.path], [loc.path])
    w.put(loc, stamp, payload)  # the shard is written with its last skill, not at the end
    assert w.written == 1 and cache.on_disk[shard_of(loc.path)] == {loc.path}
    assert w.finish() == 1

    # Next session: the result holds; nothing is written.
    second = open_cache(str(ws), settings)
    second.load()
    w = ShardWriter(second, [loc.path], [loc.path])
    w.keep(loc.path)
    assert w.finish() == 0
    # A rescan (cache not read) that found the skill not cacheable drops the stored entry.
    rescan = open_cache(str(ws), settings)
    w = ShardWriter(rescan, [loc.path], [loc.path])
    w.put(loc, None, payload)
    assert w.written == 1
    after = open_cache(str(ws), settings)
    after.load()
    assert after.index == {}
    # The skill is gone: a loaded cache drops its shard's entry at the end.
    _save(cache, loc, stamp, payload)
    gone = open_cache(str(ws), settings)
    gone.load()
    assert ShardWriter(gone, [], []).finish() == 1
    final = open_cache(str(ws), settings)
    final.load()
    assert final.index == {}


def test_caching_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("off", "", "0"):
        monkeypatch.setenv("SKILL_LSP_CACHE_DIR", value)
        assert resultcache.cache_dir() is None
        assert not open_cache(str(tmp_path), Settings()).write_shard(0, ["x"], {"x": None})
    monkeypatch.delenv("SKILL_LSP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert resultcache.cache_dir() == str(tmp_path / "xdg" / "skill-lsp")


def test_engine_digest_follows_the_code(tmp_path: Path) -> None:
    engine = Path(resultcache.__file__).resolve().parent
    copy = tmp_path / "engine"
    shutil.copytree(engine, copy, ignore=shutil.ignore_patterns("__pycache__"))
    digest = resultcache.tree_digest(str(copy))
    assert digest == resultcache.engine_digest()  # the installed engine's digest is its files'
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert resultcache.tree_digest(str(copy)) == digest  # bytecode is not the code
    (copy / "data" / "extra.json").write_text("{}")
    assert resultcache.tree_digest(str(copy)) != digest  # data files are part of it
    (copy / "data" / "extra.json").unlink()
    rule = copy / "rules" / "body.py"
    rule.write_text(rule.read_text() + "\n# a change\n")
    assert resultcache.tree_digest(str(copy)) != digest


def test_caches_of_workspaces_not_opened_for_a_month_are_removed(tmp_path: Path) -> None:
    old, recent, other = tmp_path / "results-aaaa", tmp_path / "results-bbbb", tmp_path / "notes"
    for d in (old, recent, other):
        d.mkdir()
        (d / "00.pickle").write_bytes(b"x")
    month = 31 * 86400
    os.utime(old, (time.time() - month, time.time() - month))
    os.utime(other, (time.time() - month, time.time() - month))
    assert resultcache.prune(str(tmp_path)) == 1
    assert not old.exists() and recent.exists() and other.exists()  # only its own folders
