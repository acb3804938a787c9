"""The public API: `from oddscalc import ...`, seeds the way numpy takes them, attacks
that write their own query, and cell streams keyed by the attack's non-default fields."""

import dataclasses

import numpy as np
import pytest

import oddscalc
from oddscalc.studies import cells
from oddscalc.core import engine
from oddscalc.dust import WeaponLine
from oddscalc.epic import Barrage, EpicShoot


def test_every_public_name_imports():
    for name in oddscalc.__all__:
        assert getattr(oddscalc, name) is not None, name
    assert oddscalc.EpicShoot is EpicShoot and oddscalc.run is engine.run
    with pytest.raises(AttributeError):
        oddscalc.no_such_name  # noqa: B018


def test_the_docstring_example_runs():
    result = oddscalc.run(oddscalc.EpicShoot(shots=12, to_hit="4+", units=6, armour="4+"), trials=10**4, seed=1)
    assert result["kills"].trials == 10**4 and 0 < result["kills"].mean < 6


def test_seeds_the_way_numpy_takes_them():
    attack = WeaponLine(6)
    by_int = engine.run(attack, trials=10**4, seed=5)
    assert by_int.seed == 5
    by_sequence = engine.run(attack, trials=10**4, seed=np.random.SeedSequence(5))
    assert by_sequence["damage"] == by_int["damage"] and by_sequence.seed == 5
    generator = np.random.default_rng(5)
    first, second = engine.run(attack, trials=10**4, seed=generator), engine.run(attack, trials=10**4, seed=generator)
    assert first["damage"] != second["damage"]  # a Generator gives a new child stream each time
    assert first.seed is None  # no single number reproduces a spawned stream
    again = np.random.default_rng(5)
    assert engine.run(attack, trials=10**4, seed=again)["damage"] == first["damage"]


def test_a_big_seed_is_kept_exactly():
    seed = 1346791341729732557  # above 2**53: a float would round it
    result = engine.run(WeaponLine(6), trials=1000, seed=seed)
    assert result.seed == seed and engine.run(WeaponLine(6), trials=1000, seed=seed)["damage"] == result["damage"]


@pytest.mark.parametrize("seed", [-1, 2**128, 1.5, "7", True])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises(oddscalc.InputError) as error:
        engine.run(WeaponLine(2), trials=100, seed=seed)
    assert error.value.name == "seed"


def test_an_attack_writes_its_query_and_its_key():
    shoot = EpicShoot(shots=12, to_hit=4, units=6, armour="4+", crossfire=True)
    assert shoot.query() == "oddscalc epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --crossfire"
    assert shoot.key() == "epic shoot armour=4+ crossfire=true shots=12 to_hit=4+ units=6"
    assert Barrage(bp=6, formation=10, armour=None).query() == "oddscalc epic barrage --bp 6 --armour none " \
                                                               "--formation 10"


def test_adding_a_defaulted_field_changes_no_stream():
    """A cell's stream comes from its non-default fields: a new field with a default reseeds nothing."""

    @dataclasses.dataclass(frozen=True)
    class Later(WeaponLine):  # the same attack, as a later version with one more option
        new_option: int = 0

    old, new = WeaponLine(4, sustained=True), Later(4, sustained=True)
    assert new.key() == old.key() == "dust attack dice=4 sustained=true"
    assert cells.cell_seed(7, new) == cells.cell_seed(7, old)
    assert cells.run_cells([new], trials=10**4, seed=7)[0][0]["damage"] == \
        cells.run_cells([old], trials=10**4, seed=7)[0][0]["damage"]
    assert cells.cell_seed(7, Later(4, sustained=True, new_option=1)) != cells.cell_seed(7, old)


def test_exact_fractions_are_plain_python_fractions():
    """A library user's exact rationals: a tuple of Fractions, P(0) first (not a numpy object array)."""
    from fractions import Fraction

    from oddscalc import EpicShoot

    broken = EpicShoot(shots=2, to_hit=4, units=2, armour=4).exact(fractions=True)["broken"]
    assert type(broken) is tuple and all(type(p) is Fraction for p in broken)
    assert broken == (Fraction(9, 16), Fraction(7, 16))  # 2 markers break it: under fire, and one kill (1 - (3/4)²)
