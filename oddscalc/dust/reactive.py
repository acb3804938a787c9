"""Dust Tactics reactive fire (docs/rules.md §1.10), alone or chained into the enemy's
activation that it interrupts.

Seed 000 («Ответный огонь»): an unactivated unit rolls one die; on a blank it does not
fire (and counts as activated), on a hit it fires one attack action, with all its weapon
lines in range, at the enemy unit that was activated. When depends on the enemy's
actions: after its move and before its attack (move + attack: the reaction can destroy
the attacker before it shoots), after the second move and before the close-combat attack
(Onslaught), after its attack (attack + move), after the first move (move + move). A
sustained attack cannot be interrupted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from enum import Enum
from fractions import Fraction

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from ..core import pmf as pmfs
from ..core.attack import Attack, option
from ..errors import choose, require
from ..core.pool import uniform_faces
from .attacks import RESILIENT
from .die import (
    HIT,
    MAX_DAMAGE,
    MAX_DICE,
    CoverSave,
    attack_die,
    check_count,
    exact_line,
    sample_line,
    shows_hit,
)

MAX_HEALTH = 200


class Timing(str, Enum):
    """The enemy's activation that the reaction interrupts, and where it comes (§1.10)."""

    MOVE_ATTACK = "move-attack"  # after the move, before the attack
    ONSLAUGHT = "onslaught"  # after the second move, before the close-combat attack
    ATTACK_MOVE = "attack-move"  # after the attack
    MOVE_MOVE = "move-move"  # after the first move: there is no attack
    SUSTAINED = "sustained"  # a sustained attack: cannot be interrupted (refused)


BEFORE = (Timing.MOVE_ATTACK, Timing.ONSLAUGHT)  # the reaction comes before the enemy's attack


@record(kw_only=True)
class Reactive(Attack):
    """Try reactive fire: one die, a hit lets the unit fire one attack action (§1.10).

    The Dust die is read off a D6: faces 5 and 6 are its two hit faces (P(hit) = 1/3).
    Alone, the outcome is success. With the reacting unit's weapon (`dice`, `damage`, the
    enemy's `save`), also the damage it deals; with the enemy unit's `health`, whether it
    is destroyed; with the enemy's attack (`enemy_dice`, `enemy_damage`, this unit's
    `enemy_save`), the damage this unit takes. With `timing` move-attack or onslaught the
    reaction comes first: an enemy it destroys never attacks. With attack-move the enemy
    attacks first: a reacting unit it destroys (`own_health`) cannot react. Outcomes:
    success, then damage, destroyed, damage_taken as given.
    """

    dice: int | None = option("The reacting unit's dice N against the enemy (all its weapon lines in range, "
                              "added up). Without it: only the reactive roll.", None, metavar="N")
    damage: int = option("Damage D per hit of the reacting unit's line N/D.", 1, metavar="D")
    save: CoverSave = option("The enemy unit's cover save: hit, miss or none.", CoverSave.NONE)
    resilient: bool = option(RESILIENT, False)
    health: int | None = option("The enemy unit's damage points in all: destroyed when the reaction deals that "
                                "many.", None, metavar="H")
    timing: Timing = option("The enemy's actions: move-attack (the reaction comes before the attack), onslaught "
                            "(before the close-combat attack), attack-move (after the attack), move-move (no "
                            "attack). A sustained attack cannot be interrupted.", Timing.MOVE_ATTACK)
    enemy_dice: int | None = option("The enemy's attack on the reacting unit: N dice.", None, metavar="N")
    enemy_damage: int = option("Damage D per hit of the enemy's attack.", 1, metavar="D")
    enemy_save: CoverSave = option("The reacting unit's cover save against the enemy's attack.", CoverSave.NONE)
    own_health: int | None = option("The reacting unit's damage points in all: with --timing attack-move, it "
                                    "reacts only if it survives the enemy's attack.", None, metavar="H")

    COMMAND = "dust reactive"

    @property
    def outcomes(self) -> tuple[str, ...]:
        if self.dice is None:
            return ("success",)
        return ("success", "damage") + (("destroyed",) if self.health is not None else ()) + (
            ("damage_taken",) if self.enemy_dice is not None else ())

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(name for name in ("success", "destroyed") if name in self.outcomes)

    def describe(self) -> str:
        if self.dice is None:
            return "Dust reactive fire"
        words = [f"{self.dice}/{self.damage}", f"{self.timing.value}"]
        words += [f"into a {self.save.value}-save"] if self.save is not CoverSave.NONE else []
        words += ["resilient"] if self.resilient else []
        words += [f"enemy of {self.health} damage points"] if self.health is not None else []
        if self.enemy_dice is not None:
            words += [f"enemy attack {self.enemy_dice}/{self.enemy_damage}"]
            words += [f"into a {self.enemy_save.value}-save"] if self.enemy_save is not CoverSave.NONE else []
        words += [f"{self.own_health} own damage points"] if self.own_health is not None else []
        return "Dust reactive fire: " + ", ".join(words)

    def check(self) -> None:
        for name, enum in (("save", CoverSave), ("timing", Timing), ("enemy_save", CoverSave)):
            choose(self, name, enum)
        require(self.timing is not Timing.SUSTAINED, "timing", "sustained",
                "reactive fire cannot interrupt a sustained attack (Dust Tactics rules, Reactive Fire)")
        for name, high, what in (("dice", MAX_DICE, "dice"), ("enemy_dice", MAX_DICE, "dice"),
                                 ("health", MAX_HEALTH, "damage points"), ("own_health", MAX_HEALTH, "damage points")):
            if getattr(self, name) is not None:
                check_count(getattr(self, name), name, 1, high, what)
        check_count(self.damage, "damage", 1, MAX_DAMAGE, "damage per hit")
        check_count(self.enemy_damage, "enemy_damage", 1, MAX_DAMAGE, "damage per hit")
        if self.dice is None:
            given = [name for name in ("health", "enemy_dice", "own_health") if getattr(self, name) is not None]
            require(not given, given[0] if given else "dice", None,
                    "needs the reacting unit's weapon: --dice N (and --damage D)")
        require(self.enemy_dice is None or self.timing is not Timing.MOVE_MOVE, "enemy_dice", self.enemy_dice,
                "move + move has no attack to interrupt; give --timing move-attack, onslaught or attack-move")
        require(self.own_health is None or (self.timing is Timing.ATTACK_MOVE and self.enemy_dice is not None),
                "own_health", self.own_health, "only matters with --timing attack-move and --enemy-dice (the enemy "
                                               "attacks before the reaction)")

    # --- both ways ---------------------------------------------------------------------

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        success = shows_hit(uniform_faces(rng, 6, trials)).astype(np.int64)
        if self.dice is None:
            return {"success": success}
        taken = None
        if self.enemy_dice is not None and self.timing is Timing.ATTACK_MOVE:  # the enemy attacks first
            taken = self._line(rng, trials, self.enemy_dice, self.enemy_damage, self.enemy_save, False)
            if self.own_health is not None:
                success = success * (taken < self.own_health)  # a destroyed unit cannot react
        dealt = self._line(rng, trials, self.dice, self.damage, self.save, self.resilient) * success
        outcomes = {"success": success, "damage": dealt}
        destroyed = dealt >= self.health if self.health is not None else np.zeros(trials, dtype=bool)
        if self.health is not None:
            outcomes["destroyed"] = destroyed.astype(np.int64)
        if self.enemy_dice is not None:
            if taken is None:  # the reaction came first: a destroyed enemy never attacks
                taken = self._line(rng, trials, self.enemy_dice, self.enemy_damage, self.enemy_save, False) * ~destroyed
            outcomes["damage_taken"] = taken
        return outcomes

    @staticmethod
    def _line(rng: np.random.Generator, trials: int, dice: int, damage: int, save: CoverSave,
              resilient: bool) -> np.ndarray:
        rolled = sample_line(rng, trials, attack_die(0, save=save, damage=damage), dice, resilient)
        return np.asarray(rolled["damage"] if isinstance(rolled, dict) else rolled.total("damage"), dtype=np.int64)

    def pmfs(self, number: NumberType) -> dict[str, np.ndarray]:
        hit, zero, one = number(HIT), number(Fraction(0)), number(Fraction(1))
        if self.dice is None:
            return {"success": pmfs.array([1 - hit, hit])}
        enemy = (pmfs.array(exact_line(self.enemy_dice, HIT, self.enemy_save, self.enemy_damage, False,
                                       number)["damage"]) if self.enemy_dice is not None else None)
        fires = hit
        if enemy is not None and self.timing is Timing.ATTACK_MOVE and self.own_health is not None:
            fires = hit * sum(enemy[: self.own_health], zero)  # it survives, then rolls
        dealt = pmfs.array(exact_line(self.dice, HIT, self.save, self.damage, self.resilient, number)["damage"])
        outcomes = {"success": pmfs.array([1 - fires, fires]),
                    "damage": pmfs.mixture([(1 - fires, pmfs.point(0, dealt)), (fires, dealt)])}
        destroyed = fires * sum(dealt[self.health:], zero) if self.health is not None else zero
        if self.health is not None:
            outcomes["destroyed"] = pmfs.array([1 - destroyed, destroyed])
        if enemy is not None:
            attacked = one - destroyed if self.timing in BEFORE else one
            outcomes["damage_taken"] = pmfs.mixture([(1 - attacked, pmfs.point(0, enemy)), (attacked, enemy)])
        return outcomes
