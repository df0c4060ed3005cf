"""Preview activation and catalog: checked skills -> SkillRecords -> dialect text.

The bridge between the linter's results and the skill-tool contract, shared by
`skill-lsp preview|catalog` and the server's preview commands. Previews run as
the author: trust gating is relaxed (`allow`, no hook needed), but the fence,
sensitive paths, disable-model-invocation and every frontmatter error apply.
"""

from __future__ import annotations

import json
from dataclasses import asdict, is_dataclass
from typing import Any

from .activation import SessionConfig, SkillRecord, SkillSession
from .activation.results import Result
from .config import Settings
from .findings import RULES, base_message
from .render import catalog_report, get_dialect
from .workspace import SkillResult


def record_for(result: SkillResult, root_index: int | None = None) -> SkillRecord:
    """The activation record of one checked skill (its doc must be present)."""
    doc = result.doc
    loc = result.location
    index = loc.root_index if root_index is None and loc is not None else (root_index or 0)
    root = loc.root if loc is not None else result.path.rsplit("/", 2)[0]
    skill_dir = loc.dir if loc is not None else result.path.rsplit("/", 1)[0]
    blocking = result.blocking_error
    error = None
    if blocking is not None:
        error = (RULES[blocking.code].tool_error or "INVALID_FRONTMATTER", base_message(blocking))
    if doc is None:
        return SkillRecord(result.name, result.folder, skill_dir, result.path, index, root, {}, "", error or
                           ("IO_ERROR", f'failed to load skill "{result.name}" from {skill_dir}'))
    body = doc.body_text if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter) else ""
    return SkillRecord(result.name, result.folder, skill_dir, result.path, index, root,
                       doc.frontmatter_values(), body, error, text=doc.text)


def records_for(results: list[SkillResult], root_count: int) -> list[SkillRecord]:
    """Records for a catalog: skills in roots keep their index; others rank after every root."""
    out = []
    for r in results:
        in_root = r.location is not None and r.location.root_index >= 0
        out.append(record_for(r, None if in_root else root_count))
    return out


def session(records: list[SkillRecord], settings: Settings, dialect: str | None = None) -> SkillSession:
    return SkillSession(records, SessionConfig(
        untrusted_project_skills="allow",
        unsafe_allow_skill_without_hook=True,
        sensitive_patterns=tuple(settings.sensitive_patterns),
        dialect=dialect or settings.dialect,
    ))


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


def activate(records: list[SkillRecord], settings: Settings, *, name: str | None = None, path: str | None = None,
             dialect: str | None = None, arguments: str | dict[str, str] | None = None,
             as_user: bool = False) -> Result:
    """Activate one skill by name, or the skill whose SKILL.md is ``path`` (it wins over same-name skills)."""
    if path is not None:
        mine = [r for r in records if r.path == path]
        if not mine:
            raise ValueError(f"no skill at {path}")
        target = mine[0]
        # The previewed file is what the author looks at: it wins its name.
        records = [target] + [r for r in records if r.name != target.name]
        name = target.name
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    return session(records, settings, dialect).activate(params, user_initiated=as_user)


def catalog(records: list[SkillRecord], dialect: str, *, update: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """The catalog text a dialect shows the model, and per-entry sizes and budget warnings."""
    d = get_dialect(dialect)
    eligible = [r for r in records if r.error is None]
    # One entry per name, lower root index first (as a harness builds it).
    by_name: dict[str, SkillRecord] = {}
    for r in sorted(eligible, key=lambda r: (r.root_index, r.path)):
        by_name.setdefault(r.name, r)
    chosen = list(by_name.values())
    text = d.render_catalog(chosen, update=update) if update and d.name == "dsh" else d.render_catalog(chosen)  # type: ignore[call-arg]
    entries = []
    for r in sorted(chosen, key=lambda r: r.name):
        rep = catalog_report(r, d)
        entries.append({
            "name": r.name,
            "path": r.path,
            "included": rep.included,
            "entry": rep.entry,
            "chars": rep.chars,
            "tokens": rep.tokens,
            "warnings": [w.message for w in rep.warnings],
        })
    return text, entries


def result_json(result: Result) -> dict[str, Any]:
    """The structured shape of a result (spec 000 §3), JSON-ready."""
    def plain(value: Any) -> Any:
        if is_dataclass(value) and not isinstance(value, type):
            return {k: plain(v) for k, v in asdict(value).items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        return value

    data = plain(result)
    for noisy in ("previous", "raw_body", "source_text"):
        data.pop(noisy, None)
    return data
