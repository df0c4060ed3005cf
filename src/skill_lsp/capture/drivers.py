"""One driver per harness: run a release on a workspace, pull out what the model saw.

A driver gets the command that starts the release (a pinned binary from the capture
cache, or whatever ``claude``/``codex``/... the user has on PATH), a laid-out workspace
and home folder, and the skills to activate. It runs the release once against a
recording :class:`~.endpoint.Endpoint` on 127.0.0.1 (Gemini CLI: its core library in
node, no endpoint), activating every skill in that one run where the release allows
it (the endpoint answers turn after turn with the next skill-tool call), and returns
the catalog and each activation with the release's built-in skills taken out (their
names and sizes are kept, never their text).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.render.claude_code import FORKED_ANSWER
from .endpoint import Endpoint, Recorded, ToolCall, call_id

__all__ = ["DRIVERS", "HARNESS_NAMES", "Activation", "CaptureError", "Run", "run"]

RUN_TIMEOUT = 180  # seconds for one harness process

HARNESS_NAMES = ("claude-code", "codex", "opencode", "gemini", "copilot")


@dataclass
class Activation:
    skill: str
    arguments: str
    text: str | None  # what the model reads as the skill's content; None: the release gave nothing
    tool_result: str | None = None  # the tool's own result, where the content follows it separately


@dataclass
class Run:
    catalog: str | None  # the user's skills as listed (built-ins taken out); None: no catalog at all
    activations: list[Activation]
    builtins: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    log: str = ""  # the end of the release's stderr/stdout, for a failure report

    def activation(self, skill: str) -> Activation | None:
        return next((a for a in self.activations if a.skill == skill), None)


class CaptureError(RuntimeError):
    pass


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TERM": "dumb",
           "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1"}
    env.update(extra)
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired as err:
        return subprocess.CompletedProcess(argv, -9, "", f"timed out after {timeout:.0f} s: {err}")


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    out = []
    for c in content or []:
        if isinstance(c, dict) and isinstance(c.get("text"), str):
            out.append(c["text"])
    return out


def _tail(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n" + (proc.stderr or proc.stdout or "")[-1500:]


def _failed(what: str, proc: subprocess.CompletedProcess[str], requests: list[Recorded]) -> CaptureError:
    return CaptureError(f"{what}: {len(requests)} requests recorded, {_tail(proc)}")


def _posts(requests: list[Recorded]) -> list[dict]:
    return [r.body for r in requests if r.method == "POST" and isinstance(r.body, dict) and "count_tokens" not in r.path]


def _tool_results(body: dict) -> dict[str, tuple[int, int, dict]]:
    """tool_use_id -> (message index, block index, block) of every tool_result in ``body``."""
    out = {}
    for i, m in enumerate(body.get("messages") or []):
        content = m.get("content")
        if isinstance(content, list):
            for j, c in enumerate(content):
                if isinstance(c, dict) and c.get("type") == "tool_result":
                    out[str(c.get("tool_use_id"))] = (i, j, c)
    return out


def _longest(requests: list[Recorded]) -> dict:
    """The request with the most messages: the conversation's last turn holds every earlier one."""
    posts = [b for b in _posts(requests) if isinstance(b.get("messages"), list)]
    return max(posts, key=lambda b: len(b["messages"]), default={})


def _window(timeout: float, calls: int) -> tuple[int, float]:
    """(max requests, lifetime) for an endpoint answering ``calls`` tool calls."""
    return 40 + 4 * calls, timeout


# -- Claude Code ---------------------------------------------------------------

CLAUDE_HEADER = "The following skills are available for use with the Skill tool:"
# `- name: text`, `- folder (name): text`, or past the listing budget `- name` alone.
_CLAUDE_ENTRY = re.compile(r"- (?P<name>[^\s:(]+)(?: \((?P<declared>[^)]*)\))?(?:: |$)")


def _claude_block(text: str) -> str | None:
    start = text.find(CLAUDE_HEADER)
    if start < 0:
        return None
    lines = text[start:].split("\n")
    kept = lines[:2]
    for i in range(2, len(lines)):
        line = lines[i]
        if line == "" and (i + 1 >= len(lines) or not lines[i + 1].startswith("- ")):
            break
        kept.append(line)
    return "\n".join(kept)


def claude_entries(block: str) -> list[str]:
    """The entries of a listing block; an entry runs until the next line starting with ``- ``."""
    entries: list[str] = []
    for line in block.split("\n")[2:]:
        if line.startswith("- ") or not entries:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    return entries


def _hidden_from_model(skill_md: Path) -> bool:
    """Whether Claude Code keeps the skill out of the model's listing (`disable-model-invocation`
    and the other flags it reads so), its frontmatter read as the release reads it."""
    from ..engine.claude_frontmatter import read  # noqa: PLC0415
    from ..engine.harness import HARNESSES  # noqa: PLC0415

    try:
        fields = read(skill_md.read_text(encoding="utf-8", errors="replace")).fields
    except OSError:
        return False
    return HARNESSES["claude-code"].hides(fields)


def claude_name(entry: str) -> str:
    m = _CLAUDE_ENTRY.match(entry)
    return m.group("name") if m else entry


#: A `context: fork` skill's tool result: the subagent's answer follows.
_FORKED = re.compile(r'Skill "([^"\n]*)" completed \(forked execution\)\.\n\nResult:\n')


def _claude_dir(text: str) -> str | None:
    """The folder name in an activation's `Base directory for this skill: <dir>` line."""
    head = "Base directory for this skill: "
    if not text.startswith(head):
        return None
    return text[len(head):].split("\n", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _bodies_in_call_order(messages: list, hits: list) -> dict[int, str]:
    """Call number -> the body it loaded, where that can be told by order alone: the text blocks
    after the tool results come one per call that launched a skill or a command (none for a failed
    call or a forked skill), in the order of the calls; {} when their count says otherwise."""
    launched = [n for n, hit in enumerate(hits, 1) if hit is not None
                and "\n".join(_texts(hit[2].get("content"))).startswith("Launching skill: ")]
    places = {(hit[0], hit[1]) for hit in hits if hit is not None}
    if not launched or len({i for i, _ in places}) != 1:
        return {}
    i = next(iter(places))[0]
    last = max(j for _, j in places)
    bodies = [x.get("text") for x in messages[i]["content"][last + 1:]
              if isinstance(x, dict) and x.get("type") == "text" and isinstance(x.get("text"), str)]
    return dict(zip(launched, bodies, strict=True)) if len(bodies) == len(launched) else {}


def claude_code(argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
                builtin_names: Mapping[str, int] | None, timeout: float = RUN_TIMEOUT) -> Run:
    calls = []
    for skill, arguments in activations:
        call_args: dict[str, Any] = {"skill": skill}
        if arguments:
            call_args["args"] = arguments
        calls.append(ToolCall("Skill", call_args))
    prompt = f"Use the {activations[0][0]} skill." if len(activations) == 1 else "Use the skills."
    max_requests, lifetime = _window(timeout, len(calls))
    # All calls in one turn: Claude Code runs them as parallel tool uses. Asked one per turn it
    # sends overlapping requests and merges their turns, so calls get lost.
    with Endpoint(calls, max_requests=max_requests, lifetime=lifetime, parallel=True) as ep:
        env = _env(home, ANTHROPIC_BASE_URL=ep.url, ANTHROPIC_API_KEY="sk-ant-capture",
                   DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        # Skills that declare allowed-tools ask for permission; -p cannot answer, so allow the tool.
        proc = _run([*argv, "-p", prompt, "--allowedTools", "Skill"], workspace, env, timeout)
        requests = ep.requests
    block = None
    for body in _posts(requests):
        texts = [t for s in body.get("system") or [] for t in _texts([s])]
        for m in body.get("messages") or []:
            texts.extend(_texts(m.get("content")))
        block = next((b for b in map(_claude_block, texts) if b is not None), None)
        if block is not None:
            break
    if block is None:
        raise _failed("claude-code: no catalog", proc, requests)
    last = _longest(requests)
    results = _tool_results(last)
    messages = last.get("messages") or []
    out = []
    taken: set[int] = set()
    by_call = _bodies_in_call_order(messages, [results.get(call_id(n)) for n in range(1, len(activations) + 1)])
    for n, (skill, arguments) in enumerate(activations, 1):
        hit = results.get(call_id(n))
        if hit is None:
            out.append(Activation(skill, arguments, None, None))
            continue
        i, j, c = hit
        result = "\n".join(_texts(c.get("content")))
        forked = _FORKED.match(result)
        if forked is not None:
            # `context: fork`: a subagent gets the body as its prompt (a request of its own), and the
            # tool result is its answer, which the endpoint wrote: kept as a placeholder.
            name = forked.group(1)
            prompts = [t for body in _posts(requests) for m in body.get("messages") or []
                       if m.get("role") == "user" for t in _texts(m.get("content")) if _claude_dir(t) == name]
            out.append(Activation(skill, arguments, prompts[0] if prompts else "",
                                  result[:forked.end()] + FORKED_ANSWER))
            continue
        # The bodies follow the tool results as text blocks of their own (none for a skill that
        # failed), each opening with its folder: `Base directory for this skill: <dir>`.
        folder = result.removeprefix("Launching skill: ") if result.startswith("Launching skill: ") else None
        texts = [x.get("text") for x in messages[i]["content"][j + 1:]
                 if isinstance(x, dict) and x.get("type") == "text" and isinstance(x.get("text"), str)]
        # A plugin's skill is called `plugin:folder` (probe plugin-names); a body taken by an
        # earlier call of the same folder is not taken again.
        mine = [t for t in texts if folder is not None and _claude_dir(t) in (folder, folder.rsplit(":", 1)[-1])
                and id(t) not in taken]
        if not mine and folder is not None and n in by_call:
            # Called by a declared name (probe plugin-names: `mm-declared` for the folder nn-named),
            # or a command, whose body has no `Base directory` line.
            mine = [by_call[n]]
        if mine:
            taken.add(id(mine[0]))
        text = mine[0] if mine else ""
        # Joining the parallel results into one message, the release appends "\n" to every text
        # block but the last (probed: five body endings, each the single-activation text + "\n").
        if mine and texts and mine[0] is not texts[-1] and text.endswith("\n"):
            text = text[:-1]
        out.append(Activation(skill, arguments, text, result))
    entries = claude_entries(block)
    if builtin_names is None:  # the baseline run: every entry is built in
        builtin_names = {claude_name(e): len(e) for e in entries}
    # A skill folder of the user's named like a built-in skill replaces it (capture case
    # builtin-names): an entry of that name is the user's. One the model may not invoke
    # (disable-model-invocation) is not listed and leaves the built-in's entry in place (case
    # builtin-name-hidden; capture diff --real seed 20, a real `loop`): that entry has the
    # built-in's size (its text is never kept).
    own = {d.name: d for root in (workspace / ".claude" / "skills", home / ".claude" / "skills") if root.is_dir()
           for d in root.iterdir()}

    def built_in(e: str) -> bool:
        name = claude_name(e)
        if name not in builtin_names:
            return False
        if name not in own:
            return True
        # The user's skill is listed in the built-in's place unless the model may not invoke it: its
        # entry is the user's whatever its size (held-out unseen25: a `simplify` listed in exactly
        # the built-in's 188 characters was taken for the built-in's).
        return _hidden_from_model(own[name] / "SKILL.md") and builtin_names[name] == len(e)

    builtins = [{"name": claude_name(e), "entry_chars": len(e)} for e in entries if built_in(e)]
    user = [e for e in entries if not built_in(e)]
    catalog = "\n".join([CLAUDE_HEADER, "", *user])
    return Run(catalog, out, builtins, {"prompt": prompt, "tool": "Skill"}, _tail(proc))


# -- Codex ---------------------------------------------------------------------

def _codex_builtin(line: str) -> dict[str, Any]:
    """Name and sizes of a system skill's line; where its multi-byte characters sit
    (the token budget counts UTF-8 bytes), never the text."""
    name = line[2:].split(":", 1)[0]
    description = line[len(f"- {name}: "):line.rindex(" (file: ")]
    wide = [[i, len(ch.encode("utf-8"))] for i, ch in enumerate(description) if ord(ch) > 0x7F]
    return {"name": name, "entry_chars": len(line), "description_chars": len(description),
            "description_multibyte": wide}


_CODEX_SKILL = re.compile(r"<skill>\n<name>(?P<name>.*?)</name>\n", re.S)


def codex(argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
          builtin_names: Mapping[str, int] | None, timeout: float = RUN_TIMEOUT) -> Run:
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    # A `$name` mention injects the skill: one prompt mentions every skill to activate.
    if len(activations) == 1:
        prompt = f"Use ${activations[0][0]} {activations[0][1]}".rstrip()
    else:
        prompt = "Use " + " ".join(f"${skill}" for skill, _ in activations)
    with Endpoint(None, max_requests=20, lifetime=timeout) as ep:
        (codex_home / "config.toml").write_text(
            'model_provider = "mock"\nmodel = "gpt-5"\n\n[model_providers.mock]\nname = "mock"\n'
            f'base_url = "{ep.url}/v1"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n',
            encoding="utf-8")
        proc = _run([*argv, "exec", "--skip-git-repo-check", prompt], workspace,
                    _env(home, CODEX_HOME=str(codex_home)), timeout)
        requests = ep.requests
    catalog = None
    injected: list[str] = []
    for body in _posts(requests):
        for item in body.get("input") or []:
            for text in _texts(item.get("content") if isinstance(item, dict) else None):
                if text.startswith("<skills_instructions>") and catalog is None:
                    catalog = text
                elif text.startswith("<skill>\n") and text not in injected:
                    injected.append(text)
        if catalog is not None and injected:
            break
    if catalog is None:
        raise _failed("codex: no <skills_instructions>", proc, requests)
    by_name: dict[str, str] = {}
    for text in injected:
        m = _CODEX_SKILL.match(text)
        if m is not None:
            by_name.setdefault(m.group("name"), text)
    if len(activations) == 1:
        out = [Activation(activations[0][0], activations[0][1], injected[0] if injected else None)]
    else:
        out = [Activation(skill, arguments, by_name.get(skill)) for skill, arguments in activations]
    # System skills (the root `$CODEX_HOME/skills/.system`) are the built-ins.
    lines = catalog.split("\n")
    system = [m.group(1) for m in (re.match(r"- `(r\d+)` = `(.*)`$", ln) for ln in lines)
              if m and m.group(2) == str(codex_home / "skills" / ".system")]
    builtin = [ln for ln in lines if ln.startswith("- ") and ln.endswith(")")
               and any(f"(file: {label}/" in ln for label in system)]
    builtins = [_codex_builtin(ln) for ln in builtin]
    catalog = "\n".join(ln for ln in lines if ln not in builtin)
    return Run(catalog, out, builtins, {"prompt": prompt}, _tail(proc))


# -- OpenCode ------------------------------------------------------------------

_OC_BLOCK = re.compile(r"  <skill>\n    <name>(?P<name>.*?)</name>\n.*?\n  </skill>\n?", re.S)
OPENCODE_START = "Skills provide specialized instructions"


def opencode(argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
             builtin_names: Mapping[str, int] | None, timeout: float = RUN_TIMEOUT) -> Run:
    xdg = home / ".config"
    (xdg / "opencode").mkdir(parents=True, exist_ok=True)
    prompt = f"Use the {activations[0][0]} skill." if len(activations) == 1 else "Use the skills."
    calls = [ToolCall("skill", {"name": skill}) for skill, _ in activations]
    max_requests, lifetime = _window(timeout, len(calls))
    # All calls in one turn (parallel tool uses): one turn per call costs about a second each.
    with Endpoint(calls, max_requests=max_requests, lifetime=lifetime, parallel=True) as ep:
        config = {"autoupdate": False, "share": "disabled", "model": "anthropic/claude-sonnet-4-5",
                  "permission": {"skill": "allow"},
                  "provider": {"anthropic": {"options": {"baseURL": ep.url + "/v1", "apiKey": "sk-ant-capture"}}}}
        (xdg / "opencode" / "opencode.json").write_text(json.dumps(config), encoding="utf-8")
        env = _env(home, XDG_CONFIG_HOME=str(xdg), XDG_DATA_HOME=str(home / ".local/share"),
                   XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local/state"),
                   OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1")
        proc = _run([*argv, "run", prompt], workspace, env, timeout)
        requests = ep.requests
    catalog = None
    for body in _posts(requests):
        for text in [t for s in body.get("system") or [] for t in _texts([s])]:
            start = text.find(OPENCODE_START)
            end = text.find("</available_skills>", start)
            if start >= 0 and end >= 0 and catalog is None:
                catalog = text[start:end + len("</available_skills>")]
    if catalog is None:
        raise _failed("opencode: no catalog", proc, requests)
    results = _tool_results(_longest(requests))
    out = []
    for n, (skill, arguments) in enumerate(activations, 1):
        hit = results.get(call_id(n))
        out.append(Activation(skill, arguments, None if hit is None else "\n".join(_texts(hit[2].get("content")))))
    builtins = []
    for m in list(_OC_BLOCK.finditer(catalog)):
        if "<location>&lt;built-in&gt;</location>" in m.group(0):
            builtins.append({"name": m.group("name"), "entry_chars": len(m.group(0).rstrip("\n"))})
    catalog = _OC_BLOCK.sub(lambda m: "" if "<location>&lt;built-in&gt;</location>" in m.group(0) else m.group(0),
                            catalog)
    return Run(catalog, out, builtins, {"prompt": prompt, "tool": "skill"}, _tail(proc))


# -- Gemini CLI (core library, no model) ------------------------------------------

GEMINI_SCRIPT = Path(__file__).resolve().parent / "gemini_capture.mjs"


def gemini(argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
           builtin_names: Mapping[str, int] | None, timeout: float = RUN_TIMEOUT) -> Run:
    """``argv``: ``[node, <the @google/gemini-cli-core package folder>]``."""
    node, package = argv[0], argv[1]
    with tempfile.TemporaryDirectory(prefix="gemini-capture-") as tmp:
        out_file = Path(tmp) / "out.json"
        names_file = Path(tmp) / "skills.json"
        names_file.write_text(json.dumps([s for s, _ in activations]), encoding="utf-8")
        proc = _run([node, str(GEMINI_SCRIPT), package, str(workspace), str(names_file), str(out_file)],
                    workspace, _env(home), timeout)
        if proc.returncode != 0 or not out_file.exists():
            raise _failed("gemini: node script", proc, [])
        data = json.loads(out_file.read_text(encoding="utf-8"))
    acts = [Activation(skill, arguments, text) for (skill, arguments), text in zip(activations, data["activations"], strict=True)]
    return Run(data["catalog"], acts, data["builtins"],
               {"call": "renderAgentSkills + ActivateSkillTool.execute", "skills": data["skills"]}, _tail(proc))


# -- GitHub Copilot CLI ------------------------------------------------------------

_CP_BLOCK = re.compile(r"<skill>\n  <name>(?P<name>.*?)</name>\n.*?\n</skill>\n?", re.S)


def copilot(argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
            builtin_names: Mapping[str, int] | None, timeout: float = RUN_TIMEOUT) -> Run:
    prompt = f"Use the {activations[0][0]} skill." if len(activations) == 1 else "Use the skills."
    calls = [ToolCall("skill", {"skill": skill}) for skill, _ in activations]
    max_requests, lifetime = _window(timeout, len(calls))
    with Endpoint(calls, max_requests=max_requests, lifetime=lifetime) as ep:
        # Offline mode with a bring-your-own-key provider: no GitHub sign-in, nothing
        # but the endpoint is contacted.
        env = _env(home, COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=ep.url,
                   COPILOT_PROVIDER_TYPE="anthropic", COPILOT_PROVIDER_API_KEY="sk-ant-capture",
                   COPILOT_MODEL="claude-sonnet-4.5", COPILOT_AUTO_UPDATE="false", COPILOT_ALLOW_ALL="true")
        proc = _run([*argv, "-p", prompt, "--no-auto-update", "--disable-client-telemetry"], workspace, env,
                    timeout)
        requests = ep.requests
    catalog = None
    for body in _posts(requests):
        for text in [t for s in body.get("system") or [] for t in _texts([s])]:
            start, end = text.find("<available_skills>"), text.find("</available_skills>")
            if start >= 0 and end >= 0 and catalog is None:
                catalog = text[start:end + len("</available_skills>")]
    if catalog is None:
        raise _failed("copilot: no catalog", proc, requests)
    last = _longest(requests)
    messages = last.get("messages") or []
    results = _tool_results(last)
    out = []
    for n, (skill, arguments) in enumerate(activations, 1):
        hit = results.get(call_id(n))
        if hit is None:
            out.append(Activation(skill, arguments, None, None))
            continue
        i = hit[0]
        nxt = results.get(call_id(n + 1))
        stop = nxt[0] if nxt is not None else len(messages)
        following = [t for later in messages[i + 1:stop] for t in _texts(later.get("content"))]
        context = next((t for t in following if t.startswith("<skill-context")), "")
        out.append(Activation(skill, arguments, context, "\n".join(_texts(hit[2].get("content")))))
    builtins = [{"name": m.group("name"), "entry_chars": len(m.group(0).rstrip("\n"))}
                for m in _CP_BLOCK.finditer(catalog) if "<location>builtin</location>" in m.group(0)]
    catalog = _CP_BLOCK.sub(lambda m: "" if "<location>builtin</location>" in m.group(0) else m.group(0), catalog)
    return Run(catalog, out, builtins, {"prompt": prompt, "tool": "skill"}, _tail(proc))


DRIVERS = {"claude-code": claude_code, "codex": codex, "opencode": opencode, "gemini": gemini,
           "copilot": copilot}


def run(harness: str, argv: list[str], workspace: Path, home: Path, activations: list[tuple[str, str]],
        builtin_names: Mapping[str, int] | None = None, timeout: float = RUN_TIMEOUT) -> Run:
    """Run ``harness`` (started by ``argv``) on ``workspace`` with ``home`` as its home folder,
    activating each (skill, arguments) of ``activations`` (at least one) in one run."""
    if not activations:
        raise ValueError("at least one skill to activate (a missing name is fine)")
    return DRIVERS[harness](argv, workspace, home, activations, builtin_names, timeout)
