"""A query's form, from the very declarations of its command-line options.

A query command's options come from its attack's fields (`cli/options.py:field_options`),
so its form does too: each Click parameter of the command is one field, with its help,
its default and its choices. A form's values become the words of a command line
(`words_of_form`), and a command line's words fill a form again (`values_of`), so that a
permalink (`/?q=...`) opens the form as it was.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping, Optional, Sequence


TRUE = ("on", "true", "1", "yes")


@dataclass(frozen=True)
class Field:
    """One field of a query's form: the option as typed (`--to-hit`) or the argument
    (`PHASER`), its help, its kind (switch, choice or text), its choices and default."""

    name: str
    help: str
    kind: str
    choices: tuple[str, ...] = ()
    default: str = ""
    required: bool = False
    metavar: str = ""
    common: bool = False  # one of the options every query takes (trials, seed, exact ...)
    first: bool = False  # shown first: required, or needed unless another option makes it needless

    @property
    def argument(self) -> bool:
        return not self.name.startswith("--")

    @property
    def label(self) -> str:
        return self.name.removeprefix("--")


def _default(value: Any) -> str:
    if value is None or value is False or value is True:
        return ""
    return str(value.value if isinstance(value, Enum) else value)


def command_of(path: str) -> Any:
    """The Click command that reads a query's words (`epic shoot`): the command line's, less the
    command line's own options (`--format`, `--plot`, `--threads`), which are no words of a query."""
    from ..cli.words import parser

    return parser(path)


def fields(path: str) -> list[Field]:
    """The fields of a query's form (`epic shoot`), in the order of its --help: arguments, its own options, the
    common ones (the page decides the command line's own options itself)."""
    from ..cli.options import COMMON_OPTIONS, QUERIES
    from ..dust.board import shipped_maps

    command = command_of(path)  # builds the game's commands, which registers its queries
    first = {f"--{field.name.replace('_', '-')}" for field in dataclasses.fields(QUERIES[path].attack)
             if field.metadata.get("first")} if path in QUERIES else set()
    found = []
    for param in command.params:
        if param.param_type_name == "argument":
            maps = param.name == "board"  # a map: the page has the shipped ones (it reads no file on the server)
            found.append(Field(param.metavar or param.name.upper(), getattr(param, "help", "") or "",
                               "choice" if maps else "text", tuple(shipped_maps()) if maps else (),
                               required=bool(param.required), metavar=param.metavar or ""))
            continue
        name = param.opts[0]
        choices = tuple(str(choice) for choice in getattr(param.type, "choices", None) or ())
        if name == "--board":
            choices = ("", *shipped_maps())
        kind = "switch" if param.is_flag else "choice" if choices else "text"
        default = _default(param.default) if param.show_default is not False else ""  # a value no one types
        found.append(Field(name, param.help or "", kind, choices, default, bool(param.required), param.metavar or "",
                           name in COMMON_OPTIONS, bool(param.required) or name in first))
    return found


def words_of_form(path: str, form: Mapping[str, str]) -> list[str]:
    """The command line a filled form asks for: the query's words, its arguments, then each option
    given (a switch when ticked; a value when given and not the default)."""
    words = path.split()
    chosen: list[str] = []
    for field in fields(path):
        value = str(form.get(field.name, "")).strip()
        if field.argument:
            words.append(value)
        elif field.kind == "switch":
            chosen += [field.name] if value.lower() in TRUE else []
        elif value and (value != field.default or field.required):
            chosen += [field.name, value]
    return words + chosen


def values_of(path: str, words: Sequence[str]) -> dict[str, str]:
    """The form's values that a command line's words give (a permalink's form filled again)."""
    params = {opt: param for param in command_of(path).params for opt in getattr(param, "opts", ())
              if param.param_type_name == "option"}
    arguments = [param for param in command_of(path).params if param.param_type_name == "argument"]
    values: dict[str, str] = {}
    rest = list(words[len(path.split()):])
    while rest:
        word = rest.pop(0)
        name, equals, given = word.partition("=")
        param = params.get(name)
        if param is None:
            if arguments and not word.startswith("-"):
                argument = arguments.pop(0)
                values[argument.metavar or argument.name.upper()] = word
            continue
        if param.is_flag:
            values[param.opts[0]] = "on"
        elif equals:
            values[param.opts[0]] = given
        elif rest:
            values[param.opts[0]] = rest.pop(0)
    return values


def paths() -> list[str]:
    """Every query that has a form, in the order the games register them (`dust los` too)."""
    from ..cli.options import LANGUAGE, LOOKS, QUERIES
    from ..cli.words import every_query

    every_query()  # every game's commands built
    return [path for path in LANGUAGE if path in QUERIES or path in LOOKS]


def query_of(words: Sequence[str]) -> Optional[str]:
    """The query with a form (`epic shoot`) that words start with, if any."""
    known = paths()
    for size in (2, 1):
        if len(words) >= size and " ".join(words[:size]) in known:
            return " ".join(words[:size])
    return None


def games() -> list[tuple[str, str, list[str]]]:
    """Each game of the registry: its name, its title and its queries; then the game-free ones."""
    from ..games import GAMES

    every = paths()
    listed = [(name, game.title, [path for path in every if path.split()[0] == name]) for name, game in GAMES.items()]
    return [*listed, ("", "Dice", [path for path in every if path.split()[0] not in GAMES])]


def search(text: str) -> list[tuple[str, str, list[str]]]:
    """The queries a search finds, by game (`web.app.games`' shape): every word of `text` in the query's
    path or its help (no text: every query)."""
    wanted = text.lower().split()
    found = []
    for name, title, paths in games():
        hits = [path for path in paths if all(word in f"{path} {command_of(path).help}".lower() for word in wanted)]
        if hits:
            found.append((name, title, hits))
    return found
