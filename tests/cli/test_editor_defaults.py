"""The editors' copies of engine lists (targets, default roots, setting keys) stay equal to the engine's.

Pure file checks: no editor is started. The VS Code extension and the Neovim plugin
cannot import Python, so they carry copies; these tests are what keeps them honest.
"""

from __future__ import annotations

import json
import re

from helpers import REPO
from skill_lsp.engine.config import _KEYS, DEFAULT_ROOTS
from skill_lsp.engine.harness import HARNESSES

VSCODE = REPO / "editors" / "vscode"
NVIM_CONFIG = REPO / "editors" / "nvim" / "lua" / "skill_lsp" / "config.lua"


def _lua_list(text: str, name: str) -> list[str]:
    body = re.search(rf"^M\.{name} = \{{(.*?)\}}", text, re.S | re.M)
    assert body is not None, name
    return re.findall(r"'([^']*)'", body.group(1))


def test_neovim_skill_roots_are_the_engine_default_roots():
    assert tuple(_lua_list(NVIM_CONFIG.read_text(encoding="utf-8"), "skill_roots")) == DEFAULT_ROOTS


def test_vscode_targets_are_the_harness_table():
    lib = (VSCODE / "src" / "lib.ts").read_text(encoding="utf-8")
    m = re.search(r"export const TARGETS: readonly string\[\] = \[(.*?)\];", lib, re.S)
    assert m is not None
    assert re.findall(r"'([^']*)'", m.group(1)) == list(HARNESSES)


def test_vscode_settings_offer_every_target_and_name_every_default_root():
    props = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    assert props["skillLsp.profile"]["enum"] == list(HARNESSES)
    assert len(props["skillLsp.profile"]["enumDescriptions"]) == len(HARNESSES)
    assert props["skillLsp.targets"]["items"]["enum"] == list(HARNESSES)
    assert props["skillLsp.targets"]["default"] == []
    described = props["skillLsp.roots"]["markdownDescription"]
    assert all(f"`{r}`" in described for r in DEFAULT_ROOTS)


def test_every_setting_the_extension_sends_is_one_the_server_reads():
    lib = (VSCODE / "src" / "lib.ts").read_text(encoding="utf-8")
    m = re.search(r"export const SERVER_SETTING_KEYS = \[(.*?)\] as const;", lib, re.S)
    assert m is not None
    keys = re.findall(r"'([^']*)'", m.group(1))
    assert "targets" in keys
    assert all(k in _KEYS for k in keys), [k for k in keys if k not in _KEYS]
