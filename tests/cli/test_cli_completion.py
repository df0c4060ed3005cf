"""`skill-lsp completion bash|zsh|fish` loaded into the real shells, and --help examples.

bash is always there; zsh and fish are Debian packages (.ci/run installs them): the
tests that need them skip when missing, except under CI=true, where they fail.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skill_lsp.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "skill_lsp"]


def script(shell: str) -> str:
    out = subprocess.run([*CLI, "completion", shell], capture_output=True, text=True, check=True)
    return out.stdout


def need(shell: str) -> str:
    path = shutil.which(shell)
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {shell} is not installed (apt-get install {shell})", pytrace=False)
    pytest.skip(f"{shell} is not installed")


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("completion") / "skill-lsp.bash"
    path.write_text(script("bash"))
    return path


def bash_complete(bash_script: Path, line: str) -> list[str]:
    """What bash's completion function offers for `line` (the cursor at its end)."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    probe = f"""
source {shlex.quote(str(bash_script))}
spec=$(complete -p skill-lsp) || exit 3
[[ "$spec" == *"-F _skill_lsp"* ]] || {{ echo "bad spec: $spec"; exit 4; }}
COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={shlex.quote(line)}
COMP_POINT=${{#COMP_LINE}}
_skill_lsp skill-lsp "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return sorted(w for w in proc.stdout.splitlines() if w)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("skill-lsp ", ["capture", "catalog", "check", "completion", "harnesses", "preview", "rules", "schema", "serve"]),
        ("skill-lsp c", ["capture", "catalog", "check", "completion"]),
        ("skill-lsp check --f", ["--fail-on", "--fix", "--force-exclude", "--format"]),
        ("skill-lsp check --format ", ["github", "json", "sarif", "text"]),
        ("skill-lsp check --profile c", ["claude-code", "codex", "copilot"]),
        ("skill-lsp check --fail-on w", ["warning"]),
        ("skill-lsp preview --dialect c", ["claude-code", "codex", "copilot"]),
        ("skill-lsp catalog --state ", ["first", "replacement"]),
        ("skill-lsp rules --format m", ["markdown"]),
        ("skill-lsp completion ", ["bash", "fish", "zsh"]),
        ("skill-lsp check --jobs ", []),
        ("skill-lsp check sample-w", ["sample-workspace"]),
        ("skill-lsp --ver", ["--version"]),
    ],
)
def test_bash_completion(bash_script: Path, line: str, expected: list[str]) -> None:
    assert bash_complete(bash_script, line) == expected


def test_bash_dialects_follow_the_parser(bash_script: Path) -> None:
    from skill_lsp.engine.config import DIALECT_NAMES

    assert bash_complete(bash_script, "skill-lsp preview --dialect ") == sorted(DIALECT_NAMES)


def fish_complete(line: str, tmp_path: Path) -> list[str]:
    fish = need("fish")
    path = tmp_path / "skill-lsp.fish"
    path.write_text(script("fish"))
    proc = subprocess.run(
        [fish, "--no-config", "-c", f"source {shlex.quote(str(path))}; complete -C {shlex.quote(line)}"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, env=dict(os.environ, HOME=str(tmp_path)),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return sorted(w.split("\t")[0] for w in proc.stdout.splitlines() if w)


def test_fish_syntax(tmp_path: Path) -> None:
    fish = need("fish")
    path = tmp_path / "skill-lsp.fish"
    path.write_text(script("fish"))
    proc = subprocess.run([fish, "--no-config", "-n", str(path)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("skill-lsp ch", ["check"]),
        ("skill-lsp check --format ", ["github", "json", "sarif", "text"]),
        ("skill-lsp preview --dialect ge", ["gemini"]),
        ("skill-lsp completion ", ["bash", "fish", "zsh"]),
    ],
)
def test_fish_completion(tmp_path: Path, line: str, expected: list[str]) -> None:
    assert fish_complete(line, tmp_path) == expected


def test_fish_completes_paths_for_check(tmp_path: Path) -> None:
    assert "sample-workspace/" in fish_complete("skill-lsp check sample-w", tmp_path)


def test_zsh_syntax_and_registration(tmp_path: Path) -> None:
    zsh = need("zsh")
    path = tmp_path / "_skill-lsp"
    path.write_text(script("zsh"))
    syntax = subprocess.run([zsh, "-n", str(path)], capture_output=True, text=True, timeout=30)
    assert syntax.returncode == 0, syntax.stderr
    # Sourced after compinit, it registers itself for skill-lsp.
    probe = f"autoload -U compinit && compinit -u -d {tmp_path}/zcompdump && source {path} && print -r -- $_comps[skill-lsp]"
    proc = subprocess.run([zsh, "-f", "-c", probe], capture_output=True, text=True, timeout=30, env=dict(os.environ, HOME=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "_skill_lsp"
    text = path.read_text()
    assert "(text json sarif github)" in text and "(first replacement)" in text


def test_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["completion", "tcsh"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def subcommands() -> dict[str, object]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(action.choices)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_help_has_examples_that_parse(name: str) -> None:
    sub = subcommands()[name]
    help_text = sub.format_help()  # type: ignore[attr-defined]
    assert "\nexamples:\n" in help_text, help_text
    examples = [line.strip() for line in help_text.split("\nexamples:\n", 1)[1].splitlines() if line.strip().startswith("skill-lsp ")]
    assert examples, help_text
    parser = build_parser()
    for example in examples:
        command = re.split(r"\s{2,}|\s[>|]\s", example, maxsplit=1)[0]
        argv = shlex.split(command)[1:]
        assert argv[0] == name, example
        try:
            parser.parse_args(argv)
        except SystemExit as e:  # argparse exits 2 on a bad example
            pytest.fail(f"example does not parse: {example!r} ({e.code})")


def test_zsh_completes_in_a_terminal(tmp_path: Path) -> None:
    """Tab in a real interactive zsh (tmux): the format choices are listed."""
    zsh = need("zsh")
    tmux = need("tmux")
    fdir = tmp_path / "functions"
    fdir.mkdir()
    (fdir / "_skill-lsp").write_text(script("zsh"))
    (tmp_path / ".zshrc").write_text(
        f"fpath=({fdir} $fpath)\nautoload -U compinit && compinit -u -d {tmp_path}/.zcompdump\nPS1='%% '\n"
    )
    sock = str(tmp_path / "tmux.sock")
    bindir = Path(sys.executable).parent
    env = f"env HOME={tmp_path} ZDOTDIR={tmp_path} PATH={bindir}:/usr/bin:/bin TERM=xterm"
    run = lambda *a: subprocess.run([tmux, "-S", sock, *a], capture_output=True, text=True, timeout=30, check=True).stdout  # noqa: E731
    run("-f", "/dev/null", "new-session", "-d", "-s", "z", "-x", "150", "-y", "20", f"{env} {zsh}")
    try:
        deadline = time.monotonic() + 30
        while "%" not in run("capture-pane", "-p", "-t", "z") and time.monotonic() < deadline:
            time.sleep(0.1)
        run("send-keys", "-t", "z", "skill-lsp check --format ", "Tab")
        screen = ""
        while time.monotonic() < deadline:
            screen = run("capture-pane", "-p", "-t", "z")
            if "sarif" in screen:
                break
            time.sleep(0.1)
        assert re.search(r"github\s+json\s+sarif\s+text", screen), screen
    finally:
        subprocess.run([tmux, "-S", sock, "kill-server"], capture_output=True, timeout=30)
