"""Epic Armageddon (docs/rules.md §2): shooting, barrages, the assault dice, and rosters."""

from ..core.lazy import exports

_WHERE = {
    **dict.fromkeys(("UNITS_PER_TEMPLATE", "Barrage", "BarrageRow", "barrage_row"), "attacks"),
    "Assault": "assault",
    **dict.fromkeys(("Ability", "BlastMarkers", "SavePlan", "save_plan"), "saves"),
    "EpicShoot": "shooting",
    "Volley": "volleys",
}
__all__ = sorted(_WHERE)
EXPORTS = ("EpicShoot", "Barrage", "Assault", "Ability")  # what `oddscalc` offers at its top level
__getattr__, __dir__ = exports(__name__, _WHERE)
