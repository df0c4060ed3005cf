"""Compiled patterns kept between runs (engine/regexcache.py): what comes back from the file is
the pattern ``re.compile`` makes, and a file that is not this process's own kind is ignored."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys

import pytest

from skill_lsp.engine import lazyre, regexcache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regexcache, "_stored", None)
    monkeypatch.setattr(regexcache, "_fresh", {})
    monkeypatch.setattr(regexcache, "_used", set())
    return tmp_path / "cache"


def _engine_patterns() -> list[tuple[str | bytes, int]]:
    from skill_lsp.engine.rules import load_all  # every rule module, so every declared pattern

    load_all()  # as the server does: compiles them and keeps them
    assert os.path.exists(regexcache.path())
    return [(p.pattern, p._flags) for p in lazyre._MADE]  # noqa: SLF001


def _samples(pattern: str | bytes) -> list:
    texts = ["", "name: x\n", "See [a](./scripts/run.sh) and `$ARGUMENTS`.\n", "---\nname: a-b\n---\n# T\n",
             "AKIAABCDEFGHIJKLMNOP sk-abc xoxb-1 ghp_x /Users/me ${CLAUDE_SKILL_DIR}/x.py\n",
             "```bash\n./run.sh\n```\n~~~\n", "Ｄeploy\u200b é\r\n\t  ", "MIT OR Apache-2.0", "a" * 40]
    return [t.encode() if isinstance(pattern, bytes) else t for t in texts]


def test_every_declared_pattern_comes_back_as_re_compiles_it(cache) -> None:
    patterns = _engine_patterns()
    assert len(patterns) > 100
    os.unlink(regexcache.path())
    regexcache._stored, regexcache._fresh = None, {}  # noqa: SLF001 - as a first run finds it
    for pattern, flags in patterns:
        regexcache.compile(pattern, flags)
    assert regexcache.save()
    # A new process's view: only what the file holds.
    regexcache._stored = None  # noqa: SLF001
    for pattern, flags in patterns:
        cached, fresh = regexcache.compile(pattern, flags), re.compile(pattern, flags)
        assert (cached.pattern, cached.flags, cached.groups, cached.groupindex) == \
            (fresh.pattern, fresh.flags, fresh.groups, fresh.groupindex)
        for text in _samples(pattern):
            assert [m.span() for m in cached.finditer(text)] == [m.span() for m in fresh.finditer(text)]
            assert [m.groups() for m in cached.finditer(text)] == [m.groups() for m in fresh.finditer(text)]
    assert not regexcache._fresh, "every pattern was read from the file"  # noqa: SLF001


def test_the_file_holds_what_re_hands_the_regex_engine(cache) -> None:
    # The code kept is re's own: the same pattern compiled by re._compiler gives the same list.
    from re import _compiler, _parser

    pattern = r"(?P<key>[a-z]+)\s*:\s*(\d+)?|\$\{(?P=key)\}"
    regexcache.compile(pattern, re.M)
    regexcache.save()
    fmt, table = marshal.loads(open(regexcache.path(), "rb").read())
    flags, packed, groups, groupindex, indexgroup = table[(pattern, int(re.M))]
    assert fmt == regexcache.FORMAT
    assert memoryview(packed).cast("I").tolist() == list(_compiler._code(_parser.parse(pattern, re.M), re.M))
    assert (groups, groupindex, indexgroup) == (2, {"key": 1}, (None, "key", None))
    assert oct(os.stat(regexcache.path()).st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong shape", "foreign code", "other format"])
def test_a_damaged_or_foreign_file_is_compiled_afresh(cache, damage) -> None:
    pattern = r"\[([^\]]*)\]\(([^)\s]+)\)"
    regexcache.compile(pattern)
    regexcache.save()
    where = regexcache.path()
    data = open(where, "rb").read()
    fmt, table = marshal.loads(data)
    key = (pattern, 0)
    if damage == "garbage":
        data = os.urandom(64)
    elif damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "wrong shape":
        data = marshal.dumps((fmt, {key: ("not", "arguments")}))
    elif damage == "foreign code":  # code the regex engine refuses (its validator) or would misread
        flags, packed, *rest = table[key]
        data = marshal.dumps((fmt, {key: (flags, bytes([99, 0, 0, 0, 1, 0, 0, 0]) + packed[8:], *rest)}))
    else:
        data = marshal.dumps((fmt + 1, table))
    with open(where, "wb") as f:
        f.write(data)
    regexcache._stored = None  # noqa: SLF001
    compiled = regexcache.compile(pattern)
    assert compiled.findall("see [the guide](docs/a.md) and [x](y)") == [("the guide", "docs/a.md"), ("x", "y")]
    if damage in ("garbage", "truncated", "other format"):
        assert regexcache._stored == {}  # noqa: SLF001 - the file is not read as a table at all
    assert key in regexcache._fresh  # noqa: SLF001 - compiled afresh, to be written again


def test_a_file_others_can_write_is_not_read(cache) -> None:
    pattern = "abc+"
    regexcache.compile(pattern)
    regexcache.save()
    os.chmod(regexcache.path(), 0o666)
    regexcache._stored = None  # noqa: SLF001
    regexcache._fresh.clear()  # noqa: SLF001
    regexcache.compile(pattern)
    assert regexcache._stored == {}  # noqa: SLF001
    assert (pattern, 0) in regexcache._fresh  # noqa: SLF001


def test_caching_off_writes_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", "off")
    monkeypatch.setattr(regexcache, "_stored", None)
    monkeypatch.setattr(regexcache, "_fresh", {})
    assert regexcache.compile("x+y").fullmatch("xxy")
    assert regexcache.save() is False


def test_an_unwritable_cache_folder_costs_nothing_but_speed(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", str(blocker / "cache"))  # a folder under a file
    monkeypatch.setattr(regexcache, "_stored", None)
    monkeypatch.setattr(regexcache, "_fresh", {})
    assert regexcache.compile("q+").match("qq")
    assert regexcache.save() is False


def test_a_check_keeps_its_patterns_for_the_next_one(tmp_path) -> None:
    skill = tmp_path / "ws" / ".claude" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: Does a demo when asked for one.\n---\n\n"
                                    "Run [the script](scripts/run.sh).\n", encoding="utf-8")
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}
    run = [sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(tmp_path / "ws")]
    first = subprocess.run(run, env=env, capture_output=True, text=True)
    files = os.listdir(tmp_path / "cache")
    assert [f for f in files if f.startswith("regex-")], files
    second = subprocess.run(run, env=env, capture_output=True, text=True)
    assert (first.returncode, first.stdout) == (second.returncode, second.stdout)
    assert first.stdout and not second.stderr


def test_no_engine_module_compiles_a_pattern_at_import() -> None:
    """A module-level ``re.compile`` runs the pure-Python compiler on every start, kept patterns or not:
    three in harness/claude_plugin.py cost a one-skill check 3.5 M instructions (2.4 %). Patterns are
    ``lazy_re`` (the harness model, which imports nothing above it, compiles its own on first use)."""
    root = os.path.join(os.path.dirname(lazyre.__file__))
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    for n, line in enumerate(fh, 1):
                        if re.match(r"[A-Za-z_][\w, ]*=\s*re\.compile\(", line):
                            found.append(f"{os.path.relpath(path, root)}:{n}")
    assert found == []
