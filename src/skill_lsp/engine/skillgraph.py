"""The skill graph of one workspace folder: who is named what, and who mentions whom.

Pure and incremental. ``SkillIndex`` feeds it every result it holds (roots and
nested layouts alike); it answers name lookups for navigation and rename, and
keeps UNKNOWN_SKILL findings (``SkillResult.graph``) up to date when a name
appears or disappears anywhere.

A mention names an unknown skill only when it is a likely typo of a skill this
workspace has (did-you-mean candidates exist): `/help`, `$var` or a skill
installed in the user's home are not in the workspace and say nothing wrong.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from . import fuzzy
from .config import apply_settings
from .discovery import ancestors
from .findings import Finding, make
from .harness.data import CLAUDE_CODE_BUILTINS, CODEX_BUILTINS, COPILOT_BUILTINS, HARNESS_COMMANDS
from .mentions import Mention
from .unicodetext import nfkc

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True

if TYPE_CHECKING:
    from .config import Settings
    from .result import SkillResult

# Kinds that name a skill (link mentions name a folder: BROKEN_LINK covers those).
NAMED = frozenset({"slash", "dollar", "tool"})
MAX_CANDIDATES = 3
# A rebuild's ``pause`` is called once per this many skills (about 2 ms of work on real ones).
PAUSE_EVERY = 64


def _max_distance(name: str) -> int:
    """Edits a typo may carry: none below 4 characters (too many short names are near each other)."""
    n = len(name)
    return 0 if n < 4 else 1 if n < 8 else 2


class Near:
    """Known names within a small edit distance of a name (transpositions count once), nearest
    first, for one pass over an unchanged set of names: cached per name, and the
    names indexed by length once (the distance is at least the length difference, so only
    names of near length can be hits). A checkout that renamed skills left 832 unknown names
    among 10,000 skills; filtering the lengths name by name for each took 0.75 s of the rescan."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = names
        self._by_len: dict[int, list[str]] | None = None
        self._cache: dict[str, list[str]] = {}

    def __call__(self, name: str) -> list[str]:
        hit = self._cache.get(name)
        if hit is None:
            hit = self._cache[name] = self._nearest(name)
        return hit

    def _nearest(self, name: str) -> list[str]:
        cutoff = _max_distance(name)
        if cutoff == 0:
            return []
        if self._by_len is None:
            self._by_len = defaultdict(list)
            for c in self.names:
                self._by_len[len(c)].append(c)
        n = len(name)
        pool: list[str] = []
        for k in range(n - cutoff, n + cutoff + 1):
            pool += self._by_len.get(k, ())
        # Every hit, then the nearest by distance and name: the same three whatever the order.
        fuzzy.load()
        from rapidfuzz import process  # noqa: PLC0415 - only an unknown mention needs it
        from rapidfuzz.distance import OSA  # noqa: PLC0415

        hits = process.extract(name, pool, scorer=OSA.distance, score_cutoff=cutoff, limit=None)
        return [h[0] for h in sorted(hits, key=lambda h: (h[1], h[0]))[:MAX_CANDIDATES]]


BUILT_IN = HARNESS_COMMANDS | {n for n, _ in CLAUDE_CODE_BUILTINS} | {n for n, *_ in CODEX_BUILTINS} | {
    n for n, _ in COPILOT_BUILTINS}
# Where Claude Code (plugin and project), OpenCode, Gemini CLI and Codex keep custom commands,
# relative to a folder at or above the skill.
_COMMAND_DIRS = ("commands", ".claude/commands", ".opencode/command", ".opencode/commands", ".gemini/commands",
                 ".codex/prompts")
_COMMAND_EXTS = (".md", ".toml")


def _command_names(folder: str) -> frozenset[str]:
    """Command names defined in the command folders of ``folder`` (one level of subfolders too)."""
    out: set[str] = set()
    for sub in _COMMAND_DIRS:
        base = os.path.join(folder, sub)
        try:
            entries = list(os.scandir(base))
        except OSError:
            continue
        for e in entries[:2000]:
            stem, ext = os.path.splitext(e.name)
            if ext in _COMMAND_EXTS:
                out.add(stem)
            elif e.is_dir(follow_symlinks=False):
                try:
                    out.update(os.path.splitext(n)[0] for n in os.listdir(e.path)[:2000]
                               if n.endswith(_COMMAND_EXTS))
                except OSError:
                    continue
    return frozenset(out)


def defines_command(skill_dir: str, name: str, levels: int = 6) -> bool:
    """Whether a command folder at or above the skill's folder defines ``name`` (checked only for
    a mention that would otherwise be reported, so the cost is a few directory reads)."""
    return any(name in _command_names(d) for d in ancestors(os.path.dirname(skill_dir), levels))


def defines_name(r: SkillResult) -> bool:
    """Whether a result gives the workspace a name (an unreadable or fenced file does not)."""
    return not (r.location is not None and r.location.problem is not None) and (r.doc is not None or r.src is not None)


def unknown_findings(r: SkillResult, names: Counter[str] | set[str], settings: Settings,
                     near: Near) -> list[Finding]:
    """UNKNOWN_SKILL findings of one result; ``near`` is shared across the results of one pass
    over an unchanged set of names."""
    out = []
    for m in r.mentions:
        if m.kind not in NAMED or not m.strict or m.name in names:
            continue
        if m.kind != "tool" and m.name in BUILT_IN:
            continue  # `/help`, `/compact`, `/security-review`: the harness's own
        found = near(m.name)
        if not found:
            continue
        if m.kind == "slash" and defines_command(os.path.dirname(r.path), m.name):
            continue  # a command of the plugin or project (`commands/forget.md`), not a skill
        shown = " or ".join(f"'{c}'" for c in found)
        out.append(make("UNKNOWN_SKILL", f"no skill named '{m.name}' in this workspace; did you mean {shown}?",
                        m.start, m.end, {"name": m.name, "candidates": found, "kind": m.kind}))
    return apply_settings(out, settings)


def link_mentions(results: list[SkillResult], settings: Settings) -> None:
    """Batch form (`check`): UNKNOWN_SKILL findings for every result."""
    names = Counter(r.name for r in results if defines_name(r))
    near = Near(names)
    for r in results:
        r.graph = unknown_findings(r, names, settings, near) if r.mentions else []


class SkillGraph:
    """Names, definitions and mentions of one folder's skills, updated one result at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.names: Counter[str] = Counter()
        self.defined: dict[str, set[str]] = defaultdict(set)  # name -> SKILL.md paths
        self.name_of: dict[str, str] = {}
        self.mentioners: dict[str, set[str]] = defaultdict(set)  # name -> paths mentioning it
        self.unresolved: set[str] = set()  # paths with a named mention of no known skill
        self.dirs: dict[str, str] = {}  # skill folder -> SKILL.md

    def _forget(self, path: str, r: SkillResult | None) -> None:
        old = self.name_of.pop(path, None)
        if old is not None:
            self.names[old] -= 1
            if self.names[old] <= 0:
                del self.names[old]
            self.defined[old].discard(path)
        self.dirs.pop(os.path.dirname(path), None)
        if r is not None:
            for m in r.mentions:
                self.mentioners[m.name].discard(path)
        self.unresolved.discard(path)

    def _learn(self, r: SkillResult) -> None:
        self.dirs[os.path.dirname(r.path)] = r.path
        for m in r.mentions:
            self.mentioners[m.name].add(r.path)
        if not defines_name(r):
            return
        self.name_of[r.path] = r.name
        self.names[r.name] += 1
        self.defined[r.name].add(r.path)

    def _mark(self, r: SkillResult) -> None:
        if any(m.kind in NAMED and m.strict and m.name not in self.names for m in r.mentions):
            self.unresolved.add(r.path)
        else:
            self.unresolved.discard(r.path)

    def rebuild(self, results: dict[str, SkillResult], pause: Callable[[], None] | None = None) -> None:
        self.__init__(self.settings)  # type: ignore[misc]
        for i, r in enumerate(results.values()):
            if pause is not None and i % PAUSE_EVERY == 0:
                pause()
            self._learn(r)
        near = Near(self.names)
        for i, r in enumerate(results.values()):
            if pause is not None and i % PAUSE_EVERY == 0:
                pause()
            self._mark(r)
            r.graph = unknown_findings(r, self.names, self.settings, near) if r.path in self.unresolved else []

    def update(self, results: dict[str, SkillResult], path: str, old: SkillResult | None,
               new: SkillResult | None) -> set[str]:
        """Replace (or remove, ``new=None``) one result; returns other paths whose findings changed."""
        old_name = self.name_of.get(path)
        new_name = new.name if new is not None and defines_name(new) else None
        was = {n: self.names[n] > 0 for n in (old_name, new_name) if n is not None}
        self._forget(path, old)
        if new is not None:
            self._learn(new)
        # Names that appeared or vanished (a keystroke that keeps the name changes none).
        changed = {n for n, present in was.items() if (self.names[n] > 0) != present}
        affected = {path} if new is not None else set()
        if changed:
            # Mentions of a name that came or went, and every unresolved mention (its candidates moved).
            for name in changed:
                affected |= self.mentioners.get(name, set())
            affected |= self.unresolved
        touched = set()
        near = Near(self.names)
        for p in affected:
            r = results.get(p) if p != path else new
            if r is None:
                continue
            self._mark(r)
            graph = unknown_findings(r, self.names, self.settings, near) if p in self.unresolved else []
            if graph != r.graph:
                r.graph = graph
                touched.add(p)
        return touched - {path}

    # --- queries (navigation, rename) ---

    def definitions(self, name: str) -> list[str]:
        return sorted(self.defined.get(name, ()))

    def mentions_of(self, results: dict[str, SkillResult], name: str, skill_md: str | None = None) -> list[
            tuple[str, Mention]]:
        """(path, mention) for every mention of ``name`` (links: those into ``skill_md``'s folder)."""
        folder = os.path.dirname(skill_md) if skill_md else None
        out = []
        paths = set(self.mentioners.get(name, ()))
        if folder:
            paths |= self.mentioners.get(os.path.basename(folder), set())
        for p in sorted(paths):
            r = results.get(p)
            if r is None:
                continue
            for m in r.mentions:
                if m.kind == "link":
                    if folder is not None and m.folder is not None and os.path.normpath(m.folder) == folder:
                        out.append((p, m))
                elif m.name == name:
                    out.append((p, m))
        return out


def name_problems(name: str, settings: Settings) -> list[str]:
    """Why ``name`` cannot be a skill's name under the configured targets ([] when it can).

    The one place rename asks; today it is the name rule of the active profile
    (rules/name.py), the rule the targets' model will provide.
    """
    from .rules.name import MAX_NAME, problems  # noqa: PLC0415
    from .targets import PROFILES  # noqa: PLC0415

    if not name.strip():
        return ["a skill name cannot be empty"]
    out = problems(name, PROFILES[settings.profile].unicode_names)
    if name != name.strip():
        out.insert(0, "a skill name cannot start or end with whitespace")
    if len(name) > MAX_NAME:
        out.append(f"a skill name has at most {MAX_NAME} characters")
    return out


def _fold(name: str) -> str:
    return nfkc(name).casefold()


def _scripts(name: str) -> list[str]:
    """The scripts of the letters of ``name`` (LATIN, CYRILLIC, GREEK, ...), in order of appearance."""
    import unicodedata  # noqa: PLC0415 - asked for by a rename, not by a check

    out: list[str] = []
    for ch in nfkc(name):
        if ch.isalpha():
            script = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
            if script not in out:
                out.append(script)
    return out


def rename_conflicts(new: str, names: Iterable[str]) -> list[str]:
    """Why renaming a skill to ``new`` would make a name a reader (or a harness, or a
    case-insensitive file system) cannot tell from another ([] when none).

    Folding is NFKC and case: `ｄｅｐｌｏｙ` (fullwidth) and `Deploy` are `deploy`. A name whose
    letters mix scripts (Latin with a Cyrillic `е`) is a look-alike by construction.
    """
    out = []
    folded = _fold(new)
    same = sorted(n for n in set(names) if n != new and _fold(n) == folded)
    if same:
        out.append(f"'{new}' is the same name as the existing '{same[0]}' once Unicode compatibility forms and "
                   "case are folded (NFKC)")
    scripts = _scripts(new)
    if len(scripts) > 1:
        out.append(f"'{new}' mixes {' and '.join(s.title() for s in scripts)} letters: a look-alike of other names")
    return out
