"""The benchmark: `python -m oddscalc.bench` prints speeds measured side by side in one run.

It sits outside the games: each game's cases (an attack and a plain numpy baseline of the
same attack) live in `bench/<game>.py`, the measuring in `run.py`.
"""
