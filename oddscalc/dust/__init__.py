"""Dust Tactics (docs/rules.md §1): attacks, the board, and rosters."""

from .attacks import Fire, Phaser, Salvo, WeaponLine
from .board import (
    MAP_FORMAT,
    SIGHT_RULES,
    Board,
    Corner,
    Cover,
    Kind,
    Sight,
    Square,
    Terrain,
    can_enter,
    line_of_sight,
)
from .die import HIT, Artillery, CoverSave, Stacking, Success, cover_save, shows_hit
from .incendiary import ArmourPiercingIncendiary, Incendiary, parse_per_model
from .reactive import Reactive, Timing
from .shot import Diagonal, Placed, Reach, Shot, WeaponRange, distance, on_board, place

__all__ = [
    "HIT", "MAP_FORMAT", "SIGHT_RULES", "ArmourPiercingIncendiary", "Artillery", "Board", "Corner", "Cover",
    "CoverSave", "Diagonal", "Fire", "Incendiary", "Kind", "Phaser", "Placed", "Reach", "Reactive", "Salvo", "Shot",
    "Sight", "Square", "Stacking", "Success", "Terrain", "Timing", "WeaponLine", "WeaponRange", "can_enter",
    "cover_save", "distance", "line_of_sight", "on_board", "parse_per_model", "place", "shows_hit",
]
EXPORTS = ("WeaponLine", "Phaser", "Salvo", "Incendiary", "ArmourPiercingIncendiary", "Reactive", "CoverSave",
           "Board", "line_of_sight")  # what `oddscalc` offers at its top level
