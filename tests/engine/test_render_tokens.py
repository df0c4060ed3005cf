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


def test_cyrillic_letters_are_those_of_u0400_to_u052f_whatever_surrounds_them():
    # The count reads UTF-8 lead bytes: the block's edges and its neighbours (Greek U+03FF, Armenian
    # U+0530 and U+0531, which share U+052F's lead byte) against the rule written out.
    import random

    def by_rule(text: str) -> int:
        ascii_chars = sum(c < "\x80" for c in text)
        cyrillic = sum("\u0400" <= c <= "\u052f" for c in text)
        return -(-ascii_chars // 4) + -(-cyrillic // 2) + len(text) - ascii_chars - cyrillic

    alphabet = "ab \n\u03ff\u0400\u04ff\u0500\u052f\u0530\u0531\u0600技😀\ud800"
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert estimate_tokens(text) == by_rule(text), ascii(text)
