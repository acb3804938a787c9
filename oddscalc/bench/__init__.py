"""The benchmark: `python -m oddscalc.bench` prints speeds measured side by side in one run.

Each game brings its cases (an attack and a plain numpy baseline of the same attack; exact
queries written in icepool too) in `<game>/benchmark.py`, found through the registry of
games; the measuring is in `run.py` and `exact.py`, the shared pieces in `core.py`.
"""
