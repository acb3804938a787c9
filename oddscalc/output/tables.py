"""Tables in every output format: terminal text, JSON, CSV, markdown and bbcode (and HTML
for the page).

One `Table` value and one renderer per format serve the query results and the study
rows. Numbers follow the one style of `style.py`; yes/no outcomes read as probabilities.
Terminal text is drawn by Rich to a given width; pandas enters only through `frame`.
An answer is kept as a value (`QueryAnswer`, `StudyAnswer`) that renders in any format,
so the command line prints one and the page shows several.
"""

from __future__ import annotations

import math
from dataclasses import field
from typing import TYPE_CHECKING, Any, Sequence

from .. import __version__
from ..core.distribution import interval
from ..core.engine import Result
from ..core.options import Method
from .style import clean, is_probability, number, percent
from .table import plain
from .table import Format as Format  # the tables' names, as every importer of this module knows them
from .table import Table as Table
from .table import fitted_widths as fitted_widths
from .table import cell as cell
from ..core.record import record

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd

TAIL = 5e-5  # rows at either end of a pmf with P(= k) below this are left out, and a note says so
MAX_ROWS = 60  # a pmf table with more values than this shows them in ranges of a round width


def provenance(method: Method | str, trials: int | None, seed: int | None, per_cell: bool = False) -> str:
    """The one line that says how an answer was made: version, method, trials and seed."""
    if method == Method.EXACT:
        return f"oddscalc {__version__} · exact"
    return (f"oddscalc {__version__} · Monte Carlo, {trials:,} trials{' per cell' if per_cell else ''}, "
            f"seed {seed}")


def describe(result: Result) -> str:
    """How a result was made (`provenance` of its method, trials and seed)."""
    return provenance(result.method, result.trials, result.seed)


# --- a query's answer ------------------------------------------------------------------


def shown_values(distribution: Any) -> tuple[list[int], str | None]:
    """The values a pmf table shows, and a note saying what the one tail rule left out.

    The rule: rows at either end whose P(= k) is below TAIL (0.005 %) are not shown.
    """
    probabilities = distribution.probabilities
    ks = [k for k, p in enumerate(probabilities) if p > 0]
    kept = [k for k in ks if probabilities[k] >= TAIL]
    if not kept or len(kept) == len(ks):
        return ks, None
    low, high = kept[0], kept[-1]
    shown = [k for k in ks if low <= k <= high]
    below, above = distribution.at_most(low - 1), distribution.at_least(high + 1)
    parts = ([f"below {low}"] if below > 0 else []) + ([f"above {high}"] if above > 0 else [])
    return shown, f"not shown: values {' and '.join(parts)}, together {percent(below + above)} (each under {percent(TAIL)})"


def share(distribution: Any, p: float) -> str:
    """A probability of a distribution as a player reads it: exact; sampled, `± its error`, or its
    exact range when it was seen fewer than RARE times."""
    if distribution.exact:
        return percent(p)
    return rare(p, distribution.trials) or percent(p, distribution.stderr(p) or None)


def pmf_table(result: Result, name: str | None = None) -> Table:
    """One outcome (the main one by default): k, P(= k), P(≥ k), with standard errors when sampled."""
    name = name or result.main
    distribution = result[name]
    ks, note = shown_values(distribution)
    rationals = (result.rationals or {}).get(name)
    width = range_width(ks[-1] - ks[0] + 1)
    rows = []
    for low in (ks if width == 1 else range(ks[0] - ks[0] % width, ks[-1] + 1, width)):
        high = min(low + width - 1, ks[-1]) if width > 1 else low
        low = max(low, ks[0])
        p, at_least = distribution.at_least(low) - distribution.at_least(high + 1), distribution.at_least(low)
        row = (low if width == 1 else f"{low}–{high}" if high > low else str(low), share(distribution, p),
               percent(1.0) if at_least == 1 else share(distribution, at_least))  # from the least value seen: all
        rows.append(row + ((str(sum(rationals[low:high + 1], 0)), str(sum(rationals[low:], 0))) if rationals else ()))
    columns = (name, "P(= k)" if width == 1 else "P(in range)", "P(≥ k)") + (
        ("exactly", "at least") if rationals else ())
    notes: tuple[str, ...] = (note,) if note else ()
    if width > 1:
        notes += (f"values in ranges of {width} ({len(ks)} values; the JSON and CSV formats list each)",)
    return Table(columns, tuple(rows), notes=notes)


def range_width(values: int) -> int:
    """The round width (1, 2, 5, 10, 20, 50 ...) that shows `values` in at most MAX_ROWS rows."""
    width, steps = 1, (2.0, 2.5, 2.0)  # 1 → 2 → 5 → 10 → 20 → 50 ...
    while -(-values // width) > MAX_ROWS:
        width = round(width * steps[0])
        steps = steps[1:] + steps[:1]
    return width


def event_table(result: Result, names: Sequence[str] | None = None) -> Table:
    """The yes/no outcomes as probabilities: P(broken) 57.78% ± 0.05."""
    rows = []
    rationals = result.rationals or {}
    for name in names if names is not None else [n for n in result.outcomes if n in result.events]:
        distribution = result[name]
        p = distribution.at_least(1)
        exact = (str(sum(rationals[name][1:], 0)),) if rationals else ()  # with --fractions: P as a rational
        rows.append((f"P({name})", share(distribution, p), *exact))
    return Table(("event", "probability") + (("exactly",) if rationals else ()), tuple(rows))


RARE = 10  # an event seen fewer times than this in a sample is shown with its exact 95 % interval


def rare(p: float, trials: int) -> str | None:
    """A share `p` of `trials` sampled trials seen fewer than RARE times, with its honest range: `0%
    (under 0.0003%, 95 %)` never seen in 10⁶ trials, `0.0003% (0.000062–0.00088%, 95 %)`; None
    otherwise."""
    if round(min(p, 1 - p) * trials) >= RARE:
        return None
    low, high = interval(p, trials)
    if p == 0:
        return f"0% (under {percent(high)}, 95 %)"
    if p == 1:
        return f"100% (over {below_one(low)}, 95 %)"
    return f"{percent(p)} ({percent(low).rstrip('%')}–{percent(high)}, 95 %)"


def below_one(p: float) -> str:
    """A probability just under 1 with the digits that tell it from 100%: `99.997%`, not `100%`."""
    decimals = max(0, 1 - math.floor(math.log10(100 * (1 - p))))
    return f"{100 * p:.{decimals}f}".rstrip("0").rstrip(".") + "%"


def summary_table(result: Result) -> Table:
    """Every outcome that counts something: mean (± standard error), sd, median, 10th and 90th percentiles."""
    rows = []
    for name, distribution in result.outcomes.items():
        if name in result.events:
            continue
        rows.append((name, number(distribution.mean, distribution.mean_stderr or None), number(distribution.sd),
                     distribution.median, distribution.quantile(0.1), distribution.quantile(0.9)))
    return Table(("outcome", "mean", "sd", "median", "p10", "p90"), tuple(rows))


def precision_note(results: Sequence[Result], precision: float | None) -> tuple[str, ...]:
    """A line for stderr when some answer stopped at --trials before reaching --precision."""
    short = sum(result.precision_reached is False for result in results)
    if not short:
        return ()
    where = "the answer" if len(results) == 1 else f"{short} of {len(results)} cells"
    return (f"note: --precision {precision:g} was not reached within --trials for {where}; "
            "the figures carry their standard errors (raise --trials to go further)",)


def verification_notes(result: Result) -> tuple[str, ...]:
    if not result.verification:
        return ()
    notes = []
    for name, check in result.verification.items():
        verdict = "within" if check.within else "OUTSIDE"
        notes.append(
            f"verify {name}: largest CDF gap {check.gap:.2e}, {verdict} the DKW bound {check.bound:.2e} "
            f"(α = {check.alpha:g})"
        )
    return tuple(notes)


def _figures(result: Result, values: Sequence[float] | np.ndarray) -> list[float]:
    """Floats for machines: exact ones cleaned of float noise (7.0, not 6.999999999999999)."""
    return [clean(float(v)) if result.method == Method.EXACT else float(v) for v in values]


def result_json(result: Result, command: str, description: str | None = None,
                notes: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON object of the command-line contract (and its second-round additions)."""
    outcomes = {}
    for name, distribution in result.outcomes.items():
        mean, sd = _figures(result, [distribution.mean, distribution.sd])
        outcomes[name] = {"mean": mean, "sd": sd, "mean_stderr": distribution.mean_stderr,
                          "pmf": _figures(result, distribution.probabilities),
                          "at_least": _figures(result, distribution.tails)}
        if name in result.events:
            probability = distribution.at_least(1)
            outcomes[name]["probability"] = _figures(result, [probability])[0]
            outcomes[name]["probability_stderr"] = distribution.stderr(probability)
        if result.rationals:
            exact = list(result.rationals[name])
            while len(exact) > 1 and not exact[-1]:  # as the pmf: no trailing zeros (none dropped that floats lose)
                exact.pop()
            outcomes[name]["pmf_fractions"] = [str(value) for value in exact]
    data: dict[str, Any] = {"oddscalc": __version__, "command": command}
    if description:
        data["description"] = description
    data.update({"method": result.method, "trials": result.trials, "seed": result.seed, "outcomes": outcomes})
    if result.precision_reached is not None:
        data["precision_reached"] = result.precision_reached
    if notes:  # what the command checked or read, as the table's lines under it say
        data["notes"] = list(notes)
    if result.verification:
        data["verify"] = {
            name: {"cdf_gap": check.gap, "bound": check.bound, "alpha": check.alpha, "within": check.within}
            for name, check in result.verification.items()
        }
    return data


def result_csv(result: Result) -> str:
    """Tidy rows, one per outcome and value: P(= k), P(≥ k), their standard errors, and how they were made."""
    rows = []
    for name, distribution in result.outcomes.items():
        pmf, at_least = _figures(result, distribution.probabilities), _figures(result, distribution.tails)
        rationals = (result.rationals or {}).get(name)
        for k in range(len(pmf)):
            rows.append((name, k, repr(pmf[k]), repr(at_least[k]), distribution.stderr(pmf[k]),
                         distribution.stderr(at_least[k]), result.method, result.trials, result.seed)
                        + ((str(rationals[k]),) if rationals else ()))
    columns = ("outcome", "k", "probability", "at_least", "probability_stderr", "at_least_stderr", "method",
               "trials", "seed") + (("probability_fraction",) if result.rationals else ())
    return Table(columns, tuple(rows)).csv()


def result_tables(result: Result, outcome: str | None = None) -> list[Table]:
    """The tables of a query's answer: the detail of one outcome (the main one by default: a pmf
    table, or a probability for a yes/no outcome), every outcome in brief, the other events."""
    outcome = outcome or result.main
    detail = event_table(result, [outcome]) if outcome in result.events else pmf_table(result, outcome)
    pieces = [detail, summary_table(result)]
    others = [name for name in result.outcomes if name in result.events and name != outcome]
    if others:
        pieces.append(event_table(result, others))
    return [piece for piece in pieces if piece.rows]


def render_result(result: Result, fmt: Format, command: str, description: str = "", outcome: str | None = None,
                  notes: Sequence[str] = (), width: int | None = None, said: str = "") -> str:
    """Render a query's answer: its description and command, the detail of one outcome (the main one
    by default: a pmf table, or a probability for a yes/no outcome), and every outcome in brief; a forum's
    formats (Markdown, BBCode) start with the answer in one sentence, `said`, as the page does."""
    if fmt is Format.JSON:
        import json

        return json.dumps(result_json(result, command, description, notes), indent=2)
    if fmt is Format.CSV:
        return result_csv(result)
    pieces = result_tables(result, outcome)
    notes = [*verification_notes(result), *notes]
    head = [description] if description else []
    if fmt is Format.TABLE:
        body = "\n\n".join(piece.text(width) for piece in pieces)
        return "\n".join([*head, command, describe(result), "", body, *([""] + notes if notes else [])])
    if fmt is Format.MARKDOWN:
        title = [f"**{description}**  "] if description else []
        return "\n\n".join([*said_first(said), "\n".join([*title, f"`{command}`  ", describe(result)]),
                            *(piece.markdown() for piece in pieces), *notes])
    title = [f"[b]{description}[/b]"] if description else []
    return "\n\n".join([*said_first(said), "\n".join([*title, f"[code]{command}[/code]", describe(result)]),
                        *(piece.bbcode() for piece in pieces), *notes])


def said_first(said: str) -> list[str]:
    """The answer in one sentence, the first paragraph of a forum post (none when there is none)."""
    return [said] if said else []


# --- a study's rows ----------------------------------------------------------------------


def render_rows(columns: Sequence[str], rows: Sequence[dict[str, Any]], fmt: Format, header: dict[str, Any],
                notes: Sequence[str] = (), extra: dict[str, Any] | None = None, width: int | None = None,
                trials: int | None = None) -> str:
    """Render a study's tidy rows with a header saying how they were made.

    JSON and CSV keep every column and the raw figures (probabilities from 0 to 1); text
    shows `value ± error` in one cell, and probabilities as percentages.
    """
    if fmt is Format.JSON:
        import json

        data = {"oddscalc": __version__, **header, "rows": list(rows), **(extra or {})}
        return json.dumps(data, indent=2, default=plain)
    if fmt is Format.CSV:
        how = {"method": header.get("method"), "seed": header.get("seed")}
        columns = [*columns, *(c for c in how if c not in columns)]
        return Table(tuple(columns), tuple(tuple({**how, **row}.get(c, "") for c in columns) for row in rows)).csv()
    table = readable(columns, rows, trials)
    method = header.get("method")
    line = f"oddscalc {__version__}" if method is None else provenance(method, header["trials"], header["seed"], True)
    if fmt is Format.TABLE:
        if width:  # a long note wraps at the terminal's width, between words
            import textwrap

            notes = [wrapped for note in notes for wrapped in textwrap.wrap(note, width, subsequent_indent="  ")]
        return "\n".join([header["command"], line, "", table.text(width), *([""] + list(notes) if notes else [])])
    if fmt is Format.MARKDOWN:
        return "\n\n".join([f"`{header['command']}`  \n{line}", table.markdown(), *notes])
    return "\n\n".join([f"[code]{header['command']}[/code]\n{line}", table.bbcode(), *notes])


def readable(columns: Sequence[str], rows: Sequence[dict[str, Any]], trials: int | None = None) -> Table:
    """For people: `value ± stderr` in one cell instead of two columns, probabilities as percentages.
    With `trials` (each row sampled from that many): a share of them seen fewer than RARE times
    shows its exact range instead (not P(A > B), which is not a count of trials)."""
    shown = [c for c in columns if not (c.endswith("_stderr") and c.removesuffix("_stderr") in columns)]
    cells = []
    for row in rows:
        line = []
        for column in shown:
            value, error = row.get(column, ""), row.get(f"{column}_stderr")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    (isinstance(value, float) and math.isnan(value)):
                line.append(value)
            elif is_probability(column):
                counted = None if column.split(".")[-1].startswith("P(>") else trials  # P(A > B) counts no trials
                line.append(counted is not None and rare(value, counted) or percent(value, error or None))
            else:
                line.append(number(value, error or None) if isinstance(value, float) or error else value)
        cells.append(tuple(line))
    return Table(tuple(shown), tuple(cells))


TEXT = (Format.TABLE, Format.MARKDOWN, Format.BBCODE)  # the formats people read (not every column)


@record
class QueryAnswer:
    """A query's answer, kept to render in any format: its result, its command line, the attack
    in words, the outcome shown in detail, and the notes it carries."""

    result: Result
    command: str
    description: str
    outcome: str
    notes: tuple[str, ...] = ()
    said: str = ""  # the answer in one sentence (`sentence.of_query`), as the page and a forum post start

    def render(self, fmt: Format, width: int | None = None) -> str:
        return render_result(self.result, fmt, self.command, self.description, self.outcome, self.notes, width,
                             self.said)

    def tables(self) -> list[Table]:
        return result_tables(self.result, self.outcome)


@record
class StudyAnswer:
    """A study's rows, kept to render in any format: every column for JSON and CSV, and the
    `shown` rows (a grid's key columns) for the formats people read; the header says how they
    were made (command, method, trials, seed)."""

    rows: tuple[dict[str, Any], ...]
    header: dict[str, Any]
    notes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    shown: tuple[dict[str, Any], ...] | None = None
    trials: int | None = None  # each cell's trials when all sampled alike: rare shares show their range

    def _rows(self, fmt: Format) -> tuple[dict[str, Any], ...]:
        return self.shown if self.shown is not None and fmt in TEXT else self.rows

    def render(self, fmt: Format, width: int | None = None) -> str:
        from .sentence import of_study

        rows = self._rows(fmt)
        columns = list(dict.fromkeys(key for row in rows for key in row))
        shown = render_rows(columns, rows, fmt, self.header, self.notes, self.extra, width, self.trials)
        forum = fmt in (Format.MARKDOWN, Format.BBCODE) and self.rows
        return "\n\n".join([*said_first(of_study(self) if forum else ""), shown])

    def tables(self) -> list[Table]:
        rows = self._rows(Format.TABLE)
        return [readable(list(dict.fromkeys(key for row in rows for key in row)), rows, self.trials)]


def frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Tidy rows as a pandas DataFrame (for notebooks and further analysis)."""
    import pandas as pd

    return pd.DataFrame(list(rows))
