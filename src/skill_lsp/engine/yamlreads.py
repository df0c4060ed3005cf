"""A frontmatter as a harness's YAML parser reads it, where that differs from skill-lsp's own
parse: YAML 1.1's line breaks, libyaml's verdicts, Codex's repair of a block its parser refused.
Pure: it needs the document and the harness record only (``readings`` builds on it, and the
structure rule asks it about a refused frontmatter through ``colonreads``).
"""

from __future__ import annotations

from . import document
from .harness import Harness
from .yamlnodes import YAML11_BREAKS, libyaml_suffices


def read_by(doc: document.SkillDocument, h: Harness) -> document.SkillDocument:
    """``doc`` as ``h``'s YAML parser reads it: parsed again with YAML 1.1's line breaks when the
    harness uses them and the frontmatter holds NEL, LS or PS, and by libyaml alone when the harness
    parses with libyaml and the frontmatter holds what PyYAML's pure parser may read otherwise (a tab,
    a CR, ...: ``yamlnodes.libyaml_suffices``); with Codex's repair when that parse fails and the
    harness makes one (``Harness.scalar_repair``); rare: the document itself otherwise."""
    sp = doc.split
    if doc.yaml11 or doc.libyaml or sp is None or not sp.has_frontmatter or not sp.closed:
        return doc
    if not h.yaml11_breaks and not h.libyaml:
        return doc
    head = doc.text[sp.yaml_start:sp.yaml_end]
    yaml11 = bool(h.yaml11_breaks) and any(c in head for c in YAML11_BREAKS)
    libyaml = bool(h.libyaml) and not libyaml_suffices(head)
    if not yaml11 and not libyaml and not (h.scalar_repair and _refused(doc)):
        return doc
    key = (doc.path, doc.text, yaml11, libyaml, h.name if h.scalar_repair else "")
    hit = _YAML11_DOCS.get(key)
    if hit is None:
        hit = doc
        if yaml11 or libyaml:
            hit = document.parse(doc.text, doc.path, doc.decode_issue, yaml11=yaml11 or bool(h.yaml11_breaks),
                                 libyaml=libyaml)
            hit.bom = doc.bom
        if h.scalar_repair and _refused(hit):
            hit = _repaired(hit, h) or hit
        if len(_YAML11_DOCS) >= 256:
            _YAML11_DOCS.clear()
        _YAML11_DOCS[key] = hit
    return hit


def _refused(doc: document.SkillDocument) -> bool:
    """Whether Codex's first reading fails: the YAML itself, or a `name` or `description` that is a
    map or a list, which serde_yaml cannot read as the string its record asks for (a scalar of any
    kind it reads as its text). The repair then rewrites every line, not only that one: held-out seed
    9002, `name: {a: 1}` beside a description whose NEL ends a plain scalar but not a quoted one."""
    if doc.yaml_error is not None:
        return True
    if not doc.frontmatter_ok:
        return False
    for key in ("name", "description"):
        entry = doc.entries.get(key)
        if entry is not None and entry.value.target().kind != "scalar":
            return True
    return False


def _repaired(doc: document.SkillDocument, h: Harness) -> document.SkillDocument | None:
    """``doc`` with its frontmatter rewritten as Codex rewrites a block its parser refused
    (codex_frontmatter.py), parsed as ``h`` parses; None when nothing changes or it fails again."""
    from .codex_frontmatter import repair  # noqa: PLC0415 - only a refused frontmatter comes here

    sp = doc.split
    assert sp is not None
    head = doc.text[sp.yaml_start:sp.yaml_end]
    fixed = repair(head)
    if fixed is None:
        return None
    if head.endswith("\n"):
        fixed += "\n"  # the closing line stays a line of its own
    text = doc.text[:sp.yaml_start] + fixed + doc.text[sp.yaml_end:]
    again = document.parse(text, doc.path, doc.decode_issue, yaml11=bool(h.yaml11_breaks), libyaml=True)
    if again.yaml_error is not None or not again.frontmatter_ok:
        return None
    again.bom = doc.bom
    return again


_YAML11_DOCS: dict[tuple[str, str, bool, bool, str], document.SkillDocument] = {}
