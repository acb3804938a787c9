"""The 9th Age: a round of close combat end to end, as one query (`t9a combat`; docs/rules.md §3.11): the
charging unit and the charged one strike in Initiative Order, the combat score, the loser's Break Test with
Steadfast, Flee and Pursuit; optionally a second round. The mechanics are `fight.py`'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..attack import Attack, option
from ..dice import EXACT_SECONDS
from ..errors import require
from ..style import plural
from .fight import (
    EVENTS,
    MAX_MODELS,
    MAX_ROUNDS,
    MAX_WIDTH,
    OUTCOMES,
    FacingBonus,
    Fight,
    Fighter,
    HighAgility,
    LastRank,
    Pursuit,
    combat_pmfs,
    combat_sample,
)
from .attacks import game_dice
from .stages import read_armour

MAX_IMPACT = 200  # the automatic hits t9a hits takes
from ..dice import DiceExpression

# --- the query --------------------------------------------------------------------------

PER_STATE = {False: 2e-4, True: 2e-3}  # seconds a state's round takes, floats / fractions (measured here)


@dataclass(frozen=True, kw_only=True)
class Combat(Attack):
    """A round of close combat of The 9th Age (docs/rules.md §3.11): the charging unit (the options) against
    the charged one (--enemy-...): Initiative Steps from Agility 10 down (the charger +1, Charging Momentum),
    each step's attacks at once from the models standing, as t9a melee rolls them; the combat score
    (Health Points the enemy lost, the Charge +1, Rank Bonus, Standard, Flank +1 / Rear +2); the loser's Break
    Test on 2D6 (the difference its penalty, none when Steadfast); a broken unit flees 2D6 and is caught when
    the Pursuit's 2D6 is as high. --rounds 2 fights on when no one broke.

    Outcomes: win (the charger wins the last round fought), draw, health_lost (the charger's), enemy_health_lost,
    break (the loser broke), caught (and was caught: destroyed), score (the combat scores' difference; win
    says whose).
    """

    models: int = option(f"The charger: models in the unit, 1 to {MAX_MODELS}.", metavar="N")
    width: int = option("The charger: models in its front rank, 1 to 10.", metavar="W")
    health: int = option("The charger: each model's Health Points, 1 to 5.", 1, metavar="H")
    attacks: int = option("The charger: each model's Attack Value, 1 to 10 (a second-rank model makes one "
                                  "Supporting Attack).", metavar="A")
    offensive: int = option("The charger: Offensive Skill, 1 to 10.", metavar="O")
    defensive: int = option("The charger: Defensive Skill, 1 to 10.", metavar="D")
    strength: int = option("The charger: the Strength of its attacks, 1 to 10.", metavar="S")
    resilience: int = option("The charger: Resilience, 1 to 10.", metavar="R")
    agility: int = option("The charger: Agility, 0 to 10: its Initiative Step.", metavar="I")
    discipline: int = option("The charger: Discipline, 2 to 10, for its Break Test.", metavar="V")
    armour: int = option("The charger: Armour, 0 to 6 (Armour 2 saves on 5+), or the save it gives (5+).", 0,
                                 metavar="A", reader=read_armour)
    ap: int = option("The charger: Armour Penetration of its attacks, 0 to 10.", 0, metavar="P")
    aegis: int | None = option("The charger: Aegis save X+ (2+ to 6+).", None, roll=True)
    standard: bool = option("The charger: a Standard Bearer, +1 to its combat score.", False)
    swiftstride: bool = option("The charger: Swiftstride: its Flee and Pursuit rolls are Maximised.", False)
    great_weapon: bool = option("The charger: Great Weapons: it strikes at Initiative Step 0 (their +2 Strength "
                                      "and AP are its --strength and --ap).", False)
    lightning_reflexes: bool = option("The charger: Lightning Reflexes: +1 to hit; with Great Weapons, no +1 but "
                                            "it strikes at its Agility's step.", False)
    spear: bool = option("The charger: Spears: Fight in Extra Rank; charged in its front, +2 Agility and +1 AP in "
                               "the first round (their own +1 AP is its --ap).", False)
    extra_ranks: int = option("The charger: Fight in Extra Rank from other rules, 0 to 2: one more supporting "
                                    "rank each.", 0, metavar="N")
    impact_hits: DiceExpression | str | int | None = option(
        "The charger: Impact Hits (X) of each front-rank model (1, d3, d6): automatic hits at its Strength and AP "
        "at Initiative Step 10 in the first round (t9a hits).", None, metavar="X",
        reader=lambda text: game_dice(text, "impact_hits"))
    enemy_models: int = option(f"The charged unit: models in the unit, 1 to {MAX_MODELS}.", metavar="N")
    enemy_width: int = option("The charged unit: models in its front rank, 1 to 10.", metavar="W")
    enemy_health: int = option("The charged unit: each model's Health Points, 1 to 5.", 1, metavar="H")
    enemy_attacks: int = option("The charged unit: each model's Attack Value, 1 to 10 (a second-rank model makes one "
                                  "Supporting Attack).", metavar="A")
    enemy_offensive: int = option("The charged unit: Offensive Skill, 1 to 10.", metavar="O")
    enemy_defensive: int = option("The charged unit: Defensive Skill, 1 to 10.", metavar="D")
    enemy_strength: int = option("The charged unit: the Strength of its attacks, 1 to 10.", metavar="S")
    enemy_resilience: int = option("The charged unit: Resilience, 1 to 10.", metavar="R")
    enemy_agility: int = option("The charged unit: Agility, 0 to 10: its Initiative Step.", metavar="I")
    enemy_discipline: int = option("The charged unit: Discipline, 2 to 10, for its Break Test.", metavar="V")
    enemy_armour: int = option("The charged unit: Armour, 0 to 6 (Armour 2 saves on 5+), or the save it gives (5+).", 0,
                                 metavar="A", reader=lambda text: read_armour(text, "enemy_armour"))
    enemy_ap: int = option("The charged unit: Armour Penetration of its attacks, 0 to 10.", 0, metavar="P")
    enemy_aegis: int | None = option("The charged unit: Aegis save X+ (2+ to 6+).", None, roll=True)
    enemy_standard: bool = option("The charged unit: a Standard Bearer, +1 to its combat score.", False)
    enemy_swiftstride: bool = option("The charged unit: Swiftstride: its Flee and Pursuit rolls are Maximised.", False)
    enemy_great_weapon: bool = option("The charged unit: Great Weapons: it strikes at Initiative Step 0 (their +2 Strength "
                                      "and AP are its --enemy-strength and --enemy-ap).", False)
    enemy_lightning_reflexes: bool = option("The charged unit: Lightning Reflexes: +1 to hit; with Great Weapons, no +1 but "
                                            "it strikes at its Agility's step.", False)
    enemy_spear: bool = option("The charged unit: Spears: Fight in Extra Rank; charged in its front, +2 Agility and +1 AP in "
                               "the first round (their own +1 AP is its --enemy-ap).", False)
    enemy_extra_ranks: int = option("The charged unit: Fight in Extra Rank from other rules, 0 to 2: one more supporting "
                                    "rank each.", 0, metavar="N")
    flank: bool = option("The charger strikes the enemy's flank: +1 to its combat score; the enemy makes no "
                         "Supporting Attacks.", False)
    rear: bool = option("The charger strikes the enemy's rear: +2 to its combat score; the enemy makes no "
                        "Supporting Attacks.", False)
    rounds: int = option(f"Rounds of combat fought at most, 1 to {MAX_ROUNDS}: the second when no one broke.", 1,
                         metavar="K")
    facing_bonus: FacingBonus = option("The charger's flank or rear bonus (an open reading, §3.11): ranked (flank +1, "
                                       "rear +2, one more with 2 Full Ranks or more) or flat (+1, +2).",
                                       FacingBonus.RANKED)
    last_rank: LastRank = option("An incomplete last rank of 5 models or more (an open reading): counts as a Full "
                                 "Rank, or ignored.", LastRank.COUNTS)
    pursuit: Pursuit = option("Whether the winner pursues a broken unit (an open reading): always, or restrain (it "
                              "takes a Restrain Pursuit test on its Discipline and pursues only when it fails).",
                              Pursuit.ALWAYS)
    high_agility: HighAgility = option("Where an Agility above 10 strikes (an open reading): step-10 (with the "
                                       "others there) or first (before them).", HighAgility.STEP_TEN)

    COMMAND = "t9a combat"
    outcomes = OUTCOMES
    events = EVENTS
    kill_outcome = "enemy_health_lost"  # a grid's p_kill: the charged unit's every Health Point lost in the fight

    PROFILE = ("models", "width", "health", "attacks", "offensive", "defensive", "strength", "resilience",
               "agility", "discipline", "armour", "ap", "aegis", "standard", "swiftstride", "great_weapon",
               "lightning_reflexes", "spear", "extra_ranks")

    def fighter(self, prefix: str) -> Fighter:
        """One side's unit (`prefix` "" the charger, "enemy_" the charged unit); Impact Hits the charger's."""
        impact = None if prefix or self.impact_hits is None else game_dice(self.impact_hits, "impact_hits")
        return Fighter(**{name: getattr(self, prefix + name) for name in self.PROFILE}, impact=impact,
                       last_rank=self.last_rank)

    @property
    def fight(self) -> Fight:
        return Fight(self.fighter(""), self.fighter("enemy_"), self.flank, self.rear, self.facing_bonus,
                     self.high_agility, self.pursuit)

    def describe(self) -> str:
        facing = " in the flank" if self.flank else " in the rear" if self.rear else ""
        rounds = f", at most {plural(self.rounds, 'round')}" if self.rounds != 1 else ""
        readings = [f"{name.replace('_', ' ')} {value.value}" for name, value, default in (
            ("facing_bonus", self.facing_bonus, FacingBonus.RANKED), ("last_rank", self.last_rank, LastRank.COUNTS),
            ("high_agility", self.high_agility, HighAgility.STEP_TEN), ("pursuit", self.pursuit, Pursuit.ALWAYS))
            if value is not default]
        return (f"T9A combat: {self._words('')} charge {self._words('enemy_')}{facing}{rounds}"
                + "".join(f", {reading}" for reading in readings))

    def _words(self, prefix: str) -> str:
        unit = self.fighter(prefix)
        words = [f"{plural(unit.models, 'model')} {unit.width} wide", f"H{unit.health}", f"A{unit.attacks}",
                 f"O{unit.offensive} D{unit.defensive} S{unit.strength} R{unit.resilience}",
                 f"Agility {unit.agility}", f"Discipline {unit.discipline}"]
        words += [f"armour {unit.armour}"] if unit.armour else []
        words += [f"AP {unit.ap}"] if unit.ap else []
        words += [f"aegis {unit.aegis}+"] if unit.aegis else []
        words += [word for word, on in (("standard", unit.standard), ("swiftstride", unit.swiftstride),
                                        ("great weapons", unit.great_weapon),
                                        ("lightning reflexes", unit.lightning_reflexes), ("spears", unit.spear)) if on]
        words += [f"{plural(unit.extra_ranks, 'extra rank')}"] if unit.extra_ranks else []
        words += [f"Impact Hits ({unit.impact})"] if unit.impact is not None else []
        return "(" + ", ".join(words) + ")"

    def check(self) -> None:
        for prefix in ("", "enemy_"):
            object.__setattr__(self, prefix + "armour", read_armour(getattr(self, prefix + "armour"), prefix + "armour"))
            for name, low, high in (("models", 1, MAX_MODELS), ("width", 1, MAX_WIDTH), ("health", 1, 5),
                                    ("attacks", 1, 10), ("offensive", 1, 10), ("defensive", 1, 10),
                                    ("strength", 1, 10), ("resilience", 1, 10), ("agility", 0, 10),
                                    ("discipline", 2, 10), ("ap", 0, 10), ("extra_ranks", 0, 2)):
                value = getattr(self, prefix + name)
                require(low <= value <= high, prefix + name, value, f"expected {low} to {high}")
            aegis = getattr(self, prefix + "aegis")
            require(aegis is None or 2 <= aegis <= 6, prefix + "aegis", aegis, "expected 2+ to 6+")
        require(not (self.flank and self.rear), "rear", "on", "the charger strikes one facing: --flank or --rear")
        if self.impact_hits is not None:
            each = game_dice(self.impact_hits, "impact_hits")
            most = each.count * each.sides + each.modifier if each.count else each.modifier
            require(1 <= most and most * self.width <= MAX_IMPACT, "impact_hits", str(self.impact_hits),
                    f"expected Impact Hits that can reach 1 to {MAX_IMPACT // self.width} a model "
                    f"({self.width} in the front rank: {MAX_IMPACT} hits at most, as t9a hits takes)")
        require(1 <= self.rounds <= MAX_ROUNDS, "rounds", self.rounds, f"expected 1 to {MAX_ROUNDS} rounds")

    def exact_seconds(self, fractions: bool = False) -> float:
        """About how long the exact answer takes: every pair of Health Points lost a round may start from."""
        states = (self.models * self.health + 1) * (self.enemy_models * self.enemy_health + 1)
        return PER_STATE[fractions] * (1 + (self.rounds - 1) * states)

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        return combat_sample(rng, self.fight, self.rounds, trials)

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, np.ndarray]:
        seconds = self.exact_seconds(number is not float)
        require(seconds <= EXACT_SECONDS, "exact", self.describe(),
                f"the exact answer would take about {seconds:,.0f} s; sample instead (leave out --exact"
                + (", or drop --fractions)" if number is not float else ")"))
        return combat_pmfs(self.fight, self.rounds, number)
