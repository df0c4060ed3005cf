"""Fixtures for the Neovim plugin tests; the harness is in nvim_harness.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from nvim_harness import Nvim, find_nvim, skip_or_fail


@pytest.fixture(scope="session")
def nvim_bin() -> str:
    path, why = find_nvim()
    if not path:
        skip_or_fail(why)
    assert path
    return path


@pytest.fixture
def make_nvim(
    nvim_bin: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., Nvim]]:
    started: list[Nvim] = []

    def make(
        workdir: Path, server_cmd: list[str], mode: str = "enable", settings: dict | None = None
    ) -> Nvim:
        nv = Nvim(nvim_bin, workdir, server_cmd, tmp_path_factory.mktemp("nvim"), mode, settings)
        started.append(nv)
        return nv

    yield make
    for nv in started:
        nv.close()
