"""`oddscalc toy …`: a game of one query, which keeps its group (`oddscalc toy shoot`)."""

from oddscalc.query.registry import group, query

from .attacks import Sixes

HELP = "Toy: one query."
group("toy", HELP)

query("toy shoot", Sixes, examples=["oddscalc toy shoot --dice 3 --exact"], title="Sixes",
      about="How many sixes")
