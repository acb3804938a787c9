"""The command reference (docs/commands.md), written from the grammar's declarations, as --help and the page's
forms are: every query, look and study, its options, their values and defaults. `python -m oddscalc.query.reference
> docs/commands.md` writes it again; a test fails while it differs from the declarations."""

from __future__ import annotations

from .. import contract
from .grammar import Command, Opt
from .help import default_shown, first_column, short_help
from .registry import COMMANDS
from .words import STUDIES, every_command

TITLE = """# oddscalc's commands

Every query and study and its options, as `--help` shows them (written from the same declarations by
`python -m oddscalc.query.reference`; `oddscalc rules` gives the rules they compute). Each option takes the
tabletop spelling of its value (`4+`, `1e6`, `d6+1`); a choice reads whatever its case. The command line's
own options (`--format`, `--plot`, `--threads`, `--scheduler`, `--scheduler-timeout`) say where an answer goes
and how it runs; the page decides them itself.
"""


def cell(text: str) -> str:
    """Text for a Markdown table's cell."""
    return " ".join(text.split()).replace("|", "\\|")


def row(opt: Opt) -> str:
    default = default_shown(opt).strip().removeprefix("[").removesuffix("]")
    return f"| `{cell(first_column(opt))}` | {cell(opt.help)} | {cell(default)} |"


def section(command: Command) -> str:
    lines = [f"## oddscalc {command.path}", "", short_help(command.help) + ".", "", "| Option | What it is | |",
             "|---|---|---|", *(row(opt) for opt in command.options)]
    if command.examples:
        lines += ["", "```", *command.examples, "```"]
    return "\n".join(lines)


def ordered() -> list[Command]:
    """Every command in one order, whatever order they were registered in: roll, each game's queries (in the
    registry's order, each game's in its own), the studies."""
    every_command()
    games = [path for game in contract.names() for path in COMMANDS if path.split()[0] == game]
    return [COMMANDS[path] for path in ("roll", *games, *STUDIES)]


def markdown() -> str:
    """The whole reference."""
    return "\n\n".join([TITLE.rstrip(), *(section(command) for command in ordered())]) + "\n"


if __name__ == "__main__":  # pragma: no cover - the test compares what it writes
    print(markdown(), end="")
