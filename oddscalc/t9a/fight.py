"""The 9th Age: a round of close combat between two units (docs/rules.md §3.11; research notes
docs/research/t9a-combat.md): the units (`Fighter`), how they meet (`Fight`: Initiative Steps, attacks, the
combat score, Steadfast), the Break Test and the pursuit, and the rounds exactly (pmfs over both sides' Health
Points lost) and sampled (every die rolled). The query that asks it is `combat.Combat`.

A side's attacks are `t9a melee`'s (`Melee`, its stages unchanged): front-rank models with their Attack Value,
second-rank models one Supporting Attack each (Standard Height). The state both sides carry between Initiative
Steps and rounds is the Health Points each has lost; models standing are what is left of them (lost Health
Points carry from model to model, as `t9a melee --models` reads).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any

import numpy as np

from .. import pmf as pmfs
from ..dice import DiceExpression, keep_pmf
from .attacks import Melee, T9AHits

MAX_MODELS = 60
MAX_WIDTH = 10  # a front rank of 10 with Attack Value 10 and its support: 110 attacks (t9a melee takes 200)
MAX_ROUNDS = 2
MAX_STEP = 10  # Initiative Steps run from 10 down to 0; a higher Agility strikes at 10 (an open reading)
FULL_RANK = 5  # a rank of Standard Height models is full with 5 of them
MAX_RANK_BONUS = 3
CHARGE_BONUS = 1
FLANK_BONUS, REAR_BONUS = 1, 2
OUTCOMES = ("win", "draw", "health_lost", "enemy_health_lost", "break", "caught", "score")
EVENTS = ("win", "draw", "break", "caught")


class FacingBonus(str, Enum):
    """The charger's bonus in the enemy's flank or rear (rulebook, Combat Score: "+1 or +2"; an open reading)."""

    RANKED = "ranked"  # flank +1, rear +2, one more when the charger has 2 Full Ranks or more
    FLAT = "flat"  # flank +1, rear +2


class LastRank(str, Enum):
    """Whether an incomplete last rank of 5 models or more is a Full Rank (an open reading)."""

    COUNTS = "counts"
    IGNORED = "ignored"


class Pursuit(str, Enum):
    """Whether the winner pursues a broken unit (an open reading): always, or it tries to Restrain Pursuit, a
    Discipline Test, and pursues only when it fails."""

    ALWAYS = "always"
    RESTRAIN = "restrain"


class HighAgility(str, Enum):
    """Where an Agility above 10 strikes (the Initiative Steps run from 10 down; an open reading)."""

    STEP_TEN = "step-10"  # at step 10, with the others there
    FIRST = "first"  # before step 10, the higher first


@dataclass(frozen=True)
class Fighter:
    """One side's unit: its models and their profile (Standard Height, one model part)."""

    models: int
    width: int
    health: int
    attacks: int
    offensive: int
    defensive: int
    strength: int
    resilience: int
    agility: int
    discipline: int
    armour: int = 0
    ap: int = 0
    aegis: int | None = None
    standard: bool = False
    swiftstride: bool = False
    great_weapon: bool = False
    lightning_reflexes: bool = False
    spear: bool = False  # Fight in Extra Rank; +2 Agility and +1 AP in the first round, charged in its front
    extra_ranks: int = 0  # Fight in Extra Rank from other rules: one more supporting rank each
    impact: DiceExpression | None = None  # Impact Hits (X) of each front-rank model, when it charges
    last_rank: LastRank = LastRank.COUNTS

    def impact_hits(self, count: int, target: Fighter, lost: int) -> T9AHits:
        """Impact Hits (X) of its `count` front-rank models on `target` (t9a hits: at its Strength and AP)."""
        each = self.impact
        hits = DiceExpression(each.count * count, each.sides, each.modifier * count)
        return T9AHits(hits=hits, strength=self.strength, ap=self.ap, resilience=target.resilience,
                       armour=target.armour, aegis=target.aegis, health=target.health, models=target.left(lost))

    def step(self, charging: bool, top: int) -> int:
        """Its Initiative Step: its Agility (+1 Charging Momentum), at most `top`; a Great Weapon strikes at step 0,
        unless with Lightning Reflexes (which then gives no +1 to hit)."""
        if self.great_weapon and not self.lightning_reflexes:
            return 0
        return min(self.agility + (1 if charging else 0), top)

    @property
    def total(self) -> int:
        """Its Health Points in all."""
        return self.models * self.health

    def left(self, lost: Any) -> Any:
        """Models standing with `lost` Health Points lost (lost points carry from model to model)."""
        return -(-(self.total - lost) // self.health)

    def full_ranks(self, lost: Any) -> Any:
        """Full Ranks: of FULL_RANK models or more, the last one too when it still holds that many (an open
        reading); none when the unit is narrower than a full rank."""
        left = self.left(lost)
        if self.width < FULL_RANK:
            return left * 0
        return left // self.width + (left % self.width >= FULL_RANK) * (self.last_rank is LastRank.COUNTS)

    def rank_bonus(self, lost: Any) -> Any:
        """+1 for each Full Rank after the first, at most +3."""
        return np.clip(self.full_ranks(lost) - 1, 0, MAX_RANK_BONUS)

    def strikes(self, lost: int, supporting: bool, facing: int | None = None) -> int:
        """Its attacks at its Initiative Step: the front rank's Attack Value each (at most `facing` models in
        base contact, a flank or rear), the second rank's one Supporting Attack each (front facing only)."""
        left = self.left(lost)
        front = min(left, self.width, facing if facing is not None else left)
        ranks = 1 + self.extra_ranks + self.spear  # Fight in Extra Rank: one more supporting rank each
        support = min(max(left - self.width, 0), self.width * ranks) if supporting else 0
        return front * self.attacks + support * min(self.attacks, 1)

    def melee(self, count: int, target: Fighter, lost: int) -> Melee:
        """Its `count` attacks on `target` that has lost `lost` Health Points (t9a melee)."""
        return Melee(attacks=count, offensive=self.offensive, defensive=target.defensive, strength=self.strength,
                     resilience=target.resilience, armour=target.armour, ap=self.ap, aegis=target.aegis,
                     health=target.health, models=target.left(lost),
                     hit_modifier=1 if self.lightning_reflexes and not self.great_weapon else 0)


@lru_cache(maxsize=4096)
def struck_pmf(striker: Fighter, count: int, target: Fighter, lost: int, number) -> np.ndarray:
    """The pmf of the target's Health Points lost to `count` attacks (at most what it has left)."""
    room = target.total - lost
    if not count or not room:
        return pmfs.point(0, number(1))
    return _capped(striker.melee(count, target, lost).pmfs(number)["health_lost"], room, number)


def _capped(pmf: np.ndarray, room: int, number) -> np.ndarray:
    """A pmf of Health Points lost, at most `room`."""
    if len(pmf) <= room + 1:
        return pmf
    capped = pmf[:room + 1].copy()
    capped[room] += sum(pmf[room + 1:], number(0))
    return capped


@lru_cache(maxsize=1024)
def impact_pmf(charger: Fighter, front: int, target: Fighter, lost: int, number) -> np.ndarray:
    """The pmf of the target's Health Points lost to the charger's Impact Hits from `front` models."""
    room = target.total - lost
    if not front or not room or charger.impact is None:
        return pmfs.point(0, number(1))
    return _capped(charger.impact_hits(front, target, lost).pmfs(number)["health_lost"], room, number)


def two_d6(maximised: bool, number=float) -> np.ndarray:
    """2D6, Maximised (an extra die, the lowest dropped) or not: pmf by total."""
    return keep_pmf(2, 6, 1 if maximised else 0, number)


@dataclass(frozen=True)
class Fight:
    """Both sides of a combat and how they meet: the charger's facing on the charged unit."""

    charger: Fighter
    charged: Fighter
    flank: bool = False
    rear: bool = False
    facing_bonus: FacingBonus = FacingBonus.RANKED
    high_agility: HighAgility = HighAgility.STEP_TEN
    pursuit: Pursuit = Pursuit.ALWAYS

    def in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it: in the first round a Spear of the charged unit, not charging and not
        engaged in its flank or rear, has +2 Agility and +1 AP (the Spear's own +1 AP is already its --ap)."""
        if not (first_round and self.charged.spear and not (self.flank or self.rear)):
            return self
        return replace(self, charged=replace(self.charged, agility=self.charged.agility + 2, ap=self.charged.ap + 1))

    def steps(self, first_round: bool) -> list[tuple[int, tuple[bool, bool]]]:
        """(Initiative Step, (the charger strikes, the charged strikes)) from the highest; +1 Agility to the
        charger in the first round (Charging Momentum); an Agility above 10 at step 10, or first (`high_agility`)."""
        top = MAX_STEP if self.high_agility is HighAgility.STEP_TEN else MAX_STEP + 1
        mine, theirs = self.charger.step(first_round, top), self.charged.step(False, top)
        return [(step, (step == mine, step == theirs)) for step in sorted({mine, theirs}, reverse=True)]

    def impact_step(self, first_round: bool) -> bool:
        """Whether the charger's Impact Hits strike this round (the first: it is Charging), at step 10."""
        return first_round and self.charger.impact is not None

    def all_steps(self, first_round: bool) -> list[tuple[int, tuple[bool, bool], bool]]:
        """`steps`, with step 10 for the charger's Impact Hits in the first round: (step, strikes, impact)."""
        steps = self.steps(first_round)
        if self.impact_step(first_round) and all(step != MAX_STEP for step, _ in steps):
            steps = sorted(steps + [(MAX_STEP, (False, False))], key=lambda item: -item[0])
        return [(step, strikes, self.impact_step(first_round) and step == MAX_STEP) for step, strikes in steps]

    def front(self, charger_lost: int) -> int:
        """The charger's front-rank models (those with Impact Hits in base contact)."""
        return min(self.charger.left(charger_lost), self.charger.width)

    def strikes(self, charger_lost: int, charged_lost: int) -> tuple[int, int]:
        """(the charger's attacks, the charged unit's) in this state: in a flank or rear the charged unit makes
        no Supporting Attacks and fights with as many models as the charger's front rank (an open reading)."""
        behind = self.flank or self.rear
        facing = min(self.charger.left(charger_lost), self.charger.width) if behind else None
        return (self.charger.strikes(charger_lost, True),
                self.charged.strikes(charged_lost, not behind, facing))

    def scores(self, charger_lost, charged_lost, charger_before, charged_before, first_round: bool):
        """(the charger's combat score, the charged unit's): Health Points each made the other lose this round,
        the Charge +1 (first round), Rank Bonus, Standard +1, Flank +1 / Rear +2 (the charger's)."""
        facing = REAR_BONUS if self.rear else FLANK_BONUS if self.flank else 0
        if facing and self.facing_bonus is FacingBonus.RANKED:  # one more with 2 Full Ranks or more
            facing = facing + (self.charger.full_ranks(charger_lost) >= 2)
        mine = (charged_lost - charged_before + (CHARGE_BONUS if first_round else 0)
                + self.charger.rank_bonus(charger_lost) + self.charger.standard + facing)
        theirs = charger_lost - charger_before + self.charged.rank_bonus(charged_lost) + self.charged.standard
        return mine, theirs

    def steadfast(self, charger_lost, charged_lost):
        """(the charger is Steadfast, the charged unit is): more Full Ranks than the enemy; the charged unit not
        while the charger in its flank or rear has 2 Full Ranks or more (Disrupted Ranks)."""
        mine, theirs = self.charger.full_ranks(charger_lost), self.charged.full_ranks(charged_lost)
        disrupted = (self.flank or self.rear) & (mine >= 2)
        return mine > theirs, (theirs > mine) & ~np.asarray(disrupted)


def break_chance(discipline: int, penalty: int, number=float):
    """P(a Break Test fails): 2D6 above the Discipline less the penalty (no automatic pass); certain failure is
    exactly 1, in floats too (a sum of 36ths can round above it)."""
    if discipline - penalty < 2:
        return number(1)
    return sum((p for total, p in enumerate(two_d6(False, number)) if total > discipline - penalty), number(0))


def caught_chance(fleeing: Fighter, pursuing: Fighter, number=float):
    """P(the Pursuit roll equals or beats the Flee roll): 2D6 each, Maximised with Swiftstride."""
    flee, pursuit = two_d6(fleeing.swiftstride, number), two_d6(pursuing.swiftstride, number)
    at_least = np.cumsum(pursuit[::-1])[::-1]  # at_least[v] = P(pursuit >= v)
    return sum((p * at_least[v] for v, p in enumerate(flee) if p), number(0))


# --- exact ------------------------------------------------------------------------------


def round_joint(fight: Fight, charger_lost: int, charged_lost: int, first_round: bool, number) -> np.ndarray:
    """joint[charger's Health Points lost, the charged unit's] after one round's Initiative Steps from this
    state: the strikes of one step at once, from the models standing when it begins."""
    dist = np.zeros((fight.charger.total + 1, fight.charged.total + 1)) if number is float else np.full(
        (fight.charger.total + 1, fight.charged.total + 1), number(0), dtype=object)
    dist[charger_lost, charged_lost] = number(1)
    none = pmfs.point(0, number(1))
    fight = fight.in_round(first_round)
    for _, (mine, theirs), impact in fight.all_steps(first_round):
        after = dist * 0
        for c, e in zip(*np.nonzero(dist != 0)):
            ours, yours = fight.strikes(int(c), int(e))
            to_them = struck_pmf(fight.charger, ours, fight.charged, int(e), number) if mine else none
            if impact:  # the Impact Hits with the step's attacks, together at most what the unit has left
                to_them = _capped(pmfs.convolve(to_them, impact_pmf(fight.charger, fight.front(int(c)), fight.charged,
                                                                   int(e), number)), fight.charged.total - int(e), number)
            to_us = struck_pmf(fight.charged, yours, fight.charger, int(c), number) if theirs else none
            after[c:c + len(to_us), e:e + len(to_them)] += dist[c, e] * np.multiply.outer(to_us, to_them)
        dist = after
    return dist


def combat_pmfs(fight: Fight, rounds: int, number) -> dict[str, np.ndarray]:
    """The exact pmfs of a combat's outcomes, round by round from every pair of Health Points lost."""
    zero = number(0)
    tally: dict[str, dict[int, Any]] = {name: {} for name in OUTCOMES}

    def add(weight, **values) -> None:
        for name, value in values.items():
            tally[name][int(value)] = tally[name].get(int(value), zero) + weight

    states: dict[tuple[int, int], Any] = {(0, 0): number(1)}
    for round_ in range(rounds):
        first, last = round_ == 0, round_ + 1 == rounds
        following: dict[tuple[int, int], Any] = {}
        for (c0, e0), weight in states.items():
            joint = round_joint(fight, c0, e0, first, number) * weight
            for c, e in zip(*np.nonzero(joint != 0)):
                c, e, p = int(c), int(e), joint[c, e]
                ours, theirs = fight.scores(c, e, c0, e0, first)
                margin, won = abs(ours - theirs), ours > theirs
                seen = dict(health_lost=c, enemy_health_lost=e, score=margin)
                gone = fight.charger.left(c) == 0 or fight.charged.left(e) == 0
                if ours == theirs:  # both sides winners: no Break Test
                    if last or gone:
                        add(p, win=0, draw=1, caught=0, **{"break": 0}, **seen)
                    else:
                        following[(c, e)] = following.get((c, e), zero) + p
                    continue
                loser, winner = (fight.charged, fight.charger) if won else (fight.charger, fight.charged)
                steadfast = fight.steadfast(c, e)[1 if won else 0]
                fails = zero if loser.left(e if won else c) == 0 else break_chance(
                    loser.discipline, 0 if steadfast else margin, number)
                caught = caught_chance(loser, winner, number)
                if fight.pursuit is Pursuit.RESTRAIN:  # it pursues only when its Restrain Pursuit test fails
                    caught = caught * break_chance(winner.discipline, 0, number)
                add(p * fails * caught, win=won, draw=0, **{"break": 1}, caught=1, **seen)
                add(p * fails * (1 - caught), win=won, draw=0, **{"break": 1}, caught=0, **seen)
                held = p * (1 - fails)
                if last or gone:
                    add(held, win=won, draw=0, **{"break": 0}, caught=0, **seen)
                else:
                    following[(c, e)] = following.get((c, e), zero) + held
        states = following
    out = {}
    for name in OUTCOMES:
        top = max(tally[name]) if tally[name] else 0
        pmf = pmfs.array([tally[name].get(k, zero) for k in range(max(top, 1) + 1)])
        out[name] = pmf if name in EVENTS else pmfs.trim(pmf)
    return out


# --- sampled ----------------------------------------------------------------------------


def _struck_sample(rng: np.random.Generator, striker: Fighter, count: int, target: Fighter, room: np.ndarray) -> np.ndarray:
    """Each trial's Health Points the target loses to `count` attacks (t9a melee's dice), at most `room`, what
    each trial's target has left: lost points carry from model to model, so the cap is the whole unit's."""
    if not count:
        return np.zeros(len(room), dtype=np.int64)
    rolled = striker.melee(count, target, 0).sample(rng, len(room))["health_lost"]
    return np.minimum(np.asarray(rolled, dtype=np.int64), room)


def _impact_sample(rng: np.random.Generator, charger: Fighter, front: int, target: Fighter,
                   room: np.ndarray) -> np.ndarray:
    """Each trial's Health Points the target loses to the Impact Hits of `front` models (t9a hits' dice)."""
    if not front:
        return np.zeros(len(room), dtype=np.int64)
    rolled = charger.impact_hits(front, target, 0).sample(rng, len(room))["health_lost"]
    return np.minimum(np.asarray(rolled, dtype=np.int64), room)


def _states(keys: np.ndarray):
    """(key, the trials holding it) for each distinct key (one key: every trial, no sort)."""
    if len(keys) and keys.min() == keys.max():
        yield int(keys[0]), slice(None)
        return
    order = np.argsort(keys, kind="stable")
    starts = np.flatnonzero(np.diff(keys[order])) + 1
    for chunk in np.split(order, starts) if len(order) else []:
        yield int(keys[chunk[0]]), chunk


def _two_d6(rng: np.random.Generator, maximised, trials: int) -> np.ndarray:
    """Each trial's 2D6, Maximised where `maximised` (three dice, the lowest dropped)."""
    if not np.any(maximised):
        dice = rng.integers(1, 7, size=(2, trials), dtype=np.int8)
        return dice[0] + dice[1]
    dice = rng.integers(1, 7, size=(trials, 3), dtype=np.int8)
    return np.where(maximised, dice.sum(axis=1) - dice.min(axis=1), dice[:, 0] + dice[:, 1])


def combat_sample(rng: np.random.Generator, fight: Fight, rounds: int, trials: int) -> dict[str, np.ndarray]:
    """Each trial's combat: every attack rolled by t9a melee's stages, step by step, then the dice of the
    Break Test, the Flee and the Pursuit."""
    charger, charged = fight.charger, fight.charged
    lost = [np.zeros(trials, dtype=np.int32), np.zeros(trials, dtype=np.int32)]
    out = {name: np.zeros(trials, dtype=np.int64) for name in OUTCOMES}
    going = np.ones(trials, dtype=bool)
    for round_ in range(rounds):
        first = round_ == 0
        before = [0, 0] if first else [lost[0].copy(), lost[1].copy()]
        playing = np.flatnonzero(going)
        now_fight = fight.in_round(first)
        charger, charged = now_fight.charger, now_fight.charged
        for _, (mine, theirs), impact in now_fight.all_steps(first):
            now = [lost[0][playing], lost[1][playing]]  # the step's strikes come from the models standing as it begins
            codes = now[0].astype(np.int64) * (charged.total + 1) + now[1]
            if len(codes) and codes.min() == codes.max():  # one state (the first step): no sort
                keys, inverse = codes[:1], np.zeros(len(codes), dtype=np.int64)
            else:
                keys, inverse = np.unique(codes, return_inverse=True)
            table = np.array([now_fight.strikes(*divmod(int(key), charged.total + 1)) for key in keys],
                             dtype=np.int64).reshape(-1, 2)
            strikes = table[inverse.ravel()].T  # each trial's attacks of each side
            for side, striking in ((0, mine), (1, theirs)):
                if not striking:
                    continue
                striker, target = (charger, charged) if side == 0 else (charged, charger)
                for count, at in _states(strikes[side]):
                    chosen = playing[at] if len(playing) < trials or not isinstance(at, slice) else at
                    lost[1 - side][chosen] += _struck_sample(rng, striker, count, target,
                                                             target.total - now[1 - side][at]).astype(np.int32)
            if impact:  # the charger's Impact Hits, with its attacks of this step at most what the unit has left
                fronts = np.minimum(charger.left(now[0]), charger.width)
                for front, at in _states(fronts):
                    chosen = playing[at]
                    room = charged.total - lost[1][chosen]
                    lost[1][chosen] += _impact_sample(rng, charger, front, charged, room).astype(np.int32)
        ours, theirs = fight.scores(lost[0], lost[1], before[0], before[1], first)
        won, tied = ours > theirs, ours == theirs
        margin = np.abs(ours - theirs)
        np.copyto(out["win"], won, where=going)
        np.copyto(out["draw"], tied, where=going)
        np.copyto(out["score"], margin, where=going)
        # the losers' Break Tests, worked out only where one is taken
        tests = np.flatnonzero(going & ~tied)
        mine_lost, their_lost, won_t = lost[0][tests], lost[1][tests], won[tests]
        tests = tests[np.where(won_t, charged.left(their_lost), charger.left(mine_lost)) > 0]
        mine_lost, their_lost, won_t = lost[0][tests], lost[1][tests], won[tests]
        steadfast = fight.steadfast(mine_lost, their_lost)
        penalty = np.where(np.where(won_t, steadfast[1], steadfast[0]), 0, margin[tests])
        discipline = np.where(won_t, charged.discipline, charger.discipline)
        broke = np.zeros(trials, dtype=bool)
        broke[tests] = _two_d6(rng, False, len(tests)) > discipline - penalty
        fled = np.flatnonzero(broke)
        won_f = won[fled]
        caught = (_two_d6(rng, np.where(won_f, charger.swiftstride, charged.swiftstride), len(fled))
                  >= _two_d6(rng, np.where(won_f, charged.swiftstride, charger.swiftstride), len(fled)))
        if fight.pursuit is Pursuit.RESTRAIN:  # the winner pursues only when its Restrain Pursuit test fails
            caught &= _two_d6(rng, False, len(fled)) > np.where(won_f, charger.discipline, charged.discipline)
        out["break"][fled] = 1
        out["caught"][fled[caught]] = 1
        gone = (charger.left(lost[0]) == 0) | (charged.left(lost[1]) == 0)
        going = going & ~broke & ~gone
    out["health_lost"], out["enemy_health_lost"] = lost[0].astype(np.int64), lost[1].astype(np.int64)
    return out
