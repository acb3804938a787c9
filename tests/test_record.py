"""`core/record.py`: a record means what a frozen dataclass means (equality, hash, repr, freezing, replace, pickle),
class shape by class shape, with its `__eq__`, `__hash__` and `__repr__` shared instead of written for each class."""

import copy
import dataclasses
import math
import pickle
from dataclasses import field

import pytest

from oddscalc.core.record import record


def twins(body: dict, bases: tuple = (), **options):
    """The same class made both ways: by `record` and by `dataclass(frozen=True)`."""
    made = []
    for how in (lambda cls: record(**options)(cls) if options else record(cls),
                lambda cls: dataclasses.dataclass(frozen=True, **options)(cls)):
        made.append(how(type("Shape", bases, dict(body))))
    return made


SHAPES = {
    "none": ({"__annotations__": {}}, [()]),
    "one": ({"__annotations__": {"a": int}}, [(1,), (2,), (math.nan,)]),
    "two": ({"__annotations__": {"a": int, "b": str}, "b": "x"}, [(1,), (1, "y"), (2, "x")]),
    "not compared": ({"__annotations__": {"a": int, "b": int}, "b": field(default=0, compare=False)},
                     [(1, 5), (1, 6), (2, 5)]),
    "hash of one": ({"__annotations__": {"a": int, "b": int}, "b": field(default=0, hash=False)},
                    [(1, 5), (1, 6), (3, 5)]),
    "hidden": ({"__annotations__": {"a": int, "b": int}, "b": field(default=0, repr=False)}, [(1, 2), (1, 3)]),
    "factory": ({"__annotations__": {"a": tuple}, "a": field(default_factory=tuple)}, [(), ((1, 2),)]),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_record_compares_hashes_and_shows_as_a_frozen_dataclass_does(shape):
    body, argument_sets = SHAPES[shape]
    ours, theirs = twins(body)
    values = [(ours(*args), theirs(*args)) for args in argument_sets]
    for mine, dataclass_one in values:
        assert repr(mine) == repr(dataclass_one)
        assert hash(mine) == hash(dataclass_one)
        for other_mine, other_theirs in values:
            assert (mine == other_mine) == (dataclass_one == other_theirs)
            assert (mine != other_mine) == (dataclass_one != other_theirs)
        assert mine != dataclass_one and mine.__eq__(dataclass_one) is NotImplemented  # another class: never equal
        assert dataclasses.replace(mine) == mine and copy.copy(mine) == mine


@record
class Pickled:
    a: int
    b: tuple = ()


def test_a_record_pickles_and_copies():
    value = Pickled(1, (2, 3))
    assert pickle.loads(pickle.dumps(value)) == value == copy.deepcopy(value)
    assert pickle.loads(pickle.dumps(value)) != Pickled(1)


def test_a_record_s_eq_hash_and_repr_are_shared_not_made_for_each_class():
    first, _ = twins({"__annotations__": {"a": int}})
    second, _ = twins({"__annotations__": {"b": str, "c": int}})
    for name in ("__eq__", "__hash__", "__repr__"):
        assert getattr(first, name) is getattr(second, name) is getattr(Pickled, name)


def test_a_record_is_frozen_and_a_dataclass():
    ours, _ = twins({"__annotations__": {"a": int}})
    value = ours(1)
    assert dataclasses.is_dataclass(value) and [each.name for each in dataclasses.fields(value)] == ["a"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.a


def test_a_subclass_compares_its_own_fields_and_never_equals_its_base():
    base, _ = twins({"__annotations__": {"a": int}})
    child = record(type("Child", (base,), {"__annotations__": {"b": int}}))
    assert child(1, 2) == child(1, 2) and child(1, 2) != child(1, 3) and child(1, 2) != base(1)
    assert repr(child(1, 2)) == "Child(a=1, b=2)" and hash(child(1, 2)) == hash((1, 2))


def test_methods_a_class_writes_are_kept_and_a_hash_python_cleared_is_made():
    def __eq__(self, other):
        return True

    def __repr__(self):
        return "mine"

    ours, theirs = twins({"__annotations__": {"a": int}, "__eq__": __eq__, "__repr__": __repr__})
    assert (ours(1) == ours(2), repr(ours(1))) == (theirs(1) == theirs(2), repr(theirs(1))) == (True, "mine")
    assert hash(ours(1)) == hash(theirs(1)) == hash((1,))  # `__eq__` written: Python set __hash__ None; remade
    explicit = {"__annotations__": {"a": int}, "__hash__": lambda self: 7}
    ours, theirs = twins(explicit)
    assert hash(ours(1)) == hash(theirs(1)) == 7


def test_no_eq_compares_by_identity_and_options_pass_to_dataclasses():
    ours, theirs = twins({"__annotations__": {"a": int}}, eq=False)
    first = ours(1)
    assert first != ours(1) and first == first and hash(first) == object.__hash__(first)
    assert repr(first) == repr(theirs(1))
    ours, theirs = twins({"__annotations__": {"a": int, "b": int}, "b": 0}, kw_only=True)
    with pytest.raises(TypeError):
        ours(1)
    assert ours(a=1) == ours(a=1, b=0) and repr(ours(a=1)) == repr(theirs(a=1))
    ours, _ = twins({"__annotations__": {"a": int}, "__init__": lambda self: object.__setattr__(self, "a", 3)},
                    init=False)
    assert ours().a == 3


def test_a_record_that_holds_itself_shows_as_a_dataclass_does():
    ours, theirs = twins({"__annotations__": {"a": list}})
    mine, dataclass_one = ours([]), theirs([])
    mine.a.append(mine)
    dataclass_one.a.append(dataclass_one)
    assert repr(mine) == repr(dataclass_one) == "Shape(a=[...])"
