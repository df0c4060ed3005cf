"""Whether a dialect's text is proven against the real thing, and by what.

Proven means: a stored capture of the release (tests/golden/harness, compared byte for
byte by tests/engine/test_harness_captures.py) or a reference package run by the test
suite in CI (tests/engine/test_reference_byte_exact.py). Anything else is "documented,
not verified", and previews say so.
"""

from __future__ import annotations

from skill_lsp.engine.harness import HARNESSES

from ..datarecord import datarecord

__all__ = ["Proof", "proof"]

_REFERENCE = "tests/engine/test_reference_byte_exact.py"


@datarecord(frozen=True, slots=True)
class Proof:
    verified: bool
    proof: str  # the capture, package or document the text rests on


#: (dialect, "activation" | "catalog") -> proof, for the dialects no capture covers.
_OTHERS: dict[tuple[str, str], Proof] = {
    # The skill tool is the spec's contract, not a harness: its text is the reference
    # implementation's format.ts, and its behaviour is the spec's test list (§13.1).
    ("skill-tool", "activation"): Proof(True, "spec 000 reference implementation format.ts "
                                              "(tests/engine/test_render_skill_tool.py, test_spec_13_1.py)"),
    ("skill-tool", "catalog"): Proof(False, "documented, not verified: spec 000 defines no catalog text "
                                            "(`- name: description` is skill-lsp's)"),
    ("dsh", "activation"): Proof(True, f"@deepseek-ai/dsh-skill 0.1.0-rc.8 run in CI ({_REFERENCE})"),
    ("dsh", "catalog"): Proof(True, f"@deepseek-ai/dsh-tool-skill 0.1.0-rc.8 run in CI ({_REFERENCE})"),
    ("agentskills", "activation"): Proof(False, "documented, not verified: the agentskills.io client guide's "
                                                "example (no reference code activates skills)"),
    ("agentskills", "catalog"): Proof(True, f"skills-ref 0.1.1 to_prompt run in CI ({_REFERENCE})"),
}


#: What a capture proves but the release does not hold fixed from run to run.
_CAVEATS: dict[tuple[str, str], str] = {
    # Its loader globs a root's folders asynchronously: reverse code-point order in most runs
    # (2 of 8 runs of the 48-skill capture case listed some in another order).
    ("gemini", "catalog"): "the order within a root can differ from run to run (gemini-cli globs its "
                           "folders asynchronously; this preview shows the usual order)",
    # Its scan is parallel: the shrinker's second run of one workspace kept the other copy.
    ("opencode", "catalog"): "of two skills with the same name, which one it lists can differ from run to run",
    ("opencode", "activation"): "of two skills with the same name, which one it activates can differ from run "
                                "to run",
}


def proof(dialect: str, kind: str = "activation") -> Proof:
    """What the ``kind`` text of ``dialect`` is proven against."""
    h = HARNESSES.get(dialect)
    if h is not None and h.proof == "captured":
        version = h.version.split()[-1]  # "@google/gemini-cli-core 0.61.0" -> "0.61.0"
        text = f"capture: {h.name}@{version} (tests/golden/harness/{h.name}@{version})"
        caveat = _CAVEATS.get((dialect, kind))
        return Proof(True, f"{text}; {caveat}" if caveat else text)
    return _OTHERS.get((dialect, kind), Proof(False, "documented, not verified"))
