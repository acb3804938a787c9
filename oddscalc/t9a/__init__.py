"""The 9th Age (docs/rules.md §3): melee and shooting, charges, tests, the direction die, and rosters."""

from .attacks import Melee, T9AHits, T9AShoot
from .rolls import Charge, Direction, DisciplineTest
from .stages import Reroll, Special, armour_need, melee_need, wound_need

__all__ = ["Charge", "Direction", "DisciplineTest", "Melee", "Reroll", "Special", "T9AHits", "T9AShoot",
           "armour_need", "melee_need", "wound_need"]
EXPORTS = ("Melee", "T9AShoot", "T9AHits", "Charge", "DisciplineTest", "Direction", "Reroll")  # what `oddscalc` offers at its top level
