"""Epic Armageddon assaults (docs/rules.md §2.7 and §2.9; Epic Armageddon rulebook 1.12, 3.3): the result roll
alone, or a whole engagement with both sides' units, as one query (`Assault`).

An engagement (`rounds.py`), round after round until one side wins (at most --rounds):
1. Both sides attack at once (1.12.5; First Strike first, 2.2.4): each unit in base contact rolls one D6
   against its CC value, each other unit against its FF value, a war engine as many dice as its damage
   capacity (3.3.2), extra attacks on top (a macro-weapon's or titan killer's only those, 2.2.6), supporting
   fire at FF (1.12.6). No modifier applies to these rolls.
2. Hits go front to back over the side hit, kind by kind (`engagement.py`: units in contact first, a war
   engine taking its damage capacity in hits, 3.2.1), saved as shooting's are; a war engine loses a point
   per failed save, rolling for a critical hit. Macro-weapon and titan-killer hits after the others.
3. A side with no unit left loses, and one left alone wins, without a result roll.
4. Otherwise each side rolls 2D6 (--keep-highest: the highest die) and adds 1.12.7's modifiers: +1 a kill
   (a point of damage on a war engine one), +1 for more units left and +1 more for more than twice as many
   (a war engine counting its damage capacity), +1 with no blast markers, +1 when the enemy has more (They
   Shall Know No Fear: half count), +1 per Inspiring unit left, and --bonus. A tie fights another round.
5. The loser takes as many extra hits as the difference, no save (fearless units skip them; They Shall Know
   No Fear halves them); a loser broken before the assault is destroyed (1.12.8).

Outcomes: win, draw, kills, losses, margin, destroyed, blast_markers and enemy_blast_markers (rounds.py).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core import pmf as pmfs
from ..core import attack as attacks
from ..core.attack import Attack, option, option_fields
from ..core.sided import Sided
from ..core.dice import EXACT_SECONDS
from ..errors import require
from ..core.pool import Die, roll_pool
from ..output.style import plural
from .engagement import Side
from .formation import Defender, Formation
from .kinds import MAX_CAPACITY, MAX_EXTRA, MAX_PIECES, MAX_UNITS, ExtraAt, Kind
from .rounds import ENGAGED, EVENTS, engagement_pmfs, engagement_sample, exact_seconds, result_gaps
from .saves import Ability
from .defences import NOT_GIVEN
from .war_engines import Critical

MAX_BONUS = 20


class Casualties(str, Enum):
    """Which units of a kind fall when only some are in base contact (1.12.5 "as for shooting", 1.9.6; an open
    reading of oddscalc's before)."""

    FAILED_SAVE = "failed-save"  # the unit that failed its save is removed
    IN_CONTACT_FIRST = "in-contact-first"  # the losses come off the units in base contact first


class EnginesCount(str, Enum):
    """How many units a damaged war engine counts as in an assault's result (3.3.3; an open reading)."""

    STARTING = "starting"
    REMAINING = "remaining"


MAX_STATES = 1_000_000  # a side's combinations of losses (its state codes), each a row of its arrays
MAX_SUPPORT = 60
MAX_ROUNDS = 5
@lru_cache(maxsize=64)
def assault_die(bonus: int, enemy_bonus: int, keep_highest: bool = False) -> Die:
    """Return both sides' 2D6 as one die: who wins, a draw, and the margin."""
    kept = np.maximum if keep_highest else np.add  # both dice added (the rulebook), or the highest kept

    def rule(mine_a: Any, mine_b: Any, theirs_a: Any, theirs_b: Any) -> tuple[Any, Any, Any]:
        mine = kept(mine_a, mine_b) + bonus
        theirs = kept(theirs_a, theirs_b) + enemy_bonus
        return mine > theirs, mine == theirs, np.abs(mine - theirs)

    return Die((6, 6, 6, 6), rule, ("win", "draw", "margin"))


@record(kw_only=True, init=False)
class Assault(Sided, Attack):
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
    attacker: Formation = attacks.side("", "The assaulting formation")
    defender: Defender = attacks.side("enemy_", "The defending formation")
    engines_count: EnginesCount = option("How many units a damaged war engine counts as for outnumbering and a broken "
                                         "formation's markers (3.3.3, an open reading): starting (its starting damage "
                                         "capacity, the text's word) or remaining (the capacity it has left).",
                                         EnginesCount.STARTING)
    casualties: Casualties = option("Which units fall when only some of a kind are in base contact (--in-contact, "
                                    "2.9 of oddscalc rules): failed-save (a unit that fails its save is removed, "
                                    "1.12.5 \"as for shooting\") or in-contact-first (the losses come off the units in "
                                    "contact first, so fewer fight at CC in the next round).", Casualties.FAILED_SAVE)
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
    def events(self) -> tuple[str, ...]:
        return EVENTS if self.engaged else ("win", "draw")

    @property
    def target_units(self) -> int | None:
        """The kills that destroy the enemy: its units, each point of a war engine's damage capacity one."""
        return self.side("enemy_").most if self.engaged else None

    def kind(self, prefix: str) -> Kind:
        """A side's --units as a kind (`prefix` "" or "enemy_")."""
        def value(name: str) -> Any:
            return getattr(self, prefix + name)

        return Kind(value("units"), value("cc"), value("ff"), value("armour"), value("in_contact"),
                    cover_save=self.enemy_cover_save if prefix else None, reinforced=value("reinforced"),
                    invulnerable=value("invulnerable"), fearless=value("fearless"),
                    extra_attacks=value("extra_attacks"), extra_at=value("extra_at"),
                    capacity=value("damage_capacity"), critical=value("critical"), cc_dice=value("cc_dice"),
                    extra_ability=value("extra_ability"), inspiring=value("inspiring"),
                    tk_damage=None if value("tk_damage") is None else str(value("tk_damage")))

    def side(self, prefix: str) -> Side:
        """One side as the engagement reads it (`prefix` "" or "enemy_"), made once (its fields never change)."""
        if "side " + prefix not in self.__dict__:
            self.__dict__["side " + prefix] = self._side(prefix)
        made: Side = self.__dict__["side " + prefix]
        return made

    def _side(self, prefix: str) -> Side:
        def value(name: str) -> Any:
            return getattr(self, prefix + name)

        return Side((self.kind(prefix), *value("other")), blast_markers=value("blast_markers"),
                    broken=self.enemy_broken if prefix else False, support=value("support"),
                    support_ff=value("support_ff"), bonus=value("bonus"), first_strike=value("first_strike"),
                    know_no_fear=value("know_no_fear"), engines_count=self.engines_count.value,
                    removal=self.casualties.value)

    def describe(self) -> str:
        roll = ", each side's highest die kept" if self.keep_highest else ""
        if not self.engaged:
            return f"Epic assault result: {self.bonus:+d} against {self.enemy_bonus:+d}{roll}"
        return (f"Epic assault: {self._words('')} against {self._words('enemy_')}"
                + (f", at most {plural(self.rounds, 'round')}" if self.rounds != 3 else "") + roll
                + (", a damaged war engine counts what it has left"
                   if self.engines_count is EnginesCount.REMAINING else "")
                + (", losses in contact first" if self.casualties is Casualties.IN_CONTACT_FIRST else ""))

    def _words(self, prefix: str) -> str:
        side, kind = self.side(prefix), self.kind(prefix)
        def value(v: int | None) -> str:
            return "none" if v is None else f"{v}+"

        apart = kind.count - kind.contact
        named = "war engine" if kind.engine else "unit"
        words = [plural(kind.count, named) + (f" of DC{kind.capacity}" if kind.engine else "")
                 + (f" ({kind.contact} in contact)" if apart else ""),
                 f"CC {value(kind.cc)}", f"FF {value(kind.ff)}", f"armour {value(kind.armour)}"]
        words += [f"{kind.cc_dice} dice at CC"] if kind.cc_dice is not None else []
        words += [f"critical {kind.critical.value}"] if kind.critical is not Critical.NONE else []
        words += [f"cover save {kind.cover_save}+"] if kind.cover_save else []
        words += [word for word, on in (("reinforced", kind.reinforced), ("invulnerable", kind.invulnerable),
                                        ("fearless", kind.fearless), ("broken", side.broken),
                                        ("first strike", side.first_strike)) if on]
        words += [f"+{kind.extra_attacks} A" + (f" at {kind.extra_at.value.upper()}" if kind.extra_at is not
                                                 ExtraAt.OWN else "")
                  + (f" {kind.extra_ability.value}" if kind.extra_ability is not Ability.NORMAL else "")
                  + (f" ({kind.tk_damage})" if kind.tk_damage else "")] if kind.extra_attacks else []
        words += [word for word, on in (("inspiring", kind.inspiring), ("They Shall Know No Fear",
                                                                        side.know_no_fear)) if on]
        words += [f"and {other}" for other in side.kinds[1:]]
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
        engines = any(kind.engine for prefix in ("", "enemy_") for kind in self.side(prefix).kinds)
        require(engines or self.engines_count is EnginesCount.STARTING, "engines_count", self.engines_count.value,
                "only applies with war engines (--damage-capacity, or DC<d> in --other)")
        require(not (self.enemy_broken and self.enemy_blast_markers), "enemy_blast_markers", self.enemy_blast_markers,
                "a broken formation counts one blast marker per unit (--enemy-broken): give no other")

    def idle(self) -> dict[str, str]:
        split = self.engaged and (self.side("").split or self.side("enemy_").split)
        if self.casualties is Casualties.IN_CONTACT_FIRST and not split:
            return {"casualties": "only applies when some units of a kind are in base contact and some are not "
                                  "(--in-contact K, or in-contact K in --other)"}
        return {}

    def check_query(self) -> tuple[str, ...]:
        """A typed engagement where neither side rolls an attack is no engagement: refused (the library still
        answers it, the result roll with the units' modifiers, as the tests of those modifiers use it)."""
        require(not self.engaged or bool(self.side("").attacks(0) or self.side("enemy_").attacks(0)), "cc",
                "none" if self.cc is None else f"{self.cc}+",
                "neither side rolls an attack (no CC or FF value its units fight with, no supporting fire): give "
                "one a value, or leave out --units and --enemy-units for the result roll alone")
        return super().check_query()

    def _check_side(self, prefix: str) -> None:
        def get(name: str) -> Any:
            return getattr(self, prefix + name)

        dashes = "--" + prefix.replace("_", "-")
        units, capacity = get("units"), get("damage_capacity")
        most = MAX_UNITS if capacity is None else MAX_PIECES
        require(1 <= units <= most, prefix + "units", units, f"expected 1 to {most} "
                + ("units" if capacity is None else f"war engines (with {dashes}damage-capacity)"))
        self._check_engine(prefix)
        covered = [str(kind) for kind in get("other") if kind.cover_save is not None]
        require(bool(prefix) or not covered, "other", "; ".join(covered),
                "the assaulting formation takes no cover save (1.12.5): only the defender's units may")
        pieces = self.side(prefix).parts
        require(pieces <= MAX_PIECES, prefix + "other", "; ".join(map(str, get("other"))),
                f"expected at most {MAX_PIECES} kinds and war engines on a side (there are {pieces})")
        size = self.side(prefix).size  # every combination of losses a side can reach: held in memory
        require(size <= MAX_STATES, prefix + "other", "; ".join(map(str, get("other"))) or str(get("units")),
                f"expected at most {MAX_STATES:,} combinations of losses on a side ({dashes}units {units}"
                + (f" of {dashes}damage-capacity {capacity}" if capacity is not None else "")
                + f" and these kinds make {size:,}): give fewer kinds, or merge kinds that fight alike")
        for name in ("cc", "ff", "armour", "support_ff"):
            value = get(name)
            if name != "support_ff":
                require(value != NOT_GIVEN, prefix + name, None, "is required with --units and --enemy-units: "
                                                                 "2+ to 6+, or none")
            require(value is None or 2 <= value <= 6, prefix + name, value if value is None else f"{value}+",
                    "expected 2+ to 6+" + (", or none" if name != "support_ff" else ""))
        (self.defender if prefix else self.attacker).check_defences(prefix)
        contact = get("in_contact")
        require(contact is None or 0 <= contact <= units, prefix + "in_contact", contact,
                f"expected 0 to {units} (of the {plural(units, 'unit')})")
        for name, most in (("extra_attacks", MAX_EXTRA), ("support", MAX_SUPPORT)):
            require(0 <= get(name) <= most, prefix + name, get(name), f"expected 0 to {most}")
        require(get("extra_attacks") or get("extra_at") is ExtraAt.OWN, prefix + "extra_at", get("extra_at").value,
                f"only applies with {dashes}extra-attacks E")
        require(get("extra_ability") in (Ability.NORMAL, Ability.MACRO, Ability.TITAN_KILLER), prefix + "extra_ability",
                get("extra_ability").value, "expected normal, macro or titan-killer")
        require(get("extra_attacks") or get("extra_ability") is Ability.NORMAL, prefix + "extra_ability",
                get("extra_ability").value, f"only applies with {dashes}extra-attacks E (2.2.6: a macro-weapon or "
                                            "titan killer attacks in an assault with its extra attacks only)")
        require(get("tk_damage") is None or get("extra_ability") is Ability.TITAN_KILLER, prefix + "tk_damage",
                str(get("tk_damage")), f"only applies with {dashes}extra-ability titan-killer")
        if get("support") and get("support_ff") is None:
            require(False, prefix + "support", get("support"), f"needs {dashes}support-ff X+ (their firefight value)")
        if get("support_ff") is not None and not get("support"):
            require(False, prefix + "support_ff", f"{get('support_ff')}+", f"only applies with {dashes}support S")

    def _check_engine(self, prefix: str) -> None:
        """A side's war engine options: each needs --damage-capacity, and --cc-dice is at most it."""
        capacity, dashes = getattr(self, prefix + "damage_capacity"), "--" + prefix.replace("_", "-")
        cc_dice, critical = getattr(self, prefix + "cc_dice"), getattr(self, prefix + "critical")
        if capacity is None:
            require(cc_dice is None, prefix + "cc_dice", cc_dice, f"only applies with {dashes}damage-capacity DC")
            require(critical is Critical.NONE, prefix + "critical", critical.value,
                    f"only applies with {dashes}damage-capacity DC")
            return
        require(1 <= capacity <= MAX_CAPACITY, prefix + "damage_capacity", capacity, f"expected 1 to {MAX_CAPACITY}")
        require(cc_dice is None or 0 <= cc_dice <= capacity, prefix + "cc_dice", cc_dice,
                f"expected 0 to {capacity} (the war engine's dice: its damage capacity)")

    def sample(self, rng: np.random.Generator, trials: int) -> Any:  # outcomes by name, or the pool's roll
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


DEFAULTS = {field.name: field.default for field in option_fields(Assault)}
ENGAGEMENT_FIELDS = tuple(name for name in DEFAULTS if name not in ("bonus", "enemy_bonus", "keep_highest"))
