"""The games oddscalc knows, in one table, and loading their rosters.

A new game is a package (`oddscalc/<game>/`: attacks, and a `roster.py` that builds its
`roster.Game` record) plus one line in `GAMES` and its query commands in the CLI.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from .dust.roster import GAME as DUST
from .epic.roster import GAME as EPIC
from .errors import InputError
from .roster import Game, Roster, build
from .t9a.roster import GAME as T9A

GAMES: dict[str, Game] = {game.name: game for game in (DUST, EPIC, T9A)}
MAX_ROSTER_BYTES = 1 << 20  # a roster of a thousand units is far smaller than this


def game(name: str | None, option: str = "game") -> Game:
    """Return the game called `name`, or refuse it naming `option`."""
    if name not in GAMES:
        raise InputError(option, "''" if name == "" else name, f"expected one of {', '.join(GAMES)}")
    return GAMES[name]


def bundled_name(name: str) -> str:
    """The file of a game's bundled example roster."""
    return f"{name}_example.toml"


def _read(path: Path) -> str:
    """Read a roster file: a regular file, at most MAX_ROSTER_BYTES, UTF-8 with or without a BOM."""
    from .files import read_capped

    data = read_capped(path, MAX_ROSTER_BYTES, "a roster TOML file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError("file", str(path), f"not UTF-8 text (byte {error.start})") from None


def parse_roster(text: str, source: str, name: str | None = None) -> Roster:
    """Read a roster from TOML text, checking every unit and weapon against its game's schema."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError("file", source, f"TOML syntax error: {error}") from None
    except RecursionError:  # arrays or tables nested thousands deep: no roster is
        raise InputError("file", source, "TOML nested too deep to be a roster") from None
    declared = data.get("game")
    if declared is None and name is None:
        raise InputError("file", source, f'missing game = "..." ({", ".join(GAMES)})')
    if declared is not None and (not isinstance(declared, str) or declared not in GAMES):
        raise InputError("file", source, f"game {declared!r:.40} is not one of {', '.join(GAMES)}")
    if name is not None and declared is not None and declared != name:
        raise InputError("file", source, f"holds {declared} units, not {name}")
    return build(data, source, GAMES[declared or name])


def load_roster(path: str | Path | None = None, game_name: str | None = None) -> Roster:
    """Read a roster file (TOML, or a .ros/.rosz list), or a game's bundled example when `path` is
    None or the game's name."""
    if path is None:
        if game_name is None:
            raise InputError("game", None, f"name a game ({', '.join(GAMES)}) or a file")
        game(game_name)
        text = resources.files("oddscalc.data").joinpath(bundled_name(game_name)).read_text(encoding="utf-8")
        return parse_roster(text, f"bundled {bundled_name(game_name)}", game_name)
    if game_name is not None:
        game(game_name)
    if str(path) in GAMES and not Path(path).exists():  # a bundled example, by its game's name
        if game_name not in (None, str(path)):
            raise InputError("file", str(path), f"the bundled {path} example holds {path} units, not {game_name}")
        return load_roster(None, str(path))
    from . import battlescribe

    if battlescribe.is_list(path):  # a BattleScribe / New Recruit list
        return battlescribe.roster(path, game_name)
    return parse_roster(_read(Path(path)), str(path), game_name)


def load_pair(path: str | Path | None = None, game_name: str | None = None,
              against: str | Path | None = None) -> tuple[Roster, Roster]:
    """A roster (as `load_roster` reads it) and the roster of its targets: the file `against`
    (of the same game), or itself. A refusal of `against` names it."""
    roster = load_roster(path, game_name)
    if against is None:
        return roster, roster
    try:
        return roster, load_roster(against, roster.game.name)
    except InputError as error:
        raise InputError("against", error.value, error.allowed) from None
