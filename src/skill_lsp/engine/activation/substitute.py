"""Argument substitution in skill bodies (spec §9, NOTES §2).

String arguments: ``$ARGUMENTS[N]`` (0-based token), then ``$ARGUMENTS`` (the
whole string), then ``$N`` (1-based token); tokens are the string split on JS
whitespace.  Object arguments: ``$ARGUMENTS`` becomes the ``k=v`` pairs sorted by
key and joined by spaces, then ``${name}`` is replaced from the object.  A
placeholder with no value stays literal.  The passes run in this order over the
output of the previous pass, as in the reference.

Deviations from the TypeScript reference, on purpose:

* replacement text is inserted literally; the reference passes the argument
  string as a ``String.replace`` pattern, so ``$&`` or ``$$`` inside an
  argument would be expanded by JavaScript;
* an unmatched ``$ARGUMENTS[N]`` stays literal (the reference's ``$ARGUMENTS``
  pass rewrites it to ``<whole string>[N]``);
* object keys are sorted by code point, not ``localeCompare`` (locale
  independent, deterministic).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..lazyre import lazy_re
from .jsstr import js_split_ws

__all__ = ["substitute_arguments"]

# re.ASCII: JS ``\b`` and ``\d`` know only ASCII word characters/digits.
_INDEXED = lazy_re(r"\$ARGUMENTS\[(\d+)\]", re.ASCII)
# The lookahead keeps an unmatched ``$ARGUMENTS[N]`` literal; the reference's
# later ``$ARGUMENTS`` pass would turn ``$ARGUMENTS[5]`` into ``<args>[5]``.
_WHOLE = lazy_re(r"\$ARGUMENTS\b(?!\[\d+\])", re.ASCII)
_POSITIONAL = lazy_re(r"\$(\d+)\b", re.ASCII)
_NAMED = lazy_re(r"\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}", re.ASCII)


def substitute_arguments(body: str, arguments: str | Mapping[str, str] | None) -> str:
    if arguments is None:
        return body
    if isinstance(arguments, str):
        return _substitute_string(body, arguments)
    return _substitute_object(body, arguments)


def _substitute_string(body: str, value: str) -> str:
    tokens = js_split_ws(value)

    def indexed(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return tokens[index] if index < len(tokens) else match.group(0)

    def positional(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return tokens[index - 1] if 1 <= index <= len(tokens) else match.group(0)

    out = _INDEXED.sub(indexed, body)
    out = _WHOLE.sub(lambda _m: value, out)
    return _POSITIONAL.sub(positional, out)


def _substitute_object(body: str, values: Mapping[str, str]) -> str:
    rendered = " ".join(f"{key}={values[key]}" for key in sorted(values))
    out = _WHOLE.sub(lambda _m: rendered, body)

    def named(match: re.Match[str]) -> str:
        value = values.get(match.group(1))
        return value if isinstance(value, str) else match.group(0)

    return _NAMED.sub(named, out)
