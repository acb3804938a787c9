"""A query's form, from the very declarations of its options (the query grammar, `oddscalc.query`).

A query command's options come from its attack's fields (`query/registry.py:field_options`),
so its form does too: each option of the command is one field, with its help, its default and
its choices. A form's values become the words of a command line
(`words_of_form`), and a command line's words fill a form again (`values_of`), so that a
permalink (`/?q=...`) opens the form as it was.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from ..core.record import record

if TYPE_CHECKING:
    from ..query.grammar import Command


TRUE = ("on", "true", "1", "yes")


@record
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
    example: str = ""  # a value the query's examples give it (the field's placeholder)
    many: bool = False  # an option given again for each value (`--other`): the field's values apart by "; "

    @property
    def argument(self) -> bool:
        return not self.name.startswith("--")

    @property
    def label(self) -> str:
        """The field's name in words: `--to-hit` is "To hit", `--bp` "Barrage points"."""
        spelled = LABELS.get(self.name)
        if spelled:
            return spelled
        words = self.name.removeprefix("--").replace("-", " ")
        return words[:1].upper() + words[1:].lower() if self.argument else words[:1].upper() + words[1:]

    @property
    def id(self) -> str:
        return "f" + "".join(char for char in self.name if char.isalnum())

    @property
    def placeholder(self) -> str:
        """What the empty field shows: an example value, else its default (never a metavar like X+)."""
        return self.example or self.default or PLACEHOLDERS.get(self.name, "4+" if self.metavar == "X+" else "")


MANY = "; "  # between the values of a field whose option is given once for each
MANY_HELP = " Several: apart by a semicolon."
PLACEHOLDERS = {"--seed": "a fresh one", "--precision": "0.01", "--outcome": "the main one"}
LABELS = {  # names that read otherwise in words
    "--ap": "AP", "--at": "AT", "--at-shots": "AT shots", "--at-to-hit": "AT to hit", "--bp": "Barrage points (BP)",
    "--mw-shots": "Macro-weapon shots", "--mw-to-hit": "Macro-weapon to hit", "--tk-allocation": "Titan killer hits",
    "--tk-damage": "Titan killer damage", "--from": "From square", "--to": "To square", "--board": "Map",
    "--reroll-hits": "Re-roll hits", "--reroll-wounds": "Re-roll wounds", "--reroll-armour": "Re-roll armour saves",
    "--reroll-special": "Re-roll special saves", "--per-template": "Units under each template",
    "--engines-under": "War engines under the templates", "--others-under": "Other units under the templates",
    "--cover-save": "Cover save", "--dice": "Dice", "--exact": "Exact (no sampling)", "--verify": "Verify",
    "--fractions": "Exact fractions", "--outcome": "Outcome shown", "--precision": "Precision",
    "--trials": "Trials", "--seed": "Seed", "--os": "Offensive skill", "--ds": "Defensive skill",
    "--cc": "Close combat (CC)", "--ff": "Firefight (FF)", "--enemy-cc": "Enemy close combat (CC)",
    "--enemy-ff": "Enemy firefight (FF)", "--support-ff": "Supporting fire's FF",
    "--enemy-support-ff": "Enemy supporting fire's FF",
    "DICE": "Dice", "MAP": "Map", "PHASER": "Phaser (XzY)", "SALVO": "Salvo (A/X-B/X-...)", "X": "Dice per model",
}


def _default(value: Any) -> str:
    if value is None or value is False or value is True:
        return ""
    return str(value.value if isinstance(value, Enum) else value)


def command_of(path: str) -> Command:
    """The declaration of a query's words (`epic shoot`): the form shows its options but the command line's own
    (`--format`, `--plot`, `--threads`), which are no words of a query."""
    from ..query.registry import COMMANDS
    from ..query.words import load

    load(path.split()[0])
    return COMMANDS[path]


def fields(path: str) -> list[Field]:
    """The fields of a query's form (`epic shoot`), in the order of its --help: arguments, its own options, the
    common ones (the page decides the command line's own options itself)."""
    from ..core.attack import option_fields
    from ..dust.board import shipped_maps
    from ..query.common import COMMON_OPTIONS
    from ..query.registry import QUERIES

    command = command_of(path)
    first = {f"--{field.name.replace('_', '-')}" for field in option_fields(QUERIES[path].attack)
             if field.metadata.get("first")} if path in QUERIES else set()
    examples = examples_of(path)
    found = []
    for opt in command.words_options():
        if opt.argument:
            maps = opt.name == "board"  # a map: the page has the shipped ones (it reads no file on the server)
            found.append(Field(opt.flag, opt.help, "choice" if maps else "text", tuple(shipped_maps()) if maps else (),
                               required=opt.required, metavar=opt.metavar, example=examples.get(opt.flag, "")))
            continue
        choices = tuple(str(member.value) for member in opt.choices) if opt.choices is not None else ()
        if opt.flag == "--board":
            choices = ("", *shipped_maps())
        kind = "switch" if opt.kind == "switch" else "choice" if choices else "text"
        default = _default(opt.default) if opt.show_default else ""  # a value no one types
        found.append(Field(opt.flag, opt.help + (MANY_HELP if opt.many else ""), kind, choices, default,
                           opt.required, opt.metavar, opt.flag in COMMON_OPTIONS, opt.required or opt.flag in first,
                           examples.get(opt.flag, "") if kind == "text" else "", opt.many))
    return found


def examples_of(path: str) -> dict[str, str]:
    """The values the query's examples (its --help's) give its options and arguments, the first one each:
    `{"--shots": "12", "--to-hit": "4+", "PHASER": "2z3"}`."""
    import shlex

    from ..query.registry import ABOUT

    command = command_of(path)
    arguments = [opt.flag for opt in command.options if opt.argument]
    flags = {spelling for opt in command.options if opt.kind == "switch" for spelling in opt.spellings}
    found: dict[str, str] = {}
    for example in ABOUT[path].examples:
        words = shlex.split(example.split("#")[0])[1 + len(path.split()):]
        position = 0
        index = 0
        while index < len(words):
            word = words[index]
            if word.startswith("--"):
                name, equals, value = word.partition("=")
                if not equals and name not in flags and index + 1 < len(words):
                    value = words[index + 1]
                    index += 1
                if name not in flags:
                    found.setdefault(name, value)
            elif position < len(arguments):
                found.setdefault(arguments[position], word)
                position += 1
            index += 1
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
        elif value and field.many:
            chosen += [word for each in value.split(MANY.strip()) if each.strip() for word in (field.name, each.strip())]
        elif value and (value != field.default or field.required):
            chosen += [field.name, value]
    return words + chosen


def values_of(path: str, words: Sequence[str]) -> dict[str, str]:
    """The form's values that a command line's words give (a permalink's form filled again)."""
    command = command_of(path)
    named = {spelling: opt for opt in command.options if not opt.argument for spelling in opt.spellings}
    arguments = [opt for opt in command.options if opt.argument]
    values: dict[str, str] = {}
    rest = list(words[len(path.split()):])
    while rest:
        word = rest.pop(0)
        name, equals, given = word.partition("=")
        opt = named.get(name)
        if opt is None:
            if arguments and not word.startswith("-"):
                values[arguments.pop(0).flag] = word
            continue
        if opt.kind == "switch":
            values[opt.flag] = "on"
            continue
        if not equals and not rest:
            continue
        given = given if equals else rest.pop(0)
        if opt.many and values.get(opt.flag):
            given = values[opt.flag] + MANY + given
        values[opt.flag] = given
    return values


def paths() -> list[str]:
    """Every query that has a form, in the order the games register them (`dust los` too)."""
    from ..query.registry import COMMANDS
    from ..query.words import every_query

    every_query()  # every game's commands registered
    return [path for path, command in COMMANDS.items() if command.kind in ("query", "look")]


def query_of(words: Sequence[str]) -> Optional[str]:
    """The query with a form (`epic shoot`) that words start with, if any."""
    from ..query.words import path_in

    return path_in(words, paths())


def games() -> list[tuple[str, str, list[str]]]:
    """Each game of the registry: its name, its title and its queries; then the game-free ones."""
    from ..lists.games import GAMES

    every = paths()
    listed = [(name, game.title, [path for path in every if path.split()[0] == name]) for name, game in GAMES.items()]
    return [*listed, ("", "Dice", [path for path in every if path.split()[0] not in GAMES])]


def search(text: str) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """The queries a search finds, by game: (its name, its title, [(path, its `About`)]); a query is found
    when every word of `text` is in its title, what it answers or its path, else (when none is) in
    its help (no text: every query)."""
    from ..query.registry import ABOUT

    wanted = text.lower().split()

    def found(where: Any) -> list[tuple[str, str, list[tuple[str, Any]]]]:
        listed = [(name, title, [(path, ABOUT[path]) for path in paths
                                 if all(word in where(path).lower() for word in wanted)]) for name, title, paths in games()]
        return [(name, title, hits) for name, title, hits in listed if hits]

    # in a query's title, what it answers and its words first; in its help only when that finds nothing
    return found(lambda path: f"{ABOUT[path].title} {ABOUT[path].about} {path}") or found(
        lambda path: f"{ABOUT[path].title} {ABOUT[path].about} {path} {command_of(path).help}")


# An engagement's form shows its two sides side by side (each its first fields, the rest under "more"), then what
# belongs to the fight itself, then how to run it.
SIDES = {"epic assault": ("Your formation", "The enemy formation"), "t9a combat": ("The charger", "The charged unit")}
CHARGER_ONLY = {"t9a combat": ("--impact-hits", "--charge-attacks", "--charge-strength", "--charge-ap")}  # no twin
BESIDE = ("--enemy-with-unit",)  # a side's other units: the fight's fields (a side filled from a unit keeps them)
RUN_FIRST = ("--trials", "--seed", "--exact")


@record
class Fieldset:
    """One group of a form's fields: its legend, its fields, those shown before "more" beside the first ones, and
    whether it is one of an engagement's two sides."""

    legend: str
    fields: tuple[Field, ...]
    shown: tuple[str, ...] = ()
    side: bool = False


def fieldsets(path: str, found: Sequence[Field]) -> list[Fieldset]:
    """A query's fields in the fieldsets its form shows: the attack's, or an engagement's two sides (a field of
    this side is one with an `--enemy-` twin, or one only a charger has; a side's other units are the fight's) and
    the fight's; then how to run it."""
    common = Fieldset("How to run it", tuple(field for field in found if field.common), RUN_FIRST)
    own = [field for field in found if not field.common]
    if path not in SIDES:
        return [Fieldset("The attack", tuple(own)), common]
    theirs = {field.name for field in own if field.name.startswith("--enemy-") and field.name not in BESIDE}
    mine = tuple(field for field in own if "--enemy-" + field.name[2:] in theirs
                 or field.name in CHARGER_ONLY.get(path, ()))
    fight = tuple(field for field in own if field not in mine and field.name not in theirs)
    return [Fieldset(SIDES[path][0], mine, side=True),
            Fieldset(SIDES[path][1], tuple(field for field in own if field.name in theirs), side=True),
            *([Fieldset("The fight", fight)] if fight else []), common]


def context(path: Optional[str], words: Sequence[str]) -> dict[str, Any]:
    """What a query's page shows of its form: the query (None: a study), its title and what it answers,
    its game, its fields and the values `words` give them (none: a fresh form, exact ticked)."""
    import shlex

    from ..query.registry import ABOUT
    from ..lists.games import GAMES

    game = GAMES.get(path.split()[0]) if path else None
    found = fields(path) if path else []
    return {"path": path, "about": ABOUT.get(path) if path else None, "game_title": game.title if game else "",
            "fields": found, "fieldsets": fieldsets(path, found) if path else [],
            "values": values_of(path, words) if path and words else {},
            "fresh": not words, "query": shlex.join(words)}
