"""Files the skill points at: paths in links, inline code and commands.

The agentskills spec keeps scripts/, references/ and assets/ one level below
SKILL.md with relative '/'-separated paths; the model can only open a file the
body names, and a harness runs a script directly only with a shebang and the
execute bit.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator

from ..document import SkillDocument
from ..findings import Finding
from . import Context
from .bodyscan import code_blocks, inline_code
from .by_harness import emit

RESOURCE_DIRS = ("scripts", "references", "assets")
_DIRS = r"(?:scripts|references|reference|assets|templates|examples)"
# A skill-relative path, optionally anchored at the skill folder variable.
_REL_PATH = re.compile(r"^(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\{baseDir\}/)?(" + _DIRS + r"/[\w.@+-]+(?:/[\w.@+-]+)*\.\w{1,8})$")
_SEGMENT = r"[\w@+-](?:[\w.@+-]*[\w@+-])?"  # a path segment, never ending in the sentence's full stop
_BACKSLASH = re.compile(r"(?<![\w\\])(?:\.\\)?" + _DIRS + r"(?:\\" + _SEGMENT + r")+")
# Not inside a URL or after ':' (a container path in `-v ~/.aws:/home/app/.aws`).
_PERSONAL = re.compile(r"(?:(?<![\w.:/-])/Users/|(?<![\w.:/-])/home/|\b[A-Za-z]:\\Users\\)([A-Za-z][\w.-]{1,31})(?=[/\\])")
_NOT_A_PERSON = frozenset(("user", "username", "you", "yourname", "your-name", "your_name", "name", "me", "runner",
                           "ubuntu", "node", "vscode", "app", "admin", "root", "shared", "example", "someone",
                           "foo", "bob", "alice", "john", "jane", "dev", "developer", "coder", "linuxbrew", "ec2-user",
                           "public", "default", "codespace", "myuser", "jdoe", "johndoe", "john.doe", "jane.doe", "x", "xxx",
                           "agent", "me", "yourusername", "your.name", "<user>", "{user}", "$user"))
# A command line that runs a bundled script directly (not through an interpreter).
_DIRECT_RUN = re.compile(r"(?m)^[ \t]*(?:\$ )?(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\{baseDir\}/)?(scripts/[\w.@+-]+(?:/[\w.@+-]+)*)(?=[ \t]|$)")


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = doc.body_text
    yield from _backslash(doc, ctx, body)
    yield from _personal(doc, ctx, body)
    mentions = inline_code(doc)
    yield from _mentioned(doc, ctx, mentions)
    yield from _depth(doc, ctx, mentions)
    if ctx.skill_dir is not None:
        yield from _scripts(doc, ctx)
        yield from _unreferenced(doc, ctx)


def _backslash(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    if "\\" not in body:
        return
    base = doc.body_start
    for m in _BACKSLASH.finditer(body):
        path = m.group(0)
        fixed = path.replace("\\", "/")
        yield from emit(ctx, "BACKSLASH_PATH", f"'{path}' uses backslashes; write '{fixed}' (harnesses on macOS and "
                        "Linux read '\\' as part of the file name)", base + m.start(), base + m.end(),
                        {"replacement": fixed})


def _personal(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    if "/Users/" not in body and "/home/" not in body and ":\\Users\\" not in body:
        return
    base = doc.body_start
    for m in _PERSONAL.finditer(body):
        if m.group(1).lower() in _NOT_A_PERSON:
            continue
        yield from emit(ctx, "PERSONAL_PATH", f"'{m.group(0)}' is one person's home folder; it does not exist where "
                        "the skill is installed (use a path relative to the skill or ~)", base + m.start(),
                        base + m.end(), {"path": m.group(0)})


def _mentioned(doc: SkillDocument, ctx: Context, mentions: list[tuple[str, int, int]]) -> Iterator[Finding]:
    if not ctx.check_links or ctx.skill_dir is None:
        return
    for text, s, e in mentions:
        m = _REL_PATH.match(text)
        if m is None:
            continue
        path = posixpath.normpath(m.group(1))
        # Only when the skill bundles that folder: `scripts/x` of a plugin lives beside the skills.
        if ctx.exists(path.split("/", 1)[0]) is True and ctx.exists(path) is False:
            yield from emit(ctx, "MISSING_MENTIONED_FILE", f"'{path}' is named in the body but does not exist in the "
                            "skill folder", s, e, {"path": path})


def _depth(doc: SkillDocument, ctx: Context, mentions: list[tuple[str, int, int]]) -> Iterator[Finding]:
    seen: set[str] = set()
    candidates: list[tuple[str, int, int]] = []
    if "](" in doc.body_text or "]:" in doc.body_text:
        for link in doc.body.links:
            if link.kind in ("inline", "image", "definition"):
                candidates.append((link.target.split("#", 1)[0], link.target_start, link.target_end))
    for text, s, e in mentions:
        m = _REL_PATH.match(text)
        if m is not None:
            candidates.append((m.group(1), s, e))
    for target, s, e in candidates:
        if "://" in target or target.startswith(("/", "~", "#", "..")):
            continue
        parts = [p for p in posixpath.normpath(target).split("/") if p not in ("", ".")]
        if len(parts) < 3 or parts[0] not in RESOURCE_DIRS or target in seen:
            continue
        seen.add(target)
        yield from emit(ctx, "REFERENCE_TOO_DEEP", f"'{target}' is {len(parts) - 1} folders below SKILL.md; the "
                        "agentskills spec keeps references one level deep so the model finds them", s, e,
                        {"path": target})


def _scripts(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = doc.body_text
    if "scripts/" not in body:
        return
    assert ctx.skill_dir is not None
    base = doc.body_start
    blocks = code_blocks(doc)
    spans = [(s - base, e - base) for s, e in blocks]
    spans += [(s - base, e - base) for t, s, e in inline_code(doc) if t.startswith(("scripts/", "./scripts/", "${"))]
    done: set[str] = set()
    for bs, be in spans:
        for m in _DIRECT_RUN.finditer(body, bs, be):
            rel = m.group(1)
            if rel in done or ctx.exists(rel) is not True:
                continue
            done.add(rel)
            path = os.path.join(ctx.skill_dir, rel)
            if os.path.isdir(path):
                continue
            s, e = base + m.start(1), base + m.end(1)
            try:
                with open(path, "rb") as f:
                    head = f.read(2)
            except OSError:
                continue
            if head != b"#!":
                yield from emit(ctx, "SCRIPT_NO_SHEBANG", f"the body runs '{rel}' directly but it has no '#!' line; the "
                                "shell cannot tell which interpreter to use (add e.g. #!/usr/bin/env python3 or run "
                                "it through its interpreter)", s, e, {"path": rel})
            elif not os.access(path, os.X_OK):
                yield from emit(ctx, "SCRIPT_NOT_EXECUTABLE", f"the body runs '{rel}' directly but it is not "
                                f"executable; run chmod +x {rel} (and commit the mode)", s, e, {"path": rel})


def _unreferenced(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    present = [d for d in RESOURCE_DIRS if ctx.exists(d)]
    if not present:
        return
    assert ctx.skill_dir is not None
    files = ctx.files() or frozenset()
    # Files directly in scripts/, references/, assets/: deeper ones are usually reached
    # through an index file, which is what this rule looks for in SKILL.md.
    top = [rel for rel in sorted(files) if not rel.endswith("/") and rel.count("/") == 1
           and rel.split("/", 1)[0] in present and not rel.rsplit("/", 1)[1].startswith(".")
           and not rel.endswith((".pyc", ".pyo"))]
    lonely = [rel for rel in top if not _mentioned_in(doc.text, rel.split("/"))]
    if not lonely:
        return
    # A file another bundled file names (an index, an importing script) is reachable too.
    others = _texts(ctx.skill_dir, [rel for rel in top if rel not in lonely] + lonely)
    sp = doc.split
    anchor = (sp.open_start, sp.open_end) if sp is not None and sp.has_frontmatter else (0, doc.src.line_end(0))
    for rel in lonely:
        parts = rel.split("/")
        if any(_mentioned_in(t, parts) for r, t in others if r != rel):
            continue
        yield from emit(ctx, "UNREFERENCED_FILE", f"'{rel}' is never mentioned in SKILL.md or a file it bundles; the "
                        "model only opens files the body points it to", anchor[0], max(anchor[1], anchor[0] + 1),
                        {"path": rel})


_TEXT_SUFFIXES = (".md", ".txt", ".py", ".sh", ".js", ".ts", ".mjs", ".json", ".yaml", ".yml", ".toml", ".ps1", ".rb")


def _texts(skill_dir: str, rels: list[str], limit: int = 60, size: int = 64 * 1024) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for rel in rels:
        if len(out) >= limit or not rel.endswith(_TEXT_SUFFIXES):
            continue
        try:
            with open(os.path.join(skill_dir, rel), "rb") as f:
                out.append((rel, f.read(size).decode("utf-8", "replace")))
        except OSError:
            continue
    return out


def _mentioned_in(text: str, parts: list[str]) -> bool:
    """The file, its name without extension, or a folder holding it (below the top level) is named."""
    name = parts[-1]
    if name in text or "/".join(parts) in text:
        return True
    stem = name.rsplit(".", 1)[0]
    if len(stem) >= 4 and stem in text:
        return True
    if any("/".join(parts[:i]) + "/" in text for i in range(2, len(parts))):
        return True
    # "every script lives in `scripts/`": the folder itself, not a path inside it.
    return re.search(r"(?<![\w/.-])" + re.escape(parts[0]) + r"/(?![\w.-])", text) is not None
