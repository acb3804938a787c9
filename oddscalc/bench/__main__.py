"""`python -m oddscalc.bench`."""

from .run import main

main()
