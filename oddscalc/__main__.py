"""`python -m oddscalc`: the command line."""

from .console import run

run()
