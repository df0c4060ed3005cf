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

Incremental and cheap for 10,000 skills: each description is indexed by its content words; a
new or changed description is compared only with the skills that share one of its two rarest
words (near-identical descriptions share their rare words; a word held by more than
``BUCKET_MAX`` skills is no help and is skipped).
"""

from __future__ import annotations

import re
from collections import defaultdict

from rapidfuzz import fuzz

MIN_WORDS = 8
RATIO = 90
RARE = 2
BUCKET_MAX = 100
_WORD = re.compile(r"[^\W_]+", re.U)
# Words every description uses: they say nothing about which skill to pick.
STOP = frozenset("""
a an the and or but if of to in on at by for from with without into onto over under about as is are be been being
this that these those it its it's use used using uses when whenever while where which who what how why user users
asks ask asked asking wants want needs need skill skills claude model agent you your i we our can will should may
must do does done not no any all each every other such via e g eg etc also only more most some so than then there
their them they
""".split())


class _Entry:
    __slots__ = ("content", "group", "name", "name_flat", "norm", "words")

    def __init__(self, name: str, description: str, group: str | None = None) -> None:
        self.group = group
        words = _WORD.findall(description.lower())
        self.name = name
        self.name_flat = "".join(_WORD.findall(name.lower()))  # `many-chat` -> `manychat`
        self.words = len(words)
        self.norm = " ".join(words)
        self.content = frozenset(w for w in words if w not in STOP and len(w) > 1)


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
    return fuzz.token_sort_ratio(a.norm, b.norm) >= RATIO


class OverlapIndex:
    """Who overlaps whom, kept up to date one skill at a time."""

    def __init__(self) -> None:
        self.entries: dict[str, _Entry] = {}
        self.postings: dict[str, set[str]] = defaultdict(set)
        self.overlaps: dict[str, set[str]] = defaultdict(set)

    def _candidates(self, path: str, e: _Entry) -> set[str]:
        out: set[str] = set()
        rare = sorted(e.content, key=lambda w: (len(self.postings.get(w, ())), w))
        used = 0
        for w in rare:
            posting = self.postings.get(w)
            if posting is None:
                continue  # a word no other skill has: it cannot be shared
            if len(posting) > BUCKET_MAX:
                break  # the rest are as common or more
            out |= posting
            used += 1
            if used >= RARE:
                break
        out.discard(path)
        return out

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
        size = len(e.content)
        for other in self._candidates(path, e):
            o = self.entries[other]
            # At most one content word differs, so the sets' sizes differ by at most one: a test
            # that rules out nearly every candidate before the set and string comparisons.
            if abs(len(o.content) - size) > 1 or o.name == name or (
                    group is not None and o.group is not None and o.group != group):
                continue
            if similar(e, o):
                self.overlaps[path].add(other)
                self.overlaps[other].add(path)
                changed |= {path, other}
        self.entries[path] = e
        for w in e.content:
            self.postings[w].add(path)
        return changed

    def remove(self, path: str) -> set[str]:
        e = self.entries.pop(path, None)
        if e is None:
            return set()
        for w in e.content:
            posting = self.postings.get(w)
            if posting is not None:
                posting.discard(path)
                if not posting:
                    del self.postings[w]
        others = self.overlaps.pop(path, set())
        for o in others:
            self.overlaps[o].discard(path)
            if not self.overlaps[o]:
                del self.overlaps[o]
        return others | {path} if others else set()

    def of(self, path: str) -> list[str]:
        return sorted(self.overlaps.get(path, ()))
