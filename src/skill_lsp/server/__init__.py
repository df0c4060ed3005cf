"""pygls glue over the engine: one module per feature under ``features``.

Importing this package loads nothing else: a scan's worker processes import
``services.scanjob`` (and with it this package) and must not pay for pygls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import SkillLanguageServer


def create_server() -> SkillLanguageServer:
    from .features import (  # noqa: PLC0415
        actions,
        commands,
        completion,
        diagnostics,
        graph,
        hover,
        lifecycle,
        navigation,
        scan,
        tokens,
    )
    from .server import SkillLanguageServer  # noqa: PLC0415

    server = SkillLanguageServer()
    for feature in (lifecycle, diagnostics, scan, completion, hover, actions, commands, navigation, graph, tokens):
        feature.register(server)
    return server


def __getattr__(name: str) -> Any:
    if name == "SkillLanguageServer":
        from .server import SkillLanguageServer  # noqa: PLC0415

        return SkillLanguageServer
    raise AttributeError(name)


__all__ = ["SkillLanguageServer", "create_server"]
