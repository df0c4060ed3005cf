"""Checking skills: one document, one file on disk, or a set of skills with cross-skill rules.

The CLI and the language server both go through these functions, so a finding
in the terminal and in the editor is the same finding.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable

from . import document, rules, suppress
from .config import Settings, apply_settings
from .datarecord import replace
from .discovery import Location, ReadError, read_regular, read_skill_file
from .findings import Finding, Related, Severity, make
from .harness import HARNESSES, SAME_NAME, reads_root, win_rank
from .harness.roots import in_devin_root, label
from .lazyre import lazy_re
from .profiles import Profile
from .result import SkillResult, fixes_key
from .skillgraph import PAUSE_EVERY, SkillGraph
from .targets import for_skill, view

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from .overlap import OverlapIndex


def targets_for(settings: Settings, skill_md: str | None) -> tuple[str, ...]:
    """The targets a SKILL.md is checked for: configured, else inferred from its root, else the profile."""
    return for_skill(settings.targets, settings.profile, os.path.dirname(skill_md) if skill_md else None)


def profile_for(settings: Settings, skill_md: str | None) -> Profile:
    return view(targets_for(settings, skill_md))


def context_for(settings: Settings, skill_dir: str | None, skill_md: str | None = None) -> rules.Context:
    where = skill_md or (os.path.join(skill_dir, "SKILL.md") if skill_dir else None)
    return rules.Context(profile=profile_for(settings, where), check_links=settings.check_links,
                         skill_dir=skill_dir or None)


def check_text(text: str, path: str, settings: Settings, *, on_disk: bool = True,
               decode_issue: document.DecodeIssue | None = None,
               seen: dict[str, bool | bytes] | None = None, first: bool = False,
               listed: dict[str, int] | None = None) -> tuple[document.SkillDocument, list[Finding]]:
    """Parse and check one SKILL.md text. ``on_disk`` enables folder-relative checks (links, license files).

    ``seen`` receives every path existence the checks looked up (relative to the skill
    folder) and what they found: what a cached result depends on beyond its folder.
    ``first``: stage one of the rules alone (``rules.first_check``).
    ``listed``: the skill folder's entries as its stamp saw them just before (``Context.listed``).
    """
    doc = document.parse(text, path, decode_issue)
    ctx = context_for(settings, os.path.dirname(path) if on_disk and path else None, path or None)
    if seen is not None:
        ctx._exists = seen
        ctx.recording = True
    if listed is not None and ctx.skill_dir is not None:
        ctx.listed = listed
    return doc, apply_settings((rules.first_check if first else rules.check)(doc, ctx), settings)


def _decode_prefix(data: bytes, size: int) -> tuple[str, document.DecodeIssue | None]:
    if size > len(data):
        # The read limit may cut the last character in two: drop that part only. A bad byte
        # that is no such part (a stray continuation byte) stays and is INVALID_ENCODING.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.reason == "unexpected end of data":
                data = data[:exc.start]
    return document.decode(data)


def check_file(path: str, settings: Settings, location: Location | None = None,
               seen: dict[str, bool | bytes] | None = None, first: bool = False,
               listed: dict[str, int] | None = None) -> SkillResult:
    """Read and check one SKILL.md on disk. Read failures and fence problems are findings.

    ``seen``, ``first``, ``listed``: as for ``check_text``.
    """
    if location is not None and location.problem is not None:
        code, message = location.problem
        # A skill folder that is a link: harnesses that follow links grade it apart (OUTSIDE_WORKSPACE:link).
        link = {"reason": "link"} if code == "OUTSIDE_WORKSPACE" and os.path.islink(location.dir) else None
        found = make(code, message, 0, 0, link)
        if link is not None or code == "SENSITIVE":
            # A folder the releases read all the same (a link, `secrets/`): graded by the targets.
            found = profile_for(settings, path).adjust(found)
        return SkillResult(path, None, apply_settings([found], settings), location)
    try:
        data, size = read_skill_file(path)
    except ReadError as exc:
        return SkillResult(path, None, apply_settings([make(exc.code, exc.message, 0, 0)], settings), location)
    text, issue = _decode_prefix(data, size)
    if first and issue is None:
        text = _head(text)
    doc, findings = check_text(text, path, settings, decode_issue=issue, seen=seen, first=first, listed=listed)
    doc.bom = doc.bom or data.startswith(b"\xef\xbb\xbf")  # decode() leaves it out of the text
    findings = placed(findings, path, location)
    if size > len(data) and not first:
        doc.full_length = max(doc.full_length, size)
        if not any(f.code == "FILE_TOO_LARGE" for f in findings):
            end = len(doc.text)
            findings.extend(apply_settings([make("FILE_TOO_LARGE", f"file is {size:,} bytes; only the first "
                                                 f"{len(data):,} bytes are analysed", max(0, end - 1), end)], settings))
    return SkillResult(path, doc, findings, location)




def with_document(result: SkillResult, settings: Settings) -> SkillResult:
    """``result`` (a slim one, checked in this run) with its document read and parsed again and its
    findings kept: what a listing reads of it. Checking it again cost the listing budgets' pass of a
    real-size 10,000-skill `check` a third of its second. Checked again where the file cannot be read
    or its location is refused (there is no document to read)."""
    loc = result.location
    if loc is not None and loc.problem is not None:
        return check_file(result.path, settings, loc)
    try:
        data, size = read_skill_file(result.path)
    except ReadError:
        return check_file(result.path, settings, loc)
    text, issue = _decode_prefix(data, size)
    doc = document.parse(text, result.path, issue)
    doc.bom = doc.bom or data.startswith(b"\xef\xbb\xbf")  # as check_file reads it
    if size > len(data):
        doc.full_length = max(doc.full_length, size)
    return SkillResult(result.path, doc, result.findings, loc)


_CLOSING_FENCE = lazy_re(r"(?:\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)")


def _head(text: str) -> str:
    """The text down to its frontmatter's closing line: all stage one of the rules reads (the
    body's line index and parse are a scan's first pass's largest cost). The whole text when
    the frontmatter does not close early enough (structure.check tells how it fails)."""
    if not text.startswith(("---", "\ufeff---")):
        return text
    first_end = min((i for i in (text.find("\n"), text.find("\r")) if i >= 0), default=-1)
    m = _CLOSING_FENCE.search(text, first_end) if first_end >= 0 else None
    return text[:m.end()] if m is not None and m.end() <= document.MAX_FRONTMATTER_CHARS else text


def placed(findings: list[Finding], path: str, location: Location | None) -> list[Finding]:
    """``findings`` as the skill's place grades them: outside every root, a SKILL.md without
    frontmatter and no skills/ folder above it may be a fragment, one in Devin CLI's root needs
    none, and one in a test folder or among another skill's examples is test data or an example
    (information, not a problem to fix). The scan and an open buffer alike (state.analyse)."""
    if location is None or location.root_index >= 0:
        return findings
    if not any(f.severity <= Severity.WARNING or f.code == "MISSING_FRONTMATTER" for f in findings):
        return findings  # what follows grades only these
    if in_devin_root(path):
        findings = [f for f in findings if f.code != "MISSING_FRONTMATTER"]
    rel = _below(path, location.root)
    # The folders between the workspace and the skill's, its own included (none outside the workspace
    # searched). Under a test folder the file is test data before it is a fragment (unseen19
    # mackysoft/agent-skills' `tests/Fixtures/…/SKILL.md` were called fragments).
    parts = [] if rel.startswith("..") else rel.split(os.sep)
    if not _under_a_skills_folder(path) and not _test_folder(parts):
        if any(f.code == "MISSING_FRONTMATTER" for f in findings) and not _among_skills(path):
            findings = [_fragment(f) if f.code == "MISSING_FRONTMATTER" else f for f in findings]
    if not parts:
        return findings  # outside the workspace searched: no folder of it to go by
    if _test_folder(parts):
        return [_fixture(f) if f.severity <= Severity.WARNING else f for f in findings]
    if _archive_folder(parts):
        return [_archived(f) if f.severity <= Severity.WARNING else f for f in findings]
    if _template_folder(parts):
        return [_template(f) if f.severity <= Severity.WARNING else f for f in findings]
    if (owner := _example_owner(path, location.root, parts)) is not None:
        return [_example(f, owner) if f.severity <= Severity.WARNING else f for f in findings]
    return findings


def placement_matters(findings: list[Finding], path: str) -> bool:
    """Whether ``placed`` could change ``findings`` wherever ``path`` is located: a warning or an
    error, and a test or example folder in the path or no skills/ folder above it; in Devin's root
    MISSING_FRONTMATTER. A test on names alone, so an open buffer asks for its location
    (``classify``) only then."""
    if in_devin_root(path):
        return any(f.code == "MISSING_FRONTMATTER" for f in findings)
    if not any(f.severity <= Severity.WARNING for f in findings):
        return False
    parts = os.path.normpath(os.path.dirname(path)).split(os.sep)
    return not _under_a_skills_folder(path) or any(p in TEST_FOLDERS or p in EXAMPLE_FOLDERS or p in ARCHIVE_FOLDERS
                                                   or p.lower() in TEMPLATE_FOLDERS for p in parts)


def _under_a_skills_folder(path: str) -> bool:
    """Whether a folder named skills/ or skill/ holds the skill: every harness's discovery
    pattern has one (.claude/skills/*, plugins' skills/*, OpenCode's {skill,skills}/**)."""
    parts = os.path.normpath(os.path.dirname(os.path.dirname(path))).split(os.sep)
    return any(p in ("skills", "skill") for p in parts)


def _among_skills(path: str) -> bool:
    """Whether the folders beside the skill's hold skills with frontmatter (two of the first 64): a
    collection of skills at a repository's top, where a SKILL.md without frontmatter is a skill that
    no harness loads, not a fragment (unseen majq1990/opencode-skills: one of 67)."""
    parent = os.path.dirname(os.path.dirname(path))
    try:
        st = os.stat(parent)
        key = (parent, st.st_mtime_ns, st.st_nlink)  # the link count: two changes in one clock tick
    except OSError:
        return False
    got = _HOLDS.get(key)
    if got is None:
        if len(_HOLDS) >= 256:
            _HOLDS.clear()
        got = _HOLDS[key] = _holds_skills(parent)
    return got


# Answers by folder and the folder's modification time (an entry added, removed or renamed), for a
# `check` run and a server alike: unseen kazuyaegusa/claude-skills asked 1,082 times, 1.2 ms each. A
# sibling's own frontmatter gained or lost leaves the time alone: the answer then waits for the
# next change of the folder's entries.
_HOLDS: dict[tuple[str, int, int], bool] = {}


def _holds_skills(parent: str, enough: int = 2, looked: int = 64) -> bool:
    # The answer is the folder's, whichever of its skills asks.
    try:
        names = sorted(os.listdir(parent))[:looked]
    except OSError:
        return False
    found = 0
    for name in names:
        head = read_regular(os.path.join(parent, name, "SKILL.md"), 8)
        if head is not None and head.lstrip(b"\xef\xbb\xbf").startswith(b"---"):
            found += 1
            if found >= enough:
                return True
    return False


def _fragment(f: Finding) -> Finding:
    # Found only by the recursive search, where no harness looks: a template or fragment
    # named SKILL.md (issue 11 audit: UiPath's skill-flavors/), not a skill to fix.
    # Not "no harness discovers it": a repository cloned as ~/.claude/skills is read whole (unseen
    # kazuyaegusa/claude-skills).
    return replace(f, severity=Severity.INFO, message=f.message + "; no skills/ folder holds it in this "
                               "workspace, where harnesses look, so it may be a fragment rather than a skill")


# Cross-skill findings name at most this many of the other skills in related information (and
# three in the message): a group of N copies or near-identical descriptions made N findings of N
# entries each, and 1,250 skills sharing a template description made a 490 MB report.
RELATED_MAX = 10


# Folders of a repository's own tests: a SKILL.md there is test data of a tool that reads or
# writes skills (issue 26: golden outputs under tests/golden/, eval fixtures; on the tune half
# tests/fixtures/ of a plugin), found only by the recursive search.
TEST_FOLDERS = frozenset(("tests", "test", "__tests__", "fixtures", "__fixtures__", "testdata", "golden", "goldens"))


def _below(path: str, root: str) -> str:
    """The folder of ``path`` relative to ``root`` (starting '..' when outside it)."""
    folder = os.path.dirname(path)
    prefix = root.rstrip(os.sep) + os.sep
    if os.path.isabs(root) and folder.startswith(prefix):
        probe = folder + os.sep
        if _UP not in probe and _HERE not in probe and _TWICE not in probe:
            return folder[len(prefix):]  # the common case, without relpath's two abspath calls
    return os.path.relpath(folder, root)


_UP, _HERE, _TWICE = f"{os.sep}..{os.sep}", f"{os.sep}.{os.sep}", os.sep * 2


def in_test_folder(path: str, root: str) -> bool:
    """Whether a folder between ``root`` (the workspace searched) and the skill is a test folder."""
    rel = _below(path, root)
    return not rel.startswith("..") and _test_folder(rel.split(os.sep))


def _test_folder(parts: list[str]) -> bool:
    return not TEST_FOLDERS.isdisjoint(parts)


# Folders a repository keeps retired skills in: a SKILL.md below one, found only by the recursive
# search, is an old copy nobody installs (unseen ptreezh/sscisubagent-skills archive/skills_copy/,
# nathanvale/claude-code-config skills/archive/: 61 findings, none an author would act on).
ARCHIVE_FOLDERS = frozenset(("archive", "archives", "archived", "_archive", ".archive", "deprecated"))


def in_archive_folder(path: str, root: str) -> bool:
    """Whether a folder between ``root`` and the skill's own folder (a skill may be called `archive`)
    is one for retired skills (ARCHIVE_FOLDERS)."""
    rel = _below(path, root)
    return not rel.startswith("..") and _archive_folder(rel.split(os.sep))


# Folders a repository keeps the skeleton of a new skill in (`templates/skill/`, a `_template` among
# submissions, anthropics/skills' `template/`), the skill's own folder included: a SKILL.md there has
# placeholders for a name and a description (`name: "<skill-name>"`), copied and renamed before use
# (held-out audits unseen17 and unseen20: every finding on one an error nobody would fix in place).
TEMPLATE_FOLDERS = frozenset(("template", "templates", "_template", "_templates", ".template", "skill-template"))


def _template_folder(parts: list[str]) -> bool:
    return any(p.lower() in TEMPLATE_FOLDERS for p in parts)


def _archive_folder(parts: list[str]) -> bool:
    return any(p.lower() in ARCHIVE_FOLDERS for p in parts[:-1])


# Folders of a skill that hold its examples and material: a SKILL.md there is an example of what
# the skill makes or a template it fills (unseen op7418/huashu-nuwa examples/*/SKILL.md: 14
# SKILL_TOO_LARGE warnings), and no harness loads a skill nested in another's folder.
EXAMPLE_FOLDERS = frozenset(("examples", "example", "templates", "template", "assets", "references", "evals"))


def example_of(path: str, root: str) -> str | None:
    """The skill folder whose example folder (EXAMPLE_FOLDERS) holds the SKILL.md at ``path``,
    between ``root`` (the workspace searched) and it; None when there is none."""
    rel = _below(path, root)
    return None if rel.startswith("..") else _example_owner(path, root, rel.split(os.sep))


def _example_owner(path: str, root: str, parts: list[str]) -> str | None:
    if EXAMPLE_FOLDERS.isdisjoint(parts):
        return None
    d = os.path.dirname(os.path.dirname(path))
    while d != root and len(d) > len(root):
        if os.path.basename(d) in EXAMPLE_FOLDERS and os.path.isfile(os.path.join(os.path.dirname(d), "SKILL.md")):
            return os.path.dirname(d)
        d = os.path.dirname(d)
    return None


def _example(f: Finding, owner: str) -> Finding:
    return replace(f, severity=Severity.INFO, message=f.message + f"; the file is in the folder of the skill "
                   f"'{os.path.basename(owner)}', among its examples, and no root holds it, so it is reported as "
                   "an example")


def _fixture(f: Finding) -> Finding:
    return replace(f, severity=Severity.INFO, message=f.message + "; the file is under a test folder "
                               "and no root holds it, so it is reported as test data")


def _archived(f: Finding) -> Finding:
    return replace(f, severity=Severity.INFO, message=f.message + "; the file is under an archive folder "
                               "and no root holds it, so it is reported as a retired copy")


def _template(f: Finding) -> Finding:
    return replace(f, severity=Severity.INFO, message=f.message + "; the file is in a template folder "
                               "and no root holds it, so it is reported as a template")


def _member(r: SkillResult) -> bool:
    """Takes part in cross-skill rules: in a configured root, and valid or only misnamed."""
    if r.location is None or r.location.root_index < 0:
        return False
    err = r.blocking_error
    return err is None or err.code == "NAME_MISMATCH"


def _same_place(a: SkillResult, b: SkillResult) -> bool:
    """Whether the cross-skill findings of a skill and of the others depend on ``a`` and ``b``
    alike: the same name and span of it, validity and location (``_link_group``,
    ``_overlap_findings``; the description is the overlap index's to compare)."""
    return (a.name == b.name and a.anchor == b.anchor and a.location == b.location
            and (a.blocking_error is None) == (b.blocking_error is None) and _member(a) == _member(b))


def _plugin_skill(r: SkillResult) -> bool:
    """In the `skills/` root of a Claude Code plugin (`.claude-plugin/` beside it): Claude Code names
    it `plugin:name` when the plugin is installed, so it shadows no project skill and none shadows
    it (issue 26: a plugin repository that also keeps `.claude/skills/` copies for its own work)."""
    from .harness.claude_plugin import plugin_skills_folder  # noqa: PLC0415 - only skills sharing a name

    return plugin_skills_folder(r.location.root if r.location is not None else "")


def _link_group(name: str, members: list[SkillResult], settings: Settings) -> None:
    """Cross-skill findings inside one name group (members already cleared)."""
    members.sort(key=lambda r: (r.location.root_index, r.path))  # type: ignore[union-attr]
    by_root: dict[int, list[SkillResult]] = defaultdict(list)
    for m in members:
        by_root[m.location.root_index].append(m)  # type: ignore[union-attr]
    for same in by_root.values():
        if len(same) < 2:
            continue
        for w in same:
            others = [o for o in same[:RELATED_MAX + 1] if o is not w][:RELATED_MAX]  # not N² for N copies
            rel = tuple(Related(o.path, *o.anchor, f"also named '{name}'") for o in others)
            where = ", ".join(os.path.relpath(o.path, os.path.dirname(w.path)) for o in others[:3])
            if len(same) > 4:
                where += f" and {len(same) - 4} more"
            w.cross.extend(apply_settings([make(
                "DUPLICATE_NAME", f"another skill in the same root is also named '{name}' ({where})",
                *w.anchor, {"name": name}, related=rel)], settings))
    valid = [m for m in members if m.blocking_error is None]
    if len(valid) < 2:
        return
    valid = [m for m in valid if not _plugin_skill(m)]
    if len(valid) < 2:
        return
    if len({m.location.root_index for m in valid}) < 2:  # type: ignore[union-attr]
        return  # one root: DUPLICATE_NAME says it
    for m in valid:
        _shadowed(name, m, valid, settings)


def _shadowed(name: str, me: SkillResult, valid: list[SkillResult], settings: Settings) -> None:
    """SHADOWED on ``me`` where its targets list another copy of its name instead.

    A harness reading the roots of two copies lists the one its own order puts first
    (``Harness.wins``: Copilot CLI keeps the .github/skills copy, Gemini CLI the .agents/skills one;
    their listing decisions follow the same facts); the skill-tool contract, and targets reading
    neither root, take the root listed first in ``roots``. A target that lists this copy makes the
    finding an information naming who lists which (unseen AndreHahm/andres-cc-marketplace keeps
    `.claude/skills` and `.agents/skills` variants of 54 skills: "harnesses never load this copy"
    was wrong for Claude Code, which reads only the first).
    """
    here = me.location
    assert here is not None
    first = valid[0]  # the lowest root index (``_link_group`` sorted them)
    by_index = first if first.location.root_index < here.root_index else None  # type: ignore[union-attr]
    lost: dict[str, list[str]] = {}  # the copy listed instead -> the targets listing it ("": by precedence)
    kept: list[str] = []  # targets that list this copy
    unsure = False  # a target reads another copy's root too, and which copy it keeps is not known
    for target in targets_for(settings, me.path):
        h = HARNESSES.get(target)
        reads = reads_root(h, here.dir) if h is not None and h.roots and not h.any_root else None
        if reads is None:  # roots the session declares (the skill-tool contract), or none a record knows
            if by_index is not None:
                lost.setdefault(by_index.path, []).append("")
            continue
        if reads is False:
            continue  # never read there: not a copy this target could load
        assert h is not None
        others = [m for m in valid if m is not me and m.location.root_index != here.root_index  # type: ignore[union-attr]
                  and reads_root(h, m.location.dir) is True]  # type: ignore[union-attr]
        if not others or h.every_copy:
            kept.append(label(h))  # reads no other copy's root, or lists every copy (Codex)
            continue
        mine = win_rank(h, here.dir)
        rivals = [(rank, m) for m in others if (rank := win_rank(h, m.location.dir)) is not None]  # type: ignore[union-attr]
        if mine is None or not rivals or h.fact(SAME_NAME) is not None:
            unsure = True  # which copy it keeps is unknown, or changes from run to run (OpenCode)
            continue
        rank, winner = min(rivals, key=lambda rm: (rm[0], rm[1].location.root_index, rm[1].path))  # type: ignore[union-attr]
        if rank < mine:
            lost.setdefault(winner.path, []).append(label(h))
        else:
            kept.append(label(h))
    if not lost:
        return
    winner_path, who = next(iter(lost.items()))
    winner = next(m for m in valid if m.path == winner_path)
    if os.path.realpath(winner.location.dir) == os.path.realpath(here.dir):  # type: ignore[union-attr]
        # One folder reached through a link from another root (`.claude/skills/x ->
        # ../../.agents/skills/x`, for the harnesses that read only one of the two): no copy
        # of it goes unloaded (unseen b-mendoza/agent-skills: 10 wrong warnings).
        return
    labels = [w for w in who if w]
    if not labels:  # the roots' precedence
        message = (f"skill '{name}' is shadowed by {winner_path} (root {winner.location.root_index} wins over "  # type: ignore[union-attr]
                   f"root {here.root_index})")
    else:
        message = (f"skill '{name}' is shadowed by {winner_path}: {_joined(labels)} "
                   f"{'list' if len(labels) > 1 else 'lists'} that copy instead")
    if kept:
        message += f"; {_joined(kept)} {'list' if len(kept) > 1 else 'lists'} this one"
    elif not unsure:
        message += "; harnesses never load this copy"
    me.cross.extend(apply_settings([make(
        "SHADOWED", message, *me.anchor, {"name": name, "winner": winner_path},
        related=(Related(winner_path, *winner.anchor, "the skill that wins"),),
        tags=() if kept or unsure else ("unnecessary",), severity=Severity.INFO if kept else None)], settings))


def _joined(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def check_job(job: tuple[Location, Settings, bool]) -> SkillResult:
    """Worker-process entry (picklable by reference): check one skill, return it slim; with
    ``fixes`` (JSON output) each of its findings' fixes too, built while its document is at hand."""
    loc, settings, fixes = job
    return slim_for_check(check_file(loc.path, settings, loc), fixes)


def slim_for_check(result: SkillResult, fixes: bool) -> SkillResult:
    """``result`` as `check` keeps it (``check_job``): of its mentions, those a check reports."""
    if result.doc is not None:
        from .mentions import extract  # noqa: PLC0415

        result._mentions = extract(result.doc, reported=True)
    if fixes and result.doc is not None:
        if result.findings:
            from .findingjson import prerendered  # noqa: PLC0415 - JSON output with findings only
            from .fixes import fixes_for, has_fixes  # noqa: PLC0415

            doc = result.doc
            built = {fixes_key(f): fixes_for(doc, f) for f in result.findings if has_fixes(f.code)}
            # Written here, from the whole text, in parallel: the report then only joins them (on
            # the corpus 13 ms instead of 37), and their fixes need not cross back as objects.
            result.rendered = prerendered(result.path, doc.src, result.findings, built)
            done = {id(f) for f, _, _ in result.rendered}
            wanted = {fixes_key(f) for f in result.findings if id(f) not in done}
            result.fixes = {key: menu for key, menu in built.items() if key in wanted}
        else:
            result.fixes = {}
        # The text crosses back only where a finding added later may offer a fix built from it
        # (UNKNOWN_SKILL on a mention, UNUSED_SUPPRESSION on a suppression: the report writes
        # those); the rest send the positions their findings and fixes need.
        return result.slim(keep_text=bool(result.mentions) or result.suppressions is not None, outside=False)
    return result.slim(keep_text=False, outside=False)


def link_skills(results: list[SkillResult], settings: Settings, overlap: OverlapIndex | None = None,
                also: list[SkillResult] | None = None, pause: Callable[[], None] | None = None) -> None:
    """Cross-skill findings among skills in configured roots: duplicate names, shadowing and
    near-identical descriptions (``overlap`` keeps the description index for later updates).
    ``also``: skills found outside the roots (a recursive search), which take part in the
    description overlap only.

    Lower root index wins; an invalid skill never displaces a valid one (it is not
    in the catalog at all), so only valid skills shadow or are shadowed.
    """
    groups: dict[str, list[SkillResult]] = defaultdict(list)
    for i, r in enumerate(results):
        if pause is not None and i % PAUSE_EVERY == 0:
            pause()
        r.cross = []
        if _member(r):
            groups[r.name].append(r)
    for name, members in groups.items():
        if len(members) > 1:
            _link_group(name, members, settings)
    for r in also or ():
        r.cross = []
    results = results + list(also or ())
    if overlap is None:
        if len(results) < 2:
            return  # one skill overlaps no other (a one-skill check does not load the index)
        from .overlap import OverlapIndex  # noqa: PLC0415

        overlap = OverlapIndex()
    idx = overlap
    by_path = {r.path: r for r in results}
    for i, r in enumerate(results):
        if pause is not None and i % PAUSE_EVERY == 0:
            pause()
        if _describes(r):
            root = _root_of(r)
            if not idx.holds(r.path, r.name, r.description, root):  # a scan may have added it as it came
                idx.add(r.path, r.name, r.description, root)
    for i, path in enumerate(idx.overlapping()):
        if pause is not None and i % PAUSE_EVERY == 0:
            pause()
        by_path[path].cross.extend(_overlap_findings(by_path[path], idx, by_path, settings))


def index_description(idx: OverlapIndex, r: SkillResult) -> None:
    """Add one result to a description index as ``link_skills`` would: a scan does it for each
    result as it comes, while the workers check the rest, and hands the index to
    ``SkillIndex.rebuild`` (0.2 s of its 0.27 on 10,000 skills, after the last check)."""
    if _describes(r):
        idx.add(r.path, r.name, r.description, _root_of(r))


def _describes(r: SkillResult) -> bool:
    """Takes part in DESCRIPTION_OVERLAP: any skill a harness can load (found in a root or by a
    recursive search), valid or only misnamed."""
    err = r.blocking_error
    return (err is None or err.code == "NAME_MISMATCH") and r.location is not None and not (
        r.location.root_index < 0 and (in_test_folder(r.path, r.location.root)
                                        or in_archive_folder(r.path, r.location.root)))


def _root_of(r: SkillResult) -> str | None:
    loc = r.location
    return loc.root if loc is not None and loc.root_index >= 0 else None


def _overlap_findings(r: SkillResult, idx: OverlapIndex, by_path: dict[str, SkillResult],
                      settings: Settings) -> list[Finding]:
    """DESCRIPTION_OVERLAP on ``r``, naming the skills its description overlaps (three in the text, RELATED_MAX
    in related information and data)."""
    first, count = idx.head(r.path, RELATED_MAX)
    if any(p not in by_path for p in first):  # an indexed skill without a result (not expected): the exact way
        everyone = [p for p in idx.of(r.path) if p in by_path]
        first, count = everyone[:RELATED_MAX], len(everyone)
    if not count:
        return []
    others = [by_path[p] for p in first]
    here = os.path.dirname(r.path)
    shown = ", ".join(f"'{o.name}' ({os.path.relpath(o.path, here)})" for o in others[:3])
    more = f" and {count - 3} more" if count > 3 else ""
    rel = tuple(Related(o.path, *o.anchor, f"description nearly the same as '{r.name}'") for o in others)
    data: dict = {"others": [o.path for o in others]}
    if count > RELATED_MAX:
        data["more"] = count - RELATED_MAX
    return apply_settings([make(
        "DESCRIPTION_OVERLAP", f"the description is nearly the same as that of {shown}{more}: a model cannot tell "
        "them apart and may pick either for the same request; say in each description what sets the skill apart "
        "(its inputs, its task, when to use it), or merge the skills", *r.anchor,
        data, related=rel)], settings)


class SkillIndex:
    """The skills of one workspace by path, with cross-skill findings kept up to date incrementally.

    Replacing one skill recomputes only the name groups it left and joined, so an
    edit costs O(group) instead of O(workspace).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.results: dict[str, SkillResult] = {}
        self._groups: dict[str, set[str]] = defaultdict(set)
        self._name_of: dict[str, str] = {}
        self.graph = SkillGraph(settings)
        from .aliases import Places  # noqa: PLC0415
        from .overlap import OverlapIndex  # noqa: PLC0415 - a one-skill check builds no index

        self.overlap = OverlapIndex()
        self.places = Places()  # files found at two places through a link

    def rebuild(self, results: list[SkillResult], pause: Callable[[], None] | None = None,
                overlap: OverlapIndex | None = None) -> None:
        """Index ``results`` anew. ``pause``: called every PAUSE_EVERY skills (a server's scan thread
        lets an edit's analysis run there). ``overlap``: a description index of some of these
        results (``index_description``), completed and kept; nothing else may be in it."""
        self.results = {r.path: r for r in results}
        self._groups = defaultdict(set)
        self._name_of = {}
        from .aliases import Places  # noqa: PLC0415

        self.places = Places()
        if overlap is None:
            from .overlap import OverlapIndex  # noqa: PLC0415

            overlap = OverlapIndex()
        self.overlap = overlap
        for path in [p for p in self.overlap.entries if p not in self.results]:
            self.overlap.remove(path)
        link_skills(results, self.settings, self.overlap, pause=pause)
        for i, r in enumerate(results):
            if pause is not None and i % PAUSE_EVERY == 0:
                pause()
            if _member(r):
                self._groups[r.name].add(r.path)
                self._name_of[r.path] = r.name
            if r.location is not None and r.location.real is not None:
                self.places.add(r)
        self.graph.rebuild(self.results, pause)

    def _relink(self, names: set[str]) -> set[str]:
        touched: set[str] = set()
        for name in names:
            members = [self.results[p] for p in self._groups.get(name, ())]
            before = {m.path: m.cross for m in members}
            for m in members:
                m.cross = [f for f in m.cross if f.code == "DESCRIPTION_OVERLAP"]
            if len(members) > 1:
                _link_group(name, members, self.settings)
            touched.update(m.path for m in members if m.cross != before[m.path])
        return touched

    def put(self, result: SkillResult) -> set[str]:
        """Add or replace a skill; returns the other paths whose cross-skill findings changed."""
        path = result.path
        prev = self.results.get(path)
        self.results[path] = result
        if prev is not None:
            self.places.remove(prev)
        self.places.add(result)
        # A keystroke that leaves the name, its place, the skill's validity and location as they
        # were changes no other skill's findings: in one of 2,000 copies of a name, recomputing
        # the group took 116 ms a keystroke.
        kept = prev.cross if prev is not None and _same_place(prev, result) else None
        if kept is not None:
            result.cross = [f for f in kept if f.code != "DESCRIPTION_OVERLAP"]
            touched: set[str] = set()
        else:
            names = set()
            old = self._name_of.pop(path, None)
            if old is not None:
                self._groups[old].discard(path)
                names.add(old)
            result.cross = []
            if _member(result):
                self._groups[result.name].add(path)
                self._name_of[path] = result.name
                names.add(result.name)
            touched = self._relink(names)
        touched |= self.graph.update(self.results, path, prev, result)
        root = _root_of(result)
        if kept is not None and _describes(result) and self.overlap.holds(path, result.name, result.description, root):
            result.cross += [f for f in kept if f.code == "DESCRIPTION_OVERLAP"]
        else:
            changed = self.overlap.add(path, result.name, result.description, root) if _describes(result) else \
                self.overlap.remove(path)
            touched |= self._reoverlap(changed | {path})
        # The same file's other places report only what this one does not.
        touched |= self.places.others(self.results, path)
        return touched - {path}

    def _reoverlap(self, paths: set[str]) -> set[str]:
        """Recompute DESCRIPTION_OVERLAP on ``paths``; those whose findings changed."""
        touched = set()
        for p in paths:
            r = self.results.get(p)
            if r is None:
                continue
            keep = [f for f in r.cross if f.code != "DESCRIPTION_OVERLAP"]
            new = keep + _overlap_findings(r, self.overlap, self.results, self.settings)
            if new != r.cross:
                r.cross = new
                touched.add(p)
        return touched

    def remove(self, path: str) -> set[str]:
        old = self._name_of.pop(path, None)
        prev = self.results.get(path)
        touched = self.places.others(self.results, path)
        self.results.pop(path, None)
        if prev is not None:
            self.places.remove(prev)
        touched |= self.graph.update(self.results, path, prev, None) if prev is not None else set()
        touched |= self._reoverlap(self.overlap.remove(path) - {path})
        if old is None:
            return touched - {path}
        self._groups[old].discard(path)
        return (self._relink({old}) | touched) - {path}


def fix_all_text(text: str, path: str, settings: Settings, *, on_disk: bool = True,
                 max_passes: int = 16, unsafe: bool = False) -> str:
    """Apply every safe fix until none is left (a fixpoint, so a second run changes nothing).

    ``unsafe`` (`check --unsafe-fixes`) applies unsafe fixes too (fixes.chosen_fix).

    Each pass applies all the non-overlapping safe fixes of one check together. A fix may
    reveal the next one (a YAML error hides the field rules), so passes go on while the
    text changes, at most ``max_passes``: the bound only stops fixes that undo each other.
    The parser reports one unquoted ': ' value at a time; the pass quotes them all at once.
    """
    from .fixes import apply_edits, colon_quote_edits, safe_edits  # noqa: PLC0415

    for _ in range(max_passes):
        doc, findings = check_text(text, path, settings, on_disk=on_disk)
        # What is reported is what is fixed: not a suppressed or unselected finding, and an unused
        # suppression only when this file alone tells (cross-skill codes wait for the others).
        findings = suppress.shown(findings, suppress.scan(doc), settings, path, "local" if on_disk else "none")
        edits = safe_edits(doc, findings, unsafe=unsafe)
        if not edits:
            break
        if any(f.code == "INVALID_FRONTMATTER" and (f.data or {}).get("reason") == "unquoted-colon"
               for f in findings):
            edits += colon_quote_edits(doc)
        new = apply_edits(text, edits)
        if new == text:
            break
        text = new
    return text
