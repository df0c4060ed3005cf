"""The records' decorator behaves as the `dataclasses` features the product relied on did."""

from __future__ import annotations

import copy
import pickle
from typing import ClassVar

import pytest

from skill_lsp.engine.datarecord import (
    FrozenInstanceError,
    asdict,
    datarecord,
    field,
    fields,
    is_record,
    replace,
)


@datarecord(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    note: str = field(default="", compare=False, repr=False)


@datarecord(slots=True)
class Bag:
    name: str
    items: list[int] = field(default_factory=list)
    kind: ClassVar[str] = "bag"


@datarecord
class Plain:
    a: int
    inner: Point | None = None


@datarecord(slots=True, eq=False)
class Identity:
    v: int


@datarecord(frozen=True)
class Settled:
    name: str
    limits: tuple[int, ...] = (1, 2)


def test_init_defaults_and_factories():
    assert (Point(1).x, Point(1).y, Point(1, 2, ("t",)).tags) == (1, 0, ("t",))
    b1, b2 = Bag("a"), Bag("b")
    b1.items.append(1)
    assert b2.items == []  # a fresh list each time
    assert Bag.kind == "bag" and [f.name for f in fields(Bag)] == ["name", "items"]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=2)  # type: ignore[call-arg]


def test_equality_hash_and_repr_follow_the_compared_fields():
    assert Point(1, 2, note="a") == Point(1, 2, note="b")
    assert hash(Point(1, 2, note="a")) == hash(Point(1, 2, note="b"))
    assert Point(1, 2) != Point(2, 1) and Point(1) != (1, 0, ())
    assert len({Point(1), Point(1), Point(2)}) == 2
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=())"
    assert Bag("a") == Bag("a") and Bag.__hash__ is None  # eq without frozen: unhashable
    assert Identity(1) != Identity(1) and hash(Identity(1)) != 0
    p = Plain(1)
    p.inner = Point(3)
    assert repr(p) == "Plain(a=1, inner=Point(x=3, y=0, tags=()))"


def test_a_record_that_contains_itself_still_has_a_repr():
    p = Plain(1)
    p.inner = p  # type: ignore[assignment]
    assert repr(p) == "Plain(a=1, inner=...)"


def test_frozen_and_slots():
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.x  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Bag("a").other = 1  # type: ignore[attr-defined]
    assert not hasattr(p, "__dict__") and Point.__slots__ == ("x", "y", "tags", "note")
    assert Point.__qualname__ == "Point" and Point.__init__.__qualname__ == "Point.__init__"


@pytest.mark.parametrize("value", [Point(1, 2, ("a",), note="n"), Bag("b", [1, 2]), Plain(3, Point(4)),
                                   Identity(5), Settled("s")])
def test_pickle_and_copy_round_trip(value):
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert asdict(back) == asdict(value)
    assert asdict(copy.copy(value)) == asdict(value) == asdict(copy.deepcopy(value))
    assert pickle.loads(pickle.dumps(Point(1, note="n"))).note == "n"


def test_replace_and_asdict():
    p = Point(1, 2, note="n")
    q = replace(p, y=5)
    assert (q.x, q.y, q.note, p.y) == (1, 5, "n", 2)
    with pytest.raises(TypeError):
        replace(p, z=1)
    assert asdict(Plain(1, Point(2, tags=("t",)))) == {
        "a": 1, "inner": {"x": 2, "y": 0, "tags": ("t",), "note": ""}}
    assert is_record(p) and is_record(Point) and not is_record(1)


def test_what_dataclasses_refused_is_refused():
    with pytest.raises(ValueError, match="mutable default"):
        @datarecord
        class Shared:
            items: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="follows a default"):
        @datarecord
        class Order:
            a: int = 0
            b: int  # type: ignore[misc]


def test_post_init_runs_after_the_fields_are_set():
    @datarecord(slots=True)
    class Sized:
        items: list[int]
        size: int = 0

        def __post_init__(self) -> None:
            self.size = len(self.items)

    assert Sized([1, 2, 3]).size == 3


def test_inherited_fields_come_first():
    @datarecord(frozen=True, slots=True)
    class Base:
        a: int

    @datarecord(frozen=True, slots=True)
    class Child(Base):
        b: str = ""

    c = Child(1, "x")
    assert (c.a, c.b) == (1, "x") and [f.name for f in fields(c)] == ["a", "b"]
    assert Child.__slots__ == ("b",)
    assert copy.deepcopy(c) == c


def test_the_generic_init_binds_as_the_compiled_one_does():
    """A class built fewer than COMPILE_AFTER times keeps a generic ``__init__`` (compiling one
    was a tenth of a one-skill check's own time); then the compiled one takes over. Both must
    bind every call the same way, refusals and their messages included."""
    from skill_lsp.engine import datarecord as dr

    def make():
        @datarecord(frozen=True, slots=True)
        class Rec:
            a: int
            b: str = "b"
            c: list[int] = field(default_factory=list)

        @datarecord(slots=True)
        class Post:
            items: list[int]
            size: int = 0

            def __post_init__(self) -> None:
                self.size = len(self.items)

        @datarecord(frozen=True)
        class Three:
            x: int
            y: int
            z: int

        # Plain defaults: positional calls fill the instance's dict in one go, or a slotted
        # base's fields one by one.
        @datarecord(frozen=True)
        class Tail:
            a: int
            b: str = "b"
            c: tuple[int, ...] = ()

        @datarecord(frozen=True)
        class Mixed(Rec):
            d: int = 4

        return Rec, Post, Three, Tail, Mixed

    calls = [((1,), {}), ((1, "x"), {}), ((1, "x", [2]), {}), ((), {"a": 1, "c": [3]}), ((1,), {"b": "y"}),
             ((), {}), ((1, 2, 3, 4), {}), ((1,), {"a": 2}), ((1,), {"z": 0}), ((), {"b": "x"})]
    threes = [((), {}), ((1,), {}), ((1, 2), {}), ((1,), {"z": 3}), ((), {"y": 2}), ((1, 2, 3), {}),
              ((1, 2, 3, 4), {}), ((1, 2), {"x": 0, "z": 3})]

    def outcomes(cls, calls=calls):
        out = []
        for args, kwargs in calls:
            try:
                r = cls(*args, **kwargs)
            except TypeError as exc:
                out.append(("refused", str(exc)))
            else:
                out.append(tuple(getattr(r, f.name) for f in fields(r)))
        return out

    rec, post, three, tail, mixed = make()
    generic = outcomes(rec), post([1, 2]).size, outcomes(three, threes), outcomes(tail), outcomes(mixed)
    assert rec.__init__.__code__.co_filename == dr.__file__  # still the generic one
    assert vars(tail(1)) == {"a": 1, "b": "b", "c": ()} and vars(mixed(1)) == {"d": 4}  # a: the base's slot
    for _ in range(dr.COMPILE_AFTER):
        rec(0)
        post([])
        three(1, 2, 3)
        tail(0)
        mixed(0)
    assert rec.__init__.__code__.co_filename.startswith("<record")  # compiled now
    compiled = outcomes(rec), post([1, 2]).size, outcomes(three, threes), outcomes(tail), outcomes(mixed)
    assert generic == compiled
    assert generic[3][:3] == [(1, "b", ()), (1, "x", ()), (1, "x", [2])]
    assert generic[0][0] == (1, "b", []) and generic[1] == 2
    assert sum(o[0] == "refused" for o in generic[0]) == 5
    assert [o[1].split("() ", 1)[1] for o in generic[2][:3]] == [
        "missing 3 required positional arguments: 'x', 'y', and 'z'",
        "missing 2 required positional arguments: 'y' and 'z'", "missing 1 required positional argument: 'z'"]
