"""An `Answer` as the page shows it: its words, tables (HTML), plot (SVG, PNG), the command
line, the permalink, and the same answer as Markdown, BBCode and JSON for a forum post."""

from __future__ import annotations

import base64
import io
import shlex
import threading
from dataclasses import dataclass
from html import escape
from typing import Any, Optional, Sequence
from urllib.parse import quote

from ..tables import Format, QueryAnswer, StudyAnswer, cell, describe, provenance

PLOT_LOCK = threading.Lock()  # pyplot keeps global state: one figure drawn at a time


def figure(plot: Any, fmt: str) -> bytes:
    """The answer's plot as `fmt` (svg or png) bytes, captioned as the command line saves it."""
    import matplotlib.pyplot as plt

    from ..plots import dpi_for

    with PLOT_LOCK:
        ax = plot.drawn()
        try:
            buffer = io.BytesIO()
            ax.figure.savefig(buffer, format=fmt, dpi=dpi_for(ax.figure))
        finally:
            plt.close(ax.figure)
    return buffer.getvalue()


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
    svg: str  # a data: URL
    command: str
    permalink: str
    png: str  # the PNG download's URL
    markdown: str
    bbcode: str
    json: str
    notes: tuple[str, ...]
    failed: Optional[str]
    outcomes: tuple[tuple[str, str, bool], ...]  # (name, its permalink, shown now)


def shown(answer: Any, words: Sequence[str]) -> Shown:
    """What the page shows of `answer`, the answer of the command line `words`."""
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
    svg = "data:image/svg+xml;base64," + base64.b64encode(figure(answer.plot, "svg")).decode()
    return Shown(title, how, tables, svg, "oddscalc " + shlex.join(fixed), link(fixed),
                 "/plot.png?q=" + quote(shlex.join(fixed), safe=""), content.render(Format.MARKDOWN),
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
