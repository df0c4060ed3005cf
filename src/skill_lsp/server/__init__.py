"""pygls glue over the engine: one module per feature under ``features``."""

from __future__ import annotations

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

    server = SkillLanguageServer()
    for feature in (lifecycle, diagnostics, scan, completion, hover, actions, commands, navigation, graph, tokens):
        feature.register(server)
    return server


__all__ = ["SkillLanguageServer", "create_server"]
