"""Resource enumeration: names only, never contents (spec §8, NOTES §2)."""

from __future__ import annotations

import os
import stat

from .jsstr import utf16_key

__all__ = ["RESOURCE_FOLDERS", "MAX_RESOURCES_PER_FOLDER", "ResourceListingError", "list_resources"]

RESOURCE_FOLDERS = ("scripts", "references", "assets")
MAX_RESOURCES_PER_FOLDER = 10


class ResourceListingError(OSError):
    """A resource folder exists but could not be listed."""


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def list_resources(skill_dir: str) -> tuple[str, ...]:
    """``folder/name`` entries of scripts/, references/, assets/ (in that order).

    Each folder's entries are sorted in UTF-16 code-unit order (the JS default
    sort the reference uses); at most 10 per folder, then ``folder/(... N more)``.
    A missing folder, or one that is not a directory, is skipped.  A folder that
    is a symlink resolving outside the skill directory is skipped (never
    followed).  A folder that exists but cannot be listed raises
    :class:`ResourceListingError`.
    """
    out: list[str] = []
    real_dir = os.path.realpath(skill_dir)
    for folder in RESOURCE_FOLDERS:
        path = os.path.join(skill_dir, folder)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise ResourceListingError(str(exc)) from exc
        if stat.S_ISLNK(st.st_mode):
            target = os.path.realpath(path)
            if not _inside(target, real_dir) or not os.path.isdir(target):
                continue
        elif not stat.S_ISDIR(st.st_mode):
            continue
        try:
            children = os.listdir(path)
        except OSError as exc:
            raise ResourceListingError(str(exc)) from exc
        children.sort(key=utf16_key)
        out.extend(f"{folder}/{child}" for child in children[:MAX_RESOURCES_PER_FOLDER])
        if len(children) > MAX_RESOURCES_PER_FOLDER:
            out.append(f"{folder}/(... {len(children) - MAX_RESOURCES_PER_FOLDER} more)")
    return tuple(out)
