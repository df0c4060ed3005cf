"""Code actions: quick-fixes keyed on diagnostic code + range (never message text), and fix-all."""

from __future__ import annotations

from lsprotocol import types as t

from ...engine.findings import Finding
from ...engine.fixes import fixes_for
from ...engine.suppress import insertion
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..services.edits import fix_all_edit, fix_edit, text_edit
from ..services.publish import open_findings

FIX_ALL_KIND = "source.fixAll.skill-lsp"


def _resolves_edits(ls: SkillLanguageServer) -> bool:
    td = ls.client_capabilities.text_document
    ca = td.code_action if td else None
    return bool(ca and ca.resolve_support and "edit" in ca.resolve_support.properties)


def _matching(findings: list[Finding], diag: t.Diagnostic, src, enc) -> Finding | None:
    code = diag.code
    for f in findings:
        if f.code == code and convert.range_(src, f.start, f.end, enc) == diag.range:
            return f
    return None


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(
        code_action_kinds=[t.CodeActionKind.QuickFix, t.CodeActionKind.SourceFixAll, FIX_ALL_KIND],
        resolve_provider=True))
    @guarded([])
    async def code_action(ls: SkillLanguageServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        got = ls.analysis(params.text_document.uri)
        if got is None:
            return []
        od, analysis = got
        src = analysis.doc.src
        enc = ls.encoding
        only = params.context.only
        actions: list[t.CodeAction] = []
        wants_quickfix = not only or any(k.startswith("quickfix") for k in only)
        wants_fix_all = not only or any(FIX_ALL_KIND.startswith(k) for k in only)
        if wants_quickfix:
            # What the client was sent: suppressed findings are not there, unused suppressions are.
            shown = open_findings(ls, od)
            trailing: list[Finding] = [f for f in shown if f.code == "TRAILING_WHITESPACE"]
            suppressions = []
            for diag in params.context.diagnostics:
                # Matched on code and range alone: some clients (Vim's ALE) send diagnostics
                # back without their source. Another server's diagnostic names its own source.
                if diag.source not in (None, "", convert.SOURCE) or not isinstance(diag.code, str):
                    continue
                finding = _matching(shown, diag, src, enc)
                if finding is None:
                    continue  # stale: the document changed since the diagnostic was made
                for fix in fixes_for(analysis.doc, finding):
                    edit = fix_edit(ls, od, src, fix)
                    if edit is None:
                        continue
                    # Only a safe fix is preferred (auto-fix applies it): an unsafe one guesses or
                    # edits code or an example, so the user picks it (engine/fixes.py).
                    actions.append(t.CodeAction(title=fix.title, kind=t.CodeActionKind.QuickFix, diagnostics=[diag],
                                                edit=edit, is_preferred=(fix.preferred and fix.safe) or None))
                if finding.code == "TRAILING_WHITESPACE" and len(trailing) > 1:
                    edits = [t.TextEdit(range=convert.range_(src, f.start, f.end, enc), new_text="") for f in trailing]
                    actions.append(t.CodeAction(
                        title=f"Trim trailing whitespace on all {len(trailing)} lines", kind=t.CodeActionKind.QuickFix,
                        diagnostics=[diag], edit=text_edit(ls, od, edits)))
                quiet = insertion(analysis.doc, finding)
                if quiet is not None and quiet.title not in {a.title for a in suppressions}:
                    # Last in the menu: fixing a finding beats silencing it.
                    suppressions.append(t.CodeAction(title=quiet.title, kind=t.CodeActionKind.QuickFix,
                                                     diagnostics=[diag], edit=fix_edit(ls, od, src, quiet)))
            actions += suppressions
        if wants_fix_all and only:
            # Asked for explicitly (e.g. on save): compute the edit now, off the event loop.
            got = await fix_all_edit(ls, od.uri)
            if got is not None:
                actions.append(t.CodeAction(title="Fix all safe skill-lsp problems", kind=FIX_ALL_KIND,
                                            edit=text_edit(ls, od, [got[0]])))
        elif wants_fix_all and params.context.diagnostics and _resolves_edits(ls) and analysis.findings:
            # The light bulb asks on every cursor move: offer fix-all, compute it on resolve.
            actions.append(t.CodeAction(title="Fix all safe skill-lsp problems", kind=FIX_ALL_KIND,
                                        data={"fixAll": od.uri, "version": od.version}))
        return actions

    @server.feature(t.CODE_ACTION_RESOLVE)
    @guarded(None)
    async def resolve(ls: SkillLanguageServer, action: t.CodeAction) -> t.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("fixAll")
        od = ls.state.docs.get(uri) if isinstance(uri, str) else None
        if od is not None and od.version == data.get("version"):
            got = await fix_all_edit(ls, uri)  # type: ignore[arg-type]
            if got is not None:
                action.edit = text_edit(ls, od, [got[0]])
        return action
