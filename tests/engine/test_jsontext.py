"""jsontext writes what ``json.dumps(value, ensure_ascii=False)`` writes, for every value it takes."""

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skill_lsp.engine.jsontext import dumps, string

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


@given(values)
def test_the_same_text_as_json_dumps(value):
    assert dumps(value) == json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("text", ["", "plain", "é\u2028\"\\\n\t\x00", "\U0001f600", "\ud800"])
def test_a_string_as_json_writes_it(text: str):
    assert string(text) == dumps(text) == json.dumps(text, ensure_ascii=False)


def test_numbers_json_writes_outside_the_standard():
    assert dumps([math.nan, math.inf, -math.inf, -0.0]) == "[NaN, Infinity, -Infinity, -0.0]"


def test_refuses_what_json_refuses():
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        dumps({"a": {1}})
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        json.dumps({"a": {1}})
