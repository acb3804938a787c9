"""An `Answer` as the page shows it: its words, tables (HTML), plot (SVG, PNG), the command
line, the permalink, and the same answer as Markdown, BBCode and JSON for a forum post."""

from __future__ import annotations

import base64
import io
import shlex
import threading
from collections import OrderedDict
from dataclasses import dataclass
from html import escape
from typing import Any, Optional, Sequence
from urllib.parse import quote

from ..tables import Format, QueryAnswer, StudyAnswer, cell, describe, provenance

PLOT_LOCK = threading.Lock()  # pyplot keeps global state: one figure drawn at a time


class Kept:
    """The last `size` values by key, the oldest out first (shared by the server's threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> Any:
        with self._lock:
            if key not in self._values:
                return None
            self._values.move_to_end(key)
            return self._values[key]

    def put(self, key: tuple[str, ...], value: Any) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def keys(self) -> list[tuple[str, ...]]:
        with self._lock:
            return list(self._values)


# A query's answer and its drawings are kept under the words that fix its figures (exact, or
# with its seed): the page's plot (its own request) and a permalink opened again need no new run.
ANSWERS = Kept(64)
FIGURES = Kept(64)


def figure(plot: Any, fmt: str, fixed: Optional[Sequence[str]] = None) -> bytes:
    """The answer's plot as `fmt` (svg or png) bytes, captioned as the command line saves it;
    kept under `fixed`, the words that fix it (see `fixed_words`), when given."""
    import matplotlib.pyplot as plt

    from ..plots import dpi_for

    key = None if fixed is None else (fmt, *fixed)
    drawn = None if key is None else FIGURES.get(key)
    if drawn is None:
        with PLOT_LOCK:
            ax = plot.drawn()
            try:
                buffer = io.BytesIO()
                ax.figure.savefig(buffer, format=fmt, dpi=dpi_for(ax.figure))
            finally:
                plt.close(ax.figure)
        drawn = buffer.getvalue()
        if key is not None:
            FIGURES.put(key, drawn)
    return drawn


def fixed_words(answer: Any, words: Sequence[str]) -> Optional[list[str]]:
    """The words of a query answer that fix its figures (exact, or its seed given), else None
    (a study may read an uploaded roster, which its words do not name)."""
    content = answer.content
    if not isinstance(content, QueryAnswer) or pinned(words, content.result.seed) != list(words):
        return None
    return list(words)


def link(words: Sequence[str]) -> str:
    """The permalink of a command line: `/?q=<what follows oddscalc>`."""
    return "/?q=" + quote(shlex.join(words), safe="")


def pinned(words: Sequence[str], seed: Optional[int]) -> list[str]:
    """The words with the seed the run used, so that the permalink gives the very same figures."""
    if seed is None or any(word.split("=")[0] == "--seed" for word in words):
        return list(words)
    return [*words, "--seed", str(seed)]


def with_outcome(words: Sequence[str], outcome: str) -> list[str]:
    """The words asking for another outcome in detail (`--outcome NAME`, replacing one given)."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == "--outcome":
            skip = True
        elif not word.startswith("--outcome="):
            kept.append(word)
    return [*kept, "--outcome", outcome]


@dataclass(frozen=True)
class Shown:
    """What the page shows of an answer."""

    title: str
    how: str  # how it was made: method, trials, seed
    tables: tuple[str, ...]  # HTML, escaped
    svg: str  # the plot's URL: /plot.svg?q=... for a query, a data: URL for a study
    command: str
    permalink: Optional[str]  # None for uploaded rosters, which the page does not keep
    png: str  # the PNG download's URL (a data: URL for uploaded rosters)
    markdown: str
    bbcode: str
    json: str
    notes: tuple[str, ...]
    failed: Optional[str]
    outcomes: tuple[tuple[str, str, bool], ...]  # (name, its permalink, shown now)


def shown(answer: Any, words: Sequence[str], uploaded: bool = False) -> Shown:
    """What the page shows of `answer`, the answer of the command line `words`. A query's answer
    is kept (`ANSWERS`) under the words that fix it, which its plot's URL carries. An answer of
    `uploaded` rosters has no permalink (the page keeps no file): its PNG comes in the page."""
    content = answer.content
    if isinstance(content, QueryAnswer):
        seed, title, how = content.result.seed, content.description, describe(content.result)
        tables = tuple(table.html() for table in content.tables())
        fixed = pinned(words, seed)
        outcomes = tuple((name, link(with_outcome(fixed, name)), name == content.outcome)
                         for name in content.result.outcomes)
    else:
        header = content.header
        seed, title = header.get("seed"), shlex.join(words)
        how = provenance(header["method"], header["trials"], seed, per_cell=True)
        tables = (study_table(content),)
        fixed, outcomes = pinned(words, seed), ()
    if fixed_words(answer, fixed) is not None:  # its plot is its own request, answered from the answer kept
        ANSWERS.put(tuple(fixed), answer)
        svg = "/plot.svg?q=" + quote(shlex.join(fixed), safe="")
    else:  # a study (maybe of an uploaded roster, which its words do not name): drawn into the page
        svg = "data:image/svg+xml;base64," + base64.b64encode(figure(answer.plot, "svg")).decode()
    if uploaded:
        permalink = None
        png = "data:image/png;base64," + base64.b64encode(figure(answer.plot, "png")).decode()
    else:
        permalink, png = link(fixed), "/plot.png?q=" + quote(shlex.join(fixed), safe="")
    return Shown(title, how, tables, svg, "oddscalc " + shlex.join(fixed), permalink, png,
                 content.render(Format.MARKDOWN),
                 content.render(Format.BBCODE), content.render(Format.JSON), tuple(answer.notes), answer.failed,
                 outcomes)


def study_table(content: StudyAnswer) -> str:
    """A study's rows as a sortable HTML table (each cell carries its raw value to sort by); a
    row with a query (a grid's or a comparison's) links to that query's page (exact when the
    study was)."""
    exact = ["--exact"] if content.header.get("method") == "exact" else []
    table = content.tables()[0]
    rows = content.shown if content.shown is not None else content.rows
    queries = [row.get("query") for row in content.rows]
    linked = any(queries)
    columns = [column for column in table.columns if column != "query"]
    head = "".join(f"<th scope=col><button type=button class=sort>{escape(column)}</button></th>"
                   for column in columns) + ("<th scope=col>query</th>" if linked else "")
    body = []
    for raw, cells, query in zip(rows, table.rows, queries):
        values = dict(zip(table.columns, cells))
        tds = []
        for column in columns:
            value = raw.get(column, "")
            sort = value if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
            tds.append(f'<td data-v="{escape(str(sort))}"{" class=n" if sort != "" else ""}>'
                       f"{escape(cell(values.get(column)))}</td>")
        if linked:
            text = str(query or "").removeprefix("oddscalc ")
            target = link([*shlex.split(text), *exact]) if text else ""
            tds.append(f'<td><a href="{escape(target)}">{escape(text)}</a></td>' if text else "<td></td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    notes = "".join(f"<p class=note>{escape(note)}</p>" for note in content.notes)
    return f"<table class=sortable><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}"
