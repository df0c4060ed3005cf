"""Fixtures for the hardening suite: a small workspace and the raw stdio client."""

from __future__ import annotations

from pathlib import Path

import pytest

from .rawlsp import RawClient

GOOD = "---\nname: demo\ndescription: Does a thing. Use when testing.\n---\n\n# Demo\n\nSee [ref](references/guide.md).\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    skill = root / ".agents" / "skills" / "demo"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text(GOOD)
    (skill / "references" / "guide.md").write_text("# Guide\nline two\n")
    return root


@pytest.fixture
def demo_md(ws: Path) -> Path:
    return ws / ".agents" / "skills" / "demo" / "SKILL.md"


@pytest.fixture
def server(ws: Path, tmp_path: Path):
    client = RawClient(tmp_path)
    client.initialize(ws)
    yield client
    code = client.close()
    assert not client.violations, client.violations
    assert code is not None


def assert_hover_ok(client: RawClient, uri: str, timeout: float = 10.0) -> None:
    """The server still answers: hover on the `name` key of an open GOOD document describes the field."""
    res = client.hover(uri, 1, 1, timeout)
    assert "error" not in res, res
    value = res["result"]["contents"]["value"]
    assert "name" in value.lower(), value
