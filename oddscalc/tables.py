"""Tables in every output format: terminal text, JSON, CSV, markdown and bbcode.

One `Table` value and one renderer per format serve the query results here and the
grids and sweeps of the studies. pandas enters only through `from_frame`.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Sequence

from . import __version__
from .engine import Result

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

MAX_ROWS = 40  # a longer pmf shows only the rows at or above ROW_FLOOR
ROW_FLOOR = 0.0005


class Format(str, Enum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"
    BBCODE = "bbcode"


@dataclass(frozen=True)
class Table:
    """Rows of cells under named columns, with an optional title and notes below."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    title: str = ""
    notes: tuple[str, ...] = field(default=())

    def text(self) -> str:
        cells = [list(self.columns)] + [[_cell(value) for value in row] for row in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        # text columns read left to right; numbers (and number ± error) line up on the right
        left = [all(isinstance(row[i], str) and not _numeric(row[i]) for row in self.rows) for i in range(len(widths))]
        lines = [self.title] if self.title else []
        for n, row in enumerate(cells):
            lines.append("  ".join(c.ljust(w) if left[i] or n == 0 and left[i] else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(row, widths))).rstrip())
            if n == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines + list(self.notes))

    def markdown(self) -> str:
        lines = [f"**{self.title}**", ""] if self.title else []
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "|".join("---:" if i else ":---" for i in range(len(self.columns))) + "|")
        lines += ["| " + " | ".join(_cell(v).replace("|", "\\|") for v in row) + " |" for row in self.rows]
        return "\n".join(lines + [f"\n_{note}_" for note in self.notes])

    def bbcode(self) -> str:
        lines = [f"[b]{self.title}[/b]"] if self.title else []
        lines.append("[table]")
        lines.append("[tr]" + "".join(f"[th]{c}[/th]" for c in self.columns) + "[/tr]")
        lines += ["[tr]" + "".join(f"[td]{_cell(v)}[/td]" for v in row) + "[/tr]" for row in self.rows]
        lines.append("[/table]")
        return "\n".join(lines + [f"[i]{note}[/i]" for note in self.notes])

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        return out.getvalue()

    def render(self, fmt: Format) -> str:
        if fmt is Format.JSON:
            return json.dumps([dict(zip(self.columns, row)) for row in self.rows], indent=2, default=_plain)
        return getattr(self, fmt.value)()


def _numeric(text: str) -> bool:
    head = text.split(" ± ")[0].rstrip("%")
    try:
        float(head)
        return True
    except ValueError:
        return head in ("-", "")


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return _significant(value)
    return str(value)


def percent(p: float, stderr: float | None = None) -> str:
    """Show a probability as a percentage, with its standard error when sampled."""
    if p == 0:
        text = "0%"
    elif p < 5e-5:
        text = f"{100 * p:.1e}%"
    else:
        text = f"{100 * p:.2f}%"
    return f"{text} ± {100 * stderr:.2f}" if stderr else text


def _significant(value: float) -> str:
    """Four significant digits, without scientific notation for big totals."""
    return f"{value:.1f}" if abs(value) >= 1e4 else f"{value:.4g}"


def number(value: float, stderr: float | None = None) -> str:
    text = _significant(value)
    return f"{text} ± {stderr:.2g}" if stderr else text


def provenance(method: str, trials: int | None, seed: int | None, per_cell: bool = False) -> str:
    """The one line that says how an answer was made: version, method, trials and seed."""
    if method == "exact":
        return f"oddscalc {__version__} · exact"
    return (f"oddscalc {__version__} · Monte Carlo, {trials:,} trials{' per cell' if per_cell else ''}, "
            f"seed {seed}")


def describe(result: Result) -> str:
    """How a result was made (`provenance` of its method, trials and seed)."""
    return provenance(result.method, result.trials, result.seed)


def pmf_table(result: Result, name: str | None = None) -> Table:
    """The main outcome (or `name`): k, P(= k), P(≥ k), with standard errors when sampled."""
    name = name or result.main
    distribution = result[name]
    sampled = not distribution.exact
    ks = [k for k in distribution.outcomes if distribution.pmf[k] > 0]
    notes: tuple[str, ...] = ()
    if len(ks) > MAX_ROWS:
        ks = [k for k in ks if distribution.pmf[k] >= ROW_FLOOR]
        notes = (f"rows with P(= k) below {percent(ROW_FLOOR)} are not shown",)
    rows = []
    for k in ks:
        p, at_least = distribution.probability(k), distribution.at_least(k)
        rows.append(
            (
                int(k),
                percent(p, distribution.stderr(p) if sampled else None),
                percent(at_least, distribution.stderr(at_least) if sampled else None),
            )
        )
    return Table((name, "P(= k)", "P(≥ k)"), tuple(rows), notes=notes)


def summary_table(result: Result) -> Table:
    """Every outcome: mean (± standard error), sd, median, 10th and 90th percentiles."""
    rows = []
    for name, distribution in result.outcomes.items():
        rows.append(
            (
                name,
                number(distribution.mean, distribution.mean_stderr or None),
                number(distribution.sd),
                distribution.median,
                distribution.quantile(0.1),
                distribution.quantile(0.9),
            )
        )
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


def result_json(result: Result, command: str) -> dict[str, Any]:
    """The JSON object of the command-line contract."""
    outcomes = {}
    for name, distribution in result.outcomes.items():
        outcomes[name] = {
            "mean": distribution.mean,
            "sd": distribution.sd,
            "mean_stderr": distribution.mean_stderr,
            "pmf": distribution.pmf.tolist(),
            "at_least": distribution.at_least_all.tolist(),
        }
    data: dict[str, Any] = {
        "oddscalc": __version__,
        "command": command,
        "method": result.method,
        "trials": result.trials,
        "seed": result.seed,
        "outcomes": outcomes,
    }
    if result.precision_reached is not None:
        data["precision_reached"] = result.precision_reached
    if result.verification:
        data["verify"] = {
            name: {"cdf_gap": check.gap, "bound": check.bound, "alpha": check.alpha, "within": check.within}
            for name, check in result.verification.items()
        }
    return data


def result_csv(result: Result) -> str:
    """Tidy rows, one per outcome and value: P(= k), P(≥ k) and their standard errors."""
    rows = []
    for name, distribution in result.outcomes.items():
        at_least = distribution.at_least_all
        for k, p in enumerate(distribution.pmf):
            rows.append(
                (name, k, repr(float(p)), repr(float(at_least[k])), distribution.stderr(p), distribution.stderr(at_least[k]))
            )
    columns = ("outcome", "k", "probability", "at_least", "probability_stderr", "at_least_stderr")
    return Table(columns, tuple(rows)).csv()


def render_result(result: Result, fmt: Format, command: str) -> str:
    """Render a query result in one of the five formats."""
    if fmt is Format.JSON:
        return json.dumps(result_json(result, command), indent=2)
    if fmt is Format.CSV:
        return result_csv(result)
    title = f"{command}\n{describe(result)}"
    pieces = [pmf_table(result), summary_table(result)]
    notes = verification_notes(result)
    if fmt is Format.TABLE:
        body = "\n\n".join(piece.text() for piece in pieces)
        return "\n".join([title, "", body, *([""] + list(notes) if notes else [])])
    if fmt is Format.MARKDOWN:
        head = f"`{command}`  \n{describe(result)}"
        body = "\n\n".join(piece.markdown() for piece in pieces)
        return "\n\n".join([head, body, *notes])
    head = f"[code]{command}[/code]\n{describe(result)}"
    return "\n\n".join([head, *(piece.bbcode() for piece in pieces), *notes])


def render_rows(columns: Sequence[str], rows: Sequence[dict], fmt: Format, header: dict[str, Any],
                notes: Sequence[str] = (), extra: dict[str, Any] | None = None) -> str:
    """Render a study's tidy rows with a header saying how they were made."""
    if fmt is Format.JSON:
        data = {"oddscalc": __version__, **header, "rows": list(rows), **(extra or {})}
        return json.dumps(data, indent=2, default=_plain)
    if fmt is Format.CSV:
        return Table(tuple(columns), tuple(tuple(row.get(c, "") for c in columns) for row in rows)).csv()
    table = _with_errors(columns, rows)
    method = header.get("method")
    line = f"oddscalc {__version__}" if method is None else provenance(method, header["trials"], header["seed"], True)
    if fmt is Format.TABLE:
        return "\n".join([header["command"], line, "", table.text(), *([""] + list(notes) if notes else [])])
    if fmt is Format.MARKDOWN:
        return "\n\n".join([f"`{header['command']}`  \n{line}", table.markdown(), *notes])
    return "\n\n".join([f"[code]{header['command']}[/code]\n{line}", table.bbcode(), *notes])


def _error_column(column: str) -> str:
    return "mean_stderr" if column == "mean" else f"{column}_stderr"


def _with_errors(columns: Sequence[str], rows: Sequence[dict]) -> Table:
    """For people: show `value ± stderr` in one cell instead of two columns."""
    shown = [c for c in columns if not (c.endswith("_stderr") and c.removesuffix("_stderr") in columns)
             and not (c == "mean_stderr" and "mean" in columns)]
    cells = []
    for row in rows:
        line = []
        for column in shown:
            value, error = row.get(column, ""), row.get(_error_column(column))
            line.append(f"{_cell(value)} ± {error:.2g}" if isinstance(value, float) and error else value)
        cells.append(tuple(line))
    return Table(tuple(shown), tuple(cells))


def frame(rows: Sequence[dict]) -> pd.DataFrame:
    """Tidy rows as a pandas DataFrame (for notebooks and further analysis)."""
    import pandas as pd

    return pd.DataFrame(list(rows))
