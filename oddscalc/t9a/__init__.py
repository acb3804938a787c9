"""The 9th Age (docs/rules.md §3): melee and shooting, charges, tests, the direction die, and rosters."""

from ..core.lazy import exports

_WHERE = {
    **dict.fromkeys(("Melee", "T9AHits", "T9AShoot"), "attacks"),
    "Combat": "combat",
    **dict.fromkeys(("Charge", "Direction", "DisciplineTest"), "rolls"),
    **dict.fromkeys(("Reroll", "Special", "armour_need", "melee_need", "wound_need"), "stages"),
}
__all__ = sorted(_WHERE)
EXPORTS = ("Melee", "T9AShoot", "T9AHits", "Charge", "DisciplineTest", "Direction", "Reroll")  # what `oddscalc` offers at its top level
__getattr__, __dir__ = exports(__name__, _WHERE)
