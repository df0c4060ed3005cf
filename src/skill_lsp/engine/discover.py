"""One answer to "which skills does this workspace hold", for `check` and the language server alike.

``discover()`` lists the configured roots (with precedence) and then every other
SKILL.md below the workspace folder (plugin layouts such as
``plugins/*/skills/*/SKILL.md``). ``classify()`` answers the same question for a
single path, so a file event or an opened buffer lands where the scan would have
put it; ``watch_globs()`` are the folder patterns whose creation or removal can
change the answer.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import discovery, pathglobs
from .config import DEFAULT_ROOTS, Settings
from .datarecord import datarecord, field
from .discovery import Location


@datarecord
class Inventory:
    """A workspace's roots and the skills found in and below them."""

    workspace: str
    roots: list[str]
    sensitive: tuple[str, ...]
    locations: list[Location] = field(default_factory=list)  # in configured roots, root order
    loose: list[Location] = field(default_factory=list)  # anywhere else below the workspace
    ignored: frozenset[str] = frozenset()  # git-ignored folders (absolute)
    excluded: tuple[pathglobs.Anchored, ...] = ()  # `exclude` + `extend-exclude` globs

    def is_excluded(self, path: str) -> bool:
        """Whether an `exclude` glob leaves ``path`` out (folders above the workspace are not tried)."""
        return bool(self.excluded) and pathglobs.matches(path, pathglobs.compile_all(self.excluded), self.workspace)

    @property
    def all(self) -> list[Location]:
        return self.locations + self.loose

    def classify(self, skill_md: str) -> Location | None:
        """Where ``skill_md`` belongs in this inventory (None: not a skill the scan would list).

        Checks only the path and its folder, never the rest of the tree.
        """
        base = os.path.basename(skill_md)
        if base not in discovery.SKILL_FILES and not discovery.is_case_variant(base):
            return None
        if self.is_excluded(skill_md):
            return None
        d = os.path.dirname(os.path.normpath(skill_md))
        # The walk's pick from the folder's listing: SKILL.md, skill.md, then a case variant
        # (`Skill.md` is listed, as SKILL_FILE_CASE, and must land here too).
        preferred = discovery._skill_file(d)
        if preferred is None or os.path.normpath(preferred) != os.path.normpath(skill_md):
            return None  # skill.md next to a SKILL.md: the folder is SKILL.md's
        parent = os.path.dirname(d)
        for i, root in enumerate(self.roots):
            if parent == os.path.normpath(root):
                return discovery.locate(d, root, i, self.roots, self.sensitive, skill_md=preferred)
        if d == self.workspace:  # the workspace folder is a skill: located as ``discover`` lists it
            return discovery.locate(d, os.path.dirname(d), -1, [], self.sensitive, skill_md=preferred)
        if not self._walked(d):
            return None
        real = os.path.realpath(d)
        if not discovery.is_inside(real, os.path.realpath(self.workspace)):
            # The walk reports (never reads) a symlinked skill folder leading outside.
            return discovery.Location(d, preferred, -1, self.workspace,
                                      ("OUTSIDE_WORKSPACE", f"Skill directory is outside all configured "
                                                            f"workspace roots: {real}"))
        return discovery.locate(d, self.workspace, -1, [self.workspace], self.sensitive, real_dir=real,
                                skill_md=preferred)

    def _walked(self, d: str) -> bool:
        """Whether the recursive search reaches folder ``d`` (the rules of find_skill_files)."""
        if not discovery.is_inside(d, self.workspace):
            return False
        rel = os.path.relpath(d, self.workspace)
        if rel == ".":
            return True
        probe = self.workspace
        for part in rel.split(os.sep):
            if part in discovery.SKIP_DIRS or part == "..":
                return False
            probe = os.path.join(probe, part)
            if probe in self.ignored or os.path.exists(os.path.join(probe, "pyvenv.cfg")) or (
                    part in discovery.OUTPUT_DIRS and not discovery.holds_skills(probe)):
                return False
        return True


def discover(workspace: str, settings: Settings, cancelled: Callable[[], bool] | None = None,
             between: Callable[[], bool] | None = None,
             early: Callable[[Location], None] | None = None) -> Inventory:
    """Every skill of a workspace folder: configured roots first (with their index), then the rest.

    ``cancelled``: asked during the walk, every discovery.CANCEL_EVERY folders; ``between``: asked
    as often while the skills found are located after it (default: ``cancelled``). Either raises
    discovery.Cancelled when it turns true.
    ``early(location)``: skills as the walk finds them, located as the inventory will most likely
    list them (a server checks them while the walk goes on). Only the returned inventory is the
    answer: a skill named early may be listed with another location, or not at all (a root's
    precedence, a page named skill.md).
    """
    between = between or cancelled
    workspace = os.path.normpath(os.path.abspath(workspace))
    sensitive = settings.sensitive_patterns
    excluded = settings.exclude + settings.extend_exclude
    # A workspace folder that is itself a skill is listed first, located as its own folder; the
    # walk goes on below it, so the skills it holds (a collection's SKILL.md at the top of its
    # repository, 12 skills below it) are the ones a check of its parent lists.
    direct = discovery.locate(workspace, os.path.dirname(workspace), -1, [], sensitive)
    roots = settings.resolved_roots(workspace)
    inv = Inventory(workspace, roots, sensitive, ignored=discovery.git_ignored_dirs(workspace), excluded=excluded)
    if direct is not None:
        inv.loose.append(direct)
    regex = pathglobs.compile_all(excluded)
    # An excluded folder is not walked at all (vendored trees can be large); its ancestors
    # were tried on the way down, so testing the folder itself is enough.
    prune = None if regex is None else (lambda d: regex.fullmatch(d.replace(os.sep, "/")) is not None)
    # One walk lists every folder once; roots inside the workspace reuse its listings.
    walked: discovery.Seen = {}
    # Loose skills located while the walk went on: the loop below would locate them the same way.
    made: dict[str, Location] = {}

    def walk_found(md: str, real: str, is_link: bool | None) -> None:
        d = os.path.dirname(md)
        parent = os.path.dirname(d)
        if d == workspace:
            loc = direct
        elif parent in roots:
            i = roots.index(parent)
            loc = discovery.locate(d, parent, i, roots, sensitive, real_dir=real, skill_md=md, md_is_link=is_link)
        elif os.path.basename(md) == "skill.md" or (regex is not None and inv.is_excluded(md)):
            return
        else:
            loc = discovery.locate(d, workspace, -1, [workspace], sensitive, real_dir=real, skill_md=md,
                                   md_is_link=is_link)
            if loc is not None:
                made[md] = loc
        if loc is not None:
            early(loc)  # type: ignore[misc]

    files = discovery.find_skill_files(workspace, ignored=inv.ignored, walked=walked, cancelled=cancelled,
                                       excluded=prune, on_found=walk_found if early is not None else None)
    inv.locations = discovery.scan_roots(roots, sensitive, walked, between)
    if regex is not None:
        inv.locations = [loc for loc in inv.locations if not inv.is_excluded(loc.path)]
    # Every path here is built from normalised bases and plain names: no normpath needed.
    seen = {loc.path for loc in inv.locations + inv.loose}
    for i, (md, real) in enumerate(files):
        if between is not None and i % discovery.CANCEL_EVERY == 0 and between():
            raise discovery.Cancelled
        if md in seen or (regex is not None and inv.is_excluded(md)):
            continue
        seen.add(md)
        if os.path.basename(md) == "skill.md" and not _looks_like_skill(md):
            continue  # a page that happens to be named skill.md (a wiki's article about skills)
        if md in made:  # located during the walk, with the same folder, listing and link answer
            inv.loose.append(made[md])
            continue
        d = os.path.dirname(md)
        known = walked.get(d)
        # Fenced to the workspace folder: a symlink leading out is reported, not read.
        found = discovery.locate(d, workspace, -1, [workspace], sensitive, real_dir=real, skill_md=md,
                                 md_is_link=known[1] if known is not None and known[0] == md else None)
        if found is not None:  # always, given skill_md; never a location without the fence's verdict
            inv.loose.append(found)
    return inv


def _looks_like_skill(path: str) -> bool:
    """A lowercase skill.md found outside the roots is a skill when it starts with frontmatter that
    names it or describes it (issue 26: a wiki page `.wiki/wiki/skill.md` was checked as a skill)."""
    data = discovery.read_regular(path, 8192)
    if data is None:
        return True  # let the reader report what is wrong
    head = data.decode("utf-8", "replace")
    if not head.lstrip("\ufeff").startswith("---"):
        return False
    end = head.find("\n---", 3)
    block = head[:end if end >= 0 else len(head)]
    return any(line.startswith(("name:", "description:")) for line in block.splitlines())


def watch_globs(inv: Inventory) -> list[str]:
    """Folder globs (relative to the workspace) whose creation or deletion changes the inventory.

    SKILL.md files themselves are watched everywhere by the caller; these catch a
    skill folder appearing, vanishing or being renamed, in a root and below it.
    """
    out = [f"{r}/*" for r in DEFAULT_ROOTS]  # a default root appearing later changes the roots
    for root in inv.roots:
        rel = os.path.relpath(root, inv.workspace).replace(os.sep, "/")
        if not rel.startswith(".."):
            out.append(f"{rel}/*")
    out.append("**/skills/*")
    return list(dict.fromkeys(out))
