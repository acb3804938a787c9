"""`oddscalc toy …`: a game of one query, which keeps its group (`oddscalc toy shoot`)."""

import typer

from oddscalc.cli.options import query

from .attacks import Sixes

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, add_completion=False, help="Toy: one query.")

query(app, "toy shoot", Sixes, examples=["oddscalc toy shoot --dice 3 --exact"], title="Sixes",
      about="How many sixes")
