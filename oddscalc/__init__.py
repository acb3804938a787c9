"""oddscalc: Monte Carlo and exact odds for Dust Tactics, Epic Armageddon and The 9th Age."""

__version__ = "0.1.0"
