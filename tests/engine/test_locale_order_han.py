"""Han and kana names in localeCompare order (activation.jsstr.locale_key), against Node's own ICU
on generated names: file and skill names mixing CJK Unified Ideographs, hiragana and katakana
(small, voiced), ASCII and punctuation."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

from helpers import require
from skill_lsp.engine.activation.jsstr import locale_key


def _node_sorted(node: str, names: set[str]) -> list[str]:
    """``names`` as Node's ``localeCompare`` orders them."""
    script = "const a = JSON.parse(require('fs').readFileSync(0, 'utf8')); " \
             "console.log(JSON.stringify(a.sort((x, y) => x.localeCompare(y))))"
    out = subprocess.run([node, "-e", script], input=json.dumps(sorted(names)), capture_output=True,
                         text=True, check=True, timeout=60).stdout
    return json.loads(out)


def test_han_names_sort_as_node_sorts_them() -> None:
    node = shutil.which("node")
    require(node, "node", ".ci/run installs Node (editors/ci-setup.sh)")
    r = random.Random(2026)
    pool = [chr(c) for c in range(0x4E00, 0xA000)]
    names = set()
    while len(names) < 600:
        n = "".join(r.choice(pool) for _ in range(r.randint(1, 4)))
        names.add(n + r.choice(["", ".md", "-x", "2"]) if r.random() < 0.5 else n)
    names |= {"柜台流通式债券报价.md", "柜台流通式债券最优报价.md", "readme.md", "一", "丁", "乙"}
    assert sorted(names, key=locale_key) == _node_sorted(str(node), names)


def test_kana_names_sort_as_node_sorts_them() -> None:
    """Claude Code lists folder names in localeCompare order (capture case listing-order-locale):
    katakana with the hiragana of the same sound, voiced marks and small kana breaking ties."""
    node = shutil.which("node")
    require(node, "node", ".ci/run installs Node (editors/ci-setup.sh)")
    r = random.Random(7)
    pool = [chr(c) for c in (*range(0x3041, 0x3097), *range(0x30A1, 0x30F7))] + list("abAB-_1")
    names = {"テスト", "のり", "がa", "かb"}
    while len(names) < 600:
        names.add("".join(r.choice(pool) for _ in range(r.randint(1, 4))))
    assert sorted(names, key=locale_key) == _node_sorted(str(node), names)


def test_kana_marks_sort_as_node_sorts_them() -> None:
    """The marks that repeat or lengthen a kana (々 ゝ ゞ ー ヽ ヾ) sort as symbols: Claude Code listed
    `サーバーレス…` before `サブカテゴリー…` (the seed-12 real-skill run)."""
    node = shutil.which("node")
    require(node, "node", ".ci/run installs Node (editors/ci-setup.sh)")
    r = random.Random(12)
    pool = [chr(c) for c in (*range(0x3041, 0x3097), *range(0x30A1, 0x30F7))] + list("々ゝゞーヽヾ") * 8 + list("aB-1")
    names = {"サーバーレス永続化", "サブカテゴリー分割", "さー", "サー", "サヽ", "さあ"}
    while len(names) < 800:
        names.add("".join(r.choice(pool) for _ in range(r.randint(1, 5))))
    assert sorted(names, key=locale_key) == _node_sorted(str(node), names)
