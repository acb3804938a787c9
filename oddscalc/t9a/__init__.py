"""The 9th Age (RULES.md §3): melee and shooting, charges, tests, the direction die, and rosters."""

from .attacks import Melee, Reroll, Special, T9AShoot, armour_need, melee_need, wound_need
from .rolls import Charge, Direction, DisciplineTest

__all__ = ["Charge", "Direction", "DisciplineTest", "Melee", "Reroll", "Special", "T9AShoot", "armour_need",
           "melee_need", "wound_need"]
