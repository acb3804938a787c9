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
from urllib.parse import quote_plus

from ..tables import Format, QueryAnswer, StudyAnswer, cell, describe, provenance

PLOT_LOCK = threading.Lock()  # pyplot keeps global state: one figure drawn at a time


class Kept:
    """The last values by key, at most `limit` bytes of them (each value's size given when it is put),
    the oldest out first; shared by the server's threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._values: OrderedDict[tuple[str, ...], tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> Any:
        with self._lock:
            if key not in self._values:
                return None
            self._values.move_to_end(key)
            return self._values[key][0]

    def put(self, key: tuple[str, ...], value: Any, size: int) -> None:
        with self._lock:
            if key in self._values:
                self.size -= self._values.pop(key)[1]
            if size > self.limit:
                return  # larger than all that is kept: not kept
            self._values[key] = (value, size)
            self.size += size
            while self.size > self.limit:
                self.size -= self._values.popitem(last=False)[1][1]

    def keys(self) -> list[tuple[str, ...]]:
        with self._lock:
            return list(self._values)


def size_of(asked: Any) -> int:
    """About the bytes an answer holds (its distributions' arrays, a study's rows), to keep it within a cap."""
    content = asked.answer.content
    if isinstance(content, QueryAnswer):
        arrays = sum(3 * 8 * len(distribution.pmf) for distribution in content.result.outcomes.values())
        rationals = sum(64 * len(values) for values in (content.result.rationals or {}).values())
        return 4096 + arrays + rationals
    return 4096 + sum(64 + 96 * len(row) for row in content.rows)


def figure(plot: Any, fmt: str, fixed: Optional[Sequence[str]] = None, drawn: Optional[Kept] = None) -> bytes:
    """The answer's plot as `fmt` (svg or png) bytes, captioned as the command line saves it;
    kept in `drawn` under `fixed`, the words that fix it (see `fixed_words`), when given."""
    import matplotlib.pyplot as plt

    from ..plots import dpi_for

    key = None if fixed is None or drawn is None else (fmt, *fixed)
    image = None if key is None else drawn.get(key)
    if image is None:
        with PLOT_LOCK:
            ax = plot.drawn()
            try:
                buffer = io.BytesIO()
                ax.figure.savefig(buffer, format=fmt, dpi=dpi_for(ax.figure))
            finally:
                plt.close(ax.figure)
        image = buffer.getvalue()
        if key is not None:
            drawn.put(key, image, len(image))
    return image


def fixed_words(asked: Any, words: Sequence[str]) -> Optional[list[str]]:
    """The words of a query's answer (an `ask.Asked`) that fix its figures (exact, or its seed
    given), else None (a study may read an uploaded roster, which its words only name)."""
    content = asked.answer.content
    if not isinstance(content, QueryAnswer) or pinned(words, content.result.seed) != list(words):
        return None
    return list(words)


def link(words: Sequence[str], route: str = "/") -> str:
    """The permalink of a command line, as readable as a URL lets it be: `/?q=epic+shoot+--shots+12+--to-hit+4%2B`."""
    return f"{route}?q=" + quote_plus(shlex.join(words), safe="/,:='*")


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
    svg: Optional[str]  # the plot's URL: /plot.svg?q=... for a query, a data: URL for a study; None: no plot
    command: str
    permalink: Optional[str]  # None for uploaded rosters, which the page does not keep
    png: Optional[str]  # the PNG download's URL (a data: URL for uploaded rosters)
    markdown: str
    bbcode: str
    json: str
    notes: tuple[str, ...]
    failed: Optional[str]
    outcomes: tuple[tuple[str, str, bool], ...]  # (name, its permalink, shown now)


def shown(asked: Any, words: Sequence[str], kept: Optional[Kept] = None, uploaded: bool = False) -> Shown:
    """What the page shows of `asked` (an `ask.Asked`), the answer of the command line `words`. A
    query's answer is kept (in `kept`) under the words that fix it, which its plot's URL
    carries. An answer of `uploaded` rosters has no permalink (the page keeps no file): its
    PNG comes in the page."""
    answer = asked.answer
    content = answer.content
    if isinstance(content, QueryAnswer):
        seed, title, how = content.result.seed, content.description, describe(content.result)
        tables = tuple(table.html() for table in content.tables())
        fixed = pinned(words, seed)
        outcomes = tuple((name, link(with_outcome(fixed, name)), name == content.outcome)
                         for name in content.result.outcomes)
    elif isinstance(content, StudyAnswer):
        header = content.header
        seed, title = header.get("seed"), shlex.join(words)
        how = provenance(header["method"], header["trials"], seed, per_cell=True)
        tables = (study_table(content),)
        fixed, outcomes = pinned(words, seed), ()
    else:  # a look (a line of sight): facts, nothing sampled, nothing to draw
        title, how = content.title, content.sentence
        tables = tuple(table.html() for table in content.tables())
        fixed, outcomes = list(words), ()
    if answer.plot is None:
        svg = None
    elif fixed_words(asked, fixed) is not None:  # its plot is its own request, answered from the answer kept
        if kept is not None:
            kept.put(tuple(fixed), asked, size_of(asked))
        svg = link(fixed, "/plot.svg")
    else:  # a study (maybe of an uploaded roster, which its words do not name): drawn into the page
        svg = "data:image/svg+xml;base64," + base64.b64encode(figure(answer.plot, "svg")).decode()
    if uploaded:
        permalink = None
        png = "data:image/png;base64," + base64.b64encode(figure(answer.plot, "png")).decode()
    else:
        permalink, png = link(fixed), link(fixed, "/plot.png") if answer.plot is not None else None
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
