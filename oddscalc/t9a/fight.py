"""The 9th Age: a round of close combat between two units (docs/rules.md §3.11; research notes
docs/research/t9a-combat.md): how they meet (`Fight`: Initiative Steps, what strikes at each, the combat score,
Steadfast), the pursuit, and the rounds exactly (pmfs over both sides' Health Points lost) and sampled (every die
rolled). The units are `fighter.py`'s; the query that asks it is `combat.Combat`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..attack import Attack, read_whole
from .fighter import Fighter, two_d6
from .troop import OVERKILL, Challenge, Line, Troop

MAX_ROUNDS = 10  # rounds fought at most (--rounds end: until a side breaks, flees or is destroyed, or these)
MAX_STEP = 10  # Initiative Steps run from 10 down to 0; a higher Agility strikes at 10 (an open reading)
CHARGE_BONUS = 1
FLANK_BONUS, REAR_BONUS = 1, 2
OUTCOMES = ("win", "draw", "health_lost", "enemy_health_lost", "break", "caught", "score", "enemy_break",
            "enemy_caught", "rounds")
EVENTS = ("win", "draw", "break", "caught", "enemy_break", "enemy_caught")
SLAIN = ("character_slain", "enemy_character_slain")  # events of a combat with characters: each side's fell


def by_round(rounds: int) -> tuple[str, ...]:
    """The per-round view's outcomes (--by-round): decided (a side broke, fled or was destroyed before the rounds
    ran out), then each side's Health Points lost by the end of each round."""
    return ("decided", *(f"health_lost_by_round_{k}" for k in range(1, rounds + 1)),
            *(f"enemy_health_lost_by_round_{k}" for k in range(1, rounds + 1)))


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


class Chase(str, Enum):
    """Which of the charger's broken units the charged unit pursues (rulebook, Pursuits: the winner names one; an
    open reading of what a player picks): its main unit before its allies, or its allies first."""

    MAIN = "main"
    ALLY = "ally"


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
    """What strikes at an Initiative Step: a side (0 the charger's, 1 the charged unit) and its model part's
    attacks ("melee", `part` its index), Impact Hits, Stomp Attacks or its character's attacks ("hero"); `unit`
    the charger's unit that strikes (side 0) or is struck (side 1): 0 the main one, then its --with-unit allies."""

    side: int
    kind: str
    part: int = 0
    unit: int = 0


class Ally(NamedTuple):
    """Another unit of the charger's (--with-unit): its profile, where it strikes the charged unit, and the character
    joined to it, if one is (never in the Duel: that is the main units' characters')."""

    unit: Fighter
    facing: str  # "flank" or "rear"
    hero: Fighter | None = None
    bsb: bool = False  # its character is the Battle Standard Bearer


@dataclass(frozen=True)
class Fight:
    """Both sides of a combat and how they meet: the charger's facing on the charged unit, and its allies'."""

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
    heroes: tuple[Fighter | None, Fighter | None] = (None, None)  # each side's character, if one is joined
    bsb: tuple[bool, bool] = (False, False)  # each side's character is its Battle Standard Bearer
    challenge: Challenge = Challenge.NONE
    allies: tuple[Ally, ...] = ()  # the charger's other units, each in the charged unit's flank or rear
    chase: Chase = Chase.MAIN

    @property
    def units(self) -> tuple[Fighter, Fighter]:
        return self.charger, self.charged

    @cached_property
    def troops(self) -> tuple[Troop, Troop]:
        """Each main unit as the states count it: its unit and its character."""
        duel = self.challenge is Challenge.ACCEPTED
        return (Troop(self.charger, self.heroes[0], self.bsb[0], False, duel),
                Troop(self.charged, self.heroes[1], self.bsb[1], self.challenge is Challenge.REFUSED, duel))

    @cached_property
    def line(self) -> Line:
        """The charger's side: its main unit and its allies."""
        return Line((self.troops[0], *(Troop(ally.unit, ally.hero, ally.bsb) for ally in self.allies)))

    @cached_property
    def facings(self) -> tuple[str, ...]:
        """Where each of the charger's units strikes the charged unit."""
        return ("rear" if self.rear else "flank" if self.flank else "front", *(ally.facing for ally in self.allies))

    def duelling(self, charger_code, charged_code):
        """Where the two characters fight their Duel: it was accepted and both stand."""
        if self.challenge is not Challenge.ACCEPTED:
            return charged_code * 0 > 0
        fled, main = self.line.split(charger_code)[0]
        return (self.troops[0].alive(main) * (fled == 0) * self.troops[1].alive(charged_code)) > 0

    def in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it (`_in_round`), worked once per fight and round kind."""
        kept = self.__dict__.setdefault("_rounds", {})
        if first_round not in kept:
            kept[first_round] = self._in_round(first_round)
        return kept[first_round]

    def _in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it: in the first round the charger's own attacks have their charge bonus, and a
        Spear of the charged unit, not charging and not engaged in its flank or rear, has +2 Agility and +1 AP (the
        Spear's own +1 AP is already its --ap); in a later round no one has Hatred (its re-rolls are the first
        round's)."""
        if not first_round:
            def calm(unit):
                return None if unit is None else replace(
                    unit, attributes=tuple(a for a in unit.attributes if a != "hatred"))
            charger, charged = (calm(unit) for unit in self.units)
            return replace(self, charger=charger, charged=charged, heroes=(calm(self.heroes[0]), calm(self.heroes[1])),
                           allies=tuple(ally._replace(unit=calm(ally.unit), hero=calm(ally.hero))
                                        for ally in self.allies))
        fight = replace(self, charger=self.charger.charging(),
                        allies=tuple(ally._replace(unit=ally.unit.charging()) for ally in self.allies))
        if self.charged.spear and set(self.facings) == {"front"}:
            fight = replace(fight, charged=replace(self.charged, agility=self.charged.agility + 2,
                                                   ap=self.charged.ap + 1))
        return fight

    def schedule(self, first_round: bool) -> list[tuple[int, tuple[Blow, ...]]]:
        """(Initiative Step, what strikes at it) from the highest: each part at its Agility (+1 to the charger's in
        the first round, Charging Momentum; an Agility above 10 at step 10, or first by `high_agility`), the
        charger's Impact Hits at step 10 of the first round, Stomp Attacks at step 0 on a stompable enemy; the
        charged unit strikes each of the charger's units apart."""
        top = MAX_STEP if self.high_agility is HighAgility.STEP_TEN else MAX_STEP + 1
        blows: list[tuple[int, Blow]] = []

        def momentum(index: int) -> bool:
            return not index or self.mount_momentum is MountMomentum.ALL

        for unit, fighter in enumerate(troop.unit for troop in self.line.troops):  # the charger's units
            blows += [(part.step(first_round and momentum(index), top), Blow(0, "melee", index, unit))
                      for index, part in enumerate(fighter.parts)]
            if first_round and fighter.impact is not None:
                blows.append((MAX_STEP, Blow(0, "impact", 0, unit)))
            if fighter.stomp is not None and self.charged.stompable():
                blows.append((0, Blow(0, "stomp", 0, unit)))
        for unit, fighter in enumerate(troop.unit for troop in self.line.troops):  # the charged unit on each
            blows += [(part.step(False, top), Blow(1, "melee", index, unit)) for index, part in
                      enumerate(self.charged.parts)]
            if self.charged.stomp is not None and fighter.stompable():
                blows.append((0, Blow(1, "stomp", 0, unit)))
        heroes = [(0, unit, troop.hero) for unit, troop in enumerate(self.line.troops)] + [(1, 0, self.heroes[1])]
        for side, unit, hero in heroes:  # each unit's character: its own attacks, its mount's
            for index, part in enumerate(() if hero is None else hero.parts):
                blows.append((part.step(first_round and side == 0 and momentum(index), top),
                              Blow(side, "hero", index, unit)))
        return [(step, tuple(blow for at, blow in blows if at == step))
                for step in sorted({step for step, _ in blows}, reverse=True)]

    def facing(self, unit: int, charger_code: int, charged_code: int) -> int | None:
        """How many of the charged unit's models can be in base contact with the charger's `unit`: all its front
        rank's when that unit strikes its front (None), else by `flank_models`."""
        facing = self.facings[unit]
        if facing == "front":
            return None
        fled, own = self.line.split(charger_code)[unit]
        front = 0 if fled else self.line.troops[unit].front(own)
        if self.flank_models is FlankModels.MATCHED:
            return front
        left, width = self.troops[1].left(charged_code), self.charged.width
        edge = -(-left // width) if facing == "flank" else (left % width or width)
        return min(edge, front)

    def count(self, blow: Blow, charger_code: int, charged_code: int) -> int:
        """A blow's attacks (melee, a character's) or models making it (Impact Hits, Stomp Attacks) in this state:
        in a flank or rear the charged unit makes no Supporting Attacks; a character that refused a Duel none; a
        unit that fled neither strikes nor is struck."""
        parts = self.line.split(charger_code)
        if blow.side == 0:
            troop, (fled, code) = self.line.troops[blow.unit], parts[blow.unit]
        else:  # the charged unit on one of the charger's units: none once it fled or fell; its character while one
            foe = self.line.troops[blow.unit]  # of them stands
            fled = not any(self.line.left(charger_code)) if blow.kind == "hero" else \
                parts[blow.unit][0] or not foe.left(parts[blow.unit][1])
            troop, code = self.troops[1], charged_code
        if fled:
            return 0
        hero = int(troop.alive(code))
        if blow.kind == "hero":
            assert troop.hero is not None, blow  # schedule gives a side such a blow only when it has one
            return 0 if troop.refused else hero * troop.hero.parts[blow.part].attacks
        unit, lost = troop.unit, troop.pools(code)[0]
        facing = self.facing(blow.unit, charger_code, charged_code) if blow.side else None
        if blow.kind != "melee":
            return unit.in_contact(lost, facing, hero)
        return unit.strikes(unit.parts[blow.part], lost, blow.side == 0 or facing is None, facing, hero)

    def target(self, blow: Blow, charger_code: int, charged_code: int) -> tuple[int, int] | None:
        """(the enemy unit, its Health Pool: 0 its rank and file, 1 its character) a blow strikes, or None: the
        rank and file while one stands (an open reading: the attacker may choose its character; docs/rules.md
        §3.11), then the character; in a Duel the characters strike only each other, and no one else strikes
        them. The charged unit's character strikes the first of the charger's units standing; an ally's character is
        never in the Duel."""
        duel = bool(self.duelling(charger_code, charged_code))
        if blow.kind == "hero" and duel and (blow.side == 1 or blow.unit == 0):
            return 0, 1
        if blow.side == 0:
            enemy, code, unit = self.troops[1], charged_code, 0
        else:
            standing = [index for index, left in enumerate(self.line.left(charger_code)) if left > 0]
            unit = blow.unit if blow.kind != "hero" else standing[0] if standing else 0
            fled, code = self.line.split(charger_code)[unit]
            if fled:
                return None
            enemy = self.line.troops[unit]
        if enemy.rank_and_file(code) > 0:
            return unit, 0
        return (unit, 1) if enemy.alive(code) and not (duel and unit == 0) else None

    def attack(self, blow: Blow, count: int, struck: tuple[int, int] = (0, 0), target_lost: int = 0) -> Attack:
        """The blow's `count` attacks (or models' automatic hits) on the struck unit's pool, which has lost
        `target_lost`."""
        unit, pool = struck
        striker = self.line.troops[blow.unit] if blow.side == 0 else self.troops[1]
        enemy = self.troops[1] if blow.side == 0 else self.line.troops[unit]
        target = enemy.unit if pool == 0 else enemy.duellist if blow.kind == "hero" and enemy.duel else enemy.hero
        assert target is not None, pool
        if blow.kind == "hero":
            assert striker.hero is not None, blow
            return striker.hero.melee(striker.hero.parts[blow.part], count, target, target_lost)
        if blow.kind == "melee":
            return striker.unit.melee(striker.unit.parts[blow.part], count, target, target_lost)
        return striker.unit.automatic(blow.kind, count, target, target_lost)

    def room(self, side: int, unit: int, pool: int, code: int, duel: bool) -> int:
        """The Health Points a unit's pool (`code` its own state) can still lose at a step (its character's, with a
        Duel's Overkill)."""
        troop = self.troops[1] if side else self.line.troops[unit]
        lost, hero = troop.pools(code)
        if pool == 0:
            return troop.unit.total - lost
        return max(troop.health - hero, 0) + (OVERKILL if duel and troop.duel and hero < troop.health else 0)

    def reach(self) -> tuple[int, int]:
        """(the most Health Points the charged unit's rank and file can lose in a round, the charger's units'):
        every blow of the first round from full ranks, at the rank and file; what the exact twin's states span."""
        fight, most = self.in_round(True), [0, 0]
        for _, blows in fight.schedule(True):
            for blow in blows:
                striker = fight.line.troops[blow.unit] if blow.side == 0 else fight.troops[1]
                target = fight.charged if blow.side == 0 else fight.line.troops[blow.unit].unit
                if blow.kind in ("melee", "hero"):  # Battle Focus: two hits from a 6; Multiple Wounds: up to its
                    owner = striker.hero if blow.kind == "hero" else striker.unit
                    assert owner is not None, blow
                    part = owner.parts[blow.part]
                    wounds = part.multiple_wounds.highest if part.multiple_wounds is not None else 1  # Health each
                    each = (2 if "battle-focus" in part.attributes else 1) * min(wounds, target.health)
                else:
                    each = striker.unit.automatic_dice(blow.kind).highest
                most[blow.side] += fight.count(blow, 0, 0) * each
        return min(self.charged.total, most[0]), min(sum(troop.unit.total for troop in self.line.troops), most[1])

    def scores(self, charger_code, charged_code, charger_before, charged_before, first_round: bool):
        """(the charger's combat score, the charged unit's): Health Points each made the other lose this round
        (and a Duel's Overkill), the Charge +1 (first round), the highest Rank Bonus of its units still Engaged
        (models left, and an enemy with models left: "No More Foes"), each one's Standard +1, Battle Standard +1,
        and the charger's Flank +1 / Rear +2 (each once, one more with 2 Full Ranks by `facing_bonus`). A Standard
        Bearer removed is not Engaged; a unit that wiped out its foes provides no Standard or Flank bonus."""
        line, theirs_ = self.line, self.troops[1]
        parts, before = line.split(charger_code), line.split(charger_before)
        theirs_left = theirs_.left(charged_code)
        engaged = [(left > 0) & (theirs_left > 0) for left in line.left(charger_code)]
        ranks = [troop.full_ranks(code) for troop, (_, code) in zip(line.troops, parts)]
        mine = theirs_.scored(charged_code) - theirs_.scored(charged_before)
        theirs = sum(troop.scored(code) - troop.scored(old) for troop, (_, code), (_, old) in
                     zip(line.troops, parts, before))
        bonus: Any = 0
        for troop, (_, code), on, full in zip(line.troops, parts, engaged, ranks):
            bonus = np.maximum(bonus, on * troop.unit.bonus_of(full))
            mine = mine + on * troop.standards(code)
        for facing, extra in (("flank", FLANK_BONUS), ("rear", REAR_BONUS)):
            there = [(on, full) for at, on, full in zip(self.facings, engaged, ranks) if at == facing]
            if there:
                any_on = np.logical_or.reduce([on for on, _ in there]) if len(there) > 1 else there[0][0]
                if self.facing_bonus is FacingBonus.RANKED:
                    ranked = np.logical_or.reduce([on & (full >= 2) for on, full in there]) if len(there) > 1 \
                        else there[0][0] & (there[0][1] >= 2)
                    mine = mine + any_on * extra + ranked * 1
                else:
                    mine = mine + any_on * extra
        charge = CHARGE_BONUS if first_round else 0
        standing = np.logical_or.reduce([left > 0 for left in line.left(charger_code)]) if line.flagged else \
            line.left(charger_code)[0] > 0
        if self.charge_bonus is ChargeBonus.MODELS:  # only while one of its Charging models stands
            charge = charge * standing
        theirs_on = (theirs_left > 0) & standing
        mine = mine + bonus + charge
        theirs = theirs + theirs_on * (theirs_.rank_bonus(charged_code) + theirs_.standards(charged_code))
        return mine, theirs

    def result(self, charger_code, charged_code, charger_before, charged_before, first_round: bool):
        """(the charger won, a draw, the scores' difference) of a round that ends in these states: the higher
        combat score wins, a tie is a draw; a side whose every foe was wiped out while it stands always counts
        as winning (rulebook, Break Test: No More Foes), so a side wiped out loses to one left standing."""
        ours, theirs = self.scores(charger_code, charged_code, charger_before, charged_before, first_round)
        mine, their = self.standing(charger_code), self.troops[1].left(charged_code) > 0
        alone = mine != their  # one side stands, the other is gone
        won = np.where(alone, mine, ours > theirs)
        tied = ~alone & (ours == theirs)
        return won, tied, np.abs(ours - theirs)

    def standing(self, charger_code):
        """Where one of the charger's units stands in the fight (not wiped out, not fled)."""
        lefts = self.line.left(charger_code)
        return np.logical_or.reduce([left > 0 for left in lefts]) if len(lefts) > 1 else lefts[0] > 0

    def steadfast(self, charger_code, charged_code):
        """(each of the charger's units is Steadfast, the charged unit is): more Full Ranks than every enemy unit
        Engaged; the charged unit not while a unit in its flank or rear has 2 Full Ranks or more (Disrupted
        Ranks)."""
        line = self.line
        theirs = self.troops[1].full_ranks(charged_code)
        ranks = [troop.full_ranks(code) * (fled == 0) for troop, (fled, code) in
                 zip(line.troops, line.split(charger_code))]
        highest = ranks[0] if len(ranks) == 1 else np.maximum.reduce(ranks)
        disrupted = np.logical_or.reduce([np.asarray((at != "front") & (full >= 2))
                                          for at, full in zip(self.facings, ranks)])
        return [full > theirs for full in ranks], (theirs > highest) & ~disrupted


def caught_chance(fleeing: Fighter, pursuing: Fighter, number=float):
    """P(the Pursuit roll equals or beats the Flee roll): 2D6 each, Maximised with Swiftstride."""
    return _caught(fleeing.swiftstride, pursuing.swiftstride, number)


@lru_cache(maxsize=64)
def _caught(flee_maximised: bool, pursuit_maximised: bool, number):
    flee, pursuit = two_d6(flee_maximised, number), two_d6(pursuit_maximised, number)
    at_least = np.cumsum(pursuit[::-1])[::-1]  # at_least[v] = P(pursuit >= v)
    return sum((p * at_least[v] for v, p in enumerate(flee) if p), number(0))
