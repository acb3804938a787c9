"""The 9th Age cases of the benchmark: attacks and plain numpy baselines of the same attacks."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import Combat, Melee
from ..bench.core import Case, ExactCase, count_outcomes


def baseline_melee(rng: np.random.Generator, trials: int) -> np.ndarray:
    """20 attacks 4+ to hit, 3+ to wound, 5+ armour, Aegis 5+, Multiple Wounds (D3) vs 2 Health: plain numpy."""
    hit = rng.integers(1, 7, size=(trials, 20)) >= 4
    wounded = hit & (rng.integers(1, 7, size=(trials, 20)) >= 3)
    unsaved = wounded & (rng.integers(1, 7, size=(trials, 20)) < 5) & (rng.integers(1, 7, size=(trials, 20)) < 5)
    taken = np.minimum((rng.integers(1, 7, size=(trials, 20)) + 1) // 2, 2)  # D3, capped at 2 Health Points
    return count_outcomes((unsaved * taken).sum(axis=1), hit.sum(axis=1), wounded.sum(axis=1), unsaved.sum(axis=1))


def _kills(rng: np.random.Generator, attacks: np.ndarray, hit: int, wound: int, save: int | None) -> np.ndarray:
    """Each trial's unsaved wounds of `attacks` dice (one Health Point each): to hit, to wound, armour (None: no
    save, no die)."""
    most = int(attacks.max(initial=0))
    rolled = rng.integers(1, 7, size=(2 if save is None else 3, len(attacks), most), dtype=np.int8)
    live = np.arange(most) < attacks[:, None]
    kept: np.ndarray = (live & (rolled[0] >= hit) & (rolled[1] >= wound)
                        & (save is None or rolled[-1] < save)).sum(axis=1)
    return kept


def ranks(left: np.ndarray, width: int) -> np.ndarray:
    """Full Ranks of `left` models `width` wide (an incomplete last rank of 5 or more counts)."""
    return np.asarray(left // width + (left % width >= 5))


def baseline_combat(rng: np.random.Generator, trials: int) -> np.ndarray:
    """5 knights (A1, 3+ to hit, 2+ to wound vs armour 1: 6+ save) charge 20 spearmen 5 wide with a standard
    (4+ to hit, 4+ to wound vs armour 5: 2+ save), one round: plain numpy, step by step, then the scores, the
    Break Test (Steadfast) and the pursuit."""
    killed = np.minimum(_kills(rng, np.full(trials, 5), 3, 2, 6), 20)  # step 4: the knights strike first
    spearmen = 20 - killed
    support = np.minimum(np.maximum(spearmen - 5, 0), 5)
    lost = np.minimum(_kills(rng, np.minimum(spearmen, 5) + support, 4, 4, 2), 5)  # step 3: what is left strikes
    ours = killed + 1 + np.clip(ranks(5 - lost, 5) - 1, 0, 3)
    theirs = lost + np.clip(ranks(spearmen, 5) - 1, 0, 3) + 1
    won = ours > theirs
    steadfast = np.where(won, ranks(spearmen, 5) > ranks(5 - lost, 5), ranks(5 - lost, 5) > ranks(spearmen, 5))
    test = rng.integers(1, 7, size=trials) + rng.integers(1, 7, size=trials)
    broke = (ours != theirs) & (test > 7 - np.where(steadfast, 0, np.abs(ours - theirs)))
    caught = broke & (rng.integers(1, 7, size=trials) + rng.integers(1, 7, size=trials) >= rng.integers(
        1, 7, size=trials) + rng.integers(1, 7, size=trials))
    return count_outcomes(won * 1, killed, lost, broke * 1, caught * 1, np.abs(ours - theirs), (ours == theirs) * 1)


def cases() -> list[Case]:
    """The 9th Age cases."""
    melee = Melee(attacks=20, offensive=4, defensive=4, strength=4, resilience=3, armour=2, aegis=5,
                  multiple_wounds="d3", health=2)
    combat = Combat(models=5, width=5, attacks=1, offensive=4, defensive=4, strength=5, resilience=3, agility=3,
                    discipline=7, armour=5, enemy_models=20, enemy_width=5, enemy_attacks=1, enemy_offensive=3,
                    enemy_defensive=3, enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=7,
                    enemy_armour=1, enemy_standard=True)
    return [Case("t9a melee 20 attacks 4+/3+/5+ save/Aegis 5+/MW D3 vs 2 health", melee, baseline_melee, 100, 5.0),
            Case("t9a combat 5 knights charge 20 spearmen, one round", combat, baseline_combat, 60, 5.0)]


# --- exact, against icepool (bench/exact.py) ---------------------------------------


def _melee(ip: Any) -> Any:
    # 4+ to hit, 3+ to wound, 5+ armour and Aegis 5+ both failed, Multiple Wounds (D3) capped at 2 Health Points
    def one(hit: int, wound: int, armour: int, aegis: int, multiple: int) -> int:
        return min((multiple + 1) // 2, 2) if hit >= 4 and wound >= 3 and armour < 5 and aegis < 5 else 0

    return 20 @ ip.map(one, ip.d6, ip.d6, ip.d6, ip.d6, ip.d6)


def exact_cases() -> list[ExactCase]:
    """The exact comparison with icepool: a sequence of rolls."""
    return [ExactCase("t9a melee, 20 attacks, Multiple Wounds (D3)",
                      Melee(attacks=20, offensive=4, defensive=4, strength=4, resilience=3, armour=2, aegis=5,
                            multiple_wounds="d3", health=2), "health_lost", _melee)]


# who strikes whom, and the rolls they need (O3 D3 S3 R3 units, O5 D5 S4 R4 characters; no armour)
NEEDS = {("unit", "unit"): (4, 4), ("unit", "hero"): (4, 5), ("hero", "unit"): (3, 3), ("hero", "hero"): (4, 4)}


def baseline_fight(rng: np.random.Generator, trials: int, models: int = 20) -> np.ndarray:
    """The fight to the end (`fight_arrays`), counted as the engine counts its outcomes."""
    return count_outcomes(*fight_arrays(rng, trials, models))


def fight_arrays(rng: np.random.Generator, trials: int, models: int = 20) -> tuple[np.ndarray, ...]:
    """`models` a side (O3 D3 S3 R3, 5 wide, Discipline 7) with a character each (A3 O5 D5 S4 R4 I5 H2) in a Duel,
    fought to the end (10 rounds at most): plain numpy, round by round, step by step, every die rolled (the bench's
    `hero_fight`). The characters strike only each other while both stand (up to 3 Health Points past the last
    count as Overkill); the rank and file strike the rank and file, then a character out of the Duel."""
    rf = np.full((2, trials), models, dtype=np.int64)  # rank and file standing, each side
    hurt = np.zeros((2, trials), dtype=np.int64)  # each character's Health Points lost (Overkill included)
    going, win = np.ones(trials, dtype=bool), np.zeros(trials, dtype=np.int64)
    for round_ in range(10):
        first = round_ == 0
        rf_before, hurt_before = rf.copy(), hurt.copy()
        steps = ([[(0, "hero")], [(1, "hero")], [(0, "unit")], [(1, "unit")]] if first
                 else [[(0, "hero"), (1, "hero")], [(0, "unit"), (1, "unit")]])
        for step in steps:
            alive = hurt < 2
            duel = alive[0] & alive[1]
            to_rf, to_hero = np.zeros((2, trials), dtype=np.int64), np.zeros((2, trials), dtype=np.int64)
            for side, kind in step:
                foe = 1 - side
                if kind == "hero":
                    attacks = 3 * alive[side] * going
                else:
                    contact = np.maximum(np.minimum(rf[side], 5 - alive[side]), 0)
                    attacks = (contact + np.minimum(np.maximum(rf[side] - (5 - alive[side]), 0), 5)) * going
                at_hero = (duel if kind == "hero" else False) | ((rf[foe] == 0) & alive[foe] & ~duel)
                at_rf = ~at_hero & (rf[foe] > 0) & ~(duel & (kind == "hero"))
                for target, aimed, into in (("unit", at_rf, to_rf), ("hero", at_hero, to_hero)):
                    hit, wound = NEEDS[kind, target]
                    into[foe] += _kills(rng, attacks * aimed, hit, wound, None)
            room = np.where(hurt < 2, 2 - hurt + np.where(duel, 3, 0), 0)
            rf, hurt = rf - np.minimum(to_rf, rf), hurt + np.minimum(to_hero, room)
        alive = hurt < 2
        standing = (rf > 0) | alive
        scored = (rf_before - rf) + (hurt - hurt_before)  # what each side lost, Overkill included
        ranks = (rf + alive) // 5
        bonus = np.clip(ranks - 1, 0, 3) * (standing[0] & standing[1])
        ours, theirs = scored[1] + first + bonus[0], scored[0] + bonus[1]
        alone = standing[0] != standing[1]
        won = np.where(alone, standing[0], ours > theirs)
        win = np.where(going, won, win)
        lost = ~alone & (ours != theirs)
        loser = np.where(won, 1, 0)
        steadfast = ranks[loser, np.arange(trials)] > ranks[1 - loser, np.arange(trials)]
        test = rng.integers(1, 7, size=trials) + rng.integers(1, 7, size=trials)
        broke = going & lost & (test > 7 - np.where(steadfast, 0, np.abs(ours - theirs)))
        hurt = np.minimum(hurt, 2)  # a round's Overkill counts in it only
        going = going & ~broke & standing[0] & standing[1]
    return win, models - rf[1] + hurt[1], models - rf[0] + hurt[0]  # (win, enemy_health_lost, health_lost)
