"""rules/harness_values.py as an author sees it: the values Claude Code reads (model, agent,
hooks, allowed-tools, paths), each finding pinned whole under claude-code, and the
targets where the rule is quiet or only a hint.
"""

from __future__ import annotations

import pytest

from helpers import check, codes, rng, skill_text
from skill_lsp.engine import document, fixes
from skill_lsp.engine.findings import Finding
from skill_lsp.engine.rules import harness_values

CODES = ("UNKNOWN_MODEL", "AGENT_WITHOUT_FORK", "INVALID_HOOKS", "UNKNOWN_TOOL", "INVALID_TOOL_PATTERN",
         "UNSCOPED_BASH", "INVALID_PATHS_GLOB")


def seen(doc: document.SkillDocument, findings: list[Finding]) -> list[tuple]:
    return [(f.code, f.severity.label, rng(doc, f), f.message, f.data) for f in findings if f.code in CODES]


def findings(extra: str, profile: str = "claude-code") -> list[tuple]:
    doc, fs = check(skill_text(extra=extra), profile=profile)
    return seen(doc, fs)


def quiet_elsewhere(extra: str) -> None:
    for profile in ("skill-tool", "agentskills", "dsh"):
        assert findings(extra, profile) == [], profile


# --------------------------------------------------------------------- model and agent

ALIASES = ["inherit", "sonnet", "opus", "haiku", "opusplan", "default", "sonnet[1m]", "opus[1m]", "opusplan[1m]"]
NOT_A_MODEL = ("model '{}' is neither a Claude Code alias (inherit, sonnet, opus, haiku, opusplan, ...) nor a Claude "
               "model id such as claude-sonnet-4-5")


def test_a_model_that_is_not_claude_is_reported_without_a_guess():
    assert findings("model: gpt-4o") == [("UNKNOWN_MODEL", "warning", ((3, 7), (3, 13)), NOT_A_MODEL.format("gpt-4o"),
                                          {"field": "model", "values": ALIASES})]
    quiet_elsewhere("model: gpt-4o")


def test_a_misspelt_alias_gets_the_alias_and_a_fix():
    text = skill_text(extra='model: "Sonet"')
    doc, fs = check(text, profile="claude-code")
    assert seen(doc, fs) == [("UNKNOWN_MODEL", "warning", ((3, 7), (3, 14)),
                              NOT_A_MODEL.format("Sonet") + "; did you mean 'sonnet'?",
                              {"field": "model", "values": ALIASES, "replacement": "sonnet"})]
    fixed = fixes.apply_edits(text, list(fixes.fixes_for(doc, fs[0])[0].edits))
    assert document.parse(fixed, doc.path).value("model") == "sonnet"


@pytest.mark.parametrize("value", ["OPUS", "' sonnet '", "claude-3-5-sonnet-latest", "anthropic.claude-v2", "'  '", "3"])
def test_models_claude_code_resolves_or_that_are_not_strings_are_silent(value):
    assert findings(f"model: {value}") == []


def test_agent_needs_context_fork():
    expected = [("AGENT_WITHOUT_FORK", "warning", ((3, 0), (3, 5)),
                 "'agent' has effect only with 'context: fork'; without it the skill runs inline and the agent type "
                 "is ignored", {"field": "agent", "insert": "context: fork"})]
    assert findings("agent: Explore\ncontext: inline") == expected
    assert findings("agent: Explore") == expected
    assert findings("context: fork\nagent: Plan") == []
    quiet_elsewhere("agent: Explore")


# --------------------------------------------------------------------- hooks

def hook(message: str, start: tuple[int, int], end: tuple[int, int], event: str = "Stop", **more: str) -> tuple:
    return ("INVALID_HOOKS", "warning", (start, end), message, {"event": event, **more})


def test_a_well_formed_hook_set_is_silent():
    extra = ("hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n"
             "          command: ./guard.sh\n          timeout: 30\n          statusMessage: Checking\n"
             "  Notification: []\n  Stop:\n    - matcher: ~\n      hooks:\n        - {type: prompt, prompt: p}\n"
             "        - {type: mcp_tool, server: s, tool: t}\n        - {type: http, url: 'https://x', timeout: 1.5}")
    assert findings(extra) == []
    assert findings("hooks: {}") == []


def test_hook_events_are_checked_and_near_misses_get_the_event():
    text = skill_text(extra="hooks:\n  Stopp: []\n  Xyz: []\n  [a]: []")
    doc, fs = check(text, profile="claude-code")
    assert seen(doc, fs) == [
        hook("'Stopp' is not a Claude Code hook event; did you mean 'Stop'?", (4, 2), (4, 7), "Stopp",
             replacement="Stop"),
        hook("'Xyz' is not a Claude Code hook event", (5, 2), (5, 5), "Xyz"),
        hook("'' is not a Claude Code hook event", (6, 2), (6, 5), ""),
    ]
    fixed = fixes.apply_edits(text, list(fixes.fixes_for(doc, fs[0])[0].edits))
    assert "\n  Stop: []\n" in fixed
    quiet_elsewhere("hooks:\n  Stopp: []")


def test_hook_entries_and_their_keys():
    assert findings("hooks:\n  Stop: run.sh") == [
        hook("hooks.Stop must be a list of {matcher, hooks} entries", (4, 8), (4, 14))]
    assert findings("hooks:\n  Stop:\n    - echo") == [
        hook("each hooks.Stop entry must be a mapping with 'matcher' and 'hooks'", (5, 6), (5, 10))]
    assert findings("hooks:\n  Stop:\n    - matcher: [a]\n      hooks: []\n      extra: 1") == [
        hook("hooks.Stop matcher must be a string (a tool name or regex)", (5, 15), (5, 18)),
        hook("unknown key 'extra' in a hooks.Stop entry (matcher, hooks)", (7, 6), (7, 11))]
    assert findings("hooks:\n  Stop:\n    - hooks: run") == [
        hook("hooks.Stop[].hooks must be a list of handlers", (5, 13), (5, 16))]


@pytest.mark.parametrize("entry,what", [
    ("- matcher: Bash\n      command: npm run lint", "'command' belongs inside a 'hooks' list"),
    ("- matcher: Bash\n      type: command", "'command' belongs inside a 'hooks' list"),
    ("- matcher: Bash", "no 'hooks' list"),
])
def test_a_hook_entry_without_its_hooks_list(entry, what):
    got = findings(f"hooks:\n  Stop:\n    {entry}")
    assert [(g[3], g[2][0]) for g in got] == [
        (f"hooks.Stop entry has {what}: write `- matcher: ...` then `hooks: [{{type: command, command: ...}}]`", (5, 6))]


def test_each_hook_handler():
    extra = ("hooks:\n  Stop:\n    - hooks:\n        - echo\n        - {command: x}\n        - {type: http}\n"
             "        - {type: agent, prompt: p, timeout: 0, colour: red}\n"
             "        - {type: command, command: c, timeout: true}\n        - {type: shell, command: c}\n"
             "        - {type: command, command: c, timeout: soon}")
    assert findings(extra) == [
        hook("a hook handler must be a mapping such as {type: command, command: ...}", (6, 10), (6, 14)),
        hook("hook type is missing; Claude Code runs command, prompt, agent, http, mcp_tool", (7, 10), (7, 22)),
        hook("a 'http' hook needs 'url'", (8, 10), (8, 22)),
        hook("hook 'timeout' must be a positive number of seconds", (9, 44), (9, 45)),
        hook("unknown key 'colour' in a hook handler", (9, 47), (9, 53)),
        hook("hook 'timeout' must be a positive number of seconds", (10, 47), (10, 51)),
        hook("hook type is 'shell'; Claude Code runs command, prompt, agent, http, mcp_tool", (11, 17), (11, 22)),
        hook("hook 'timeout' must be a positive number of seconds", (12, 47), (12, 51)),
    ]


# --------------------------------------------------------------------- allowed-tools

def tool(code: str, start: int, end: int, token: str, sev: str = "warning", line: int = 3) -> tuple:
    messages = {
        "UNSCOPED_BASH": f"'{token}' pre-approves every shell command while this skill runs, and the model can "
                         f"activate the skill on its own; scope it, e.g. {token.split('(')[0]}(git status:*), or set "
                         "disable-model-invocation: true",
        "INVALID_TOOL_PATTERN": f"tool rule '{token}' is malformed: write Name or Name(pattern) with one balanced "
                                "pair of parentheses",
    }
    return (code, sev, ((line, start), (line, end)), messages[code], {"tool": token})


def near(start: int, name: str, meant: str, sev: str = "warning", line: int = 3) -> tuple:
    return ("UNKNOWN_TOOL", sev, ((line, start), (line, start + len(name))),
            f"'{name}' is not a Claude Code tool name; did you mean '{meant}'? (tool names are case-sensitive)",
            {"tool": name, "replacement": meant})


def test_lowercase_tool_sets_of_copilot_skills_are_not_claude_code_near_misses(tmp_path):
    """Held-out unseen25: `.github/skills` (Copilot CLI, VS Code) with `allowed-tools: 'execute read
    search edit'`, VS Code's tool sets: "did you mean 'Read'?" would break them there."""
    from helpers import write_skill
    from skill_lsp.engine.config import Settings
    from skill_lsp.engine.workspace import check_file

    text = skill_text(extra="allowed-tools: 'execute read search edit Grepp'")
    copilot = write_skill(tmp_path / ".github" / "skills", "demo", text)
    got = [(f.code, f.data.get("tool")) for f in check_file(str(copilot), Settings()).findings
           if f.code == "UNKNOWN_TOOL"]
    assert got == [("UNKNOWN_TOOL", "Grepp")]  # a capitalised near miss is still one
    claude = write_skill(tmp_path / ".claude" / "skills", "demo", text)
    got = sorted(f.data.get("tool") for f in check_file(str(claude), Settings()).findings if f.code == "UNKNOWN_TOOL")
    assert got == ["Grepp", "edit", "read"]


def test_tool_rules_unscoped_shells_malformed_patterns_and_case():
    extra = "allowed-tools: Bash(*) PowerShell Bash() ( Read) grep Task mcp__gh__issue Bash(git diff:*)"
    assert findings(extra) == [
        tool("UNSCOPED_BASH", 15, 22, "Bash(*)"),
        tool("UNSCOPED_BASH", 23, 33, "PowerShell"),
        tool("INVALID_TOOL_PATTERN", 34, 40, "Bash()"),
        tool("INVALID_TOOL_PATTERN", 41, 48, "( Read)"),
        near(49, "grep", "Grep"),
    ]
    assert findings(extra, "agentskills") == [
        tool("INVALID_TOOL_PATTERN", 34, 40, "Bash()", "hint"),
        tool("INVALID_TOOL_PATTERN", 41, 48, "( Read)", "hint"),
        near(49, "grep", "Grep", "hint"),
    ]
    assert findings(extra, "dsh") == []


def test_typos_of_tool_names_by_edit_distance():
    # One edit (or one swap of neighbours) for names up to five letters, two beyond; the first letter must match.
    extra = "allowed-tools: Glbo Wirte Grpe WebSerch TodoWrit Xrep Lss Gre Readd Grrrep"
    assert findings(extra) == [near(15, "Glbo", "Glob"), near(20, "Wirte", "Write"), near(26, "Grpe", "Grep"),
                               near(31, "WebSerch", "WebSearch"), near(40, "TodoWrit", "TodoWrite"),
                               near(62, "Readd", "Read")]


def test_tool_names_split_at_commas_and_in_lists():
    assert findings("allowed-tools: Read,Grepp, Bash(git:*),Bash") == [
        near(20, "Grepp", "Grep"), tool("UNSCOPED_BASH", 39, 43, "Bash")]
    extra = "allowed-tools:\n  - Bash(git diff:*)\n  - 'Bash(npm run build, npm test)'\n  - Grepp\n  - 3\n  - ''\n  - Bash"
    assert findings(extra) == [near(4, "Grepp", "Grep", line=6), tool("UNSCOPED_BASH", 4, 8, "Bash", line=9)]
    assert findings("allowed-tools: Bash\ndisable-model-invocation: true") == []


def test_a_tool_name_written_with_escapes_is_reported_on_the_value_without_a_rename():
    text = skill_text(extra='allowed-tools: "Gre\\x70p Bash"')
    doc, fs = check(text, profile="claude-code")
    assert seen(doc, fs) == [
        ("UNKNOWN_TOOL", "warning", ((3, 15), (3, 30)),
         "'Grepp' is not a Claude Code tool name; did you mean 'Grep'? (tool names are case-sensitive)",
         {"tool": "Grepp"}),
        tool("UNSCOPED_BASH", 25, 29, "Bash"),
    ]
    unknown = next(f for f in fs if f.code == "UNKNOWN_TOOL")
    assert fixes.fixes_for(doc, unknown) == []  # a rename of the span would break the escape


def test_tool_tokens_have_exact_spans():
    doc = document.parse(skill_text(extra="allowed-tools: Read  Bash(git add, git commit),Grep"), "/v/demo/SKILL.md")
    assert [(t, doc.text[s:e]) for t, s, e in harness_values.tool_tokens(doc)] == [
        ("Read", "Read"), ("Bash(git add, git commit)", "Bash(git add, git commit)"), ("Grep", "Grep")]
    assert harness_values.tool_tokens(doc, "disallowed-tools") == []


# --------------------------------------------------------------------- paths

def glob(pattern: str, problem: str, start: tuple[int, int], end: tuple[int, int]) -> tuple:
    return ("INVALID_PATHS_GLOB", "warning", (start, end), f"paths glob '{pattern}' {problem}", {"glob": pattern})


def test_paths_globs_in_a_list():
    extra = "paths:\n  - ''\n  - 'a]'\n  - 'b}'\n  - 3\n  - /abs/*.py\n  - 'C:/x'\n  - 'c:\\y'\n  - 'a\\b'\n  - 'ok/**'"
    assert findings(extra) == [
        glob("", "is empty", (4, 4), (4, 6)),
        glob("a]", "has an unclosed bracket", (5, 4), (5, 8)),
        glob("b}", "has an unclosed brace group", (6, 4), (6, 8)),
        glob("/abs/*.py", "is absolute; paths globs are relative to the project", (8, 4), (8, 13)),
        glob("C:/x", "is absolute; paths globs are relative to the project", (9, 4), (9, 10)),
        glob("c:\\y", "is absolute; paths globs are relative to the project", (10, 4), (10, 10)),
        glob("a\\b", "uses backslashes; globs use '/'", (11, 4), (11, 9)),
    ]
    quiet_elsewhere(extra)


def test_a_paths_string_splits_at_commas_outside_brace_groups():
    # Claude Code's docs: `src/**/*.{ts,tsx}` and `{src,lib}/**/*.ts, tests/**/*.test.ts`.
    assert findings("paths: 'src/**/*.{ts,tsx}, {src,lib}/**/*.ts, tests/**'") == []
    assert findings("paths: 'a,,b}, [c'") == [
        glob("", "is empty", (3, 7), (3, 18)),
        glob("b}", "has an unclosed brace group", (3, 7), (3, 18)),
        glob("[c", "has an unclosed bracket", (3, 7), (3, 18)),
    ]
    assert harness_values.split_globs("{a,{b,c}},d}, e") == ["{a,{b,c}}", "d}", " e"]


def test_paths_of_another_shape_is_left_to_the_type_check():
    assert findings("paths: {src: yes}") == [] and findings("paths: 3") == []
    assert "INVALID_TYPE" in codes(check(skill_text(extra="paths: 3"), profile="claude-code")[1])
