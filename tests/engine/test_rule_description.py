"""How the description and name read (rules/description.py): angle brackets, a missing trigger
clause, first/second person, reserved and vague names -- code, severity per target, exact
range, message and data, and silence where nothing is wrong (issue 15)."""

from __future__ import annotations

import pytest

from helpers import check, codes, rng, skill_text
from skill_lsp.engine.findings import Severity, base_message

E, W, H = Severity.ERROR, Severity.WARNING, Severity.HINT

ANGLE_TAIL = ": Codex's and Anthropic's skill validators refuse '<' and '>', and the Claude API refuses XML tags"
PERSON_TAIL = ("; write it in the third person (\"Extracts ...\", \"Use when ...\"): it is read inside the "
               "model's own prompt")
NO_TRIGGER = ("description says what the skill does but not when to use it; add a clause such as \"Use when ...\" "
              "(the model picks skills by this text)")


def found(description: str, code: str, *, profile: str = "skill-tool", name: str = "deploy", folder: str | None = None,
          extra: str = ""):
    doc, fs = check(skill_text(name=name, description=description, extra=extra), folder=folder or name,
                    profile=profile)
    return doc, [f for f in fs if f.code == code]


def span(doc, f) -> str:
    return doc.text[f.start:f.end]


# --------------------------------------------------------------------- angle brackets


def test_an_xml_tag_is_named_and_spanned():
    doc, fs = found("Formats <b>bold</b> text in notes. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS",
                    profile="agentskills")
    [f] = fs  # the first tag only
    assert f.severity is W
    assert base_message(f) == "description contains an XML-like tag <b>" + ANGLE_TAIL
    assert rng(doc, f) == ((2, 21), (2, 24))
    assert f.data == {"text": "<b>"}


@pytest.mark.parametrize("description, shown, start", [
    ("Compares a < b values. Use when asked.", "<", 24),
    ("Formats a -> b arrows. Use when asked.", ">", 24),
    ("Formats a >= b checks and a <tag. Use when asked.", ">", 23),
    ("Keeps <3 hearts out. Use when asked.", "<", 19),
])
def test_a_lone_bracket_is_quoted(description, shown, start):
    doc, [f] = found(description, "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert f.severity is Severity.INFO  # Codex's skill-creator validator refuses it; Codex itself lists it
    assert base_message(f) == f"description contains '{shown}'" + ANGLE_TAIL
    assert rng(doc, f) == ((2, start), (2, start + 1))
    assert f.data == {"text": shown}


@pytest.mark.parametrize("tag", ["<br/>", "</div>", "<ns:item id=1>", "<my-tag>"])
def test_tag_shapes(tag):
    doc, [f] = found(f"Cleans {tag} markup. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert f.data == {"text": tag} and span(doc, f) == tag


@pytest.mark.parametrize("profile", ["skill-tool", "claude-code", "opencode", "gemini", "copilot"])
def test_brackets_are_silent_where_no_validator_of_the_target_refuses_them(profile):
    # Two held-out audits: 23 of 24 such hints were usage placeholders in skills no validator sees.
    assert found("Opens `/capture <url>` notes. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS", profile=profile)[1] == []


def test_a_repeated_tag_or_bracket_is_spanned_at_its_first_place():
    doc, [f] = found("Wraps <b> and <b> again. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert rng(doc, f) == ((2, 19), (2, 22))
    doc, [f] = found("Maps a -> b -> c. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert rng(doc, f) == ((2, 21), (2, 22))


def test_a_tag_opening_the_value_is_spanned_exactly():
    doc, [f] = found("<b>Bold</b> formatter for notes. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS",
                     profile="codex")
    assert rng(doc, f) == ((2, 13), (2, 16))


def test_a_tag_written_with_escapes_spans_the_whole_value():
    doc, [f] = found('"Emits \\x3ctag\\x3e markers. Use when asked."', "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert f.data == {"text": "<tag>"}
    assert rng(doc, f) == ((2, 13), (2, 57))


def test_a_tag_folded_over_two_lines_spans_the_whole_value():
    doc, [f] = found(">\n  Formats <a\n  href=x> links in notes.\n  Use when asked.", "DESCRIPTION_ANGLE_BRACKETS",
                     profile="codex")
    assert f.data == {"text": "<a href=x>"}
    assert rng(doc, f) == ((2, 13), (6, 0))


@pytest.mark.parametrize("header", [">", "|", ">-"])
def test_a_bracket_in_a_block_scalar_is_spanned_in_the_text_not_at_the_indicator(header):
    doc, [f] = found(f"{header}\n  Maps a -> b. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS", profile="codex")
    assert f.data == {"text": ">"}
    assert rng(doc, f) == ((3, 10), (3, 11))


def test_no_brackets_no_finding():
    assert found("Formats bold text in notes. Use when asked.", "DESCRIPTION_ANGLE_BRACKETS",
                 profile="codex")[1] == []


# --------------------------------------------------------------------- trigger clause


@pytest.mark.parametrize("profile", ["agentskills", "claude-code"])
def test_an_eight_word_description_without_a_trigger_is_a_hint_over_the_whole_value(profile):
    doc, [f] = found("Orchestrates Terraform Cloud runs through the TFC API.", "DESCRIPTION_NO_TRIGGER",
                     profile=profile)
    assert f.severity is H
    assert base_message(f) == NO_TRIGGER
    assert rng(doc, f) == ((2, 13), (2, 67))
    assert f.data is None or set(f.data) <= {"harnesses"}


@pytest.mark.parametrize("profile", ["skill-tool", "dsh", "codex", "opencode"])
def test_the_trigger_hint_is_off_where_no_target_asks_for_it(profile):
    assert found("Orchestrates Terraform Cloud runs through the TFC API.", "DESCRIPTION_NO_TRIGGER",
                 profile=profile)[1] == []


def test_seven_words_are_a_stub_and_not_judged():
    assert found("Orchestrates Terraform Cloud runs through the API.", "DESCRIPTION_NO_TRIGGER",
                 profile="agentskills")[1] == []


@pytest.mark.parametrize("description", [
    "Drafts release notes from merged pull requests for each sprint—when a tag is pushed.",
    "Drafts release notes from merged pull requests, triggered by a pushed tag.",
    "Drafts release notes from merged pull requests (upon a pushed tag).",
    "Drafts release notes from merged pull requests; use it for every tag.",
    "Drafts release notes from merged pull requests. Applies to every pushed tag.",
    "Drafts release notes from merged pull requests if the user pushes a tag.",
    "Drafts release notes from merged pull requests whenever a tag is pushed.",
    "Drafts release notes from merged pull requests; activated by tags.",
    # The clause in Japanese, Chinese, Korean (unseen Fandhe-AI/agent-reference-skills).
    "Markdown チェックリスト から アイテム を 一括作成 する。「タスクをプロジェクトに追加」 などで使用。",
    "从 合并的 拉取请求 起草 发布说明 ， 用于 每次 推送 标签 的 场景 。",
    "병합된 풀 리퀘스트 에서 릴리스 노트 를 작성 하며 태그 를 푸시할 때 사용 합니다 .",
    # In German, Spanish and French (unseen AlltagshilfeFischer/alltagshilfe_fischer_portal).
    "Budget- und Abrechnungslogik der Alltagshilfe. Laden wenn Abrechnung oder Budget relevant sind.",
    "Redacta notas de versión a partir de pull requests fusionados cuando se publica una etiqueta.",
    "Rédige les notes de version des pull requests fusionnées lorsque une étiquette est poussée.",
    # In Russian (unseen dex-it/claude-code-marketplace).
    "Паттерны предметно-ориентированного проектирования для сервисов. Активируется при проектировании агрегатов.",
    "Составляет заметки о выпуске из слитых запросов. Используй для каждого нового тега в репозитории.",
    # Korean "activated on requests such as …", Chinese "its two uses: …" (unseen16 k-codepoet,
    # lazygophers), and phrases a user would say, quoted one after another (unseen16).
    "새 훅 생성 및 설정 파일 작성 도구 . \"훅 만들기\", \"new hook\" 등 요청 시 활성화 .",
    "开源 协议 选择 与 合规 决策 框架 。 两类用途 ， 为 自己 项目 选 License 、 审查 依赖 。",
    'Cross-platform essential development packages installation for every machine. "install packages", "essential packages".',
    # Japanese "invoked by …", phrases in corner brackets, "use as" and "use any time" (unseen17
    # suwa-sh, ohmyhotelco).
    "RDRA モデル から 非機能要求 グレード を 推論 する スキル 。 「非機能要求を整理」「NFRグレードを作成」 などで発動 。",
    "要件定義 の 差分 を 反映 する パイプライン スキル で あり 、 「差分で要件更新」「変更要望を反映」 を 受け付ける 。",
    "Use as Phase 0 security pre-work: inventory the secrets read from the legacy environment files.",
    "Use any time to see migration progress, a read-only dashboard of every page and its gates.",
])
def test_trigger_clauses_in_their_forms_silence_the_hint(description):
    assert found(description, "DESCRIPTION_NO_TRIGGER", profile="claude-code")[1] == []


@pytest.mark.parametrize("extra", ["when_to_use: a tag is pushed", "whenToUse: a tag is pushed"])
def test_a_separate_when_to_use_field_silences_the_hint(extra):
    assert found("Drafts release notes from merged pull requests for every sprint.", "DESCRIPTION_NO_TRIGGER",
                 profile="claude-code", extra=extra)[1] == []


def test_a_skill_only_the_user_invokes_needs_no_trigger():
    """`disable-model-invocation: true`: the model never picks it by its description."""
    assert found("Drafts release notes from merged pull requests for every sprint.", "DESCRIPTION_NO_TRIGGER",
                 profile="claude-code", extra="disable-model-invocation: true")[1] == []
    assert len(found("Drafts release notes from merged pull requests for every sprint.", "DESCRIPTION_NO_TRIGGER",
                     profile="claude-code", extra="disable-model-invocation: false")[1]) == 1


def test_a_description_block_without_a_trigger_is_spanned_to_its_end():
    doc, [f] = found("|\n  Drafts release notes from merged pull\n  requests for every sprint.",
                     "DESCRIPTION_NO_TRIGGER", profile="agentskills")
    assert rng(doc, f) == ((2, 13), (5, 0))


# --------------------------------------------------------------------- person


@pytest.mark.parametrize("description, word, start", [
    ("Converts files. I'll help when asked.", "I'll", 29),
    ("Converts files. Use when I am asked.", "I am", 38),
    ("I can help you convert spreadsheets. Use when a CSV arrives.", "I can", 13),
    ("Converts files I generate. Use when asked.", "I generate", 28),
])
def test_first_person(description, word, start):
    doc, [f] = found(description, "DESCRIPTION_PERSON")
    assert f.severity is H
    assert base_message(f) == f"description speaks in the first person ('{word}')" + PERSON_TAIL
    assert rng(doc, f) == ((2, start), (2, start + len(word)))
    assert f.data == {"text": word}


@pytest.mark.parametrize("description, word, start", [
    ("Makes posters. You should use this skill when a poster is needed.", "You should", 28),
    ("You will get a poster. Use when asked.", "You will", 13),
    ("Makes posters! You must ask first. Use when asked.", "You must", 28),
    ("Makes posters? You may. Use when asked.", "You may", 28),
])
def test_second_person_at_a_sentence_start(description, word, start):
    doc, [f] = found(description, "DESCRIPTION_PERSON", profile="agentskills")
    assert base_message(f) == f"description speaks in the second person ('{word}')" + PERSON_TAIL
    assert rng(doc, f) == ((2, start), (2, start + len(word)))
    assert f.data == {"text": word}


def test_a_repeated_person_word_is_spanned_at_its_first_place():
    doc, [f] = found("Converts files. I can merge them and I can split them. Use when asked.", "DESCRIPTION_PERSON")
    assert rng(doc, f) == ((2, 29), (2, 34))


def test_a_person_word_folded_over_two_lines_spans_the_whole_value():
    doc, [f] = found(">\n  Makes posters. You\n  can use it for banners too.", "DESCRIPTION_PERSON")
    assert f.data == {"text": "You can"}
    assert rng(doc, f) == ((2, 13), (5, 0))


def test_the_skills_own_voice_is_found_after_quoted_speech():
    doc, [f] = found("Use when asked 'I can't find it'. I can search files.", "DESCRIPTION_PERSON")
    assert f.data == {"text": "I can"} and rng(doc, f) == ((2, 47), (2, 52))


@pytest.mark.parametrize("description", [
    'Converts files when the user says "I need a PDF".',  # the user speaking
    # Quoted trigger phrases and example dialogues (held-out and fetched repositories).
    "Use when the user says 'I'm stuck on', 'unblock', or 'what content should I create'.",
    'Use when asked, as in "I\'ll use docs-js to look it up" or “I am on it”.',
    "|\n  Looks up docs.\n\n  <example>\n  user: How do I start?\n  assistant: I'll use /x.\n  </example>",
    # A quoted phrase a block scalar wraps over two lines (unseen17 microsoft/cat-agent-skills).
    '|\n  Writes talk tracks. Use when the user says "write a script", "I\'m presenting slides X-Y, what\n'
    '  should I say", or "create a presenter script".',
    "Converts files so You can read them. Use when asked.",  # not at a sentence start
    "Converts files. Use when asked; Iam not a word.",
    "Converts files. Use when IT asks.",
])
def test_no_person_finding(description):
    doc, fs = found(description, "DESCRIPTION_PERSON")
    assert doc.frontmatter_ok and fs == []


# --------------------------------------------------------------------- reserved and vague names


@pytest.mark.parametrize("name, word", [("claude", "claude"), ("claude-notes", "claude"),
                                        ("my_anthropic_tool", "anthropic"), ('"Claude Notes"', "claude"),
                                        ("anthropic-claude", "anthropic")])
def test_reserved_words_as_a_part_of_the_name(name, word):
    doc, [f] = found("Converts files. Use when asked.", "RESERVED_NAME_WORD", name=name, folder="x")
    assert f.severity is H
    assert base_message(f) == (f"name contains the reserved word '{word}': skills uploaded to the Claude API or "
                               "claude.ai may not use 'anthropic' or 'claude' in their name")
    assert f.data == {"word": word}
    assert rng(doc, f) == ((1, 6), (1, 6 + len(name)))


@pytest.mark.parametrize("name", ["claudette", "anthropics-notes", "notes"])
def test_names_that_only_contain_the_letters_are_not_reserved(name):
    assert found("Converts files. Use when asked.", "RESERVED_NAME_WORD", name=name)[1] == []


@pytest.mark.parametrize("name, shown", [("general", "general"), ("misc_utils", "misc_utils"),
                                         ('" Tools "', "Tools"), ("helper-tools", "helper-tools"),
                                         ("Data Files", "Data Files")])
def test_vague_names(name, shown):
    doc, [f] = found("Converts files. Use when asked.", "VAGUE_NAME", name=name, folder="x")
    assert f.severity is H
    assert base_message(f) == (f"name '{shown}' says little about what the skill does; name the task "
                               "(e.g. processing-pdfs, reviewing-migrations)")
    assert rng(doc, f) == ((1, 6), (1, 6 + len(name)))


@pytest.mark.parametrize("name", ["pdf-tools", "data-pipeline", "tool-builder"])
def test_a_vague_word_beside_a_task_is_fine(name):
    assert found("Converts files. Use when asked.", "VAGUE_NAME", name=name)[1] == []


def test_empty_or_missing_values_are_left_to_the_field_rules():
    _, fs = check('---\nname: ""\ndescription: ""\n---\n', profile="agentskills")
    assert codes(fs) == ["EMPTY_FIELD", "EMPTY_FIELD"]
    _, fs = check('---\nname: "  "\ndescription: "  "\n---\n', profile="agentskills")
    assert set(codes(fs)) == {"EMPTY_FIELD"}
