from __future__ import annotations

from skill_lsp.engine.tokens import estimate_tokens


def test_estimate_tokens_rule():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abc") == 1
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("技能") == 2
    assert estimate_tokens("ab技能😀") == 1 + 3
