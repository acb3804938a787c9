"""`python -m oddscalc`: the command line."""

from .cli import run

run()
