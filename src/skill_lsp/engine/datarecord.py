"""Records: the product's plain data classes, built without the standard library's `dataclasses`.

`dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`) and compiles five or six
generated methods for every class it builds: with the 35 records a one-skill `check` defines,
that was 20 of the 48 ms of CPU it paid before it looked at a skill. ``datarecord`` compiles
only ``__init__`` (the one method whose speed matters: findings, nodes and links are built
by the thousand), and only when the first instance is built; equality, hashing, ``repr``,
immutability and pickling are shared functions driven by each class's field names.

What it supports is what the product uses: ``frozen``, ``slots``, ``eq``, defaults and
``field(default=..., default_factory=..., repr=..., compare=...)``, ``ClassVar``
annotations left out, inherited fields. ``replace`` and ``asdict`` stand in for their
`dataclasses` namesakes. Type checkers see records as dataclasses (``dataclass_transform``).
The harness-capture tooling keeps `dataclasses`: nothing waits for its start-up.
"""

from __future__ import annotations

import operator

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from typing_extensions import dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_kw):
        return lambda f: f

_MISSING: Any = object()


class FrozenInstanceError(AttributeError):
    """Assigning to (or deleting) a field of a frozen record."""


class Field:
    """One field of a record: its name, default (or factory) and whether repr and == use it."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True,  # noqa: A002
                 compare: bool = True) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r})"


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True,  # noqa: A002
          compare: bool = True) -> Any:
    """A field with a default factory, or left out of ``repr`` or ``==``."""
    return Field(default, default_factory, repr, compare)


@dataclass_transform(field_specifiers=(field, Field))
def datarecord(cls: Any = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True) -> Any:
    """Make ``cls`` a record: ``__init__`` from its annotated fields, in order (bases' first);
    ``==`` and, when frozen, ``hash`` over the compared fields; ``repr``; ``slots`` rebuilds the
    class with ``__slots__``; ``frozen`` refuses assignment after ``__init__``."""
    def wrap(c: type[T]) -> type[T]:
        return _build(c, frozen, slots, eq)

    return wrap if cls is None else wrap(cls)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record (class or instance), in ``__init__`` order."""
    return tuple(obj.__record_fields__.values())


def is_record(obj: Any) -> bool:
    return hasattr(type(obj) if not isinstance(obj, type) else obj, "__record_fields__")


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (``dataclasses.replace``)."""
    for name in obj.__record_fields__:  # type: ignore[attr-defined]
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


def asdict(obj: Any) -> dict[str, Any]:
    """The record as a dict, records, lists, tuples and dicts inside it converted too."""
    return {name: _plain(getattr(obj, name)) for name in obj.__record_fields__}


def _plain(value: Any) -> Any:
    if is_record(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _is_classvar(annotation: Any) -> bool:
    return isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar"))


def _build(cls: Any, frozen: bool, slots: bool, eq: bool) -> Any:
    own = cls.__dict__
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        found.update(base.__dict__.get("__record_fields__", {}))
    own_names = []
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = own.get(name, _MISSING)
        if isinstance(value, list | dict | set):
            raise ValueError(f"{cls.__name__}.{name}: a mutable default is shared; use field(default_factory=...)")
        f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        found[name] = f
        own_names.append(name)
        if isinstance(value, Field):  # the class attribute is the default, or nothing
            if f.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    if slots:
        ns = {k: v for k, v in own.items() if k not in own_names and k not in ("__dict__", "__weakref__")}
        inherited = {s for base in cls.__mro__[1:] for s in base.__dict__.get("__slots__", ())}
        ns["__slots__"] = tuple(n for n in found if n not in inherited)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, ns)
        cls.__qualname__ = qualname
        if frozen:
            cls.__getstate__ = _getstate
            cls.__setstate__ = _setstate
    defaulted = False
    for name, f in found.items():
        if f.default is not _MISSING or f.default_factory is not _MISSING:
            defaulted = True
        elif defaulted:
            raise TypeError(f"{cls.__name__}: non-default field {name!r} follows a default one")
    cls.__record_fields__ = found
    compared = [n for n, f in found.items() if f.compare]
    cls.__record_key__ = operator.attrgetter(*compared) if compared else staticmethod(_no_key)
    cls.__record_repr__ = tuple(n for n, f in found.items() if f.repr)
    own = cls.__dict__
    if "__init__" not in own:
        cls.__init__ = _generic_init(cls, found, frozen)
    if "__repr__" not in own:
        cls.__repr__ = _repr
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if eq and not explicit_hash:
        cls.__hash__ = _hash if frozen else None
    if frozen:
        cls.__setattr__ = _frozen_setattr
        cls.__delattr__ = _frozen_delattr
    return cls


# Builds of one record class after which its ``__init__`` is compiled. The first ``compile()`` in a
# process costs about 0.7 ms (measured: 0.70-0.74), each later one 0.05-0.15 ms; the
# generic ``__init__`` costs 0.6 us a build more than a compiled one. The tables built on import
# (rules, harness roots and effects: up to 150 builds of a class) and a one-skill check never reach
# this; findings, nodes and links built by the thousand do, early in a large run.
COMPILE_AFTER = 500


def _generic_init(cls: Any, found: dict[str, Field], frozen: bool) -> Callable[..., None]:
    """A generic ``__init__`` (the fields bound one by one, as the compiled one would), replaced
    by the compiled one once the class was built COMPILE_AFTER times."""
    fields_ = tuple(found.values())
    required = sum(f.default is _MISSING and f.default_factory is _MISSING for f in fields_)
    post = hasattr(cls, "__post_init__")
    assign = object.__setattr__ if frozen else setattr
    name = f"{cls.__qualname__}.__init__()"
    built = 0
    # Positional arguments only, the rest plain defaults (how the tables built on import call
    # their records): the values in one go, into the instance's dict where it has one.
    names = tuple(found)
    tail = None if any(f.default_factory is not _MISSING for f in fields_) else tuple(f.default for f in fields_)
    into_dict = "__slots__" not in cls.__dict__ and not any(hasattr(b, "__slots__") for b in cls.__mro__[1:-1])

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal built
        built += 1
        if built >= COMPILE_AFTER:
            cls.__init__ = _make_init(cls, found, frozen)
        if not kwargs and tail is not None and required <= len(args) <= len(names):
            values = zip(names, args + tail[len(args):], strict=True)
            if into_dict:
                self.__dict__.update(values)
            else:
                for key, value in values:
                    assign(self, key, value)
            if post:
                self.__post_init__()
            return
        if len(args) > len(fields_):
            takes = (f"{len(fields_) + 1} positional argument{'s' if fields_ else ''}" if required == len(fields_)
                     else f"from {required + 1} to {len(fields_) + 1} positional arguments")  # as Python words it
            raise TypeError(f"{name} takes {takes} but {len(args) + 1} were given")
        for key in kwargs:
            if key not in found:
                raise TypeError(f"{name} got an unexpected keyword argument '{key}'")
        for f in fields_[:len(args)]:
            if f.name in kwargs:
                raise TypeError(f"{name} got multiple values for argument '{f.name}'")
        missing = [f.name for f in fields_[len(args):required] if f.name not in kwargs]
        if missing:
            raise TypeError(f"{name} missing {_listed(missing)}")
        for i, f in enumerate(fields_):
            if i < len(args):
                value = args[i]
            elif f.name in kwargs:
                value = kwargs[f.name]
            elif f.default_factory is not _MISSING:
                value = f.default_factory()
            else:
                value = f.default
            assign(self, f.name, value)
        if post:
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _listed(names: list[str]) -> str:
    """Missing arguments as Python names them: 'a'; 'a' and 'b'; 'a', 'b', and 'c'."""
    quoted = [f"'{n}'" for n in names]
    words = quoted[0] if len(quoted) == 1 else f"{quoted[0]} and {quoted[1]}" if len(quoted) == 2 else (
        ", ".join(quoted[:-1]) + ", and " + quoted[-1])
    return f"{len(names)} required positional argument{'s' if len(names) > 1 else ''}: {words}"


def _make_init(cls: Any, found: dict[str, Field], frozen: bool) -> Callable[..., None]:
    env: dict[str, Any] = {"__r_missing": _MISSING, "__r_set": object.__setattr__}
    params = []
    body = []
    for name, f in found.items():
        value = name
        if f.default_factory is not _MISSING:
            env[f"__r_factory_{name}"] = f.default_factory
            params.append(f"{name}=__r_missing")
            value = f"__r_factory_{name}() if {name} is __r_missing else {name}"
        elif f.default is not _MISSING:
            env[f"__r_default_{name}"] = f.default
            params.append(f"{name}=__r_default_{name}")
        else:
            params.append(name)
        body.append(f"  __r_set(self, {name!r}, {value})" if frozen else f"  self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    src = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(compile(src, f"<record {cls.__qualname__}>", "exec"), env)  # noqa: S102 - source built above
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _no_key(_obj: Any) -> tuple[()]:
    return ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__record_key__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__record_key__(self))


_repr_busy: set[int] = set()  # records being rendered: one that contains itself shows "..."


def _repr(self: Any) -> str:
    busy = _repr_busy
    if id(self) in busy:
        return "..."
    busy.add(id(self))
    try:
        inside = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_repr__)
    finally:
        busy.discard(id(self))
    return f"{self.__class__.__qualname__}({inside})"


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, n) for n in self.__record_fields__]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__record_fields__, state, strict=True):
        object.__setattr__(self, name, value)
