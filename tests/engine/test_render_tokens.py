from __future__ import annotations

from skill_lsp.engine.tokens import estimate_tokens


def test_estimate_tokens_rule():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abc") == 1
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("技能") == 2
    assert estimate_tokens("ab技能😀") == 1 + 3
    # Two Cyrillic letters a token (cl100k gives Russian skills 0.46-0.55 a letter; unseen dex-it
    # skills of about 3,500 tokens were said to hold 5,700).
    assert estimate_tokens("Навык") == 3
    assert estimate_tokens("ab Навык 技") == 1 + 3 + 1
