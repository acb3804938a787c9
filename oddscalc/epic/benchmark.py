"""Epic Armageddon cases of the benchmark: attacks and plain numpy baselines of the same attacks."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import Assault, Barrage, EpicShoot
from ..bench.core import Case, ExactCase, count_outcomes


def baseline_shoot(rng: np.random.Generator, trials: int) -> np.ndarray:
    """12 shots AP 4+ at 6 units, armour 4+, crossfire: plain numpy, stage by stage."""
    hit = rng.integers(1, 7, size=(trials, 12)) >= 4
    saved = rng.integers(1, 7, size=(trials, 12)) >= 5  # 4+ armour at −1 for crossfire
    unit = (np.cumsum(hit, axis=1) - 1) % 6  # the j-th hit goes to unit j mod 6
    failed = hit & ~saved
    kills = sum((failed & (unit == u)).any(axis=1) for u in range(6)).astype(np.int64)
    markers = 1 + kills + (kills > 0)
    broken = markers >= 6 - kills
    return count_outcomes(kills, hit.sum(axis=1), markers, broken)


def baseline_barrage(rng: np.random.Generator, trials: int) -> np.ndarray:
    """8 BP (AP 4+, 1 extra BM) at 5 units, armour 4+: plain numpy, stage by stage."""
    hit = rng.integers(1, 7, size=(trials, 5)) >= 4
    saved = rng.integers(1, 7, size=(trials, 5)) >= 4
    kills = (hit & ~saved).sum(axis=1)
    markers = 1 + 1 + kills
    broken = markers >= 5 - kills
    return count_outcomes(kills, markers, broken)


def baseline_war_engines(rng: np.random.Generator, trials: int) -> np.ndarray:
    """10 shots AT 4+ at 2 Warhounds (DC 3, 2 void shields each, 5+ reinforced; a critical hit is one more point,
    which rolls again): plain numpy, hit by hit."""
    hit = rng.integers(1, 7, size=(trials, 10)) >= 4
    failed = ~((rng.integers(1, 7, size=(trials, 10)) >= 5) | (rng.integers(1, 7, size=(trials, 10)) >= 5))
    shields, damage = np.full((trials, 2), 2), np.zeros((trials, 2), dtype=np.int64)
    order, rows = np.cumsum(hit, axis=1) - 1, np.arange(trials)  # the j-th hit goes to Warhound ⌊j / 3⌋ mod 2
    for shot in range(10):
        engine = (order[:, shot] // 3) % 2
        live = hit[:, shot] & (damage[rows, engine] < 3)
        up = live & (shields[rows, engine] > 0)
        shields[rows[up], engine[up]] -= 1
        rolling = live & ~up & failed[:, shot]
        while rolling.any():  # a point of damage; on a 6 one more, which rolls again
            damage[rows[rolling], engine[rolling]] += 1
            rolling &= (rng.integers(1, 7, size=trials) == 6) & (damage[rows, engine] < 3)
    kills = (damage >= 3).sum(axis=1)
    lost = damage.sum(axis=1)
    markers = 1 + lost
    broken = (markers >= 3 * (2 - kills)) | (kills == 2)
    return count_outcomes(kills, lost, (2 - shields).sum(axis=1), hit.sum(axis=1), markers, broken)


def _assault_kills(rng: np.random.Generator, dice: np.ndarray, to_hit: int, units: np.ndarray, save: int,
                   most: int) -> np.ndarray:
    """Units destroyed by `dice` (per trial) at `to_hit` on `units` (per trial), saved on `save`+: each hit
    j on unit j mod units, a unit that fails any save destroyed."""
    trials = len(dice)
    hit = (rng.integers(1, 7, size=(trials, most)) >= to_hit) & (np.arange(most) < dice[:, None])
    failed = hit & (rng.integers(1, 7, size=(trials, most)) < save)
    unit = (np.cumsum(hit, axis=1) - 1) % np.maximum(units, 1)[:, None]
    return np.asarray(sum((failed & (unit == u)).any(axis=1) & (u < units) for u in range(most))).astype(np.int64)


def baseline_assault(rng: np.random.Generator, trials: int) -> np.ndarray:
    """6 Tactical units (CC 4+, armour 4+) assault 8 Ork Boyz (CC 4+, armour 6+), all in contact, at most 3
    rounds, 2D6 each: plain numpy, round by round."""
    marines, orks = np.full(trials, 6), np.full(trials, 8)
    win, going = np.zeros(trials, dtype=np.int64), np.ones(trials, dtype=bool)
    killed, lost = np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)
    for _ in range(3):
        kills = _assault_kills(rng, marines * going, 4, orks, 6, 6)
        losses = _assault_kills(rng, orks * going, 4, marines, 4, 8)
        marines, orks, killed, lost = marines - losses, orks - kills, killed + kills, lost + losses
        win[going & (orks == 0) & (marines > 0)] = 1
        fight = going & (orks > 0) & (marines > 0)
        ours = rng.integers(1, 7, size=trials) + rng.integers(1, 7, size=trials) + killed + (marines > orks) + (
            marines > 2 * orks) + 1
        theirs = rng.integers(1, 7, size=trials) + rng.integers(1, 7, size=trials) + lost + (orks > marines) + (
            orks > 2 * marines) + 1
        win[fight & (ours > theirs)] = 1
        orks = np.where(fight & (ours > theirs), np.maximum(orks - (ours - theirs), 0), orks)
        marines = np.where(fight & (ours < theirs), np.maximum(marines - (theirs - ours), 0), marines)
        going = fight & (ours == theirs)
    return count_outcomes(win, 8 - orks, 6 - marines)


def cases() -> list[Case]:
    """The Epic Armageddon cases."""
    return [
        Case("epic shoot 12 shots AP 4+ at 6 units, armour 4+, crossfire",
             EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True), baseline_shoot, 24, 5.0),
        Case("epic barrage 8 BP at 5 units, armour 4+", Barrage(bp=8, units=5, armour=4), baseline_barrage, 10, 5.0),
        Case("epic shoot 10 shots AT 4+ at 2 Warhounds (DC 3, 2 shields)",
             EpicShoot(shots=10, to_hit=4, war_engines=2, damage_capacity=3, shields=2, armour=5, reinforced=True,
                       critical="damage"), baseline_war_engines, 30, 5.0),
        Case("epic assault 6 Tactical units against 8 Ork Boyz, all in contact",
             Assault(units=6, cc=4, ff=3, armour=4, enemy_units=8, enemy_cc=4, enemy_ff=6, enemy_armour=6),
             baseline_assault, 40, 6.0),
    ]


# --- exact, against icepool (bench/exact.py) ---------------------------------------


def _epic(ip: Any) -> Any:
    hits = 12 @ ip.d6.map(lambda face: int(face >= 4))

    def kills(h: int) -> Any:  # §2.3: h mod 6 units take ⌈h/6⌉ hits; a unit with k hits dies with 1 - (1/3)^k
        #                          (5+ saves)
        def unit(k: int) -> Any:
            return ip.Die({0: 1, 1: 3**k - 1}) if k else ip.Die([0])

        return (h % 6) @ unit(h // 6 + 1) + (6 - h % 6) @ unit(h // 6)

    return hits.map(kills)


def exact_cases() -> list[ExactCase]:
    """The exact comparison with icepool: hit allocation."""
    return [ExactCase("epic 12 shots on 6 units, crossfire (allocation)",
                      EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True), "kills", _epic)]
