"""Toy rosters: a unit's models, a weapon's dice; a weapon meets a target by counting sixes."""

from __future__ import annotations

from oddscalc.lists.roster import Field, Game, Schema

from .attacks import Sixes

SCHEMA = Schema(
    unit={"name": Field("text", "the unit's name", required=True),
          "points": Field("int", "the unit's points", low=0, high=1000),
          "models": Field("int", "models in the unit", low=1, high=20, default=1)},
    weapon={"name": Field("text", "the weapon's name", required=True),
            "dice": Field("int", "dice it rolls", low=1, high=100, default=1)},
)

GAME = Game(
    name="toy", title="Toy", schema=SCHEMA, main="sixes",
    matchup=lambda attacker, weapon, target: Sixes(dice=weapon["dice"]),
    kill_threshold=lambda target, attack: target["models"],
    check_unit=lambda unit: None,
    describe_unit=lambda unit: f"{unit['models']} models",
    describe_weapon=lambda weapon: f"{weapon['dice']} dice",
)
