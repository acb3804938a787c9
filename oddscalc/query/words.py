"""The words of a query, read: which command they ask for (`language`, importing what registers it),
and a study's quoted queries (`parse_query`), read exactly as the query itself reads them."""

from __future__ import annotations

import importlib
from typing import Any, Collection, Optional, Sequence

from .. import contract
from ..errors import InputError, Refusal
from .common import COMMON_OPTIONS
from .grammar import Command, Parsed, parse
from .refusals import OptionError, refused
from .registry import COMMANDS, QUERIES, Query
from ..core.record import record

STUDIES = ("sweep", "grid", "balance", "compare")  # the studies' commands (`query/studies.py` registers them)
QUERY = "expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"


def module_of(name: str) -> Optional[str]:
    """The module that registers the commands a first word names: the studies', `roll`'s, or a game's."""
    if name in STUDIES:
        return "oddscalc.query.studies"
    if name == "roll":
        return "oddscalc.query.dice"
    return contract.WHERE[contract.GameCommands].format(name=name) if name in contract.names() else None


def load(name: str) -> None:
    """Import what registers the commands a first word names (nothing when it names none)."""
    module = module_of(name)
    if module is not None:
        importlib.import_module(module)
        if name in contract.names():
            contract.commands(name)  # checked against the game contract


def path_in(words: Sequence[str], known: Collection[str]) -> Optional[str]:
    """The path among `known` (`epic shoot`, `grid`) that `words` start with, if any: two words before one."""
    for size in (2, 1):
        path = " ".join(str(word) for word in words[:size])
        if len(words) >= size and path in known:
            return path
    return None


def language(words: Sequence[str]) -> tuple[Command, list[str]]:
    """The command `words` ask for, and the words after its path; refused when they name none."""
    if not words:
        raise OptionError(None, QUERY, "QUERY")
    load(str(words[0]))
    path = path_in(words, COMMANDS)
    if path is not None:
        return COMMANDS[path], list(words[len(path.split()):])
    import shlex

    raise OptionError(shlex.join(words)[:80], f"expected a query ({', '.join(every_query())}) or a study (sweep, "
                                              "compare, grid)", "QUERY")


def every_query() -> list[str]:
    """Every query path, every game's commands registered (to list them in a refusal)."""
    for name in ("roll", *contract.names()):
        load(name)
    return list(QUERIES)


def every_command() -> list[str]:
    """Every path of the registry: queries, looks and studies."""
    every_query()
    load(STUDIES[0])
    return list(COMMANDS)


def queries_having(option: str, path: str) -> list[str]:
    """The queries other than `path` that have `option` (`--to-hit`): to say whose it is when refused."""
    return [query for query in every_query() if query != path
            and option in {spelling for opt in COMMANDS[query].options if not opt.argument
                           for spelling in opt.spellings}]


@record
class Quoted:
    """A quoted query, parsed: its registered query, its options' values, and the attack they build."""

    query: Query
    parsed: Parsed
    attack: Any


def query_args(text: str) -> list[str]:
    """Split a quoted query into arguments; refuse the options that belong to the study."""
    try:
        import shlex

        args = shlex.split(text)
    except ValueError as error:
        raise OptionError(text, f"the query does not parse ({error})", "QUERY") from None
    if args[:1] == ["oddscalc"]:
        args = args[1:]
    for arg in args:
        if arg.split("=")[0] in COMMON_OPTIONS:
            raise OptionError(text, f"put {arg.split('=')[0]} after the quoted query: it applies to every cell",
                              "QUERY")
        if arg in ("--help", "-h", "--version"):
            raise OptionError(text, "a query, not --help or --version", "QUERY")
    return args


def find_query(args: Sequence[str], text: str) -> tuple[Query, Command, list[str]]:
    """The query command `args` start with and the arguments after its name."""
    try:
        command, rest = language(args)
    except (InputError, OptionError, Refusal):
        command, rest = None, []
    if command is None or command.path not in QUERIES:  # not a query (a study is not a cell of another)
        raise OptionError(text, f"expected a query command such as 'roll 2d6' or 'epic barrage --bp 6 --units 3 "
                                f"--armour 4+'; the queries are {', '.join(every_query())}", "QUERY")
    return QUERIES[command.path], command, rest


def parse_query(text: str, blame: str = "QUERY", extra: Sequence[str] = ()) -> Quoted:
    """Parse a quoted query into its attack, exactly as the command would, without running it.

    `extra` arguments are appended (a varied option's first value). Errors are the
    one-line errors the query itself would give, blamed on `blame`.
    """
    args = query_args(text)
    found, command, rest = find_query(args, text)
    try:
        parsed = parse(command, [*rest, *extra], owners=queries_having)
        attack = found.build(**{name: parsed.values[name] for name in found.names})
        attack = attack[0] if isinstance(attack, tuple) else attack
    except (InputError, OptionError, Refusal) as error:
        raise OptionError(text, refused(error).line.removeprefix("error: "), blame) from None
    return Quoted(found, parsed, attack)
