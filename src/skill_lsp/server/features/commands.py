"""executeCommand: preview activation / catalog, status, fix-all; and the code lens that runs them."""

from __future__ import annotations

import asyncio
import os
from typing import Any
from urllib.parse import quote

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidParams

from ... import __version__
from ...engine import discovery
from ...engine.config import DIALECT_NAMES, Settings
from ...engine.discover import discover
from ...engine.workspace import SkillResult, check_file, link_skills
from ..server import SkillLanguageServer, guarded
from ..services.edits import fix_all_edit, text_edit
from ..services.listing import decisions_for
from ..services.publish import skill_count
from ..state import Folder
from ..uris import path_to_uri, uri_to_path

PREVIEW = "skill-lsp.previewActivation"
CATALOG = "skill-lsp.previewCatalog"
STATUS = "skill-lsp.status"
FIX_ALL = "skill-lsp.fixAll"
SCHEME = "skill-lsp-preview"


def _arg(args: Any) -> dict:
    if isinstance(args, list):
        args = args[0] if args else {}
    if hasattr(args, "__dict__") and not isinstance(args, dict):
        args = vars(args)
    return args if isinstance(args, dict) else {}


def _dialect(value: Any, folder: Folder) -> str:
    if value is None:
        return folder.settings.dialect
    if value not in DIALECT_NAMES:
        raise ValueError(f"unknown dialect {value!r}; known: {', '.join(DIALECT_NAMES)}")
    return value


def _folder_results(ls: SkillLanguageServer, folder: Folder, dialect: str) -> list[SkillResult]:
    """Full results (with documents) for every skill a catalog of ``dialect`` lists; open buffers win.

    As `skill-lsp catalog` (``engine.preview.catalog_locations``): what is in the roots, or every
    skill found when the roots hold none.
    """
    from ...engine.preview import catalog_locations  # noqa: PLC0415 - off start-up

    inv = discover(folder.path, folder.settings) if folder.path else None
    locations = (catalog_locations(inv.locations, inv.loose, folder.roots, dialect, folder.path)
                 if inv is not None else [])
    results = []
    for loc in locations:
        od = ls.state.docs.get(path_to_uri(loc.path))
        if od is not None and loc.problem is None:
            analysis = ls.state.analyse(od)
            results.append(SkillResult(loc.path, analysis.doc, analysis.findings, loc))
        else:
            results.append(check_file(loc.path, folder.settings, loc))
    link_skills(results, folder.settings)
    return results


def preview_activation(ls: SkillLanguageServer, args: dict) -> dict:
    from ...engine.preview import (  # noqa: PLC0415
        activate,
        link_targets,
        not_listed,
        parse_arguments,
        record_for,
        records_for,
        result_json,
    )
    from ...engine.render.proof import proof  # noqa: PLC0415 - off start-up

    uri = args.get("uri")
    path = uri_to_path(uri) if isinstance(uri, str) else None
    folder = _folder_of(ls, path)
    dialect = _dialect(args.get("dialect"), folder)
    arguments = parse_arguments(args.get("arguments"))
    as_user = bool(args.get("asUser", False))
    if path is not None:
        # The previewed file wins its name, so no other skill changes the text: check
        # only this one (a code-lens click must not re-read a 10,000-skill workspace).
        target = _target_result(ls, folder, path, uri)  # type: ignore[arg-type]
        in_root = target.location is not None and target.location.root_index >= 0
        record = record_for(target, None if in_root else len(folder.roots))
        reason = not_listed([record], record.path, dialect, as_user=as_user)
        if reason is not None:
            # The harness never sends an activation for it: the preview says why instead.
            verdict = proof(dialect, "activation")
            return {"text": f"(skill-lsp: {reason})\n", "kind": "not_listed", "reason": reason, "dialect": dialect,
                    "verified": verdict.verified, "proof": verdict.proof, "findings": _findings(target, folder.settings),
                    "previewUri": f"{SCHEME}:/activation/{dialect}/{quote(record.name)}.txt?uri={quote(str(uri), safe='')}"}
        result = activate([record], folder.settings, path=record.path, dialect=dialect, arguments=arguments,
                          as_user=as_user)
    elif isinstance(args.get("name"), str):
        results = _folder_results(ls, folder, dialect)
        records = records_for(results, len(folder.roots), link_targets(results, folder.path, folder.settings))
        result = activate(records, folder.settings, name=args["name"], dialect=dialect, arguments=arguments,
                          workspace=folder.path or None,
                          as_user=as_user)
    else:
        raise ValueError("previewActivation needs {uri} or {name}")
    verdict = proof(dialect, "activation")
    name = getattr(result, "name", None) or args.get("name") or "skill"
    preview_uri = f"{SCHEME}:/activation/{dialect}/{quote(str(name))}.txt"
    if isinstance(uri, str):
        preview_uri += f"?uri={quote(uri, safe='')}"
    findings = _findings(target, folder.settings) if path is not None else []
    return {"text": result.output, "kind": result.kind, "dialect": dialect, "result": result_json(result),
            "verified": verdict.verified, "proof": verdict.proof, "findings": findings, "previewUri": preview_uri}


def _findings(result: SkillResult, settings: Settings | None = None) -> list[dict]:
    """skill-lsp's own findings on the previewed skill, beside the text (never instead of it)."""
    src = result.doc.src if result.doc is not None else None
    out = []
    # Only this skill was checked: cross-skill codes are left out of the unused-suppression check.
    for f in result.shown(settings, "local") if settings is not None else result.all_findings:
        line, col = src.position(f.start) if src is not None else (0, 0)
        out.append({"code": f.code, "severity": f.severity.label, "message": f.message, "line": line, "character": col})
    return out


def _target_result(ls: SkillLanguageServer, folder: Folder, path: str, uri: str) -> SkillResult:
    """The skill at ``path``: its location in the roots (fence included), its open buffer if any."""
    loc = folder.classify(path) if folder.path else None
    od = ls.state.docs.get(uri)
    if od is not None and (loc is None or loc.problem is None):
        analysis = ls.state.analyse(od)
        return SkillResult(loc.path if loc is not None else path, analysis.doc, analysis.findings, loc)
    if loc is not None:
        return check_file(loc.path, folder.settings, loc)
    # Never read a file that is neither open nor a SKILL.md inside a workspace folder
    # (a .env, /etc/passwd, a FIFO): check_file itself refuses non-regular files.
    if not _readable_skill(ls, path):
        raise ValueError(f"{uri} is neither open nor a SKILL.md in the workspace")
    return check_file(path, folder.settings)


def _readable_skill(ls: SkillLanguageServer, path: str) -> bool:
    """A never-opened path the preview may read: a SKILL.md whose real path is inside a workspace folder."""
    if os.path.basename(path) not in discovery.SKILL_FILES or not os.path.isfile(path):
        return False
    real = os.path.realpath(path)
    return any(f.path and discovery.is_inside(real, os.path.realpath(f.path)) for f in ls.state.folders)


def _folder_of(ls: SkillLanguageServer, path: str | None) -> Folder:
    """The folder of a path, or the first workspace folder when no path is given."""
    if path is None and ls.state.folders:
        return ls.state.folders[0]
    return ls.state.folder_for(path)


def preview_catalog(ls: SkillLanguageServer, args: dict) -> dict:
    from ...engine.preview import catalog_view, link_targets, records_for  # noqa: PLC0415 - off start-up
    from ...engine.render.proof import proof  # noqa: PLC0415

    uri = args.get("uri")
    path = uri_to_path(uri) if isinstance(uri, str) else None
    folder = _folder_of(ls, path)
    dialect = _dialect(args.get("dialect"), folder)
    results = _folder_results(ls, folder, dialect)
    # As `skill-lsp catalog`: skill folders that are links read through them.
    records = records_for(results, len(folder.roots), link_targets(results, folder.path, folder.settings))
    text, entries, skipped = catalog_view(records, dialect, update=bool(args.get("replacement", False)),
                                          workspace=folder.path or None)
    verdict = proof(dialect, "catalog")
    return {"text": text, "dialect": dialect, "entries": entries, "skipped": skipped, "verified": verdict.verified,
            "proof": verdict.proof, "previewUri": f"{SCHEME}:/catalog/{dialect}.txt"}


def status(ls: SkillLanguageServer) -> dict:
    folders = ls.state.folders or [ls.state.default]
    return {
        "version": __version__,
        "profile": folders[0].settings.profile,
        "targets": list(folders[0].settings.targets),  # empty: inferred per skill from its root
        "skills": skill_count(ls),
        "roots": [r for f in folders for r in f.roots],
        "scanned": all(f.scanned for f in ls.state.folders),
        "installed": ls.installed,  # harness releases on PATH; "differs": not the release proven
    }


async def _show(ls: SkillLanguageServer, preview_uri: str) -> None:
    win = ls.client_capabilities.window
    if win and win.show_document and win.show_document.support:
        await ls.window_show_document_async(t.ShowDocumentParams(uri=preview_uri, take_focus=False))


async def _run_preview(ls: SkillLanguageServer, render: Any, args: tuple) -> dict:
    """Render off the event loop (it reads the skill folders); bad arguments are InvalidParams."""
    a = _arg(args[0] if len(args) == 1 else list(args))
    # A preview asked for right after start-up renders with the client's settings (its
    # default dialect), not the defaults they are about to replace.
    await ls.settings_read()
    try:
        out = await asyncio.get_running_loop().run_in_executor(None, render, ls, a)
    except ValueError as exc:
        raise JsonRpcInvalidParams(message=str(exc)) from None
    if a.get("open"):
        await _show(ls, out["previewUri"])
    return out


def _short(text: str, limit: int = 160) -> str:
    """A code lens is one line: a long reason ends in an ellipsis (hover has it whole)."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def register(server: SkillLanguageServer) -> None:
    @server.command(PREVIEW)
    async def _preview(ls: SkillLanguageServer, *args: Any) -> dict:
        return await _run_preview(ls, preview_activation, args)

    @server.command(CATALOG)
    async def _catalog(ls: SkillLanguageServer, *args: Any) -> dict:
        return await _run_preview(ls, preview_catalog, args)

    @server.command(STATUS)
    def _status(ls: SkillLanguageServer, *args: Any) -> dict:
        return status(ls)

    @server.command(FIX_ALL)
    async def _fix_all(ls: SkillLanguageServer, *args: Any) -> dict:
        a = _arg(args[0] if len(args) == 1 else list(args))
        uri = a.get("uri")
        got = await fix_all_edit(ls, uri) if isinstance(uri, str) else None
        if got is None:
            return {"applied": False}
        # Versioned: a client that changed the document since rejects the edit.
        res = await ls.workspace_apply_edit_async(t.ApplyWorkspaceEditParams(
            label="skill-lsp: fix all", edit=text_edit(ls, ls.state.docs[uri], [got[0]])))
        return {"applied": bool(res and res.applied)}

    @server.feature(t.TEXT_DOCUMENT_CODE_LENS)
    @guarded([])
    async def code_lens(ls: SkillLanguageServer, params: t.CodeLensParams) -> list[t.CodeLens]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        od, analysis = got
        folder = ls.state.folder_for(od.path)
        dialect = folder.settings.dialect
        rng = t.Range(t.Position(0, 0), t.Position(0, 0))
        lenses = [t.CodeLens(range=rng, command=t.Command(
            title="Preview activation", command=PREVIEW, arguments=[{"uri": od.uri, "dialect": dialect}]))]
        if analysis.doc.frontmatter_ok:
            from ...engine.preview import left_out, record_for  # noqa: PLC0415 - off start-up
            from ...engine.render import catalog_report  # noqa: PLC0415

            record = record_for(ls.state.result_for(od, analysis))
            report = catalog_report(record, dialect)
            reason = left_out(record, dialect)
            title = f"≈{report.tokens} catalog tokens ({dialect})"
            if reason is not None:
                title = f"not in the {dialect} catalog: {reason}"
            elif report.warnings:
                title += f" — {report.warnings[0].message}"
            lenses.append(t.CodeLens(range=rng, command=t.Command(
                title=title, command=CATALOG, arguments=[{"uri": od.uri, "dialect": dialect}])))
            # A target harness that does not list the skill as written says so, and why.
            for d in await decisions_for(ls, od, analysis):
                if d.state != "listed":
                    lenses.append(t.CodeLens(range=rng, command=t.Command(
                        title=_short(d.sentence()), command=CATALOG, arguments=[{"uri": od.uri, "dialect": d.dialect}])))
        return lenses
