"""Studies of many cells: a query's options varied and queries compared (`sweeps`), every unit against every
target (`grid`, `grid_cells`), the cells run together, in threads or on a Dask cluster (`cells`), goals
(`goals`), a balance study of the army books (`balance`, `ranking`, `releases`) and Python work in forked
processes (`processes`)."""

from ..core.lazy import exports

# What the package offers by name (`from oddscalc import studies; studies.sweep(...)`), each imported from its
# module on first use
__getattr__, __dir__ = exports(__name__, {
    "sweep": "sweeps", "compare": "sweeps", "read_vary": "sweeps", "probability_greater": "sweeps",
    "Statistic": "sweeps", "Goal": "sweeps", "run_cells": "cells", "run_grid": "grid",
})
