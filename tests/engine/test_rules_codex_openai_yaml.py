"""rules/codex_openai_yaml.py: each value of `agents/openai.yaml` that Codex drops or ignores,
as the (line, message) the finding names, and the finding itself on a skill on disk.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import check, rng, skill_text, write_skill
from skill_lsp.engine import document, rules
from skill_lsp.engine.config import Settings
from skill_lsp.engine.rules import codex_openai_yaml
from skill_lsp.engine.rules.codex_openai_yaml import problems
from skill_lsp.engine.targets import view
from skill_lsp.engine.workspace import check_file

WHOLE = "Codex ignores the whole file"


def on_disk(tmp_path: Path, text: str, yaml: str | bytes | None, profile: str = "codex"):
    p = write_skill(tmp_path, "deploy", text)
    if yaml is not None:
        (p.parent / "agents").mkdir()
        (p.parent / "agents" / "openai.yaml").write_bytes(yaml.encode() if isinstance(yaml, str) else yaml)
    r = check_file(str(p), Settings(profile=profile))
    return [(f.severity.label, rng(r.doc, f), f.message, f.data) for f in r.findings if f.code == "INVALID_OPENAI_YAML"]


def test_findings_sit_on_the_opening_fence_and_name_the_yaml_line(tmp_path):
    yaml = "interface:\n  display_name: Deploy\n  brand_color: blue\npolicy: 3\n"
    expected = [
        ("warning", ((0, 0), (0, 3)), "agents/openai.yaml line 3: 'interface.brand_color' \"blue\" is not #RRGGBB; "
         "Codex ignores it", {"file": "agents/openai.yaml", "line": 3}),
        ("warning", ((0, 0), (0, 3)), f"agents/openai.yaml line 4: 'policy' must be a mapping; {WHOLE}",
         {"file": "agents/openai.yaml", "line": 4}),
    ]
    text = skill_text(name="deploy", description="Deploys the app. Use when asked.")
    assert on_disk(tmp_path, text, yaml) == expected
    # Every target: the file is Codex's, but a skill shared with Codex should know.
    assert [f[0] for f in on_disk(tmp_path / "st", text, yaml, "skill-tool")] == ["warning", "warning"]


@pytest.mark.parametrize("text,end", [("# Deploy\n\nRuns the deploy.\n", (0, 8)), ("\n# Deploy\n", (1, 0))])
def test_the_rule_on_a_skill_without_frontmatter_anchors_on_the_first_line(tmp_path, text, end):
    # The pipeline runs field rules only on parsed frontmatter; the rule itself still anchors
    # on the first line (its line break when it is empty: never zero-width).
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "openai.yaml").write_text("policy: 3\n")
    doc = document.parse(text, str(tmp_path / "SKILL.md"))
    found = list(codex_openai_yaml.check(doc, rules.Context(profile=view(("codex",)), skill_dir=str(tmp_path))))
    assert [(rng(doc, f), f.data) for f in found] == [(((0, 0), end), {"file": "agents/openai.yaml", "line": 1})]


def test_no_file_or_a_valid_one_is_silent(tmp_path):
    text = skill_text(name="deploy", description="Deploys the app. Use when asked.")
    assert on_disk(tmp_path, text, None) == []
    good = ("interface:\n  display_name: Deploy\n  icon_small: ./assets/logo.png\n  brand_color: ' #3B82F6 '\n"
            "policy:\n  allow_implicit_invocation: false\n  products: [codex]\n")
    d = tmp_path / "ok"
    (d / "deploy" / "assets").mkdir(parents=True)
    (d / "deploy" / "assets" / "logo.png").write_bytes(b"png")
    assert on_disk(d, text, good) == []
    # An unsaved buffer has no folder to read.
    _, fs = check(text, folder="deploy")
    assert [f for f in fs if f.code == "INVALID_OPENAI_YAML"] == []


def test_invalid_utf8_is_read_with_replacement_characters(tmp_path):
    text = skill_text(name="deploy", description="Deploys the app. Use when asked.")
    found = on_disk(tmp_path, text, b"interface:\n  display_name: D\xffploy\n  display-name: 1\n")
    assert [f[3]["line"] for f in found] == [3]


@pytest.mark.parametrize("text,expected", [
    ("- a\n- b\n", [(1, f"must be a mapping with interface, dependencies or policy; {WHOLE}")]),
    ("hello\n", [(1, f"must be a mapping with interface, dependencies or policy; {WHOLE}")]),
    ("", []),
    ("# nothing yet\n", []),
    ("interface:\ndependencies:\npolicy:\n", []),
    ("interface: x\ndependencies: [a]\npolicy: 3\n", [(1, f"'interface' must be a mapping; {WHOLE}"),
                                                     (2, f"'dependencies' must be a mapping; {WHOLE}"),
                                                     (3, f"'policy' must be a mapping; {WHOLE}")]),
    # Unknown keys: only those that look like a misspelt known one (authors keep their own there).
    ("interfaces: {}\n3: x\nPolicy: {}\nversion: 2\ndisplay_name: D\nproducts: [codex]\n",
     [(1, "unknown key 'interfaces' is ignored by Codex: did you mean 'interface'?"),
      (3, "unknown key 'Policy' is ignored by Codex: did you mean 'policy'?"),
      (5, "unknown key 'display_name' is ignored by Codex: did you mean 'interface.display_name'?"),
      (6, "unknown key 'products' is ignored by Codex: did you mean 'policy.products'?")]),
    ("\n\ninterface: [\n", [(4, "invalid YAML (expected the node content, but found '<stream end>' (while parsing a "
                               f"flow node)); {WHOLE}")]),
])
def test_the_top_level(text, expected):
    assert problems(text) == expected


KEYS = "display_name, short_description, icon_small, icon_large, brand_color, default_prompt"


def test_interface_values(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "logo.png").write_bytes(b"png")
    yaml = ("interface:\n  display_name: " + "d" * 65 + "\n  short_description: '  '\n  icon_small: /abs.png\n"
            "  icon_large: assets/missing.png\n  brand_color: '#12345g'\n  default_prompt: [a]\n  brand_colour: 1\n"
            "  short_description: ~\n  default_prompt: " + "p " * 600 + "\n")
    assert problems(yaml, str(tmp_path)) == [
        (2, "'interface.display_name' is 65 characters; Codex ignores values over 64"),
        (4, "'interface.icon_small' must be a relative path under assets/; Codex ignores \"/abs.png\""),
        (5, "'interface.icon_large' points at 'assets/missing.png', which does not exist"),
        (6, "'interface.brand_color' \"#12345g\" is not #RRGGBB; Codex ignores it"),
        (7, f"'interface.default_prompt' must be a string; {WHOLE}"),
        (8, "unknown key 'interface.brand_colour' is ignored by Codex: did you mean 'interface.brand_color'?"),
        (10, "'interface.default_prompt' is 1199 characters; Codex ignores values over 1024"),
    ]
    assert problems("interface:\n  display_name: " + "d" * 64 + "\n  default_prompt: " + "p " * 512 + "\n") == []


@pytest.mark.parametrize("icon,problem", [
    ("../assets/x.png", "must be a relative path under assets/; Codex ignores \"../assets/x.png\""),
    ("logo.png", "must be a relative path under assets/; Codex ignores \"logo.png\""),
    ("./", "must be a relative path under assets/; Codex ignores \"./\""),
    ("assets/./logo.png", None),
    ("'assets\\logo.png'", None),
    ("assets/icons/logo.png", "points at 'assets/icons/logo.png', which does not exist"),
])
def test_icons(tmp_path, icon, problem):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "logo.png").write_bytes(b"png")
    expected = [] if problem is None else [(2, f"'interface.icon_small' {problem}")]
    assert problems(f"interface:\n  icon_small: {icon}\n", str(tmp_path)) == expected


def test_an_icon_of_an_unsaved_skill_is_not_looked_up():
    assert problems("interface:\n  icon_small: assets/logo.png\n") == []


def test_dependency_tools():
    yaml = ("dependencies:\n  tools:\n    - type: mcp\n      value: github\n      colour: red\n"
            "      transport: " + "t" * 65 + "\n    - x\n    - {type: '', value: v}\n    - {value: v, type: [a]}\n"
            "    - {type: env}\n    - {type: " + "a" * 64 + ", value: '" + "b " * 600 + "'}\n"
            "    - {type: mcp, value: v, descripton: x}\n  other: 1\n  tool: 1\n")
    assert problems(yaml) == [
        (6, "dependencies.tools 'transport' is over 64 characters; Codex ignores it"),
        (7, "each dependencies.tools entry must be a mapping with type and value"),
        (8, "dependencies.tools entry without 'type' is dropped by Codex"),
        (9, "dependencies.tools entry without 'type' is dropped by Codex"),
        (10, "dependencies.tools entry without 'value' is dropped by Codex"),
        (11, "dependencies.tools 'value' is over 1024 characters; Codex ignores it"),
        (12, "unknown key 'dependencies.tools[].descripton' is ignored by Codex: did you mean "
             "'dependencies.tools[].description'?"),
        (14, "unknown key 'dependencies.tool' is ignored by Codex: did you mean 'dependencies.tools'?"),
    ]
    assert problems("dependencies:\n  tools: x\n") == [(2, f"'dependencies.tools' must be a list; {WHOLE}")]
    ok = "dependencies:\n  tools:\n    - {type: mcp, value: github, description: GitHub, url: 'https://x'}\n"
    assert problems(ok) == []


def test_policy():
    yaml = "policy:\n  allow_implicit_invocation: 'no'\n  products: codex\n  other: 1\n  product: [x]\n"
    assert problems(yaml) == [
        (2, f"'policy.allow_implicit_invocation' must be true or false; {WHOLE}"),
        (3, f"'policy.products' must be a list; {WHOLE}"),
        (5, "unknown key 'policy.product' is ignored by Codex: did you mean 'policy.products'?"),
    ]
    assert problems("policy:\n  allow_implicit_invocation: [true]\n") == [
        (2, f"'policy.allow_implicit_invocation' must be true or false; {WHOLE}")]
    assert problems("policy:\n  allow_implicit_invocation: true\n  products: [codex]\n") == []
