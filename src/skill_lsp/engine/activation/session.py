"""The skill tool: one session's catalog, dedupe state and activation pipeline.

Check order follows the reference (`skill.ts`): params -> dedupe -> lookup ->
record error -> disabled -> arguments shape -> load -> fence -> trust ->
permission.  Results are structured (:mod:`.results`) and carry ``output``
rendered by the session's dialect.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from .. import fuzzy
from ..datarecord import datarecord, replace
from .fence import is_inside_any_root, is_under_root, matches_any_pattern
from .frontmatter import declares_arguments, is_disabled_for_model, normalized_frontmatter
from .params import validate_params
from .records import SkillRecord
from .resources import ResourceListingError, list_resources
from .results import (
    AlreadyLoadedResult,
    ErrorResult,
    NotFoundResult,
    OkResult,
    Result,
    ToolError,
)
from .substitute import substitute_arguments

fuzzy.load()
from rapidfuzz.distance import Levenshtein  # noqa: E402 - after the guarded import (engine/fuzzy.py)

__all__ = [
    "CatalogEntry",
    "PermissionRequest",
    "SessionConfig",
    "SkillSession",
    "build_catalog",
    "catalog_key",
    "suggest_siblings",
    "FUZZY_SIBLING_LIMIT",
    "FUZZY_SIBLING_THRESHOLD",
]

FUZZY_SIBLING_LIMIT = 3
FUZZY_SIBLING_THRESHOLD = 0.6

TrustMode = Literal["hook_required", "warn", "allow"]
HookDecision = str  # "allow" | "allow_once" | "deny" | "ask"


@datarecord(frozen=True)
class PermissionRequest:
    """What the permission hook receives (spec §5.6)."""

    tool: str
    action: str
    path: str
    always_patterns: tuple[str, ...]
    metadata: dict


@datarecord(frozen=True)
class SessionConfig:
    #: Roots for the workspace fence; ``None`` means the records' own roots.
    workspace_roots: Sequence[str] | None = None
    trusted_roots: Sequence[str] = ()
    untrusted_project_skills: TrustMode = "hook_required"
    permission_hook: Callable[[PermissionRequest], HookDecision] | None = None
    unsafe_allow_skill_without_hook: bool = False
    sensitive_patterns: Sequence[str] = ()
    #: Dialect used for ``Result.output``.
    dialect: str = "skill-tool"
    #: Called with a message when ``untrusted_project_skills == "warn"`` lets a skill through.
    warn: Callable[[str], None] | None = None


@datarecord(frozen=True)
class CatalogEntry:
    name: str
    description: str
    dir: str
    path: str
    root_index: int
    record: SkillRecord
    shadowed: tuple[str, ...] = ()
    error: tuple[str, str] | None = None


def _description(record: SkillRecord) -> str:
    value = record.frontmatter.get("description")
    return value if isinstance(value, str) else ""


# Errors the reference registry keeps as an entry under the folder's name (registry.ts
# discover): activating that name returns the error, the name written in the file is unknown.
_FOLDER_KEYED = ("INVALID_FRONTMATTER", "NAME_MISMATCH")


def catalog_key(record: SkillRecord) -> str:
    """The name the session finds ``record`` by: its folder when its frontmatter is rejected
    (as the reference registry keys it: `name: foo` in `bar/` is activated as "bar")."""
    if record.error is not None and record.error[0] in _FOLDER_KEYED:
        return record.folder
    return record.name


def build_catalog(records: Iterable[SkillRecord]) -> tuple[CatalogEntry, ...]:
    """One entry per name (``catalog_key``), sorted by name.

    Lower ``root_index`` wins; a record with an ``error`` never displaces a
    valid record of the same name (the reference lets a later invalid skill
    overwrite a valid one; that is a bug we do not copy).  Losers' dirs are
    added to the winner's ``shadowed``.
    """
    groups: dict[str, list[SkillRecord]] = {}
    for record in records:
        groups.setdefault(catalog_key(record), []).append(record)
    entries: list[CatalogEntry] = []
    for name, group in groups.items():
        ranked = sorted(
            enumerate(group),
            key=lambda item: (item[1].error is not None, item[1].root_index, item[0]),
        )
        winner = ranked[0][1]
        shadowed = list(winner.shadowed)
        for _, loser in ranked[1:]:
            if loser.dir not in shadowed and loser.dir != winner.dir:
                shadowed.append(loser.dir)
        entries.append(
            CatalogEntry(
                name=name,
                description=_description(winner),
                dir=winner.dir,
                path=winner.path,
                root_index=winner.root_index,
                record=winner,
                shadowed=tuple(shadowed),
                error=winner.error,
            )
        )
    entries.sort(key=lambda e: e.name)
    return tuple(entries)


def suggest_siblings(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """Top 3 names with normalised Levenshtein similarity >= 0.6, best first (ties by name)."""
    scored = []
    for candidate in set(candidates):
        score = Levenshtein.normalized_similarity(name, candidate)
        if score >= FUZZY_SIBLING_THRESHOLD:
            scored.append((-score, candidate))
    scored.sort()
    return tuple(candidate for _, candidate in scored[:FUZZY_SIBLING_LIMIT])


_RECORD_ERROR_DEFAULTS = {
    "SENSITIVE": "Refusing to activate skill in sensitive path: {dir}",
    "OUTSIDE_WORKSPACE": "Skill directory is outside all configured workspace roots: {dir}",
    "IO_ERROR": 'failed to load skill "{name}" from {dir}',
}


def _string_for_named(dialect: str) -> bool:
    from skill_lsp.engine.render import get_dialect  # noqa: PLC0415 - the renderers import this module

    try:
        return get_dialect(dialect).string_for_named_arguments
    except ValueError:
        return False


class SkillSession:
    """Per-session skill tool.  Thread-safe: ``activate`` is serialised by a lock."""

    def __init__(
        self,
        records: Iterable[SkillRecord],
        config: SessionConfig | None = None,
        **overrides: object,
    ) -> None:
        config = config or SessionConfig()
        if overrides:
            config = replace(config, **overrides)  # type: ignore[arg-type]
        if config.untrusted_project_skills not in ("hook_required", "warn", "allow"):
            raise ValueError(
                f"untrusted_project_skills must be hook_required, warn or allow; got {config.untrusted_project_skills!r}"
            )
        self.config = config
        self.records: tuple[SkillRecord, ...] = tuple(records)
        self.catalog: tuple[CatalogEntry, ...] = build_catalog(self.records)
        self._by_name: dict[str, CatalogEntry] = {e.name: e for e in self.catalog}
        self._activated: dict[str, OkResult] = {}
        self._turns: dict[str, int | None] = {}
        self._lock = threading.Lock()

    # -- public state -------------------------------------------------------
    @property
    def activated(self) -> Mapping[str, int | None]:
        """Activated skill names -> the turn they loaded at (``None`` if unknown), in call order."""
        return dict(self._turns)

    def entry(self, name: str) -> CatalogEntry | None:
        return self._by_name.get(name)

    # -- the tool -------------------------------------------------------------
    def activate(
        self, params: object, *, user_initiated: bool = False, turn: int | None = None
    ) -> Result:
        with self._lock:
            result = self._activate(params, user_initiated=user_initiated, turn=turn)
        from skill_lsp.engine.render import render_result

        return replace(result, output=render_result(result, self.config.dialect))

    def _activate(self, params: object, *, user_initiated: bool, turn: int | None) -> Result:
        requested = params.get("name") if isinstance(params, Mapping) else None
        parsed = validate_params(params)
        if isinstance(parsed, ToolError):
            return ErrorResult(parsed, name=requested)
        name, arguments = parsed

        if name in self._activated:
            return AlreadyLoadedResult(
                name=name, at_turn=self._turns.get(name), previous=self._activated[name]
            )

        entry = self._by_name.get(name)
        if entry is None:
            return NotFoundResult(name=name, siblings=suggest_siblings(name, self._by_name))
        record = entry.record
        meta = {"name": name, "dir": record.dir}

        if record.error is not None:
            return ErrorResult(self._record_error(record), name=name)

        if is_disabled_for_model(record.frontmatter) and not user_initiated:
            return ErrorResult(
                ToolError(
                    "DISABLED",
                    f'skill "{name}" has disable-model-invocation: true; only user-initiated activation is allowed',
                    meta,
                ),
                name=name,
            )

        if declares_arguments(record.frontmatter):
            if isinstance(arguments, str) and not _string_for_named(self.config.dialect):
                return ErrorResult(
                    ToolError(
                        "INVALID_PARAM",
                        f'skill "{name}" declares named arguments; pass them as an object, not a string',
                        {"name": name},
                    ),
                    name=name,
                )
        elif arguments is not None and not isinstance(arguments, str):
            return ErrorResult(
                ToolError(
                    "INVALID_PARAM",
                    f"skill \"{name}\" does not declare named arguments; pass 'arguments' as a string or omit it",
                    {"name": name},
                ),
                name=name,
            )

        # Load: the body comes from discovery; list resources (names only).
        io_error = ErrorResult(
            ToolError("IO_ERROR", f'failed to load skill "{name}" from {record.dir}', meta),
            name=name,
        )
        if not os.path.isdir(record.dir):
            return io_error
        try:
            resources = list_resources(record.dir)
        except ResourceListingError:
            return io_error
        source_text = record.text  # never re-read: the record is what was analysed

        # Fence.
        cfg = self.config
        hook = cfg.permission_hook
        sensitive = bool(cfg.sensitive_patterns) and (
            matches_any_pattern(record.dir, cfg.sensitive_patterns)
            or matches_any_pattern(os.path.realpath(record.dir), cfg.sensitive_patterns)
        )
        if sensitive and hook is None:
            return ErrorResult(
                ToolError(
                    "SENSITIVE", f"Refusing to activate skill in sensitive path: {record.dir}", meta
                ),
                name=name,
            )
        roots = cfg.workspace_roots
        if roots is None:
            roots = sorted({r.root for r in self.records})
        outside = not is_inside_any_root(record.dir, roots)
        if outside and hook is None:
            return ErrorResult(
                ToolError(
                    "OUTSIDE_WORKSPACE",
                    f"Skill directory is outside all configured workspace roots: {record.dir}",
                    {**meta, "roots": list(roots)},
                ),
                name=name,
            )

        # Trust gate + permission hook.
        frontmatter = normalized_frontmatter(record.frontmatter)
        trusted = any(
            is_under_root(record.dir, root)
            or is_under_root(os.path.realpath(record.dir), os.path.realpath(root))
            for root in cfg.trusted_roots
        )
        mode = "allow" if trusted else cfg.untrusted_project_skills
        warnings: list[str] = []
        extra = {"sensitive": sensitive, "outside_workspace": outside}
        if mode == "hook_required":
            denied = self._ask(record, frontmatter, "untrusted_project_skill", extra)
            if denied is not None:
                return ErrorResult(ToolError("NOT_TRUSTED", denied, meta), name=name)
        else:
            if mode == "warn":
                message = f'activating untrusted skill "{name}" at {record.dir} (untrusted_project_skills=warn)'
                warnings.append(message)
                if cfg.warn is not None:
                    cfg.warn(message)
            denied = self._ask(record, frontmatter, "normal", extra)
            if denied is not None:
                return ErrorResult(ToolError("PERMISSION_DENIED", denied, meta), name=name)

        body = substitute_arguments(record.body, arguments)
        allowed = frontmatter.get("allowed-tools")
        ok = OkResult(
            name=name,
            dir=record.dir,
            path=record.path,
            body=body,
            frontmatter=frontmatter,
            resources=resources,
            bytes=len(body.encode("utf-8", "surrogatepass")),
            root_index=record.root_index,
            shadowed=entry.shadowed,
            allowed_tools=tuple(allowed) if isinstance(allowed, list) else (),
            arguments=arguments,
            raw_body=record.body,
            source_text=source_text,
            bom=bool(getattr(getattr(record.checked, "doc", None), "bom", False)),
            warnings=tuple(warnings),
        )
        self._activated[name] = ok
        self._turns[name] = turn
        return ok

    # -- helpers --------------------------------------------------------------
    def _record_error(self, record: SkillRecord) -> ToolError:
        assert record.error is not None
        code, message = record.error
        meta = {"name": record.name, "dir": record.dir, "path": record.path}
        if code in ("INVALID_FRONTMATTER", "NAME_MISMATCH"):
            # Reference wording: skill "{directory name}": {reason}
            return ToolError(code, f'skill "{record.folder}": {message}', meta)
        if not message:
            message = _RECORD_ERROR_DEFAULTS.get(code, "skill cannot be activated").format(
                name=record.name, dir=record.dir
            )
        return ToolError(code, message, meta)

    def _ask(self, record: SkillRecord, frontmatter: dict, reason: str, extra: dict) -> str | None:
        """Run the permission hook; ``None`` when allowed, else the denial message."""
        cfg = self.config
        pattern = f"Skill(name:{record.name})"
        hook = cfg.permission_hook
        if hook is None:
            if cfg.unsafe_allow_skill_without_hook:
                # Spec §13.1 item 15: the unsafe escape also lets untrusted
                # project skills through (the reference still refuses them).
                return None
            if reason == "untrusted_project_skill":
                return "untrusted project skill; no permission hook is configured to review it"
            return (
                "skill tool has no permission hook configured; refusing to activate untrusted skills. "
                "Wire a hook or set session.permissions.unsafeAllowSkillWithoutHook for test fixtures."
            )
        request = PermissionRequest(
            tool="skill",
            action="activate",
            path=record.dir,
            always_patterns=(pattern,),
            metadata={
                "name": record.name,
                "root_index": record.root_index,
                "frontmatter": frontmatter,
                "allowed_tools": frontmatter.get("allowed-tools"),
                "reason": reason,
                **extra,
            },
        )
        try:
            decision = hook(request)
        except Exception as exc:  # a crashing hook must fail closed
            return f"permission hook failed ({type(exc).__name__}); skill activation refused. Pattern hint: {pattern}"
        if decision in ("allow", "allow_once"):
            return None
        if decision == "deny":
            return f"skill activation blocked by permission policy. Pattern hint: {pattern}"
        return (
            "permission hook returned 'ask' but skill runs in autonomous mode. "
            "Configure the hook to return allow or deny."
        )

