"""Dust Tactics (docs/rules.md §1): attacks, the board, and rosters."""

from ..core.lazy import exports

_WHERE = {
    **dict.fromkeys(("Fire", "Phaser", "Salvo", "WeaponLine"), "attacks"),
    **dict.fromkeys(("Board", "Sight", "Square", "line_of_sight"), "board"),
    **dict.fromkeys(("MAP_FORMAT", "SIGHT_RULES", "Corner", "Cover", "Diagonal", "Kind", "Terrain", "can_enter"),
                    "terrain"),
    **dict.fromkeys(("HIT", "Artillery", "CoverSave", "Stacking", "Success", "cover_save", "shows_hit"), "die"),
    **dict.fromkeys(("ArmourPiercingIncendiary", "Incendiary", "parse_per_model"), "incendiary"),
    **dict.fromkeys(("Reactive", "Timing"), "reactive"),
    **dict.fromkeys(("Placed", "Reach", "Shot", "WeaponRange", "distance", "place"), "shot"),
    "on_board": "placing",
}
__all__ = sorted(_WHERE)
EXPORTS = ("WeaponLine", "Phaser", "Salvo", "Incendiary", "ArmourPiercingIncendiary", "Reactive", "CoverSave",
           "Board", "line_of_sight")  # what `oddscalc` offers at its top level
__getattr__, __dir__ = exports(__name__, _WHERE)
