"""Dust Tactics (docs/rules.md §1): attacks, the board, and rosters."""

from .attacks import (
    ArmourPiercingIncendiary,
    Incendiary,
    Phaser,
    Reactive,
    Salvo,
    WeaponLine,
    on_board,
    parse_per_model,
)
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
    check_shot,
    line_of_sight,
)
from .die import HIT, Artillery, CoverSave, Success, cover_save, shows_hit

__all__ = [
    "HIT", "MAP_FORMAT", "SIGHT_RULES", "ArmourPiercingIncendiary", "Artillery", "Board", "Corner", "Cover",
    "CoverSave", "Incendiary", "Kind", "Phaser", "Reactive", "Salvo", "Sight", "Square", "Success", "Terrain",
    "WeaponLine", "check_shot", "cover_save", "line_of_sight", "on_board", "parse_per_model", "shows_hit",
]
