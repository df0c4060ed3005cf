"""One driver per harness: run the pinned release on a laid-out case, pull out what the model saw.

Each returns a :class:`Capture` with the harness's built-in skill entries
already taken out (only their names and sizes are kept).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .endpoint import Endpoint, Recorded, ToolCall
from .install import Pin, ensure

RUN_TIMEOUT = 180  # seconds for one harness process


@dataclass
class Capture:
    catalog: str
    activation: str
    tool_result: str | None = None
    builtins: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


class CaptureError(RuntimeError):
    pass


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TERM": "dumb",
           "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1"}
    env.update(extra)
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          stdin=subprocess.DEVNULL)


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    out = []
    for c in content or []:
        if isinstance(c, dict) and isinstance(c.get("text"), str):
            out.append(c["text"])
    return out


def _failed(what: str, proc: subprocess.CompletedProcess[str], requests: list[Recorded]) -> CaptureError:
    tail = (proc.stderr or proc.stdout or "")[-1500:]
    return CaptureError(f"{what}: exit {proc.returncode}, {len(requests)} requests recorded\n{tail}")


def _posts(requests: list[Recorded]) -> list[dict]:
    return [r.body for r in requests if r.method == "POST" and isinstance(r.body, dict) and "count_tokens" not in r.path]


# -- Claude Code ---------------------------------------------------------------

CLAUDE_HEADER = "The following skills are available for use with the Skill tool:"
_CLAUDE_ENTRY = re.compile(r"- (?P<name>[^\s:(]+)(?: \((?P<declared>[^)]*)\))?: ")


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


def _claude_name(entry: str) -> str:
    m = _CLAUDE_ENTRY.match(entry)
    return m.group("name") if m else entry


def claude_code(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
                builtin_names: set[str] | None) -> Capture:
    binary = ensure(pin) / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64" / "claude"
    call_args: dict[str, Any] = {"skill": skill}
    if arguments:
        call_args["args"] = arguments
    prompt = f"Use the {skill} skill."
    with Endpoint(ToolCall("Skill", call_args), max_requests=40, lifetime=RUN_TIMEOUT) as ep:
        env = _env(home, ANTHROPIC_BASE_URL=ep.url, ANTHROPIC_API_KEY="sk-ant-capture",
                   DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        # Skills that declare allowed-tools ask for permission; -p cannot answer, so allow the tool.
        proc = _run([str(binary), "-p", prompt, "--allowedTools", "Skill"], workspace, env)
        requests = ep.requests
    block = None
    activation = tool_result = None
    for body in _posts(requests):
        texts = [t for s in body.get("system") or [] for t in _texts([s])]
        for m in body.get("messages") or []:
            texts.extend(_texts(m.get("content")))
            content = m.get("content")
            if isinstance(content, list):
                for i, c in enumerate(content):
                    if isinstance(c, dict) and c.get("type") == "tool_result" and c.get("tool_use_id") == "toolu_mock_1":
                        tool_result = "\n".join(_texts(c.get("content")))
                        after = [x.get("text") for x in content[i + 1:] if isinstance(x, dict) and x.get("type") == "text"]
                        activation = after[0] if after else ""
        if block is None:
            block = next((b for b in map(_claude_block, texts) if b is not None), None)
    if block is None or (activation is None and builtin_names is not None):
        raise _failed("claude-code: no catalog or no activation", proc, requests)
    entries = claude_entries(block)
    if builtin_names is None:  # the baseline run: every entry is built in
        builtin_names = {_claude_name(e) for e in entries}
    builtins = [{"name": _claude_name(e), "entry_chars": len(e)} for e in entries if _claude_name(e) in builtin_names]
    user = [e for e in entries if _claude_name(e) not in builtin_names]
    catalog = "\n".join([CLAUDE_HEADER, "", *user])
    return Capture(catalog, activation or "", tool_result, builtins,
                   {"prompt": prompt, "tool": "Skill", "tool_input": call_args})


# -- Codex ---------------------------------------------------------------------

def _codex_builtin(line: str) -> dict[str, Any]:
    """Name and sizes of a system skill's line; where its multi-byte characters sit
    (the token budget counts UTF-8 bytes), never the text."""
    name = line[2:].split(":", 1)[0]
    description = line[len(f"- {name}: "):line.rindex(" (file: ")]
    wide = [[i, len(ch.encode("utf-8"))] for i, ch in enumerate(description) if ord(ch) > 0x7F]
    return {"name": name, "entry_chars": len(line), "description_chars": len(description),
            "description_multibyte": wide}


def codex(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
          builtin_names: set[str] | None) -> Capture:
    binary = (ensure(pin) / "node_modules" / "@openai" / "codex-linux-x64" / "vendor"
              / "x86_64-unknown-linux-musl" / "bin" / "codex")
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    prompt = f"Use ${skill} {arguments}".rstrip()
    with Endpoint(None, max_requests=20, lifetime=RUN_TIMEOUT) as ep:
        (codex_home / "config.toml").write_text(
            'model_provider = "mock"\nmodel = "gpt-5"\n\n[model_providers.mock]\nname = "mock"\n'
            f'base_url = "{ep.url}/v1"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n',
            encoding="utf-8")
        proc = _run([str(binary), "exec", "--skip-git-repo-check", prompt], workspace,
                    _env(home, CODEX_HOME=str(codex_home)))
        requests = ep.requests
    catalog = activation = None
    for body in _posts(requests):
        for item in body.get("input") or []:
            for text in _texts(item.get("content") if isinstance(item, dict) else None):
                if text.startswith("<skills_instructions>") and catalog is None:
                    catalog = text
                elif text.startswith("<skill>\n") and activation is None:
                    activation = text
    if catalog is None:
        raise _failed("codex: no <skills_instructions>", proc, requests)
    # System skills (the root `$CODEX_HOME/skills/.system`) are the built-ins.
    lines = catalog.split("\n")
    system = [m.group(1) for m in (re.match(r"- `(r\d+)` = `(.*)`$", ln) for ln in lines)
              if m and m.group(2) == str(codex_home / "skills" / ".system")]
    builtin = [ln for ln in lines if ln.startswith("- ") and ln.endswith(")")
               and any(f"(file: {label}/" in ln for label in system)]
    builtins = [_codex_builtin(ln) for ln in builtin]
    catalog = "\n".join(ln for ln in lines if ln not in builtin)
    return Capture(catalog, activation or "", None, builtins, {"prompt": prompt})


# -- OpenCode ------------------------------------------------------------------

_OC_BLOCK = re.compile(r"  <skill>\n    <name>(?P<name>.*?)</name>\n.*?\n  </skill>\n?", re.S)
OPENCODE_START = "Skills provide specialized instructions"


def opencode(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
             builtin_names: set[str] | None) -> Capture:
    binary = ensure(pin) / "node_modules" / "opencode-linux-x64" / "bin" / "opencode"
    xdg = home / ".config"
    (xdg / "opencode").mkdir(parents=True, exist_ok=True)
    prompt = f"Use the {skill} skill."
    with Endpoint(ToolCall("skill", {"name": skill}), max_requests=20, lifetime=RUN_TIMEOUT) as ep:
        config = {"autoupdate": False, "share": "disabled", "model": "anthropic/claude-sonnet-4-5",
                  "permission": {"skill": "allow"},
                  "provider": {"anthropic": {"options": {"baseURL": ep.url + "/v1", "apiKey": "sk-ant-capture"}}}}
        (xdg / "opencode" / "opencode.json").write_text(json.dumps(config), encoding="utf-8")
        env = _env(home, XDG_CONFIG_HOME=str(xdg), XDG_DATA_HOME=str(home / ".local/share"),
                   XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local/state"),
                   OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1")
        proc = _run([str(binary), "run", prompt], workspace, env)
        requests = ep.requests
    catalog = activation = None
    for body in _posts(requests):
        for text in [t for s in body.get("system") or [] for t in _texts([s])]:
            start = text.find(OPENCODE_START)
            end = text.find("</available_skills>", start)
            if start >= 0 and end >= 0 and catalog is None:
                catalog = text[start:end + len("</available_skills>")]
        for m in body.get("messages") or []:
            content = m.get("content")
            if isinstance(content, list):
                for c in content:
                    if isinstance(c, dict) and c.get("type") == "tool_result" and c.get("tool_use_id") == "toolu_mock_1":
                        activation = "\n".join(_texts(c.get("content")))
    if catalog is None or activation is None:
        raise _failed("opencode: no catalog or no activation", proc, requests)
    builtins = []
    for m in list(_OC_BLOCK.finditer(catalog)):
        if "<location>&lt;built-in&gt;</location>" in m.group(0):
            builtins.append({"name": m.group("name"), "entry_chars": len(m.group(0).rstrip("\n"))})
    catalog = _OC_BLOCK.sub(lambda m: "" if "<location>&lt;built-in&gt;</location>" in m.group(0) else m.group(0),
                            catalog)
    return Capture(catalog, activation, None, builtins, {"prompt": prompt, "tool": "skill", "tool_input": {"name": skill}})


# -- Gemini CLI (core library, no model) ------------------------------------------

GEMINI_SCRIPT = Path(__file__).resolve().parent / "gemini_capture.mjs"


def gemini(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
           builtin_names: set[str] | None) -> Capture:
    package = ensure(pin) / "node_modules" / "@google" / "gemini-cli-core"
    out = home.parent / "gemini-capture.json"
    proc = _run(["node", str(GEMINI_SCRIPT), str(package), str(workspace), skill, str(out)], workspace, _env(home))
    if proc.returncode != 0 or not out.exists():
        raise _failed("gemini: node script", proc, [])
    data = json.loads(out.read_text(encoding="utf-8"))
    return Capture(data["catalog"], data["activation"], None, data["builtins"],
                   {"call": "renderAgentSkills + ActivateSkillTool.execute", "tool_input": {"name": skill}})


# -- GitHub Copilot CLI ------------------------------------------------------------

_CP_BLOCK = re.compile(r"<skill>\n  <name>(?P<name>.*?)</name>\n.*?\n</skill>\n?", re.S)


def copilot(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
            builtin_names: set[str] | None) -> Capture:
    binary = ensure(pin) / "node_modules" / "@github" / "copilot-linux-x64" / "copilot"
    prompt = f"Use the {skill} skill."
    with Endpoint(ToolCall("skill", {"skill": skill}), max_requests=20, lifetime=RUN_TIMEOUT) as ep:
        # Offline mode with a bring-your-own-key provider: no GitHub sign-in, nothing
        # but the endpoint is contacted.
        env = _env(home, COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=ep.url,
                   COPILOT_PROVIDER_TYPE="anthropic", COPILOT_PROVIDER_API_KEY="sk-ant-capture",
                   COPILOT_MODEL="claude-sonnet-4.5", COPILOT_AUTO_UPDATE="false", COPILOT_ALLOW_ALL="true")
        proc = _run([str(binary), "-p", prompt, "--no-auto-update", "--disable-client-telemetry"], workspace, env)
        requests = ep.requests
    catalog = activation = tool_result = None
    for body in _posts(requests):
        for text in [t for s in body.get("system") or [] for t in _texts([s])]:
            start, end = text.find("<available_skills>"), text.find("</available_skills>")
            if start >= 0 and end >= 0 and catalog is None:
                catalog = text[start:end + len("</available_skills>")]
        messages = body.get("messages") or []
        for i, m in enumerate(messages):
            content = m.get("content")
            if not isinstance(content, list):
                continue
            for c in content:
                if isinstance(c, dict) and c.get("type") == "tool_result" and c.get("tool_use_id") == "toolu_mock_1":
                    tool_result = "\n".join(_texts(c.get("content")))
                    following = [t for later in messages[i + 1:] for t in _texts(later.get("content"))]
                    activation = next((t for t in following if t.startswith("<skill-context")), "")
    if catalog is None or tool_result is None:
        raise _failed("copilot: no catalog or no activation", proc, requests)
    builtins = [{"name": m.group("name"), "entry_chars": len(m.group(0).rstrip("\n"))}
                for m in _CP_BLOCK.finditer(catalog) if "<location>builtin</location>" in m.group(0)]
    catalog = _CP_BLOCK.sub(lambda m: "" if "<location>builtin</location>" in m.group(0) else m.group(0), catalog)
    return Capture(catalog, activation or "", tool_result, builtins,
                   {"prompt": prompt, "tool": "skill", "tool_input": {"skill": skill}})


DRIVERS = {"claude-code": claude_code, "codex": codex, "opencode": opencode, "gemini": gemini,
           "copilot": copilot}
