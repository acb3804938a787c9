"""The games oddscalc knows, in one table, and loading their rosters.

`contract.names()` (registry.py) is the registry: one line per game, the name of its package `oddscalc/<name>/`.
Everything that lists games derives from it, through the game contract (contract.py): `GAMES` (each
package's `roster.GAME` record), the command line (each package's `commands.py`), the benchmark
(`benchmark.py`), the army-list importers (`battlescribe/<name>.py`, where a game has catalogues) and
the package's exports. Nothing here imports a game until it is asked for, so that the
command line starts without loading one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .. import contract

if TYPE_CHECKING:
    from .roster import Game, Roster


MAX_ROSTER_BYTES = 1 << 20  # a roster of a thousand units is far smaller than this


def listed(names: tuple[str, ...] | None = None, last: str = "or") -> str:
    """The games' names in words (or `names`): `dust, epic or t9a`."""
    names = contract.names() if names is None else names
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else names[0]


def games() -> dict[str, Game]:
    """Every game's record, by name, in the registry's order (importing each game's package)."""
    return {name: contract.roster(name).GAME for name in contract.names()}


def __getattr__(name: str) -> Any:
    if name == "PACKAGES":  # the registry's names, as they are now (contract.names())
        return contract.names()
    if name == "GAMES":  # built on first use (PEP 562): a game is imported only when one is needed
        globals()["GAMES"] = built = games()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def game(name: str | None, option: str = "game") -> Game:
    """Return the game called `name`, or refuse it naming `option`."""
    if name not in contract.names():
        raise InputError(option, "''" if name == "" else name, f"expected one of {', '.join(contract.names())}")
    return contract.roster(name).GAME


def bundled_name(name: str) -> str:
    """The file of a game's bundled example roster."""
    return f"{name}_example.toml"


def _read(path: Path) -> str:
    """Read a roster file: a regular file, at most MAX_ROSTER_BYTES, UTF-8 with or without a BOM."""
    from ..core.files import read_capped

    return _text(read_capped(path, MAX_ROSTER_BYTES, "a roster TOML file"), str(path))


def _text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError("file", source, f"not UTF-8 text (byte {error.start})") from None


def parse_roster(text: str, source: str, name: str | None = None) -> Roster:
    """Read a roster from TOML text, checking every unit and weapon against its game's schema."""
    import tomllib  # here, not at start-up: a query needs no roster

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError("file", source, f"TOML syntax error: {error}") from None
    except RecursionError:  # arrays or tables nested thousands deep: no roster is
        raise InputError("file", source, "TOML nested too deep to be a roster") from None
    from .roster import build

    declared = data.get("game")
    if declared is None and name is None:
        raise InputError("file", source, f'missing game = "..." ({", ".join(contract.names())})')
    if declared is not None and (not isinstance(declared, str) or declared not in contract.names()):
        raise InputError("file", source, f"game {declared!r:.40} is not one of {', '.join(contract.names())}")
    if name is not None and declared is not None and declared != name:
        raise InputError("file", source, f"holds {declared} units, not {name}")
    return build(data, source, game(declared or name))


def load_roster(path: str | Path | None = None, game_name: str | None = None) -> Roster:
    """Read a roster file (TOML, or a .ros/.rosz list), or a game's bundled example when `path` is
    None or the game's name."""
    if path is None:
        if game_name is None:
            raise InputError("game", None, f"name a game ({', '.join(contract.names())}) or a file")
        game(game_name)
        from importlib import resources

        text = resources.files("oddscalc.data").joinpath(bundled_name(game_name)).read_text(encoding="utf-8")
        return parse_roster(text, f"bundled {bundled_name(game_name)}", game_name)
    if game_name is not None:
        game(game_name)
    if str(path) in contract.names() and not Path(path).exists():  # a bundled example, by its game's name
        if game_name not in (None, str(path)):
            raise InputError("file", str(path), f"the bundled {path} example holds {path} units, not {game_name}")
        return load_roster(None, str(path))
    from . import battlescribe

    if battlescribe.is_list(path):  # a BattleScribe / New Recruit list
        return imported_roster(path, game_name)
    return parse_roster(_read(Path(path)), str(path), game_name)


def roster_of(data: bytes, name: str, game_name: str | None = None, option: str = "file") -> Roster:
    """A roster from a file's bytes read elsewhere (an upload: never written to disk), by its name's
    suffix: a TOML roster, or a BattleScribe list (.ros, .rosz), with the limits and the safe
    reading of a file. A refusal names `option`."""
    from dataclasses import replace

    from . import battlescribe
    from .roster import build

    source = Path(name).name[:100] or "upload"
    try:
        if battlescribe.is_list(source):
            imported = battlescribe.load_xml(battlescribe.reader.xml_of(data, source), source)
            if game_name is not None and game_name != imported.game:
                raise InputError("file", source, f"holds {imported.game} units, not {game_name}")
            return replace(build(imported.data, source, game(imported.game)), notes=tuple(imported.report()))
        if len(data) > MAX_ROSTER_BYTES:
            raise InputError("file", source, f"{len(data):,} bytes: a roster TOML file is at most "
                                             f"{MAX_ROSTER_BYTES:,} bytes")
        return parse_roster(_text(data, source), source, game_name)
    except InputError as error:
        raise InputError(option, error.value, error.allowed) from None


def imported_roster(path: str | Path, game_name: str | None = None, strict: bool = False) -> Roster:
    """A BattleScribe list as a checked `Roster`, its report lines in `Roster.notes`."""
    from dataclasses import replace

    from . import battlescribe
    from .roster import build

    imported = battlescribe.load(path, strict)
    if game_name is not None and game_name != imported.game:
        raise InputError("file", imported.source, f"holds {imported.game} units, not {game_name}")
    return replace(build(imported.data, imported.source, game(imported.game)), notes=tuple(imported.report()))


def roster_named(name: str | Path, game_name: str | None, option: str = "file", files: Any = None) -> Roster:
    """The roster a query's word names (a grid's FILE, --against), opened only as `files` allow (a
    `given.Files`; default: the files of the query being answered): a file of this machine
    (`LocalFiles`), an upload, or a game's bundled example by the game's name. A refusal names
    `option`."""
    from ..core.given import current

    files = files if files is not None else current().files
    text = str(name)
    try:
        if files.local:
            return load_roster(name, game_name)
        if text in files.uploads:
            return roster_of(files.uploads[text], text, game_name, option)
        if text in contract.names():
            return load_roster(text, game_name)
    except InputError as error:
        if error.name != "file" or option == "file":
            raise
        raise InputError(option, error.value, error.allowed) from None
    raise InputError(option, text, f"{files.why}: {files.roster}")


def load_pair(path: str | Path | None = None, game_name: str | None = None, against: str | Path | None = None,
              files: Any = None) -> tuple[Roster, Roster]:
    """A roster (as `roster_named` opens it; a game's bundled one when `path` is None) and the roster
    of its targets: the one `against` names (of the same game), or itself."""
    roster = roster_named(path, game_name, "file", files) if path is not None else load_roster(None, game_name)
    if against is None:
        return roster, roster
    return roster, roster_named(against, roster.game.name, "against", files)
