"""The root command of the command line: its groups (each game's commands, the studies'),
`roll` and `rules`, built when first asked for (`roll` starts quicker)."""

import importlib
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from ..errors import InputError
from .. import contract
from ..roll import Roll
from .errors import input_error
from .options import examples_epilog, option, query, shorten

STUDIES = ("sweep", "grid", "profiles", "balance", "compare", "import")  # the commands of `studies.py`, as --help lists them
OTHERS = {"serve": "serve"}  # command → its module (in oddscalc.cli), imported when it runs
ABOUT = "Odds for tabletop wargames: Monte Carlo and exact distributions for {games}."


def lazy_module(name: str) -> Optional[str]:
    """The module whose `app` holds the command `name`: the studies', or a game's (by the registry)."""
    if name in STUDIES:
        return f"{__package__}.studies"
    if name in OTHERS:
        return f"{__package__}.{OTHERS[name]}"
    return contract.WHERE[contract.GameCommands].format(name=name) if name in contract.names() else None


class LazyGroup(TyperGroup):
    """The root command: builds a game's commands, or the studies', when first asked for; its
    help names the games of the registry."""

    def list_commands(self, ctx: Any) -> list[str]:
        eager = [name for name in super().list_commands(ctx) if lazy_module(name) is None]
        return [eager[0], *STUDIES, *eager[1:], *OTHERS, *contract.names()]

    def get_command(self, ctx: Any, name: str) -> Any:
        module = lazy_module(name)
        if name not in self.commands and module is not None:
            if name in STUDIES:
                self.commands.update(typer.main.get_group(importlib.import_module(module).app).commands)
            elif name in OTHERS:  # an app of one command is that command
                self.commands[name] = typer.main.get_command(importlib.import_module(module).app)
            else:  # a game's commands are a group, one query or many (`oddscalc toy shoot`)
                built = typer.main.get_group(contract.commands(name).app)
                built.name = name
                self.commands[name] = built
        return shorten(self.commands.get(name))

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        self.help = about()  # the games' titles: imported only when the help is shown
        super().format_help_text(ctx, formatter)


def about() -> str:
    """The command line's first line: what it computes, for which games."""
    from ..games import GAMES, listed

    return ABOUT.format(games=listed(tuple(game.title for game in GAMES.values()), "and"))


app = typer.Typer(
    name="oddscalc",
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"oddscalc {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Odds for tabletop wargames (the games: see --help)."""


query(app, "roll", Roll, title="Dice",
      about="Any dice expression: totals, successes, re-rolls, maximised and minimised rolls",
      argument=option("dice", Annotated[str, typer.Argument(
    metavar="DICE", help="NdS, NdS+C or NdS-C: 2d6, 3d6+1, d3, d6+2.")]), examples=[
    "oddscalc roll 2d6 --maximised 1",
    "oddscalc roll 3d6+1 --exact --format markdown",
    "oddscalc roll 10d6 --success 5 --plot hits.png",
])


@app.command("rules", epilog=examples_epilog(["oddscalc rules 2.5", "oddscalc rules 1.3", "oddscalc rules"]))
def rules(
    section: Annotated[Optional[str], typer.Argument(
        metavar="SECTION", help="A section number, like 2.5 (the barrage table); default: the whole reference.")]
    = None,
) -> None:
    """Print the rules reference that oddscalc computes (docs/rules.md), or one section of it.

    Code, --help and the notebooks cite its section numbers (§2.5); each section names
    the command that computes it, and each open rules question the reading oddscalc
    takes and the switch that changes it.
    """
    from .. import rules as reference

    try:
        typer.echo(reference.section(section) if section is not None else reference.text())
    except InputError as error:
        raise input_error(error) from None


def root_command() -> Any:
    """The Click command behind the Typer app (built once)."""
    global _ROOT
    if _ROOT is None:
        _ROOT = typer.main.get_command(app)
    return _ROOT


_ROOT: Any = None
