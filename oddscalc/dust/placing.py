"""A Dust attack built from a query's options (`on_board`), its shot checked on a map when one is given: the board
and the shot (`board.py`, `shot.py`) are imported for a map only."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import InputError
from .die import Artillery, CoverSave, cover_save

BOARD_ONLY = (("from_square", "--from"), ("to_square", "--to"), ("target", "--target"), ("attacker", "--attacker"),
              ("corner", "--corner"), ("range", "--range"), ("arcing", "--arcing"), ("observer", "--observer"),
              ("observer_kind", "--observer-kind"), ("diagonal", "--diagonal"))


def on_board(kind: type, board: str | None = None, save: CoverSave | None = None,
             **options: Any) -> tuple[Any, tuple[str, ...]]:
    """Build a Dust attack of type `kind`, its shot checked on a map first when `board` is given.

    `options` holds the attack's fields and the `Shot`'s (squares, kinds, range, observer).
    An impossible shot is refused; a soldier in rubble gets soft cover (a hit-save) unless
    `save` is given, on an attack that takes a save. Without a board, the board's options
    are refused. Returns the attack and a note when the map gave the target its save.
    """
    placing = {name: options.pop(name) for name, _ in BOARD_ONLY if name in options}
    takes_save = "save" in {field.name for field in dataclasses.fields(kind)}
    if board is None:
        for name, spelled in BOARD_ONLY:
            value = placing.get(name)
            if value not in (None, False):
                raise InputError(name, getattr(value, "value", value), f"{spelled} only applies with --board MAP")
        return kind(**options, **({"save": save} if save is not None else {})), ()
    from .shot import Shot, place, placed_line  # (a map's only: a shot without one imports no board)

    chosen = {name: value for name, value in placing.items() if value not in (None, False)}
    artillery = options.get("artillery")
    placed = place(Shot(board, **chosen), Artillery(artillery) if artillery is not None else None)
    checked = (placed_line(placed, Artillery(artillery) if artillery is not None else None),)
    if not takes_save:
        return kind(**options), checked
    attack = kind(**options, save=save if save is not None else cover_save(placed.cover))  # an explicit save wins
    if save is None and attack.cover is not CoverSave.NONE:
        return attack, checked + (f"note: the target's {attack.cover.value}-save comes from the map: it stands in "
                                  "cross terrain (soft cover); --save none would remove it",)
    return attack, checked
