"""Plots for forum posts: pmf bars with the P(≥ k) curve, heatmaps, overlays.

matplotlib enters only here (and in plot_axes.py: a figure's axes and titles), imported when a
plot is drawn. Plot functions take `ax=None` and return the axes; `save` writes a figure atomically (a failed save
leaves no file behind).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..core.distribution import Distribution
from ..errors import InputError
from .plot_axes import Z95 as Z95
from .plot_axes import axes as _axes
from .plot_axes import title as _title
from .style import number, percent
from ..core.record import record

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUFFIXES = (".png", ".svg", ".pdf")
MAX_HEATMAP = 200  # rows or columns: more cannot be read, and the figure would take gigabytes
MAX_INCHES = 40
DPI = 150
MAX_PIXELS = 12_000_000  # a large heatmap is saved at a lower resolution: its memory stays a few hundred MiB


def check_path(path: str | os.PathLike[str], name: str = "plot") -> Path:
    """Refuse, before any work, a plot path that could not be written (`files.check_writable`)."""
    from ..core.files import check_writable

    return check_writable(path, name, SUFFIXES)


@record
class Bars:
    """A distribution's values as at most MOST_BARS bars (a pmf of thousands of values is drawn in bins
    of `width` values): each bar's first and last value, P(in it), its 95 % half-width when sampled,
    and P(≥ its first value)."""

    starts: list[int]
    ends: list[int]
    pmf: np.ndarray
    errors: np.ndarray
    at_least: np.ndarray

    @property
    def width(self) -> int:
        return self.ends[0] - self.starts[0] + 1

    @classmethod
    def of(cls, dist: Distribution) -> Bars:
        first = int(np.flatnonzero(dist.pmf)[0]) if dist.pmf.any() else 0
        last = len(dist.pmf) - 1
        width = max(1, -(-(last - first + 1) // MOST_BARS))
        starts = list(range(first, last + 1, width))
        ends = [min(start + width - 1, last) for start in starts]
        pmf = np.add.reduceat(dist.pmf[first:], np.arange(0, last - first + 1, width))
        errors = np.zeros(len(pmf)) if dist.exact else np.array([Z95 * dist.stderr(p) for p in pmf])
        return cls(starts, ends, pmf, errors, dist.at_least_all[starts])


MOST_BARS = 60  # a plot of more values draws them in bins: a pmf of 19,801 values draws as fast as one of 60


def apart(boxes: Sequence[tuple[float, float, float, float]]) -> list[int]:
    """Which labels to draw, given each one's box (x0, y0, x1, y1): each in turn, less one that would
    overlap a label already kept (a tail of P(≥ k) labels, 0.0185%, 0.0017%, ..., would print them over
    one another). The plots of both shells keep their labels apart with it."""
    kept: list[int] = []
    for index, (x0, y0, x1, y1) in enumerate(boxes):
        if all(x1 <= boxes[k][0] or boxes[k][2] <= x0 or y1 <= boxes[k][1] or boxes[k][3] <= y0 for k in kept):
            kept.append(index)
    return kept


def _Apart(labels: Sequence[Any]) -> Any:
    """An invisible artist that, drawn just before `labels` (a lower zorder), shows only the labels
    `apart` keeps, measured where the layout has put them: the figure is drawn once, not once more
    to measure."""
    from matplotlib.artist import Artist

    class Apart(Artist):
        zorder = min(label.get_zorder() for label in labels) - 0.5

        def draw(self, renderer: Any) -> None:
            for label in labels:
                label.set_visible(True)
            kept = set(apart([tuple(label.get_window_extent(renderer).extents) for label in labels]))
            for index, label in enumerate(labels):
                label.set_visible(index in kept)

    return Apart()


def distribution(dist: Distribution, name: str, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw P(= k) as bars (95 % error bars when sampled) and P(≥ k) as a line, both in % on one axis;
    a long pmf in bins (`Bars`)."""
    ax = _axes(ax)
    bars = Bars.of(dist)
    ks = np.array(bars.starts)
    pmf = bars.pmf * 100
    errors = None if dist.exact else bars.errors * 100
    ax.bar(ks, pmf, width=0.8 * bars.width, align="edge" if bars.width > 1 else "center", color="#4C72B0",
           yerr=errors, capsize=2 if errors is not None else 0, label="P(= k)" if bars.width == 1 else
           f"P(in a bar of {bars.width})")
    at_least = bars.at_least * 100
    ax.plot(ks, at_least, color="#DD8452", marker="o" if len(ks) <= MOST_BARS else None, label="P(≥ k)")
    ax.set_xlabel(name.replace("_", " "))
    ax.set_ylabel("probability, %")
    ax.set_ylim(0, 112)
    if len(ks) <= 30 and bars.width == 1:
        ax.set_xticks(ks)
    if len(ks) <= 16:
        labels = [ax.annotate(percent(value / 100), (k, value), textcoords="offset points", xytext=(0, 7),
                              ha="center", fontsize=8, color="#A0522D",
                              bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
                  for k, value in zip(ks, at_least)]
        ax.add_artist(_Apart(labels))  # which labels are drawn is decided when the figure is
    mean = number(dist.mean, dist.mean_stderr or None)
    _title(ax, title, f"{name.replace('_', ' ')}: mean {mean}, sd {number(dist.sd)}")
    ax.legend(loc="upper right", frameon=False, fontsize=9)
    return ax


TRACK = "#E3E6EA"  # a yes/no outcome's 100 % behind its bar


def event(dist: Distribution, name: str, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw a yes/no outcome as its probability: its bar (with its 95 % interval when sampled) over a track of
    100 %, so that a reader sees the odds against the whole and never one bar alone."""
    ax = _axes(ax, (8, 2.6))
    p = dist.at_least(1)
    error = Z95 * dist.stderr(p) * 100
    ax.barh([0], [100], color=TRACK, height=0.5, label="100 %")  # the whole: what the bar is out of
    ax.barh([0], [100 * p], color="#4C72B0", xerr=[error] if error else None, capsize=4, height=0.5)
    ax.set_xlim(0, 100)
    ax.set_yticks([0], [f"P({name})"])
    ax.set_xlabel("probability, %")
    shown = percent(p, dist.stderr(p) or None)
    if 100 * p + error > 70:  # no room right of the bar and its interval: inside the bar, from its start, in white
        ax.annotate(shown, (0, 0), textcoords="offset points", xytext=(6, 0), va="center", color="white")
    else:  # right of the bar's end and of its error bar's cap
        ax.annotate(shown, (100 * p + error, 0), textcoords="offset points", xytext=(8, 0), va="center")
    interval = f" (95 % interval {percent(max(p - error / 100, 0))} to {percent(min(p + error / 100, 1))})" \
        if error else ""
    _title(ax, title, f"P({name}) = {shown}{interval}")
    return ax


def overlay(dists: Sequence[tuple[str, Distribution]], name: str, ax: Axes | None = None,
            title: str | None = None) -> Axes:
    """Draw several distributions' P(≥ k) curves on one axes, the legend below it (never over the data)."""
    ax = _axes(ax, (8, 4.8 + 0.25 * len(dists)))
    for label, dist in dists:
        ax.step(dist.outcomes, dist.at_least_all * 100, where="mid", marker="o", label=label)
    ax.set_xlabel(name.replace("_", " "))
    ax.set_ylabel("P(≥ k), %")
    ax.set_ylim(0, 105)
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(0, -0.14), fontsize=8)
    _title(ax, title, f"P({name.replace('_', ' ')} ≥ k)")
    return ax


def heatmap(values: np.ndarray, rows: Sequence[str], columns: Sequence[str], label: str,
            ax: Axes | None = None, probability: bool = False) -> Axes:
    """Draw a matrix of values with labelled rows and columns and the value in each cell
    (in the one number style; as percentages when the values are probabilities)."""
    for what, count in (("rows", len(rows)), ("columns", len(columns))):
        if count > MAX_HEATMAP:
            raise InputError("plot", f"a heatmap of {count} {what}",
                             f"too large to draw (at most {MAX_HEATMAP}); choose fewer --attackers or --targets")
    size = (min(max(8, 0.9 * len(columns) + 3), MAX_INCHES), min(max(4, 0.5 * len(rows) + 2), MAX_INCHES))
    ax = _axes(ax, size)
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(columns)), columns, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    finite = values[np.isfinite(values)]
    middle = (finite.max() + finite.min()) / 2 if finite.size else 0
    if values.size <= 400:
        for (i, j), value in np.ndenumerate(values):
            if np.isfinite(value):
                ax.text(j, i, percent(value) if probability else number(value), ha="center", va="center",
                        fontsize=8, color="white" if value < middle else "black")
    bar = ax.figure.colorbar(image, ax=ax, label=label + (", %" if probability else ""))
    if probability:
        bar.ax.yaxis.set_major_formatter(lambda value, _: number(100 * value))
    return ax


def panels(count: int, size: tuple[float, float]) -> list[Axes]:
    """`count` axes side by side on one new figure (a study's two views of its rows)."""
    first = _axes(None, size)
    figure = first.figure
    first.remove()
    return list(figure.subplots(1, count, gridspec_kw={"width_ratios": [3, 2][:count]}))


def ranking(labels: Sequence[str], indexes: Sequence[float], kinds: Sequence[str], far: float,
            ax: Axes | None = None, title: str | None = None, order: Sequence[str] | None = None) -> Axes:
    """Entries' indexes as horizontal bars (1: the median of its kind), one colour per kind, each bar labelled
    with its index, and the outlier lines at `far` and 1/`far`."""
    ax = _axes(ax, (9, max(4, 0.32 * len(labels) + 1.5)))
    order = list(order or sorted(set(kinds)))  # each kind's colour: its place in `order`
    colours = {kind: f"C{order.index(kind) % 10}" for kind in order}
    positions = range(len(labels))[::-1]
    ax.barh(list(positions), indexes, color=[colours[kind] for kind in kinds])
    for y, value in zip(positions, indexes):
        ax.text(value, y, f" {number(value)}", va="center", fontsize=8)
    ax.set_yticks(list(positions), labels, fontsize=8)
    for x in (1 / far, 1, far):
        ax.axvline(x, color="grey", linewidth=0.8, linestyle="-" if x == 1 else ":")
    ax.set_xscale("log")
    ax.set_xlabel("index: its value over its kind's median (log scale; dotted: the outlier lines)")
    from matplotlib.patches import Patch

    handles = [Patch(color=colours[kind], label=kind) for kind in order if kind in kinds]
    ax.legend(handles=handles, frameon=False, fontsize=8, loc="lower right")
    _title(ax, title, "")
    return ax


def value_points(points: Sequence[float], values: Sequence[float], kinds: Sequence[str], ax: Axes | None = None,
                 title: str | None = None, order: Sequence[str] | None = None) -> Axes:
    """Each entry's value per 100 points against its points, one colour per kind, with each kind's median value
    as a line of its colour."""
    ax = _axes(ax)
    for number_, kind in enumerate(order or sorted(set(kinds))):
        chosen = [(x, y) for x, y, k in zip(points, values, kinds) if k == kind]
        if not chosen:
            continue
        xs, ys = zip(*chosen)
        colour = f"C{number_ % 10}"
        ax.scatter(xs, ys, s=8, color=colour, label=kind, alpha=0.7)
        ax.axhline(float(np.median(ys)), color=colour, linewidth=0.8)
    ax.set_xlabel("points")
    ax.set_ylabel("value per 100 points")
    ax.set_yscale("log")
    ax.legend(frameon=False, fontsize=8)
    _title(ax, title, "")
    return ax


def line(xs: Sequence[float], series: Sequence[tuple[str, Sequence[float]]], xlabel: str, ylabel: str,
         ax: Axes | None = None) -> Axes:
    """Draw one line per series against xs."""
    ax = _axes(ax)
    for label, ys in series:
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if len(series) > 1:
        ax.legend(frameon=False)
    return ax


@record
class SweepData:
    """What a sweep's plot shows, whoever draws it: the varied options' names, the first one's values
    (as typed, and where they go on the axis), the statistic (scaled: % for a probability) with its
    95 % half-widths, the goal's line and the value that reaches it; over two options, the grid."""

    names: list[str]
    xs: list[str]
    positions: list[float]
    numeric: bool
    ys: list[float]
    errors: list[float]
    label: str
    percent: bool
    subtitle: str
    goal: tuple[float, str] | None = None  # the goal's line (scaled) and its words
    reached: int | None = None  # the index of the value that reaches it
    reached_label: str = ""
    grid: tuple[list[str], list[str], np.ndarray] | None = None  # rows, columns, values over two options


def sweep_data(found: Any, statistic: Any) -> SweepData:
    """What a sweep (`studies.Sweep`) plots of a statistic."""
    from ..core.attack import text

    values = [statistic.value(result) for result in found.results]
    label = statistic.label(found.results[0])
    scale = 100 if statistic.is_probability(found.results[0]) else 1
    names = [name.replace("_", "-") for name in found.names]
    cells = [[text(value) for value in cell] for cell in found.cells]
    if len(names) > 1:
        rows = list(dict.fromkeys(cell[0] for cell in cells))
        columns = list(dict.fromkeys(cell[1] for cell in cells))
        grid = np.full((len(rows), len(columns)), np.nan)
        for cell, (value, _) in zip(cells, values):
            grid[rows.index(cell[0]), columns.index(cell[1])] = value
        return SweepData(names, [], [], False, [], [], label, scale == 100, f"{label} by {names[0]} and {names[1]}",
                         grid=(rows, columns, grid))
    xs = [cell[0] for cell in cells]
    numeric = all(_is_number(x) for x in xs)
    positions = [float(x) for x in xs] if numeric else [float(index) for index in range(len(xs))]
    subtitle, goal, reached, reached_label = f"{label} by {names[0]}", None, None, ""
    if found.goal is not None:
        wanted = found.goal.words(found.results[0])  # P(broken) ≥ 50%, as the axis reads it
        goal = (scale * found.goal.target, wanted)
        if found.reached is not None:
            reached, reached_label = found.reached, f"{found.seek} {names[0]}: {xs[found.reached]}"
            subtitle += f"; goal {wanted}: {names[0]} = {xs[found.reached]}"
        else:
            subtitle += f"; goal {wanted} not reached"
    return SweepData(names, xs, positions, numeric, [scale * v for v, _ in values],
                     [scale * Z95 * e for _, e in values], label, scale == 100, subtitle, goal, reached, reached_label)


def sweep_plot(found: Any, statistic: Any, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw a sweep (`studies.Sweep`): the statistic against one varied option with 95 % error
    bars (in % for a probability, with the goal's line and the value that reaches it), or a
    heatmap over two."""
    data = sweep_data(found, statistic)
    if data.grid is not None:
        rows, columns, grid = data.grid
        ax = heatmap(grid, [f"{data.names[0]}={r}" for r in rows], [f"{data.names[1]}={c}" for c in columns],
                     data.label, ax=ax, probability=data.percent)
        _title(ax, title, data.subtitle)
        return ax
    ax = line(data.positions, [(data.label, data.ys)], data.names[0], data.label + (", %" if data.percent else ""),
              ax=ax)
    ax.errorbar(data.positions, data.ys, yerr=data.errors, fmt="none", ecolor="black", capsize=2)
    if data.percent:
        ax.set_ylim(0, 105)
    if not data.numeric:
        ax.set_xticks(data.positions, data.xs)
    else:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if data.goal is not None:
        ax.axhline(data.goal[0], color="#C44E52", linestyle="--", label=f"goal {data.goal[1]}")
        if data.reached is not None:
            ax.plot([data.positions[data.reached]], [data.ys[data.reached]], marker="o", markersize=12,
                    markerfacecolor="none", color="#C44E52", label=data.reached_label)
        ax.legend(frameon=False, fontsize=8)
    _title(ax, title, data.subtitle)
    return ax


def rounds(result: Any, title: str | None = None) -> Axes:
    """A fight of rounds (`t9a combat --by-round`): in which round it is decided, what each side has lost
    (`plot_rounds`, its figures shared with the page's `web/chart.py:rounds`)."""
    from .plot_rounds import rounds as drawn

    axes: Axes = drawn(result, title)
    return axes


def grid_heatmap(found: Any, statistic: Any = None, ax: Axes | None = None) -> Axes:
    """Draw a roster grid (`grid.Grid`): a statistic per (attacker: weapon, target)."""
    from .style import is_probability

    values, row_labels, column_labels, label = found.matrix(statistic)
    first = next(result for result in found.results if result is not None)
    probability = is_probability(statistic) if isinstance(statistic, str) else \
        (statistic is not None and statistic.is_probability(first))
    ax = heatmap(values, row_labels, column_labels, label, ax=ax, probability=probability)
    _title(ax, found.heading, label + found.blank_means(values))
    ax.set_xlabel("target")
    ax.set_ylabel("attacker: weapon")
    return ax


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


CAPTION_POINTS = 7  # the footer's font size
CHARACTERS_PER_INCH = 16  # of that font, with room to spare (wrapped by us, so its height is known)


def caption(figure: Figure, text: str) -> None:
    """Put a small footer under the figure (the command, seed, method and version), wrapped to the
    figure's width, and keep the plot above it whatever its length."""
    import textwrap

    width, height = figure.get_size_inches()
    lines = textwrap.wrap(text, max(int(width * CHARACTERS_PER_INCH), 20), break_on_hyphens=False) or [""]
    figure.text(0.01, 0.005, "\n".join(lines), fontsize=CAPTION_POINTS, color="#555555", ha="left", va="bottom")
    room = (len(lines) * CAPTION_POINTS * 1.3 + 6) / 72 / height  # the footer's height, as a share of the figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

    engine = figure.get_layout_engine()
    if isinstance(engine, (ConstrainedLayoutEngine, TightLayoutEngine)):  # the engines that keep to a rectangle
        engine.set(rect=(0, room, 1, 1 - room))


def dpi_for(figure: Figure) -> float:
    """The resolution to save a figure at: DPI, or less for a figure over MAX_PIXELS."""
    width, height = figure.get_size_inches()
    return float(min(DPI, (MAX_PIXELS / (width * height)) ** 0.5))


def save(figure: Figure, path: str | os.PathLike[str]) -> Path:
    """Save the figure to path atomically."""
    from ..core.files import replace_atomically

    path = check_path(path)
    dpi = dpi_for(figure)
    replace_atomically(path, lambda temporary: figure.savefig(temporary, format=path.suffix[1:].lower(), dpi=dpi))
    return path
