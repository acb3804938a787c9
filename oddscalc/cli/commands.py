"""The root command of the command line: the library's commands listed (each game's group, `roll` and
the studies, from the query registry, built when first asked for: `roll` starts quicker), and the
command line's own: `profiles`, `import`, `rules`, `serve`."""

import importlib
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from .. import contract
from ..errors import InputError
from ..query import words
from ..query.grammar import Command, argument
from ..query.help import short_help
from ..query.refusals import input_error
from ..query.registry import COMMANDS, GROUPS
from .options import OWN, RUN, own


def passthrough(app: typer.Typer, command: Command) -> None:
    """List a command of the grammar in `app`'s --help (its first sentence in its group's list). Click does not
    read its words: `cli/main.py:run_app` hands them to the grammar before Click sees the command line, and a
    program that invokes the Typer app itself (`typer.testing.CliRunner`) reaches the same through this command."""

    def invoke(context: typer.Context) -> None:
        raise typer.Exit(RUN["words"]([*command.path.split(), *context.args]))

    app.command(command.path.split()[-1], help=command.help, short_help=short_help(command.help),
                add_help_option=False, context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                                         "help_option_names": []})(invoke)


STUDIES = ("sweep", "grid", "profiles", "balance", "compare", "import")  # as --help lists them
MODULES = {"profiles": "rosters", "import": "rosters", "serve": "serve"}  # the command line's own → its module
ABOUT = "Odds for tabletop wargames: Monte Carlo and exact distributions for {games}."


def library_command(name: str) -> Any:
    """The Click command that lists a first word's library commands: a game's group, or one command."""
    words.load(name)
    app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, add_completion=False, help=GROUPS.get(name))
    for path, command in COMMANDS.items():
        if path.split()[0] == name:
            passthrough(app, command)
    if name in GROUPS:  # a game's commands are a group, one query or many (`oddscalc toy shoot`)
        built = typer.main.get_group(app)
        built.name = name
        return built
    return typer.main.get_command(app) if app.registered_commands else None


class LazyGroup(TyperGroup):
    """The root command: builds a game's commands, or a study's, when first asked for; its help names the
    games of the registry."""

    def list_commands(self, ctx: Any) -> list[str]:
        return ["roll", *STUDIES, "rules", "completion", "serve", *contract.names()]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands:
            if own_command(name) is not None:
                app = typer.Typer(rich_markup_mode=None, add_completion=False)
                passthrough(app, OWN[name])
                self.commands[name] = typer.main.get_command(app)
            elif words.module_of(name) is not None:
                built = library_command(name)
                if built is not None:
                    self.commands[name] = built
        return self.commands.get(name)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        self.help = about()  # the games' titles: imported only when the help is shown
        super().format_help_text(ctx, formatter)


def own_command(name: str) -> Any:
    """One of the command line's own commands (`rules`, `profiles`, `import`, `serve`), its module imported."""
    if name in MODULES:
        importlib.import_module(f"{__package__}.{MODULES[name]}")
    return OWN.get(name)


def about() -> str:
    """The command line's first line: what it computes, for which games."""
    from ..lists.games import GAMES, listed

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


def rules(
    section: Annotated[Optional[str], argument(
        "SECTION", "A section number, like 2.5 (the barrage table); default: the whole reference.")] = None,
) -> None:
    """Print the rules reference that oddscalc computes (docs/rules.md), or one section of it.

    Code, --help and the notebooks cite its section numbers (§2.5); each section names
    the command that computes it, and each open rules question the reading oddscalc
    takes and the switch that changes it.
    """
    from ..output import rules as reference

    try:
        typer.echo(reference.section(section) if section is not None else reference.text())
    except InputError as error:
        raise input_error(error) from None


own("rules", rules, examples=["oddscalc rules 2.5", "oddscalc rules 1.3", "oddscalc rules"])


def completion() -> None:
    """Print the shell completion of oddscalc for bash (zsh too, with bashcompinit): every command, option and
    choice, from the same declarations as --help.

    Add `eval "$(oddscalc completion)"` to ~/.bashrc; a value that is no choice completes as a file name.
    """
    from ..query.complete import BASH

    typer.echo(BASH)


own("completion", completion, examples=['eval "$(oddscalc completion)"'])


def complete(
    words: Annotated[Optional[list[str]], argument("WORDS...", "The words typed so far, the last one being typed.")]
    = None,
) -> None:
    """Print what may complete the last of the words (one a line): the shell completion's helper."""
    from ..query.complete import candidates

    names = [name for name in LazyGroup.list_commands(LazyGroup(), None) if own_command(name) is not None]
    for candidate in candidates(list(words or ()) or [""], {name: OWN[name] for name in names}):
        typer.echo(candidate)


own("complete", complete, examples=["oddscalc complete -- epic shoot --to"])


def root_command() -> Any:
    """The Click command behind the Typer app (built once)."""
    global _ROOT
    if _ROOT is None:
        _ROOT = typer.main.get_command(app)
    return _ROOT


_ROOT: Any = None
