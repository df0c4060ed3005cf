"""Values of the fields Claude Code reads: model, hooks, allowed-tools, agent, paths.

fields.py checks each field's shape; this module checks what the harness does
with the value. A field the active profile does not know stays silent here
(fields.py reports it as unknown or deferred).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ..document import SkillDocument
from ..findings import Finding
from ..harness.roots import in_devin_root
from ..lazyre import lazy_re
from ..yamlnodes import Node, resolve_scalar
from .context import Context
from .levels import active, emit

# Model aliases Claude Code resolves (CHANGELOG: opus/sonnet/haiku aliases, `inherit`,
# `opusplan`, the `[1m]` long-context suffix, `default`); full model ids are accepted
# in `model:` frontmatter like `--model` (CHANGELOG 2.1: "agents now accept the same
# model values as --model").
MODEL_ALIASES = ("inherit", "sonnet", "opus", "haiku", "opusplan", "default",
                 "sonnet[1m]", "opus[1m]", "opusplan[1m]")
# A Claude model id as Anthropic, Bedrock and Vertex spell it (claude-opus-4-5,
# us.anthropic.claude-sonnet-4-5-20250929-v1:0, claude-opus-4@20250514).
_MODEL_ID = lazy_re(r"^(?:[a-z0-9-]+\.)*(?:anthropic[./])?claude-[a-z0-9.@:-]+(?:\[1m\])?$", re.I)

# Hook events Claude Code dispatches (each added in a CHANGELOG entry; an unknown
# event name in settings is ignored since the "unrecognized hook event" fix).
HOOK_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied",
    "Notification", "UserPromptSubmit", "Stop", "StopFailure", "SubagentStart", "SubagentStop",
    "SessionStart", "SessionEnd", "PreCompact", "PostCompact", "Setup", "TeammateIdle",
    "TaskCreated", "TaskCompleted", "ConfigChange", "WorktreeCreate", "WorktreeRemove",
    "InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded", "MessageDisplay",
    "Elicitation", "ElicitationResult",
)
# Hook handler types and the key each one needs.
HOOK_TYPES = {"command": "command", "prompt": "prompt", "agent": "prompt", "http": "url", "mcp_tool": ""}
_HOOK_KEYS = ("type", "command", "prompt", "url", "timeout", "once", "async", "statusMessage", "model",
              "headers", "allowedEnvVars", "server", "tool", "input", "shell")

# Built-in tool names as Claude Code spells them in permission rules.
CLAUDE_TOOLS = (
    "Agent", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList", "Edit",
    "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep", "KillShell", "LS",
    "LSP", "ListAgents", "ListMcpResourcesTool", "Monitor", "MultiEdit", "NotebookEdit", "NotebookRead",
    "PowerShell", "Read", "ReadMcpResourceTool", "SendMessage", "Skill", "SlashCommand", "StructuredOutput",
    "Task", "TaskCreate", "TaskGet", "TaskList", "TaskOutput", "TaskStop", "TaskUpdate", "TodoRead",
    "TodoWrite", "ToolSearch", "WebFetch", "WebSearch", "Workflow", "Write",
)
_TOOL_LOWER = {t.lower(): t for t in CLAUDE_TOOLS}
# Capitalised words written as tools that no harness has (issue 26: `Shell`), with the tool meant.
# Copilot CLI's tools are lowercase (`shell`, `write`), Gemini CLI's snake_case (`run_shell_command`),
# OpenCode's lowercase (`bash`, `webfetch`): these spellings match none of them.
GENERIC_TOOLS = {
    "Shell": "Bash in Claude Code, shell in Copilot CLI", "Terminal": "Bash", "Command": "Bash",
    "CommandLine": "Bash", "Python": "Bash(python3:*)", "Node": "Bash(node:*)", "Browser": "WebFetch",
    "Internet": "WebFetch or WebSearch", "Web": "WebFetch or WebSearch", "Http": "WebFetch", "HTTP": "WebFetch",
    "FileSystem": "Read, Write, Edit", "Filesystem": "Read, Write, Edit", "Files": "Read, Write, Edit",
    "File": "Read, Write, Edit", "Search": "Grep or WebSearch", "Computer": "Bash", "Code": "Bash or Edit",
    "Execute": "Bash", "Exec": "Bash", "Run": "Bash", "CLI": "Bash", "Git": "Bash(git:*)", "Docker": "Bash(docker:*)",
    "Npm": "Bash(npm:*)", "NPM": "Bash(npm:*)",
}


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    known = ctx.profile.known
    entries = doc.entries
    if "model" in known and "model" in entries:
        yield from _model(doc, ctx)
    if "agent" in known and "agent" in entries:
        yield from _agent(doc, ctx)
    if "context" in known and "context" in entries and string_value(doc, "context") == "fork":
        node = entries["context"].value
        yield from emit(ctx, "FORK_NEEDS_SETTING", "VS Code runs 'context: fork' in a subagent only with the setting "
                        "github.copilot.chat.skillTool.enabled on; its editor warns otherwise", *_span(node),
                        {"field": "context", "setting": "github.copilot.chat.skillTool.enabled"})
    if "context" in entries and string_value(doc, "context") == "fork" and active(ctx, "FORK_WITHOUT_TASK") \
            and not _has_task(doc):
        yield from emit(ctx, "FORK_WITHOUT_TASK", "'context: fork' runs the skill in a subagent whose prompt is the "
                        "skill body, but the body holds guidelines and no task (no steps, no $ARGUMENTS): the "
                        "subagent has nothing to do. Remove 'context: fork' to apply the guidelines inline, or "
                        "write the steps the subagent should carry out", *_span(entries["context"].value),
                        {"field": "context"})
    if "hooks" in known and "hooks" in entries:
        yield from _hooks(doc, ctx, entries["hooks"].value.target())
    if "allowed-tools" in known and "allowed-tools" in entries:
        yield from _tools(doc, ctx)
    if "paths" in known and "paths" in entries:
        yield from _paths(doc, ctx)


# What makes a body a task a forked subagent can carry out (Claude Code's skills documentation:
# "context: fork only makes sense for skills with explicit instructions"): numbered steps, a heading
# that names a procedure, the user's arguments, or a `!` command feeding it data.
_STEPS = lazy_re(r"^[ \t]{0,3}(?:\d+[.)]|-\s*\[[ xX]\])\s+\S", re.M)
_TASK_HEADING = lazy_re(r"^#{1,6}\s+.*\b(?:steps?|workflow|process|procedure|phases?|tasks?|instructions|how to|"
                           r"run|usage|checklist|algorithm|pipeline|stages?|do this|your job|what to do)\b", re.M | re.I)
_TASK_WORDS = lazy_re(r"\$ARGUMENTS|\$\d|!`|^```!", re.M)
# The same headings in Chinese, Japanese and Korean, and a numbered one (`### 1. 定工作目录`): unseen16
# lazygophers/ccplugin ("## 工作流四步", "## 后台执行段"), two wrong warnings.
_TASK_HEADING_CJK = lazy_re(r"^#{1,6}\s+(?:\d+[.)]\s|.*(?:步骤|流程|工作流|执行|任务|用法|手順|ステップ|実行|作業|"
                            r"단계|절차|워크플로|실행|작업))", re.M)


def _has_task(doc: SkillDocument) -> bool:
    body = doc.body_text
    if _STEPS.search(body) or _TASK_HEADING.search(body) or _TASK_WORDS.search(body) or \
            _TASK_HEADING_CJK.search(body):
        return True
    # Named arguments the body uses (`arguments: [tid, sid]`, `$tid`): what it is called with.
    names = argument_names(doc.value("arguments")) if doc.frontmatter_ok else []
    return any(n and f"${n}" in body for n in names)


def argument_names(value: object) -> list[str]:
    """The names a skill's `arguments` declares for Claude Code 2.1.332 (capture case
    named-arguments, probes): a string's words split at blanks (`target, mode` names `target,`),
    a list's strings; a map or a number names none."""
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def string_value(doc: SkillDocument, key: str) -> str | None:
    entry = doc.entries.get(key)
    if entry is None:
        return None
    node = entry.value.target()
    value = resolve_scalar(node) if node.kind == "scalar" else None
    return value if isinstance(value, str) else None


def _span(node: Node) -> tuple[int, int]:
    return node.start, max(node.end, node.start + 1)


def _model(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    value = string_value(doc, "model")
    if value is None or not value.strip():
        return
    v = value.strip()
    if v.lower() in MODEL_ALIASES or _MODEL_ID.match(v):
        return
    near = closest(v.lower(), MODEL_ALIASES)
    data = {"field": "model", "values": list(MODEL_ALIASES)}
    hint = ""
    if near is not None:
        data["replacement"] = near
        hint = f"; did you mean '{near}'?"
    node = doc.entries["model"].value
    yield from emit(ctx, "UNKNOWN_MODEL", f"model '{v}' is neither a Claude Code alias ({', '.join(MODEL_ALIASES[:5])}, "
                    f"...) nor a Claude model id such as claude-sonnet-4-5{hint}", *_span(node), data)


def _agent(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    if string_value(doc, "context") == "fork":
        return
    entry = doc.entries["agent"]
    yield from emit(ctx, "AGENT_WITHOUT_FORK", "'agent' has effect only with 'context: fork'; without it the skill "
                    "runs inline and the agent type is ignored", entry.key_node.start, entry.key_node.end,
                    {"field": "agent", "insert": "context: fork"})


def _hooks(doc: SkillDocument, ctx: Context, node: Node) -> Iterator[Finding]:
    if node.kind != "map":
        return  # fields.py reports the type
    for k, v in node.items:
        event = k.target().value if k.target().kind == "scalar" else ""
        if event not in HOOK_EVENTS:
            near = closest(event, HOOK_EVENTS)
            hint = f"; did you mean '{near}'?" if near else ""
            yield from emit(ctx, "INVALID_HOOKS", f"'{event}' is not a Claude Code hook event{hint}", *_span(k),
                            {"event": event, **({"replacement": near} if near else {})})
            continue
        groups = v.target()
        if groups.kind != "seq":
            yield from emit(ctx, "INVALID_HOOKS", f"hooks.{event} must be a list of {{matcher, hooks}} entries",
                            *_span(v), {"event": event})
            continue
        for group in groups.items:
            yield from _hook_group(ctx, event, group.target())


def _hook_group(ctx: Context, event: str, group: Node) -> Iterator[Finding]:
    if group.kind != "map":
        yield from emit(ctx, "INVALID_HOOKS", f"each hooks.{event} entry must be a mapping with 'matcher' and 'hooks'",
                        *_span(group), {"event": event})
        return
    keys = {k.target().value: (k, v) for k, v in group.items if k.target().kind == "scalar"}
    if "hooks" not in keys:
        what = "'command' belongs inside a 'hooks' list" if "command" in keys or "type" in keys else "no 'hooks' list"
        yield from emit(ctx, "INVALID_HOOKS", f"hooks.{event} entry has {what}: write "
                        "`- matcher: ...` then `hooks: [{type: command, command: ...}]`", *_span(group), {"event": event})
        return
    for key, (k, _v) in keys.items():
        if key not in ("matcher", "hooks"):
            yield from emit(ctx, "INVALID_HOOKS", f"unknown key '{key}' in a hooks.{event} entry (matcher, hooks)",
                            *_span(k), {"event": event})
    matcher = keys.get("matcher")
    if matcher is not None:
        mv = matcher[1].target()
        if mv.kind != "scalar" or not isinstance(resolve_scalar(mv), (str, type(None))):
            yield from emit(ctx, "INVALID_HOOKS", f"hooks.{event} matcher must be a string (a tool name or regex)",
                            *_span(mv), {"event": event})
    handlers = keys["hooks"][1].target()
    if handlers.kind != "seq":
        yield from emit(ctx, "INVALID_HOOKS", f"hooks.{event}[].hooks must be a list of handlers", *_span(handlers),
                        {"event": event})
        return
    for h in handlers.items:
        yield from _handler(ctx, event, h.target())


def _handler(ctx: Context, event: str, h: Node) -> Iterator[Finding]:
    if h.kind != "map":
        yield from emit(ctx, "INVALID_HOOKS", "a hook handler must be a mapping such as {type: command, command: ...}",
                        *_span(h), {"event": event})
        return
    fields = {k.target().value: (k, v.target()) for k, v in h.items if k.target().kind == "scalar"}
    t = fields.get("type")
    kind = resolve_scalar(t[1]) if t is not None and t[1].kind == "scalar" else None
    if kind not in HOOK_TYPES:
        where = t[1] if t is not None else h
        shown = f"'{kind}'" if kind is not None else "missing"
        yield from emit(ctx, "INVALID_HOOKS", f"hook type is {shown}; Claude Code runs {', '.join(HOOK_TYPES)}",
                        *_span(where), {"event": event})
        return
    needed = HOOK_TYPES[str(kind)]
    if needed and needed not in fields:
        yield from emit(ctx, "INVALID_HOOKS", f"a '{kind}' hook needs '{needed}'", *_span(h), {"event": event})
    timeout = fields.get("timeout")
    if timeout is not None:
        tv = resolve_scalar(timeout[1]) if timeout[1].kind == "scalar" else None
        if isinstance(tv, bool) or not isinstance(tv, (int, float)) or tv <= 0:
            yield from emit(ctx, "INVALID_HOOKS", "hook 'timeout' must be a positive number of seconds",
                            *_span(timeout[1]), {"event": event})
    for key, (k, _v) in fields.items():
        if key not in _HOOK_KEYS:
            yield from emit(ctx, "INVALID_HOOKS", f"unknown key '{key}' in a hook handler", *_span(k), {"event": event})


# --------------------------------------------------------------------- allowed-tools

_TOOL_TOKEN = lazy_re(r"[^\s,()]+(?:\([^()]*\)?)?|\(")


def tool_tokens(doc: SkillDocument, key: str = "allowed-tools") -> list[tuple[str, int, int]]:
    """(tool, start, end) for each entry of a tools field; spans exact where the source allows."""
    entry = doc.entries.get(key)
    if entry is None:
        return []
    node = entry.value.target()
    text = doc.text
    out: list[tuple[str, int, int]] = []
    if node.kind == "seq":
        for item in node.items:
            it = item.target()
            v = resolve_scalar(it) if it.kind == "scalar" else None
            if isinstance(v, str) and v.strip():
                out.extend(_split(v.strip(), text, it.start, it.end, whole=True))
        return out
    value = resolve_scalar(node) if node.kind == "scalar" else None
    if isinstance(value, str):
        out.extend(_split(value, text, node.start, node.end, whole=False))
    return out


def _split(value: str, text: str, start: int, end: int, whole: bool) -> list[tuple[str, int, int]]:
    if whole and "(" in value:
        parts = [value]
    else:
        parts = _parts(value)
    out = []
    cursor = start
    for p in parts:
        at = text.find(p, cursor, end)
        if at < 0:
            out.append((p, start, max(end, start + 1)))
            continue
        out.append((p, at, at + len(p)))
        cursor = at + len(p)
    return out


def _parts(value: str) -> list[str]:
    """Split on blanks and commas outside parentheses (the skill tool's splitter)."""
    from ..activation.frontmatter import normalize_allowed_tools  # noqa: PLC0415

    parts = normalize_allowed_tools(value)
    return parts if isinstance(parts, list) else [value]


def devin_native(doc: SkillDocument) -> bool:
    """Written for Devin CLI: its `triggers` field lists who invokes the skill (`user`, `model`), a
    field no modelled harness has (docs.devin.ai; documented, not verified). Its tools are named
    read, edit, grep, glob, exec: not near misses of Claude Code's (unseen newkub/devin-skills: 452
    wrong UNKNOWN_TOOL hints)."""
    value = doc.value("triggers") if doc.frontmatter_ok else None
    return isinstance(value, list) and any(v in ("user", "model") for v in value)


def _tools(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    targets = ctx.profile.targets or (ctx.profile.name,)
    claude = "claude-code" in targets
    # Copilot's skills are read by VS Code too, whose tool sets are lowercase words.
    own_words = not claude and ("copilot" in targets or "vscode" in targets)
    if not claude and (devin_native(doc) or in_devin_root(doc.path)):
        return  # outside Claude Code's roots, a Devin skill's tools are Devin's
    model_invocable = doc.value("disable-model-invocation") is not True
    for token, s, e in tool_tokens(doc):
        name = token.split("(", 1)[0]
        if token.count("(") != token.count(")") or token.startswith("(") or token.endswith("()"):
            yield from emit(ctx, "INVALID_TOOL_PATTERN", f"tool rule '{token}' is malformed: write Name or "
                            "Name(pattern) with one balanced pair of parentheses", s, e, {"tool": token})
            continue
        if name.startswith("mcp__") or name in _TOOL_LOWER.values():
            if name in ("Bash", "PowerShell") and token in (name, f"{name}(*)") and model_invocable:
                yield from emit(ctx, "UNSCOPED_BASH", f"'{token}' pre-approves every shell command while this skill "
                                "runs, and the model can activate the skill on its own; scope it, e.g. "
                                f"{name}(git status:*), or set disable-model-invocation: true", s, e, {"tool": token})
            continue
        proper = _TOOL_LOWER.get(name.lower()) or closest(name, CLAUDE_TOOLS, case=True)
        if proper is None and name in GENERIC_TOOLS:
            meant = GENERIC_TOOLS[name]
            yield from emit(ctx, "NOT_A_TOOL", f"'{name}' is no tool of any harness, so it pre-approves nothing; "
                            f"name the tool ({meant})", s, s + len(name) if e - s == len(token) else e,
                            {"tool": name, "meant": meant})
            continue
        if proper is None:
            continue  # a name we do not know is not necessarily wrong (new tools arrive often)
        if own_words and name.islower() and name.isalpha():
            # A lowercase word is a VS Code tool set there (`read`, `edit`, `search`, `execute`;
            # held-out unseen25: 91 hints on a `.github/skills` repository whose fix, `Read`, would
            # break them in VS Code).
            continue
        data = {"tool": name, "replacement": proper}
        if e - s != len(token):  # not found as written (YAML escapes): the whole value, and no rename edit
            end, data = e, {"tool": name}
        else:
            end = s + len(name)
        yield from emit(ctx, "UNKNOWN_TOOL", f"'{name}' is not a Claude Code tool name; did you mean '{proper}'? "
                        "(tool names are case-sensitive)", s, end, data)


# --------------------------------------------------------------------- paths

def _paths(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    node = doc.entries["paths"].value.target()
    items = node.items if node.kind == "seq" else [node] if node.kind == "scalar" else []
    for item in items:
        it = item.target()
        v = resolve_scalar(it) if it.kind == "scalar" else None
        if not isinstance(v, str):
            continue
        for pattern in (split_globs(v) if node.kind == "scalar" else [v]):
            p = pattern.strip()
            problem = glob_problem(p)
            if problem:
                yield from emit(ctx, "INVALID_PATHS_GLOB", f"paths glob '{p}' {problem}", *_span(it), {"glob": p})


def split_globs(value: str) -> list[str]:
    """A `paths` string's globs: split at commas outside brace groups (Claude Code's docs show
    `src/**/*.{ts,tsx}` and `{src,lib}/**/*.ts, tests/**/*.test.ts`; documented, not verified)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(value[start:i])
            start = i + 1
    out.append(value[start:])
    return out


def glob_problem(p: str) -> str:
    if not p:
        return "is empty"
    if p.count("[") != p.count("]"):
        return "has an unclosed bracket"
    if p.count("{") != p.count("}"):
        return "has an unclosed brace group"
    if p.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", p):
        return "is absolute; paths globs are relative to the project"
    if "\\" in p:
        return "uses backslashes; globs use '/'"
    return ""


# --------------------------------------------------------------------- shared

@lru_cache(maxsize=4096)
def closest(word: str, choices: tuple[str, ...], *, case: bool = False) -> str | None:
    """The choice within a small edit distance of ``word`` (never for very short words). Kept per
    word: the same unknown tools (`python`, `git`, `npm`) come back skill after skill."""
    if len(word) < 4:
        return None
    w = word if case else word.lower()
    best, best_d = None, 3
    first = w[0].lower()
    for c in choices:
        cc = c if case else c.lower()
        # A typo rarely hits the first letter; skipping those keeps this off the hot path.
        if abs(len(cc) - len(w)) > 2 or cc[0].lower() != first:
            continue
        d = _distance(w.lower(), cc.lower())
        limit = 1 if len(cc) <= 5 else 2
        if d <= limit and d < best_d:
            best, best_d = c, d
    return best


def _distance(a: str, b: str) -> int:
    """Optimal string alignment distance (adjacent transpositions count once)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]
