"""Description overlap: two skills of one workspace whose descriptions a model cannot tell apart.

The model picks a skill by its description alone, so two near-identical descriptions (same
triggers, same wording) leave the choice to chance. Two descriptions overlap when both have at
least ``MIN_WORDS`` words and

* they are the same text (case and spacing aside), or
* rapidfuzz's token-sort ratio is at least ``RATIO`` and at most one content word (not a
  stop word) is in one and not the other, and that word is not part of either skill's name:
  "Deploy to staging" and "Deploy to production" differ by two distinctive words, "Automate
  21risk tasks" names the skill `21risk-automation`, and a model routes on such words.

Copies of one skill (the same name, e.g. `.claude/skills/x` and `.agents/skills/x`) are not
overlaps: DUPLICATE_NAME and SHADOWED speak about them.

Incremental and cheap for 10,000 skills: a new or changed description is compared only with the
skills whose content words are the same set or differ from it by one word (see OverlapIndex),
found by hash lookups; the result does not depend on the order skills are added in.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from functools import reduce
from operator import xor

from . import fuzzy
from .lazyre import lazy_re

MIN_WORDS = 8
RATIO = 90
_WORD = lazy_re(r"[^\W_]+", re.U)
# The same words of a lowercased ASCII text, found 2.5x as fast (no Unicode category per character):
# most descriptions are ASCII, and each of 10,000 is split as a scan takes its result.
_ASCII_WORD = lazy_re(r"[a-z0-9]+")
# Words every description uses: they say nothing about which skill to pick.
STOP = frozenset("""
a an the and or but if of to in on at by for from with without into onto over under about as is are be been being
this that these those it its it's use used using uses when whenever while where which who what how why user users
asks ask asked asking wants want needs need skill skills claude model agent you your i we our can will should may
must do does done not no any all each every other such via e g eg etc also only more most some so than then there
their them they
""".split())
# What a description's content words leave out: the stop words and every one-letter word
# (the ASCII ones listed, so that only a rare other one costs a pass over the words).
_DROP = STOP | frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class _Entry:
    __slots__ = ("content", "description", "group", "name", "name_flat", "norm", "words")

    def __init__(self, name: str, description: str, group: str | None = None) -> None:
        self.group = group
        self.description = description
        words = _words(description)
        self.name = name
        self.name_flat = "".join(_words(name))  # `many-chat` -> `manychat`
        self.words = len(words)
        self.norm = " ".join(words)
        content = set(words)
        content -= _DROP
        if 1 in map(len, content):  # a one-letter word _DROP does not list (non-ASCII): rare
            content = {w for w in content if len(w) > 1}
        self.content = frozenset(content)


def _words(text: str) -> list[str]:
    return (_ASCII_WORD if text.isascii() else _WORD).findall(text.lower())


def similar(a: _Entry, b: _Entry) -> bool:
    if a.words < MIN_WORDS or b.words < MIN_WORDS:
        return False
    if a.norm == b.norm:
        return True
    diff = a.content ^ b.content
    if len(diff) > 1:
        return False
    # The one word that differs names the skill's own subject ("Automate 21risk tasks" in
    # `21risk-automation`): a model routes on it.
    if any(len(w) >= 3 and (w in a.name_flat or w in b.name_flat) for w in diff):
        return False
    fuzzy.load()
    from rapidfuzz import fuzz  # noqa: PLC0415 - 17-30 ms to import; only a near pair gets here

    return fuzz.token_sort_ratio(a.norm, b.norm) >= RATIO


class OverlapIndex:
    """Who overlaps whom, kept up to date one skill at a time.

    Two descriptions can overlap only when their content-word sets are equal or one is the other
    plus one word. Each entry is indexed by a hash of its set (XOR of the words' hashes) and by the
    hash of each set with one word left out, so the candidates of a new entry are found in
    O(words) lookups, whatever the order the skills arrive in (the result must not depend on it:
    the server adds skills one at a time, `check` all at once).

    Skills with the same text (a template description) overlap as a class, kept once
    (``_same``); ``overlaps`` holds the pairs whose texts differ. As pairs, N copies of one text
    made N² of them: 1,250 skills sharing a scaffold's description took 158 MiB and 2 s.
    """

    def __init__(self) -> None:
        self.entries: dict[str, _Entry] = {}
        self.overlaps: dict[str, set[str]] = defaultdict(set)  # pairs of different texts, both ways
        self._same: dict[str, set[str]] = {}  # the text (``_Entry.norm``) -> paths
        self._tally: dict[str, _Tally] = {}  # the text -> its class counted by name and root
        self._ordered: dict[str, list[str]] = {}  # the text -> its class, sorted
        self._whole: dict[int, set[str]] = defaultdict(set)  # hash of the set -> paths
        # Hash of the set less one word -> a path, or the set of paths when several share it (rare:
        # 10,000 skills make some 200,000 keys, and a set for each was most of the time to add).
        self._less: dict[int, str | set[str]] = {}
        self._keys: dict[str, tuple[int, tuple[int, ...]]] = {}

    @staticmethod
    def _hashes(e: _Entry) -> tuple[int, tuple[int, ...]]:
        words = list(map(hash, e.content))
        whole = reduce(xor, words, 0)
        return whole, tuple(map(whole.__xor__, words))

    def _candidates(self, path: str, whole: int, less: tuple[int, ...]) -> set[str]:
        out = set(self._whole.get(whole, ()))
        bucket = self._less.get(whole)
        if bucket is not None:
            out |= {bucket} if isinstance(bucket, str) else bucket
        for found in filter(None, map(self._whole.get, less)):
            out |= found
        out.discard(path)
        return out

    def holds(self, path: str, name: str, description: str, group: str | None = None) -> bool:
        """Whether ``path`` is indexed with this name, description and group already."""
        e = self.entries.get(path)
        return e is not None and e.name == name and e.description == description and e.group == group

    def add(self, path: str, name: str, description: str, group: str | None = None) -> set[str]:
        """Index a skill (replacing its previous entry); the paths whose overlaps changed.

        ``group``: the configured root the skill lives in, None for one found elsewhere. Two skills
        in different roots are never compared: each root is read by its own harnesses (a copy in
        `.agents/skills` for Codex and one in `.claude/skills` for Claude Code meet in no listing).
        """
        changed = self.remove(path)
        e = _Entry(name, description, group)
        if e.words < MIN_WORDS:
            return changed
        whole, less = self._hashes(e)
        candidates = self._candidates(path, whole, less)
        same = self._same.setdefault(e.norm, set())
        self._forget(e.norm)
        if same:
            candidates -= same
            changed |= same  # an over-estimate: a copy of the same name or one in another root gains nothing
            changed.add(path)
        same.add(path)
        for other in candidates:
            o = self.entries[other]
            if _comparable(e, o) and similar(e, o):
                self.overlaps[path].add(other)
                self.overlaps[other].add(path)
                changed |= {path, other}
        self.entries[path] = e
        self._keys[path] = (whole, less)
        self._whole[whole].add(path)
        index = self._less
        shared = index.keys() & less
        before = {key: index[key] for key in shared} if shared else None
        index.update(dict.fromkeys(less, path))
        if before:
            for key, bucket in before.items():
                index[key] = {bucket, path} if isinstance(bucket, str) else bucket | {path}
        return changed

    def remove(self, path: str) -> set[str]:
        e = self.entries.pop(path, None)
        if e is None:
            return set()
        whole, less = self._keys.pop(path)
        paths = self._whole.get(whole)
        if paths is not None:
            paths.discard(path)
            if not paths:
                del self._whole[whole]
        for key in less:
            bucket = self._less.get(key)
            if bucket == path:
                del self._less[key]
            elif isinstance(bucket, set):
                bucket.discard(path)
                if len(bucket) == 1:
                    self._less[key] = next(iter(bucket))
        others = self.overlaps.pop(path, set())
        for o in others:
            self.overlaps[o].discard(path)
            if not self.overlaps[o]:
                del self.overlaps[o]
        same = self._same[e.norm]
        same.discard(path)
        self._forget(e.norm)
        if same:
            others |= same
        else:
            del self._same[e.norm]
        return others | {path} if others else set()

    def of(self, path: str) -> list[str]:
        """The skills ``path``'s description overlaps, sorted (``head`` when only the first few are wanted)."""
        e = self.entries.get(path)
        if e is None:
            return []
        out = set(self.overlaps.get(path, ()))
        out.update(o for o in self._same[e.norm] if o != path and _comparable(e, self.entries[o]))
        return sorted(out)

    def head(self, path: str, limit: int) -> tuple[list[str], int]:
        """The first ``limit`` of ``of(path)`` and how many there are in all, without listing the
        class for each member: its size less the copies of the name and the other roots' skills
        (``_Tally``), its first members from the class sorted once. As ``of`` for each member, a
        name typed among 1,250 skills sharing a description sorted 1,250 lists of 1,249 a
        keystroke, and a template description shared by 1,000 skills mirrored in two roots took
        0.3 ms a skill."""
        e = self.entries.get(path)
        if e is None:
            return [], 0
        count = self._in_class(e)
        first: list[str] = []
        if count:
            ordered = self._ordered.get(e.norm)
            if ordered is None:
                ordered = self._ordered[e.norm] = sorted(self._same[e.norm])
            entries = self.entries
            for p in ordered:
                if p != path and _comparable(e, entries[p]):
                    first.append(p)
                    if len(first) == limit:
                        break
        pairs = self.overlaps.get(path)
        if pairs:  # texts that differ: never in the class
            first = sorted(pairs.union(first))[:limit]
        return first, count + len(pairs or ())

    def _forget(self, norm: str) -> None:
        """The class of ``norm`` changed: what was worked out about it no longer holds."""
        self._tally.pop(norm, None)
        self._ordered.pop(norm, None)

    def _in_class(self, e: _Entry) -> int:
        """How many others of ``e``'s class its description is compared with (``_comparable``)."""
        same = self._same[e.norm]
        if len(same) < 2:
            return 0
        tally = self._tally.get(e.norm)
        if tally is None:
            tally = self._tally[e.norm] = _Tally(self.entries[p] for p in same)
        if e.group is None:  # compared with every root's skills
            return len(same) - tally.names[e.name]
        return (tally.groups[e.group] + tally.groups[None]
                - tally.pairs[(e.group, e.name)] - tally.pairs[(None, e.name)])

    def overlapping(self) -> list[str]:
        """Every skill whose description overlaps another's."""
        out = set(self.overlaps)
        for same in self._same.values():
            if len(same) > 1:
                out.update(p for p in same if self._in_class(self.entries[p]))
        return sorted(out)


class _Tally:
    """A class of skills sharing one description, counted by name, by root and by both."""

    __slots__ = ("groups", "names", "pairs")

    def __init__(self, entries: Iterable[_Entry]) -> None:
        self.names: dict[str, int] = defaultdict(int)
        self.groups: dict[str | None, int] = defaultdict(int)
        self.pairs: dict[tuple[str | None, str], int] = defaultdict(int)
        for x in entries:
            self.names[x.name] += 1
            self.groups[x.group] += 1
            self.pairs[(x.group, x.name)] += 1


def _comparable(a: _Entry, b: _Entry) -> bool:
    """Whether two skills' descriptions are compared at all: not copies of one skill (the same
    name), not in two different roots (each is read by its own harnesses)."""
    return a.name != b.name and (a.group is None or b.group is None or a.group == b.group)
