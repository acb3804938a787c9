"""The registry of commands, declared once: every query (an attack from its options), look (a
command that samples nothing, `dust los`) and study, by path (`epic shoot`), with its options, its
help and examples, and in a player's words what it answers (`ABOUT`). A game's `commands.py`
registers its queries here when imported; `oddscalc.ask`, the command line and the page all read
this registry (`words.language` imports what registers a path)."""

from __future__ import annotations

import dataclasses
import inspect
import re
import _thread
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, TypeVar

from ..core.attack import Attack, kind_of, option_fields, ordered_fields, unset_roll
from ..errors import InputError
from .common import COMMON, SHELL, STUDY, Common, Study
from .grammar import Command, Opt, of_function
from .refusals import input_error
from ..core.record import record

if TYPE_CHECKING:
    from .answer import Answer


V = TypeVar("V")


class Registered(dict[str, V]):
    """A registry whose entries may be made when first asked for (`later`): a game registers every query, and a
    command line that answers one imports that one's attack alone. A key is reserved in its place when registered
    (the order the help lists stays the declarations'); reading it makes it (and whatever its maker registers
    beside it), and going over them all makes them all."""

    def __init__(self) -> None:
        super().__init__()
        self.makers: dict[str, Callable[[], None]] = {}
        self.making = _thread.RLock()  # the page's threads: one makes an entry, the others wait for it

    def later(self, key: str, make: Callable[[], None]) -> None:
        """Register `key`, made by `make()` when first asked for."""
        self.makers[key] = make
        super().__setitem__(key, PENDING)  # type: ignore[assignment]  # (its place, until it is made)

    def _made(self, key: str) -> None:
        if super().get(key) is not PENDING:  # made already, or never registered
            return
        with self.making:  # (another thread making it: wait for it)
            make = self.makers.pop(key, None)
            if make is None:
                return
            try:
                make()
            except BaseException:
                self.makers[key] = make  # asked again, it is tried again
                raise

    def _all(self) -> None:
        for key in [key for key, value in super().items() if value is PENDING]:
            self._made(key)

    def __getitem__(self, key: str) -> V:
        self._made(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._made(key)
        return super().get(key, default)

    def __iter__(self) -> Iterator[str]:
        self._all()
        return super().__iter__()

    def keys(self) -> Any:
        self._all()
        return super().keys()

    def values(self) -> Any:
        self._all()
        return super().values()

    def items(self) -> Any:
        self._all()
        return super().items()


PENDING = object()  # a registered entry not made yet
COMMANDS: Registered[Command] = Registered()  # every query, look and study, by path
GROUPS: dict[str, str] = {}  # a game's name → its commands' group help (`oddscalc epic --help`)


@record
class Query:
    """A query command: its words (`epic shoot`), its options' names, the builder (options →
    attack) and the attack's type."""

    path: str
    names: tuple[str, ...]
    build: Callable[..., Any]
    attack: type[Attack]


QUERIES: Registered[Query] = Registered()


@record
class About:
    """A query in a player's words: its title ("Automatic hits"), the questions it answers ("Breath
    Attack, Impact Hits, Stomp"), and its help's examples (command lines)."""

    title: str
    about: str
    examples: tuple[str, ...]


ABOUT: dict[str, About] = {}  # every query's and look's, by path


def group(name: str, help: str) -> None:
    """Declare a game's group of commands (`oddscalc epic`) and its help."""
    GROUPS[name] = help


def command(path: str, run: Callable[..., Any], *, examples: Sequence[str], help: Optional[str] = None,
            study: bool = False, without: Sequence[str] = (), own: Optional[Sequence[Opt]] = None) -> Command:
    """Register `run(**own, common=Common)` (and `study=Study` for a study) as the query or study `path`:
    its own options (`own`, else those its parameters declare), the study ones and the common ones, less
    `without` (a balance study has no P(≥ K) columns)."""
    mine = list(own) if own is not None else of_function(run, skip=("common", "study"))
    options = mine + [opt for opt in (STUDY if study else []) + COMMON if opt.name not in without]

    def answer(**values: Any) -> Any:
        common = Common.take(values)
        tables = {"study": Study.take(values)} if study else {}
        values = {name: value for name, value in values.items() if name not in SHELL}
        try:
            return run(**values, common=common, **tables)
        except InputError as error:
            raise input_error(error) from None

    text = help or inspect.getdoc(run) or ""
    made = Command(path, tuple(options), answer, text, tuple(examples), "study" if study else "query")
    COMMANDS[path] = made
    return made


FORMAT = next(opt for opt in COMMON if opt.name == "output_format")


def look(path: str, run: Callable[..., Any], *, examples: Sequence[str], help: str, title: str, about: str) -> None:
    """Register `run(**own)` as `path`, a command that samples nothing (`dust los`), with its own options
    and --format; `run` returns an `Answer`."""

    def answer(**values: Any) -> Any:
        values.pop(FORMAT.name, None)
        try:
            return run(**values)
        except InputError as error:
            raise input_error(error) from None

    COMMANDS[path] = Command(path, (*of_function(run), FORMAT), answer, help, tuple(examples), "look")
    ABOUT[path] = About(title, about, tuple(examples))


def field_option(attack: type[Attack], field: dataclasses.Field[Any]) -> Opt:
    """The option an attack's field declares (`--to-hit` for `to_hit`): a switch, a choice, or the text
    the attack reads itself (`Attack.read`: "4+", "6", "none", "d3+1"), given once per value when many."""
    meta = field.metadata
    kind, _ = kind_of(attack, field)
    choices = kind if isinstance(kind, type) and issubclass(kind, Enum) else None
    sort = "switch" if kind is bool and not meta.get("many") else "choice" if choices else "text"
    metavar = meta.get("metavar") or ("X+" if meta.get("roll") else "N" if kind is int else "")
    has_default = field.default is not dataclasses.MISSING
    default = field.default if has_default else None
    if meta.get("many"):
        default = ()
    elif unset_roll(field):
        default = None  # not typed: a roll's "not given" is the attack's own (`query` leaves it out)
    show = not (meta.get("none") and has_default and field.default is not None)  # a value no one types
    return Opt(field.name, "--" + field.name.replace("_", "-"), sort, default, not has_default,
               meta.get("help") or "", metavar, None, choices if not meta.get("many") else None, bool(meta.get("many")),
               show_default=show)


def field_options(attack: type[Attack], skip: Sequence[str] = ()) -> list[Opt]:
    """One option per field of an attack, required ones first, as --help lists them."""
    found = [field_option(attack, field) for field in ordered_fields(attack)
             if field.name not in attack.ARGUMENTS and field.name not in skip]
    return [opt for opt in found if opt.required] + [opt for opt in found if not opt.required]


def options_named(text: str, names: set[str]) -> str:
    """A docstring as --help shows it: a field in backticks (`per_template`) is the option a player
    types (`--per-template`)."""
    return re.sub(r"`([a-z_]+)`", lambda match: f"--{match.group(1).replace('_', '-')}" if match.group(1) in names
                  else match.group(0), text)


def query(path: str, attack: type[Attack] | Callable[[], type[Attack]], *, examples: Sequence[str], title: str,
          about: str, notes: str = "", argument: Optional[Opt] = None, extra: Sequence[Opt] = (),
          skip: Sequence[str] = (), build: Optional[Callable[..., Any]] = None) -> None:
    """Register the query command `path` (like "epic shoot") that builds and answers an `attack`;
    `title` and `about` say in a player's words what it is and the questions it answers (the page's
    list of queries).

    Its help is the attack's docstring (and `notes`); its options are the attack's fields
    (`field_options`), after an optional `argument` and before `extra` options that are
    not fields (they reach `build`, which then makes the attack; by default the attack is
    built from the options as they are). `attack` may be a function that gives it (`lambda: epic.EpicShoot`):
    then its module is imported, and the command made, when the command is first asked for.
    """
    ABOUT[path] = About(title, about, tuple(examples))
    if not isinstance(attack, type):
        given = attack

        def make_later() -> None:
            query(path, given(), examples=examples, title=title, about=about, notes=notes, argument=argument,
                  extra=extra, skip=skip, build=build)

        COMMANDS.later(path, make_later)
        QUERIES.later(path, make_later)
        return
    _made_query(path, attack, examples, notes, argument, extra, skip, build)


def _made_query(path: str, attack: type[Attack], examples: Sequence[str], notes: str, argument: Optional[Opt],
                extra: Sequence[Opt], skip: Sequence[str], build: Optional[Callable[..., Any]]) -> None:
    """Make the query command `path` of `attack` (`query`), now."""
    COMMANDS.makers.pop(path, None)
    QUERIES.makers.pop(path, None)
    own = [*([argument] if argument else []), *field_options(attack, skip), *extra]
    help = options_named(inspect.getdoc(attack) or "", {opt.name for opt in own}) + (f"\n\n{notes}" if notes else "")
    unset = {field.name for field in option_fields(attack) if unset_roll(field)}

    def make(**options: Any) -> Any:
        return (build or attack)(**{name: value for name, value in options.items()
                                    if not (name in unset and value is None)})

    def run(common: Common, **options: Any) -> Answer:
        from .answer import answer

        built = make(**options)  # an attack, or (attack, notes) when the builder has something to say
        attack, notes = built if isinstance(built, tuple) else (built, ())
        return answer(attack, common, (*notes, *attack.check_query()))

    command(path, run, examples=examples, help=help, own=own)
    QUERIES[path] = Query(path, tuple(opt.name for opt in own), make, attack)
