"""Preview activation and catalog: checked skills -> SkillRecords -> dialect text.

The bridge between the linter's results and the skill-tool contract, shared by
`skill-lsp preview|catalog` and the server's preview commands. Previews run as
the author: trust gating is relaxed (`allow`, no hook needed), but the fence,
sensitive paths, disable-model-invocation and every frontmatter error apply.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from .activation import SessionConfig, SkillRecord, SkillSession
from .activation.results import ErrorResult, NotFoundResult, Result, ToolError
from .activation.session import catalog_key
from .config import Settings
from .datarecord import asdict, is_record, replace
from .discovery import Location, nested_in_roots
from .harness import HARNESSES, not_read, reads_root, session_reader
from .harness.claude_plugin import inside_another, plugin_of, stray
from .listing import shadowed_reason, unread_link
from .readings import record_error, record_read_by, records_read_by
from .render import catalog_report, get_dialect, render_result
from .workspace import SkillResult, example_of, in_archive_folder, in_test_folder


def record_for(result: SkillResult, root_index: int | None = None) -> SkillRecord:
    """The activation record of one checked skill (its doc must be present)."""
    doc = result.doc
    loc = result.location
    index = loc.root_index if root_index is None and loc is not None else (root_index or 0)
    root = loc.root if loc is not None else result.path.rsplit("/", 2)[0]
    skill_dir = loc.dir if loc is not None else result.path.rsplit("/", 1)[0]
    error = record_error(result)
    if doc is None:
        return SkillRecord(result.name, result.folder, skill_dir, result.path, index, root, {}, "", error or
                           ("IO_ERROR", f'failed to load skill "{result.name}" from {skill_dir}'))
    # A frontmatter that never closes: the whole file is the body (Claude Code, the one harness that
    # activates such a skill, hands it over so; the differential tester).
    body = doc.body_text if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter) else doc.text
    return SkillRecord(result.name, result.folder, skill_dir, result.path, index, root,
                       doc.frontmatter_values(), body, error, text=doc.text, checked=result)


def records_for(results: list[SkillResult], root_count: int, linked: Sequence[SkillResult] = ()) -> list[SkillRecord]:
    """Records for a catalog: skills in roots keep their index; others rank after every root.
    ``linked``: other skills of the workspace that root folders may be links to (read_through_links)."""
    out = []
    for r in results:
        in_root = r.location is not None and r.location.root_index >= 0
        out.append(record_for(r, None if in_root else root_count))
    return read_through_links(out, [*results, *linked])


def linked_paths(results: Sequence[SkillResult]) -> set[str]:
    """Real SKILL.md paths that skill folders among ``results`` are links to (unread: OUTSIDE_WORKSPACE)."""
    return {os.path.realpath(r.path) for r in results
            if r.doc is None and r.location is not None and r.location.problem is not None
            and r.location.problem[0] == "OUTSIDE_WORKSPACE" and os.path.islink(r.location.dir)}


def link_targets(results: Sequence[SkillResult], workspace: str, settings: Settings) -> list[SkillResult]:
    """The skills that skill folders among ``results`` are links to, for ``records_for``'s ``linked``:
    each read as the walk reads a skill, fenced to its own folder, never a sensitive path.

    A link that leads out of the workspace is read too, for what a harness lists and hands over
    (every release follows it: capture case skill-links); nothing there is checked or written.
    Targets already among ``results`` are not read again."""
    from . import discovery  # noqa: PLC0415
    from .workspace import check_file  # noqa: PLC0415

    wanted = linked_paths(results)
    if not wanted:
        return []
    have = {os.path.realpath(r.path) for r in results
            if r.location is None or r.location.problem is None or r.location.problem[0] != "OUTSIDE_WORKSPACE"}
    top = os.path.realpath(workspace)
    out = []
    for real in sorted(wanted - have):
        folder = os.path.dirname(real)
        inside = discovery.is_inside(real, top)
        loc = discovery.locate(folder, top if inside else os.path.dirname(folder), -1, [top if inside else folder],
                               settings.sensitive_patterns)
        if loc is not None:  # a sensitive one is not read: read_through_links passes it by
            out.append(check_file(loc.path, settings, loc))
    return out


def read_through_links(records: list[SkillRecord], results: Sequence[SkillResult],
                       record_of: Callable[[SkillResult], SkillRecord] | None = None) -> list[SkillRecord]:
    """Skill folders that are links to a skill read elsewhere in the workspace (the walk's, fenced to
    the workspace folder): their records carry that skill's document, in the link's place.

    Every captured release lists and activates such a folder (capture case skill-links); the
    skill-tool contract refuses it (OUTSIDE_WORKSPACE, kept on the record for it; harness dialects
    lift it: readings.record_read_by). ``results`` holds the targets (``link_targets``).
    ``record_of``: how a target's record is made (the server re-reads a slim result)."""
    unread = [i for i, rec in enumerate(records) if rec.error is not None and rec.error[0] == "OUTSIDE_WORKSPACE"
              and getattr(rec.checked, "doc", None) is None and os.path.islink(rec.dir)]
    if not unread:
        return records
    by_real = {os.path.realpath(r.path): r for r in results}
    out = list(records)
    for i in unread:
        rec = out[i]
        target = by_real.get(os.path.realpath(rec.path))
        if target is None or target.path == rec.path:
            continue
        read = (record_of or record_for)(target)
        checked = read.checked
        if not isinstance(checked, SkillResult) or checked.doc is None:
            continue
        name = read.name if read.name != read.folder else rec.folder
        # The link's location: where it sits below its root decides whether a harness looks there.
        where = getattr(rec.checked, "location", None) or Location(rec.dir, rec.path, rec.root_index, rec.root)
        out[i] = replace(read, name=name, folder=rec.folder, dir=rec.dir, path=rec.path, root_index=rec.root_index,
                         root=rec.root, error=rec.error, checked=SkillResult(rec.path, checked.doc, checked.findings, where))
    return out


def session(records: list[SkillRecord], settings: Settings, dialect: str | None = None,
            roots: list[str] | None = None) -> SkillSession:
    return SkillSession(records, SessionConfig(
        untrusted_project_skills="allow",
        unsafe_allow_skill_without_hook=True,
        sensitive_patterns=tuple(settings.sensitive_patterns),
        dialect=dialect or settings.dialect,
        workspace_roots=roots,
    ))


def followed_roots(record: SkillRecord) -> list[str] | None:
    """The session's fence for a harness activating ``record`` through a link it follows (its root and
    where the link leads, already read: read_through_links); None for any other record."""
    if not os.path.islink(record.dir) or getattr(record.checked, "doc", None) is None:
        return None
    return [record.root, os.path.realpath(record.dir)]


def parse_arguments(raw: str | dict[str, str] | None) -> str | dict[str, str] | None:
    """CLI/editor arguments: a JSON object becomes named arguments, anything else a string."""
    if raw is None or isinstance(raw, dict):
        return raw
    text = raw.strip()
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except ValueError:
            return raw
        if isinstance(value, dict):
            return {str(k): str(v) for k, v in value.items()}
    return raw


def catalog_locations(locations: list[Location], loose: list[Location], roots: list[str],
                      dialect: str, workspace: str | None = None) -> list[Location]:
    """The skills a catalog lists: a harness lists what is in its roots and below them where it
    searches them (``discovery.nested_in_roots``); skills found elsewhere count only when there are
    no roots at all (`catalog plugins/x/skills`), examples and test data of ``workspace`` aside,
    or when they are a Claude Code plugin's and the dialect's harness loads plugins. A plugin
    among another plugin's examples is not loaded with it."""
    def kept(loc: Location) -> bool:
        plugin = plugin_of(loc.dir)
        return plugin is None or not inside_another(plugin)

    h = HARNESSES.get(get_dialect(dialect).harness or "")
    if not locations:
        if workspace is None:
            return loose
        # Inside a plugin's folder, a session that loads the plugin lists its skills, no other
        # (the release lists none of a refused plugin, nor a skill its plugin.json does not name).
        plugins = h is not None and h.plugins
        return [loc for loc in loose if kept(loc) and not in_test_folder(loc.path, workspace)
                and not in_archive_folder(loc.path, workspace)
                and example_of(loc.path, workspace) is None and not (plugins and stray(loc.dir))]
    nested = nested_in_roots(loose, roots)
    if h is not None and h.plugins:
        taken = {loc.path for loc in nested}
        nested += [loc for loc in loose if loc.path not in taken and plugin_of(loc.dir) is not None and kept(loc)]
    return locations + nested


#: Records no harness preview shows: unreadable, or kept out by skill-lsp's own safety fence.
_NOT_PREVIEWED = ("IO_ERROR", "SENSITIVE", "OUTSIDE_WORKSPACE")


def _previewable(records: list[SkillRecord]) -> list[SkillRecord]:
    return [r for r in records if r.error is None or r.error[0] not in _NOT_PREVIEWED]


def _harness_activate(records: list[SkillRecord], settings: Settings, dialect: str, *, name: str | None,
                      path: str | None, arguments: str | dict[str, str] | None, as_user: bool,
                      workspace: str | None = None) -> Result | None:
    """Activate as a harness that takes any name it lists (mismatched, uppercase, …).

    None when the harness would not find the skill; the session then answers as usual.
    """
    d = get_dialect(dialect)
    pick = getattr(d, "activation_record", None)
    if pick is None:
        return None
    usable = _previewable(records)
    same = d.ambiguous(usable, name) if path is None and name is not None and hasattr(d, "ambiguous") else []
    if same:  # Copilot CLI: names that differ only in case find none of them
        error = ToolError("AMBIGUOUS", f'Skill "{name}" is ambiguous. Use one of: {", ".join(same)}', {"name": name})
        failed = ErrorResult(error, name=name)
        return replace(failed, output=render_result(failed, d))
    if path is not None:
        target = next((r for r in usable if r.path == path), None)
    else:
        # Claude Code's lookup finds the workspace's commands too.
        target = pick(usable, name, workspace) if d.name == "claude-code" else pick(usable, name)
    if target is None:
        unknown = getattr(d, "unknown", None)
        if unknown is not None and path is None and name is not None:
            # The harness's own answer, with the name it would suggest (Claude Code).
            return NotFoundResult(name, output=unknown(usable, name, workspace))
        return None
    declared = target.frontmatter.get("name")
    shown = declared if isinstance(declared, str) and declared else target.folder
    if getattr(d, "echoes_name", False) and name is not None and path is None:
        shown = name
    elif path is not None and hasattr(d, "listed_name"):
        shown = d.listed_name(target)  # the name the model would call it by
    key = "harness-preview"  # the session takes kebab-case keys only; the harness's name is restored below
    params: dict[str, Any] = {"name": key}
    if arguments is not None:
        params["arguments"] = arguments
    h = HARNESSES.get(d.harness) if d.harness else None
    result = session([replace(target, name=key, error=None)], settings, dialect, followed_roots(target)).activate(
        params, user_initiated=as_user or (h is not None and h.activates_hidden))
    if result.kind != "ok":
        return None
    result = replace(result, name=shown)
    return replace(result, output=render_result(result, d))


def activate(records: list[SkillRecord], settings: Settings, *, name: str | None = None, path: str | None = None,
             dialect: str | None = None, arguments: str | dict[str, str] | None = None,
             as_user: bool = False, workspace: str | None = None) -> Result:
    """Activate one skill by name, or the skill whose SKILL.md is ``path`` (it wins over same-name skills).
    ``workspace``: where a harness that lists commands with the skills finds them (Claude Code)."""
    d = get_dialect(dialect or settings.dialect)
    records = d.session_records(records_read_by(records, d.harness))
    if path is None:
        # By name, a skill in a root the harness does not read is not found.
        records = _in_read_roots(records, dialect or settings.dialect)
    harness = _harness_activate(records, settings, dialect or settings.dialect, name=name, path=path,
                                arguments=arguments, as_user=as_user, workspace=workspace)
    if harness is not None:
        return harness
    h = HARNESSES.get(get_dialect(dialect or settings.dialect).harness or "")
    if path is None and h is not None and h.plugins:
        # What the harness's own lookup did not find by name is no plugin's skill (those are
        # called `plugin:folder`, a name the session's registry does not take).
        records = [r for r in records if plugin_of(r.dir) is None]
    if path is not None:
        mine = [r for r in records if r.path == path]
        if not mine:
            raise ValueError(f"no skill at {path}")
        target = mine[0]
        # The previewed file is what the author looks at: it wins its name.
        name = catalog_key(target)
        records = [target] + [r for r in records if catalog_key(r) != name]
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    return session(records, settings, dialect).activate(params, user_initiated=as_user)


def mention_note(records: list[SkillRecord], name: str, dialect: str) -> str | None:
    """Why the harness's own way of naming a skill (Codex's `$name` mention) finds none although it
    lists one by ``name``; None otherwise. The preview still shows what the skill would send."""
    d = get_dialect(dialect)
    conflict = getattr(d, "mention_conflict", None)
    if conflict is None:
        return None
    return conflict(_in_read_roots(records_read_by(records, d.harness), dialect), name)


def not_listed(records: list[SkillRecord], path: str, dialect: str, *, as_user: bool = False) -> str | None:
    """Why the harness of ``dialect`` never loads the skill at ``path``: a root it does not read,
    or what it skips the skill for (None when it lists it, or the dialect is no harness's).

    skill-lsp's own fence (IO_ERROR, SENSITIVE, OUTSIDE_WORKSPACE) is left to the session.
    """
    d = get_dialect(dialect)
    record = next((record_read_by(r, d.harness) for r in records if r.path == path), None)
    if not d.harness or record is None or (record.error is not None and record.error[0] in _NOT_PREVIEWED):
        return None
    h = HARNESSES[d.harness]
    if session_reader(h, (r.dir for r in records))(record.dir) is False:
        return not_read(h, record.dir)
    if as_user:
        return None  # the user may run what the model's catalog leaves out
    got = d.listing(record)
    return None if got.listed else got.reason


def left_out(record: SkillRecord, dialect: str) -> str | None:
    """Why the dialect leaves ``record`` out of its catalog (its harness's root or listing); None when listed."""
    d = get_dialect(dialect)
    record = record_read_by(record, d.harness)
    if d.harness and reads_root(HARNESSES[d.harness], record.dir) is False:
        return not_read(HARNESSES[d.harness], record.dir)
    got = d.listing(record)
    return None if got.listed else (got.reason or "not listed")


def why_unmatched(records: list[SkillRecord], name: str, dialect: str) -> list[str]:
    """Why activating ``name`` found no skill, or failed, although a skill of the workspace
    declares that name or sits in a folder of that name: one sentence per such skill
    (`preview "Academic Citation Mapper"` says its name is not a valid name, not only
    "No skill matches")."""
    d = get_dialect(dialect)
    out = []
    reads = session_reader(HARNESSES[d.harness], (r.dir for r in records)) if d.harness else None
    for r in records_read_by(records, d.harness):
        declared = r.frontmatter.get("name")
        declared = declared.strip() if isinstance(declared, str) else None
        if name not in (r.name, r.folder, declared):
            continue
        where = r.path
        if d.harness:
            # A harness's own listing decides (it may load what the skill-tool contract rejects).
            h = HARNESSES[d.harness]
            if reads is not None and reads(r.dir) is False:
                out.append(f"{where}: {not_read(h, r.dir)}")
                continue
            got = d.listing(r)
            if not got.listed:
                out.append(f"{where}: {h.title} leaves it out: {got.reason or 'not listed'}")
            elif got.name and got.name != name:
                out.append(f"{where}: {h.title} lists it as '{got.name}', not '{name}'")
            continue
        listed = d.includes(r)
        as_name = d.entry_name(r)
        if r.error is not None:
            blocking = getattr(r.checked, "blocking_error", None)
            if declared == name and blocking is not None and blocking.code in ("NAME_INVALID", "NAME_SPOOFABLE"):
                why = f"its name '{declared}' is not a valid name ({r.error[1]})"
            else:
                why = r.error[1]
            sentence = f"{where} has that name, but it cannot be loaded: {why}"
            if listed and as_name != name:
                sentence += f"; the {d.name} catalog lists it as '{as_name}', and activating that returns {r.error[0]}"
            out.append(sentence)
        elif not listed:
            out.append(f"{where}: the {d.name} catalog leaves it out: {left_out(r, dialect) or 'not listed'}")
        elif as_name != name:
            out.append(f"{where} is listed as '{as_name}', not '{name}'")
    return out


def _in_read_roots(records: list[SkillRecord], dialect: str) -> list[SkillRecord]:
    d = get_dialect(dialect)
    if not d.harness:
        return records
    reads = session_reader(HARNESSES[d.harness], (r.dir for r in records))
    return [r for r in records if reads(r.dir) is not False]


def catalog_skips(records: list[SkillRecord], dialect: str, workspace: str | None = None
                  ) -> tuple[list[SkillRecord], list[dict[str, str]]]:
    """The records in roots the dialect's harness reads, and the others with the reason
    (``workspace``: as for ``session_reader``)."""
    d = get_dialect(dialect)
    h = HARNESSES.get(d.harness) if d.harness else None
    kept, skipped = [], []
    reads = session_reader(h, (r.dir for r in records), workspace) if h is not None else None
    for r in records:
        if reads is not None and h is not None and reads(r.dir) is False:
            skipped.append({"name": r.name, "path": r.path, "reason": not_read(h, r.dir)})
        elif unread_link(h, r.path, r.error) is not None:
            continue  # listed by the harness, but not read here: the listing decision says so
        elif r.error is not None and r.error[0] in _NOT_PREVIEWED:
            skipped.append({"name": r.name, "path": r.path, "reason": r.error[1]})
        else:
            kept.append(r)
    return kept, skipped


def catalog(records: list[SkillRecord], dialect: str, *, update: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """The catalog text a dialect shows the model, and per-entry sizes and budget warnings."""
    text, entries, _ = catalog_view(records, dialect, update=update)
    return text, entries


def catalog_view(records: list[SkillRecord], dialect: str, *, update: bool = False, workspace: str | None = None
                 ) -> tuple[str, list[dict[str, Any]], list[dict[str, str]]]:
    """:func:`catalog` and the skills the harness skips, each with the reason (``skipped``).
    ``workspace``: where a harness that lists commands with the skills finds them (Claude Code)."""
    d = get_dialect(dialect)
    records = records_read_by(records, d.harness)
    skipped: list[dict[str, str]] = []
    if d.harness:
        records, skipped = catalog_skips(records, dialect, workspace)
    if hasattr(d, "activation_record"):
        # A harness dialect decides itself who is listed (name/folder mismatches, uppercase
        # names and long descriptions included) and how same-name skills resolve.
        chosen = _previewable(records)
    else:
        # The skill tool's registry, skills-ref's to-prompt, DSH: each dialect's own rule.
        chosen, left = d.select(records)
        skipped += left
    if d.name == "claude-code":
        text = d.render_catalog(chosen, workspace=workspace)  # type: ignore[call-arg]
    else:
        text = d.render_catalog(chosen, update=update) if update and d.name == "dsh" else d.render_catalog(chosen)  # type: ignore[call-arg]
    entries = []
    # A harness lists one copy of a name (``order``): the other is skipped below, not included.
    shown = {r.path for r in d.order(chosen)} if d.harness else None
    for r in sorted(chosen, key=lambda r: d.entry_name(r)):
        rep = catalog_report(r, d)
        entry: dict[str, Any] = {
            "name": d.entry_name(r),
            "path": r.path,
            "included": rep.included and (shown is None or r.path in shown),
            "entry": rep.entry,
            "chars": rep.chars,
            "tokens": rep.tokens,
            "warnings": [w.message for w in rep.warnings],
        }
        error = d.entry_error(r) if rep.included else None
        if error is not None:
            entry["error"] = {"code": error[0], "message": error[1]}
        entries.append(entry)
    if shown is not None:
        for r in sorted(chosen, key=lambda r: r.path):
            if r.path in shown:
                continue
            got = d.listing(r)
            reason = got.reason if not got.listed else shadowed_reason(HARNESSES.get(d.harness), d.label)
            skipped.append({"name": r.name, "path": r.path, "reason": reason or "not listed"})
    return text, entries, skipped


def result_json(result: Result) -> dict[str, Any]:
    """The structured shape of a result (spec 000 §3), JSON-ready."""
    def plain(value: Any) -> Any:
        if is_record(value) and not isinstance(value, type):
            return {k: plain(v) for k, v in asdict(value).items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        return value

    data = plain(result)
    for noisy in ("previous", "raw_body", "source_text", "bom"):
        data.pop(noisy, None)
    return data
