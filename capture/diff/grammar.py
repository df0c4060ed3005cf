"""A seeded grammar of what skills contain, turned into workspaces.

Every choice is drawn from ``random.Random(f"{seed}/{harness}/{batch}")``: the same seed
gives the same workspaces on any machine. A batch is one workspace for one harness:
many skills (most in the harness's own project root, some in its other roots, in the
user's home, nested, linked or duplicated) and the activations to ask for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from skill_lsp.capture.expect import listing_roots

# Characters that sit at cuts and in names: 2-, 3- and 4-byte UTF-8 (the last a surrogate pair
# in UTF-16), invisible and separator characters.
WIDE = ["\u00e9", "\u00fc", "\u2014", "\u65e5", "\U0001f600", "\U0001d11e"]
INVISIBLE = ["\u200b", "\ufeff", "\u00a0", "\u2028", "\u2029", "\u0085", "\u200d", "\t"]
WORDS = ["draft", "review", "release", "notes", "deploy", "lint", "format", "test", "plan", "search", "data",
         "report", "chart", "docs", "build", "check", "merge", "clean", "audit", "sync"]
RESERVED = ["claude", "anthropic", "skill", "help", "init", "loop", "run", "review", "null", "true"]
# Limits the harnesses cut or refuse at (characters): Codex 1,024 / 1,021, Claude Code 1,536,
# Copilot 1,024, Codex names 64, Claude Code's first line 100.
LIMITS = [64, 100, 500, 1021, 1024, 1025, 1535, 1536, 1537]


@dataclass
class Skill:
    """One skill folder of a generated workspace."""

    where: str  # "ws" or "home"
    root: str  # the root, relative to ``where`` (".claude/skills")
    folder: str  # below the root; may be nested ("group/name")
    files: dict[str, bytes] = field(default_factory=dict)  # relative to the folder
    link: str | None = None  # the folder is a symlink: "inside" (to ws/linked/...) or "outside"
    call: str | None = None  # the name to activate it by (None: not activated)
    arguments: str = ""
    tags: tuple[str, ...] = ()  # which grammar choices made it (for the report)

    @property
    def rel(self) -> str:
        return f"{self.root}/{self.folder}"


@dataclass
class Batch:
    harness: str
    seed: int
    index: int
    skills: list[Skill]

    @property
    def name(self) -> str:
        return f"{self.harness}-{self.seed}-{self.index}"

    def calls(self) -> list[tuple[str, str]]:
        seen: set[str] = set()
        out = []
        for s in self.skills:
            if s.call is not None and s.call not in seen:
                seen.add(s.call)
                out.append((s.call, s.arguments))
        return out


# -- pieces ------------------------------------------------------------------------

def _word_name(r: random.Random) -> str:
    return "-".join(r.sample(WORDS, r.randint(1, 3)))


def _text(r: random.Random, n: int) -> str:
    """Prose of about ``n`` characters, a wide or invisible character now and then."""
    out: list[str] = []
    size = 0
    while size < n:
        w = r.choice(WORDS)
        roll = r.random()
        if roll < 0.04:
            w += r.choice(WIDE)
        elif roll < 0.06:
            w = r.choice(INVISIBLE) + w
        elif roll < 0.08:
            w = r.choice(["<tag>", "a&b", "x > y", "\"q\"", "'s", "`code`", "50%", "#x", "a: b", "[l]", "{m}"])
        out.append(w)
        size += len(w) + 1
    return " ".join(out)[:n].rstrip() or "x"


def _around_limit(r: random.Random) -> str:
    """A description whose length sits at a harness's limit, a multi-byte character on the cut."""
    limit = r.choice(LIMITS)
    n = limit + r.choice([-2, -1, 0, 0, 1, 2])
    text = _text(r, n + 10)[: max(1, n - 1)]
    if r.random() < 0.6:
        at = max(0, min(len(text) - 1, limit - r.choice([3, 2, 1, 0])))
        text = text[:at] + r.choice(WIDE) + text[at + 1:]
    return text.replace("\n", " ")


def _yaml_scalar(r: random.Random, text: str, key: str) -> tuple[str, list[str]]:
    """``key: <text>`` in one YAML scalar style: (the lines, the tags)."""
    one_line = text.replace("\n", " ")
    style = r.choice(["plain", "plain", "single", "double", "literal", "literal-strip", "literal-keep",
                      "folded", "folded-strip", "folded-keep", "multi-plain", "double-escapes"])
    if style == "plain" and (one_line[:1] in "!&*[]{}|>'\"%@`#,?:-" or ": " in one_line or " #" in one_line
                             or one_line != one_line.strip()):
        style = "double"
    if style == "plain":
        return [f"{key}: {one_line}"], ["plain"]
    if style == "single":
        return [f"{key}: '" + one_line.replace("'", "''") + "'"], ["single-quoted"]
    if style in ("double", "double-escapes"):
        body = one_line.replace("\\", "\\\\").replace('"', '\\"')
        if style == "double-escapes":
            body = body.replace(" ", r.choice([" ", "\\t", "\\n", " ", "\\u00e9 ", "\\x41 "]), 2)
        return [f'{key}: "{body}"'], [style]
    words = one_line.split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        if len(cur) + len(w) > 60 and cur:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    if r.random() < 0.3 and len(lines) > 1:
        lines.insert(r.randint(1, len(lines) - 1), "")  # a blank line inside the block
    if style == "multi-plain":
        if any(ln[:1] in "!&*[]{}|>'\"%@`#,?:-" or ": " in ln or " #" in ln for ln in lines):
            style = "literal"
        else:
            return [f"{key}: {lines[0]}", *("  " + ln if ln else "" for ln in lines[1:])], ["multi-line-plain"]
    indicator = {"literal": "|", "literal-strip": "|-", "literal-keep": "|+", "folded": ">", "folded-strip": ">-",
                 "folded-keep": ">+"}[style]
    out = [f"{key}: {indicator}", *("  " + ln if ln else "" for ln in lines)]
    if indicator.endswith("+") and r.random() < 0.7:
        out += [""] * r.randint(1, 2)  # trailing blank lines the keep indicator keeps
    return out, [f"block{indicator}"]


def _name_value(r: random.Random, folder: str) -> tuple[list[str], str | None, list[str]]:
    """The `name:` lines, the name a harness likely lists (None: unknown), tags."""
    roll = r.random()
    if roll < 0.55:
        return [f"name: {folder}"], folder, ["name=folder"]
    if roll < 0.62:
        return [], None, ["name-missing"]
    if roll < 0.67:
        other = _word_name(r)
        return [f"name: {other}"], other, ["name-mismatch"]
    if roll < 0.71:
        up = folder.upper() if r.random() < 0.5 else folder.title()
        return [f"name: {up}"], up, ["name-case"]
    if roll < 0.75:
        n = folder.replace("-", " ")
        return [f"name: {n}"], n, ["name-spaces"]
    if roll < 0.79:
        n = folder + "-" + r.choice(WIDE)
        return [f"name: {n}"], n, ["name-unicode"]
    if roll < 0.82:
        n = (folder + "-" + "x" * 70)[: r.choice([64, 65, 80])]
        return [f"name: {n}"], n, ["name-long"]
    if roll < 0.85:
        n = r.choice(RESERVED)
        return [f"name: {n}"], n, ["name-reserved"]
    if roll < 0.88:
        return ["name: " + r.choice(['""', "''", "", "~", "null"])], None, ["name-empty"]
    if roll < 0.91:
        n = r.choice(["a:b", "a/b", "a<b>", "a*b", "a?b", 'a"b', "a|b", "a\\\\b"])
        return [f'name: "{n}"'], None, ["name-special"]
    if roll < 0.94:
        return [f"name: {r.choice(['123', '1.5', 'true', '[a, b]', '{a: 1}'])}"], None, ["name-non-string"]
    if roll < 0.97:
        return [f"name: '{folder}'"], folder, ["name-quoted"]
    return [f"name:   {folder}   "], folder, ["name-padded"]


def _description(r: random.Random) -> tuple[list[str], list[str]]:
    roll = r.random()
    if roll < 0.06:
        return [], ["description-missing"]
    if roll < 0.10:
        return ["description: " + r.choice(['""', "''", "", "~"])], ["description-empty"]
    if roll < 0.16:
        value = r.choice(["42", "3.14", "true", "yes", "[a, b]", "{k: v}", "2024-01-01", "0x1F", ".inf"])
        return [f"description: {value}"], ["description-non-string"]
    if roll < 0.30:
        text = _around_limit(r)
        lines, tags = _yaml_scalar(r, text, "description")
        return lines, ["description-limit", *tags]
    if roll < 0.36:
        text = r.choice(INVISIBLE) + _text(r, r.randint(20, 80)) + r.choice(INVISIBLE + [" ", "  "])
        lines, tags = _yaml_scalar(r, text, "description")
        return lines, ["description-invisible", *tags]
    text = _text(r, r.randint(15, 160))
    if r.random() < 0.35:
        text = text + "\n" + _text(r, r.randint(10, 80))
    lines, tags = _yaml_scalar(r, text, "description")
    return lines, tags


def _extra_fields(r: random.Random) -> tuple[list[str], list[str]]:
    out: list[str] = []
    tags: list[str] = []
    if r.random() < 0.12:
        out.append(f"when_to_use: {r.choice(['Use when asked.', '[a, b]', '42', 'true'])}")
        tags.append("when_to_use")
    if r.random() < 0.08:
        flag = r.choice(["true", "false", '"yes"', "yes", "on", "1", '"true"', "True", "TRUE", "no"])
        out.append(f"disable-model-invocation: {flag}")
        tags.append(f"disable-model-invocation={flag}")
    if r.random() < 0.05:
        out.append(f"user-invocable: {r.choice(['false', 'true', 'no'])}")
        tags.append("user-invocable")
    if r.random() < 0.08:
        out.append(r.choice(["metadata:\n  author: x\n  version: '1.0'", "license: MIT", "compatibility: any",
                             "allowed-tools: Read Grep", "argument-hint: '[file]'", "version: 1.2.3",
                             "x-custom: value", "tags: [a, b]"]))
        tags.append("extra-field")
    return out, tags


def _invalid_yaml(r: random.Random, folder: str) -> tuple[list[str], list[str]]:
    kind = r.choice(["tab-indent", "duplicate-key", "unbalanced-quote", "bad-indent", "colon-in-plain",
                     "unclosed-flow", "not-mapping-list", "not-mapping-scalar", "anchor-alias", "bare-colon"])
    d = f"Does {r.choice(WORDS)} work."
    lines = {
        "tab-indent": [f"name: {folder}", f"description: {d}", "metadata:", "\tauthor: x"],
        "duplicate-key": [f"name: {folder}", f"description: {d}", f"description: second {d}"],
        "unbalanced-quote": [f"name: {folder}", f'description: "{d}'],
        "bad-indent": [f"name: {folder}", f"description: {d}", "  extra: y", " more: z"],
        "colon-in-plain": [f"name: {folder}", f"description: Use it: {d}"],
        "unclosed-flow": [f"name: {folder}", f"description: {d}", "tags: [a, b"],
        "not-mapping-list": [f"- name: {folder}", f"- description: {d}"],
        "not-mapping-scalar": [f"{folder} {d}"],
        "anchor-alias": [f"name: &n {folder}", "description: *n"],
        "bare-colon": [f"name: {folder}", f"description: {d}", ": orphan"],
    }[kind]
    return lines, [f"invalid-yaml:{kind}"]


def _body(r: random.Random) -> tuple[str, list[str]]:
    tags: list[str] = []
    parts: list[str] = []
    if r.random() < 0.2:
        parts.append("\n" * r.randint(1, 2))
        tags.append("body-leading-blank")
    if r.random() < 0.6:
        parts.append(f"# {_text(r, r.randint(5, 30)).title()}\n\n")
    roll = r.random()
    if roll < 0.05:
        return "", ["body-empty"]
    placeholders = ["$ARGUMENTS", "$ARGUMENTS[0]", "$ARGUMENTS[1]", "$ARGUMENTS[5]", "$0", "$1", "$2", "$9", "$1x",
                    "\\$ARGUMENTS", "\\$0", "${CLAUDE_SKILL_DIR}", "$HOME", "$PATH", "$$", "$", "$ARGUMENTS[]",
                    "${ARGUMENTS}", "$arguments", "$ARGUMENTSX", "$10", "$ARGUMENTS[10]", "%ARGUMENTS%"]
    lines = []
    for _ in range(r.randint(1, 5)):
        line = _text(r, r.randint(10, 70))
        if r.random() < 0.45:
            ph = r.choice(placeholders)
            tags.append(f"placeholder:{ph}")
            words = line.split(" ")
            words.insert(r.randint(0, len(words)), ph)
            line = " ".join(words)
        lines.append(line)
    if r.random() < 0.15:
        lines.append("```\ncode $ARGUMENTS here\n```")
        tags.append("code-fence")
    if r.random() < 0.1:
        lines.append("- scripts/run.sh\n- [ref](references/guide.md)")
    body = "".join(parts) + "\n\n".join(lines)
    ending = r.choice(["\n", "\n", "\n", "", "\n\n", "\n\n\n", "  \n", "\n \n"])
    if ending != "\n":
        tags.append("body-end:" + repr(ending))
    return body + ending, tags


def _arguments(r: random.Random) -> tuple[str, list[str]]:
    roll = r.random()
    if roll < 0.25:
        return "", []
    choices = ["one", "one two", "one two three", '"a b" c', "'a b' c", 'a "b', "a 'b", "$HOME x", "${HOME}",
               "a;b", "a | b", "a && b", "*.md", "a\\ b", "\u00e9 \u00fc", "--flag=x y", "a  b", " lead",
               "trail ", "a\tb", "x=1 y=2", "$1", "$ARGUMENTS", "(a) [b]", "`cmd`", "$(date)", "a\\\"b", "\"\"",
               "''", "a#b", "~/x", "\U0001f600 smile"]
    value = r.choice(choices)
    return value, ["arguments:" + value]


def _files(r: random.Random) -> tuple[dict[str, bytes], list[str]]:
    files: dict[str, bytes] = {}
    tags: list[str] = []
    roll = r.random()
    if roll < 0.5:
        return files, tags
    for name in r.sample(["scripts/run.sh", "references/guide.md", "assets/logo.txt", "notes.md", "a b.txt",
                          "\u00e9t\u00e9.md"], r.randint(1, 3)):
        files[name] = b"x\n"
    if r.random() < 0.2:
        files[".hidden/secret.md"] = b"x\n"
        files[".dotfile"] = b"x\n"
        tags.append("files-hidden")
    if r.random() < 0.15:
        files["node_modules/pkg/index.js"] = b"x\n"
        tags.append("files-node_modules")
    if r.random() < 0.15:
        files["a/b/c/d/e/f/deep.md"] = b"x\n"
        tags.append("files-deep")
    if r.random() < 0.06:
        for i in range(r.choice([199, 200, 201, 260])):
            files[f"many/f{i:03d}.txt"] = b""
        tags.append("files-many")
    if r.random() < 0.08:
        files["empty-dir/.keep"] = b""
        tags.append("files-keep")
    return files, tags


def skill_md(r: random.Random, folder: str) -> tuple[bytes, str | None, list[str]]:
    """The bytes of one SKILL.md, the name a harness likely lists it under, and tags."""
    tags: list[str] = []
    roll = r.random()
    listed: str | None = folder
    if roll < 0.04:
        body, t = _body(r)
        text = body
        tags += ["no-frontmatter", *t]
    else:
        if roll < 0.14:
            fm, t = _invalid_yaml(r, folder)
            tags += t
        else:
            name_lines, listed, t = _name_value(r, folder)
            tags += t
            desc_lines, t2 = _description(r)
            tags += t2
            extra, t3 = _extra_fields(r)
            tags += t3
            fm = name_lines + desc_lines + extra
            if r.random() < 0.5:
                fm = desc_lines + name_lines + extra
        body, t = _body(r)
        tags += t
        close = "---"
        if r.random() < 0.02:
            close = ""  # unclosed frontmatter
            tags.append("frontmatter-unclosed")
        elif r.random() < 0.03:
            close = "--- "
            tags.append("frontmatter-close-space")
        text = "---\n" + "\n".join(fm) + "\n" + (close + "\n" if close else "") + body
    if r.random() < 0.05:
        text = text.replace("\n", "\r\n")
        tags.append("crlf")
    data = text.encode("utf-8")
    if r.random() < 0.04:
        data = b"\xef\xbb\xbf" + data
        tags.append("bom")
    return data, listed, tags


# -- workspaces ----------------------------------------------------------------------

def _roots(harness: str) -> tuple[list[tuple[str, str]], tuple[str, str]]:
    """(every root the harness reads as (where, rel)), and its own project root."""
    out = []
    for group in listing_roots(harness, _WS, _HOME):
        for root in group:
            where = "ws" if root.startswith(str(_WS)) else "home"
            rel = root[len(str(_WS if where == "ws" else _HOME)) + 1:]
            out.append((where, rel))
    own = {"claude-code": ".claude/skills", "codex": ".agents/skills", "opencode": ".opencode/skills",
           "gemini": ".gemini/skills", "copilot": ".github/skills"}[harness]
    return out, ("ws", own)


_WS, _HOME = __import__("pathlib").Path("/ws"), __import__("pathlib").Path("/home-dir")


def batch(seed: int, harness: str, index: int, size: int, *, over_budget: bool = False) -> Batch:
    """Workspace ``index`` of ``seed`` for ``harness``: ``size`` skills (``over_budget``: more and
    longer, past the listing budgets)."""
    r = random.Random(f"{seed}/{harness}/{index}")
    roots, own = _roots(harness)
    skills: list[Skill] = []
    used: set[tuple[str, str, str]] = set()
    for i in range(size):
        folder = f"{_word_name(r)}-{index}x{i}"
        where, root = own
        tags: list[str] = []
        roll = r.random()
        if roll < 0.12:
            where, root = r.choice(roots)
            tags.append(f"root:{where}/{root}")
        if r.random() < 0.04:
            folder = f"{r.choice(WORDS)}/{folder}"
            tags.append("nested")
        if r.random() < 0.02:
            folder = folder.upper() if r.random() < 0.5 else folder + r.choice(WIDE)
            tags.append("folder-odd")
        data, listed, t = skill_md(r, folder.rsplit("/", 1)[-1])
        if over_budget and "description-limit" not in t:
            # long plain descriptions, so the catalog runs past the budget
            data = data.replace(b"description:", b"description: " + _text(r, 900).encode() + b" ", 1)
        tags += t
        name = "SKILL.md"
        roll = r.random()
        if roll < 0.03:
            name = "skill.md"
        elif roll < 0.045:
            name = r.choice(["Skill.md", "SKILL.MD", "skill.MD"])
        if name != "SKILL.md":
            tags.append(f"file:{name}")
        files, t = _files(r)
        tags += t
        files[name] = data
        if name != "SKILL.md" and r.random() < 0.3:
            files["SKILL.md"] = data  # both spellings
            tags.append("file:both")
        link = None
        roll = r.random()
        if roll < 0.04:
            link = "inside"
            tags.append("link-inside")
        elif roll < 0.06:
            link = "outside"
            tags.append("link-outside")
        arguments, t = _arguments(r)
        tags += t
        call = listed if harness != "claude-code" else folder.rsplit("/", 1)[-1]
        if call is None or r.random() < 0.1:
            call = folder.rsplit("/", 1)[-1]
        key = (where, root, folder)
        if key in used:
            continue
        used.add(key)
        skills.append(Skill(where, root, folder, files, link, call, arguments, tuple(tags)))
    # The same name in two roots: copy a few skills into another root the harness reads.
    for s in r.sample(skills, min(len(skills), r.randint(0, 3))):
        where, root = r.choice(roots)
        if (where, root, s.folder) in used or s.link:
            continue
        used.add((where, root, s.folder))
        twin = Skill(where, root, s.folder, dict(s.files), None, None, "", (*s.tags, "same-name-twin"))
        if r.random() < 0.5:
            twin.files = {k: v.replace(b"description:", b"description: twin copy", 1) for k, v in s.files.items()}
        skills.append(twin)
    return Batch(harness, seed, index, skills)
