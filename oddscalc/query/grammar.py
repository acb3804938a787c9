"""The query grammar: each command declares its options once, as `Opt`s, and one parser reads every
command's words (`parse`). The command line's help, the page's form fields and `oddscalc.ask` all read
these declarations; no shell's parser is involved (docs/architecture.md, "One query grammar").

An option is declared beside its type, as a parameter of the function that answers the command
(`Annotated[Optional[str], option("--sort", metavar="COLUMN", help=...)]`), as a field of an options
table (`Common`), or by an attack's field (`registry.field_options`). Its type says how it is read: a
switch (bool), a choice (an Enum, case-insensitive), a whole number or a decimal (read in the tabletop
spellings, `numbers`), a path, or text that the command reads itself (a roll `4+`, dice `d6+1`). A list
type is an option given once per value, or the argument that takes every word left (`QUERY...`).
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import MISSING, field, fields
from enum import Enum
from typing import Annotated, Any, Callable, Optional, Sequence

from ..errors import InputError, Refusal
from .numbers import parse_count, parse_number
from .refusals import READING, OptionError, Owners, cut, unknown
from ..core.record import record

Reader = Callable[[str], Any]


class FilePath:
    """The type an options table gives an option that names a file (`Optional[Path]`, which `of_table` reads as
    this): its word is read as a `pathlib.Path` (`read_path`), imported then, not by a query that names no file."""


def read_path(text: str) -> Any:
    """A path option's word, as a `pathlib.Path`."""
    from pathlib import Path

    return Path(text)


@record
class Spec:
    """How an option is spelled and helped, written beside its type: its spellings (`--format`;
    `--engage/--no-engage` for a switch that can be turned off; none: `--name`), its metavar, help and
    reader (`numbers.parse_count`), whether --help shows its default, and whether it is an argument."""

    flags: tuple[str, ...] = ()
    metavar: str = ""
    help: str = ""
    read: Optional[Reader] = None
    show_default: bool = True
    argument: bool = False
    shell: bool = False  # an option of the command line's own (where the answer goes), no word of a query
    rule: Rule = field(default_factory=lambda: Rule())


@record
class Rule:
    """What an option asks of the other options of its command: one of `needs` given with it (an option that
    changes nothing without them), none of `excludes`; `why`: its refusal's words (default: which ones)."""

    needs: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    why: str = ""

    def broken(self, given: Sequence[str]) -> Optional[str]:
        """What is wrong with the options `given` (spelled `--name`) beside this one, if anything."""
        if self.needs and not set(self.needs) & set(given):
            return self.why or f"applies only with {' or '.join(self.needs)}"
        clash = [name for name in self.excludes if name in given]
        if clash:
            return self.why or f"not with {clash[0]}: give one of them"
        return None


def option(*flags: str, metavar: str = "", help: str = "", parser: Optional[Reader] = None,
           show_default: bool = True, shell: bool = False, needs: Sequence[str] = (), excludes: Sequence[str] = (),
           why: str = "") -> Spec:
    """An option's spelling and help (`Annotated[int, option("--top", metavar="N", help=...)]`), and what it asks
    of the others (`needs`, `excludes`: their spellings; `why`: the refusal's words)."""
    rule = Rule(tuple(needs), tuple(excludes), why)
    return Spec(tuple(flags), metavar, help, parser, show_default, False, shell, rule)


def argument(metavar: str, help: str) -> Spec:
    """An argument's metavar and help (`Annotated[str, argument("DICE", "NdS: 2d6.")]`)."""
    return Spec((), metavar, help, None, True, True)


@record
class Opt:
    """One option (or argument) of a command, declared once: its parameter's name (`to_hit`), how it is
    spelled (`--to-hit`; an argument: its metavar), its kind, default, help and reader."""

    name: str
    flag: str
    kind: str  # "text", "switch", "choice", "whole", "number" or "path"
    default: Any = None
    required: bool = False
    help: str = ""
    metavar: str = ""
    read: Optional[Reader] = None
    choices: Optional[type[Enum]] = None
    many: bool = False  # given once per value (an argument: takes every word left)
    argument: bool = False
    negative: str = ""  # a switch's "off" spelling (`--no-engage`)
    shell: bool = False
    show_default: bool = True
    rule: Rule = Rule()

    def value(self, text: str) -> Any:
        """The value `text` gives this option, or an `OptionError` blamed on it."""
        try:
            if self.read is not None:
                return self.read(text)
            if self.choices is not None:
                return choice(self.choices, text)
            readers: dict[str, Reader] = {"whole": parse_count, "number": parse_number, "path": read_path}
            return readers.get(self.kind, str)(text)
        except OptionError as error:
            raise error.blamed(self.flag, self.metavar) from None
        except InputError as error:
            raise OptionError(error.value, error.allowed, self.flag, self.metavar) from None

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.flag, self.negative) if self.negative else (self.flag,)

    def shown_metavar(self) -> str:
        """The metavar --help shows: declared, else the choices, else by kind (`N`, `TEXT`)."""
        if self.metavar:
            return self.metavar
        if self.choices is not None:
            return "<" + "|".join(str(member.value) for member in self.choices) + ">"
        return {"whole": "INTEGER", "number": "FLOAT", "path": "PATH", "switch": ""}.get(self.kind, "TEXT")


def choice(kind: type[Enum], text: str) -> Enum:
    """The member of `kind` whose value is `text`, whatever its case."""
    for member in kind:
        if str(member.value).casefold() == str(text).casefold():
            return member
    raise OptionError(text, f"expected one of {', '.join(str(m.value) for m in kind)}")


def plain_type(annotation: Any) -> tuple[Any, bool]:
    """`Optional[Annotated[X, ...]]`'s X, and whether it may be None."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            others = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            optional = optional or len(others) < len(typing.get_args(annotation))
            if len(others) != 1:
                return str, optional
            annotation = others[0]
        else:
            return annotation, optional


def spec_of(annotation: Any) -> Spec:
    """The `Spec` written beside a type (none: the default one)."""
    if typing.get_origin(annotation) is Annotated:
        return next((meta for meta in typing.get_args(annotation)[1:] if isinstance(meta, Spec)), Spec())
    for arg in typing.get_args(annotation):
        if typing.get_origin(arg) is Annotated:
            return spec_of(arg)
    return Spec()


def declared(name: str, annotation: Any, default: Any = MISSING, spec: Optional[Spec] = None) -> Opt:
    """The option a parameter declares: `name`, its annotated type and its default (MISSING: required)."""
    spec = spec or spec_of(annotation)
    kind, _ = plain_type(annotation)
    many = typing.get_origin(kind) in (list, tuple)
    if many:
        kind = typing.get_args(kind)[0]
    choices = kind if isinstance(kind, type) and issubclass(kind, Enum) else None
    kinds = {bool: "switch", int: "whole", float: "number", FilePath: "path"}
    sort = "choice" if choices else "text" if not isinstance(kind, type) else "path" if kind.__module__ == "pathlib" \
        else kinds.get(kind, "text")
    flags = spec.flags[0].split("/") if spec.flags else ["--" + name.replace("_", "-")]
    flag = (spec.metavar or name.upper()) if spec.argument else flags[0]
    required = default is MISSING or default is inspect.Parameter.empty
    if many and default is None:
        default = ()
    return Opt(name, flag, sort, None if required else default, required, spec.help, spec.metavar, spec.read, choices,
               many, spec.argument, flags[1] if len(flags) > 1 else "", spec.shell, spec.show_default, spec.rule)


def of_function(function: Callable[..., Any], skip: Sequence[str] = ()) -> list[Opt]:
    """The options a function's parameters declare (`skip`: the ones that are not options)."""
    hints = typing.get_type_hints(function, include_extras=True)
    return [declared(parameter.name, hints[parameter.name], parameter.default)
            for parameter in inspect.signature(function).parameters.values()
            if parameter.name not in skip and parameter.kind is not parameter.VAR_KEYWORD]


def of_table(table: type) -> list[Opt]:
    """The options a dataclass declares, one per field (its `Spec` in the field's metadata). A field's `Path` is
    read as `FilePath`: the table's module need not import pathlib (`if TYPE_CHECKING:`)."""
    hints = typing.get_type_hints(table, localns={"Path": FilePath}, include_extras=True)
    return [declared(each.name, hints[each.name], each.default, each.metadata.get("spec")) for each in fields(table)]


@record
class Command:
    """A query, a look or a study: its path (`epic shoot`), its options (own first, then the common
    ones), the function that answers its parsed values, its help and its examples."""

    path: str
    options: tuple[Opt, ...]
    answer: Callable[..., Any]
    help: str = ""
    examples: tuple[str, ...] = ()
    kind: str = "query"  # "query", "look" or "study"

    def opt(self, name: str) -> Optional[Opt]:
        return next((opt for opt in self.options if opt.name == name), None)

    def words_options(self) -> tuple[Opt, ...]:
        """Its options that are words of a query (not the command line's own)."""
        return tuple(opt for opt in self.options if not opt.shell)


@record
class Parsed:
    """A command's words, read: each option's value (every option, defaults for those not given) and
    the names of those the words gave."""

    command: Command
    values: dict[str, Any]
    given: frozenset[str]


HELP = ("-h", "--help")


def parse(command: Command, words: Sequence[str], shell: bool = False, owners: Optional[Owners] = None) -> Parsed:
    """Read a command's words (after its path). `shell`: the command line's own options are read too (the
    command line); else they are refused as no words of a query (`ask`). A refusal is a `Refusal`."""
    token = READING.set(command)
    try:
        texts, positional = _split(command, [str(word) for word in words], shell, owners)
        texts.update(_arguments(command, positional))
        values = {opt.name: _read(opt, texts[opt.name]) if opt.name in texts else opt.default
                  for opt in command.options}
        missing = next((opt for opt in command.options if opt.required and opt.name not in texts
                        and (shell or not opt.shell)), None)
        if missing is not None:
            raise Refusal(f"error: {missing.flag} is required; see --help", missing.flag)
        _check_rules(command, texts)
        return Parsed(command, values, frozenset(texts))
    except OptionError as error:
        from .refusals import refused

        raise refused(error) from None
    finally:
        READING.reset(token)


def _check_rules(command: Command, texts: dict[str, Any]) -> None:
    """Refuse the first option given whose rule the others break (`Rule`: needs, excludes)."""
    given = [opt.flag for opt in command.options if opt.name in texts and texts[opt.name] is not False]
    for opt in command.options:
        broken = opt.rule.broken(given) if opt.flag in given else None
        if broken is not None:
            value = "on" if opt.kind == "switch" else texts[opt.name]
            raise OptionError(value if isinstance(value, str) else " ".join(value), broken, opt.flag)


def _read(opt: Opt, texts: Any) -> Any:
    if opt.kind == "switch":
        return texts
    if opt.many:
        return tuple(opt.value(text) for text in texts)
    return opt.value(texts)


def _split(command: Command, words: list[str], shell: bool, owners: Optional[Owners]
           ) -> tuple[dict[str, Any], list[str]]:
    """The words' option texts by name (a switch: True or False; an option given once per value: its
    texts), and the words that are arguments."""
    named = {spelling: opt for opt in command.options if not opt.argument and (shell or not opt.shell)
             for spelling in opt.spellings}
    texts: dict[str, Any] = {}
    positional: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":  # the rest are arguments, whatever they look like
            positional += words[index:]
            break
        if not word.startswith("-") or len(word) == 1:
            positional.append(word)
            continue
        name, equals, attached = word.partition("=")
        opt = named.get(name)
        if opt is None:
            own = [spelling for spelling in named]
            raise unknown(name, command.path, own, owners, shell)
        if opt.kind == "switch":
            if equals:
                raise Refusal(f"error: {name}: a switch, given without a value ({name}, not {cut(word)}); see --help",
                              name, attached)
            texts[opt.name] = name != opt.negative
            continue
        if not equals:
            if index >= len(words):
                raise Refusal(f"error: {name}: expected a value after it; see --help", name)
            attached = words[index]
            index += 1
        if opt.many:
            texts.setdefault(opt.name, []).append(attached)
        else:
            texts[opt.name] = attached  # given twice: the last (a study's varied value stands in for the query's)
    return texts, positional


def _arguments(command: Command, positional: list[str]) -> dict[str, Any]:
    """The arguments' texts: each takes one word, in order; one given as a list takes every word left."""
    texts: dict[str, Any] = {}
    for opt in (opt for opt in command.options if opt.argument):
        if not positional:
            break
        if opt.many:
            texts[opt.name], positional = list(positional), []
        else:
            texts[opt.name] = positional.pop(0)
    if positional:
        words = " ".join(repr(word) if not word.strip() else word for word in positional)
        raise Refusal(f"error: {cut(words)}: no option takes it (each value follows its option, as in --trials "
                      "1000); see --help", None, words)
    return texts


def without_shell(command: Command, words: Sequence[str]) -> list[str]:
    """A command's words less the command line's own options and their values (what `ask` is given)."""
    named = {spelling: opt for opt in command.options if not opt.argument for spelling in opt.spellings}
    kept: list[str] = []
    index = 0
    while index < len(words):
        word = str(words[index])
        if word == "--":
            kept += words[index:]
            break
        name, equals, _ = word.partition("=")
        opt = named.get(name) if word.startswith("-") else None
        size = 1 if opt is None or equals or opt.kind == "switch" else 2
        if opt is None or not opt.shell:
            kept += words[index:index + size]
        index += size
    return kept
