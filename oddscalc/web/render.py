"""An `Answer` as the page shows it: its words, tables (HTML), plot (SVG, PNG), the command
line, the permalink, and the same answer as Markdown, BBCode and JSON for a forum post."""

from __future__ import annotations

import base64
import io
import shlex
import threading
from collections import OrderedDict
from html import escape
from typing import Any, Optional, Sequence
from urllib.parse import quote_plus

from ..output.tables import Format, QueryAnswer, StudyAnswer, cell, describe, provenance
from ..core.record import record

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
    """About the bytes an answer holds (its distributions, a study's rows), to keep it within a cap."""
    content = asked.answer.content
    if isinstance(content, QueryAnswer):
        arrays = sum(distribution.nbytes for distribution in content.result.outcomes.values())
        rationals = sum(64 * len(values) for values in (content.result.rationals or {}).values())
        return 4096 + arrays + rationals
    return 4096 + sum(64 + 96 * len(row) for row in getattr(content, "rows", ()))  # a study's rows (a look: none)


def figure(plot: Any, fmt: str, fixed: Optional[Sequence[str]] = None, drawn: Optional[Kept] = None) -> bytes:
    """The answer's plot as `fmt` bytes: svg, the page's own drawing (`chart.py`, wide); png, the
    command line's (matplotlib, captioned as --plot saves it); kept in `drawn` under `fixed`, the
    words that fix it (see `fixed_words`), when given."""
    if fixed is None or drawn is None:
        return drawing(plot, fmt)
    key = (fmt, *fixed)
    image: bytes | None = drawn.get(key)
    if image is None:
        image = drawing(plot, fmt)
        drawn.put(key, image, len(image))
    return image


def drawing(plot: Any, fmt: str) -> bytes:
    if fmt == "svg":
        from . import chart

        return str('<?xml version="1.0" encoding="utf-8"?>\n' + plot.draw(chart).svg(chart.WIDE)).encode()
    from ..output.plots import dpi_for

    figure = plot.drawn().figure  # a figure of its own (no pyplot): drawn beside other requests' plots
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi_for(figure))
    return buffer.getvalue()


def fixed_words(asked: Any, words: Sequence[str], uploaded: bool = False) -> Optional[list[str]]:
    """The words of an answer (an `ask.Asked`) that fix its figures (exact, or its seed given), else
    None; never the words of `uploaded` rosters (they only name the files: another upload of the
    same name is another answer)."""
    content = asked.answer.content
    if isinstance(content, QueryAnswer):
        seed = content.result.seed
    elif isinstance(content, StudyAnswer):
        seed = content.header.get("seed")
    else:
        seed = None  # nothing sampled
    if uploaded or pinned(words, seed) != list(words):
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


@record
class Shown:
    """What the page shows of an answer."""

    title: str
    sentence: str  # the answer in one sentence, in words
    how: str  # how it was made: method, trials, seed
    tables: tuple[str, ...]  # HTML, escaped
    charts: Optional[tuple[str, str]]  # the plot as SVG markup, drawn narrow (a phone) and wide; None: no plot
    svg: Optional[str]  # the plot's SVG download: /plot.svg?q=..., or a data: URL (uploaded rosters)
    png: Optional[str]  # the PNG download (the command line's plot): /plot.png?q=...; None for uploaded rosters
    json_link: Optional[str]  # /api/query?q=... (None for uploaded rosters: the JSON is in the page)
    command: str
    words: tuple[str, ...]  # the command line's words, each kept whole when it wraps
    permalink: Optional[str]  # None for uploaded rosters, which the page does not keep
    markdown: str
    bbcode: str
    json: str
    notes: tuple[str, ...]
    failed: Optional[str]
    outcomes: tuple[tuple[str, str, bool], ...]  # (name, its permalink, shown now)


def shown(asked: Any, words: Sequence[str], kept: Optional[Kept] = None, uploaded: bool = False) -> Shown:
    """What the page shows of `asked` (an `ask.Asked`), the answer of the command line `words`. A
    query's answer is kept (in `kept`) under the words that fix it, which its plot's URLs carry.
    An answer of `uploaded` rosters has no permalink (the page keeps no file): its SVG download
    comes in the page."""
    from ..output import sentence
    from . import chart

    answer = asked.answer
    content = answer.content
    if isinstance(content, QueryAnswer):
        seed, title, how = content.result.seed, content.description, describe(content.result)
        said = content.said
        tables = tuple(table.html() for table in content.tables())
        fixed = pinned(words, seed)
        outcomes = tuple((name, link(with_outcome(fixed, name)), name == content.outcome)
                         for name in content.result.outcomes)
    elif isinstance(content, StudyAnswer):
        header = content.header
        seed, title, said = header.get("seed"), shlex.join(words), sentence.of_study(content)
        how = provenance(header["method"], header["trials"], seed, per_cell=True)
        tables = (study_table(content),)
        fixed, outcomes = pinned(words, seed), ()
    else:  # a look (a line of sight): facts, nothing sampled, nothing to draw
        title, said, how = content.title, content.sentence, "traced on the map, square by square"
        tables = tuple(table.html() for table in content.tables())
        fixed, outcomes = list(words), ()
    charts = svg = png = None
    if answer.plot is not None:
        drawn = answer.plot.draw(chart)
        charts = (drawn.svg(chart.NARROW), drawn.svg(chart.WIDE))
        if uploaded:
            svg = "data:image/svg+xml;base64," + base64.b64encode(
                ('<?xml version="1.0" encoding="utf-8"?>\n' + charts[1]).encode()).decode()
        else:
            svg, png = link(fixed, "/plot.svg"), link(fixed, "/plot.png")
    if kept is not None and fixed_words(asked, fixed, uploaded) is not None:  # its plots come from the answer kept
        kept.put(tuple(fixed), asked, size_of(asked))
    permalink = None if uploaded else link(fixed)
    return Shown(title, said, how, tables, charts, svg, png, None if uploaded else link(fixed, "/api/query"),
                 "oddscalc " + shlex.join(fixed), tuple(shlex.quote(word) for word in ["oddscalc", *fixed]),
                 permalink, content.render(Format.MARKDOWN), content.render(Format.BBCODE),
                 content.render(Format.JSON), tuple(answer.notes), answer.failed, outcomes)


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
            tds.append(f'<td data-v="{escape(str(sort))}" data-label="{escape(column)}"'
                       f'{" class=n" if sort != "" else ""}>{escape(cell(values.get(column)))}</td>')
        if linked:
            text = str(query or "").removeprefix("oddscalc ")
            target = link([*shlex.split(text), *exact]) if text else ""
            tds.append(f'<td data-label="query"><a href="{escape(target)}">{escape(text)}</a></td>' if text
                       else '<td data-label="query"></td>')
        body.append("<tr>" + "".join(tds) + "</tr>")
    notes = "".join(f"<p class=note>{escape(note)}</p>" for note in content.notes)
    return f"<table class=sortable><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}"
