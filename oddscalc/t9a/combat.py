"""The 9th Age: a round of close combat end to end, as one query (`t9a combat`; docs/rules.md §3.11): the
charging unit and the charged one, each with a character if one is joined, strike in Initiative Order; the combat
score, the loser's Break Test with Steadfast, Flee and Pursuit; round after round with --rounds. The mechanics are
`fight.py`'s (the exact twin `fight_exact.py`, the sampler `fight_sampled.py`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Mapping, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core import attack as attacks
from ..core.attack import Attack, option
from ..core.sided import Sided
from ..core.dice import EXACT_SECONDS
from ..core.drawn import JointLaw
from ..errors import InputError, require
from ..output.style import plural
from .attributes import game_dice
from .fight import EVENTS, MAX_ROUNDS, MAX_STEP, OUTCOMES, SLAIN, Ally, Fight, by_round, read_rounds
from .exact_cost import exact_cost
from .fight_exact import combat_pmfs
from .fight_joint import joint_law
from .fight_sampled import combat_sample
from .fighter import (
    MAX_HEALTH,
    MAX_IMPACT,
    MAX_MODELS,
    MAX_WIDTH,
    Fighter,
    Height,
    LastRank,
    LineBonus,
)
from .allies import MAX_ALLIES, WithUnit, check_side, read_ally
from .profiles import Hero, read_character, read_part
from .readings import (ChargeBonus, Chase, CombatReform, FacingBonus, FlankModels, FrontShare, HighAgility,
                       MountMomentum, Pursuit)
from .sides import ATTACK_FLAGS, DEFENCE, REROLLS, TARGET_OPTIONS, Charger, Side, dashed, side_words
from .stages import Reroll, read_armour
from .troop import Challenge



@record(kw_only=True, init=False)
class Combat(Sided, Attack):
    """A round of close combat of The 9th Age (docs/rules.md §3.11): the charging unit (the options) against
    the charged one (--enemy-...): Initiative Steps from Agility 10 down (the charger +1, Charging Momentum),
    each step's attacks at once from the models standing, as t9a melee rolls them; the combat score
    (Health Points the enemy lost, the Charge +1, Rank Bonus, Standard, Flank +1 / Rear +2); the loser's Break
    Test on 2D6 (the difference its penalty, none when Steadfast); a broken unit flees 2D6 and is caught when
    the Pursuit's 2D6 is as high. --rounds N fights on while no one broke and both stand (--rounds end: until
    then, at most 10 rounds).

    Outcomes: win (the charger wins the last round fought), draw, health_lost (the charger's side's),
    enemy_health_lost, break (the loser broke: with several units, one of them, in any round), caught (and was
    caught: destroyed), score (the combat scores' difference; win says whose), enemy_break (the charged unit broke,
    or one of its side's units: "will my charge break them?"), enemy_caught (and was caught), rounds (the rounds
    fought); with a character, character_slain and enemy_character_slain.
    """

    charger: Charger = attacks.side("", "The charger")
    charged: Side = attacks.side("enemy_", "The charged unit")
    flank: bool = option("The charger strikes the enemy's flank: +1 to its combat score; the enemy makes no "
                         "Supporting Attacks.", False)
    rear: bool = option("The charger strikes the enemy's rear: +2 to its combat score; the enemy makes no "
                        "Supporting Attacks.", False)
    rounds: int = option(f"Rounds of combat fought at most, 1 to {MAX_ROUNDS}, or end ({MAX_ROUNDS}): each after the "
                         "first while no one broke and both stand.", 1, metavar="K", reader=read_rounds)
    facing_bonus: FacingBonus = option("The charger's flank or rear bonus (an open reading, §3.11): ranked (flank +1, "
                                       "rear +2, one more with 2 Full Ranks or more) or flat (+1, +2).",
                                       FacingBonus.RANKED)
    last_rank: LastRank = option("An incomplete last rank of 5 models or more (an open reading): counts as a Full "
                                 "Rank, or ignored.", LastRank.COUNTS)
    pursuit: Pursuit = option("Whether the winner pursues a broken unit (an open reading): always, or restrain (it "
                              "takes a Restrain Pursuit test on its Discipline and pursues only when it fails).",
                              Pursuit.ALWAYS)
    line_bonus: LineBonus = option("A unit in Line Formation (ranks of 8 or more: its third rank supports too) has "
                                   "no Rank Bonus (an open reading): none, or kept.", LineBonus.NONE)
    flank_models: FlankModels = option("How many models of the charged unit fight back in its flank or rear (an open "
                                       "reading): matched (as many as the charger's front rank) or edge (one a rank in "
                                       "the flank, its last rank's in the rear; at most the charger's front rank).",
                                       FlankModels.MATCHED)
    combat_reform: CombatReform = option("Whether a unit engaged by one enemy unit alone, in its flank or rear, turns "
                                         "to face it between rounds (Combat Reform): face (after a won or drawn round; "
                                         "after a lost one when it passes a Discipline test at the Break Test's "
                                         "penalty) or keep (its formation).", CombatReform.FACE)
    front_share: FrontShare = option("How two units on one enemy front share its front rank and supports (an open "
                                     "reading): beside (the unit facing front faces as many as its own front rank, the "
                                     "main one the rest, at least one) or even (half each).", FrontShare.BESIDE)
    mount_momentum: MountMomentum = option("Whether a charging mount has Charging Momentum's +1 Agility too (an open "
                                           "reading): all (every part of a charging model) or rider.",
                                           MountMomentum.ALL)
    high_agility: HighAgility = option("Where an Agility above 10 strikes (an open reading): step-10 (with the "
                                       "others there) or first (before them).", HighAgility.STEP_TEN)
    charge_bonus: ChargeBonus = option("Who has the Charge +1 (an open reading, when both units die at one step): "
                                       "side (the charger, whatever is left) or models (while one stands).",
                                       ChargeBonus.SIDE)
    challenge: bool = option("The charger's character issues a Duel and the charged unit's accepts (both need "
                             "--character and --enemy-character): they strike only each other, round after round "
                             "until one falls; up to 3 Health Points past the last count as Overkill.", False)
    challenge_refused: bool = option("The charger's character issues a Duel and the charged unit's refuses it: "
                                     "the refusing character makes no attacks, lends no Discipline or Stubborn, "
                                     "and as a Battle Standard Bearer gives no +1.", False)
    chase: Chase = option("Which broken unit a winning unit in contact with several of them pursues (with "
                          "--with-unit or --enemy-with-unit; an open reading of the winner's choice): main (the main "
                          "unit first) or ally (its allies first, the last given first).", Chase.MAIN)
    by_round: bool = option("Add the per-round view to the outcomes (--rounds 2 or more): decided (a side broke, "
                            "fled or was destroyed before the rounds ran out), and each side's Health Points lost by "
                            "the end of each round (health_lost_by_round_K); --plot FILE --outcome rounds draws "
                            "them.", False)
    with_unit: tuple[Any, ...] = option(
        f"Another unit of the charger's in the combat (at most {MAX_ALLIES}), in the charged unit's flank or rear, "
        "or facing front beside the main unit (sharing its front): "
        "'models 5 width 5 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 discipline 7 facing "
        "flank' (this query's option names; health, armour, ap, standard, swiftstride…). It charges too; the combat "
        "score is the side's, each losing unit takes its Break Test. After the word character, the character "
        "joined to it, as --character writes it: '… facing flank character A2 O5 D4 S4 R4 I5 H2'.", (),
        metavar="PROFILE", many=read_ally)
    enemy_with_unit: tuple[Any, ...] = option(
        f"Another unit of the charged side's (at most {MAX_ALLIES}): in the flank or rear of the charger's main unit, "
        "or facing front beside the charged unit; a PROFILE as --with-unit writes it. It does not charge; the score "
        "is the side's, each losing unit tests.", (), metavar="PROFILE", many=lambda text: read_ally(text, "enemy_with_unit"))

    COMMAND = "t9a combat"
    kill_outcome = "enemy_health_lost"  # a grid's p_kill: the charged unit's every Health Point lost in the fight
    break_outcome = "enemy_break"  # a grid's p_break: the charged unit broke

    TRAITS = frozenset(prefix + name for prefix in ("", "enemy_") for name in (
        "stubborn", "stomp", "cannot_be_stomped", "flammable", "flaming", "divine", "ignores_parry", "parry"))
    PROFILE = ("models", "width", "health", "attacks", "offensive", "defensive", "strength", "resilience",
               "agility", "discipline", "armour", "ap", "aegis", "standard", "swiftstride", "great_weapon",
               "lightning_reflexes", "spear", "extra_ranks", "cannot_be_stomped", "stubborn", "unbreakable")

    @property
    def outcomes(self) -> tuple[str, ...]:
        return OUTCOMES + SLAIN * self.heroic + (by_round(self.rounds) if self.by_round else ())

    @property
    def events(self) -> tuple[str, ...]:
        return EVENTS + SLAIN * self.heroic + ("decided",) * self.by_round

    @property
    def heroic(self) -> bool:
        """Whether a character is joined to either side."""
        return getattr(self, "character") is not None or getattr(self, "enemy_character") is not None

    def hero(self, prefix: str) -> Hero | None:
        """A side's character (`prefix` "" the charger's, "enemy_" the charged unit's), on its mount if it has one."""
        value, mount = getattr(self, prefix + "character"), getattr(self, prefix + "character_mount")
        if value is None:
            return None
        hero = read_character(value, prefix + "character")
        if mount is None:
            return hero
        return replace(hero, fighter=replace(hero.fighter, mount=read_part(mount, prefix + "character_mount")))

    def fighter(self, prefix: str) -> Fighter:
        """One side's unit (`prefix` "" the charger, "enemy_" the charged unit); Impact Hits the charger's."""
        side = {name: getattr(self, prefix + name) for name in (*self.PROFILE, *DEFENCE, "stomp", "mount",
                                                                 "multiple_wounds", "height")}
        attributes = [attribute for name, attribute in ATTACK_FLAGS.items() if getattr(self, prefix + name)]
        attributes += [REROLLS[name, Reroll(value)] for name in ("reroll_hits", "reroll_wounds")
                       if Reroll(value := getattr(self, prefix + name)) is not Reroll.NONE]
        for name in ("stomp", "multiple_wounds"):
            side[name] = None if side[name] is None else game_dice(side[name], prefix + name)
        side["mount"] = None if side["mount"] is None else read_part(side["mount"], prefix + "mount")
        side.update(height=Height(side["height"]), reroll_armour=Reroll(side["reroll_armour"]).value,
                    reroll_special=Reroll(side["reroll_special"]).value)
        impact = None if prefix or self.impact_hits is None else game_dice(self.impact_hits, "impact_hits")
        charge = (0, 0, 0) if prefix else (self.charge_attacks, self.charge_strength, self.charge_ap)
        return Fighter(**side, impact=impact, charge=charge, attributes=tuple(attributes), last_rank=self.last_rank,
                       line_bonus=self.line_bonus)

    @property
    def allies(self) -> tuple[WithUnit, ...]:
        return tuple(read_ally(text) for text in getattr(self, "with_unit"))

    @property
    def enemy_allies(self) -> tuple[WithUnit, ...]:
        return tuple(read_ally(text, "enemy_with_unit") for text in getattr(self, "enemy_with_unit"))

    @property
    def fight(self) -> Fight:
        heroes = (self.hero(""), self.hero("enemy_"))
        challenge = (Challenge.ACCEPTED if self.challenge else Challenge.REFUSED if self.challenge_refused
                     else Challenge.NONE)
        return Fight(self.fighter(""), self.fighter("enemy_"), self.flank, self.rear, self.facing_bonus,
                     self.high_agility, self.pursuit, self.flank_models, self.mount_momentum, self.charge_bonus,
                     tuple(None if hero is None else hero.fighter for hero in heroes),  # type: ignore[arg-type]
                     tuple(hero is not None and hero.battle_standard for hero in heroes),  # type: ignore[arg-type]
                     challenge, self._beside(self.allies), Chase(self.chase), self._beside(self.enemy_allies),
                     FrontShare(self.front_share),  # a reform comes between rounds: one round needs no bit for it
                     CombatReform(self.combat_reform) if self.rounds > 1 else CombatReform.KEEP)

    def _beside(self, allies: tuple[WithUnit, ...]) -> tuple[Ally, ...]:
        """A side's other units as the fight reads them, with the query's readings of ranks (--last-rank,
        --line-bonus) as its main units have them."""
        return tuple(ally.ally._replace(unit=replace(ally.fighter, last_rank=self.last_rank,
                                                     line_bonus=self.line_bonus)) for ally in allies)

    def describe(self) -> str:
        facing = " in the flank" if self.flank else " in the rear" if self.rear else ""
        rounds = f", at most {plural(self.rounds, 'round')}" if self.rounds != 1 else ""
        readings = [f"{name.replace('_', ' ')} {value.value}" for name, value, default in (
            ("facing_bonus", self.facing_bonus, FacingBonus.RANKED), ("last_rank", self.last_rank, LastRank.COUNTS),
            ("high_agility", self.high_agility, HighAgility.STEP_TEN), ("pursuit", self.pursuit, Pursuit.ALWAYS),
            ("flank_models", self.flank_models, FlankModels.MATCHED), ("line_bonus", self.line_bonus, LineBonus.NONE),
            ("mount_momentum", self.mount_momentum, MountMomentum.ALL), ("charge_bonus", self.charge_bonus,
                                                                        ChargeBonus.SIDE),
            ("chase", Chase(self.chase), Chase.MAIN), ("front_share", FrontShare(self.front_share), FrontShare.BESIDE),
            ("combat_reform", CombatReform(self.combat_reform), CombatReform.FACE))
            if value is not default]
        duel = ", a Duel" if self.challenge else ", a Duel refused" if self.challenge_refused else ""
        allies = "".join(f", with ({ally})" for ally in self.allies)
        theirs = "".join(f", its other unit ({ally})" for ally in self.enemy_allies)
        ours, enemy = (side_words(self.fighter(prefix), self.hero(prefix)) for prefix in ("", "enemy_"))
        return (f"T9A combat: {ours}{allies} charge {enemy}{facing}{theirs}{rounds}{duel}"
                + "".join(f", {reading}" for reading in readings))

    def check(self) -> None:
        for prefix in ("", "enemy_"):
            self.change_side(prefix, armour=read_armour(getattr(self, prefix + "armour"), prefix + "armour"))
            for name, low, high in (("models", 1, MAX_MODELS), ("width", 1, MAX_WIDTH), ("health", 1, MAX_HEALTH),
                                    ("attacks", 1, 10), ("offensive", 1, 10), ("defensive", 1, 10),
                                    ("strength", 1, 10), ("resilience", 1, 10), ("agility", 0, 10),
                                    ("discipline", 2, 10), ("ap", 0, 10), ("extra_ranks", 0, 2)):
                value = getattr(self, prefix + name)
                require(low <= value <= high, prefix + name, value, f"expected {low} to {high}")
            for name in ("stomp", "mount"):
                value = getattr(self, prefix + name)
                if value is not None:
                    self.change_side(prefix, **{name: (game_dice if name == "stomp" else read_part)(value, prefix + name)})
            self._automatic_hits(prefix + "stomp", getattr(self, prefix + "width"))
            aegis = getattr(self, prefix + "aegis")
            require(aegis is None or 2 <= aegis <= 6, prefix + "aegis", aegis, "expected 2+ to 6+")
            for name in ("reroll_hits", "reroll_wounds"):
                value = Reroll(getattr(self, prefix + name))
                require(value is not Reroll.SUCCESSES, prefix + name, value.value, "expected none, failed or ones")
        for name, high in (("charge_attacks", 2), ("charge_strength", 3), ("charge_ap", 3)):
            require(0 <= getattr(self, name) <= high, name, getattr(self, name), f"expected 0 to {high}")
        require(not (self.flank and self.rear), "rear", "on", "the charger strikes one facing: --flank or --rear")
        for prefix in ("", "enemy_"):
            width, models = getattr(self, prefix + "width"), getattr(self, prefix + "models")
            require(width <= models, prefix + "width", width,
                    f"expected 1 to {models}: a front rank no wider than the unit's {plural(models, 'model')} "
                    f"(--{dashed(prefix)}models {models})")
            require(not (getattr(self, prefix + "great_weapon") and getattr(self, prefix + "spear")),
                    prefix + "spear", "on", f"a model fights with one weapon: --{dashed(prefix)}great-weapon or "
                                            f"--{dashed(prefix)}spear")
        self._automatic_hits("impact_hits", self.width)
        for prefix in ("", "enemy_"):
            hero = self.hero(prefix)
            if hero is not None:
                self.change_side(prefix, character=replace(hero, fighter=replace(hero.fighter, mount=None)))
            elif getattr(self, prefix + "character_mount") is not None:
                raise InputError(prefix + "character_mount", getattr(self, prefix + "character_mount"),
                                 f"a mount needs its character: --{dashed(prefix)}character")
        for name in ("challenge", "challenge_refused"):
            require(not getattr(self, name) or self.hero("") is not None and self.hero("enemy_") is not None, name, "on",
                    "a Duel needs a character on each side: --character and --enemy-character")
        for prefix, whose, facings in (("", "the charger's", ["flank"] * self.flank + ["rear"] * self.rear),
                                       ("enemy_", "the charged side's", [])):
            allies = self.enemy_allies if prefix else self.allies
            check_side(allies, facings, self.hero(prefix), prefix + "with_unit", whose)
            object.__setattr__(self, prefix + "with_unit", allies)
        require(not (self.challenge and self.challenge_refused), "challenge_refused", "on",
                "a Duel is accepted (--challenge) or refused (--challenge-refused), not both")
        require(1 <= self.rounds <= MAX_ROUNDS, "rounds", self.rounds, f"expected 1 to {MAX_ROUNDS} rounds")
        self._attacks_read()

    def idle(self) -> dict[str, str]:
        """The options off their defaults that change nothing in this combat (a typed query refuses them)."""
        fight, idle = self.fight, {}
        facing = ("only applies with --flank, --rear, --with-unit or --enemy-with-unit (a unit in the enemy's flank "
                  "or rear)")
        beside = bool(self.flank or self.rear or any(ally.facing != "front" for ally in self.allies + self.enemy_allies))
        units = [troop.unit for line in fight.lines for troop in line.troops]
        shared = any(facings.count("front") >= 2 for facings in (fight.facings, fight.enemy_facings))
        for name, default, needed, needs in (
                ("facing_bonus", FacingBonus.RANKED, beside, facing),
                ("flank_models", FlankModels.MATCHED, beside, facing),
                ("combat_reform", CombatReform.FACE, beside and self.rounds > 1, facing + " in a fight of --rounds 2 "
                                                                                         "or more"),
                ("by_round", False, self.rounds > 1, "only applies with --rounds 2 or more (a fight of rounds)"),
                ("chase", Chase.MAIN, bool(self.allies or self.enemy_allies),
                 "only applies with --with-unit or --enemy-with-unit (which broken unit is pursued)"),
                ("front_share", FrontShare.BESIDE, shared, "only applies with a unit facing front beside the main "
                                                           "one (--with-unit or --enemy-with-unit '… facing front')"),
                ("mount_momentum", MountMomentum.ALL,
                 getattr(self, "mount") is not None or getattr(self, "character_mount") is not None,
                 "only applies with --mount or --character-mount (a charging mount's Agility)"),
                ("high_agility", HighAgility.STEP_TEN,  # (set off its default, it is FIRST: no step capped)
                 any(step > MAX_STEP for step, _ in fight.in_round(True).schedule(True)),
                 "only applies when an Agility goes above 10 (Charging Momentum +1, a Spear's +2)"),
                ("line_bonus", LineBonus.NONE, any(unit.line_formation for unit in units),
                 "only applies to a unit in Line Formation (--width 8 or more)"),
                ("last_rank", LastRank.COUNTS, any(min(unit.models, unit.width - 1) >= unit.height.full_rank
                                                   for unit in units),
                 "only applies where an incomplete last rank can hold a Full Rank's models (5, 3 Large, 1 "
                 "Gigantic): a --width over that")):
            if getattr(self, name) is not default and not needed:
                idle[name] = needs
        for side, (prefix, other) in enumerate((("", "enemy_"), ("enemy_", ""))):
            unit, enemy = fight.units[side], fight.units[1 - side]
            for name, unused, needs in (
                    ("hatred", Reroll(getattr(self, prefix + "reroll_hits")) is Reroll.FAILED,
                     f"changes nothing with --{dashed(prefix)}reroll-hits failed (every failed roll re-rolled)"),
                    ("stubborn", unit.unbreakable, f"changes nothing beside --{dashed(prefix)}unbreakable"),
                    ("stomp", not enemy.stompable(), "reaches only an enemy of Standard Height without "
                                                     f"--{dashed(other)}cannot-be-stomped (Stomp Attacks)"),
                    ("cannot_be_stomped", enemy.stomp is None or unit.height is not Height.STANDARD,
                     f"only applies against --{dashed(other)}stomp, to a unit of Standard Height"),
                    ("flammable", not getattr(self, other + "flaming"),
                     f"only applies against Flaming Attacks (--{dashed(other)}flaming)"),
                    ("flaming", not (enemy.fortitude or enemy.flammable),
                     f"only applies against --{dashed(other)}fortitude or --{dashed(other)}flammable"),
                    ("divine", enemy.aegis is None, f"only applies against an Aegis save (--{dashed(other)}aegis)"),
                    ("ignores_parry", not enemy.parry, f"only applies against --{dashed(other)}parry"),
                    ("parry", getattr(self, other + "ignores_parry"),
                     f"changes nothing against --{dashed(other)}ignores-parry")):
                if getattr(self, prefix + name) not in (None, False) and unused:
                    idle[prefix + name] = needs
        return idle

    def _attacks_read(self) -> None:
        """Each side's attacks as t9a melee reads them, refused in one line naming this query's option: a Melee
        option of the target's is the other side's."""
        fight = self.fight
        for side, (prefix, other) in enumerate((("", "enemy_"), ("enemy_", ""))):
            unit, target = fight.units[side], fight.units[1 - side]
            try:
                unit.melee(unit.parts[0], 1, target, 0)
            except InputError as error:
                def ours(name: str) -> str:  # a Melee option's name as this query has it
                    return (other if name.replace("-", "_") in TARGET_OPTIONS else prefix) + name

                allowed = re.sub(r"--([a-z-]+)", lambda found: "--" + ours(found.group(1)).replace("_", "-"),
                                 error.allowed)
                raise InputError(ours(error.name), error.value, allowed) from None

    def _automatic_hits(self, name: str, width: int) -> None:
        """Impact Hits or Stomp Attacks (X) each front-rank model can make: 1 to what t9a hits takes in all."""
        if getattr(self, name) is None:
            return
        most = game_dice(getattr(self, name), name).highest
        what = "Impact Hits" if name == "impact_hits" else "Stomp Attacks"
        require(1 <= most and most * width <= MAX_IMPACT, name, str(getattr(self, name)),
                f"expected {what} that can reach 1 to {MAX_IMPACT // width} a model "
                f"({width} in the front rank: {MAX_IMPACT} hits at most, as t9a hits takes)")

    def exact_seconds(self, fractions: bool = False) -> float:
        """About how long the exact answer takes (`exact_cost.exact_cost`)."""
        return exact_cost(self.fight, self.rounds, fractions)

    def sample(self, rng: np.random.Generator, trials: int) -> Mapping[str, np.ndarray]:
        """Each trial's combat: drawn from its exact joint law where that is quick to work (`fight_joint.py`, once
        per combat), else every blow, test and pursuit rolled."""
        if "joint law" not in self.__dict__:
            self.__dict__["joint law"] = joint_law(self.fight, self.rounds, self.by_round)
        joint: JointLaw | None = self.__dict__["joint law"]
        if joint is not None:
            return joint.draw(rng, trials)
        return combat_sample(rng, self.fight, self.rounds, trials, self.by_round)

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, np.ndarray]:
        seconds = self.exact_seconds(number is not float)
        require(seconds <= EXACT_SECONDS, "exact", self.describe(),
                f"the exact answer would take about {seconds:,.0f} s; sample instead (leave out --exact"
                + (", or drop --fractions)" if number is not float else ")"))
        return combat_pmfs(self.fight, self.rounds, number, self.by_round)
