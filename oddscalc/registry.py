"""The registry of games: one line per game, the name of its package `oddscalc/<name>/`.

Everything that lists games derives from it (see games.py). It imports nothing, so that any
module may read it: the army-list importers find theirs by it without importing games.py,
which loads rosters through them.
"""

PACKAGES = ("dust", "epic", "t9a")  # the registry of games
