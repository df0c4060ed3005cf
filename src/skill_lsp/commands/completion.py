"""`skill-lsp completion bash|zsh|fish`: a completion script built from the CLI's parser.

The scripts are generated from `build_parser()` at run time, so every subcommand,
option and choice list (formats, dialects, profiles, …) stays in step with the
CLI. Options without choices complete file names when they take a value
(`--config`) and nothing otherwise.
"""

from __future__ import annotations

import argparse
import sys

from ..engine.datarecord import datarecord, field

SHELLS = ("bash", "zsh", "fish")
PROG = "skill-lsp"
# Options whose value is a file or folder; every other valued option without
# choices takes free text.
FILE_VALUED = {"--config", "--workspace"}


@datarecord
class Option:
    flags: list[str]
    help: str
    choices: list[str] | None
    takes_value: bool


@datarecord
class Command:
    name: str
    help: str
    options: list[Option] = field(default_factory=list)
    positional_files: bool = False
    positional_choices: list[str] | None = None


def describe(parser: argparse.ArgumentParser) -> tuple[list[Option], list[Command]]:
    top: list[Option] = []
    commands: list[Command] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                cmd = Command(name, helps.get(name, ""))
                for a in sub._actions:
                    if a.option_strings:
                        cmd.options.append(_option(a))
                    elif a.choices:
                        cmd.positional_choices = [str(c) for c in a.choices]
                    elif a.dest in ("paths", "skill"):
                        cmd.positional_files = True
                commands.append(cmd)
        elif action.option_strings:
            top.append(_option(action))
    return top, commands


def _option(a: argparse.Action) -> Option:
    takes = a.nargs != 0 and not isinstance(
        a, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._HelpAction, argparse._VersionAction)
    )
    choices = [str(c) for c in a.choices] if a.choices else None
    return Option(list(a.option_strings), (a.help or "").replace("%(default)s", str(a.default)), choices, takes)


def _value_kind(o: Option) -> str:
    if o.choices:
        return "choices"
    if any(f in FILE_VALUED for f in o.flags):
        return "file"
    return "text"


def bash(top: list[Option], commands: list[Command]) -> str:
    names = " ".join(c.name for c in commands)
    top_flags = " ".join(f for o in top for f in o.flags)
    out = [
        f"# bash completion for {PROG}: eval \"$({PROG} completion bash)\" in ~/.bashrc",
        "_skill_lsp() {",
        '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" i',
        "  COMPREPLY=()",
        "  for ((i = 1; i < COMP_CWORD; i++)); do",
        '    case "${COMP_WORDS[i]}" in -*) ;; *) cmd="${COMP_WORDS[i]}"; break ;; esac',
        "  done",
        '  if [[ -z "$cmd" ]]; then',
        f'    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{top_flags}" -- "$cur"))',
        f'    else COMPREPLY=($(compgen -W "{names}" -- "$cur")); fi',
        "    return 0",
        "  fi",
        '  case "$cmd" in',
    ]
    for c in commands:
        out.append(f"    {c.name})")
        value_cases = []
        for o in c.options:
            if not o.takes_value:
                continue
            kind = _value_kind(o)
            pattern = "|".join(o.flags)
            if kind == "choices":
                words = " ".join(o.choices or ())
                value_cases.append(f'        {pattern}) COMPREPLY=($(compgen -W "{words}" -- "$cur")); return 0 ;;')
            elif kind == "file":
                value_cases.append(f'        {pattern}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;')
            else:
                value_cases.append(f"        {pattern}) return 0 ;;")
        if value_cases:
            out += ['      case "$prev" in', *value_cases, "      esac"]
        flags = " ".join(f for o in c.options for f in o.flags)
        out.append(f'      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{flags}" -- "$cur"))')
        if c.positional_files:
            out.append('      else compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); fi')
        elif c.positional_choices:
            out.append(f'      else COMPREPLY=($(compgen -W "{" ".join(c.positional_choices)}" -- "$cur")); fi')
        else:
            out.append("      fi")
        out.append("      ;;")
    out += ["  esac", "  return 0", "}", f"complete -F _skill_lsp {PROG}", ""]
    return "\n".join(out)


def _zsh_text(text: str) -> str:
    # Inside '…' of an _arguments spec: no brackets or colons, quotes doubled out.
    return text.replace("[", "(").replace("]", ")").replace(":", " -").replace("'", "'\\''")


def zsh(top: list[Option], commands: list[Command]) -> str:
    out = [
        f"#compdef {PROG}",
        f"# zsh completion for {PROG}: put it on $fpath as _skill-lsp, or",
        f"# source <({PROG} completion zsh) after compinit",
        "_skill_lsp() {",
        '  local curcontext="$curcontext" state line',
        "  typeset -A opt_args",
        "  local -a commands",
        "  commands=(",
    ]
    out += [f"    '{c.name}:{_zsh_text(c.help)}'" for c in commands]
    out += [
        "  )",
        "  _arguments -C \\",
    ]
    for o in top:
        out.append(f"    '(- *)'{{{','.join(o.flags)}}}'[{_zsh_text(o.help)}]' \\" if len(o.flags) > 1
                   else f"    '(- *){o.flags[0]}[{_zsh_text(o.help)}]' \\")
    out += [
        "    '1:command:->command' \\",
        "    '*::argument:->argument'",
        "  case $state in",
        "    command) _describe -t commands 'skill-lsp command' commands ;;",
        "    argument)",
        "      case $line[1] in",
    ]
    for c in commands:
        specs = []
        for o in c.options:
            kind = _value_kind(o) if o.takes_value else None
            action = ""
            if kind == "choices":
                action = f":{o.flags[-1].lstrip('-')}:({' '.join(o.choices or ())})"
            elif kind == "file":
                action = f":{o.flags[-1].lstrip('-')}:_files"
            elif kind == "text":
                action = f":{o.flags[-1].lstrip('-')}: "
            desc = _zsh_text(o.help)
            if len(o.flags) > 1:
                excl = " ".join(o.flags)
                specs.append(f"'({excl})'{{{','.join(o.flags)}}}'[{desc}]{action}'")
            else:
                specs.append(f"'{o.flags[0]}[{desc}]{action}'")
        if c.positional_files:
            specs.append("'*:path:_files'")
        elif c.positional_choices:
            specs.append(f"'1:value:({' '.join(c.positional_choices)})'")
        out.append(f"        {c.name})")
        out.append("          _arguments \\")
        out += [f"            {s} \\" for s in specs[:-1]]
        out.append(f"            {specs[-1]}" if specs else "            ''")
        out.append("          ;;")
    out += [
        "      esac",
        "      ;;",
        "  esac",
        "}",
        'if [[ "$funcstack[1]" == _skill_lsp || "$funcstack[1]" == _skill-lsp ]]; then',
        '  _skill_lsp "$@"',
        "else",
        f"  compdef _skill_lsp {PROG}",
        "fi",
        "",
    ]
    return "\n".join(out)


def _fish_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def fish(top: list[Option], commands: list[Command]) -> str:
    names = " ".join(c.name for c in commands)
    out = [
        f"# fish completion for {PROG}: {PROG} completion fish > ~/.config/fish/completions/{PROG}.fish",
        f"complete -c {PROG} -f",
    ]
    for o in top:
        out.append(f"complete -c {PROG} -n '__fish_use_subcommand' {_fish_flags(o)} -d '{_fish_text(o.help)}'")
    for c in commands:
        out.append(f"complete -c {PROG} -n 'not __fish_seen_subcommand_from {names}' -a {c.name} -d '{_fish_text(c.help)}'")
    for c in commands:
        cond = f"-n '__fish_seen_subcommand_from {c.name}'"
        for o in c.options:
            extra = ""
            if o.takes_value:
                kind = _value_kind(o)
                if kind == "choices":
                    extra = f" -x -a '{' '.join(o.choices or ())}'"
                elif kind == "file":
                    extra = " -r -F"
                else:
                    extra = " -x"
            out.append(f"complete -c {PROG} {cond} {_fish_flags(o)}{extra} -d '{_fish_text(o.help)}'")
        if c.positional_files:
            out.append(f"complete -c {PROG} {cond} -F")
        elif c.positional_choices:
            out.append(f"complete -c {PROG} {cond} -x -a '{' '.join(c.positional_choices)}'")
    out.append("")
    return "\n".join(out)


def _fish_flags(o: Option) -> str:
    parts = []
    for f in o.flags:
        if f.startswith("--"):
            parts.append(f"-l {f[2:]}")
        else:
            parts.append(f"-s {f[1:]}")
    return " ".join(parts)


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    top, commands = describe(parser)
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](top, commands)


def run(args: argparse.Namespace) -> int:
    from ..cli import build_parser  # noqa: PLC0415

    sys.stdout.write(script(args.shell, build_parser()))
    return 0
