"""War engines of several profiles in one formation (docs/rules.md §2.8; `--engine`): a profile
read from its words (`EngineProfile`), and the formation they make front to back (`Formation`),
each war engine taking its own damage capacity in hits, round after round, and resolving them
with its own saves (one war engine's rules are `war_engines.py:Engines`).
"""

from __future__ import annotations

import re
from typing import Any, Sequence, TYPE_CHECKING

from ..core.record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType
from .joints import zeros
from .war_engines import Critical, Engines, HitKind

ENGINE_ALLOWED = ("expected war engines of another profile: N DC<d> [armour A+|none] [shields S] [critical C] "
                  "[reinforced] [invulnerable] [thick-rear-armour], like '3 DC1 armour 5+ shields 1'")
MAX_PROFILE = 20  # war engines, damage capacity, shields of one profile (as --war-engines, --damage-capacity)


@record
class EngineProfile:
    """War engines of one profile in a formation of several (`--engine`): how many, their damage capacity,
    armour, shields and critical hit, and their armour's abilities."""

    count: int
    capacity: int
    armour: int | None = None
    shields: int = 0
    critical: Critical = Critical.NONE
    reinforced: bool = False
    invulnerable: bool = False
    thick_rear_armour: bool = False

    @classmethod
    def parse(cls, text: str, name: str = "engine") -> EngineProfile:
        """Read `3 DC1 armour 5+ shields 1 critical destroyed reinforced` (words in any order after N DC<d>)."""
        from ..core.attack import is_whole
        from ..errors import InputError, once

        words = str(text).replace("=", " ").split()
        capacity = re.fullmatch(r"dc([0-9]{1,2})", words[1], re.IGNORECASE) if len(words) >= 2 else None
        if len(words) < 2 or not is_whole(words[0]) or capacity is None:
            raise InputError(name, text, ENGINE_ALLOWED)
        values: dict[str, Any] = {"count": int(words[0]), "capacity": int(capacity[1])}
        rest = words[2:]
        seen: set[str] = set()
        while rest:
            word = rest.pop(0).casefold()
            once(word, seen, name, text)
            if word in ("reinforced", "invulnerable", "thick-rear-armour"):
                values[word.replace("-", "_")] = True
            elif word in ("armour", "shields", "critical") and rest:
                value = rest.pop(0).casefold()
                if word == "armour":
                    roll = re.fullmatch(r"([2-6])\+?", value)
                    if roll is None and value != "none":
                        raise InputError(name, text, "expected armour 2+ to 6+, or none")
                    values["armour"] = int(roll[1]) if roll else None
                elif word == "shields":
                    if not is_whole(value):
                        raise InputError(name, text, ENGINE_ALLOWED)
                    values["shields"] = int(value)
                else:
                    try:
                        values["critical"] = Critical(value)
                    except ValueError:
                        raise InputError(name, text, "expected a critical hit of none, damage, damage-once, "
                                                     "destroyed or wounded") from None
            else:
                raise InputError(name, text, ENGINE_ALLOWED)
        profile = cls(**values)
        for field_name, low in (("count", 1), ("capacity", 1), ("shields", 0)):
            if not low <= getattr(profile, field_name) <= MAX_PROFILE:
                raise InputError(name, text, f"{field_name.replace('capacity', 'damage capacity')}: expected {low} "
                                             f"to {MAX_PROFILE}")
        return profile

    def __str__(self) -> str:
        words = [str(self.count), f"DC{self.capacity}", "armour " + ("none" if self.armour is None else
                                                                    f"{self.armour}+")]
        words += [f"shields {self.shields}"] if self.shields else []
        words += [f"critical {self.critical.value}"] if self.critical is not Critical.NONE else []
        words += [word for word, on in (("reinforced", self.reinforced), ("invulnerable", self.invulnerable),
                                        ("thick-rear-armour", self.thick_rear_armour)) if on]
        return " ".join(words)

    @property
    def engines(self) -> Engines:
        return Engines(self.count, self.capacity, self.shields, self.critical)


@record
class Formation:
    """War engines of several profiles in one formation, front to back in the order given (`parts`): each
    takes its own damage capacity in hits, round after round (3.2.1), and resolves them with its own saves.

    Its outcomes add `fallen`, the damage capacity of the war engines destroyed (what breaking needs); the
    exact joint carries kills and fallen on one axis, kills + (W + 1) · fallen."""

    parts: tuple[Engines, ...]

    @property
    def count(self) -> int:
        return sum(part.count for part in self.parts)

    @property
    def capacity(self) -> int:
        """The damage capacity of every war engine together."""
        return sum(part.count * part.capacity for part in self.parts)

    def order(self) -> list[tuple[int, int]]:
        """(part, war engine) of each hit of one round, front to back: each war engine its DC of them."""
        return [(index, engine) for index, part in enumerate(self.parts) for engine in range(part.count)
                for _ in range(part.capacity)]

    def allocation(self, hits: int) -> list[list[int]]:
        """Hits each war engine of each part takes (blocks of each one's damage capacity, round after round)."""
        rounds, rest = divmod(hits, self.capacity)
        shares = [[rounds * part.capacity] * part.count for part in self.parts]
        for index, engine in self.order()[:rest]:
            shares[index][engine] += 1
        return shares

    # --- exact ------------------------------------------------------------------------------
    def coded(self, index: int, state: np.ndarray, number: NumberType) -> np.ndarray:
        """joint[kills + (W + 1) · fallen, damage lost, shields down] of one war engine of part `index`."""
        part = self.parts[index]
        joint = part.outcome(state, number)
        code = 1 + (self.count + 1) * part.capacity
        result = zeros((code + 1,) + joint.shape[1:], number)
        result[0], result[code] = joint[0], joint[1]
        return result

    def decode(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(kills, fallen) of the joint's first axis."""
        return np.divmod(codes, self.count + 1)[::-1]

    # --- sampled ----------------------------------------------------------------------------
    def start(self, trials: int) -> list[Any]:
        return [part.start(trials) for part in self.parts]

    def strike(self, rng: np.random.Generator, states: list[Any], hits: np.ndarray, kinds: Sequence[HitKind]) -> None:
        """Resolve each trial's hits, allocated front to back, each with its war engine's own saves."""
        order = self.order()
        trials = len(hits)
        flats = [(shields.ravel(order="F"), damage.ravel(order="F")) for shields, damage in states]
        rows = np.flatnonzero(hits > 0)
        for j in range(int(hits.max(initial=0))):
            rows = rows[hits[rows] > j]
            if not rows.size:
                break
            index, engine = order[j % len(order)]
            self.parts[index]._resolve(rng, flats[index], engine * trials + rows, kinds[index])

    def tally(self, states: list[Any]) -> dict[str, np.ndarray]:
        tallies = [part.tally(state) for part, state in zip(self.parts, states)]
        total = {name: sum((one[name] for one in tallies[1:]), tallies[0][name]) for name in tallies[0]}
        fallen = [(one["kills"] * part.capacity).astype(np.int16) for one, part in zip(tallies, self.parts)]
        total["fallen"] = sum(fallen[1:], fallen[0])
        return total
