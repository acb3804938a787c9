"""One table of text cells, and how each format draws it: terminal text (within a width, numbers on
the right), Markdown, BBCode, HTML, CSV and JSON.

`tables.py` makes tables of answers and study rows; this is the value they are made of. A table that
fits as it is, in characters one column wide, is drawn here; any other by Rich (imported only then).
"""

from __future__ import annotations

import io
from dataclasses import field, replace
from enum import Enum
from typing import Any, Sequence

from .style import number
from ..core.record import record

WIDE = 100_000  # the width of text that is not going to a terminal: no wrapping


class Format(str, Enum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"
    BBCODE = "bbcode"


def cell(value: Any) -> str:
    """A value as a table cell shows it."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return number(value)
    return str(value)


def _numeric(text: str) -> bool:
    head = text.split(" ± ")[0].rstrip("%").replace(",", "")
    try:
        float(head)
        return True
    except ValueError:
        return head in ("-", "")


@record
class Table:
    """Rows of cells under named columns, with an optional title and notes below."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""
    notes: tuple[str, ...] = field(default=())

    def text(self, width: int | None = None) -> str:
        """Drawn within `width` columns (long cells fold); numbers line up on the right. A table that
        fits as it is, in characters one column wide each, is drawn here as Rich draws it (Rich is
        imported only for the others: a first answer need not wait for it)."""
        cells = [[cell(value) for value in row] for row in self.rows]
        numeric = self._numeric()
        if fitted_widths(self.columns, cells, numeric, width) is None and _narrow(self.columns, cells):
            return "\n".join(([self.title] if self.title else []) + _drawn(self.columns, cells, numeric)
                             + list(self.notes))
        return self._rich(width)

    def _rich(self, width: int | None) -> str:
        """Drawn by Rich (`text`)."""
        from rich import box
        from rich.console import Console
        from rich.table import Table as RichTable
        from rich.text import Text

        cells = [[cell(value) for value in row] for row in self.rows]
        table = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="", expand=False)
        numeric = self._numeric()
        widths = fitted_widths(self.columns, cells, numeric, width)
        for i, column in enumerate(self.columns):
            table.add_column(Text(column), justify="right" if numeric[i] else "left", overflow="fold",
                             width=widths[i] if widths else None)
        for row in cells:
            table.add_row(*(Text(text) for text in row))
        least = sum(widths) + GAP * (len(widths) - 1) if widths else 0  # a table too wide to fit stays whole
        drawing = io.StringIO()
        console = Console(file=drawing, width=max(width or WIDE, least), color_system=None, force_terminal=False,
                          highlight=False, emoji=False, soft_wrap=False)
        console.print(table)
        drawn = [line.rstrip() for line in drawing.getvalue().splitlines()]
        return "\n".join(([self.title] if self.title else []) + drawn + list(self.notes))

    def _numeric(self) -> list[bool]:
        """Which columns hold numbers only (right-aligned); text columns go left."""
        cells = [[cell(value) for value in row] for row in self.rows]
        return [bool(cells) and all(_numeric(row[i]) for row in cells) for i in range(len(self.columns))]

    def markdown(self) -> str:
        lines = [f"**{self.title}**", ""] if self.title else []
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "|".join("---:" if numeric else ":---" for numeric in self._numeric()) + "|")
        lines += ["| " + " | ".join(cell(v).replace("|", "\\|") for v in row) + " |" for row in self.rows]
        return "\n".join(lines + [f"\n_{note}_" for note in self.notes])

    def bbcode(self) -> str:
        """For a forum post: the table as the terminal draws it, in a [code] block (monospace, its columns
        lined up; the forums players use render no [table]), the title bold and the notes in italics."""
        lines = [f"[b]{self.title}[/b]"] if self.title else []
        lines.append("[code]" + replace(self, title="", notes=()).text(None) + "[/code]")
        return "\n".join(lines + [f"[i]{note}[/i]" for note in self.notes])

    def html(self) -> str:
        """An HTML table, every text escaped; numeric columns carry class "n" (right-aligned)."""
        from html import escape

        numeric = self._numeric()
        head = "".join(f'<th{" class=n" if n else ""} scope=col>{escape(c)}</th>' for c, n in zip(self.columns, numeric))
        body = "".join("<tr>" + "".join(f'<td{" class=n" if n else ""}>{escape(cell(v))}</td>'
                                        for v, n in zip(row, numeric)) + "</tr>" for row in self.rows)
        caption = f"<caption>{escape(self.title)}</caption>" if self.title else ""
        notes = "".join(f"<p class=note>{escape(note)}</p>" for note in self.notes)
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}"

    def csv(self) -> str:
        import csv

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        return out.getvalue()

    def render(self, fmt: Format, width: int | None = None) -> str:
        if fmt is Format.JSON:
            import json

            return json.dumps([dict(zip(self.columns, row)) for row in self.rows], indent=2, default=plain)
        if fmt is Format.TABLE:
            return self.text(width)
        return str(getattr(self, fmt.value)())


def plain(value: Any) -> Any:
    """A value JSON cannot write itself: a numpy number as its Python number, anything else as text."""
    if hasattr(value, "item"):
        return value.item()
    return str(value)


GAP = 3  # columns of space between two table columns
RULE = "─"  # under the heading


NARROW = frozenset("±≥≤×−–—…·→←↑↓°′″€£¥•")  # beyond Latin, the characters oddscalc's tables write


def _narrow(columns: Sequence[str], cells: list[list[str]]) -> bool:
    """Whether every character surely takes one column as Rich measures it: printable Latin (below the
    combining marks) or one of `NARROW`, no text with a space at either end; anything else, and an empty column,
    is drawn by Rich."""
    if not all(column or any(row[i] for row in cells) for i, column in enumerate(columns)):
        return False  # an empty column: Rich's own minimum widths
    if any(value != value.strip() for value in [*columns, *(value for row in cells for value in row)]):
        return False  # a space at either end: Rich trims it before it aligns
    text = "".join([*columns, *(value for row in cells for value in row)])
    return text.isprintable() and all(ord(char) < 0x300 or char in NARROW for char in text)


def _drawn(columns: Sequence[str], cells: list[list[str]], numeric: list[bool]) -> list[str]:
    """The lines of a table that fits as it is: headings, a rule, rows; GAP spaces between columns,
    numbers on the right; no space at the end of a line."""
    widths = [max([len(column), *(len(row[i]) for row in cells)]) for i, column in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return (" " * GAP).join(value.rjust(width) if right else value.ljust(width)
                                for value, width, right in zip(values, widths, numeric)).rstrip()

    return [line(columns), RULE * (sum(widths) + GAP * (len(widths) - 1)), *(line(row) for row in cells)]


def fitted_widths(columns: Sequence[str], cells: list[list[str]], numeric: list[bool], width: int | None
            ) -> list[int] | None:
    """Column widths that fit `width`, or None when the table fits as it is.

    Names give way first, down to their longest word (a word is never split); then
    figures wrap between value and error; a column is never narrower than its heading's
    longest word."""
    natural = [max([len(column), *(len(row[i]) for row in cells)]) for i, column in enumerate(columns)]
    room = (width or WIDE) - GAP * (len(columns) - 1)
    if sum(natural) <= room:
        return None
    def pieces(text: str, figure: bool) -> list[str]:  # what never breaks: a word; a value, and "± its error"
        return [text.split(" ± ")[0], *(f"± {error}" for error in text.split(" ± ")[1:])] if figure else text.split()

    words = [max((len(word) for word in [*column.split(), *(w for row in cells for w in pieces(row[i], numeric[i]))]),
                 default=0) for i, column in enumerate(columns)]
    widths = list(natural)
    names = [i for i in range(len(columns)) if not numeric[i]]
    while sum(widths) > room and any(widths[i] > words[i] for i in names):
        widest = max((i for i in names if widths[i] > words[i]), key=lambda i: widths[i])
        widths[widest] -= 1  # the widest name column gives a column first
    for i in reversed([i for i in range(len(columns)) if numeric[i]]):  # then figures, the last column first,
        widths[i] = max(words[i], widths[i] - (sum(widths) - room))    # so that as few as possible wrap
    return widths
