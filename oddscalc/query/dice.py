"""`oddscalc roll`: any dice expression (docs/rules.md §1); importing this module registers it."""

from typing import Annotated

from ..core.roll import Roll
from .grammar import argument, declared
from .registry import query

query("roll", Roll, title="Dice",
      about="Any dice expression: totals, successes, re-rolls, maximised and minimised rolls",
      argument=declared("dice", Annotated[str, argument("DICE", "NdS, NdS+C or NdS-C: 2d6, 3d6+1, d3, d6+2.")]),
      examples=[
    "oddscalc roll 2d6 --maximised 1",
    "oddscalc roll 3d6+1 --exact --format markdown",
    "oddscalc roll 10d6 --success 5 --plot hits.png",
])
