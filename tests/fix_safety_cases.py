"""Skills shaped like the ones where a fix once changed code (issue 26), written for the tests.

Each skill mixes findings whose safe fix must apply (prose) with the same defects inside
code, raw HTML and "what not to do" examples, where `check --fix` must leave the text as is.
``KEPT`` lists, per skill, text that must come out of `check --fix` byte for byte;
``FIXED`` lists (before, after) pairs the safe fixes must produce.
"""

from __future__ import annotations

ZW = "\u200b\u200c\u200d\u2060\ufeff"  # zero-width space, joiners, word joiner, BOM
RLO = "\u202e"  # right-to-left override (Trojan Source)

SKILLS: dict[str, str] = {
    # A prompt-injection guard: its stripping table holds the very characters the rule reports.
    "injection-guard": (
        "---\nname: injection-guard\ndescription: Strips hidden characters from untrusted text. Use when "
        "reading web pages or tickets.\n---\n\n"
        "# Injection guard\n\n"
        f"Untrusted text may hide instructions behind{RLO}{ZW} invisible characters.\n\n"
        "```python\n"
        "import re\n\n"
        f'HIDDEN = dict.fromkeys(map(ord, "{ZW}{RLO}"))\n\n'
        "def clean(text: str) -> str:\n"
        "    return text.translate(HIDDEN)\n"
        "```\n\n"
        f"The table above is `map(ord, \"{ZW}\")` on purpose.\n\n"
        f"| character | shown as |\n|---|---|\n| <code>{ZW}</code> | nothing |\n"
    ),
    # Windows set-up: PowerShell wants backslashes, prose paths do not.
    "windows-setup": (
        "---\nname: windows-setup\ndescription: Sets up the toolchain on Windows. Use when a Windows user "
        "installs the project.\n---\n\n"
        "# Windows setup\n\n"
        "First run scripts\\setup.ps1 from the skill folder.   \n\n"
        "```powershell\n"
        "Import-Module .\\scripts\\Tools.psm1\n"
        "& .\\scripts\\install.ps1 -Force   \n"
        "```\n\n"
        "Or, in an indented block:\n\n"
        "    cd $env:USERPROFILE\n"
        "    .\\scripts\\check.ps1\n\n"
        "Inline: `.\\scripts\\check.ps1 -Verbose` and ``py -3 scripts\\install.py``.\n"
    ),
    # A style guide that shows the wrong form on purpose.
    "path-style": (
        "---\nname: path-style\ndescription: Explains how skills name their files. Use when writing paths "
        "in a SKILL.md.\n---\n\n"
        "# Path style\n\n"
        "Keep helpers in references\\guide.md style paths out of prose.\n\n"
        "✓ Good: `scripts/helper.py`\n"
        "✗ Avoid: scripts\\helper.py\n\n"
        "**Bad:**\n\n"
        "- references\\api.md\n"
        "- assets\\logo.png\n\n"
        "**Good:**\n\n"
        "- references/api.md\n\n"
        "| Avoid | Prefer |\n|---|---|\n| scripts\\run.py | scripts/run.py |\n\n"
        "Don't write templates\\report.md, write templates/report.md.\n\n"
        "### ❌ Wrong\n\n"
        "Loading examples\\demo.md fails on Linux.\n\n"
        "### Right\n\n"
        "Now open assets\\icons.md here.  \n"
    ),
    # Notes for maintainers, raw HTML and a details block.
    "html-notes": (
        "---\nname: html-notes\ndescription: Keeps maintainer notes out of the model's way. Use when "
        "editing this skill.\n---\n\n"
        "# HTML notes\n\n"
        "<!-- maintainers: scripts\\legacy.py goes away in 2.0 -->\n\n"
        "<!--\n"
        "  Old layout:   \n"
        "  references\\old.md\n"
        "-->\n\n"
        "<details>\n<summary>Windows</summary>\n\n"
        "<pre>\nscripts\\win.py   \n</pre>\n\n"
        "</details>\n\n"
        "Inline HTML: <kbd>scripts\\key.py</kbd> and a note <!-- see references\\notes.md -->.\n\n"
        "Real prose: assets\\banner.md is bundled.\n"
    ),
    # CRLF line ends, trailing whitespace on prose and in code.
    "crlf-mixed": (
        "---\r\nname: crlf-mixed\r\ndescription: Shows CRLF handling. Use when testing line ends.\r\n---\r\n\r\n"
        "# CRLF\r\n\r\n"
        "Prose with a trailing tab\t\r\n\r\n"
        "```bash\r\n"
        "python scripts\\tool.py   \r\n"
        "```\r\n\r\n"
        "❌ Never: scripts\\tool.py\r\n"
        "✅ Instead: scripts/tool.py\r\n\r\n"
        "Run scripts\\tool.py now.\r\n"
    ),
}

# Text `check --fix` must leave byte for byte.
KEPT: dict[str, list[str]] = {
    "injection-guard": [f'HIDDEN = dict.fromkeys(map(ord, "{ZW}{RLO}"))', f'`map(ord, "{ZW}")`',
                        f"<code>{ZW}</code>"],
    "windows-setup": ["Import-Module .\\scripts\\Tools.psm1\n", "& .\\scripts\\install.ps1 -Force   \n",
                      "    .\\scripts\\check.ps1\n", "`.\\scripts\\check.ps1 -Verbose`", "``py -3 scripts\\install.py``"],
    "path-style": ["✗ Avoid: scripts\\helper.py\n", "- references\\api.md\n- assets\\logo.png\n",
                   "| scripts\\run.py | scripts/run.py |", "Don't write templates\\report.md,",
                   "Loading examples\\demo.md fails on Linux."],
    "html-notes": ["<!-- maintainers: scripts\\legacy.py goes away in 2.0 -->", "  Old layout:   \n  references\\old.md\n",
                   "scripts\\win.py   \n", "<kbd>scripts\\key.py</kbd>", "<!-- see references\\notes.md -->"],
    "crlf-mixed": ["python scripts\\tool.py   \r\n", "❌ Never: scripts\\tool.py\r\n"],
}

# (before, after) the safe fixes must produce.
FIXED: dict[str, list[tuple[str, str]]] = {
    "injection-guard": [(f"behind{RLO}{ZW} invisible", "behind invisible")],
    # A PowerShell script's backslashes are no BACKSLASH_PATH (issue 26): only the trailing blanks go.
    "windows-setup": [("First run scripts\\setup.ps1 from the skill folder.   \n",
                       "First run scripts\\setup.ps1 from the skill folder.\n")],
    "path-style": [("Keep helpers in references\\guide.md style", "Keep helpers in references/guide.md style"),
                   ("Now open assets\\icons.md here.  \n", "Now open assets/icons.md here.  \n")],
    "html-notes": [("Real prose: assets\\banner.md is bundled.", "Real prose: assets/banner.md is bundled.")],
    "crlf-mixed": [("Prose with a trailing tab\t\r\n", "Prose with a trailing tab\r\n"),
                   ("Run scripts\\tool.py now.", "Run scripts/tool.py now.")],
}


def write(root, names=None) -> None:
    """Write the skills under ``root``/skills/<name>/SKILL.md (bytes as given: CRLF kept)."""
    for name, text in SKILLS.items():
        if names is not None and name not in names:
            continue
        d = root / "skills" / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "SKILL.md").write_bytes(text.encode("utf-8"))
