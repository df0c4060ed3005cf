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
    check_stamped,
    folder_entries,
    open_cache,
    shard_of,
    where,
)
from skill_lsp.engine.rules.context import REAL
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


def stamped(loc, settings, cached=None):
    """(stamp, the result pickled as the cache keeps it, or None when the cached one holds)."""
    stamp, result = check_stamped(loc, settings, cached)
    return stamp, None if result is None else pickle.dumps(result)


def _codes(payload: bytes) -> list[str]:
    return sorted(f.code for f in pickle.loads(payload).findings)


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_unchanged_skill_is_not_checked_again(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = stamped(loc, settings)
    assert stamp is not None and payload is not None
    assert stamped(loc, settings, stamp) == (stamp, None)
    # What the cache hands back is what a fresh check finds.
    fresh = check_file(loc.path, settings, loc).slim(keep_text=False)
    assert pickle.loads(payload).findings == fresh.findings
    assert "BROKEN_LINK" in _codes(payload) or any("missing" in f.message for f in fresh.findings)


@pytest.mark.parametrize("change", ["edit", "add", "remove", "chmod", "outside", "subfolder"])
def test_any_change_it_depends_on_means_a_fresh_check(tmp_path: Path, no_racy_window: None, change: str) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    skill = Path(loc.dir)
    stamp, first = stamped(loc, settings)
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
    again, payload = stamped(loc, settings, stamp)
    assert payload is not None, f"{change}: the cached result was used"
    assert again != stamp
    if change in ("add", "remove", "chmod", "outside"):
        assert _codes(payload) != _codes(first)  # and the fresh result shows the change


SHIP = """---
name: ship
description: Ships builds. Use when the user asks to deploy.
license: SEE LICENSE IN LICENSE
---
# Ship

Run `scripts/deploy.sh`, then read `references/notes.md`.
"""


@pytest.mark.parametrize("change", ["license above", "script in the repository", "sibling has the file",
                                    "new sibling has the file"])
def test_lookups_above_and_beside_the_folder_are_stamped(tmp_path: Path, no_racy_window: None, change: str) -> None:
    # Rules look for a license file and a named script in the folders above the skill, and for a
    # missing file in its sibling skills: a change there changes the result.
    ws = tmp_path / "ws"
    skills = ws / ".agents" / "skills"
    (skills / "ship" / "scripts").mkdir(parents=True)
    (skills / "ship" / "SKILL.md").write_text(SHIP)
    (skills / "ship" / "scripts" / "build.sh").write_text("#!/bin/sh\n")
    (skills / "other").mkdir()
    (skills / "other" / "SKILL.md").write_text(SKILL.format(name="other"))
    settings = Settings()
    loc = next(loc for loc in discover(str(ws), settings).all if loc.dir == str(skills / "ship"))
    stamp, first = stamped(loc, settings)
    assert stamp is not None and first is not None
    assert stamped(loc, settings, stamp) == (stamp, None)
    if change == "license above":
        (ws / "LICENSE").write_text("MIT\n")
    elif change == "script in the repository":
        (ws / "scripts").mkdir()
        (ws / "scripts" / "deploy.sh").write_text("#!/bin/sh\n")
    else:
        sibling = skills / ("other" if change == "sibling has the file" else "zz")
        (sibling / "references").mkdir(parents=True)
        (sibling / "references" / "notes.md").write_text("notes\n")
    again, payload = stamped(loc, settings, stamp)
    assert payload is not None, f"{change}: the cached result was used"
    assert pickle.loads(payload).findings != pickle.loads(first).findings
    assert stamped(loc, settings, again) == (again, None)


def test_what_the_stamp_records(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, _ = stamped(loc, settings)
    assert stamp is not None
    digest, outside = stamp
    # The missing link, and where BROKEN_LINK looked for it one folder further up.
    assert outside == (("../../other/notes.md", False), ("../other/notes.md", False))
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
    stamp, payload = stamped(loc, settings)
    assert stamp is None and payload is not None
    (skill / "assets").unlink()
    # Too many entries to stat on every start.
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", 3)
    assert stamped(loc, settings)[0] is None
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", 2000)
    assert stamped(loc, settings)[0] is not None
    # A skill the discovery refused (never read): nothing to stamp.
    refused = type(loc)(loc.dir, loc.path, loc.root_index, loc.root, ("SENSITIVE", "no"))
    assert stamped(refused, settings)[0] is None


def test_a_file_changed_within_the_racy_window_is_not_cached(tmp_path: Path) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    assert stamped(loc, settings)[0] is None  # just written: a rewrite in the same tick would hide
    assert folder_entries(loc.dir, now=time.time() + 2 * resultcache.RACY_S) is not None


def _save(cache, loc, stamp, payload) -> bool:
    return cache.write_shard(shard_of(loc.path), [loc.path], {loc.path: (where(loc), stamp, payload)})


def test_cache_round_trip_and_what_drops_it(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = stamped(loc, settings)
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
    stamp, payload = stamped(loc, settings)
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
    stamp, payload = stamped(loc, settings)
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


def _two_in_one_shard(tmp_path: Path) -> tuple[Path, Settings, list]:
    """A workspace with two skills whose paths fall in the same cache shard."""
    ws = tmp_path / "ws"
    root = ws / ".agents" / "skills"
    by_shard: dict[int, list[str]] = {}
    for n in range(200):
        name = f"s{n}"
        i = shard_of(str(root / name / "SKILL.md"))
        by_shard.setdefault(i, []).append(name)
        if len(by_shard[i]) == 2:
            break
    for name in by_shard[i]:
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name))
    settings = Settings()
    return ws, settings, discover(str(ws), settings).all


def test_a_shard_keeps_the_stored_entries_of_skills_not_checked_again(tmp_path: Path, cache_home: Path,
                                                                       no_racy_window: None) -> None:
    ws, settings, (a, b) = _two_in_one_shard(tmp_path)
    checked = {loc.path: stamped(loc, settings) for loc in (a, b)}
    cache = open_cache(str(ws), settings)
    cache.load()
    w = ShardWriter(cache, [a.path, b.path], [a.path, b.path])
    w.put(a, *checked[a.path])
    assert w.written == 0  # the shard waits for its last skill
    w.put(b, *checked[b.path])
    assert w.written == 1
    # A rescan re-checks only `a`: `b`'s stored entry is kept, payload and all.
    rescan = open_cache(str(ws), settings)
    w = ShardWriter(rescan, [a.path, b.path], [a.path])
    w.put(a, *checked[a.path])
    assert w.written == 1
    after = open_cache(str(ws), settings)
    after.load()
    assert after.stamp_for(a) == checked[a.path][0] and after.stamp_for(b) == checked[b.path][0]
    # Both payloads of the shard are handed over, each once.
    assert after.payload(b) == checked[b.path][1]
    assert after.payload(a) == checked[a.path][1]
    assert after.payload(a) is None


def _four_skills(tmp_path: Path) -> tuple[Path, Settings, list]:
    """A workspace of four skills (their paths fall in more than one shard)."""
    ws = tmp_path / "ws"
    for name in ("alpha", "beta", "gamma", "delta"):
        (ws / ".agents" / "skills" / name).mkdir(parents=True)
        (ws / ".agents" / "skills" / name / "SKILL.md").write_text(SKILL.format(name=name))
    settings = Settings()
    locs = discover(str(ws), settings).all
    return ws, settings, locs


def _write_all(cache, locs, settings) -> ShardWriter:
    w = ShardWriter(cache, [loc.path for loc in locs], [loc.path for loc in locs])
    for loc in locs:
        w.put(loc, *stamped(loc, settings))
    return w


def test_two_shards_written_are_counted(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings, locs = _four_skills(tmp_path)
    w = _write_all(open_cache(str(ws), settings), locs, settings)
    assert w.finish() == len({shard_of(loc.path) for loc in locs}) > 1


def test_reading_a_cache_marks_it_in_use(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    cache = open_cache(str(ws), settings)
    _save(cache, loc, *stamped(loc, settings))
    month_ago = time.time() - 31 * 86400
    os.utime(str(cache.folder), (month_ago, month_ago))
    open_cache(str(ws), settings).load()
    assert os.stat(str(cache.folder)).st_mtime > month_ago + 86400


def test_a_shard_that_is_a_symlink_or_someone_elses_is_not_read(tmp_path: Path, cache_home: Path,
                                                                 no_racy_window: None, is_root: bool) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    cache = open_cache(str(ws), settings)
    _save(cache, loc, *stamped(loc, settings))
    (shard,) = Path(str(cache.folder)).glob("*.pickle")
    elsewhere = tmp_path / "elsewhere.pickle"
    shard.rename(elsewhere)
    shard.symlink_to(elsewhere)
    linked = open_cache(str(ws), settings)
    linked.load()
    assert linked.index == {}
    shard.unlink()
    elsewhere.rename(shard)
    if is_root:  # only root can give a file away
        os.chown(shard, 4242, -1)
        foreign = open_cache(str(ws), settings)
        foreign.load()
        assert foreign.index == {}


def test_what_the_stamp_and_the_payload_carry(tmp_path: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    _, payload = stamped(loc, settings)
    result = pickle.loads(payload)
    assert result.location == loc and result.doc is None  # slim: positions only, no text
    assert type(result.src).__name__ == "PositionTable"
    assert resultcache._outside({"..": True, "../x": False, "a/../b": True, "refs/x.md": True,
                                 REAL + "../y": True}) == ((REAL + "../y", True), ("..", True), ("../x", False))


def test_a_check_on_its_stamps_listing_finds_what_a_check_on_the_disk_finds(tmp_path: Path,
                                                                           no_racy_window: None) -> None:
    # The stamp lists the folder before the check; the rules take their lookups inside it from
    # that listing (Context.listed): links that resolve and that do not, a script run without
    # its mode, a license file, files never mentioned, hidden and compiled ones.
    ws, settings = _workspace(tmp_path)
    skill = ws / ".agents" / "skills" / "pdf"
    (skill / "SKILL.md").write_text(SKILL.format(name="pdf").replace(
        "description:", "license: Complete terms in LICENSE.txt\ndescription:") + (
        "\nRun `scripts/build.sh` and read [the api](references/api/auth.md), [gone](scripts/gone.py),"
        " [a folder](assets/).\n\n```bash\nscripts/build.sh\nscripts/lib\n```\n"))
    for rel in ("references/api/auth.md", "references/unmentioned.md", "assets/logo.png", "assets/.DS_Store",
                "scripts/__pycache__/x.pyc", "scripts/x.pyc", "scripts/lib/util.py", "LICENSE.txt"):
        (skill / rel).parent.mkdir(parents=True, exist_ok=True)
        (skill / rel).write_text("x\n")
    (skill / "scripts" / "build.sh").write_text("echo no shebang\n")
    settings = Settings(targets=("claude-code",))  # UNREFERENCED_FILE reports for it
    loc = _loc(ws, settings)
    assert resultcache.folder_stamp(loc.dir) is not None
    stamp, result = check_stamped(loc, settings)
    plain = check_file(loc.path, settings, loc)
    assert stamp is not None and result is not None
    assert [(f.code, f.start, f.end, f.message) for f in result.findings] == [
        (f.code, f.start, f.end, f.message) for f in plain.findings]
    assert {"UNREFERENCED_FILE", "SCRIPT_NO_SHEBANG"} <= {f.code for f in plain.findings}


def test_symlinked_files_and_the_entry_bound(tmp_path: Path, no_racy_window: None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    entries = folder_entries(loc.dir)
    assert entries is not None
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", len(entries))
    assert folder_entries(loc.dir) == entries  # exactly at the bound: still stamped
    monkeypatch.setattr(resultcache, "MAX_ENTRIES", 2000)
    (Path(loc.dir) / "notes.md").symlink_to(Path(loc.dir) / "references" / "guide.md")
    assert folder_entries(loc.dir) is None  # a symlinked file, not only a folder


def test_the_racy_window_counts_from_either_time(tmp_path: Path) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    newest = max(os.stat(os.path.join(d, f)).st_ctime for d, _, fs in os.walk(loc.dir) for f in fs)
    assert folder_entries(loc.dir, now=newest + resultcache.RACY_S + 0.2) is not None
    assert folder_entries(loc.dir, now=newest + resultcache.RACY_S - 0.2) is None
    # A modification time in the future (a clock skew, `touch -d`) is as racy as a recent change.
    future = time.time() + 3600
    os.utime(Path(loc.dir) / "SKILL.md", (future, future))
    assert folder_entries(loc.dir, now=newest + resultcache.RACY_S + 0.2) is None


def test_cache_locations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("false", "no", "OFF", " Off "):
        monkeypatch.setenv("SKILL_LSP_CACHE_DIR", value)
        assert resultcache.cache_dir() is None
    monkeypatch.delenv("SKILL_LSP_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resultcache.cache_dir() == str(tmp_path / "home" / ".cache" / "skill-lsp")
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", str(tmp_path / "c"))
    one, two = open_cache(str(tmp_path / "a"), Settings()), open_cache(str(tmp_path / "b"), Settings())
    assert one.folder != two.folder
    assert Path(str(one.folder)).parent == tmp_path / "c" and Path(str(one.folder)).name.startswith("results-")
    # Paths that are not valid UTF-8 (surrogate-escaped bytes) still have a cache and a shard.
    odd = open_cache(str(tmp_path / "\udcff"), Settings())
    assert odd.folder is not None and 0 <= shard_of(str(tmp_path / "\udcff" / "SKILL.md")) < resultcache.SHARDS


def test_a_cache_that_cannot_be_written_costs_nothing_but_speed(tmp_path: Path, cache_home: Path,
                                                               no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    stamp, payload = stamped(loc, settings)
    cache_home.parent.mkdir(parents=True, exist_ok=True)
    cache_home.write_text("a file where the cache folder should be")
    assert not _save(open_cache(str(ws), settings), loc, stamp, payload)


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings = _workspace(tmp_path)
    loc = _loc(ws, settings)
    cache = open_cache(str(ws), settings)
    with pytest.raises(Exception):  # noqa: B017 - whatever pickle raises for a lambda
        cache.write_shard(shard_of(loc.path), [loc.path], {loc.path: (where(loc), (b"", ()), lambda: 0)})
    assert list(Path(str(cache.folder)).iterdir()) == []


def test_prune_counts_and_boundaries(tmp_path: Path) -> None:
    now = time.time() + 10 * 86400  # the time given, not the clock's
    ages = {"results-a": 30 * 86400 - 60, "results-b": 30 * 86400 + 20, "results-c": 40 * 86400}
    for name, age in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - age, now - age))
    assert resultcache.prune(str(tmp_path), now=now) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results-a"]
    assert resultcache.prune(str(tmp_path / "missing")) == 0


def test_entries_written_under_another_key_are_not_carried_over(tmp_path: Path, cache_home: Path,
                                                                 no_racy_window: None) -> None:
    ws, settings, (a, b) = _two_in_one_shard(tmp_path)
    checked = {loc.path: stamped(loc, settings) for loc in (a, b)}
    old = open_cache(str(ws), settings)
    w = ShardWriter(old, [a.path, b.path], [a.path, b.path])
    for loc in (a, b):
        w.put(loc, *checked[loc.path])
    # Another engine (or settings) rewrites the shard with `a` only: `b`, stored under the old
    # key, must not come along into the new key's shard.
    new = open_cache(str(ws), settings)
    new.key = ("another engine", *new.key[1:])
    w = ShardWriter(new, [a.path, b.path], [a.path])
    w.put(a, *checked[a.path])
    again = open_cache(str(ws), settings)
    again.key = new.key
    again.load()
    assert set(again.index) == {a.path}


def test_a_loaded_cache_drops_gone_skills_and_keeps_the_rest_of_their_shard(tmp_path: Path, cache_home: Path,
                                                                            no_racy_window: None) -> None:
    ws, settings, (a, b) = _two_in_one_shard(tmp_path)
    _write_all(open_cache(str(ws), settings), [a, b], settings)
    # `a` is gone; `b` is left in the shard (nothing to check: kept as stored).
    loaded = open_cache(str(ws), settings)
    loaded.load()
    assert ShardWriter(loaded, [b.path], []).finish() == 1
    after = open_cache(str(ws), settings)
    after.load()
    assert set(after.index) == {b.path}


def test_finish_counts_every_shard_it_rewrites(tmp_path: Path, cache_home: Path, no_racy_window: None) -> None:
    ws, settings, locs = _four_skills(tmp_path)
    _write_all(open_cache(str(ws), settings), locs, settings)
    loaded = open_cache(str(ws), settings)
    loaded.load()
    assert ShardWriter(loaded, [], []).finish() == len({shard_of(loc.path) for loc in locs}) > 1


def test_a_plugin_folder_appearing_ends_a_kept_result(tmp_path: Path, no_racy_window: None) -> None:
    """A skill with a field the skill tool defers (`effort`) in `<plugin>/skills/`: once the folder
    beside it becomes a Claude Code plugin (`.claude-plugin/`), Claude Code reads the field, and a
    kept result that reported it no longer holds."""
    ws = tmp_path / "ws"
    skill = ws / "kit" / "skills" / "ship"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: ship\ndescription: Ships builds. Use when deploying.\n"
                                    "effort: high\n---\nBody.\n")
    settings = Settings()
    loc = next(loc for loc in discover(str(ws), settings).all if loc.dir == str(skill))
    stamp, first = stamped(loc, settings)
    assert stamp is not None and first is not None and "DEFERRED_FIELD" in _codes(first)
    assert stamped(loc, settings, stamp) == (stamp, None)
    (ws / "kit" / ".claude-plugin").mkdir()
    again, payload = stamped(loc, settings, stamp)
    assert payload is not None and "DEFERRED_FIELD" not in _codes(payload)
    assert stamped(loc, settings, again) == (again, None)
