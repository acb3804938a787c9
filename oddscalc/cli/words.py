"""The words of a query, as the library's one call (`oddscalc.ask`) reads them: the command
line's commands less the command line's own options (`options.SHELL`), and the quoted queries
of a study (`parse_query`)."""

from __future__ import annotations

import inspect
import shlex
import types
import typing
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

from ..errors import InputError
from .errors import OptionError, click_errors, input_error
from .options import COMMON_OPTIONS, LANGUAGE, QUERIES, SHELL, Query, command_for


@dataclass(frozen=True)
class Parsed:
    """A quoted query, parsed: its registered query, its options' values, and the attack they build."""

    query: Query
    command: Any  # the Click command
    context: Any  # the Click context that parsed it
    attack: Any


def query_args(text: str) -> list[str]:
    """Split a quoted query into arguments; refuse the options that belong to the study."""
    try:
        args = shlex.split(text)
    except ValueError as error:
        raise OptionError(text, f"the query does not parse ({error})", hint="QUERY") from None
    if args[:1] == ["oddscalc"]:
        args = args[1:]
    for arg in args:
        if arg.split("=")[0] in COMMON_OPTIONS:
            raise OptionError(text, f"put {arg.split('=')[0]} after the quoted query: it applies to every cell",
                              hint="QUERY")
        if arg in ("--help", "-h", "--version"):
            raise OptionError(text, "a query, not --help or --version", hint="QUERY")
    return args


def find_query(args: Sequence[str], text: str) -> tuple[Query, Any, list[str]]:
    """The query command `args` start with (its words' parser) and the arguments after its name."""
    try:
        path, command, _, rest = language(args)
    except (InputError, click_errors.ClickException):
        path, command, rest = "", None, []
    if path not in QUERIES:  # not a query (a study is not a cell of another)
        raise OptionError(text, f"expected a query command such as 'roll 2d6' or 'epic barrage --bp 6 --units 3 "
                                f"--armour 4+'; the queries are {', '.join(every_query())}", hint="QUERY")
    return QUERIES[path], command, rest


def parse_query(text: str, blame: str = "QUERY", extra: Sequence[str] = ()) -> Parsed:
    """Parse a quoted query into its attack, exactly as the command would, without running it.

    `extra` arguments are appended (a varied option's first value). Errors are the
    one-line errors the query itself would give, blamed on `blame`.
    """
    args = query_args(text)
    found, click_command, rest = find_query(args, text)
    try:
        context = click_command.make_context(found.path, [*rest, *extra], resilient_parsing=False)
        attack = found.build(**converted(found.build, context.params, found.names))
        attack = attack[0] if isinstance(attack, tuple) else attack
    except InputError as error:
        raise OptionError(text, _message(input_error(error)), hint=blame) from None
    except click_errors.ClickException as error:
        raise OptionError(text, _message(error), hint=blame) from None
    return Parsed(found, click_command, context, attack)


QUERY = "expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"
_PARSERS: dict[str, Any] = {}


def language(words: Sequence[str]) -> tuple[str, Any, Callable[..., Any], list[str]]:
    """The query or study that `words` ask for: its path (`epic shoot`), the Click command that reads
    its words (the command line's, less the command line's own options), the function that
    answers them (`LANGUAGE`, its options converted as the command line converts them), and the
    words after the path."""
    import importlib

    from .commands import lazy_module

    if not words:
        raise OptionError(None, QUERY, hint="QUERY")
    module = lazy_module(str(words[0]))
    if module is not None:
        importlib.import_module(module)  # registers its queries (or the studies)
    for size in (2, 1):
        path = " ".join(words[:size])
        if len(words) >= size and path in LANGUAGE:
            function = LANGUAGE[path]
            return path, parser(path), lambda **params: function(**converted(function, params)), list(words[size:])
    raise OptionError(shlex.join(words)[:80], f"expected a query ({', '.join(every_query())}) or a study (sweep, "
                                              "compare, grid)", hint="QUERY")


def parser(path: str) -> Any:
    """The Click command that reads the words of `path`: the command line's, less its own options."""
    import copy

    from .commands import root_command

    if path not in _PARSERS:
        full = command_for(root_command(), path)
        words = copy.copy(full)
        words.params = [param for param in full.params if param.name not in SHELL]
        words.add_help_option = False  # --help is the command line's: a word of a query it is not
        words.callback = None  # nothing runs it: `language` gives the function that answers
        _PARSERS[path] = words
    return _PARSERS[path]


def every_query() -> list[str]:
    """Every query path, every game's commands built (to list them in a refusal)."""
    from .commands import root_command

    root = root_command()
    for name in root.list_commands(None):
        root.get_command(None, name)
    return list(QUERIES)


def queries_having(option: str, path: str) -> list[str]:
    """The queries other than `path` that have `option` (`--to-hit`): to say whose it is when refused."""
    return [query for query in every_query() if query != path
            and option in {"--" + name.replace("_", "-") for name in QUERIES[query].names}]


def converted(function: Callable[..., Any], params: dict[str, Any],
              names: Optional[Sequence[str]] = None) -> dict[str, Any]:
    """The parsed values of a command's parameters as its function takes them (Typer's own
    conversions: a choice as its Enum, a path as a Path), only `names` when given."""
    signature = inspect.signature(function)
    values = {}
    for name in (names if names is not None else params):
        value = params[name]
        parameter = signature.parameters.get(name)
        kind = _plain_type(parameter.annotation) if parameter is not None else None
        if value is not None and isinstance(kind, type):
            if issubclass(kind, Enum) and not isinstance(value, Enum):
                value = kind(value)
            elif issubclass(kind, Path) and not isinstance(value, Path):
                value = Path(value)
        values[name] = value
    return values


def _plain_type(annotation: Any) -> Any:
    """`Optional[Annotated[X, ...]]`'s X."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            others = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            if len(others) != 1:
                return None
            annotation = others[0]
        else:
            return annotation


def _message(error: Exception) -> str:
    from .errors import one_line

    return one_line(error).removeprefix("error: ")
