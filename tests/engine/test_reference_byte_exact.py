"""Byte-exactness against the real reference implementations.

* skills-ref (``pip install skills-ref``): ``skills_ref.prompt.to_prompt``.
* DSH (``npm install --prefix DIR @deepseek-ai/dsh-skill@0.1.0-rc.8 @deepseek-ai/dsh-tool-skill@0.1.0-rc.8``,
  then ``SKILL_LSP_DSH_PREFIX=DIR``): ``renderSkillContent``, ``String.prototype.trim``, the catalog
  messages produced by ``tool-skill``'s pre-step listener and the sha256 entry digest.

Each group is skipped when its reference is not installed, and fails instead under CI=true
(.ci/run installs both, pinned).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import require
from skill_lsp.engine.activation import OkResult, SessionConfig, SkillRecord, SkillSession
from skill_lsp.engine.activation.jsstr import js_trim
from skill_lsp.engine.render.agentskills import to_prompt
from skill_lsp.engine.render.dsh import (
    DshDialect,
    catalog_digest,
    catalog_entries,
    render_catalog_message,
    render_catalog_update,
    render_skill_content,
)

HARNESS = Path(__file__).parent / "fixtures_render" / "dsh_harness.mjs"

# --------------------------------------------------------------------------- DSH


DSH_INSTALL = ("npm install --prefix DIR @deepseek-ai/dsh-skill@0.1.0-rc.8 "
               "@deepseek-ai/dsh-tool-skill@0.1.0-rc.8; SKILL_LSP_DSH_PREFIX=DIR")


def _dsh_prefix() -> str:
    prefix = os.environ.get("SKILL_LSP_DSH_PREFIX", "")
    require(prefix, "SKILL_LSP_DSH_PREFIX (the DSH reference packages)", DSH_INSTALL)
    require(shutil.which("node"), "node", "install Node.js")
    for pkg in ("dsh-skill", "dsh-tool-skill"):
        require((Path(prefix) / "node_modules" / "@deepseek-ai" / pkg / "lib" / "index.js").is_file(),
                f"@deepseek-ai/{pkg} under {prefix}", DSH_INSTALL)
    return prefix


def run_dsh(cases: list[dict]) -> list:
    prefix = _dsh_prefix()
    proc = subprocess.run(
        ["node", str(HARNESS), prefix],
        input=json.dumps(cases),  # ensure_ascii: lone surrogates travel as \\udXXX
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(proc.stdout)


TRICKY = [
    "",
    "plain",
    "  \t\n body with spaces \n\n",
    "\ufeff\u00a0\u2028 js whitespace \u3000\u205f\u202f",
    "\u0085 NEL and \x1c are not JS whitespace \x1f",
    "# Ünïcödé 技能 😀\r\n\r\nCRLF body\r\n",
    "<skill_instructions> & </skill_content> \"quotes\" 'apos'",
]


def test_dsh_js_trim_matches_node():
    got = run_dsh([{"op": "trim", "value": v} for v in TRICKY])
    assert [js_trim(v) for v in TRICKY] == got


@pytest.mark.parametrize(
    "name,base,provider",
    [
        ("pdf-tools", ("directory", "/home/u/.dsh/skills/pdf-tools"), "filesystem"),
        ('a"<b>&c', ("directory", '/tmp/x<y>&"z"'), "filesystem"),
        ("技能", ("url", "https://example.com/s?a=1&b=<2>"), "remote"),
        ("opaque-one", ("opaque", "bundle <inline> & more"), "embedded"),
        ("no-base", None, 'prov<"&>'),
    ],
)
def test_dsh_render_skill_content_matches_node(name, base, provider):
    cases = []
    expected = []
    for body in TRICKY:
        skill: dict = {"name": name, "provider": provider, "content": js_trim(body)}
        if base is not None:
            key = {"directory": "path", "url": "url", "opaque": "description"}[base[0]]
            skill["resourceBase"] = {"kind": base[0], key: base[1]}
        cases.append({"op": "render", "skill": skill})
        expected.append(
            render_skill_content(name, js_trim(body), resource_base=base, provider=provider)
        )
    assert run_dsh(cases) == expected


def _record(tmp: Path, name: str, description: str, body: str = "\nBody\n", **fm) -> SkillRecord:
    d = tmp / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text("---\nname: x\n---\n")
    return SkillRecord(
        name=name,
        folder=name,
        dir=str(d),
        path=str(d / "SKILL.md"),
        root_index=0,
        root=str(tmp),
        frontmatter={"name": name, "description": description, **fm},
        body=body,
    )


def test_dsh_session_activation_matches_node(tmp_path):
    records = [_record(tmp_path, f"s{i}", "d", body) for i, body in enumerate(TRICKY)]
    s = SkillSession(records, SessionConfig(dialect="dsh", unsafe_allow_skill_without_hook=True))
    outputs, cases = [], []
    for rec in records:
        r = s.activate({"name": rec.name})
        assert isinstance(r, OkResult)
        outputs.append(r.output)
        cases.append(
            {
                "op": "render",
                "skill": {
                    "name": rec.name,
                    "provider": "filesystem",
                    "resourceBase": {"kind": "directory", "path": rec.dir},
                    "content": rec.body,  # trimmed by JS below
                },
            }
        )
    trimmed = run_dsh([{"op": "trim", "value": c["skill"]["content"]} for c in cases])
    for case, content in zip(cases, trimmed, strict=True):
        case["skill"]["content"] = content
    assert run_dsh(cases) == outputs


LONG = "word " * 150  # 750 chars before normalisation


def _catalog_records(tmp: Path) -> list[SkillRecord]:
    return [
        _record(tmp, "zeta", "  Multi\n\tline\u00a0description\u3000with   runs  "),
        _record(tmp, "alpha", 'Uses <tags> & "quotes" > gt'),
        _record(tmp, "long-one", LONG),
        _record(tmp, "emoji-edge", "x" * 496 + "😀😀😀😀😀"),  # cut lands inside a surrogate pair
        _record(tmp, "hidden", "never listed", **{"disable-model-invocation": True}),
        _record(tmp, "hidden-str", "never listed", **{"disable-model-invocation": "yes"}),
        _record(tmp, "cjk", "技能" * 300),
        _record(tmp, "a1", "\ufeff bom-led \u0085 nel"),
    ]


@pytest.mark.parametrize("max_length", [None, 3, 10, 500, 1000])
@pytest.mark.parametrize("update", [False, True])
def test_dsh_catalog_matches_node(tmp_path, max_length, update):
    records = _catalog_records(tmp_path)
    visible = [
        r for r in records if r.frontmatter.get("disable-model-invocation") not in (True, "yes")
    ]
    js_skills = sorted(
        (
            {
                "name": r.name,
                "description": r.frontmatter["description"],
                "modelInvocable": r in visible,
            }
            for r in records
        ),
        key=lambda s: s["name"],
    )
    case = {"op": "catalog", "skills": js_skills, "update": update}
    if max_length is not None:
        case["maxLength"] = max_length
    (got,) = run_dsh([case])
    dialect = DshDialect() if max_length is None else DshDialect(max_length)
    entries = catalog_entries(records, dialect.max_length)
    assert [{"name": n, "description": d} for n, d in entries] == got["entries"]
    expected = render_catalog_update(entries) if update else render_catalog_message(entries)
    assert expected == got["text"]
    assert dialect.render_catalog(records, update=update) == got["text"]


def test_dsh_empty_catalog_and_tombstone_match_node(tmp_path):
    got_first, got_update = run_dsh(
        [
            {"op": "catalog", "skills": [], "update": False},
            {"op": "catalog", "skills": [], "update": True},
        ]
    )
    assert got_first["text"] is None and DshDialect().render_catalog([]) == ""
    assert (
        got_update["text"]
        == render_catalog_update([])
        == DshDialect().render_catalog([], update=True)
    )


def test_dsh_digest_matches_node(tmp_path):
    entries = catalog_entries(_catalog_records(tmp_path), 10)
    entries += [("ctl", 'quote " back \\ nl \n tab \t \x01 \x7f \u2028'), ("lone", "\ud83d")]
    (got,) = run_dsh([{"op": "digest", "entries": [list(e) for e in entries]}])
    assert catalog_digest(entries) == got


@pytest.mark.parametrize("bad", [2, 0, -1, 2.5, 3.5, True, "7"])
def test_dsh_max_length_validation_matches_node(bad):
    (message,) = run_dsh([{"op": "apply-error", "maxLength": bad}])
    with pytest.raises(ValueError) as info:
        DshDialect(bad)
    assert message is not None and str(info.value) == message


def test_dsh_max_length_accepts_what_node_accepts():
    assert run_dsh([{"op": "apply-error", "maxLength": v} for v in (3, 4.0, 1000)]) == [None, None, None]
    assert [DshDialect(v).max_length for v in (3, 4.0, 1000)] == [3, 4, 1000]


def test_dsh_default_provider_is_the_filesystem():
    (got,) = run_dsh([{"op": "render", "skill": {"name": "x", "provider": "filesystem", "content": "c"}}])
    assert render_skill_content("x", "c") == got


# --------------------------------------------------------------------------- skills-ref


def _skills_ref_prompt():
    require(importlib.util.find_spec("skills_ref") is not None, "skills-ref", "pip install skills-ref==0.1.1")
    from skills_ref.prompt import to_prompt  # noqa: PLC0415

    return to_prompt


AS_CASES = [
    # folder, SKILL.md frontmatter text (strictyaml-compatible), parsed values
    (
        "my-skill",
        'name: my-skill\ndescription: Use <foo> & "bar" when needed',
        {"name": "my-skill", "description": 'Use <foo> & "bar" when needed'},
    ),
    (
        "apos",
        "name: apos\ndescription: It's > fine",
        {"name": "apos", "description": "It's > fine"},
    ),
    (
        "unicode",
        "name: unicode\ndescription: 技能 — café 😀",
        {"name": "unicode", "description": "技能 — café 😀"},
    ),
    (
        "multi",
        "name: multi\ndescription: |\n  Line one.\n  Line <two>.\nlicense: MIT",
        {"name": "multi", "description": "Line one.\nLine <two>.\n", "license": "MIT"},
    ),
    (
        "padded",
        "name: '  padded  '\ndescription: '  spaced out  '",
        {"name": "  padded  ", "description": "  spaced out  "},
    ),
]


def _as_records(tmp: Path) -> list[SkillRecord]:
    records = []
    for folder, fm_text, fm in AS_CASES:
        d = tmp / "skills" / folder
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\n{fm_text}\n---\nBody\n", encoding="utf-8")
        records.append(
            SkillRecord(
                name=folder,
                folder=folder,
                dir=str(d),
                path=str(d / "SKILL.md"),
                root_index=0,
                root=str(tmp / "skills"),
                frontmatter=fm,
                body="Body\n",
            )
        )
    return records


def test_skills_ref_to_prompt_byte_exact(tmp_path):
    ref = _skills_ref_prompt()
    records = _as_records(tmp_path)
    assert to_prompt(records) == ref([Path(r.dir) for r in records])
    for r in records:
        assert to_prompt([r]) == ref([Path(r.dir)])
    assert to_prompt([]) == ref([]) == "<available_skills>\n</available_skills>"


def test_skills_ref_reads_numbers_and_booleans_as_written(tmp_path):
    # strictyaml gives every scalar as its text; skill-lsp's YAML gives numbers and booleans
    ref = _skills_ref_prompt()
    d = tmp_path / "nums"
    d.mkdir()
    text = "---\nname: 123\ndescription: 1.50\nlicense: true\n---\nBody\n"
    (d / "SKILL.md").write_text(text, encoding="utf-8")
    rec = SkillRecord(name="nums", folder="nums", dir=str(d), path=str(d / "SKILL.md"), root_index=0,
                      root=str(tmp_path), frontmatter={"name": 123, "description": 1.5, "license": True},
                      body="Body\n", text=text)
    assert to_prompt([rec]) == ref([d])
    # a record built in memory (no folder to read): the values as JavaScript's String() writes them
    gone = str(tmp_path / "gone")
    bare = SkillRecord(**{**rec.__dict__, "dir": gone, "path": gone + "/SKILL.md", "text": None,
                          "frontmatter": {"name": 7, "description": True}})
    assert "<name>\n7\n</name>\n<description>\ntrue\n</description>" in to_prompt([bare])


def test_skills_ref_to_prompt_symlinked_dir(tmp_path):
    ref = _skills_ref_prompt()
    (rec,) = _as_records(tmp_path)[:1]
    link = tmp_path / "link-root"
    link.mkdir()
    os.symlink(rec.dir, link / "my-skill")
    linked = SkillRecord(
        **{
            **rec.__dict__,
            "dir": str(link / "my-skill"),
            "path": str(link / "my-skill" / "SKILL.md"),
        }
    )
    assert to_prompt([linked]) == ref([link / "my-skill"])
