"""Dust Tactics (docs/rules.md §1): attacks, the board, and rosters."""

from ..core.lazy import exports

_WHERE = {
    **dict.fromkeys(("Fire", "Phaser", "Salvo", "WeaponLine"), "attacks"),
    **dict.fromkeys(("MAP_FORMAT", "SIGHT_RULES", "Board", "Corner", "Cover", "Kind", "Sight", "Square", "Terrain",
                     "can_enter", "line_of_sight"), "board"),
    **dict.fromkeys(("HIT", "Artillery", "CoverSave", "Stacking", "Success", "cover_save", "shows_hit"), "die"),
    **dict.fromkeys(("ArmourPiercingIncendiary", "Incendiary", "parse_per_model"), "incendiary"),
    **dict.fromkeys(("Reactive", "Timing"), "reactive"),
    **dict.fromkeys(("Diagonal", "Placed", "Reach", "Shot", "WeaponRange", "distance", "on_board", "place"), "shot"),
}
__all__ = sorted(_WHERE)
EXPORTS = ("WeaponLine", "Phaser", "Salvo", "Incendiary", "ArmourPiercingIncendiary", "Reactive", "CoverSave",
           "Board", "line_of_sight")  # what `oddscalc` offers at its top level
__getattr__, __dir__ = exports(__name__, _WHERE)
