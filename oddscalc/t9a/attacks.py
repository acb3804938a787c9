"""The 9th Age attacks (docs/rules.md §3.2–§3.8): melee, shooting and automatic hits, from the
to-hit roll to the Health Points lost.

What they are asked, the attack attributes and the target's profile, is `attributes.py`'s;
the stages (the tables, the special saves, the dice of the sampler) are in `stages.py`;
the sampler rolls them in turn, and the exact twin composes their chances with pmf
algebra. Charges, Discipline tests and the direction die live in `rolls.py`.

Readings taken where the rules leave a detail unsaid:
- A hopeless shot (7+: a 6, then 4+) hits "with a natural 6" when its first roll is a 6
  and its second roll passes: every hit of a hopeless shot then triggers Battle Focus
  and Poison (§3.8 says so for Poison; Battle Focus follows the same rule).
- A re-rolled to-hit or to-wound roll is a new roll: its natural 6 counts, the first
  roll's does not. A failed hopeless shot is re-rolled whole (a new 6, then a new 4+).
- When both Aegis and Fortitude may be taken, the defender takes the one more likely to
  save, Divine's re-roll counted (a 4+ Fortitude beats a 4+ Aegis against Divine).
- Multiple Wounds is capped per unsaved wound at the target's Health Points; with
  `models`, lost Health Points carry over from model to model.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core import pmf as pmfs
from ..core import terms
from ..core.attack import option
from ..core.dice import EXACT_SECONDS, Check, DiceExpression, Natural
from ..errors import choose, require
from ..output.style import plural
from .attributes import Attributes, check_characteristic, checked_dice, game_dice
from .stages import (
    COVER_MODIFIER,
    Chances,
    Cover,
    Reroll,
    Special,
    WoundSaves,
    hit_die,
    melee_need,
    roll_totals,
    save_die,
    wound_die,
)

_SAVES_READINGS = """When both Aegis and Fortitude are offered, a wound takes the one more likely
to save (Divine counted). Multiple Wounds is capped per wound at the Health Points; with
models, lost Health Points carry over from model to model (kills = lost // H, at most M)."""
READINGS = f"""Readings (§3.8): a re-rolled die's natural 6 counts (the first roll's does not). A
hopeless shot's natural 6 is its first roll, and the second roll must pass: every hopeless
hit triggers Battle Focus and Poison; a failed hopeless shot is re-rolled whole.
{_SAVES_READINGS}

Outcomes: health_lost (Health Points lost), hits (Battle Focus's extra hits and Poison's
included), wounds (Poison's auto-wounds included), unsaved (wounds past every save, before
Multiple Wounds), and kills with models."""
HITS_READINGS = f"""Readings (§3.8, §3.10): no die is rolled to hit, so none is a natural 6 to hit. A
re-rolled to-wound die's natural 6 counts (the first roll's does not). {_SAVES_READINGS}

Outcomes: health_lost (Health Points lost), hits (the automatic hits), wounds, unsaved
(wounds past every save, before Multiple Wounds), and kills with models."""
MAX_ATTACKS = 200
MAX_MODIFIER = 10

_FRACTION_RATE = 1e7  # size² × attacks products of rationals a second (measured 1.5e7 to 3e7)


@record(kw_only=True)
class _Sequence(Attributes):
    """Roll an attack sequence (§3.2–§3.8): the to-hit rolls, then the wounds, saves and Health Points lost of
    its attributes, sampled or exactly; what melee, shooting and automatic hits share."""

    # -- what the subclasses give

    @property
    def count(self) -> DiceExpression:
        """The number of attacks (or shots), maybe rolled."""
        raise NotImplementedError

    @property
    def hit_check(self) -> Check:
        raise NotImplementedError

    # -- the stages

    def _removed(self, totals: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Cap the Health Points lost at the unit's and count the models removed."""
        if self.models is not None:
            lost = totals["health_lost"]
            totals["kills"] = np.minimum(lost // self.health_points, self.models)
            totals["health_lost"] = np.minimum(lost, self.models * self.health_points)
        return totals

    def sample(self, rng: np.random.Generator, trials: int) -> dict[str, np.ndarray]:
        count = self.count
        attacks = count.sample(rng, trials) if count.count else count.modifier
        hits = self._hits(rng, attacks, trials)
        if self.auto_wound:  # every hit wounds, with no roll (so no natural 6)
            wounds = {"wounds": hits["rolled"], "lethal": np.zeros(trials, dtype=np.int64)}
        else:
            wounds = roll_totals(rng, wound_die(self.wound_check, self.wound_reroll, self.lethal_strike),
                                 hits["rolled"], trials)
        ordinary = wounds["wounds"] + hits["poisoned"]
        saves = roll_totals(rng, save_die(self.wound_saves(lethal=False)), ordinary, trials)
        unsaved, lost = saves["unsaved"], saves["health_lost"]
        if self.lethal_strike:
            lethal = roll_totals(rng, save_die(self.wound_saves(lethal=True)), wounds["lethal"], trials)
            unsaved, lost = unsaved + lethal["unsaved"], lost + lethal["health_lost"]
        totals = {
            "health_lost": lost,
            "hits": hits["rolled"] + hits["poisoned"],
            "wounds": ordinary + wounds["lethal"],
            "unsaved": unsaved,
        }
        return self._removed(totals)

    def _hits(self, rng: np.random.Generator, attacks: Any, trials: int) -> dict[str, np.ndarray]:
        """The to-hit rolls: hits that roll to wound, and Poison's auto-wounds."""
        return roll_totals(rng, hit_die(self.hit_check, self.reroll_hits, self.battle_focus, self.poison), attacks,
                           trials)

    def _hit_chances(self) -> tuple[Fraction, Fraction]:
        """(P(hit), P(a hit with a natural 6)) of one attack, after its re-roll."""
        check = self.hit_check
        hit = check.chance()
        # §3.8: a natural 6 always hits when the attack can hit; every hopeless hit began with a 6
        six = hit if check.chains else Fraction(1, 6) if hit else Fraction(0)
        return self.reroll_hits.chance(hit, six)  # §3.1: a failed roll (or a 1) is rolled again, once

    # -- the exact twin

    def chances(self) -> Chances:
        """Return the exact chance of each stage (§3.3–§3.8)."""
        hit, six = self._hit_chances()
        wound = self.wound_check.chance()
        lethal = Fraction(1, 6) if self.lethal_strike else Fraction(0)  # a natural 6 always wounds (§3.5)
        wound, lethal = self.wound_reroll.chance(wound, lethal)  # §3.1: a failed roll (or a 1) rolled again
        if self.auto_wound:
            wound, lethal = Fraction(1), Fraction(0)
        return Chances(hit - six, six, wound - lethal, lethal,
                       _unsaved_chance(self.wound_saves(lethal=False)), _unsaved_chance(self.wound_saves(lethal=True)))

    def exact_seconds(self, fractions: bool = False) -> float:
        """Estimated seconds of the exact answer: the convolutions of rationals dominate, about
        size² × attacks products (their denominators grow with the attacks), fitted to measured
        times 1.5 times on the safe side; floats are always quick."""
        if not fractions:
            return 0.0
        attacks = max(self.count.highest, 1)
        multiple = self.multiple
        wounds = multiple.highest if multiple is not None else 1
        per_attack = (1 + self.battle_focus) * min(wounds, self.health_points)
        size = attacks * per_attack + 1
        return size * size * attacks / _FRACTION_RATE

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, Any]:
        seconds = self.exact_seconds(number is not float)
        require(seconds <= EXACT_SECONDS, "exact", self.describe(),
                f"the exact rationals would take about {seconds:.0f} s; drop --fractions (exact floats are "
                "quick), or sample instead")
        chances = self.chances()
        if self._bernoulli():
            return self._binomials(chances, number)
        one = number(1)
        zero = pmfs.point(0, one)

        def bernoulli(p: Fraction) -> np.ndarray:
            return pmfs.array([number(1 - p), number(p)])

        def lost(saves: WoundSaves, unsaved: Fraction) -> np.ndarray:
            taken = pmfs.point(1, one)
            if saves.multiple_wounds is not None:  # §3.8: capped at the Health Points, per wound
                taken = pmfs.transform(saves.multiple_wounds.pmf(number), lambda x: min(x, saves.health))
            return pmfs.mixture([(number(1 - unsaved), zero), (number(unsaved), taken)])

        wounded = chances.wound + chances.lethal
        lost_ordinary = lost(self.wound_saves(lethal=False), chances.unsaved)
        lost_lethal = lost(self.wound_saves(lethal=True), chances.lethal_unsaved)
        # per outcome: (what one hit that rolls to wound gives, what one Poison auto-wound gives)
        per_hit = {
            "hits": (pmfs.point(1, one), pmfs.point(1, one)),
            "wounds": (bernoulli(wounded), pmfs.point(1, one)),
            "unsaved": (
                bernoulli(chances.wound * chances.unsaved + chances.lethal * chances.lethal_unsaved),
                bernoulli(chances.unsaved),
            ),
            "health_lost": (
                pmfs.mixture([(number(1 - wounded), zero), (number(chances.wound), lost_ordinary),
                              (number(chances.lethal), lost_lethal)]),
                lost_ordinary,
            ),
        }
        count = self.count.pmf(number)
        rolled_on_six = 1 - self.poison + self.battle_focus  # §3.8 Battle Focus and Poison
        miss = 1 - chances.plain_hit - chances.six_hit
        totals = {}
        for name, (rolled, poisoned) in per_hit.items():
            on_six = pmfs.convolve(pmfs.power(rolled, rolled_on_six), pmfs.power(poisoned, int(self.poison)))
            attack = pmfs.mixture([(number(miss), zero), (number(chances.plain_hit), rolled),
                                   (number(chances.six_hit), on_six)])
            constant = not self.count.count  # a fixed number of attacks: repeated squaring
            totals[name] = pmfs.power(attack, self.count.modifier) if constant else pmfs.compound(count, attack)
        if self.models is not None:
            health, models = self.health_points, self.models
            lost_total = totals["health_lost"]
            totals["kills"] = pmfs.transform(lost_total, lambda x: min(x // health, models))
            totals["health_lost"] = pmfs.transform(lost_total, lambda x: min(x, models * health))
        return {name: totals[name] for name in self.outcomes}

    def _bernoulli(self) -> bool:
        """Each attack gives at most 1 of every outcome: a fixed number of attacks, no Poison or Battle Focus (a
        second hit or an auto-wound on a 6), no Multiple Wounds."""
        return (not self.count.count and not self.poison and not self.battle_focus
                and self.wound_saves(lethal=False).multiple_wounds is None
                and self.wound_saves(lethal=True).multiple_wounds is None)

    def _binomials(self, chances: Chances, number: Callable[[Any], Any]) -> dict[str, tuple[Any, ...]]:
        """Each outcome's pmf when every attack gives at most 1 of it (`_bernoulli`): a binomial, in tuples (no
        arrays: a first answer imports no numpy), the array path's law term for term."""
        hit = chances.plain_hit + chances.six_hit
        unsaved = hit * (chances.wound * chances.unsaved + chances.lethal * chances.lethal_unsaved)
        each = {"hits": hit, "wounds": hit * (chances.wound + chances.lethal), "unsaved": unsaved,
                "health_lost": unsaved}
        totals = {name: terms.binomial(self.count.modifier, number(p)) for name, p in each.items()}
        removed = _removed_terms(totals, self.models, self.health_points)
        return {name: removed[name] for name in self.outcomes}


def _removed_terms(totals: dict[str, tuple[Any, ...]], models: int | None, health: int) -> dict[str, tuple[Any, ...]]:
    """The models removed of `models` of `health` Health Points each (the array path's `kills`), in tuples."""
    if models is None:
        return totals
    lost = totals["health_lost"]
    return {**totals, "kills": terms.transform(lost, lambda x: min(x // health, models)),
            "health_lost": terms.transform(lost, lambda x: min(x, models * health))}


def _unsaved_chance(saves: WoundSaves) -> Fraction:
    """Return the chance that a wound gets past its armour and special saves (§3.6, §3.7)."""
    armour = saves.armour_reroll.chance(saves.armour.chance())[0] if saves.armour is not None else Fraction(0)
    special = Fraction(0)
    if saves.special is not None:
        special = saves.special.check.chance()
        if saves.divine and saves.special.save is Special.AEGIS:
            special *= saves.special.check.chance()  # §3.7 Divine: the save must succeed twice
        else:
            special = saves.special_reroll.chance(special)[0]
    return (1 - armour) * (1 - special)


@record(kw_only=True)
class Melee(_Sequence):
    """Melee attacks of The 9th Age: to hit, to wound, armour, special saves, Health Points lost.

    To hit from Offensive - Defensive Skill: >= 4: 2+; 1 to 3: 3+; 0 to -3: 4+; -4 to -7:
    5+; <= -8: 6+; the hit modifier applies to the roll; a natural 1 fails and a natural 6
    hits. To wound from Strength - Resilience: >= 2: 2+; 1: 3+; 0: 4+; -1: 5+; <= -2: 6+
    (natural 1 fails, 6 wounds). Then the armour save, the special save (Aegis or
    Fortitude), and Multiple Wounds (§3.2-§3.8). Readings and outcomes as for every attack
    sequence (below).
    """

    attacks: DiceExpression | str | int = option("Attacks: a number or dice (10, 2d6, d6+1).", metavar="N",
                                                 reader=lambda text: _attack_count(text, "attacks"))
    offensive: int = option("The attacker's Offensive Skill, 1 to 10.", metavar="O")
    defensive: int = option("The target's Defensive Skill, 1 to 10.", metavar="D")
    hit_modifier: int = option("Sum of to-hit modifiers, -10 to 10 (+1 is easier).", 0, metavar="M")

    COMMAND = "t9a melee"

    def describe(self) -> str:
        modifier = f", {self.hit_modifier:+d} to hit" if self.hit_modifier else ""
        return (f"T9A melee: {plural(self.attacks, 'attack')}, OS {self.offensive} vs DS {self.defensive}{modifier}, "
                f"{self._defence()}")

    def check(self) -> None:
        object.__setattr__(self, "attacks", _attack_count(self.attacks, "attacks"))
        check_characteristic(self.offensive, "offensive", "the attacker's Offensive Skill")
        check_characteristic(self.defensive, "defensive", "the target's Defensive Skill")
        _modifier(self.hit_modifier, "hit_modifier")
        super().check()

    @property
    def count(self) -> DiceExpression:
        return checked_dice(self.attacks)

    @property
    def hit_check(self) -> Check:
        need = melee_need(self.offensive, self.defensive) - self.hit_modifier  # modifiers apply to the roll
        return Check(need, Natural.ONE_AND_SIX)


@record(kw_only=True)
class T9AShoot(_Sequence):
    """Shooting of The 9th Age: to hit, to wound, armour, special saves, Health Points lost.

    Each shot needs Aim - modifier (a natural 1 misses); needing 7+ is a hopeless shot, a 6
    and then 4+ (1/12); 8+ cannot hit (§3.4). Wounds, saves and Multiple Wounds as in
    melee. Readings and outcomes as for every attack sequence (below).

    A Breath Attack is not 2D6 shots: its 2D6 hits roll no die to hit (§3.10). Ask
    oddscalc t9a hits --hits 2d6 with the Strength, AP and attributes in its brackets (and so
    for Impact Hits, Stomp and Grind Attacks); here each of the 2D6 would roll to hit.
    """

    shots: DiceExpression | str | int = option("Shots: a number or dice (10, d6+1, 2d6).", metavar="N",
                                               reader=lambda text: _attack_count(text, "shots"))
    aim: int = option("The shooter's Aim, 2+ to 6+.", roll=True)
    long_range: bool = option("Long Range: -1 to hit (§3.4).", False)
    moving: bool = option("Moving and Shooting: -1 to hit (§3.4).", False)
    stand_and_shoot: bool = option("Stand and Shoot (a charge reaction): -1 to hit (§3.4).", False)
    cover: Cover = option("The target's cover: soft (-1 to hit) or hard (-2) (§3.4).", Cover.NONE)
    hard_target: int = option("Hard Target (X): -X to hit, 0 to 3 (§3.4).", 0, metavar="X")
    modifier: int = option("Any other to-hit modifiers, summed, -10 to 10 (added to the named ones).", 0,
                           metavar="M")

    COMMAND = "t9a shoot"

    def describe(self) -> str:
        named = self.flags("long_range", "moving", "stand_and_shoot")
        named += [f"{self.cover.value} cover"] if self.cover is not Cover.NONE else []
        named += [f"Hard Target ({self.hard_target})"] if self.hard_target else []
        total = f" at {self.total_modifier:+d}" if self.total_modifier else ""
        return (f"T9A shooting: {plural(self.shots, 'shot')} at Aim {self.aim}+{total}"
                + (f" ({', '.join(named)})" if named else "") + f", {self._defence()}")

    def check(self) -> None:
        choose(self, "cover", Cover)
        object.__setattr__(self, "shots", _attack_count(self.shots, "shots"))
        require(2 <= self.aim <= 6, "aim", self.aim, "expected the model's Aim, 2+ to 6+ (modifiers go in --modifier)")
        _modifier(self.modifier, "modifier")
        require(0 <= self.hard_target <= 3, "hard_target", self.hard_target, "expected Hard Target (X) of 0 to 3")
        super().check()

    @property
    def total_modifier(self) -> int:
        """Every to-hit modifier summed: the named ones (§3.4) and --modifier."""
        named = -(self.long_range + self.moving + self.stand_and_shoot + self.hard_target)
        return self.modifier + named + COVER_MODIFIER[self.cover]

    @property
    def count(self) -> DiceExpression:
        return checked_dice(self.shots)

    @property
    def hit_check(self) -> Check:
        return Check(self.aim - self.total_modifier, Natural.HOPELESS)  # §3.4: −1 long range, moving, cover ...


@record(kw_only=True)
class T9AHits(_Sequence):
    """Automatic hits of The 9th Age: Breath Attack (2D6 hits at the Strength, AP and attributes
    in its brackets), Impact Hits (X), Stomp Attacks (X), Grind Attacks (X) (X hits at the model
    part's Strength and AP). They skip the to-hit roll; wounds, saves and Multiple Wounds as
    for every attack (§3.10). With no to-hit roll there is no natural 6 to hit: Battle Focus,
    Poison Attacks and to-hit re-rolls do not apply.
    """

    hits: DiceExpression | str | int = option("Hits: a number or dice (2d6 for a Breath Attack, d6+1 for Impact "
                                              "Hits (D6+1)).", metavar="N",
                                              reader=lambda text: _attack_count(text, "hits"))

    COMMAND = "t9a hits"

    def describe(self) -> str:
        return f"T9A automatic hits: {plural(self.hits, 'hit')}, {self._defence()}"

    def check(self) -> None:
        object.__setattr__(self, "hits", _attack_count(self.hits, "hits"))
        for name in ("battle_focus", "poison"):
            require(not getattr(self, name), name, None, "needs a natural 6 to hit: automatic hits roll no die")
        require(Reroll(self.reroll_hits) is Reroll.NONE, "reroll_hits", Reroll(self.reroll_hits).value,
                "automatic hits roll no die to hit, so none to re-roll")
        super().check()

    @property
    def count(self) -> DiceExpression:
        return checked_dice(self.hits)

    def _hits(self, rng: np.random.Generator, attacks: Any, trials: int) -> dict[str, np.ndarray]:
        rolled = np.broadcast_to(np.asarray(attacks, dtype=np.int64), (trials,)).copy()
        return {"rolled": rolled, "poisoned": np.zeros(trials, dtype=np.int64)}

    def _hit_chances(self) -> tuple[Fraction, Fraction]:
        return Fraction(1), Fraction(0)  # every hit lands; none is a natural 6


def _attack_count(value: DiceExpression | str | int, name: str) -> DiceExpression:
    allowed = f"expected a number or dice (10, 2d6, d6+1) that can reach 1 to {MAX_ATTACKS}"
    text = str(value).strip()
    require(not text.isdecimal() or int(text) <= MAX_ATTACKS, name, text, allowed)  # before the parser's own cap
    count = game_dice(value, name)
    require(1 <= count.highest <= MAX_ATTACKS, name, count, allowed)
    return count


def _modifier(value: int, name: str) -> None:
    require(-MAX_MODIFIER <= value <= MAX_MODIFIER, name, value,
            f"expected the sum of to-hit modifiers, -{MAX_MODIFIER} to +{MAX_MODIFIER} (negative is harder)")
