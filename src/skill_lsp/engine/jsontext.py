"""JSON text as ``json.dumps(value, ensure_ascii=False)`` writes it, without importing `json`.

The `json` package loads its decoder, scanner and encoder modules: about 5 M instructions, 4 %
of a one-skill `check`, which only writes JSON. `_json`'s C encoder is what ``json.dumps`` itself
calls; an interpreter without it gets the `json` package.
"""

from __future__ import annotations

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

try:
    import _json as _c
except ImportError:  # pragma: no cover - CPython builds it; other interpreters may not
    _c = None  # type: ignore[assignment]
string = _c.encode_basestring if _c is not None else __import__("json").encoder.encode_basestring


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """``value`` (dicts, lists, tuples, str, int, float, bool, None) as JSON text."""
    if _c is None:  # pragma: no cover
        import json  # noqa: PLC0415

        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str):  # the C encoder takes containers and numbers, not a bare string
        return string(value)
    encode = _c.make_encoder({}, _refuse, string, None, ": ", ", ", False, False, True)
    return "".join(encode(value, 0))
