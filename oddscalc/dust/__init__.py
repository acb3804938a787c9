"""Dust Tactics (docs/rules.md §1): attacks, the board, and rosters."""

from .attacks import (
    ArmourPiercingIncendiary,
    Incendiary,
    Phaser,
    Reactive,
    Salvo,
    WeaponLine,
    parse_per_model,
)
from .board import (
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
    "ArmourPiercingIncendiary", "Artillery", "Board", "Sight", "check_shot", "Corner", "Cover", "CoverSave", "HIT", "Incendiary", "Kind",
    "Phaser", "Reactive", "Salvo", "Square", "Success", "Terrain", "WeaponLine", "cover_save", "line_of_sight",
    "parse_per_model", "shows_hit",
]
