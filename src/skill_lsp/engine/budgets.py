"""Listing budgets: how many characters of catalog each budgeted harness lists, and whether a set
of skills could reach one.

Kept apart from ``decisions`` (the dialects' listing decisions): a check asks first, and loads the
decisions only when its skills' catalog entries could reach a budget at all.
"""

from __future__ import annotations

from collections.abc import Sequence

# The harnesses whose catalogs have a budget that drops descriptions, and the least of it the
# user's skills can have (built-ins aside): a listing estimated below it is not built at all.
# Claude Code: 30,136 less its built-ins' 6,198; Codex: 8,000 less its system skills; Copilot:
# 15,000 less its built-ins' blocks. Rounded down: the estimate only decides when to look.
BUDGETED = {"claude-code": 20_000, "codex": 5_000, "copilot": 10_000}
_SPECIAL = frozenset("&<>\"'")  # Copilot escapes them (up to 6 characters each)


def could_reach(harness: str, results: Sequence) -> bool:
    """Whether the skills' catalog entries could reach ``harness``'s budget: an upper bound of each
    entry (name, description, path and the markup around them), so a budget is never missed."""
    floor = BUDGETED.get(harness)
    if floor is None:
        return False
    total = 0
    for r in results:
        d = r.description
        total += len(r.name) + len(d) + len(r.path) + 80 + 5 * sum(ch in _SPECIAL for ch in d)
        if total >= floor:
            return True
    return False


def could_reach_any(results: Sequence) -> bool:
    """Whether any budgeted harness could list ``results`` past its budget (what each harness
    lists is a part of them, so a sum below every budget here is below it there too)."""
    return any(could_reach(harness, results) for harness in BUDGETED)

