"""Random incremental edits through the real server: what it publishes for the open document equals
what the engine reports on the text the edits make, in every position encoding.

Hand-written edit tests only find what their author thought of. Here a seeded generator edits a
skill with ranged `didChange` events (line ends of all three kinds, characters of one to four
UTF-8 bytes and two UTF-16 units, frontmatter fences, YAML indicators, links, placeholders), the
client keeps its own copy of the text, and after each batch the server's diagnostics for that
version must equal `check_text` on the client's copy, range for range.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from skill_lsp.engine.config import Settings
from skill_lsp.engine.text import Encoding
from skill_lsp.engine.workspace import check_text

from .conftest import keep_every_publish, record_status, scan_done, wait_for

START = ("---\nname: demo\ndescription: Converts PDF files to text. Use when the user asks about PDFs.\n---\n"
         "# Demo\n\nSee [the guide](references/guide.md) and `scripts/run.sh`.\n\nRun $ARGUMENTS now.\n")
PIECES = ["\n", "\r\n", "\r", " ", "\t", "é", "€", "😀", "𝔘", "\u200b", "---", "---\n", ": ", "name: x", "name: demo",
          "description: d", "'", '"', "#", "- ", "[l](references/guide.md)", "[a](/etc/x)", "`code`", "```\n",
          "$ARGUMENTS", "  ", "demo", "allowed-tools: Read", "<tag>", "\\", "x" * 40]
ENCODINGS = {"utf-16": Encoding.UTF16, "utf-8": Encoding.UTF8, "utf-32": Encoding.UTF32}


def _position(text: str, offset: int, enc: Encoding) -> t.Position:
    """``offset`` (code points, never inside a \\r\\n pair) as an LSP position: lines end at \\n,
    \\r\\n or \\r, characters count in the negotiated units."""
    lines = re.split(r"\r\n|\r|\n", text[:offset])
    prefix = lines[-1]
    units = {Encoding.UTF16: len(prefix.encode("utf-16-le")) // 2, Encoding.UTF8: len(prefix.encode("utf-8")),
             Encoding.UTF32: len(prefix)}[enc]
    return t.Position(line=len(lines) - 1, character=units)


def _edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """A range (never inside a \\r\\n pair) and the text that replaces it."""
    def point() -> int:
        at = rng.randrange(len(text) + 1)
        return at - 1 if 0 < at < len(text) and text[at - 1] == "\r" and text[at] == "\n" else at

    a, b = sorted((point(), point()))
    if rng.random() < 0.6:
        b = min(b, a + rng.randrange(4))  # short ranges mostly: typing, a deleted character
        b = b - 1 if 0 < b < len(text) and text[b - 1] == "\r" and text[b] == "\n" else b
    return a, max(a, b), "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 3)))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]),
                    params=list(ENCODINGS))
async def client(request, lsp_client: LanguageClient, tmp_path_factory):
    ws = tmp_path_factory.mktemp("edits")
    skill = ws / ".claude" / "skills" / "demo"
    (skill / "references").mkdir(parents=True)
    (skill / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (skill / "SKILL.md").write_text(START, encoding="utf-8")
    record_status(lsp_client)
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    lsp_client.encoding = ENCODINGS[request.param]  # type: ignore[attr-defined]
    lsp_client.skill_md = skill / "SKILL.md"  # type: ignore[attr-defined]
    caps = client_capabilities("visual-studio-code")
    caps.general = t.GeneralClientCapabilities(position_encodings=[request.param])
    result = await lsp_client.initialize_session(t.InitializeParams(
        capabilities=caps, workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    assert result.capabilities.position_encoding == request.param
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


def _expected(text: str, path: Path, enc: Encoding) -> list[tuple]:
    doc, findings = check_text(text, str(path), Settings())
    out = []
    for f in findings:
        (sl, sc), (el, ec) = doc.src.position(f.start, enc), doc.src.position(f.end, enc)
        out.append((f.code, sl, sc, el, ec))
    return sorted(out)


def _published(client: LanguageClient, uri: str, version: int) -> tuple[list[tuple]] | None:
    """The diagnostics published for ``version`` (in a tuple: an empty list is an answer too)."""
    for p in reversed(client.published):  # type: ignore[attr-defined]
        if p.uri == uri and p.version == version:
            return (sorted((str(d.code), d.range.start.line, d.range.start.character, d.range.end.line,
                            d.range.end.character) for d in p.diagnostics),)
    return None


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_ranged_edits_publish_what_the_engine_reports(client: LanguageClient, seed: int):
    rng = random.Random(seed)
    enc: Encoding = client.encoding  # type: ignore[attr-defined]
    path: Path = client.skill_md  # type: ignore[attr-defined]
    uri = path.as_uri()
    text, version = START, 1
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=uri, language_id="markdown", version=version, text=text)))
    for _batch in range(6):
        changes = []
        for _ in range(rng.randrange(1, 8)):
            a, b, new = _edit(rng, text)
            changes.append(t.TextDocumentContentChangePartial(
                range=t.Range(start=_position(text, a, enc), end=_position(text, b, enc)), text=new))
            text = text[:a] + new + text[b:]
        version += 1
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=changes))
        (got,) = await wait_for(lambda v=version: _published(client, uri, v), timeout=10)
        assert got == _expected(text, path, enc), (seed, version, text)
    client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))
