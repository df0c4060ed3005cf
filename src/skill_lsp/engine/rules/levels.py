"""Rule-depth findings at the severity their targets give them (Harness.rule_levels).

A rule asks ``active()`` before doing work no target reports, and yields through ``emit()``,
which grades the finding for the targets (the worst of theirs; nothing when every one is off).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import RULES, Finding, Severity, make
from ..harness import HARNESSES

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True

if TYPE_CHECKING:
    from typing import Any

    from .context import Context


def severity(code: str, targets: tuple[str, ...] | str) -> Severity | None:
    """The worst severity of ``code`` among the target harnesses; None when every one is off."""
    names = (targets,) if isinstance(targets, str) else targets
    key = (code, names)
    if key not in _CACHE:
        default = RULES[code].severity.label
        labels = [HARNESSES[t].rule_levels.get(code, default) if t in HARNESSES else default for t in names]
        found = [s for s in map(Severity.parse, labels) if s is not None]
        _CACHE[key] = min(found) if found else None  # Severity counts as LSP does: ERROR is 1
    return _CACHE[key]


_CACHE: dict[tuple[str, tuple[str, ...]], Severity | None] = {}


def _targets(ctx: Context) -> tuple[str, ...]:
    return ctx.profile.targets or (ctx.profile.name,)


def level(ctx: Context, code: str) -> Severity | None:
    """The severity ``code`` is reported at under the targets (None: off)."""
    return severity(code, _targets(ctx))


def active(ctx: Context, *codes: str) -> bool:
    """Whether any of ``codes`` reports under the targets (skip the work otherwise)."""
    targets = _targets(ctx)
    return any(severity(c, targets) is not None for c in codes)


def emit(ctx: Context, code: str, message: str, start: int, end: int,
         data: dict[str, Any] | None = None) -> Iterator[Finding]:
    """Yield one finding at the active profile's severity, or nothing when the rule is off there."""
    sev = severity(code, _targets(ctx))
    if sev is not None:
        yield make(code, message, start, end, data, severity=sev)
