"""The 9th Age: a round of close combat between two units (docs/rules.md §3.11; research notes
docs/research/t9a-combat.md): how they meet (`Fight`: Initiative Steps, what strikes at each, the combat score,
Steadfast), the pursuit, and the rounds exactly (pmfs over both sides' Health Points lost) and sampled (every die
rolled). The units are `fighter.py`'s; the query that asks it is `combat.Combat`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any, NamedTuple, Optional, TYPE_CHECKING, TypeVar

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.attack import Attack, read_whole
from .fighter import Fighter
from .readings import (ChargeBonus, Chase, CombatReform, FacingBonus, FlankModels, FrontShare, HighAgility,
                       MountMomentum, Pursuit)
from .reckoning import CHARGE_BONUS, FLANK_BONUS, REAR_BONUS, Reckoning
from .troop import OVERKILL, Challenge, Line, Troop

__all__ = ["CHARGE_BONUS", "FLANK_BONUS", "REAR_BONUS", "Ally", "Blow", "Fight"]

Calm = TypeVar("Calm", Fighter, Optional[Fighter])  # a unit or a character, if one is joined
MAX_ROUNDS = 10  # rounds fought at most (--rounds end: until a side breaks, flees or is destroyed, or these)
MAX_STEP = 10  # Initiative Steps run from 10 down to 0; a higher Agility strikes at 10 (an open reading)
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


class Blow(NamedTuple):
    """What strikes at an Initiative Step: a side (0 the charger's, 1 the charged side's) and its model part's
    attacks ("melee", `part` its index), Impact Hits, Stomp Attacks or its character's attacks ("hero"); `unit`
    the charger's unit that strikes (side 0) or is struck (side 1), `enemy` the charged side's unit struck (side 0)
    or striking (side 1): 0 the main ones, then their --with-unit / --enemy-with-unit allies. A character's blow
    names its own unit; whom it strikes is `Fight.target`'s."""

    side: int
    kind: str
    part: int = 0
    unit: int = 0
    enemy: int = 0


class Ally(NamedTuple):
    """Another unit of the charger's (--with-unit): its profile, where it strikes the charged unit, and the character
    joined to it, if one is (never in the Duel: that is the main units' characters')."""

    unit: Fighter
    facing: str  # "flank" or "rear"
    hero: Fighter | None = None
    bsb: bool = False  # its character is the Battle Standard Bearer


@record
class Fight(Reckoning):
    """Both sides of a combat and how they meet: the charger's facing on the charged unit, and its allies'; how each
    round is reckoned is `Reckoning`'s."""

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
    enemy_allies: tuple[Ally, ...] = ()  # the charged side's other units, each in the charger's flank or rear
    front_share: FrontShare = FrontShare.BESIDE
    combat_reform: CombatReform = CombatReform.FACE

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
        return Line((self.troops[0], *(Troop(ally.unit, ally.hero, ally.bsb) for ally in self.allies)),
                    self.reformable(self.enemy_facings))

    @cached_property
    def enemy_line(self) -> Line:
        """The charged side: its main unit and its allies."""
        return Line((self.troops[1], *(Troop(ally.unit, ally.hero, ally.bsb) for ally in self.enemy_allies)),
                    self.reformable(self.facings))

    @cached_property
    def lines(self) -> tuple[Line, Line]:
        return self.line, self.enemy_line

    @cached_property
    def facings(self) -> tuple[str, ...]:
        """Where each of the charger's units strikes the charged unit."""
        return ("rear" if self.rear else "flank" if self.flank else "front", *(ally.facing for ally in self.allies))

    @cached_property
    def enemy_facings(self) -> tuple[str, ...]:
        """Where each of the charged side's units strikes the charger's main unit (its main unit: front)."""
        return ("front", *(ally.facing for ally in self.enemy_allies))

    def chase_order(self, units: int) -> tuple[int, ...]:
        """Which of a losing side's broken units a winner in base contact with several pursues first (`chase`):
        the main one, then its allies; or its allies, the last given first, then the main one."""
        return tuple(range(units)) if self.chase is Chase.MAIN else tuple(range(units - 1, -1, -1))

    def foes(self, side: int, unit: int) -> tuple[int, ...]:
        """The units of the other side in base contact with `side`'s `unit`: the main units touch every unit of the
        other side (the main one first), an ally only the other side's main unit."""
        return tuple(range(len(self.lines[1 - side].troops))) if unit == 0 else (0,)

    def flanking(self, side: int, unit: int) -> tuple[tuple[int, str], ...]:
        """(the other side's unit, its facing) of the units in `side`'s `unit`'s flank or rear."""
        if unit:
            return ()
        facings = self.enemy_facings if side == 0 else self.facings
        return tuple((index, facing) for index, facing in enumerate(facings) if facing != "front")

    def duelling(self, charger_code: Any, charged_code: Any) -> Any:
        """Where the two characters fight their Duel: it was accepted and both stand."""
        if self.challenge is not Challenge.ACCEPTED:
            return charged_code * 0 > 0
        fled, main = self.line.split(charger_code)[0]
        their_fled, theirs = self.enemy_line.split(charged_code)[0]
        return (self.troops[0].alive(main) * (fled == 0) * self.troops[1].alive(theirs) * (their_fled == 0)) > 0

    def in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it (`_in_round`), worked once per fight and round kind."""
        kept: dict[bool, Fight] = self.__dict__.setdefault("_rounds", {})
        if first_round not in kept:
            kept[first_round] = self._in_round(first_round)
        return kept[first_round]

    def _in_round(self, first_round: bool) -> Fight:
        """The fight as a round sees it: in the first round the charger's own attacks have their charge bonus, and a
        Spear of the charged unit, not charging and not engaged in its flank or rear, has +2 Agility and +1 AP (the
        Spear's own +1 AP is already its --ap); in a later round no one has Hatred (its re-rolls are the first
        round's)."""
        if not first_round:
            def calm(unit: Calm) -> Calm:
                return None if unit is None else replace(
                    unit, attributes=tuple(a for a in unit.attributes if a != "hatred"))
            charger, charged = (calm(unit) for unit in self.units)
            return replace(self, charger=charger, charged=charged, heroes=(calm(self.heroes[0]), calm(self.heroes[1])),
                           allies=tuple(ally._replace(unit=calm(ally.unit), hero=calm(ally.hero))
                                        for ally in self.allies),
                           enemy_allies=tuple(ally._replace(unit=calm(ally.unit), hero=calm(ally.hero))
                                              for ally in self.enemy_allies))

        def braced(unit: Fighter) -> Fighter:  # a Spear not charging: +2 Agility, +1 AP in the first round
            return replace(unit, agility=unit.agility + 2, ap=unit.ap + 1) if unit.spear else unit

        fight = replace(self, charger=self.charger.charging(),
                        allies=tuple(ally._replace(unit=ally.unit.charging()) for ally in self.allies),
                        enemy_allies=tuple(ally._replace(unit=braced(ally.unit)) for ally in self.enemy_allies))
        if set(self.facings) == {"front"}:
            fight = replace(fight, charged=braced(self.charged))
        return fight

    def schedule(self, first_round: bool) -> list[tuple[int, tuple[Blow, ...]]]:
        """(Initiative Step, what strikes at it) from the highest: each part at its Agility (+1 to the charger's in
        the first round, Charging Momentum; an Agility above 10 at step 10, or first by `high_agility`), the
        charger's Impact Hits at step 10 of the first round, Stomp Attacks at step 0 on a stompable enemy. Each pair
        of units in base contact strikes each other apart: each of the charger's units and the charged unit, the
        charger's main unit and each of the charged side's allies."""
        top = MAX_STEP if self.high_agility is HighAgility.STEP_TEN else MAX_STEP + 1
        blows: list[tuple[int, Blow]] = []

        def momentum(side: int, index: int) -> bool:
            return first_round and side == 0 and (not index or self.mount_momentum is MountMomentum.ALL)

        def strikes(side: int, fighter: Fighter, foe: Fighter, unit: int, enemy: int, impact: bool) -> None:
            blows.extend((part.step(momentum(side, index), top), Blow(side, "melee", index, unit, enemy))
                         for index, part in enumerate(fighter.parts))
            if impact and fighter.impact is not None:
                blows.append((MAX_STEP, Blow(side, "impact", 0, unit, enemy)))
            if fighter.stomp is not None and foe.stompable():
                blows.append((0, Blow(side, "stomp", 0, unit, enemy)))

        ours, theirs = ([troop.unit for troop in line.troops] for line in self.lines)
        for unit, fighter in enumerate(ours):  # each of the charger's units and the charged unit
            strikes(0, fighter, theirs[0], unit, 0, first_round)
            strikes(1, theirs[0], fighter, unit, 0, False)
        for enemy, fighter in enumerate(theirs[1:], 1):  # the charger's main unit and each of the charged side's
            strikes(0, ours[0], fighter, 0, enemy, False)
            strikes(1, fighter, ours[0], 0, enemy, False)
        for side, line in enumerate(self.lines):  # each unit's character: its own attacks, its mount's
            for unit, troop in enumerate(line.troops):
                for index, part in enumerate(() if troop.hero is None else troop.hero.parts):
                    blows.append((part.step(momentum(side, index), top),
                                  Blow(side, "hero", index, *((unit, 0) if side == 0 else (0, unit)))))
        return [(step, tuple(blow for at, blow in blows if at == step))
                for step in sorted({step for step, _ in blows}, reverse=True)]

    @staticmethod
    def ends(blow: Blow) -> tuple[int, int]:
        """(the striking unit's index on its side, the struck unit's on the other) of a blow."""
        return (blow.unit, blow.enemy) if blow.side == 0 else (blow.enemy, blow.unit)

    def facing(self, unit: int, charger_code: Any, charged_code: Any, enemy: int = 0) -> Any:
        """How many models of the flanked unit of a pair in base contact (the charger's `unit`, the charged side's
        `enemy`) can be in base contact with the unit in its flank or rear: None when they meet front to front,
        else by `flank_models` (as many as the flanker's front rank, or those on the engaged edge); for codes or
        arrays of them."""
        if enemy:  # the charged side's ally in the flank or rear of the charger's main unit
            facing, flanker, flanked = self.enemy_facings[enemy], (1, enemy), (0, 0)
        else:
            facing, flanker, flanked = self.facings[unit], (0, unit), (1, 0)
        if facing == "front":
            return None
        codes = (charger_code, charged_code)
        fled, own = self.lines[flanker[0]].split(codes[flanker[0]])[flanker[1]]
        front = np.where(fled == 0, self.lines[flanker[0]].troops[flanker[1]].front(own), 0)
        if self.flank_models is FlankModels.MATCHED:
            return front
        troop = self.lines[flanked[0]].troops[flanked[1]]
        left, width = troop.left(self.lines[flanked[0]].split(codes[flanked[0]])[flanked[1]][1]), troop.unit.width
        edge = -(-left // width) if facing == "flank" else np.where(left % width > 0, left % width, width)
        return np.minimum(edge, front)

    def count(self, blow: Blow, charger_code: Any, charged_code: Any) -> Any:
        """A blow's attacks (melee, a character's) or models making it (Impact Hits, Stomp Attacks) in this state
        (codes or arrays of them): the flanked unit of a pair strikes with the models facing its flanker, no
        Supporting Attacks; a character that refused a Duel none; a unit that fled neither strikes nor is struck,
        nor strikes a unit gone."""
        codes = (charger_code, charged_code)
        mine, theirs = self.lines[blow.side], self.lines[1 - blow.side]
        own, struck = self.ends(blow)
        fled, code = mine.split(codes[blow.side])[own]
        their_parts = theirs.split(codes[1 - blow.side])
        foes = self.foes(blow.side, own) if blow.kind == "hero" else (struck,)
        live = (fled == 0) & np.logical_or.reduce([(their_parts[foe][0] == 0)
                                                   & (theirs.troops[foe].left(their_parts[foe][1]) > 0)
                                                   for foe in foes])
        troop = mine.troops[own]
        hero = troop.alive(code)
        if blow.kind == "hero":
            assert troop.hero is not None, blow  # schedule gives a side such a blow only when it has one
            return live * (0 if troop.refused else hero * troop.hero.parts[blow.part].attacks)
        unit, lost = troop.unit, troop.pools(code)[0]
        flanked = (blow.side == 1) == (blow.enemy == 0)  # the charged unit, or the charger's main one
        facing = self.facing(blow.unit, charger_code, charged_code, blow.enemy) if flanked else None
        supporting: Any = facing is None
        if facing is not None and mine.reforms:  # turned to face its flanker (a Combat Reform): front to front
            supporting = mine.faced(codes[blow.side]) > 0
            facing = np.where(supporting, unit.models + 1, facing)  # (more than its front rank: all of it)
        shared = self.shared(blow.side, own, struck, codes) if facing is None else None
        if shared is not None:  # two enemy units on its front: the models facing this one, and those behind them
            share, width, first = shared
            contact = np.maximum(share - first * hero, 0) * (unit.in_contact(lost, None, hero) > 0)
            behind = unit.supporters(lost, hero)
            other = np.where(width > 0, behind * (width - share) // np.maximum(width, 1), 0)
            support = behind - other if first else np.where(width > 0, behind * share // np.maximum(width, 1), 0)
            if blow.kind != "melee":
                return live * contact
            part = unit.parts[blow.part]
            return live * (contact * part.attacks + (0 if part.harnessed else support * min(part.attacks,
                                                                                               unit.height.support)))
        if blow.kind != "melee":
            return live * unit.in_contact(lost, facing, hero)
        return live * unit.strikes(unit.parts[blow.part], lost, supporting, facing, hero)

    def shared(self, side: int, unit: int, foe: int, codes: tuple[Any, Any]) -> tuple[Any, Any, bool] | None:
        """When two units (the other main one and an ally `facing front`) share the front of `side`'s main `unit`:
        (its front-rank models facing `foe`, its front rank, `foe` is the first), by `front_share`; else None."""
        theirs = self.lines[1 - side]
        facings = self.facings if side == 1 else self.enemy_facings
        front = [index for index, facing in enumerate(facings) if facing == "front"] if unit == 0 else []
        if len(front) < 2 or foe not in front:
            return None
        parts = theirs.split(codes[1 - side])
        fronts = [np.where(parts[index][0] == 0, theirs.troops[index].front(parts[index][1]), 0) for index in front]
        width = self.lines[side].troops[unit].front(self.lines[side].split(codes[side])[unit][1])
        most = np.maximum(width - 1, 0) if self.front_share is FrontShare.BESIDE else width // 2
        second = np.where(fronts[0] > 0, np.minimum(fronts[1], most), width)
        second = np.where(fronts[1] > 0, second, 0)
        return (width - second if foe == front[0] else second), width, foe == front[0]

    def struck(self, blow: Blow, charger_code: Any, charged_code: Any) -> Any:
        """The pool a blow strikes (codes or arrays of them), as `2 * the struck unit + its pool` (pool 0 its rank
        and file, 1 its character), or -1: none. The rank and file while one stands (an open reading: the attacker
        may choose its character; docs/rules.md §3.11), then the character; in a Duel the main units' characters
        strike only each other, and no one else strikes them. A character strikes the first unit standing of those
        in base contact with its own (the main one first)."""
        duel = self.duelling(charger_code, charged_code)
        own, struck = self.ends(blow)
        theirs = self.lines[1 - blow.side]
        parts = theirs.split((charger_code, charged_code)[1 - blow.side])
        candidates = self.foes(blow.side, own) if blow.kind == "hero" else (struck,)
        standing = [(parts[foe][0] == 0) & (theirs.troops[foe].left(parts[foe][1]) > 0) for foe in candidates]
        chosen = np.select(standing, candidates, -1) if blow.kind == "hero" else struck
        out: Any = -1
        for foe in candidates:
            fled, code = parts[foe]
            enemy = theirs.troops[foe]
            hero = (enemy.alive(code) > 0) & ~(duel & (foe == 0))
            pool = np.where(enemy.rank_and_file(code) > 0, 2 * foe, np.where(hero, 2 * foe + 1, -1))
            out = np.where((chosen == foe) & (fled == 0), pool, out)
        if blow.kind == "hero" and own == 0:
            out = np.where(duel, 1, out)  # the main units' characters: each other, in their Duel
        return out

    def target(self, blow: Blow, charger_code: int, charged_code: int) -> tuple[int, int] | None:
        """(the struck unit on the other side, its Health Pool) a blow strikes in one state, or None (`struck`)."""
        pool = int(self.struck(blow, charger_code, charged_code))
        return None if pool < 0 else divmod(pool, 2)

    def attack(self, blow: Blow, count: int, struck: tuple[int, int] = (0, 0), target_lost: int = 0) -> Attack:
        """The blow's `count` attacks (or models' automatic hits) on the struck unit's pool, which has lost
        `target_lost`."""
        unit, pool = struck
        striker = self.lines[blow.side].troops[self.ends(blow)[0]]
        enemy = self.lines[1 - blow.side].troops[unit]
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
        troop = self.lines[side].troops[unit]
        lost, hero = troop.pools(code)
        if pool == 0:
            return int(troop.unit.total - lost)
        return int(max(troop.health - hero, 0) + (OVERKILL if duel and troop.duel and hero < troop.health else 0))

    def reach(self) -> tuple[int, int]:
        """(the most Health Points the charged side's rank and file can lose in a round, the charger's units'):
        every blow of the first round from full ranks, at the rank and file; what the exact twin's states span."""
        fight, most = self.in_round(True), [0, 0]
        for _, blows in fight.schedule(True):
            for blow in blows:
                own, struck = fight.ends(blow)
                striker = fight.lines[blow.side].troops[own]
                target = fight.lines[1 - blow.side].troops[struck].unit
                if blow.kind in ("melee", "hero"):  # Battle Focus: two hits from a 6; Multiple Wounds: up to its
                    owner = striker.hero if blow.kind == "hero" else striker.unit
                    assert owner is not None, blow
                    part = owner.parts[blow.part]
                    wounds = part.multiple_wounds.highest if part.multiple_wounds is not None else 1  # Health each
                    each = (2 if "battle-focus" in part.attributes else 1) * min(wounds, target.health)
                else:
                    each = striker.unit.automatic_dice(blow.kind).highest
                most[blow.side] += fight.count(blow, 0, 0) * each
        totals = [sum(troop.unit.total for troop in line.troops) for line in self.lines]
        return min(totals[1], most[0]), min(totals[0], most[1])
