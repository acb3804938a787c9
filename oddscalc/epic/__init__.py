"""Epic Armageddon (docs/rules.md §2): shooting, barrages, the assault dice, and rosters."""

from .attacks import UNITS_PER_TEMPLATE, Assault, Barrage, BarrageRow, barrage_row
from .saves import Ability, BlastMarkers, SavePlan, save_plan
from .shooting import EpicShoot, Volley

__all__ = ["Ability", "Assault", "Barrage", "BarrageRow", "BlastMarkers", "EpicShoot", "SavePlan", "UNITS_PER_TEMPLATE",
           "Volley", "barrage_row", "save_plan"]
EXPORTS = ("EpicShoot", "Barrage", "Assault", "Ability")  # what `oddscalc` offers at its top level
