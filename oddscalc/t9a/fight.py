"""The 9th Age: a round of close combat between two units (docs/rules.md §3.11; research notes
docs/research/t9a-combat.md): how they meet (`Fight`: Initiative Steps, what strikes at each, the combat score,
Steadfast), the pursuit, and the rounds exactly (pmfs over both sides' Health Points lost) and sampled (every die
rolled). The units are `fighter.py`'s; the query that asks it is `combat.Combat`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import pmf as pmfs
from ..attack import Attack, read_whole
from .fighter import MAX_RANK_BONUS, Fighter, break_chance, capped, lost_pmf, two_d6

MAX_ROUNDS = 10  # rounds fought at most (--rounds end: until a side breaks, flees or is destroyed, or these)
MAX_STEP = 10  # Initiative Steps run from 10 down to 0; a higher Agility strikes at 10 (an open reading)
CHARGE_BONUS = 1
FLANK_BONUS, REAR_BONUS = 1, 2
OUTCOMES = ("win", "draw", "health_lost", "enemy_health_lost", "break", "caught", "score", "enemy_break",
            "enemy_caught", "rounds")
EVENTS = ("win", "draw", "break", "caught", "enemy_break", "enemy_caught")


def read_rounds(text: str) -> int:
    """`--rounds`: a whole number, or `end`: MAX_ROUNDS, the combat fought until a side breaks, flees or is
    destroyed, or the cap (docs/rules.md §3.11)."""
    return MAX_ROUNDS if str(text).strip().lower() == "end" else read_whole(text, "rounds")


class FacingBonus(str, Enum):
    """The charger's bonus in the enemy's flank or rear (rulebook, Combat Score: "+1 or +2"; an open reading)."""

    RANKED = "ranked"  # flank +1, rear +2, one more when the charger has 2 Full Ranks or more
    FLAT = "flat"  # flank +1, rear +2


class ChargeBonus(str, Enum):
    """Who gets the Charge +1 to its combat score (rulebook, Combat Score: "each side with one or more Charging
    models"; an open reading): the side that charged, whatever is left of it, or only while one of its models
    stands (it matters when both units are wiped out at the same Initiative Step: the scores then decide)."""

    SIDE = "side"
    MODELS = "models"


class Pursuit(str, Enum):
    """Whether the winner pursues a broken unit (an open reading): always, or it tries to Restrain Pursuit, a
    Discipline Test, and pursues only when it fails."""

    ALWAYS = "always"
    RESTRAIN = "restrain"


class HighAgility(str, Enum):
    """Where an Agility above 10 strikes (the Initiative Steps run from 10 down; an open reading)."""

    STEP_TEN = "step-10"  # at step 10, with the others there
    FIRST = "first"  # before step 10, the higher first


class MountMomentum(str, Enum):
    """Whether a charging mount has Charging Momentum's +1 Agility too (an open reading: the army books' texts that
    name it speak of models, not of parts)."""

    ALL = "all"  # every model part of a charging model
    RIDER = "rider"  # the model's own part only


class FlankModels(str, Enum):
    """How many models of a unit charged in its flank or rear fight back (an open reading: the rulebook says
    those in base contact, and the table decides how many touch)."""

    MATCHED = "matched"  # as many as the charger's front rank, at most its own front rank
    EDGE = "edge"  # those on the engaged edge: one a rank in the flank, its last rank's in the rear; at most the
    #                charger's front rank


class Blow(NamedTuple):
    """What strikes at an Initiative Step: a side (0 the charger, 1 the charged unit) and its model part's
    attacks ("melee", `part` its index), Impact Hits or Stomp Attacks."""

    side: int
    kind: str
    part: int = 0


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
    flank_models: FlankModels = FlankModels.MATCHED
    mount_momentum: MountMomentum = MountMomentum.ALL
    charge_bonus: ChargeBonus = ChargeBonus.SIDE

    @property
    def units(self) -> tuple[Fighter, Fighter]:
        return self.charger, self.charged

    def in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it: in the first round the charger's own attacks have their charge bonus, and a
        Spear of the charged unit, not charging and not engaged in its flank or rear, has +2 Agility and +1 AP (the
        Spear's own +1 AP is already its --ap); in a later round no one has Hatred (its re-rolls are the first
        round's)."""
        if not first_round:
            charger, charged = (replace(unit, attributes=tuple(a for a in unit.attributes if a != "hatred"))
                                for unit in self.units)
            return replace(self, charger=charger, charged=charged)
        fight = replace(self, charger=self.charger.charging()) if any(self.charger.charge) else self
        if self.charged.spear and not (self.flank or self.rear):
            fight = replace(fight, charged=replace(self.charged, agility=self.charged.agility + 2,
                                                   ap=self.charged.ap + 1))
        return fight

    def schedule(self, first_round: bool) -> list[tuple[int, tuple[Blow, ...]]]:
        """(Initiative Step, what strikes at it) from the highest: each part at its Agility (+1 to the charger's in
        the first round, Charging Momentum; an Agility above 10 at step 10, or first by `high_agility`), the
        charger's Impact Hits at step 10 of the first round, Stomp Attacks at step 0 on a stompable enemy."""
        top = MAX_STEP if self.high_agility is HighAgility.STEP_TEN else MAX_STEP + 1
        blows: list[tuple[int, Blow]] = []
        for side, (unit, enemy) in enumerate(((self.charger, self.charged), (self.charged, self.charger))):
            charging = first_round and side == 0
            blows += [(part.step(charging and (not index or self.mount_momentum is MountMomentum.ALL), top),
                       Blow(side, "melee", index)) for index, part in enumerate(unit.parts)]
            if charging and unit.impact is not None:
                blows.append((MAX_STEP, Blow(side, "impact")))
            if unit.stomp is not None and enemy.stompable():
                blows.append((0, Blow(side, "stomp")))
        return [(step, tuple(blow for at, blow in blows if at == step))
                for step in sorted({step for step, _ in blows}, reverse=True)]

    def facing(self, charger_lost: int, charged_lost: int) -> int | None:
        """How many of the charged unit's models can be in base contact: all its front rank's when charged in its
        front (None), else by `flank_models`."""
        if not (self.flank or self.rear):
            return None
        front = self.charger.in_contact(charger_lost)
        if self.flank_models is FlankModels.MATCHED:
            return front
        left, width = self.charged.left(charged_lost), self.charged.width
        edge = -(-left // width) if self.flank else (left % width or width)
        return min(edge, front)

    def count(self, blow: Blow, charger_lost: int, charged_lost: int) -> int:
        """A blow's attacks (melee) or models making it (Impact Hits, Stomp Attacks) in this state: in a flank or
        rear the charged unit makes no Supporting Attacks."""
        unit, lost = self.units[blow.side], (charger_lost, charged_lost)[blow.side]
        facing = self.facing(charger_lost, charged_lost) if blow.side else None
        if blow.kind != "melee":
            return unit.in_contact(lost, facing)
        return unit.strikes(unit.parts[blow.part], lost, blow.side == 0 or facing is None, facing)

    def attack(self, blow: Blow, count: int, target_lost: int) -> Attack:
        """The blow's `count` attacks (or models' automatic hits) on the other side, which has lost `target_lost`."""
        unit, target = self.units[blow.side], self.units[1 - blow.side]
        if blow.kind == "melee":
            return unit.melee(unit.parts[blow.part], count, target, target_lost)
        return unit.automatic(blow.kind, count, target, target_lost)

    def reach(self) -> tuple[int, int]:
        """(the most Health Points the charged unit can lose in a round, the charger's): every blow of the first
        round from full ranks; what the exact twin's states span."""
        fight, most = self.in_round(True), [0, 0]
        for _, blows in fight.schedule(True):
            for blow in blows:
                unit, target = fight.units[blow.side], fight.units[1 - blow.side]
                if blow.kind == "melee":  # Battle Focus: two hits from a 6; Multiple Wounds: up to its Health each
                    part = unit.parts[blow.part]
                    wounds = part.multiple_wounds.highest if part.multiple_wounds is not None else 1
                    each = (2 if "battle-focus" in part.attributes else 1) * min(wounds, target.health)
                else:
                    each = unit.automatic_dice(blow.kind).highest
                most[blow.side] += fight.count(blow, 0, 0) * each
        return min(self.charged.total, most[0]), min(self.charger.total, most[1])

    def scores(self, charger_lost, charged_lost, charger_before, charged_before, first_round: bool):
        """(the charger's combat score, the charged unit's): Health Points each made the other lose this round,
        the Charge +1 (first round), and for a unit still Engaged (models left, and an enemy with models left:
        "No More Foes") its Rank Bonus, Standard +1 and the charger's Flank +1 / Rear +2. A Standard Bearer
        removed is not Engaged; a unit that wiped out its foes provides no Standard or Flank bonus."""
        engaged = (self.charger.left(charger_lost) > 0) & (self.charged.left(charged_lost) > 0)
        facing = REAR_BONUS if self.rear else FLANK_BONUS if self.flank else 0
        if facing and self.facing_bonus is FacingBonus.RANKED:  # one more with 2 Full Ranks or more
            facing = facing + (self.charger.full_ranks(charger_lost) >= 2)
        charge = CHARGE_BONUS if first_round else 0
        if self.charge_bonus is ChargeBonus.MODELS:  # only while one of its Charging models stands
            charge = charge * (self.charger.left(charger_lost) > 0)
        mine = (charged_lost - charged_before + charge
                + engaged * (self.charger.rank_bonus(charger_lost) + self.charger.standard + facing))
        theirs = (charger_lost - charger_before
                  + engaged * (self.charged.rank_bonus(charged_lost) + self.charged.standard))
        return mine, theirs

    def result(self, charger_lost, charged_lost, charger_before, charged_before, first_round: bool):
        """(the charger won, a draw, the scores' difference) of a round that ends in these states: the higher
        combat score wins, a tie is a draw; a unit whose every foe was wiped out while it stands always counts
        as winning (rulebook, Break Test: No More Foes), so a unit wiped out loses to one left standing."""
        ours, theirs = self.scores(charger_lost, charged_lost, charger_before, charged_before, first_round)
        mine, their = self.charger.left(charger_lost) > 0, self.charged.left(charged_lost) > 0
        alone = mine != their  # one side stands, the other is gone
        won = np.where(alone, mine, ours > theirs)
        tied = ~alone & (ours == theirs)
        return won, tied, np.abs(ours - theirs)

    def steadfast(self, charger_lost, charged_lost):
        """(the charger is Steadfast, the charged unit is): more Full Ranks than the enemy; the charged unit not
        while the charger in its flank or rear has 2 Full Ranks or more (Disrupted Ranks)."""
        mine, theirs = self.charger.full_ranks(charger_lost), self.charged.full_ranks(charged_lost)
        disrupted = (self.flank or self.rear) & (mine >= 2)
        return mine > theirs, (theirs > mine) & ~np.asarray(disrupted)


def caught_chance(fleeing: Fighter, pursuing: Fighter, number=float):
    """P(the Pursuit roll equals or beats the Flee roll): 2D6 each, Maximised with Swiftstride."""
    return _caught(fleeing.swiftstride, pursuing.swiftstride, number)


@lru_cache(maxsize=64)
def _caught(flee_maximised: bool, pursuit_maximised: bool, number):
    flee, pursuit = two_d6(flee_maximised, number), two_d6(pursuit_maximised, number)
    at_least = np.cumsum(pursuit[::-1])[::-1]  # at_least[v] = P(pursuit >= v)
    return sum((p * at_least[v] for v, p in enumerate(flee) if p), number(0))


# --- exact ------------------------------------------------------------------------------


def round_joint(fight: Fight, charger_lost: int, charged_lost: int, first_round: bool, number,
                dealt: dict | None = None) -> np.ndarray:
    """joint[charger's Health Points lost, the charged unit's] after one round's Initiative Steps from this
    state: what strikes at one step strikes at once, from the models standing when it begins, together at most
    what the other side has left. `dealt` keeps each step's pmfs by state, for the next call of the round."""
    dist = np.zeros((fight.charger.total + 1, fight.charged.total + 1)) if number is float else np.full(
        (fight.charger.total + 1, fight.charged.total + 1), number(0), dtype=object)
    dist[charger_lost, charged_lost] = number(1)
    dealt = {} if dealt is None else dealt
    fight = fight.in_round(first_round)
    for step, blows in fight.schedule(first_round):
        after = dist * 0
        for c, e in zip(*np.nonzero(dist != 0)):
            key = (step, int(c), int(e))
            if key not in dealt:
                dealt[key] = _step_dealt(fight, blows, int(c), int(e), number)
            to_charged, to_charger = dealt[key]
            after[c:c + len(to_charger), e:e + len(to_charged)] += dist[c, e] * np.multiply.outer(to_charger, to_charged)
        dist = after
    return dist


def _step_dealt(fight: Fight, blows: tuple[Blow, ...], c: int, e: int, number) -> list[np.ndarray]:
    """The pmfs of the Health Points each side deals at a step from this state: (to the charged unit, to the
    charger), each at most what that side has left."""
    lost, dealt = (c, e), []
    for side in (0, 1):
        pmf, room = pmfs.point(0, number(1)), fight.units[1 - side].total - lost[1 - side]
        for blow in blows:
            count = fight.count(blow, c, e) if blow.side == side and room else 0
            if count:
                pmf = pmfs.convolve(pmf, lost_pmf(fight.attack(blow, count, lost[1 - side]), number))
        dealt.append(capped(pmf, room, number))
    return dealt


def combat_pmfs(fight: Fight, rounds: int, number) -> dict[str, np.ndarray]:
    """The exact pmfs of a combat's outcomes, round by round from every pair of Health Points lost: each
    round's end states at once, as arrays (the scores, Steadfast, the Break Test and the pursuit)."""
    zero = number(0)

    def zeros(*shape: int) -> np.ndarray:
        return np.zeros(shape) if number is float else np.full(shape, zero, dtype=object)

    charger, charged = fight.units
    most = charger.total + charged.total + CHARGE_BONUS + 2 * MAX_RANK_BONUS + 2 + REAR_BONUS + 1
    tally = {name: zeros(2) for name in EVENTS}
    tally.update(health_lost=zeros(charger.total + 1), enemy_health_lost=zeros(charged.total + 1),
                 score=zeros(most + 1), rounds=zeros(rounds + 1))
    fails = [np.array([unit.break_fails(penalty, number) for penalty in range(most + 1)], dtype=tally["win"].dtype)
             for unit in (charger, charged)]  # by the loser (0 the charger, 1 the charged unit), by its penalty
    caught = []  # P(the loser is caught), by the loser
    for loser, winner in ((charger, charged), (charged, charger)):
        chance = caught_chance(loser, winner, number)
        if fight.pursuit is Pursuit.RESTRAIN:  # it pursues only when its Restrain Pursuit test fails
            chance = chance * break_chance(winner.discipline, 0, number)
        caught.append(chance)
    states = zeros(charger.total + 1, charged.total + 1)
    states[0, 0] = number(1)
    for round_ in range(rounds):
        first, last = round_ == 0, round_ + 1 == rounds
        following = zeros(*states.shape)
        dealt: dict = {}  # each step's pmfs by state, shared by the round's starting states
        for c0, e0 in zip(*np.nonzero(states != 0)):
            joint = round_joint(fight, int(c0), int(e0), first, number, dealt) * states[c0, e0]
            cs, es = np.nonzero(joint != 0)
            p = joint[cs, es]
            won, tied, margin = fight.result(cs, es, int(c0), int(e0), first)
            steadfast = fight.steadfast(cs, es)
            penalty = np.where(np.where(won, steadfast[1], steadfast[0]), 0, margin)
            # a loser with no model takes no Break Test; one left standing loses only to a unit standing (No More
            # Foes), so whoever pursues it is in base contact
            standing = np.where(won, charged.left(es), charger.left(cs)) > 0
            broke = p * np.where(tied | ~standing, zero, np.where(won, fails[1][penalty], fails[0][penalty]))
            taken = broke * np.where(won, caught[1], caught[0])
            ends = np.full(len(p), last) | (charger.left(cs) == 0) | (charged.left(es) == 0)
            done = np.where(ends, p, broke)  # what ends this round: the broken, and all on the last or when one is gone
            theirs_broke, theirs_taken = np.where(won, broke, zero), np.where(won, taken, zero)  # the charged unit's
            for name, values, weights in (("win", won, done), ("draw", tied, done), ("break", 1, broke),
                                          ("break", 0, done - broke), ("caught", 1, taken),
                                          ("caught", 0, done - taken), ("health_lost", cs, done),
                                          ("enemy_health_lost", es, done), ("score", margin, done),
                                          ("enemy_break", 1, theirs_broke), ("enemy_break", 0, done - theirs_broke),
                                          ("enemy_caught", 1, theirs_taken), ("enemy_caught", 0, done - theirs_taken)):
                np.add.at(tally[name], np.broadcast_to(np.asarray(values, dtype=np.int64), p.shape), weights)
            np.add.at(following, (cs, es), np.where(ends, zero, p - broke))
            tally["rounds"][round_ + 1] += done.sum()  # the combats this round ends
        states = following
    return {name: tally[name] if name in EVENTS else pmfs.trim(tally[name]) for name in OUTCOMES}


# --- sampled ----------------------------------------------------------------------------


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


def _sample_step(rng: np.random.Generator, fight: Fight, blows: tuple[Blow, ...], lost: list[np.ndarray],
                 playing: np.ndarray) -> None:
    """One Initiative Step of the trials still `playing`: its blows, each trial's from the models standing as it
    begins, add to each side's Health Points `lost`, together at most what that side has left."""
    now = [lost[0][playing], lost[1][playing]]
    codes = now[0].astype(np.int64) * (fight.charged.total + 1) + now[1]
    if len(codes) and codes.min() == codes.max():  # one state (the first step): no sort
        keys, inverse = codes[:1], np.zeros(len(codes), dtype=np.int64)
    else:
        keys, inverse = np.unique(codes, return_inverse=True)
    table = np.array([[fight.count(blow, *divmod(int(key), fight.charged.total + 1)) for blow in blows]
                      for key in keys], dtype=np.int64).reshape(-1, len(blows))
    counts = table[inverse.ravel()].T  # each trial's attacks (or models striking) of each blow
    dealt = [np.zeros(len(playing), dtype=np.int64), np.zeros(len(playing), dtype=np.int64)]  # to each side
    for blow, each in zip(blows, counts):
        for count, at in _states(each):
            if count:
                size = len(playing) if isinstance(at, slice) else len(at)
                rolled = fight.attack(blow, count, 0).sample(rng, size)["health_lost"]
                dealt[1 - blow.side][at] += np.asarray(rolled, dtype=np.int64)
    for side, unit in enumerate(fight.units):
        lost[side][playing] = now[side] + np.minimum(dealt[side], unit.total - now[side])


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
        out["rounds"][playing] = round_ + 1
        now_fight = fight.in_round(first)
        charger, charged = now_fight.charger, now_fight.charged
        for _, blows in now_fight.schedule(first):
            _sample_step(rng, now_fight, blows, lost, playing)
        won, tied, margin = fight.result(lost[0], lost[1], before[0], before[1], first)
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
        penalty = np.where(np.where(won_t, charged.stubborn, charger.stubborn), 0, penalty)
        discipline = np.where(won_t, charged.discipline, charger.discipline)
        broke = np.zeros(trials, dtype=bool)
        broke[tests] = ((_two_d6(rng, False, len(tests)) > discipline - penalty)
                        & ~np.where(won_t, charged.unbreakable, charger.unbreakable))
        fled = np.flatnonzero(broke)
        won_f = won[fled]
        caught = (_two_d6(rng, np.where(won_f, charger.swiftstride, charged.swiftstride), len(fled))
                  >= _two_d6(rng, np.where(won_f, charged.swiftstride, charger.swiftstride), len(fled)))
        if fight.pursuit is Pursuit.RESTRAIN:  # the winner pursues only when its Restrain Pursuit test fails
            caught &= _two_d6(rng, False, len(fled)) > np.where(won_f, charger.discipline, charged.discipline)
        out["break"][fled] = 1
        out["caught"][fled[caught]] = 1
        out["enemy_break"][fled[won_f]] = 1  # the charged unit broke (the charger won)
        out["enemy_caught"][fled[won_f & caught]] = 1
        gone = (charger.left(lost[0]) == 0) | (charged.left(lost[1]) == 0)
        going = going & ~broke & ~gone
    out["health_lost"], out["enemy_health_lost"] = lost[0].astype(np.int64), lost[1].astype(np.int64)
    return out
