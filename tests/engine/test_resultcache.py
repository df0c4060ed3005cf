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
from skill_lsp.engine.resultcache import check_stamped, folder_entries, open_cache
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


def test_what_the_stamp_records_outside_the_folder(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    stamp, _ = check_stamped(_loc(ws, settings), settings)
    assert stamp is not None
    entries, outside = stamp
    assert outside == (("../other/notes.md", False),)
    assert ("SKILL.md",) == tuple(e[0] for e in entries if e[0] == "SKILL.md")
    assert {"references", "references/guide.md", "scripts", "scripts/run.sh"} <= {e[0] for e in entries}


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


def test_cache_round_trip_and_what_drops_it(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    assert cache.save([loc.path], {loc.path: (loc, stamp, payload)}) == 1
    assert str(cache.folder).startswith(str(cache_home))
    assert oct(os.stat(cache.folder).st_mode & 0o777) == oct(0o700)

    again = open_cache(str(ws), settings)
    again.load()
    assert again.stamp_for(loc) == stamp
    assert again.result(loc).findings == pickle.loads(payload).findings
    # Another location for the same path (moved to another root) is not the cached one.
    moved = type(loc)(loc.dir, loc.path, loc.root_index + 1, loc.root)
    assert again.stamp_for(moved) is None
    # Other settings: nothing applies.
    other = open_cache(str(ws), Settings(profile="codex"))
    other.load()
    assert other.entries == {}
    # Other engine code: nothing applies.
    stale = open_cache(str(ws), settings)
    stale.key = ("another engine", stale.key[1])
    stale.load()
    assert stale.entries == {}


def test_a_cache_file_others_can_write_or_a_broken_one_is_ignored(tmp_path: Path, cache_home: Path,
                                                                   no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    cache.save([loc.path], {loc.path: (loc, stamp, payload)})
    (shard,) = Path(str(cache.folder)).glob("*.pickle")
    os.chmod(shard, 0o666)
    fresh = open_cache(str(ws), settings)
    fresh.load()
    assert fresh.entries == {}
    os.chmod(shard, 0o600)
    shard.write_bytes(shard.read_bytes()[:40])
    fresh = open_cache(str(ws), settings)
    fresh.load()  # no traceback: a cold start
    assert fresh.entries == {}


def test_save_writes_only_shards_with_news_and_drops_what_is_gone(tmp_path: Path, cache_home: Path,
                                                                   no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = check_stamped(loc, settings)
    cache = open_cache(str(ws), settings)
    cache.load()
    assert cache.save([loc.path], {loc.path: (loc, stamp, payload)}) == 1
    assert cache.save([loc.path], {}) == 0  # nothing new
    # Not loaded (a rescan): untouched shards are not even read.
    rescan = open_cache(str(ws), settings)
    assert rescan.save([loc.path], {}) == 0
    # A fresh check that cannot be cached replaces the stored entry by nothing.
    assert rescan.save([loc.path], {loc.path: None}) == 1
    after = open_cache(str(ws), settings)
    after.load()
    assert after.entries == {}
    # The skill is gone: a loaded cache drops its entry.
    cache.save([loc.path], {loc.path: (loc, stamp, payload)})
    gone = open_cache(str(ws), settings)
    gone.load()
    assert gone.save([], {}) == 1
    final = open_cache(str(ws), settings)
    final.load()
    assert final.entries == {}


def test_caching_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("off", "", "0"):
        monkeypatch.setenv("SKILL_LSP_CACHE_DIR", value)
        assert resultcache.cache_dir() is None
        assert open_cache(str(tmp_path), Settings()).save(["x"], {}) == 0
    monkeypatch.delenv("SKILL_LSP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert resultcache.cache_dir() == str(tmp_path / "xdg" / "skill-lsp")


def test_engine_digest_follows_the_code(tmp_path: Path) -> None:
    package = Path(resultcache.__file__).resolve().parents[1]
    copy = tmp_path / "skill_lsp"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    digest = resultcache.tree_digest(str(copy))
    assert digest == resultcache.engine_digest()  # the installed package's digest is its files'
    (copy / "engine" / "__pycache__").mkdir(exist_ok=True)
    (copy / "engine" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert resultcache.tree_digest(str(copy)) == digest  # bytecode is not the code
    rule = copy / "engine" / "rules" / "body.py"
    rule.write_text(rule.read_text() + "\n# a change\n")
    assert resultcache.tree_digest(str(copy)) != digest
