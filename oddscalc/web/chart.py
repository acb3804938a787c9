"""The page's plots, drawn as SVG by this module for the width they are shown at.

An answer's `Plot` draws itself with a plots module (`plot.draw(plots)`): the command line's
is matplotlib (`oddscalc.output.plots`), the page's is this one, with the same functions
(`distribution`, `event`, `overlay`, `sweep_plot`, `grid_heatmap`, `rounds`) over the same data. Each
returns a `Chart`, which writes its SVG for a width: narrow for a phone, wide for a screen,
the text 12 px or more at the width it is shown. No lock, no global state: a plot takes a few
milliseconds and many are drawn at once. Every bar and point carries its figure in a
`<title>` (a tooltip, read by screen readers and checked by the tests against exact values).
"""

from __future__ import annotations

import math
from html import escape
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..output.plots import MOST_BARS as MOST_BARS  # the page bins as the command line does (`plots.Bars`)
from ..output.plots import Z95, Bars, apart, sweep_data
from ..output.style import number, percent
from .canvas import BLUE, INK, ORANGE, RED, SERIES, Canvas, Chart, Frame, colour, heading, size, swatches, ticks, wrap
from .canvas import GREY as GREY
from .canvas import NARROW as NARROW
from .canvas import WIDE as WIDE


def caption(chart: Chart, text: str) -> None:
    """The page shows the command line under the plot itself: nothing to add to the chart."""


# --- what the plots module draws, drawn here ------------------------------------------------


def bins(dist: Any) -> tuple[list[int], list[int], np.ndarray, np.ndarray, np.ndarray]:
    """A distribution's values in at most MOST_BARS bars, as the command line's plot bins them
    (`plots.Bars`): each bar's first and last value, P(in the bar), its 95 % half-width (sampled),
    and P(≥ its first value)."""
    bars = Bars.of(dist)
    return bars.starts, bars.ends, bars.pmf, bars.errors, bars.at_least


def distribution(dist: Any, name: str, ax: Any = None, title: Optional[str] = None) -> Chart:
    """P(= k) as bars (95 % error bars when sampled) and P(≥ k) as a line, in %; a long pmf in bins."""
    label = name.replace("_", " ")
    mean = number(dist.mean, dist.mean_stderr or None)
    subtitle = f"{label}: mean {mean}, sd {number(dist.sd)}"
    starts, ends, pmf, errors, at_least = bins(dist)
    binned = any(end > start for start, end in zip(starts, ends))

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, subtitle + (f" (bars of {ends[0] - starts[0] + 1} values)" if binned else ""),
                       font)
        canvas.height = top + (220 if width <= NARROW else 300) + 2 * font + 34
        frame = Frame(canvas, 3.2 * font + 8, top + font, width - 10, canvas.height - 2 * font - 24,
                      (-0.5, len(starts) - 0.5), (0, 112))
        frame.y_axis([0, 25, 50, 75, 100], lambda value: f"{value:g}%", "probability", font)
        step = max(1, math.ceil(len(starts) / (8 if width <= NARROW else 16)))
        frame.x_axis([(index, str(starts[index]) if not binned else f"{starts[index]}–{ends[index]}")
                      for index in range(0, len(starts), step)], label, font)
        slot = (frame.right - frame.left) / len(starts)
        for index, (start, end) in enumerate(zip(starts, ends)):
            p, error = pmf[index], errors[index]
            values = f"{label} = {start}" if end == start else f"{label} {start} to {end}"
            x, y = frame.x(index) - 0.4 * slot, frame.y(100 * p)
            canvas.add(f'<rect class="bar" data-k="{start}" data-p="{float(p)!r}" x="{x:.1f}" y="{y:.1f}" '
                       f'width="{0.8 * slot:.1f}" height="{frame.bottom - y:.1f}" fill="{BLUE}"><title>P({values}) = '
                       f'{escape(percent(p, dist.stderr(p) or None))}</title></rect>')
            if error:
                high, low = frame.y(min(100 * (p + error), 112)), frame.y(max(100 * (p - error), 0))
                canvas.add(f'<line x1="{frame.x(index):.1f}" x2="{frame.x(index):.1f}" y1="{low:.1f}" y2="{high:.1f}" '
                           f'stroke="{INK}" stroke-width="1"/>')
        points = " ".join(f"{frame.x(index):.1f},{frame.y(100 * value):.1f}" for index, value in enumerate(at_least))
        canvas.add(f'<polyline points="{points}" fill="none" stroke="{ORANGE}" stroke-width="2"/>')
        room = len(starts) <= (8 if width <= NARROW else 16)
        shown = [percent(value) for value in at_least]
        wide = [len(text) * 0.6 * (font - 1) / 2 for text in shown]  # half a label's width, in px (estimated)
        labelled = set(apart([(frame.x(i) - wide[i], frame.y(100 * v) - 7 - font, frame.x(i) + wide[i],
                               frame.y(100 * v) - 7) for i, v in enumerate(at_least)]))
        for index, value in enumerate(at_least):
            x, y = frame.x(index), frame.y(100 * value)
            canvas.add(f'<circle class="at-least" data-k="{starts[index]}" data-p="{float(value)!r}" cx="{x:.1f}" '
                       f'cy="{y:.1f}" r="3" fill="{ORANGE}"><title>P({label} ≥ {starts[index]}) = '
                       f'{escape(percent(value))}</title></circle>')
            if room and index in labelled:
                canvas.text(x, y - 7, shown[index], anchor="middle", font=font - 1, fill="#A0522D")
        swatches(canvas, frame.right, top, [("P(= k)", BLUE), ("P(≥ k)", ORANGE)], font)
        return canvas.svg(f"{title or ''}: {subtitle}")

    return Chart(f"{title}: {subtitle}", draw)


def event(dist: Any, name: str, ax: Any = None, title: Optional[str] = None) -> Chart:
    """A yes/no outcome as its probability: one bar, with its 95 % interval when sampled."""
    p = dist.at_least(1)
    error = Z95 * dist.stderr(p)
    shown = percent(p, dist.stderr(p) or None)
    interval = f" (95 % interval {percent(max(p - error, 0))} to {percent(min(p + error, 1))})" if error else ""
    subtitle = f"P({name}) = {shown}{interval}"

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, subtitle, font)
        canvas.height = top + 3 * font + 44
        frame = Frame(canvas, 10, top, width - 12, top + 2 * font + 10, (0, 100), (0, 1))
        canvas.add(f'<rect x="{frame.left:.1f}" y="{frame.top:.1f}" width="{frame.right - frame.left:.1f}" '
                   f'height="{frame.bottom - frame.top:.1f}" fill="#eef1f5"/>')
        canvas.add(f'<rect class="bar" data-p="{float(p)!r}" x="{frame.left:.1f}" y="{frame.top:.1f}" '
                   f'width="{frame.x(100 * p) - frame.left:.1f}" height="{frame.bottom - frame.top:.1f}" '
                   f'fill="{BLUE}"><title>P({escape(name)}) = {escape(shown)}</title></rect>')
        if error:
            low, high = frame.x(100 * max(p - error, 0)), frame.x(100 * min(p + error, 1))
            middle = (frame.top + frame.bottom) / 2
            canvas.add(f'<line x1="{low:.1f}" x2="{high:.1f}" y1="{middle:.1f}" y2="{middle:.1f}" stroke="{INK}"/>')
        inside = 100 * p > 70
        canvas.text(frame.left + 6 if inside else frame.x(100 * p) + 6, (frame.top + frame.bottom) / 2 + font / 3,
                    shown, fill="#ffffff" if inside else INK, font=font, weight="600")
        frame.x_axis([(value, f"{value:g}%") for value in (0, 25, 50, 75, 100)], "probability", font)
        return canvas.svg(f"{title or ''}: {subtitle}")

    return Chart(f"{title}: {subtitle}", draw)


def _lines(canvas: Canvas, frame: Frame, series: Sequence[tuple[str, Sequence[float], Sequence[float]]],
           step: bool, tip: Callable[[str, float, float], str]) -> None:
    """One line per series (x values, y values), its points with their figures as tooltips."""
    for index, (name, xs, ys) in enumerate(series):
        stroke = SERIES[index % len(SERIES)]
        points = []
        for position, (x, y) in enumerate(zip(xs, ys)):
            if step and position:
                points.append(f"{frame.x(x - 0.5):.1f},{frame.y(ys[position - 1]):.1f}")
                points.append(f"{frame.x(x - 0.5):.1f},{frame.y(y):.1f}")
            points.append(f"{frame.x(x):.1f},{frame.y(y):.1f}")
        canvas.add(f'<polyline points="{" ".join(points)}" fill="none" stroke="{stroke}" stroke-width="2"/>')
        for x, y in zip(xs, ys):
            canvas.add(f'<circle class="point" data-x="{float(x)!r}" data-y="{float(y)!r}" cx="{frame.x(x):.1f}" '
                       f'cy="{frame.y(y):.1f}" r="3" fill="{stroke}"><title>{escape(tip(name, x, y))}</title></circle>')


def overlay(dists: Sequence[tuple[str, Any]], name: str, ax: Any = None, title: Optional[str] = None) -> Chart:
    """Several distributions' P(≥ k), one line each, the legend under the plot."""
    label = name.replace("_", " ")
    subtitle = f"P({label} ≥ k)"
    last = max(len(dist.pmf) for _, dist in dists) - 1

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, subtitle, font)
        legend = sum(len(wrap(words, width - 40, font)) for words, _ in dists)
        plot_height = 220 if width <= NARROW else 300
        canvas.height = top + plot_height + 2 * font + 40 + legend * (font + 6)
        frame = Frame(canvas, 3.2 * font + 8, top + 4, width - 10, top + plot_height, (-0.5, last + 0.5), (0, 105))
        frame.y_axis([0, 25, 50, 75, 100], lambda value: f"{value:g}%", "P(≥ k)", font)
        frame.x_axis([(k, f"{k:g}") for k in ticks(0, last, 8 if width <= NARROW else 16)], label, font)
        series = [(words, list(range(len(dist.pmf))), list(100 * dist.at_least_all)) for words, dist in dists]
        _lines(canvas, frame, series, True, lambda words, k, y: f"{words}: P({label} ≥ {k:g}) = {y:.4g}%")
        y = frame.bottom + 2 * font + 26
        for index, (words, _) in enumerate(dists):
            canvas.add(f'<rect x="10" y="{y - font + 2:.1f}" width="10" height="10" '
                       f'fill="{SERIES[index % len(SERIES)]}"/>')
            for line in wrap(words, width - 40, font):
                canvas.text(26, y, line, font=font)
                y += font + 6
        return canvas.svg(f"{title or ''}: {subtitle}")

    return Chart(f"{title}: {subtitle}", draw)


def heatmap(values: np.ndarray, rows: Sequence[str], columns: Sequence[str], label: str, probability: bool,
            title: str, subtitle: str, x_title: str = "", y_title: str = "") -> Chart:
    """A matrix of values, each cell coloured by its value and carrying it (as a tooltip, and as text when
    there is room)."""
    finite = values[np.isfinite(values)]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)

    def shown(value: float) -> str:
        return percent(value) if probability else number(value)

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, f"{subtitle} (colour: {label})", font)
        left = min(max(len(row) for row in rows) * 0.55 * font + 12, width * 0.45)
        cell_width = max((width - left - 10) / len(columns), 2 * font)
        canvas.width = max(width, int(left + cell_width * len(columns) + 10))
        cell_height = 1.9 * font
        head = min(max(len(column) for column in columns) * 0.5 * font + 10, 10 * font)
        canvas.height = top + head + cell_height * len(rows) + 10
        grid_top = top + head
        for j, column in enumerate(columns):
            x = left + (j + 0.5) * cell_width
            canvas.text(x, grid_top - 6, column[:28], anchor="start", font=font - 1, rotate=-45, title=column)
        for i, row in enumerate(rows):
            y = grid_top + i * cell_height
            canvas.text(left - 6, y + cell_height / 2 + font / 3, row[:48], anchor="end", font=font - 1, title=row)
            for j, column in enumerate(columns):
                value = values[i, j]
                x = left + j * cell_width
                if not np.isfinite(value):
                    canvas.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell_width:.1f}" height="{cell_height:.1f}" '
                               f'fill="#ffffff" stroke="{GREY}"><title>{escape(row)} → {escape(column)}: none'
                               '</title></rect>')
                    continue
                share = (value - low) / (high - low) if high > low else 0.5
                canvas.add(f'<rect class="cell" data-v="{float(value)!r}" x="{x:.1f}" y="{y:.1f}" width="{cell_width:.1f}" '
                           f'height="{cell_height:.1f}" fill="{colour(share)}"><title>{escape(row)} → '
                           f'{escape(column)}: {escape(shown(value))}</title></rect>')
                if cell_width >= 3.2 * font:
                    canvas.text(x + cell_width / 2, y + cell_height / 2 + font / 3, shown(value), anchor="middle",
                                font=font - 1, fill="#ffffff" if share < 0.5 else INK)
        return canvas.svg(f"{title}: {subtitle}")

    return Chart(f"{title}: {subtitle}", draw)


def sweep_plot(found: Any, statistic: Any, ax: Any = None, title: Optional[str] = None) -> Chart:
    """A sweep: the statistic against one varied option with 95 % error bars (the goal's line and the
    value that reaches it), or a heatmap over two."""

    data = sweep_data(found, statistic)
    if data.grid is not None:
        rows, columns, values = data.grid
        return heatmap(values, [f"{data.names[0]}={row}" for row in rows],
                       [f"{data.names[1]}={column}" for column in columns], data.label, data.percent, title or "",
                       f"{data.label} by {data.names[0]} and {data.names[1]}")
    unit = "%" if data.percent else ""

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, data.subtitle, font)
        canvas.height = top + (220 if width <= NARROW else 300) + 2 * font + 34
        low = min(min(y - e for y, e in zip(data.ys, data.errors)), data.goal[0] if data.goal else math.inf, 0)
        high = max(max(y + e for y, e in zip(data.ys, data.errors)), data.goal[0] if data.goal else -math.inf)
        high = 105 if data.percent else high + 0.05 * ((high - low) or 1)
        span = (min(data.positions) - 0.5, max(data.positions) + 0.5)
        frame = Frame(canvas, 3.6 * font + 8, top + 4, width - 10, canvas.height - 2 * font - 24, span, (low, high))
        frame.y_axis(ticks(low, high, 6), lambda value: f"{value:g}{unit}", data.label, font)
        shown = list(zip(data.positions, data.xs))
        step = max(1, math.ceil(len(shown) / (8 if width <= NARROW else 16)))
        frame.x_axis(shown[::step], data.names[0], font)
        for x, y, error in zip(data.positions, data.ys, data.errors):
            if error:
                canvas.add(f'<line x1="{frame.x(x):.1f}" x2="{frame.x(x):.1f}" y1="{frame.y(y - error):.1f}" '
                           f'y2="{frame.y(y + error):.1f}" stroke="{INK}" stroke-width="1"/>')
        named = dict(zip(data.positions, data.xs))
        _lines(canvas, frame, [(data.label, data.positions, data.ys)], False,
               lambda words, x, y: f"{data.names[0]} = {named[x]}: {words} {y:.4g}{unit}")
        if data.goal is not None:
            y = frame.y(data.goal[0])
            canvas.add(f'<line x1="{frame.left:.1f}" x2="{frame.right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{RED}" '
                       f'stroke-dasharray="6 4"><title>goal {escape(data.goal[1])}</title></line>')
        if data.reached is not None:
            x, y = frame.x(data.positions[data.reached]), frame.y(data.ys[data.reached])
            canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="none" stroke="{RED}" stroke-width="2"/>')
        return canvas.svg(f"{title or ''}: {data.subtitle}")

    return Chart(f"{title}: {data.subtitle}", draw)


def rounds(result: Any, title: Optional[str] = None) -> Chart:
    """A fight of rounds: bars of P(the fight is decided in round k), and under them each side's Health Points
    lost by the end of each round (`plot_rounds.rounds_data`, the command line's figures)."""
    from ..output.plot_rounds import CHARGED, CHARGER, describe, rounds_data

    data = rounds_data(result)
    going = f"; still fighting after round {data.rounds[-1]}: {percent(data.undecided / 100)}" \
        if data.undecided > 0.005 else ""
    subtitle = f"in which round the fight is decided, and what each side has lost{going}"
    last = data.rounds[-1]

    def draw(width: int) -> str:
        font = size(width)
        canvas = Canvas(width, 0)
        top = heading(canvas, title, subtitle, font)
        panel = 150 if width <= NARROW else 200
        legend = top + font + 2 * panel + 4 * font + 40  # under the lower panel's round numbers and its title
        canvas.height = legend + 2 * (font + 6) + 4
        span = (0.5, last + 0.5)
        upper = Frame(canvas, 3.6 * font + 8, top + font, width - 10, top + panel, span,
                      (0, max([*data.decided, 1.0]) * 1.25))
        upper.y_axis(ticks(0, upper.y_range[1], 4), lambda value: f"{value:g}%", "decided", font)
        slot = (upper.right - upper.left) / last
        for k, share, error in zip(data.rounds, data.decided, data.decided_errors):
            x, y = upper.x(k) - 0.35 * slot, upper.y(share)
            canvas.add(f'<rect class="bar" data-round="{k}" data-p="{share / 100!r}" x="{x:.1f}" y="{y:.1f}" '
                       f'width="{0.7 * slot:.1f}" height="{upper.bottom - y:.1f}" fill="{CHARGER}"><title>decided in '
                       f'round {k}: {escape(percent(share / 100))}</title></rect>')
            if error:
                low, high = upper.y(max(share - error, 0)), upper.y(share + error)
                canvas.add(f'<line x1="{upper.x(k):.1f}" x2="{upper.x(k):.1f}" y1="{low:.1f}" y2="{high:.1f}" '
                           f'stroke="{INK}" stroke-width="1"/>')
            if slot >= 2.6 * font and share >= 0.05:  # a share too small to see, in its tooltip only
                canvas.text(upper.x(k), y - 4, percent(share / 100), anchor="middle", font=font - 1)
        high = max(max(mean + error for mean, error in zip(means, errors)) for _, means, errors in data.lost)
        lower = Frame(canvas, upper.left, upper.bottom + font + 16, upper.right, upper.bottom + font + 16 + panel,
                      span, (0, high * 1.1 or 1))
        lower.y_axis(ticks(0, lower.y_range[1], 6), lambda value: f"{value:g}", "Health Points lost", font)
        lower.x_axis([(k, str(k)) for k in data.rounds], "round", font)
        for (label, means, errors), stroke in zip(data.lost, (CHARGER, CHARGED)):
            points = " ".join(f"{lower.x(k):.1f},{lower.y(mean):.1f}" for k, mean in zip(data.rounds, means))
            canvas.add(f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2"/>')
            for k, mean in zip(data.rounds, means):
                canvas.add(f'<circle class="point" data-round="{k}" data-y="{float(mean)!r}" cx="{lower.x(k):.1f}" '
                           f'cy="{lower.y(mean):.1f}" r="3" fill="{stroke}"><title>{escape(label)}: '
                           f'{escape(number(mean))} Health Points lost by the end of round {k}</title></circle>')
        y = legend
        for (label, _, _), fill in zip(data.lost, (CHARGER, CHARGED)):
            canvas.add(f'<rect x="10" y="{y - font + 2:.1f}" width="10" height="10" fill="{fill}"/>')
            canvas.text(26, y, f"{label}: Health Points lost by the end of each round", font=font)
            y += font + 6
        return canvas.svg(f"{title or ''}: {describe(data)}")

    return Chart(f"{title}: {subtitle}", draw)


def grid_heatmap(found: Any, statistic: Any = None, ax: Any = None) -> Chart:
    """A roster grid: a statistic per (attacker: weapon, target)."""
    from ..output.style import is_probability

    values, rows, columns, label = found.matrix(statistic)
    first = next(result for result in found.results if result is not None)
    probability = is_probability(statistic) if isinstance(statistic, str) else \
        (statistic is not None and statistic.is_probability(first))
    return heatmap(values, rows, columns, label, probability, found.heading,
                   f"attacker: weapon by target{found.blank_means(values)}")
