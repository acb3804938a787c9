"""Toy: a fourth game of the tests' own (tests/test_contract.py). It is its package and a line of the registry,
nothing else: roll some D6 and count the sixes."""

from oddscalc.core.lazy import exports

_WHERE = {"Sixes": "attacks"}
EXPORTS = ("Sixes",)  # what `oddscalc` offers at its top level
__getattr__, __dir__ = exports(__name__, _WHERE)
