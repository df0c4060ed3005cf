"""The skill tool contract (spec §2, §3, §5-§9, §12, §13.1) against SkillRecords built in tmp_path."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from skill_lsp.engine.activation import (
    KNOWN_PARAM_ALIASES,
    AlreadyLoadedResult,
    ErrorResult,
    NotFoundResult,
    OkResult,
    SessionConfig,
    SkillRecord,
    SkillSession,
    ToolError,
    build_catalog,
    list_resources,
    normalize_allowed_tools,
    substitute_arguments,
    suggest_siblings,
    validate_params,
)

# --------------------------------------------------------------------------- helpers


def make_record(
    root: Path,
    folder: str,
    frontmatter: dict | None = None,
    body: str = "\n# Body\n",
    *,
    fm_text: str | None = None,
    root_index: int = 0,
    error: tuple[str, str] | None = None,
    name: str | None = None,
    write: bool = True,
) -> SkillRecord:
    if frontmatter is None:
        frontmatter = {"name": folder, "description": f"The {folder} skill."}
    skill_dir = root / folder
    if write:
        skill_dir.mkdir(parents=True, exist_ok=True)
        text = (
            fm_text
            if fm_text is not None
            else "\n".join(f"{k}: {v}" for k, v in frontmatter.items())
        )
        (skill_dir / "SKILL.md").write_bytes(f"---\n{text}\n---{body}".encode())
    fm_name = frontmatter.get("name")
    return SkillRecord(
        name=name or (fm_name if isinstance(fm_name, str) and fm_name else folder),
        folder=folder,
        dir=str(skill_dir),
        path=str(skill_dir / "SKILL.md"),
        root_index=root_index,
        root=str(root),
        frontmatter=frontmatter,
        body=body,
        error=error,
    )


def session(records, **kw) -> SkillSession:
    """Trusted roots + the unsafe no-hook escape unless a test overrides them."""
    kw.setdefault("unsafe_allow_skill_without_hook", True)
    kw.setdefault("trusted_roots", sorted({r.root for r in records}))
    return SkillSession(records, SessionConfig(**kw))


def expect_error(result) -> ErrorResult:
    assert isinstance(result, ErrorResult), f"expected error, got {result!r}"
    assert result.output == f"Error [{result.code}]: {result.message}"
    return result


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "skills"
    r.mkdir()
    return r


# --------------------------------------------------------------------------- §13.1


def test_13_1_item_01_empty_name_invalid_param(root):
    e = expect_error(session([]).activate({"name": ""}))
    assert e.code == "INVALID_PARAM"
    assert (
        e.message
        == "name must not be empty; name must be lowercase-kebab-case (/^[a-z0-9]+(-[a-z0-9]+)*$/)"
    )


def test_13_1_item_02_non_kebab_name_invalid_param(root):
    for bad in ("MySkill", "my_skill", "-a", "a--b", "a-", "café"):
        e = expect_error(session([]).activate({"name": bad}))
        assert e.code == "INVALID_PARAM"
        assert e.message == "name must be lowercase-kebab-case (/^[a-z0-9]+(-[a-z0-9]+)*$/)"


def test_13_1_item_03_name_over_64_chars_invalid_param(root):
    e = expect_error(session([]).activate({"name": "a" * 65}))
    assert e.code == "INVALID_PARAM"
    assert e.message == "name exceeds 64 chars"
    assert isinstance(session([]).activate({"name": "a" * 64}), NotFoundResult)


def test_13_1_item_04_unknown_name_not_found_with_siblings(root):
    records = [
        make_record(root, "tweet-thread"),
        make_record(root, "joi"),
        make_record(root, "tweet-threader"),
    ]
    r = session(records).activate({"name": "tweet-threads"})
    assert isinstance(r, NotFoundResult)
    assert r.siblings == ("tweet-thread", "tweet-threader")
    assert r.output == (
        '(No skill matches "tweet-threads". Did you mean: tweet-thread, tweet-threader? '
        "Run with a listed name from the catalog.)"
    )
    r2 = session(records).activate({"name": "zzzzzz"})
    assert isinstance(r2, NotFoundResult) and r2.siblings == ()
    assert r2.output == '(No skill matches "zzzzzz". Check the catalog for installed skill names.)'


def test_13_1_item_05_alias_pushback_invalid_param(root):
    s = session([make_record(root, "foo")])
    e = expect_error(s.activate({"skill_name": "foo"}))
    assert e.code == "INVALID_PARAM"
    assert e.message == "unknown parameter 'skill_name'. Use 'name' instead."
    e = expect_error(s.activate({"name": "foo", "params": "x"}))
    assert e.message == "unknown parameter 'params'. Use 'arguments' instead."
    e = expect_error(s.activate({"name": "foo", "reload": True}))
    assert e.message == (
        "unknown parameter 'reload'. Skills load once per session; edit the skill file and restart the session to refresh."
    )
    assert s.activated == {}


def test_13_1_item_06_name_mismatch(root):
    rec = make_record(
        root,
        "bar",
        {"name": "foo", "description": "x"},
        error=(
            "NAME_MISMATCH",
            'frontmatter \'name\' ("foo") does not match the skill directory ("bar")',
        ),
    )
    assert rec.name == "foo"
    # The reference registry keys a rejected skill by its folder (its test activates "bar").
    assert session([rec]).activate({"name": "foo"}).kind == "not_found"
    e = expect_error(session([rec]).activate({"name": "bar"}))
    assert e.code == "NAME_MISMATCH"
    assert e.output == (
        'Error [NAME_MISMATCH]: skill "bar": frontmatter \'name\' ("foo") does not match the skill directory ("bar")'
    )
    assert e.error.meta["path"] == rec.path


def test_13_1_item_07_malformed_yaml_invalid_frontmatter(root):
    rec = make_record(
        root,
        "foo",
        {},
        fm_text="name foo\ndescription: x",
        error=("INVALID_FRONTMATTER", "expected 'key: value' on line 1"),
    )
    assert rec.name == "foo" and rec.frontmatter == {}
    e = expect_error(session([rec]).activate({"name": "foo"}))
    assert e.code == "INVALID_FRONTMATTER"
    assert e.message == "skill \"foo\": expected 'key: value' on line 1"


def test_13_1_item_08_missing_description_invalid_frontmatter(root):
    rec = make_record(
        root,
        "foo",
        {"name": "foo"},
        error=("INVALID_FRONTMATTER", "frontmatter missing required field 'description'"),
    )
    e = expect_error(session([rec]).activate({"name": "foo"}))
    assert (
        e.output
        == "Error [INVALID_FRONTMATTER]: skill \"foo\": frontmatter missing required field 'description'"
    )


def test_13_1_item_09_unknown_field_hooks_preserved(root):
    fm = {"name": "foo", "description": "x", "hooks": {"PreToolUse": "echo hi"}}
    r = session([make_record(root, "foo", fm)]).activate({"name": "foo"})
    assert isinstance(r, OkResult)
    assert r.frontmatter["hooks"] == {"PreToolUse": "echo hi"}
    assert 'hooks:\n  PreToolUse: "echo hi"' in r.output


def test_13_1_item_10_dotdot_escape_outside_workspace(tmp_path, root):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    real = make_record(outside, "foo")
    escaped = SkillRecord(
        name="foo",
        folder="foo",
        dir=str(root / ".." / "elsewhere" / "foo"),
        path=str(root / ".." / "elsewhere" / "foo" / "SKILL.md"),
        root_index=0,
        root=str(root),
        frontmatter=real.frontmatter,
        body=real.body,
    )
    e = expect_error(session([escaped], workspace_roots=[str(root)]).activate({"name": "foo"}))
    assert e.code == "OUTSIDE_WORKSPACE"
    assert e.message == f"Skill directory is outside all configured workspace roots: {escaped.dir}"
    # Symlinked skill dir pointing out of the root: also fenced.
    os.symlink(outside / "foo", root / "linked")
    linked = make_record(root, "linked", real.frontmatter | {"name": "linked"}, write=False)
    e = expect_error(session([linked]).activate({"name": "linked"}))
    assert e.code == "OUTSIDE_WORKSPACE"
    # Discovery may already have flagged it: the record error is returned as is.
    flagged = make_record(root, "bar", error=("OUTSIDE_WORKSPACE", ""))
    e = expect_error(session([flagged]).activate({"name": "bar"}))
    assert e.message == f"Skill directory is outside all configured workspace roots: {flagged.dir}"


def test_13_1_item_11_sensitive_pattern_without_hook(root):
    rec = make_record(root / ".env", "foo")
    cfg = {"workspace_roots": [str(root)], "sensitive_patterns": ["**/.env/**"]}
    e = expect_error(session([rec], **cfg).activate({"name": "foo"}))
    assert e.code == "SENSITIVE"
    assert e.message == f"Refusing to activate skill in sensitive path: {rec.dir}"
    # With a hook the hook decides (and is told).
    seen = []
    s = session([rec], permission_hook=lambda req: seen.append(req) or "allow", **cfg)
    assert isinstance(s.activate({"name": "foo"}), OkResult)
    assert seen[0].metadata["sensitive"] is True
    rec2 = make_record(root, "secrets-skill")
    e = expect_error(
        session([rec2], sensitive_patterns=["**/secrets-*"]).activate({"name": "secrets-skill"})
    )
    assert e.code == "SENSITIVE"


def test_13_1_item_12_disable_model_invocation_from_model_disabled(root):
    rec = make_record(
        root, "foo", {"name": "foo", "description": "x", "disable-model-invocation": True}
    )
    e = expect_error(session([rec]).activate({"name": "foo"}))
    assert e.code == "DISABLED"
    assert (
        e.message
        == 'skill "foo" has disable-model-invocation: true; only user-initiated activation is allowed'
    )


def test_13_1_item_13_disable_model_invocation_user_initiated_ok(root):
    rec = make_record(
        root, "foo", {"name": "foo", "description": "x", "disable-model-invocation": True}
    )
    assert isinstance(session([rec]).activate({"name": "foo"}, user_initiated=True), OkResult)


def test_13_1_item_14_untrusted_project_skill_no_hook_not_trusted(root):
    rec = make_record(root, "foo")
    s = SkillSession([rec], SessionConfig())
    e = expect_error(s.activate({"name": "foo"}))
    assert e.code == "NOT_TRUSTED"
    assert e.message == "untrusted project skill; no permission hook is configured to review it"
    # A hook that denies also gives NOT_TRUSTED for an untrusted skill.
    e = expect_error(
        SkillSession([rec], permission_hook=lambda req: "deny").activate({"name": "foo"})
    )
    assert e.code == "NOT_TRUSTED"
    assert (
        e.message == "skill activation blocked by permission policy. Pattern hint: Skill(name:foo)"
    )


def test_13_1_item_15_untrusted_with_unsafe_allow_without_hook_ok(root):
    rec = make_record(root, "foo")
    s = SkillSession([rec], SessionConfig(unsafe_allow_skill_without_hook=True))
    assert isinstance(s.activate({"name": "foo"}), OkResult)


def test_13_1_item_16_first_activation_ok_body_in_output(root):
    fm = {
        "name": "api-conventions",
        "description": "Use when designing HTTP APIs. Covers naming.",
        "allowed-tools": "Read, Grep, Bash(git log:*)",
        "metadata": {"owner": "platform-team"},
        "disable-model-invocation": False,
    }
    body = "\n# API Conventions\n\nUse plural nouns.\n"
    rec = make_record(root, "api-conventions", fm, body)
    (root / "api-conventions" / "scripts").mkdir()
    (root / "api-conventions" / "scripts" / "audit.py").write_text("print(1)")
    (root / "api-conventions" / "references").mkdir()
    (root / "api-conventions" / "references" / "error-schema.md").write_text("x")
    r = session([rec]).activate({"name": "api-conventions"})
    assert isinstance(r, OkResult) and r.kind == "ok"
    d = rec.dir
    assert r.output == (
        f'<skill name="api-conventions" dir="{d}">\n'
        "<frontmatter>\n"
        "name: api-conventions\n"
        'description: "Use when designing HTTP APIs. Covers naming."\n'
        'allowed-tools: [Read, Grep, "Bash(git log:*)"]\n'
        "metadata:\n"
        "  owner: platform-team\n"
        "disable-model-invocation: false\n"
        "</frontmatter>\n"
        "<instructions>\n"
        "\n# API Conventions\n\nUse plural nouns.\n"
        "\n</instructions>\n"
        "<resources>\n"
        "scripts/audit.py\n"
        "references/error-schema.md\n"
        "</resources>\n"
        "</skill>\n"
        f'(Skill "api-conventions" activated. Body is 38 bytes. Scripts available via bash({d}/scripts/<name>). '
        f"References via read({d}/references/<name>).)"
    )
    assert r.bytes == len(body.encode()) == 38
    assert (
        r.body == body
        and r.dir == d
        and r.resources == ("scripts/audit.py", "references/error-schema.md")
    )
    assert r.allowed_tools == ("Read", "Grep", "Bash(git log:*)")


def test_13_1_item_17_second_activation_already_loaded(root):
    s = session([make_record(root, "foo")])
    first = s.activate({"name": "foo"}, turn=3)
    assert isinstance(first, OkResult)
    second = s.activate({"name": "foo"}, turn=7)
    assert isinstance(second, AlreadyLoadedResult) and second.kind == "already_loaded"
    assert second.at_turn == 3
    assert second.output == (
        '(Skill "foo" is already active in this session. Body was loaded at turn 3. No new content was added.)'
    )
    s2 = session([make_record(root, "bar")])
    s2.activate({"name": "bar"})
    assert s2.activate({"name": "bar"}).output == (
        '(Skill "bar" is already active in this session. No new content was added.)'
    )
    # Dedupe comes before lookup and gating (reference order), by name.
    assert s2.activated == {"bar": None}


def test_13_1_item_18_string_arguments_substituted(root):
    rec = make_record(
        root, "foo", body="\nrun: $ARGUMENTS first=$1 second=$ARGUMENTS[1] missing=$3\n"
    )
    r = session([rec]).activate({"name": "foo", "arguments": "path/to/x  --fix"})
    assert isinstance(r, OkResult)
    assert r.body == "\nrun: path/to/x  --fix first=path/to/x second=--fix missing=$3\n"
    assert r.raw_body == rec.body
    assert r.bytes == len(r.body.encode())


def test_13_1_item_19_object_arguments_with_declaration_substituted(root):
    fm = {"name": "foo", "description": "x", "arguments": {"path": {"type": "string"}}}
    rec = make_record(root, "foo", fm, body="target=${path} all=$ARGUMENTS other=${nope}")
    r = session([rec]).activate({"name": "foo", "arguments": {"path": "/tmp/x", "mode": "fast"}})
    assert isinstance(r, OkResult)
    assert r.body == "target=/tmp/x all=mode=fast path=/tmp/x other=${nope}"


def test_13_1_item_20_object_arguments_without_declaration_invalid_param(root):
    e = expect_error(
        session([make_record(root, "foo")]).activate({"name": "foo", "arguments": {"x": "y"}})
    )
    assert e.code == "INVALID_PARAM"
    assert (
        e.message
        == "skill \"foo\" does not declare named arguments; pass 'arguments' as a string or omit it"
    )


def test_13_1_item_21_string_arguments_with_declaration_invalid_param(root):
    fm = {"name": "foo", "description": "x", "arguments": {"path": {"type": "string"}}}
    e = expect_error(
        session([make_record(root, "foo", fm)]).activate({"name": "foo", "arguments": "ignored"})
    )
    assert e.code == "INVALID_PARAM"
    assert e.message == 'skill "foo" declares named arguments; pass them as an object, not a string'


def test_13_1_item_22_resources_listed(root):
    rec = make_record(root, "foo")
    for folder, name in (
        ("scripts", "b.sh"),
        ("scripts", "a.py"),
        ("references", "r.md"),
        ("assets", "t.txt"),
    ):
        (root / "foo" / folder).mkdir(exist_ok=True)
        (root / "foo" / folder / name).write_text("secret contents")
    r = session([rec]).activate({"name": "foo"})
    assert isinstance(r, OkResult)
    assert r.resources == ("scripts/a.py", "scripts/b.sh", "references/r.md", "assets/t.txt")
    assert (
        "<resources>\nscripts/a.py\nscripts/b.sh\nreferences/r.md\nassets/t.txt\n</resources>"
        in r.output
    )
    assert "secret contents" not in r.output


def test_13_1_item_23_more_than_10_resources_marker(root):
    rec = make_record(root, "foo")
    (root / "foo" / "scripts").mkdir()
    for i in range(13):
        (root / "foo" / "scripts" / f"s{i:02d}.sh").write_text("")
    r = session([rec]).activate({"name": "foo"})
    assert isinstance(r, OkResult)
    assert r.resources == tuple(f"scripts/s{i:02d}.sh" for i in range(10)) + (
        "scripts/(... 3 more)",
    )


def test_13_1_item_24_hook_deny_permission_denied(root):
    rec = make_record(root, "foo")
    s = SkillSession([rec], trusted_roots=[str(root)], permission_hook=lambda req: "deny")
    e = expect_error(s.activate({"name": "foo"}))
    assert e.code == "PERMISSION_DENIED"
    assert (
        e.message == "skill activation blocked by permission policy. Pattern hint: Skill(name:foo)"
    )
    e = expect_error(SkillSession([rec], trusted_roots=[str(root)]).activate({"name": "foo"}))
    assert e.code == "PERMISSION_DENIED"
    assert e.message.startswith(
        "skill tool has no permission hook configured; refusing to activate untrusted skills."
    )


def test_13_1_item_25_hook_ask_treated_as_deny(root):
    rec = make_record(root, "foo")
    s = SkillSession([rec], trusted_roots=[str(root)], permission_hook=lambda req: "ask")
    e = expect_error(s.activate({"name": "foo"}))
    assert e.code == "PERMISSION_DENIED"
    assert e.message == (
        "permission hook returned 'ask' but skill runs in autonomous mode. Configure the hook to return allow or deny."
    )
    assert s.activated == {}


def test_13_1_item_26_allowed_tools_string_form(root):
    assert normalize_allowed_tools("Read, Grep") == ["Read", "Grep"]
    assert normalize_allowed_tools("Read Grep,  Bash(git log:*) Bash(jq:*)") == [
        "Read",
        "Grep",
        "Bash(git log:*)",
        "Bash(jq:*)",
    ]
    rec = make_record(
        root, "foo", {"name": "foo", "description": "x", "allowed-tools": "Read, Grep"}
    )
    r = session([rec]).activate({"name": "foo"})
    assert isinstance(r, OkResult)
    assert r.frontmatter["allowed-tools"] == ["Read", "Grep"]
    assert rec.frontmatter["allowed-tools"] == "Read, Grep"  # the record is not mutated


def test_13_1_item_27_allowed_tools_array_form(root):
    rec = make_record(
        root, "foo", {"name": "foo", "description": "x", "allowed-tools": ["Read", "Bash(git:*)"]}
    )
    r = session([rec]).activate({"name": "foo"})
    assert isinstance(r, OkResult)
    assert r.allowed_tools == ("Read", "Bash(git:*)")
    assert 'allowed-tools: [Read, "Bash(git:*)"]' in r.output


def test_13_1_item_28_name_collision_project_shadows_user(tmp_path):
    project, user = tmp_path / "project", tmp_path / "user"
    p = make_record(project, "foo", {"name": "foo", "description": "project"}, root_index=0)
    u = make_record(user, "foo", {"name": "foo", "description": "user"}, root_index=1)
    s = session([u, p])
    (entry,) = s.catalog
    assert entry.dir == p.dir and entry.description == "project" and entry.shadowed == (u.dir,)
    r = s.activate({"name": "foo"})
    assert isinstance(r, OkResult) and r.dir == p.dir and r.shadowed == (u.dir,)


def test_13_1_item_28b_invalid_record_never_displaces_valid(tmp_path):
    project, user = tmp_path / "project", tmp_path / "user"
    good = make_record(user, "foo", root_index=1)
    bad = make_record(
        project,
        "foo",
        {},
        root_index=0,
        error=("INVALID_FRONTMATTER", "frontmatter missing required field 'name'"),
    )
    s = session([good, bad])
    assert s.catalog[0].dir == good.dir and s.catalog[0].shadowed == (bad.dir,)
    assert isinstance(s.activate({"name": "foo"}), OkResult)


def test_13_1_item_29_broken_dir_without_skill_md_omitted(root):
    (root / "not-a-skill").mkdir()
    real = make_record(root, "real")
    s = session([real])  # discovery produced no record for not-a-skill
    assert [e.name for e in s.catalog] == ["real"]
    assert isinstance(s.activate({"name": "not-a-skill"}), NotFoundResult)
    assert isinstance(s.activate({"name": "real"}), OkResult)


def test_13_1_item_30_crlf_body_byte_exact(root):
    body = "\r\n# Title\r\n\r\nDo $1.\r\n"
    rec = make_record(root, "foo", body=body)
    r = session([rec]).activate({"name": "foo", "arguments": "it"})
    assert isinstance(r, OkResult)
    assert r.body == "\r\n# Title\r\n\r\nDo it.\r\n"  # CRLF kept (spec §12 over the reference)
    assert r.bytes == len(r.body.encode())
    assert "<instructions>\n\r\n# Title\r\n\r\nDo it.\r\n\n</instructions>" in r.output


# --------------------------------------------------------------------------- params


@pytest.mark.parametrize("alias", sorted(KNOWN_PARAM_ALIASES))
def test_alias_table_complete(alias):
    e = validate_params({"name": "foo", alias: "x"})
    assert isinstance(e, ToolError) and e.code == "INVALID_PARAM"
    assert e.message == KNOWN_PARAM_ALIASES[alias]
    assert e.message.startswith(f"unknown parameter '{alias}'. ")


def test_alias_table_reference_wording():
    expected = {
        "skill": "unknown parameter 'skill'. Use 'name' instead.",
        "invoke": "unknown parameter 'invoke'. Just call skill({name}); activation is implicit.",
        "fork": "unknown parameter 'fork'. Subagent-forked skills are deferred to v1.1.",
        "paths": "unknown parameter 'paths'. Auto-activation gating on file paths is deferred to v1.1.",
        "model": "unknown parameter 'model'. Model override is a harness concern, not a tool parameter.",
        "effort": "unknown parameter 'effort'. Effort override is a harness concern, not a tool parameter.",
        "context": "unknown parameter 'context'. Skill context is session-scoped; no per-call override.",
        "file": "unknown parameter 'file'. Skills dispatch by 'name', not path; the harness owns discovery.",
        "args": "unknown parameter 'args'. Use 'arguments' instead.",
    }
    for key, message in expected.items():
        assert KNOWN_PARAM_ALIASES[key] == message
    assert len(KNOWN_PARAM_ALIASES) == 29


def test_validate_params_shapes():
    assert validate_params({"name": "foo"}) == ("foo", None)
    assert validate_params({"name": "foo", "arguments": "a b"}) == ("foo", "a b")
    assert validate_params({"name": "foo", "arguments": {"k": "v"}}) == ("foo", {"k": "v"})
    e = validate_params({"name": "foo", "bogus": 1, "args": 2})
    assert isinstance(e, ToolError)
    assert e.message == (
        "unknown parameter 'bogus'. The skill tool accepts only 'name' and 'arguments'.; "
        "unknown parameter 'args'. Use 'arguments' instead."
    )
    for bad in ([], "foo", None, 3):
        assert isinstance(validate_params(bad), ToolError)
    assert validate_params({}).message == "name is required"  # type: ignore[union-attr]
    assert validate_params({"name": 3}).message == "name must be a string"  # type: ignore[union-attr]
    e = validate_params({"name": "Foo", "arguments": {"k": 1}})
    assert e.message == (  # type: ignore[union-attr]
        "name must be lowercase-kebab-case (/^[a-z0-9]+(-[a-z0-9]+)*$/); "
        "arguments must be a string or an object whose values are strings"
    )
    assert isinstance(validate_params({"name": "foo", "arguments": ["a"]}), ToolError)


# --------------------------------------------------------------------------- substitution


def test_substitution_rules():
    assert substitute_arguments("$ARGUMENTS", None) == "$ARGUMENTS"
    assert (
        substitute_arguments("$ARGUMENTS[0]-$ARGUMENTS[5]-$0-$2", "a b") == "a-$ARGUMENTS[5]-$0-b"
    )
    # \b is ASCII-only as in JS: `_` is a word char, `é` is not.
    assert (
        substitute_arguments("$ARGUMENTS_ $ARGUMENTSé $ARGUMENTSx", "v")
        == "$ARGUMENTS_ vé $ARGUMENTSx"
    )
    # Replacement text is literal (the reference would expand `$&`).
    assert substitute_arguments("x=$ARGUMENTS", "$& $$") == "x=$& $$"
    assert substitute_arguments("$1 $2", "  \u3000a\u00a0b ") == "a b"  # JS whitespace split
    assert substitute_arguments("${b} ${a} $ARGUMENTS", {"b": "2", "a": "1"}) == "2 1 a=1 b=2"
    assert substitute_arguments("$1 ${x}", {"x": "y"}) == "$1 y"


# --------------------------------------------------------------------------- catalog, siblings, io


def test_catalog_sorted_and_siblings(root):
    records = [make_record(root, n) for n in ("zeta", "alpha", "mid")]
    assert [e.name for e in build_catalog(records)] == ["alpha", "mid", "zeta"]
    assert suggest_siblings("alpah", ["alpha", "zeta", "alp", "alphabet"]) == (
        "alp",
        "alpha",
    )  # tie at 0.6: by name
    assert suggest_siblings("aaaa", ["aaab", "aaac", "aaad", "aaae"]) == ("aaab", "aaac", "aaad")


def test_io_error_when_dir_vanished(root):
    rec = make_record(root, "foo", write=False)
    e = expect_error(session([rec]).activate({"name": "foo"}))
    assert e.code == "IO_ERROR"
    assert e.message == f'failed to load skill "foo" from {rec.dir}'


def test_io_error_when_listing_fails(root, monkeypatch):
    rec = make_record(root, "foo")
    (root / "foo" / "references").mkdir()
    real_listdir = os.listdir

    def failing(path):
        if str(path).endswith("references"):
            raise PermissionError(13, "Permission denied")
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", failing)
    e = expect_error(session([rec]).activate({"name": "foo"}))
    assert e.code == "IO_ERROR"


def test_resources_never_follow_symlinks_out(tmp_path, root):
    rec = make_record(root, "foo")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "id_rsa").write_text("x")
    os.symlink(secret, root / "foo" / "references")
    (root / "foo" / "scripts").mkdir()
    os.symlink(secret / "id_rsa", root / "foo" / "scripts" / "link")
    assert list_resources(rec.dir) == ("scripts/link",)  # a name only; never read


def test_resources_utf16_sort_and_files_as_folders(root):
    rec = make_record(root, "foo")
    (root / "foo" / "assets").write_text("not a dir")
    (root / "foo" / "scripts").mkdir()
    for name in ("b", "B", "\U0001f600", "\uff5e", "a"):
        (root / "foo" / "scripts" / name).write_text("")
    # UTF-16 order puts the surrogate pair (U+D83D...) before U+FF5E.
    assert list_resources(rec.dir) == (
        "scripts/B",
        "scripts/a",
        "scripts/b",
        "scripts/\U0001f600",
        "scripts/\uff5e",
    )


def test_hook_request_and_failures(root):
    rec = make_record(
        root,
        "foo",
        {"name": "foo", "description": "x", "version": "1.0.0", "allowed-tools": "Read"},
    )
    seen = []
    s = SkillSession([rec], permission_hook=lambda req: seen.append(req) or "allow_once")
    assert isinstance(s.activate({"name": "foo"}), OkResult)
    (req,) = seen
    assert req.tool == "skill" and req.action == "activate" and req.path == rec.dir
    assert req.always_patterns == ("Skill(name:foo)",)
    assert req.metadata["reason"] == "untrusted_project_skill"
    assert req.metadata["frontmatter"]["version"] == "1.0.0"
    assert req.metadata["allowed_tools"] == ["Read"]

    def boom(req):
        raise RuntimeError("x")

    e = expect_error(
        SkillSession([rec], trusted_roots=[str(root)], permission_hook=boom).activate(
            {"name": "foo"}
        )
    )
    assert e.code == "PERMISSION_DENIED"


def test_warn_mode_warns_and_asks_hook_as_normal(root):
    rec = make_record(root, "foo")
    warnings: list[str] = []
    s = SkillSession(
        [rec],
        untrusted_project_skills="warn",
        unsafe_allow_skill_without_hook=True,
        warn=warnings.append,
    )
    r = s.activate({"name": "foo"})
    assert isinstance(r, OkResult) and r.warnings == tuple(warnings) and len(warnings) == 1
    e = expect_error(
        SkillSession(
            [rec], untrusted_project_skills="allow", permission_hook=lambda q: "deny"
        ).activate({"name": "foo"})
    )
    assert e.code == "PERMISSION_DENIED"
    with pytest.raises(ValueError):
        SkillSession([rec], untrusted_project_skills="nope")  # type: ignore[arg-type]


def test_check_order_params_before_everything(root):
    rec = make_record(
        root,
        "foo",
        {"name": "foo", "description": "x", "disable-model-invocation": True},
        write=False,
    )
    s = SkillSession([rec])
    assert expect_error(s.activate({"name": "foo", "x": 1})).code == "INVALID_PARAM"
    assert (
        expect_error(s.activate({"name": "foo"})).code == "DISABLED"
    )  # before load (IO) and trust
    assert (
        expect_error(s.activate({"name": "foo", "arguments": {"a": "b"}}, user_initiated=True)).code
        == "INVALID_PARAM"
    )
    assert expect_error(s.activate({"name": "foo"}, user_initiated=True)).code == "IO_ERROR"


def test_concurrent_activations_serialised(root):
    records = [make_record(root, f"s{i}") for i in range(8)]
    s = session(records)
    results: list = []
    lock = threading.Lock()

    def worker(name):
        r = s.activate({"name": name})
        with lock:
            results.append(r)

    threads = [threading.Thread(target=worker, args=(f"s{i % 8}",)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(r, OkResult) for r in results) == 8
    assert sum(isinstance(r, AlreadyLoadedResult) for r in results) == 24


def test_output_dialect_configurable(root):
    rec = make_record(root, "foo", body="\n  Do it.  \n")
    r = session([rec], dialect="dsh").activate({"name": "foo"})
    assert r.output.startswith('<skill_content name="foo">')
    assert "\n<skill_instructions>\nDo it.\n</skill_instructions>\n" in r.output
