"""A fixed sample of mutants, each of which a named test must kill (the CI-sized part of
benchmarks/mutation.py, which runs mutmut over every engine module and is too slow for CI).

Each mutant is applied to a copy of the package and the named test runs against the copy;
the test must fail. A mutant whose source line is gone fails here too: pick another one
from the same function when the code is rewritten. The mutmut configuration itself is
checked to still name files that exist.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

PKG = REPO / "src" / "skill_lsp"
E = "src/skill_lsp/engine/"
S = "src/skill_lsp/server/"
PARSING = "tests/engine/test_parsing.py"
FIXES = "tests/engine/test_fixes.py"
GRAPH = "tests/server/test_graph.py"
FOLDERS = "tests/server/test_workspace_folders.py"
WRITES = "tests/hardening/test_writes.py"
ORACLE = "tests/engine/test_skill_index_oracle.py::test_every_step_matches_a_check_from_scratch"

# (file, original text, mutated text, test that must fail)
SAMPLE = [
    (E + "text.py", "columns.extend((line, n, _units(seg, Encoding.UTF16), _units(seg, Encoding.UTF8)))",
     "columns.extend((line, n, n, _units(seg, Encoding.UTF8)))",
     PARSING + "::test_closed_file_positions_match_the_open_text_in_every_encoding"),
    (E + "text.py", 'len(s.encode("utf-16-le", "surrogatepass")) >> 1', 'len(s.encode("utf-16-le", "surrogatepass")) >> 2',
     PARSING + "::test_position_in_each_encoding"),
    (E + "text.py", "w = 2 if cp > 0xFFFF else 1", "w = 2 if cp >= 0xFFFF else 1",
     PARSING + "::test_position_in_each_encoding"),
    (E + "text.py", 'if end >= 2 and text[end - 2 : end] == "\\r\\n":', 'if end > 2 and text[end - 2 : end] == "\\r\\n":',
     PARSING + "::test_crlf_first_line_and_the_end_of_the_last_line"),
    (E + "workspace.py", "    for _ in range(max_passes):", "    for _ in range(1):",
     FIXES + "::test_fix_all_repeats_until_nothing_is_left"),
    (E + "fixes.py", "        if e.start < last_end:", "        if e.start <= last_end:",
     FIXES + "::test_overlapping_edits_keep_the_first"),
    (E + "fixes.py", "    except (KeyError, ValueError, TypeError, IndexError):", "    except (KeyError, TypeError, IndexError):",
     FIXES + "::test_stale_fix_data_offers_no_fix_instead_of_raising"),
    (E + "yamlnodes.py", 'return float("-inf") if low[0] == "-" else float("inf")', 'return float("inf")',
     PARSING + "::test_odd_scalars_resolve_like_yaml_1_2"),
    (E + "yamlnodes.py", 'return int(v, 0) if v[:2] in ("0o", "0x") else int(v)', "return int(v)",
     PARSING + "::test_odd_scalars_resolve_like_yaml_1_2"),
    (E + "yamlnodes.py", "_NULL = lazy_re(r\"^(?:~|null|Null|NULL|)$\")", "_NULL = lazy_re(r\"^(?:null|Null|NULL|)$\")",
     PARSING + "::test_odd_scalars_resolve_like_yaml_1_2"),
    # Statement deletions (benchmarks/mutants.py) that survived every test before issue 27.
    (E + "skillgraph.py", "            affected |= self.unresolved\n", "            pass\n", ORACLE),
    (E + "skillgraph.py", "        self.__init__(self.settings)  # type: ignore[misc]", "        pass", ORACLE),
    (E + "skillgraph.py", "            return\n        self.name_of[r.path] = r.name", "            pass\n        self.name_of[r.path] = r.name",
     ORACLE),
    (E + "workspace.py", '        findings = suppress.shown(findings, suppress.scan(doc), settings, path, "local" if on_disk else "none")',
     "        pass", "tests/engine/test_suppress.py::test_fix_all_leaves_a_suppressed_finding_alone"),
    # Past the engine's mutmut run (benchmarks/mutation_runner.py): survivors before issue 27.
    (E + "writes.py", "        while size <= MAX_BYTES:", "        while size < MAX_BYTES:",
     WRITES + "::test_snapshot_reads_up_to_the_limit_whole_and_refuses_a_byte_more"),
    (E + "writes.py", "os.O_EXCL | getattr", "os.O_EXCL & getattr",
     WRITES + "::test_the_temporary_file_takes_a_free_name_beside_the_file"),
    # Hand-made server bugs that once survived the server's tests (issue 27).
    (S + "protocol.py", "            if message.id is not None:", "            if message.id:",
     "tests/hardening/test_client.py::test_invalid_params_are_answered"),
    (S + "features/graph.py", "kind=t.DocumentHighlightKind.Write if", "kind=t.DocumentHighlightKind.Read if",
     GRAPH + "::test_highlights_are_this_documents_occurrences[utf-16]"),
    (S + "services/graph.py", "        if m.start <= offset <= m.end:", "        if m.start <= offset < m.end:",
     GRAPH + "::test_the_cursor_at_either_edge_of_a_mention_finds_it[utf-16-end]"),
    (S + "services/publish.py", "rendered[0] is result and not result.cross and not result.graph \\\n",
     "rendered[0] is result and not result.cross \\\n",
     FOLDERS + "::test_a_closed_file_whose_only_finding_is_cross_skill_is_published"),
    (S + "services/sync.py", "return bool(r.cross or r.graph or (sup", "return bool(r.cross or (sup",
     FOLDERS + "::test_a_closed_file_published_early_is_published_again_with_its_cross_skill_finding"),
    (S + "services/sync.py", "        locations = [loc for loc in locations if not any(is_inside(loc.path, n) for n in nested)]",
     "        pass", FOLDERS + "::test_nested_folders_each_own_their_skills"),
    (S + "features/lifecycle.py", "                    publish.clear(ls, path_to_uri(path))", "                    pass",
     FOLDERS + "::test_folders_added_and_removed_while_running"),
    (S + "features/lifecycle.py", "                ls.state.folders.append(Folder(path=path, uri=wf.uri))", "                pass",
     FOLDERS + "::test_folders_added_and_removed_while_running"),
]


def run_against(src: Path, *tests: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")  # ahead of the editable install
    return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("path", "old", "new", "test"), SAMPLE, ids=[f"{p.split('/')[-1]}:{i}" for i, (p, *_) in
                                                                     enumerate(SAMPLE)])
def test_sampled_mutant_is_killed(tmp_path: Path, path: str, old: str, new: str, test: str):
    src = tmp_path / "src"
    shutil.copytree(PKG, src / "skill_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    target = src / Path(path).relative_to("src")
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path} no longer holds {old!r} once: choose another mutant there"
    target.write_text(text.replace(old, new), encoding="utf-8")
    proc = run_against(src, test)
    # 1: tests failed (2 would be a collection error, which proves nothing about the test).
    assert proc.returncode == 1, f"mutant survived {test}:\n-{old}\n+{new}\n{proc.stdout[-2000:]}"


def test_the_sample_tests_pass_on_the_unmutated_code(tmp_path: Path):
    src = tmp_path / "src"
    shutil.copytree(PKG, src / "skill_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    proc = run_against(src, *sorted({t for *_, t in SAMPLE}))
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_mutmut_configuration_names_existing_files():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    files = [p.relative_to(REPO).as_posix() for p in (REPO / "src").rglob("*.py")]
    for pattern in config["only_mutate"]:
        assert [f for f in files if Path(f).match(pattern) or f == pattern or f.startswith(pattern.rstrip("*"))], pattern
    for path in config["pytest_add_cli_args_test_selection"] + config.get("also_copy", []):
        assert (REPO / path).exists(), path
    sys.path.insert(0, str(REPO / "benchmarks"))
    import mutation  # noqa: PLC0415

    assert sorted(mutation.MODULES.values()) == sorted(p.rstrip("/*") for p in config["only_mutate"])
