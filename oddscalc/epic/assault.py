"""Epic Armageddon assaults (docs/rules.md §2.7 and §2.9; Epic Armageddon rulebook 1.12): the
result roll alone, or a whole engagement with both sides' units.

An engagement, round after round until one side wins (at most --rounds):
1. Both sides attack at once (1.12.5): each unit in base contact rolls one D6 against its CC
   value, each other unit against its FF value (none: it does not attack), each of them
   --extra-attacks more dice at the same value, and units of other formations give
   supporting fire at their FF value (1.12.6). No modifier applies to these rolls.
2. Hits are allocated front to back over the units of the side hit (hit j on unit j mod U)
   and saved as shooting's hits are (armour, reinforced armour's re-roll, the invulnerable
   save; only the defender may take a cover save); units in base contact are lost first.
3. A side with no unit left loses, and one left alone wins, without a result roll (the
   attack stalled, or the defender wiped out; both gone: the attack stalled).
4. Otherwise each side rolls 2D6 (the highest die with --keep-highest) and adds: +1 a kill
   it inflicted in the assault, +1 for more units left than the enemy and +1 more for more
   than twice as many, +1 with no blast markers, +1 when the enemy has more (a broken
   formation counts one per unit left), and its --bonus (Inspiring and the like). The
   higher total wins; a tie fights another round with the units left (1.12.7).
5. The loser takes as many extra hits as the difference, with no save (none on a fearless
   side); a loser that was broken before the assault is destroyed (1.12.8).

Outcomes: win (the assaulting side wins), draw (still tied after --rounds), kills (enemy
units destroyed, the extra hits included), losses (own units destroyed, likewise), margin
(the difference of the deciding roll: the loser's extra hits; 0 without a roll), destroyed
(the enemy formation destroyed), blast_markers (the assaulting formation's after the assault:
won or drawn, those it had and one per unit lost; lost, broken: one per unit left).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Callable

import numpy as np

from .. import pmf as pmfs
from ..attack import Attack, option
from ..dice import EXACT_SECONDS, Check, Natural, keep_pmf
from ..errors import require
from ..pool import Die, roll_pool
from ..style import plural
from .attacks import RATIONAL_SLOWDOWN
from .saves import Ability, SavePlan, allocate_kills, failed_die, save_plan
from .shooting import NOT_GIVEN, allocated, roll_hits

MAX_BONUS = 20
MAX_UNITS = 60  # a side's units in an engagement (a company of Epic units is 10 to 30)
MAX_SUPPORT = 60
MAX_EXTRA = 3
MAX_ROUNDS = 5
MAX_BLAST_MARKERS = 100
ENGAGED = ("win", "draw", "kills", "losses", "margin", "destroyed", "blast_markers")
EVENTS = ("win", "draw", "destroyed")


@lru_cache(maxsize=64)
def assault_die(bonus: int, enemy_bonus: int, keep_highest: bool = False) -> Die:
    """Return both sides' 2D6 as one die: who wins, a draw, and the margin."""
    kept = np.maximum if keep_highest else np.add  # both dice added (the rulebook), or the highest kept

    def rule(mine_a, mine_b, theirs_a, theirs_b):
        mine = kept(mine_a, mine_b) + bonus
        theirs = kept(theirs_a, theirs_b) + enemy_bonus
        return mine > theirs, mine == theirs, np.abs(mine - theirs)

    return Die((6, 6, 6, 6), rule, ("win", "draw", "margin"))


@lru_cache(maxsize=8)
def result_gaps(keep_highest: bool) -> tuple[tuple[int, Fraction], ...]:
    """(this side's roll − the enemy's, its chance) of the result roll's dice, before modifiers."""
    roll = keep_pmf(1, 6, 1) if keep_highest else keep_pmf(2, 6, 0)  # its highest die, or 2D6 added
    gaps: dict[int, Fraction] = {}
    for mine, p in enumerate(roll):
        for theirs, q in enumerate(roll):
            if p and q:
                gaps[mine - theirs] = gaps.get(mine - theirs, Fraction(0)) + p * q
    return tuple(sorted(gaps.items()))


class ExtraAt(str, Enum):
    """Which value a unit's extra attacks roll against (2.2.3; rules §2.9, an open reading)."""

    OWN = "own"  # the unit's own attack's: CC in base contact, FF apart (oddscalc's reading)
    CC = "cc"  # close combat always: an assault weapon's extra attacks (only units in base contact make them)
    FF = "ff"  # firefight always: a small arms' extra attacks (only units out of base contact make them)


@dataclass(frozen=True)
class Side:
    """One side of an engagement: its units and how they fight, save and count in the result."""

    units: int
    cc: int | None
    ff: int | None
    in_contact: int
    armour: int | None
    cover_save: int | None = None
    reinforced: bool = False
    invulnerable: bool = False
    extra_attacks: int = 0
    blast_markers: int = 0
    broken: bool = False
    fearless: bool = False
    support: int = 0
    support_ff: int | None = None
    bonus: int = 0
    first_strike: bool = False
    extra_at: ExtraAt = ExtraAt.OWN

    def dice(self, losses: int) -> tuple[tuple[int, Check], ...]:
        """(dice, check) this side rolls with `losses` of its units gone: those in contact are lost first; the
        extra attacks as `extra_at` says (an assault weapon's only in base contact, small arms' only apart)."""
        left = self.units - losses
        contact = max(0, self.in_contact - losses)
        extra = self.extra_attacks
        pools = [(contact, self.cc), (left - contact, self.ff), (self.support, self.support_ff)]
        pools += {ExtraAt.OWN: [(contact * extra, self.cc), ((left - contact) * extra, self.ff)],
                  ExtraAt.CC: [(contact * extra, self.cc)], ExtraAt.FF: [((left - contact) * extra, self.ff)]}[
            self.extra_at]
        merged: dict[int | None, int] = {}
        for count, value in pools:
            merged[value] = merged.get(value, 0) + count
        return tuple((count, Check(value, Natural.EPIC)) for value, count in merged.items()
                     if count and value is not None)

    @cached_property
    def saves(self) -> SavePlan:
        return save_plan(self.armour, self.cover_save, Ability.NORMAL, self.reinforced, self.invulnerable)

    def markers(self, left):
        """The blast markers the result counts (1.12.7): a broken formation one per unit left."""
        return left if self.broken else self.blast_markers + 0 * left


def modifiers(mine: Side, theirs: Side, kills, my_left, their_left):
    """This side's result modifiers (1.12.7), for whole numbers or arrays of them."""
    markers, their_markers = mine.markers(my_left), theirs.markers(their_left)
    return (kills + (my_left > their_left) * 1 + (my_left > 2 * their_left) * 1 + (markers == 0) * 1
            + (their_markers > markers) * 1 + mine.bonus)


# --- exact ------------------------------------------------------------------------------


def kills_pmf(pools: tuple[tuple[int, Check], ...], units: int, saves: SavePlan, number) -> np.ndarray:
    """The pmf of units destroyed when `pools` of dice attack `units` identical units (hits front to back, as
    shooting's: `shooting.allocated`)."""
    return allocated(pools, units, saves, number).sum(axis=0)


EXACT_RATE = 2e7  # cells of the rounds' joints an exact engagement goes through a second (floats; measured here)


def exact_seconds(mine: Side, theirs: Side, rounds: int, rational: bool) -> float:
    """About how long the exact engagement takes, on the safe side: each round after the first from every
    pair of totals, through every pair of totals, for each gap of the result dice."""
    pairs = (mine.units + 1) * (theirs.units + 1)
    work = pairs + (rounds - 1) * pairs * pairs * 21
    return work / EXACT_RATE * (RATIONAL_SLOWDOWN if rational else 1)


def markers_after(mine: Side, win, draw, losses):
    """The assaulting formation's blast markers after the assault (1.12.8, 1.12.9): won or drawn, those it had
    and one per unit it lost (none removed); lost, it is broken: one per unit left."""
    return np.where((win == 1) | (draw == 1), mine.blast_markers + losses, mine.units - losses)


class _Tally:
    """The outcomes' pmfs, gathered from weighted cells (weights and values as arrays) and added up once; the
    blast markers after from the other outcomes."""

    def __init__(self, zero, mine: Side) -> None:
        self.zero, self.mine = zero, mine
        self.parts: list[tuple[np.ndarray, dict[str, Any]]] = []

    def add(self, weights: np.ndarray, **values: Any) -> None:
        values["blast_markers"] = markers_after(self.mine, *(np.asarray(values[name]) for name in ("win", "draw",
                                                                                                    "losses")))
        if np.size(weights):
            self.parts.append((weights, {name: np.broadcast_to(value, np.shape(weights))
                                         for name, value in values.items()}))

    def arrays(self) -> dict[str, np.ndarray]:
        weights = np.concatenate([part[0] for part in self.parts])
        summed = {name: _summed(np.concatenate([part[1][name] for part in self.parts]).astype(np.int64), weights,
                                self.zero) for name in ENGAGED}
        return {name: (pmfs.array([*pmf, *[self.zero] * (2 - len(pmf))]) if name in EVENTS else pmfs.trim(pmf))
                for name, pmf in summed.items()}


def _summed(values: np.ndarray, weights: np.ndarray, zero) -> np.ndarray:
    """The pmf of `values` weighted by `weights`: floats by bincount, exact numbers added one by one."""
    if weights.dtype != object:
        return np.bincount(values, weights=weights)
    pmf = [zero] * (int(values.max()) + 1)
    for value, weight in zip(values.tolist(), weights):
        pmf[value] += weight
    return pmfs.array(pmf)


def _round_joint(mine: Side, theirs: Side, done: int, lost: int, number) -> np.ndarray:
    """joint[kills, losses] of one round from `done` kills and `lost` losses: both sides at once (an outer
    product), or the side with First Strike first, the other with the units it has left (2.2.4)."""
    if mine.first_strike == theirs.first_strike:
        return np.multiply.outer(kills_pmf(mine.dice(lost), theirs.units - done, theirs.saves, number),
                                 kills_pmf(theirs.dice(done), mine.units - lost, mine.saves, number))
    if mine.first_strike:
        first = kills_pmf(mine.dice(lost), theirs.units - done, theirs.saves, number)
        rows = [kills_pmf(theirs.dice(done + kills), mine.units - lost, mine.saves, number) for kills in
                range(len(first))]
        return np.array([row * weight for row, weight in zip(rows, first)])
    return _round_joint(theirs, mine, lost, done, number).T


def engagement_pmfs(mine: Side, theirs: Side, rounds: int, keep_highest: bool, number) -> dict[str, np.ndarray]:
    """The exact pmfs of an engagement's outcomes: each round's kills on both sides (a convolution of
    binomials, allocated), then the result roll on every pair of totals; a tie goes on to the next
    round from its totals."""
    zero = number(0)
    tally = _Tally(zero, mine)
    gaps = [(gap, number(p)) for gap, p in result_gaps(keep_highest)]
    width = mine.units + 1
    states: dict[int, Any] = {0: number(1)}  # kills so far × (own units + 1) + losses so far → chance
    for round_ in range(rounds):
        following: dict[int, Any] = {}
        for code, weight in states.items():
            done, lost = divmod(code, width)
            joint = _round_joint(mine, theirs, done, lost, number) * weight
            kills, losses = np.indices(joint.shape)
            kills, losses, joint = (kills + done).ravel(), (losses + lost).ravel(), joint.ravel()
            their_left, my_left = theirs.units - kills, mine.units - losses
            stalled = my_left == 0  # every attacker gone: the attack stalled, even with no defender left
            wiped = (their_left == 0) & ~stalled
            tally.add(joint[stalled], win=0, draw=0, kills=kills[stalled], losses=losses[stalled], margin=0,
                      destroyed=(their_left[stalled] == 0) * 1)
            tally.add(joint[wiped], win=1, draw=0, kills=kills[wiped], losses=losses[wiped], margin=0, destroyed=1)
            fight = ~(stalled | wiped)
            kills, losses, their_left, my_left, joint = (kills[fight], losses[fight], their_left[fight],
                                                         my_left[fight], joint[fight])
            ahead = (modifiers(mine, theirs, kills, my_left, their_left)
                     - modifiers(theirs, mine, losses, their_left, my_left))
            for gap, p in gaps:
                total, weights = ahead + gap, joint * p
                won, lose, tie = total > 0, total < 0, total == 0
                extra = _extra(theirs, their_left[won], total[won])
                tally.add(weights[won], win=1, draw=0, kills=kills[won] + extra, losses=losses[won],
                          margin=total[won], destroyed=(their_left[won] == extra) * 1)
                extra = _extra(mine, my_left[lose], -total[lose])
                tally.add(weights[lose], win=0, draw=0, kills=kills[lose], losses=losses[lose] + extra,
                          margin=-total[lose], destroyed=0)
                if round_ + 1 == rounds:
                    tally.add(weights[tie], win=0, draw=1, kills=kills[tie], losses=losses[tie], margin=0,
                              destroyed=0)
                    continue
                for key, chance in zip((kills[tie] * width + losses[tie]).tolist(), weights[tie]):
                    following[key] = following.get(key, zero) + chance
        states = following
    return tally.arrays()


def _extra(loser: Side, left, margin):
    """Units the loser loses to its extra hits: as many as the margin, none when fearless; all of a
    formation that was broken before the assault (1.12.8)."""
    if loser.fearless:
        return 0 * left
    return left if loser.broken else np.minimum(left, margin)


# --- sampled ----------------------------------------------------------------------------


def _kills_sample(rng: np.random.Generator, pools, units: int, saves: SavePlan, trials: int) -> np.ndarray:
    """Units destroyed in each of `trials`: every die rolled, every hit allocated and saved."""
    slots = sum(count for count, _ in pools)
    return allocate_kills(rng, failed_die(saves), roll_hits(rng, pools, trials), max(slots, 1), units)


def _round_sample(rng: np.random.Generator, mine: Side, theirs: Side, done: int, lost: int,
                  trials: int) -> tuple[np.ndarray, np.ndarray]:
    """(kills, losses) of one round in `trials` from the same state: at once, or First Strike first and the
    other side with the units it has left, trials with the same kills rolling together."""
    if mine.first_strike == theirs.first_strike:
        return (_kills_sample(rng, mine.dice(lost), theirs.units - done, theirs.saves, trials),
                _kills_sample(rng, theirs.dice(done), mine.units - lost, mine.saves, trials))
    if theirs.first_strike:
        losses, kills = _round_sample(rng, theirs, mine, lost, done, trials)
        return kills, losses
    kills = _kills_sample(rng, mine.dice(lost), theirs.units - done, theirs.saves, trials)
    losses = np.zeros(trials, dtype=np.int64)
    for more in np.unique(kills):
        chosen = kills == more
        losses[chosen] = _kills_sample(rng, theirs.dice(done + int(more)), mine.units - lost, mine.saves,
                                       int(chosen.sum()))
    return kills, losses


def engagement_sample(rng: np.random.Generator, mine: Side, theirs: Side, rounds: int, keep_highest: bool,
                      trials: int) -> dict[str, np.ndarray]:
    """Each trial's engagement, round after round: trials in the same state (kills and losses so far)
    roll together."""
    kills, losses = np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)
    out = {name: np.zeros(trials, dtype=np.int64) for name in ENGAGED}
    going = np.ones(trials, dtype=bool)
    kept = np.maximum if keep_highest else np.add
    for round_ in range(rounds):
        codes = kills * (mine.units + 1) + losses
        for code in np.unique(codes[going]):
            done, lost = divmod(int(code), mine.units + 1)
            chosen = np.flatnonzero(going & (codes == code))
            size = len(chosen)
            more, lost_more = _round_sample(rng, mine, theirs, done, lost, size)
            kills[chosen] += more
            losses[chosen] += lost_more
        their_left, my_left = theirs.units - kills, mine.units - losses
        stalled, wiped = going & (my_left == 0), going & (their_left == 0) & (my_left > 0)
        out["win"][wiped] = 1
        fight = going & ~stalled & ~wiped
        dice = rng.integers(1, 7, size=(4, trials))
        ahead = (kept(dice[0], dice[1]) + modifiers(mine, theirs, kills, my_left, their_left)
                 - kept(dice[2], dice[3]) - modifiers(theirs, mine, losses, their_left, my_left))
        won, lose = fight & (ahead > 0), fight & (ahead < 0)
        out["win"][won] = 1
        out["margin"][won | lose] = np.abs(ahead[won | lose])
        kills[won] += _extra(theirs, their_left[won], ahead[won])
        losses[lose] += _extra(mine, my_left[lose], -ahead[lose])
        going = fight & (ahead == 0)
        if round_ + 1 == rounds:
            out["draw"][going] = 1
    out["kills"], out["losses"] = kills, losses
    out["blast_markers"] = markers_after(mine, out["win"], out["draw"], losses)
    out["destroyed"] = (kills == theirs.units) * 1
    return out


# --- the query --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Assault(Attack):
    """An Epic assault (§2.7, §2.9): the result roll from both sides' modifiers, or, with --units and
    --enemy-units, the whole engagement: both sides' close-combat and firefight attacks, saves,
    the result roll with every modifier of 1.12.7, another round on a tie, the loser's extra hits.

    Outcomes: win (this side strictly higher), draw, margin (the absolute difference: the hits the
    loser takes); with units also kills (enemy units destroyed, the extra hits included), losses
    (this side's), destroyed (the enemy formation destroyed) and blast_markers (this side's after
    the assault: won or drawn, those it had and one per unit lost; lost, one per unit left).
    """

    bonus: int = option("This side's assault-result modifiers (may be negative); with --units, those beside "
                        "the ones the engagement counts (Inspiring units, say).", 0)
    enemy_bonus: int = option("The enemy's assault-result modifiers (may be negative).", 0)
    keep_highest: bool = option("Keep each side's highest die instead of adding both (the other reading: the NetEA "
                                "pack's; see oddscalc rules 2.7).", False)
    units: int | None = option("The assaulting formation's units in the assault (1 to 60): an engagement of both "
                               "sides instead of the result roll alone (needs --enemy-units).", None, metavar="N")
    cc: int | None = option("Its close-combat value, 2+ to 6+ (none: no close-combat attack).", NOT_GIVEN,
                            roll=True, none=True)
    ff: int | None = option("Its firefight value, 2+ to 6+ (none: units out of base contact do not attack).",
                            NOT_GIVEN, roll=True, none=True)
    armour: int | None = option("Its armour save, 2+ to 6+, or none.",
        NOT_GIVEN, roll=True, none=True)
    in_contact: int | None = option("How many of the --units fight in base contact (CC); the rest by firefight "
                                    "(FF). Default: all of them.", None, metavar="K")
    blast_markers: int = option("Blast markers on the assaulting formation before the assault.", 0, metavar="B")
    reinforced: bool = option("Its units have reinforced armour (re-roll a failed save).", False)
    invulnerable: bool = option("Its units have an invulnerable save (6+ after any failed save).", False)
    extra_attacks: int = option("Extra attacks of each of its units (+E A), rolled as its own attack is.", 0,
                                metavar="E")
    fearless: bool = option("Its units are fearless: no extra hits when it loses.", False)
    extra_at: ExtraAt = option("Which value the extra attacks roll against (§2.9): own (each unit's own attack's, "
                               "CC in contact and FF apart), cc (an assault weapon's: only units in contact) or ff "
                               "(small arms': only units out of contact).", ExtraAt.OWN)
    first_strike: bool = option("Its attacks strike first (2.2.4): the enemy units they kill do not attack.",
                                False)
    support: int = option("Units of its other formations giving supporting fire (1.12.6), each one die at "
                          "--support-ff.", 0, metavar="S")
    support_ff: int | None = option("The supporting units' firefight value, 2+ to 6+.", None, roll=True)
    enemy_units: int | None = option("The defending formation's units in the assault (1 to 60).", None,
                                     metavar="N")
    enemy_cc: int | None = option("Its close-combat value, 2+ to 6+, or none.",
        NOT_GIVEN, roll=True, none=True)
    enemy_ff: int | None = option("Its firefight value, 2+ to 6+, or none.",
        NOT_GIVEN, roll=True, none=True)
    enemy_armour: int | None = option("Its armour save, 2+ to 6+, or none.",
        NOT_GIVEN, roll=True, none=True)
    enemy_cover_save: int | None = option("Its infantry's cover save where it stands, 2+ to 6+ (the defender may "
                                          "take it; the assaulting side may not).", None, roll=True)
    enemy_in_contact: int | None = option("How many of the --enemy-units fight in base contact. Default: all.", None,
                                          metavar="K")
    enemy_blast_markers: int = option("Blast markers on the defending formation before the assault.", 0,
                                      metavar="B")
    enemy_broken: bool = option("The defending formation is broken: it counts a blast marker per unit, and is "
                                "destroyed if it loses.", False)
    enemy_reinforced: bool = option("Its units have reinforced armour.", False)
    enemy_invulnerable: bool = option("Its units have an invulnerable save.", False)
    enemy_extra_attacks: int = option("Extra attacks of each of its units.", 0, metavar="E")
    enemy_fearless: bool = option("Its units are fearless: no extra hits when it loses.", False)
    enemy_extra_at: ExtraAt = option("Which value its extra attacks roll against: own, cc or ff.", ExtraAt.OWN)
    enemy_first_strike: bool = option("Its attacks strike first (both sides with it: at once).", False)
    enemy_support: int = option("Units of its other formations giving supporting fire.", 0, metavar="S")
    enemy_support_ff: int | None = option("Their firefight value, 2+ to 6+.", None, roll=True)
    rounds: int = option("Rounds fought at most: a tie fights another round with the units left (1.12.7); still "
                         "tied after them, a draw.", 3, metavar="R")

    COMMAND = "epic assault"

    @property
    def engaged(self) -> bool:
        """Both sides given unit by unit: the whole engagement, not only the result roll."""
        return self.units is not None

    @property
    def outcomes(self) -> tuple[str, ...]:
        return ENGAGED if self.engaged else ("win", "draw", "margin")

    @property
    def events(self) -> tuple[str, ...]:  # type: ignore[override]
        return EVENTS if self.engaged else ("win", "draw")

    @property
    def target_units(self) -> int | None:
        """The units its kills are counted of: the enemy's."""
        return self.enemy_units

    def side(self, prefix: str) -> Side:
        """One side as the engagement reads it (`prefix` "" or "enemy_")."""
        value = lambda name: getattr(self, prefix + name)  # noqa: E731
        units = value("units")
        return Side(units=units, cc=value("cc"), ff=value("ff"), armour=value("armour"),
                    in_contact=units if value("in_contact") is None else value("in_contact"),
                    cover_save=self.enemy_cover_save if prefix else None, reinforced=value("reinforced"),
                    invulnerable=value("invulnerable"), extra_attacks=value("extra_attacks"),
                    blast_markers=value("blast_markers"), broken=self.enemy_broken if prefix else False,
                    fearless=value("fearless"), support=value("support"), support_ff=value("support_ff"),
                    bonus=value("bonus"), first_strike=value("first_strike"), extra_at=value("extra_at"))

    def describe(self) -> str:
        roll = ", each side's highest die kept" if self.keep_highest else ""
        if not self.engaged:
            return f"Epic assault result: {self.bonus:+d} against {self.enemy_bonus:+d}{roll}"
        return (f"Epic assault: {self._words('')} against {self._words('enemy_')}"
                + (f", at most {plural(self.rounds, 'round')}" if self.rounds != 3 else "") + roll)

    def _words(self, prefix: str) -> str:
        side = self.side(prefix)
        value = lambda v: "none" if v is None else f"{v}+"  # noqa: E731
        apart = side.units - side.in_contact
        words = [plural(side.units, "unit") + (f" ({side.in_contact} in contact)" if apart else ""),
                 f"CC {value(side.cc)}", f"FF {value(side.ff)}", f"armour {value(side.armour)}"]
        words += [f"cover save {side.cover_save}+"] if side.cover_save else []
        words += [word for word, on in (("reinforced", side.reinforced), ("invulnerable", side.invulnerable),
                                        ("fearless", side.fearless), ("broken", side.broken),
                                        ("first strike", side.first_strike)) if on]
        words += [f"+{side.extra_attacks} A" + (f" at {side.extra_at.value.upper()}" if side.extra_at is not
                                                 ExtraAt.OWN else "")] if side.extra_attacks else []
        words += [plural(side.blast_markers, "blast marker")] if side.blast_markers else []
        words += [f"{side.support} supporting at FF {value(side.support_ff)}"] if side.support else []
        words += [f"result {side.bonus:+d}"] if side.bonus else []
        return "(" + ", ".join(words) + ")"

    def check(self) -> None:
        for name in ("bonus", "enemy_bonus"):
            value = getattr(self, name)
            require(abs(value) <= MAX_BONUS, name, value, f"expected a whole number from -{MAX_BONUS} to {MAX_BONUS}")
        if not self.engaged:
            for name in ENGAGEMENT_FIELDS:
                value = getattr(self, name)
                require(value == DEFAULTS[name], name, "none" if value is None else value,
                        "only applies with --units N and --enemy-units N (an engagement of both sides)")
            return
        require(self.enemy_units is not None, "enemy_units", None, f"is required with --units: the defending "
                                                                   f"formation's units, 1 to {MAX_UNITS}")
        for prefix in ("", "enemy_"):
            self._check_side(prefix)
        require(1 <= self.rounds <= MAX_ROUNDS, "rounds", self.rounds, f"expected 1 to {MAX_ROUNDS} rounds")
        require(not (self.enemy_broken and self.enemy_blast_markers), "enemy_blast_markers", self.enemy_blast_markers,
                "a broken formation counts one blast marker per unit (--enemy-broken): give no other")

    def _check_side(self, prefix: str) -> None:
        def get(name: str) -> Any:
            return getattr(self, prefix + name)

        units = get("units")
        require(1 <= units <= MAX_UNITS, prefix + "units", units, f"expected 1 to {MAX_UNITS} units")
        for name in ("cc", "ff", "armour", "support_ff", "cover_save"):
            if not hasattr(self, prefix + name):
                continue
            value = get(name)
            if name in ("cc", "ff", "armour"):
                require(value != NOT_GIVEN, prefix + name, None, "is required with --units and --enemy-units: "
                                                                 "2+ to 6+, or none")
            require(value is None or 2 <= value <= 6, prefix + name, value if value is None else f"{value}+",
                    "expected 2+ to 6+" + (", or none" if name in ("cc", "ff", "armour") else ""))
        contact = get("in_contact")
        require(contact is None or 0 <= contact <= units, prefix + "in_contact", contact,
                f"expected 0 to {units} (of the {plural(units, 'unit')})")
        for name, most in (("blast_markers", MAX_BLAST_MARKERS), ("extra_attacks", MAX_EXTRA),
                           ("support", MAX_SUPPORT)):
            require(0 <= get(name) <= most, prefix + name, get(name), f"expected 0 to {most}")
        dashes = "--" + prefix.replace("_", "-")
        require(get("extra_attacks") or get("extra_at") is ExtraAt.OWN, prefix + "extra_at", get("extra_at").value,
                f"only applies with {dashes}extra-attacks E")
        if get("support") and get("support_ff") is None:
            require(False, prefix + "support", get("support"), f"needs {dashes}support-ff X+ (their firefight value)")
        if get("support_ff") is not None and not get("support"):
            require(False, prefix + "support_ff", f"{get('support_ff')}+", f"only applies with {dashes}support S")

    def sample(self, rng: np.random.Generator, trials: int):
        if self.engaged:
            return engagement_sample(rng, self.side(""), self.side("enemy_"), self.rounds, self.keep_highest, trials)
        return roll_pool(rng, assault_die(self.bonus, self.enemy_bonus, self.keep_highest), 1, trials)

    def pmfs(self, number: Callable[[Any], Any]) -> dict[str, np.ndarray]:
        if self.engaged:
            seconds = exact_seconds(self.side(""), self.side("enemy_"), self.rounds, number is not float)
            require(seconds <= EXACT_SECONDS, "exact", self.describe(),
                    f"the exact answer would take about {seconds:,.0f} s; sample instead (leave out --exact"
                    + (", or drop --fractions)" if number is not float else ")"))
            return engagement_pmfs(self.side(""), self.side("enemy_"), self.rounds, self.keep_highest, number)
        difference = dict(result_gaps(self.keep_highest))
        shifted: dict[int, Fraction] = {}
        for gap, p in difference.items():
            shifted[gap + self.bonus - self.enemy_bonus] = p
        win = sum((p for gap, p in shifted.items() if gap > 0), Fraction(0))
        draw = shifted.get(0, Fraction(0))
        margin: dict[int, Fraction] = {}
        for gap, p in shifted.items():
            margin[abs(gap)] = margin.get(abs(gap), Fraction(0)) + p
        return {
            "win": pmfs.array([1 - win, win]),
            "draw": pmfs.array([1 - draw, draw]),
            "margin": pmfs.array([margin.get(k, Fraction(0)) for k in range(max(margin) + 1)]),
        }


DEFAULTS = {field.name: field.default for field in Assault.__dataclass_fields__.values()}
ENGAGEMENT_FIELDS = tuple(name for name in DEFAULTS if name not in ("bonus", "enemy_bonus", "keep_highest"))
