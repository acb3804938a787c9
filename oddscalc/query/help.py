"""A command's --help, written from its declaration (`grammar.Command`): usage, what it does, its
arguments and options (each with its default, or that it is required), and its examples."""

from __future__ import annotations

import re
from enum import Enum
from typing import Sequence

from .grammar import Command, Opt

WIDTH = 80  # at most, as a terminal narrower than that wraps sooner
COLUMN = 30  # the widest first column (an option's spelling) before its help goes below it
SHORT = 64  # characters of a command's line in its group's list


def width() -> int:
    import shutil

    return max(40, min(shutil.get_terminal_size((WIDTH, 24)).columns, WIDTH) - 2)


def paragraphs(text: str, indent: str, columns: int) -> list[str]:
    """Text rewrapped paragraph by paragraph; a paragraph after a line `\\b` is kept as written."""
    import textwrap

    lines: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        if paragraph.startswith("\b\n"):
            lines += [indent + line for line in paragraph[2:].splitlines()]
        else:
            lines += textwrap.wrap(" ".join(paragraph.split()), columns, initial_indent=indent,
                                   subsequent_indent=indent, break_on_hyphens=False) or [""]
        lines.append("")
    return lines[:-1]


def default_shown(opt: Opt) -> str:
    """`  [default: 0]`, `  [required]` or nothing, as --help shows after an option's help."""
    if opt.required:
        return "  [required]"
    if not opt.show_default or opt.default is None or opt.default == () or opt.default is False:
        return ""
    if opt.default is True:
        return f"  [default: {opt.flag.lstrip('-')}]" if opt.negative else ""
    value = opt.default.value if isinstance(opt.default, Enum) else opt.default
    return f"  [default: {value}]"


def first_column(opt: Opt) -> str:
    if opt.argument:
        return opt.flag
    if opt.kind == "switch":
        return " / ".join(opt.spellings)
    return f"{opt.flag} {opt.shown_metavar()}"


def table(rows: Sequence[tuple[str, str]], columns: int) -> list[str]:
    """Two columns, as Click writes them: the first as wide as its widest entry up to COLUMN."""
    import textwrap

    first = min(max(len(left) for left, _ in rows), COLUMN)
    lines: list[str] = []
    for left, right in rows:
        wrapped = textwrap.wrap(right, max(20, columns - first - 4), break_on_hyphens=False) or [""]
        if len(left) <= first:
            lines.append(f"  {left.ljust(first)}  {wrapped[0]}".rstrip())
        else:
            lines += [f"  {left}", f"  {' ' * first}  {wrapped[0]}"]
        lines += [f"  {' ' * first}  {line}" for line in wrapped[1:]]
    return lines


def usage(command: Command) -> str:
    arguments = [opt.flag if opt.required else f"[{opt.flag}]" for opt in command.options if opt.argument]
    return " ".join(["Usage: oddscalc", command.path, "[OPTIONS]", *arguments])


def help_text(command: Command) -> str:
    """The command's --help."""
    columns = width()
    lines = [usage(command), "", *paragraphs(command.help, "  ", columns)]
    arguments = [(first_column(opt), opt.help + default_shown(opt)) for opt in command.options if opt.argument]
    if arguments:
        lines += ["", "Arguments:", *table(arguments, columns)]
    options = [(first_column(opt), opt.help + default_shown(opt)) for opt in command.options if not opt.argument]
    lines += ["", "Options:", *table([*options, ("-h, --help", "Show this message and exit.")], columns)]
    if command.examples:
        lines += ["", "  Examples:", "", *(f"    {example}" for example in command.examples)]
    return "\n".join(lines)


def short_help(text: str) -> str:
    """A command's line in its group's list: its help's first sentence, or its first clause when
    the sentence is long, cut at a word and never inside a notation like `A/X-B/X-...`."""
    first = " ".join(text.split("\n\n")[0].split())
    sentence = re.split(r"(?<=[.;])\s", first, maxsplit=1)[0].rstrip(".;")
    if len(sentence) <= SHORT:
        return sentence
    clause = re.split(r":\s", sentence, maxsplit=1)[0]
    if len(clause) <= SHORT:
        return clause
    words = sentence[:SHORT].rsplit(" ", 1)[0]
    return words.rstrip(",;:") + " …"
