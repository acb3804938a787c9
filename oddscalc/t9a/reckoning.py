"""The 9th Age: how a round of close combat is reckoned once its blows are struck (docs/rules.md §3.11): who is
Engaged, the combat scores and the result, Steadfast, and who may Combat Reform before the next round. `Fight` (its
sides, their facings and readings) is `fight.py`'s; both twins read these, for a state or arrays of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from .readings import ChargeBonus, CombatReform, FacingBonus

if TYPE_CHECKING:
    from .troop import Line

CHARGE_BONUS = 1
FLANK_BONUS, REAR_BONUS = 1, 2


class Reckoning:
    """A round's reckoning, for `Fight` (whose fields and facings these read)."""

    if TYPE_CHECKING:
        @property
        def lines(self) -> tuple[Line, Line]: ...

        @property
        def facings(self) -> tuple[str, ...]: ...

        @property
        def enemy_facings(self) -> tuple[str, ...]: ...

        facing_bonus: FacingBonus
        charge_bonus: ChargeBonus
        combat_reform: CombatReform

        def foes(self, side: int, unit: int) -> tuple[int, ...]: ...

        def flanking(self, side: int, unit: int) -> tuple[tuple[int, str], ...]: ...

    def reformable(self, facings: tuple[str, ...]) -> bool:
        """Whether a side's main unit may ever Combat Reform: by `combat_reform`, when one of the enemy units (their
        `facings` on it) is in its flank or rear."""
        return self.combat_reform is CombatReform.FACE and any(facing != "front" for facing in facings)

    def reforming(self, side: int, codes: tuple[Any, Any]) -> Any:
        """Where `side`'s main unit may Combat Reform to face its enemy (rulebook, Combat Reforms): it stands, it has
        not yet, and the one enemy unit standing in base contact with it is in its flank or rear (two, one on each of
        two facings: it cannot). Whether it does after a lost round is its Discipline test's (the twins')."""
        line, theirs = self.lines[side], self.lines[1 - side]
        if not line.reforms:
            return np.asarray(codes[side]) < 0
        facings = self.enemy_facings if side == 0 else self.facings
        standing = [left > 0 for left in theirs.left(codes[1 - side])]
        alone = sum(np.asarray(on, dtype=np.int64) for on in standing) == 1
        behind = np.logical_or.reduce([on for on, facing in zip(standing, facings) if facing != "front"] or [False])
        return (line.left(codes[side])[0] > 0) & (line.faced(codes[side]) == 0) & alone & behind

    def engaged(self, side: int, codes: tuple[Any, Any]) -> list[Any]:
        """Each of a side's units that is Engaged: it stands in the fight (not fled), and so does one of the enemy
        units in base contact with it."""
        lefts = [left > 0 for left in self.lines[1 - side].left(codes[1 - side])]
        return [(left > 0) & np.logical_or.reduce([lefts[foe] for foe in self.foes(side, unit)])
                for unit, left in enumerate(self.lines[side].left(codes[side]))]

    def scores(self, charger_code: Any, charged_code: Any, charger_before: Any, charged_before: Any,
               first_round: bool) -> tuple[Any, Any]:
        """(the charger's combat score, the charged side's): Health Points each made the other lose this round (and
        a Duel's Overkill), the Charge +1 (the charger's, first round), the highest Rank Bonus of its units still
        Engaged (models left, and an enemy in contact with models left: "No More Foes"), each one's Standard +1,
        Battle Standard +1, and its units' Flank +1 / Rear +2 in an enemy's flank or rear (each once, one more with
        2 Full Ranks by `facing_bonus`; none once that enemy turned to face them, a Combat Reform). A Standard
        Bearer removed is not Engaged; a unit that wiped out its foes provides no Standard or Flank bonus."""
        codes, before = (charger_code, charged_code), (charger_before, charged_before)
        out = []
        for side, line in enumerate(self.lines):
            theirs = self.lines[1 - side]
            score: Any = sum(troop.scored(code) - troop.scored(old) for troop, (_, code), (_, old) in
                             zip(theirs.troops, theirs.split(codes[1 - side]), theirs.split(before[1 - side])))
            parts = line.split(codes[side])
            engaged = self.engaged(side, codes)
            ranks = [troop.full_ranks(code) for troop, (_, code) in zip(line.troops, parts)]
            bonus: Any = 0
            for troop, (_, code), on, full in zip(line.troops, parts, engaged, ranks):
                bonus = np.maximum(bonus, on * troop.unit.bonus_of(full))
                score = score + on * troop.standards(code)
            facings = self.facings if side == 0 else self.enemy_facings
            faced = theirs.faced(codes[1 - side]) == 0  # (not faced: the enemy's main unit did not turn to them)
            for facing, extra in (("flank", FLANK_BONUS), ("rear", REAR_BONUS)):
                there = [(on & faced, full) for at, on, full in zip(facings, engaged, ranks) if at == facing]
                if there:
                    any_on = np.logical_or.reduce([on for on, _ in there])
                    score = score + any_on * extra
                    if self.facing_bonus is FacingBonus.RANKED:
                        score = score + np.logical_or.reduce([on & (full >= 2) for on, full in there]) * 1
            if side == 0 and first_round:
                charge: Any = CHARGE_BONUS
                if self.charge_bonus is ChargeBonus.MODELS:  # only while one of its Charging models stands
                    charge = charge * self.standing(charger_code)
                score = score + charge
            out.append(score + bonus)
        return out[0], out[1]

    def result(self, charger_code: Any, charged_code: Any, charger_before: Any, charged_before: Any,
               first_round: bool) -> tuple[Any, Any, Any]:
        """(the charger won, a draw, the scores' difference) of a round that ends in these states: the higher
        combat score wins, a tie is a draw; a side whose every foe was wiped out while it stands always counts
        as winning (rulebook, Break Test: No More Foes), so a side wiped out loses to one left standing."""
        ours, theirs = self.scores(charger_code, charged_code, charger_before, charged_before, first_round)
        mine, their = self.standing(charger_code), self.standing(charged_code, 1)
        alone = mine != their  # one side stands, the other is gone
        won = np.where(alone, mine, ours > theirs)
        tied = ~alone & (ours == theirs)
        return won, tied, np.abs(ours - theirs)

    def standing(self, code: Any, side: int = 0) -> Any:
        """Where one of a side's units stands in the fight (not wiped out, not fled)."""
        lefts = self.lines[side].left(code)
        return np.logical_or.reduce([left > 0 for left in lefts]) if len(lefts) > 1 else lefts[0] > 0

    def steadfast(self, charger_code: Any, charged_code: Any) -> tuple[list[Any], list[Any]]:
        """(each of the charger's units is Steadfast, each of the charged side's): more Full Ranks than every enemy
        unit in the fight (not fled); not while an enemy unit in its flank or rear has 2 Full Ranks or more
        (Disrupted Ranks), unless it turned to face it (a Combat Reform)."""
        codes = (charger_code, charged_code)
        ranks = [[troop.full_ranks(code) * (fled == 0) for troop, (fled, code) in
                  zip(line.troops, line.split(codes[side]))] for side, line in enumerate(self.lines)]
        out: list[list[Any]] = []
        for side in (0, 1):
            theirs = ranks[1 - side]
            highest = theirs[0] if len(theirs) == 1 else np.maximum.reduce(theirs)
            steady = []
            faced = self.lines[side].faced(codes[side]) > 0
            for unit, full in enumerate(ranks[side]):
                disrupted: Any = False
                for foe, _ in self.flanking(side, unit):
                    disrupted = disrupted | (np.asarray(theirs[foe] >= 2) & ~faced)
                steady.append((full > highest) & ~np.asarray(disrupted))
            out.append(steady)
        return out[0], out[1]
