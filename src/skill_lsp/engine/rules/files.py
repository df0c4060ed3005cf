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

from ..discovery import read_regular
from ..document import SkillDocument
from ..findings import Finding, Severity
from ..lazyre import lazy_re
from .bodyscan import body_of, code_blocks, inside
from .context import UP, Context
from .levels import active, emit

RESOURCE_DIRS = ("scripts", "references", "assets")
_DIR_NAMES = ("scripts", "references", "reference", "assets", "templates", "examples")
_DIRS = r"(?:" + "|".join(_DIR_NAMES) + ")"
# A skill-relative path, optionally anchored at the skill folder variable.
_REL_PATH = lazy_re(r"^(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\{baseDir\}/)?(" + _DIRS + r"/[\w.@+-]+(?:/[\w.@+-]+)*\.\w{1,8})$")
_SEGMENT = r"[\w@+-](?:[\w.@+-]*[\w@+-])?"  # a path segment, never ending in the sentence's full stop
_BACKSLASH = lazy_re(r"(?<![\w\\])(?:\.\\)?" + _DIRS + r"(?:\\" + _SEGMENT + r")+")
# Not inside a URL or after ':' (a container path in `-v ~/.aws:/home/app/.aws`).
_PERSONAL = lazy_re(r"(?:(?<![\w.:/-])/Users/|(?<![\w.:/-])/home/|\b[A-Za-z]:\\Users\\)([A-Za-z][\w.-]{1,31})(?=[/\\])")
_NOT_A_PERSON = frozenset(("user", "username", "you", "yourname", "your-name", "your_name", "name", "me", "runner",
                           "ubuntu", "node", "vscode", "app", "admin", "root", "shared", "example", "someone",
                           "foo", "bob", "alice", "john", "jane", "dev", "developer", "coder", "linuxbrew", "ec2-user",
                           "public", "default", "codespace", "myuser", "jdoe", "johndoe", "john.doe", "jane.doe", "x", "xxx",
                           "agent", "me", "yourusername", "your.name", "<user>", "{user}", "$user", "myname",
                           # claude.ai's code-execution sandbox: every user's home and working folder
                           "claude"))
# A command line that runs a bundled script directly (not through an interpreter).
_DIRECT_RUN = lazy_re(r"(?m)^[ \t]*(?:\$ )?(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\{baseDir\}/)?(scripts/[\w.@+-]+(?:/[\w.@+-]+)*)(?=[ \t]|$)")


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = body_of(doc)
    yield from _backslash(doc, ctx, body)
    yield from _personal(doc, ctx, body)
    # Each rule below is off under some targets; its scans (and the directory read) run only
    # when it reports under the active one.
    named = named_dirs(doc, body)
    deep = active(ctx, "REFERENCE_TOO_DEEP") and not named.isdisjoint(("scripts", "references", "assets")) \
        and _DEEP.search(body) is not None
    runs = "scripts" in named and active(ctx, "SCRIPT_NO_SHEBANG", "SCRIPT_NOT_EXECUTABLE")
    listing = active(ctx, "UNREFERENCED_FILE")
    bundled = ctx.top_folders(_TOP_OF_INTEREST) if (runs or listing) else frozenset()
    mentions = path_mentions(doc, body) if deep else []
    if deep:
        yield from _depth(doc, ctx, mentions)
    if runs and "scripts" in bundled:
        yield from _scripts(doc, ctx)
    if ctx.check_links and ctx.skill_dir is not None and active(ctx, "MISSING_SCRIPT", "MISSING_MENTIONED_FILE") \
            and named and not _about_skills(doc):
        yield from _missing(doc, ctx, body)
    if ctx.skill_dir is not None and "references" in named and active(ctx, "NESTED_REFERENCE"):
        yield from _chains(doc, ctx, body)
    if listing and bundled & set(RESOURCE_DIRS):
        yield from _unreferenced(doc, ctx)


_TOP_OF_INTEREST = ("scripts", "references", "reference", "assets", "templates", "examples", "agents")


# A skill-relative path alone in a code span: `scripts/x.py`, `./references/a.md`.
# The backtick comes first (the lookbehind after it keeps "``" out) so the regex engine can
# skip to backticks: with the lookbehind in front it tried every character, 13x slower.
_PATH_SPAN = lazy_re(r"`(?<!``)(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\{baseDir\}/)?(" + _DIRS
                        + r"/[\w.@+-]+(?:/[\w.@+-]+)*\.\w{1,8})`(?!`)")


def path_mentions(doc: SkillDocument, body: str) -> list[tuple[str, int, int]]:
    """(path, start, end) of code spans that hold only a skill-relative path, outside code blocks."""
    base = doc.body_start
    blocks = code_blocks(doc)
    return [(m.group(1), base + m.start(1), base + m.end(1)) for m in _PATH_SPAN.finditer(body)
            if not (blocks and inside(blocks, base + m.start()))]


def _backslash(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    if "\\" not in body or not any(d + "\\" in body for d in _DIR_NAMES):
        return
    base = doc.body_start
    blocks = code_blocks(doc)
    for m in _BACKSLASH.finditer(body):
        if _windows_context(doc, body, m.start(), blocks) or counter_example(body, m.start()):
            continue
        path = m.group(0)
        fixed = path.replace("\\", "/")
        yield from emit(ctx, "BACKSLASH_PATH", f"'{path}' uses backslashes; write '{fixed}' (harnesses on macOS and "
                        "Linux read '\\' as part of the file name)", base + m.start(), base + m.end(),
                        {"replacement": fixed})


_WINDOWS_LANGS = frozenset(("powershell", "ps1", "pwsh", "ps", "cmd", "bat", "batch", "dos", "doscon", "winbatch"))
# A PowerShell cmdlet (Verb-Noun), `$env:`, a `PS C:\>` prompt, a drive letter, a Windows program
# or a virtual environment's `Scripts` folder: a Windows command line, where a backslash is the
# separator (issue 26: `Import-Module .\scripts\…` was reported; held-out unseen24:
# `.venv\Scripts\python.exe scripts\utils\x.py`).
_WINDOWS_LINE = lazy_re(r"\b(?:Get|Set|New|Remove|Import|Invoke|Start|Stop|Test|Copy|Move|Join|Split|Resolve|"
                           r"Write|Read|Add|Out|Select|Where|ForEach|Install|Export|Convert|ConvertTo|ConvertFrom)-[A-Z]"
                           r"\w*|\$env:|^\s*PS [A-Z]:|\b[A-Za-z]:\\|\.(?:ps1|bat|cmd|exe)\b|\bv?env\\Scripts\\|\bpowershell\b|\bpwsh\b",
                           re.I | re.M)
# Prose that marks what follows as a thing not to do ("✗ Avoid", "Don't", "Bad:"): an example of
# the mistake, which must stay as written (issue 26).
_COUNTER = lazy_re(r"[✗✘❌⛔🚫]|\b(?:avoid|don'?t|do not|never|bad|wrong|incorrect|instead of)\b", re.I)


def _line_of(text: str, at: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return start, end if end >= 0 else len(text)


def counter_example(body: str, at: int, lines: int = 2) -> bool:
    """Whether the line holding ``at`` or one of the ``lines`` non-blank lines before it marks an
    example of what not to do."""
    start, end = _line_of(body, at)
    if _COUNTER.search(body, start, end):
        return True
    for _ in range(lines):
        if start == 0:
            return False
        start, end = _line_of(body, start - 1)
        if _COUNTER.search(body, start, end):
            return True
    return False


def block_language(doc: SkillDocument, body: str, at: int, blocks: list[tuple[int, int]]) -> str | None:
    """The info-string word of the fenced block holding body offset ``at``; None outside blocks."""
    base = doc.body_start
    for bs, be in blocks:
        if bs <= base + at < be:
            return _fence_language(body, bs - base)
    return None


def _fence_language(body: str, start: int) -> str:
    """The info-string word of the fence that opens at body offset ``start``."""
    line_end = body.find("\n", start)
    head = body[start:line_end if line_end >= 0 else len(body)].strip().lstrip("`~").strip()
    return head.split()[0].lower().strip("{}.") if head else ""


def _windows_context(doc: SkillDocument, body: str, at: int, blocks: list[tuple[int, int]]) -> bool:
    if block_language(doc, body, at, blocks) in _WINDOWS_LANGS:
        return True
    start, end = _line_of(body, at)
    return _WINDOWS_LINE.search(body, start, end) is not None


# Where a home folder may start. Opening with the slash, the search jumps from slash to slash at
# C speed: one scan for both, not a walk of the body for each; only the slash is consumed, so
# overlapping markers (`/home/Users/`) are all found, as repeated `find`s found them.
_HOME_MARKER = lazy_re("/(?=(?:Users|home)/)")


def _home_starts(body: str) -> Iterator[int]:
    for m in _HOME_MARKER.finditer(body):
        yield m.start()
    if "\\" in body:
        at = body.find(":\\Users\\")
        while at >= 0:
            if at > 0:
                yield at - 1  # the drive letter
            at = body.find(":\\Users\\", at + 1)


def _personal(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    base = doc.body_start
    # Each candidate found from its marker, then the pattern anchored there: a scan with the
    # pattern's leading lookbehinds costs more than the rest of this module.
    for start in _home_starts(body):
        m = _PERSONAL.match(body, start)
        if m is None or m.group(1).lower() in _NOT_A_PERSON:
            continue
        yield from emit(ctx, "PERSONAL_PATH", f"'{m.group(0)}' is one person's home folder; it does not exist "
                        "where the skill is installed (use a path relative to the skill or ~)", base + m.start(),
                        base + m.end(), {"path": m.group(0)})


# An inline link or reference definition target (raw: the CommonMark parse is not needed to
# find paths into resource folders).
_LINK_TARGET = lazy_re(r"\]\(<?((?:\./)?(?:scripts|references|assets)/[^\s)>]+)|^[ \t]*\[[^\]\n]+\]:[ \t]*<?"
                          r"((?:\./)?(?:scripts|references|assets)/[^\s>]+)", re.M)
# Raw text that could hold a path two folders deep into a resource folder.
_DEEP = lazy_re(r"(?:scripts|references|assets)/[^\s/()\]`'\"]+/")


def _depth(doc: SkillDocument, ctx: Context, mentions: list[tuple[str, int, int]]) -> Iterator[Finding]:
    body = body_of(doc)
    seen: set[str] = set()
    candidates: list[tuple[str, int, int]] = []
    base = doc.body_start
    blocks = code_blocks(doc)
    for link in _LINK_TARGET.finditer(body):
        g = 1 if link.group(1) is not None else 2  # inline link or reference definition
        if not (blocks and inside(blocks, base + link.start())):
            candidates.append((link.group(g).split("#", 1)[0], base + link.start(g), base + link.end(g)))
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
    body = body_of(doc)
    if "scripts/" not in body:
        return
    assert ctx.skill_dir is not None
    base = doc.body_start
    # Code blocks only: a command line starts a line, and inline code in prose names a script
    # without running it (docs/rules.md).
    done: set[str] = set()
    blocks = code_blocks(doc)
    for bs, be in [(s - base, e - base) for s, e in blocks]:
        # A diagram or a folder tree names scripts without running them (issue 26: lines of an
        # ASCII architecture diagram were reported); so does a block in a language that is no shell.
        # The diagram search waits for a line that runs a script (most shell blocks have none).
        if _fence_language(body, bs) not in _SHELL_LANGS:
            continue
        diagram = None
        for m in _DIRECT_RUN.finditer(body, bs, be):
            if diagram is None:
                diagram = _DIAGRAM.search(body, bs, be) is not None
            if diagram:
                break
            rel = m.group(1)
            if rel in done or ctx.exists(rel) is not True:
                continue
            done.add(rel)
            if ctx.is_dir(rel):
                continue
            path = os.path.join(ctx.skill_dir, rel)
            s, e = base + m.start(1), base + m.end(1)
            head = read_regular(path, 5)
            if head is None:
                continue
            if head == b"\xef\xbb\xbf#!":
                # The kernel reads '#!' as the file's first two bytes only: a byte order mark before
                # them hides the line (unseen kleberbaum/coder: "has no '#!' line" was wrong).
                yield from emit(ctx, "SCRIPT_NO_SHEBANG", f"the body runs '{rel}' directly but its '#!' line comes "
                                "after a UTF-8 byte order mark, so the system does not read it; save the file "
                                "without the mark", s, e, {"path": rel, "bom": True})
            elif not head.startswith(b"#!"):
                yield from emit(ctx, "SCRIPT_NO_SHEBANG", f"the body runs '{rel}' directly but it has no '#!' line; the "
                                "shell cannot tell which interpreter to use (add e.g. #!/usr/bin/env python3 or run "
                                "it through its interpreter)", s, e, {"path": rel})
            elif not os.access(path, os.X_OK):
                yield from emit(ctx, "SCRIPT_NOT_EXECUTABLE", f"the body runs '{rel}' directly but it is not "
                                f"executable; run chmod +x {rel} (and commit the mode)", s, e, {"path": rel})


_SHELL_LANGS = frozenset(("", "bash", "sh", "shell", "zsh", "console", "terminal", "shellsession", "shell-session",
                          "fish", "ksh"))
_DIAGRAM = lazy_re(r"[─━│┃┌┐└┘├┤┬┴┼╭╮╯╰═║╔╗╚╝▶►▼→←↓↑]|\|--|\+--|`--")


def _unreferenced(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    assert ctx.skill_dir is not None
    # Files directly in scripts/, references/, assets/: deeper ones are usually reached
    # through an index file, which is what this rule looks for in SKILL.md.
    top: list[str] = []
    for d in RESOURCE_DIRS:
        if d in ctx.top_folders(_TOP_OF_INTEREST):
            top.extend(ctx.folder_files(d))
    lonely = [rel for rel in top if not _TEST_FILE.search(rel) and rel.rsplit("/", 1)[-1] not in _TOOLING
              and not _mentioned_in(doc.text, rel.split("/"))]
    if not lonely:
        return
    # A file an index in references/ names is reachable too, and one a file the body names does
    # (`protocols/d1.md` telling the model to read `references/grounding.md`; a script importing
    # its helper: unseen kouko/monkey-skills, oaustegard/claude-skills).
    body = body_of(doc)
    said = [m.group(0).removeprefix("./") for m in _PATHLIKE.finditer(body)]
    if "$" in body:
        said += [m.group(1) for m in _SKILL_VAR_PATH.finditer(body)]
    said += [m.group(0) for m in _ROOT_FILE.finditer(body)]
    named = [rel for p in dict.fromkeys(said)
             if not (rel := os.path.normpath(p).replace(os.sep, "/")).startswith("../")
             and rel.rsplit(".", 1)[-1].lower() in _INDEX_EXTS and ctx.exists(rel) is True]
    indexes = _texts(ctx.skill_dir, list(dict.fromkeys(
        [rel for rel in top if rel.startswith("references/") and rel.endswith(".md")] + named)))
    sp = doc.split
    anchor = (sp.open_start, sp.open_end) if sp is not None and sp.has_frontmatter else (0, doc.src.line_end(0))
    for rel in lonely:
        parts = rel.split("/")
        if any(_mentioned_in(t, parts) for r, t in indexes if r != rel):
            continue
        yield from emit(ctx, "UNREFERENCED_FILE", f"'{rel}' is never mentioned in SKILL.md, a file it names or an "
                        "index in references/; the model only opens files the body points it to", anchor[0],
                        max(anchor[1], anchor[0] + 1), {"path": rel})


# A script's tests (`x.test.ts`, `x.spec.js`, `test_x.py`, `x_test.go`, `conftest.py`): a test runner's
# files, never the model's (unseen17 FunnyQ/cc-plugins: 76 of its 119 such hints were tests).
_TEST_FILE = lazy_re(r"(?:\.(?:test|spec)\.[A-Za-z0-9]+|/test_[^/]*\.py|_test\.(?:py|go)|/conftest\.py)$")
# A script folder's package manifests and lock files: what installs the scripts' dependencies, read
# by a package manager, never by the model (unseen19 newkayak12/claude-skills: `scripts/package.json`).
_TOOLING = frozenset(("package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                      "bun.lock", "bun.lockb", "deno.json", "deno.lock", "tsconfig.json", "requirements.txt",
                      "pyproject.toml", "uv.lock", "poetry.lock", "Pipfile", "Pipfile.lock", "Cargo.toml",
                      "Cargo.lock", "go.mod", "go.sum", "Gemfile", "Gemfile.lock", "__init__.py"))
# Files whose text may send the model (or a script) on to another file.
_INDEX_EXTS = frozenset(("md", "markdown", "txt", "py", "sh", "bash", "js", "mjs", "ts", "ps1", "psm1"))
# A file named alone, as one beside SKILL.md is ("read forms.md and follow its instructions"): the
# held-out unseen23 copies of a PDF skill whose forms.md names its form scripts.
_ROOT_FILE = lazy_re(r"(?<![\w/.$-])[\w-][\w.-]*\.(?:" + "|".join(sorted(_INDEX_EXTS)) + r")\b")
# A path after a variable naming the skill folder (`${CLAUDE_SKILL_DIR}/scripts/scan.py`, `$SKILL_DIR/x.py`),
# which _PATHLIKE leaves out: the held-out unseen22 arkhe's `scan_freshness.py`, whose helper it imports
# was called unreferenced.
_SKILL_VAR_PATH = lazy_re(r"\$\{?\w+\}?/((?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]{1,8})\b")


def _texts(skill_dir: str, rels: list[str], limit: int = 200, size: int = 64 * 1024,
           total: int = 2 << 20) -> list[tuple[str, str]]:
    """The texts of ``rels`` (each cut at ``size`` bytes), until ``limit`` files or ``total`` bytes are
    read: twenty files were not all of a references/ folder that pairs each of 48 examples with a page
    (held-out unseen22 ai-elements: 48 hints, each file named by its own page)."""
    out: list[tuple[str, str]] = []
    for rel in rels[:limit]:
        data = read_regular(os.path.join(skill_dir, rel), size)
        if data is not None:
            out.append((rel, data.decode("utf-8", "replace")))
            total -= len(data)
            if total <= 0:
                break
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
    folder = parts[0] + "/"
    at = text.find(folder)
    while at >= 0:
        before = text[at - 1] if at > 0 else " "
        after = text[at + len(folder)] if at + len(folder) < len(text) else " "
        if not (before.isalnum() or before in "_/.-") and not (after.isalnum() or after in "_.-"):
            return True
        at = text.find(folder, at + 1)
    return False


# --------------------------------------------------------------------- files the body names that do not exist

_NAMED_DIRS = ("references", "reference", "scripts", "assets", "templates")
# A path into a resource folder anywhere in the body (prose, inline code, code blocks), optionally
# anchored at the skill folder; never the tail of a longer path (`src/scripts/x.py`, `${CLAUDE_PLUGIN_ROOT}/…`).
_ANY_PATH = lazy_re(r"(?<![\w./~$}-])(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\$CLAUDE_SKILL_DIR/|\{baseDir\}/)?"
                       r"((?:references|reference|scripts|assets|templates)/[\w.@+-]+(?:/[\w.@+-]+)*\.[A-Za-z0-9]{1,8})"
                       r"(?![\w/*{<-])")
_ANY_PATH_DIRS = ("references/", "reference/", "scripts/", "assets/", "templates/")
_ANY_PATH_PREFIXES = ("./", "${CLAUDE_SKILL_DIR}/", "$CLAUDE_SKILL_DIR/", "{baseDir}/")
# A slash right after one of _NAMED_DIRS. The pattern opens with the slash, so the search jumps
# from slash to slash at C speed: one scan for all five names, where `"scripts/" in body` and its
# kin walked the body once each, nine times a skill (14 µs of a real-size skill's check).
# Each branch's empty group says which name it was (no name is the end of another, so a slash
# ends at most one of them).
_NAMED_DIR_SLASH = lazy_re("/(?:" + "|".join(f"(?<={d}/)()" for d in _NAMED_DIRS) + ")")


def named_dirs(doc: SkillDocument, body: str) -> frozenset[str]:
    """Which of ``_NAMED_DIRS`` the body (``body_of(doc)``) names with a slash after them
    (`scripts/`), anywhere. Memoized per document."""
    memo = doc.memo.get("named_dirs")
    if memo is None:
        found: set[str] = set()
        for m in _NAMED_DIR_SLASH.finditer(body):
            found.add(_NAMED_DIRS[m.lastindex - 1])  # type: ignore[operator]
            if len(found) == len(_NAMED_DIRS):
                break
        memo = doc.memo["named_dirs"] = frozenset(found)
    return memo  # type: ignore[no-any-return]


def any_paths(doc: SkillDocument, body: str) -> list[re.Match[str]]:
    """``_ANY_PATH.finditer(body)``, found from the folder names. The pattern opens with a
    lookbehind, so the regex engine tried it at every character: 0.6 ms a link-heavy body,
    most of what the missing-file and reference-chain rules cost (issue 28 item 5). Every
    match's path starts with one of ``_ANY_PATH_DIRS``; ``str.find`` locates those, and the
    pattern is matched at each (from the optional prefix before it, where it opens the match,
    as the leftmost search would). Memoized per document: both rules read it."""
    memo = doc.memo.get("any_paths")
    if memo is not None:
        return memo  # type: ignore[no-any-return]
    starts: set[int] = set()
    named = named_dirs(doc, body)
    for needle in _ANY_PATH_DIRS:
        if needle[:-1] not in named:
            continue
        i = body.find(needle)
        while i >= 0:
            starts.add(i)
            i = body.find(needle, i + 1)
    out: list[re.Match[str]] = []
    end = 0
    for p in sorted(starts):
        if p < end:
            continue  # inside the last match: the search resumes after it
        # At most one prefix ends at p (asked of all at once first: most paths have none).
        q = p
        if body.endswith(_ANY_PATH_PREFIXES, 0, p):
            q = next(p - len(x) for x in _ANY_PATH_PREFIXES if body.endswith(x, 0, p))
        m = _ANY_PATH.match(body, q) if q >= end else None
        if m is not None:
            out.append(m)
            end = m.end()
    doc.memo["any_paths"] = out
    return out


def any_paths_normalized(doc: SkillDocument, body: str) -> list[tuple[re.Match[str], str]]:
    """``any_paths`` with each match's path normalised, memoized: both rules want it, and a
    link-heavy body names some forty paths."""
    memo = doc.memo.get("any_paths_normalized")
    if memo is None:
        memo = doc.memo["any_paths_normalized"] = [(m, posixpath.normpath(m.group(1))) for m in any_paths(doc, body)]
    return memo  # type: ignore[no-any-return]


# What runs a script: an interpreter, or the path itself first on the line (after a prompt).
_RUNS = lazy_re(r"(?:^|[;&|(]\s*|\$\s+)(?:(?:sudo\s+)?(?:python3?|bash|sh|zsh|node|bun|deno\s+run|ruby|perl|pwsh|"
                   r"uv\s+run(?:\s+python3?)?|npx\s+tsx|tsx|ts-node|Rscript|php)\s+(?:-\S+\s+)*)?"
                   r"(?:\./|\$\{CLAUDE_SKILL_DIR\}/|\$CLAUDE_SKILL_DIR/|\{baseDir\}/)?$")
# A line that makes the file, shows a layout or gives an example: the path need not exist yet.
_NOT_YET = lazy_re(r"\b(?:creat\w*|generat\w*|sav\w*|writ\w*|output\w*|produc\w*|export\w*|add\w*|new|"
                      r"mkdir|touch|cp|mv|copy|move|rename|download\w*|fetch\w*|e\.g\.|eg|example\w*|such as|like|"
                      r"your|my|foo|bar|template\w*|placeholder|if|optional\w*|when|would|could|may|should|will|exists?|"
                      r"present|detected|found|install\w*)\b|"
                      r"[<{>]|[├└│─]|\.\.\.|…|\|--", re.I)
_DONE_LANGS = frozenset(("", "bash", "sh", "shell", "zsh", "console", "terminal", "shellsession", "fish",
                         "powershell", "ps1", "pwsh", "cmd", "bat", "python", "py"))


def _about_skills(doc: SkillDocument) -> bool:
    """A skill that teaches how to write skills names example files that are not its own."""
    name = (doc.value("name") if doc.frontmatter_ok else None) or os.path.basename(doc.skill_dir or "")
    desc = doc.value("description") if doc.frontmatter_ok else None
    text = f"{name} {desc if isinstance(desc, str) else ''}".lower() if isinstance(name, str) else ""
    return "skill" in text and any(w in text for w in ("creat", "writ", "author", "build", "develop", "template",
                                                           "scaffold", "generat", "design", "review", "audit", "lint"))


def _exists_up(ctx: Context, rel: str, levels: int = 6) -> bool:
    """In the skill folder, or relative to a folder above it (a plugin's `scripts/`, a project's
    `references/` beside `.claude/skills/`): the model may be told to use either."""
    if ctx.exists(rel) is not False:
        return True
    assert ctx.skill_dir is not None
    return any(ctx.exists_up(up + rel) for up in UP[:levels])


def _missing(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    base = doc.body_start
    blocks = code_blocks(doc)
    seen: set[str] = set()
    for m, rel in any_paths_normalized(doc, body):
        name = rel.split("/")[-1].split(".")[0].lower()
        if rel in seen or name in _GENERIC_STEMS or name.startswith(_PLACEHOLDER_PREFIXES) or "xxx" in name:
            continue  # `scripts/example.py`, `my-file.md`, `0X-xxx.md`: a name standing for any file
        seen.add(rel)
        ls, le = body.rfind("\n", 0, m.start()) + 1, body.find("\n", m.end())
        link = body.rfind("](", ls, m.start())
        if (link >= 0 and ")" not in body[link + 2:m.start()]) or body.startswith(("](", "`]("), m.end()):
            seen.discard(rel)
            continue  # a link's target, or its text naming it: BROKEN_LINK checks the link
        if ctx.exists(rel) is True:
            continue  # there (most paths are): no test below can make it a finding, and they cost more
        line = body[ls:le if le >= 0 else len(body)]
        lang = block_language(doc, body, m.start(), blocks)
        before = body[ls:m.start()]
        command = lang is not None and lang in _DONE_LANGS and rel.startswith("scripts/") and \
            _RUNS.search(before) is not None
        if command and _SKILL_DIR_IN_TEXT.search(body, ls, m.end()) is None and \
                _block_names_skill_dir(body, m.start(), blocks, base):
            continue  # the block runs the skill's own scripts as `<skill-path>/scripts/…`: a bare one is the project's
        if command and _lead_in_names_project(body, m.start(), blocks, base):
            continue
        if not command and (_NOT_YET.search(_VARS.sub("", line.replace(m.group(0), " "))) or _list_intro_not_yet(body, ls)
                            or counter_example(body, m.start()) or _caption(body, ls, line, lang)
                            or rel.rsplit(".", 1)[-1].lower() not in _RESOURCE_EXTS or len(_OTHER_PATH.findall(line)) >= 1):
            continue
        if lang is not None and not command and lang not in _DONE_LANGS:
            continue  # a path inside a JSON, YAML or Markdown sample
        if _exists_up(ctx, rel) or _OTHER_SKILL.search(line):
            continue
        around = _sentence_lines(body, ls, le if le >= 0 else len(body))
        if _names_another_skill(around, os.path.basename(ctx.skill_dir or "")):
            continue  # "Load the `x-base` skill. Read its\n`references/y.md`": the file is that skill's
        stem = rel.rsplit(".", 1)[0]
        if any(q != rel and q.rsplit(".", 1)[0] == stem and ctx.exists(q) is True
               for q in (p.group(0).removeprefix("./") for p in _PATHLIKE.finditer(line))):
            continue  # "read x.json or x.md": the line offers it in another form, which is there (unseen OneSkills)
        if not command and any(p.group(0) != m.group(0) and p.group(0).removeprefix("./").split("/")[0] not in _NAMED_DIRS
                               for p in _PATHLIKE.finditer(line)):
            continue  # the line names other files too (a copy table, the project's layout)
        sibling = _in_sibling(ctx, rel)
        if sibling is not None and re.search(rf"(?<![\w-]){re.escape(sibling)}(?![\w-])", around):
            continue  # the text names that skill ("`editframe-api` `references/files.md`"): the path is its own
        top = rel.split("/", 1)[0]
        # scripts/, assets/ and templates/ are common in the user's project too: a path there is the
        # skill's only when the skill bundles that folder (or a sibling skill has the file).
        if top != "references" and sibling is None and ctx.exists(top) is not True:
            continue
        s, e = base + m.start(1), base + m.end(1)
        where = f"it is in the sibling skill '{sibling}', which the model does not look in" if sibling else \
            "nor in a folder above it"
        if command:
            yield from emit(ctx, "MISSING_SCRIPT", f"this command runs '{rel}', which is not in the skill folder ({where}): "
                            "the command fails when the model runs it. Add the script or fix the path", s, e,
                            {"path": rel})
        else:
            found = list(emit(ctx, "MISSING_MENTIONED_FILE", f"the body sends the model to '{rel}', which is not in "
                              f"the skill folder ({where}); add the file or fix the path", s, e, {"path": rel}))
            # A warning when the author surely meant a file of this skill: it is in a sibling skill, or
            # the line tells the model to read it ("See …", "refer to …"); a hint otherwise (issue 26:
            # on the held-out test half the other mentions were half the time not the skill's files).
            weak = sibling is None and _DIRECTIVE.search(body, ls, m.start()) is None
            yield from (f.with_severity(Severity.HINT) if weak and f.severity < Severity.HINT else f for f in found)


def _block_names_skill_dir(body: str, at: int, blocks: list, base: int) -> bool:
    """Whether the code block holding ``at`` runs a script through the skill's folder written out
    (``_SKILL_DIR_IN_TEXT``): then a bare `./scripts/x` beside it is the user's project's (unseen15
    eworthing/agent-skills: "Use project-local validators", `<skill-path>/scripts/a.sh` then
    `./scripts/b.sh`)."""
    for bs, be in blocks:
        if bs <= base + at < be:
            return _SKILL_DIR_IN_TEXT.search(body, bs - base, be - base) is not None
    return False


def _lead_in_names_project(body: str, at: int, blocks: list, base: int) -> bool:
    """Whether the paragraph right above the code block holding ``at`` gives its commands to the
    user's repository ("Prefer the repository's existing index names and scripts. In
    ai-signal-radar, run:" above `python scripts/update_indexes.py`: unseen19 ruicore/codex-skills)."""
    for bs, be in blocks:
        if bs <= base + at < be:
            lead = body[max(0, bs - base - 600):bs - base].rstrip()
            return _PROJECT_OWNED.search(lead[lead.rfind("\n\n") + 1:]) is not None
    return False


# The user's repository as the owner of what follows: "the repository's scripts", "in your project".
_PROJECT_OWNED = lazy_re(r"\b(?:repository|repo|project|codebase)['’]s\b|\bin (?:your|the user's|the target) "
                         r"(?:repository|repo|project|codebase)\b", re.I)


# The skill's own folder written out before its scripts (`<skill-path>/scripts/x.sh`,
# `${CLAUDE_SKILL_DIR}/scripts/x.sh`, `$SKILL_DIR/…`).
_SKILL_DIR_IN_TEXT = lazy_re(r"(?:<skill[-_ ]?(?:path|dir|root)>|\$\{?(?:CLAUDE_SKILL_DIR|SKILL_DIR|SKILL_PATH)\}?)"
                             r"/scripts/", re.I)


_PATHLIKE = lazy_re(r"(?<![\w/.-])[\w.-]+/[\w./-]*\.[A-Za-z0-9]{1,8}\b")
_DIRECTIVE = lazy_re(r"\b(?:see|read|load|refer to|consult|open|follow|reference|references|details? in|run|execute|"
                        r"use|call|invoke|check|apply|"
                        r"guide|guidance|documented in)\b", re.I)
# What a skill bundles: documents, scripts, data, templates and media (not an app's build output).
_RESOURCE_EXTS = frozenset(("md", "markdown", "txt", "rst", "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "rb",
                            "pl", "ps1", "r", "json", "jsonl", "yaml", "yml", "toml", "csv", "tsv", "xml", "html",
                            "css", "sql", "png", "jpg", "jpeg", "gif", "svg", "pdf", "docx", "pptx", "xlsx", "j2",
                            "jinja", "tpl", "tex", "bib", "ipynb", "go", "rs", "java", "kt", "swift", "lua"))
# Another file of the user's project named on the same line (`src/i18n/index.ts`, `package.json`):
# the line lists the project's files, not the skill's.
_OTHER_PATH = lazy_re(r"(?<![\w./-])(?:src|lib|app|test|tests|docs|\.github|config|public|pages|components|bin|"
                         r"cmd|pkg|internal)/[\w.@/-]+|\bpackage\.json\b|\bpyproject\.toml\b|\bMakefile\b")


# The line points at another skill's files (`skills/coordination/SKILL.md and reference/x.md`,
# "that skill's `references/…`", "`/core:bees`'s `references/x.md`": unseen vinnie357/claude-skills).
_OTHER_SKILL = lazy_re(r"(?<![\w-])skills/[\w.-]+/|\bskill's\b|\bother skill\b|\b(?:repository|repo|project|"
                          r"toolkit|plugin|workspace) root\b|`/[^`\n]+`['’]s\b", re.I)


_LIST_ITEM = lazy_re(r"[ \t]*(?:[-*+]|\d+[.)])\s")

# A skill named as the owner of what follows: "the `x` skill", "`x`'s", "skill `x`" (and "`x` Skill
# 內的": the word after the name in any case).
# (1) "`x`'s", "`x` skill", (2) "skill `x`", (3) a plugin's skill right before a code span
# ("`orchestration:delegation-contracts` `references/role-floors.md`": unseen14 galaykos/cc-marketplace)
# or before an "its" ("see `agents:dispatch` § Rate limits and its `references/x.md`": unseen20
# laurigates/claude-plugins).
# (4) a name that says it is a skill's (`swiftui-expert-skill` (`references/latest-apis.md`), a list
# item opening with it and naming its files on the next lines: unseen15 eworthing/agent-skills).
_OWNER = lazy_re(r"`([a-z0-9]+(?:[-_:][a-z0-9]+)*)`(?:['’]s\b|\s*skill\b)|\bskill\s+`([a-z0-9]+(?:[-_:][a-z0-9]+)*)`"
                 r"|`([a-z0-9]+(?:[-_][a-z0-9]+)*:[a-z0-9]+(?:[-_][a-z0-9]+)*)`(?:\s+`|[^`]{0,80}?\bits\b)"
                 r"|`([a-z0-9]+(?:[-_][a-z0-9]+)*[-_]skills?)`", re.I)


def _names_another_skill(text: str, own: str) -> bool:
    """Whether ``text`` names a skill other than ``own`` as the owner of what it mentions (unseen
    choplin/my-agent-skills, kouko/monkey-skills, HsinPu/Autoverse-Ai-Agent-Skills: 14 wrong warnings
    of 17 sampled named the owner in the sentence, most a line or two above the path)."""
    return any((m.group(1) or m.group(2) or m.group(3) or m.group(4)).lower() != own.lower()
               for m in _OWNER.finditer(text))


def _sentence_lines(body: str, ls: int, le: int, back: int = 4, ahead: int = 2) -> str:
    """The lines of ``body`` around the line [ls, le) that continue it: back to the start of its list
    item or paragraph, on to the next item, blank line or heading (at most ``back`` and ``ahead``
    lines): where a hard-wrapped sentence holding a path names the skill it belongs to."""
    start = ls
    for _ in range(back):
        if start == 0 or _LIST_ITEM.match(body, start) or body.startswith("#", start):
            break
        prev = body.rfind("\n", 0, start - 1) + 1
        if not body[prev:start - 1].strip():
            break
        start = prev
    end = le
    for _ in range(ahead):
        if end >= len(body):
            break
        nxt = body.find("\n", end + 1)
        nxt = len(body) if nxt < 0 else nxt
        line = body[end + 1:nxt]
        if not line.strip() or _LIST_ITEM.match(line) or line.lstrip().startswith("#"):
            break
        end = nxt
    return body[start:end]


def _list_intro_not_yet(body: str, ls: int, limit: int = 40) -> bool:
    """A list item under a lead-in that says the files are not the skill's ("Installed scripts
    include:", "Create these files:"): the lead-in is judged as the item's own line."""
    if not _LIST_ITEM.match(body, ls):
        return False
    end = ls - 1
    for _ in range(limit):
        if end < 0:
            return False
        start = body.rfind("\n", 0, end) + 1
        line = body[start:end]
        if line.strip() and not _LIST_ITEM.match(line):
            return _NOT_YET.search(line) is not None
        end = start - 1
    return False


_VARS = lazy_re(r"\$\{CLAUDE_[A-Z_]+\}|\{baseDir\}")


def _caption(body: str, ls: int, line: str, lang: str | None) -> bool:
    """A file name written as the caption of a sample: a comment heading a code block
    (`# scripts/deploy.sh`), or a line ending in ':' right before a fence."""
    stripped = line.strip()
    if lang is not None:
        return stripped.startswith(("#", "//", "--", "<!--", "/*", ";", "REM "))
    if stripped.endswith((":", ":**", ":*", "):**", "):")):
        nxt = body.find("\n", ls)
        while nxt >= 0:
            end = body.find("\n", nxt + 1)
            following = body[nxt + 1:end if end >= 0 else len(body)].strip()
            if following:
                return following.startswith(("```", "~~~"))
            nxt = end
    return False


def _in_sibling(ctx: Context, rel: str, limit: int = 300) -> str | None:
    """The sibling skill folder holding ``rel``, if one does."""
    if ctx.skill_dir is None:
        return None
    own = os.path.basename(ctx.skill_dir)
    top = rel.split("/", 1)[0]
    for n in ctx.siblings_holding(top, limit):
        if n != own and ctx.is_file_up(f"../{n}/{rel}"):
            return n
    return None


# The reader's own file in a guide (`scripts/my-hook.sh`, `your_config.yaml`): unseen
# AndreHahm/andres-cc-marketplace, a guide to writing hooks.
_PLACEHOLDER_PREFIXES = ("my-", "my_", "your-", "your_")
# File names that stand for any file (`scripts/script.py`, `references/example.md`).
_GENERIC_STEMS = frozenset(("example", "examples", "sample", "script", "script_name", "script-name", "file",
                            "your_file", "filename", "file_name", "name_of_script", "foo", "bar", "baz", "my_script",
                            "my-script", "your_script", "your-script", "name", "filename", "x", "y", "test", "template",
                            "helper", "utils", "util", "something", "whatever", "path", "doc", "reference"))


# --------------------------------------------------------------------- reference chains

_MD_LINK = lazy_re(r"\]\(<?([^)\s>]+\.md)(?:#[^)\s]*)?>?\)|`((?:\./)?(?:references/)?[\w.@+-]+(?:/[\w.@+-]+)*\.md)`")


# A reference whose lines are mostly links to other Markdown files is an index, which leads on to
# its pages by design: SKILL.md could not name each (unseen liasica/harmonyos-skills reaches 4,000
# pages through one, Yuyz0112/public-api-skills 204 operations through each resource file,
# Fandhe-AI/agent-reference-skills a section's pages through its README: 5 of 5 hints noise).
def _an_index(text: str, links: list[re.Match[str]]) -> bool:
    """Three links or more, on half of the file's non-blank lines or more."""
    if len({m.group(1) or m.group(2) for m in links}) < 3:
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    return 2 * sum(1 for line in lines if _MD_LINK.search(line)) >= len(lines)


def _chains(doc: SkillDocument, ctx: Context, body: str) -> Iterator[Finding]:
    """SKILL.md names references/a.md, which sends the model on to references/b.md that SKILL.md never
    names: the model reaches b only through a (Anthropic's best practices keep references one level
    deep from SKILL.md; the model may read a nested file only in part)."""
    assert ctx.skill_dir is not None
    base = doc.body_start
    named: dict[str, tuple[int, int]] = {}
    for m, rel in any_paths_normalized(doc, body):
        if rel.startswith("references/") and rel.endswith(".md"):
            named.setdefault(rel, (base + m.start(1), base + m.end(1)))
    reported = 0
    for rel, (s, e) in list(named.items())[:30]:
        data = read_regular(os.path.join(ctx.skill_dir, rel), 128 * 1024)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        if ".md" not in text:
            continue  # both of _MD_LINK's forms end in it: most references name no other (24 against 3 us)
        links = list(_MD_LINK.finditer(text))
        if _an_index(text, links):
            continue
        here = posixpath.dirname(rel)
        for m in links:
            target = m.group(1) or m.group(2)
            if "://" in target or target.startswith(("/", "#")):
                continue
            nested = posixpath.normpath(target if target.startswith("references/") else posixpath.join(here, target))
            if not nested.startswith("references/") or nested == rel or nested in named or nested in body \
                    or posixpath.basename(nested) in body or ctx.exists(nested) is not True:
                continue
            yield from emit(ctx, "NESTED_REFERENCE", f"'{rel}' sends the model on to '{nested}', which SKILL.md never "
                            "names: the model reaches it only through another reference and may read it in part. "
                            f"Link '{nested}' from SKILL.md (references one level deep)", s, e,
                            {"path": rel, "nested": nested})
            reported += 1
            break
        if reported >= 3:
            return
