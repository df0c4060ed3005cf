"""A scan's first pass (``check_file(first=True)``: stage one of the rules on the text down to
the frontmatter's closing line) publishes errors the complete check then replaces. It must
never show an error the complete check does not: on every odd skill, on skills whose
frontmatter closes late, never, or with other line ends, and with suppressions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from skill_lsp.engine.config import Settings
from skill_lsp.engine.discover import discover
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.workspace import check_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import odd_skills  # noqa: E402

EXTRA = {
    "crlf-ends": "---\r\nname: Crlf\r\ndescription: d\r\n---\r\nBody [x](gone.md).\r\n",
    "cr-ends": "---\rname: cr-only\rdescription: d\r---\rBody.\r",
    "late-close": "---\nname: late-close\ndescription: d\n" + "x: y\n" * 4000 + "---\nBody.\n",
    "dashes-in-body": "---\nname: Dashes\ndescription: d\n---\nBody.\n---\nname: other\n---\n",
    "fence-not-closing": "---\nname: Fence\ndescription: d\n--- trailing\n---\nBody.\n",
    "suppressed": "---\n# skill-lsp: ignore[NAME_INVALID]\nname: Suppressed\ndescription: d\n---\nBody.\n",
    "lone-fence": "---\n",
}


def _errors(result, settings: Settings) -> set:
    return {(f.code, f.start, f.end, f.message) for f in result.shown(settings, "local")
            if f.severity == Severity.ERROR}


@pytest.mark.parametrize("settings", [Settings(), Settings(severity={"NAME_INVALID": None})],
                         ids=["default", "NAME_INVALID off"])
def test_first_pass_errors_are_the_complete_checks_stage_one_errors(tmp_path: Path, settings: Settings) -> None:
    root = tmp_path / "skills"
    odd_skills.write(root)
    for folder, text in EXTRA.items():
        (root / folder).mkdir(exist_ok=False)
        (root / folder / "SKILL.md").write_bytes(text.encode())
    inv = discover(str(tmp_path), settings)
    locations = inv.locations + inv.loose
    assert len(locations) >= len(EXTRA) + 30
    with_errors = 0
    for loc in locations:
        first = _errors(check_file(loc.path, settings, loc, first=True), settings)
        full = _errors(check_file(loc.path, settings, loc), settings)
        assert first <= full, loc.path
        with_errors += bool(first)
    assert with_errors >= 10  # the first pass finds the frontmatter and name errors
