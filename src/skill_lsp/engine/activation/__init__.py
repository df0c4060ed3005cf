"""The ``skill`` tool contract: validation, catalog, dedupe, gating, body expansion.

Pure Python; renders through :mod:`skill_lsp.engine.render` dialects.
"""

from __future__ import annotations

from .frontmatter import normalize_allowed_tools, normalized_frontmatter
from .params import KNOWN_PARAM_ALIASES, MAX_NAME_LENGTH, is_skill_name, validate_params
from .records import SkillRecord
from .resources import MAX_RESOURCES_PER_FOLDER, RESOURCE_FOLDERS, list_resources
from .results import (
    ERROR_CODES,
    AlreadyLoadedResult,
    ErrorResult,
    NotFoundResult,
    OkResult,
    Result,
    ToolError,
)
from .session import (
    CatalogEntry,
    PermissionRequest,
    SessionConfig,
    SkillSession,
    build_catalog,
    suggest_siblings,
)
from .substitute import substitute_arguments

__all__ = [
    "ERROR_CODES",
    "KNOWN_PARAM_ALIASES",
    "MAX_NAME_LENGTH",
    "MAX_RESOURCES_PER_FOLDER",
    "RESOURCE_FOLDERS",
    "AlreadyLoadedResult",
    "CatalogEntry",
    "ErrorResult",
    "NotFoundResult",
    "OkResult",
    "PermissionRequest",
    "Result",
    "SessionConfig",
    "SkillRecord",
    "SkillSession",
    "ToolError",
    "build_catalog",
    "is_skill_name",
    "list_resources",
    "normalize_allowed_tools",
    "normalized_frontmatter",
    "substitute_arguments",
    "suggest_siblings",
    "validate_params",
]
