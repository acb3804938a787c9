"""Plots for forum posts: pmf bars with the P(≥ k) curve, heatmaps, overlays.

matplotlib enters only here, imported when a plot is drawn. Plot functions take
`ax=None` and return the axes; `save` writes a figure atomically (a failed save
leaves no file behind).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .distribution import Distribution
from .errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUFFIXES = (".png", ".svg", ".pdf")
Z95 = 1.96
MAX_HEATMAP = 200  # rows or columns: more cannot be read, and the figure would take gigabytes
MAX_INCHES = 40


def check_path(path: str | os.PathLike, name: str = "plot") -> Path:
    """Refuse, before any work, a plot path that could not be written: checked as a file is made."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise InputError(name, str(path), "expected a file name ending in .png, .svg or .pdf")
    if len(path.name.encode()) > 250 or len(str(path).encode()) > 4000:
        raise InputError(name, str(path)[:60] + "...", "the file name is too long (at most 250 bytes)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(name, str(path), f"the folder {folder} does not exist")
    if path.is_dir():
        raise InputError(name, str(path), "is a folder; expected a file name ending in .png, .svg or .pdf")
    try:  # the one sure test of a folder: make a file in it (as save will), then remove it
        handle, probe = tempfile.mkstemp(suffix=path.suffix, prefix=".oddscalc-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise InputError(name, str(path), f"cannot write in {folder} ({error.strerror or error})") from None
    return path


def _axes(ax: Axes | None, size: tuple[float, float] = (8, 4.8)) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def distribution(dist: Distribution, name: str, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw P(= k) as bars (95 % error bars when sampled) and P(≥ k) on a second axis."""
    ax = _axes(ax)
    first = int(np.flatnonzero(dist.pmf)[0])
    ks = dist.outcomes[first:]
    pmf = dist.pmf[first:] * 100
    errors = None
    if not dist.exact:
        errors = np.array([Z95 * dist.stderr(p) * 100 for p in dist.pmf[first:]])
    ax.bar(ks, pmf, color="#4C72B0", yerr=errors, capsize=2 if errors is not None else 0, label="P(= k)")
    ax.set_xlabel(name.replace("_", " "))
    ax.set_ylabel("P(= k), %")
    ax.set_ylim(bottom=0)
    if len(ks) <= 30:
        ax.set_xticks(ks)
    curve = ax.twinx()
    at_least = dist.at_least_all[first:] * 100
    curve.plot(ks, at_least, color="#DD8452", marker="o", label="P(≥ k)")
    curve.set_ylim(0, 112)
    curve.set_ylabel("P(≥ k), %")
    if len(ks) <= 16:
        for k, value in zip(ks, at_least):
            curve.annotate(f"{value:.0f}%", (k, value), textcoords="offset points", xytext=(0, 7),
                           ha="center", fontsize=8, color="#A0522D",
                           bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
    mean = f"mean {dist.mean:.3g}" + (f" ± {dist.mean_stderr:.1g}" if not dist.exact else "")
    ax.set_title(title or f"{name.replace('_', ' ')}: {mean}, sd {dist.sd:.3g}", loc="left")
    handles = ax.get_legend_handles_labels()[0] + curve.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], loc="lower right", bbox_to_anchor=(1, 1.06),
              ncol=2, frameon=False, fontsize=9)
    return ax


def overlay(dists: Sequence[tuple[str, Distribution]], name: str, ax: Axes | None = None) -> Axes:
    """Draw several distributions' P(≥ k) curves on one axes."""
    ax = _axes(ax)
    for label, dist in dists:
        ax.step(dist.outcomes, dist.at_least_all * 100, where="mid", marker="o", label=label)
    ax.set_xlabel(name.replace("_", " "))
    ax.set_ylabel("P(≥ k), %")
    ax.set_ylim(0, 105)
    ax.legend(frameon=False)
    return ax


def heatmap(values: np.ndarray, rows: Sequence[str], columns: Sequence[str], label: str,
            ax: Axes | None = None) -> Axes:
    """Draw a matrix of values with labelled rows and columns and the value in each cell."""
    for what, count in (("rows", len(rows)), ("columns", len(columns))):
        if count > MAX_HEATMAP:
            raise InputError("plot", f"a heatmap of {count} {what}",
                             f"too large to draw (at most {MAX_HEATMAP}); choose fewer --attackers or --targets")
    size = (min(max(6, 0.9 * len(columns) + 3), MAX_INCHES), min(max(4, 0.5 * len(rows) + 2), MAX_INCHES))
    ax = _axes(ax, size)
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(columns)), columns, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    finite = values[np.isfinite(values)]
    middle = (finite.max() + finite.min()) / 2 if finite.size else 0
    if values.size <= 400:
        for (i, j), value in np.ndenumerate(values):
            if np.isfinite(value):
                ax.text(j, i, f"{value:.3g}", ha="center", va="center", fontsize=8,
                        color="white" if value < middle else "black")
    ax.figure.colorbar(image, ax=ax, label=label)
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


def sweep_plot(found, statistic, ax: Axes | None = None) -> Axes:
    """Draw a sweep (`studies.Sweep`): the statistic against one varied option with 95 % error
    bars, or a heatmap over two."""
    from .attack import text

    values = [statistic.value(result) for result in found.results]
    label = statistic.label(found.results[0].main)
    names = [name.replace("_", "-") for name in found.names]
    cells = [[text(value) for value in cell] for cell in found.cells]
    if len(names) == 1:
        xs = [cell[0] for cell in cells]
        numeric = all(_is_number(x) for x in xs)
        positions = [float(x) for x in xs] if numeric else list(range(len(xs)))
        ax = line(positions, [(label, [v for v, _ in values])], names[0], label, ax=ax)
        ax.errorbar(positions, [v for v, _ in values], yerr=[Z95 * e for _, e in values], fmt="none",
                    ecolor="black", capsize=2)
        if not numeric:
            ax.set_xticks(positions, xs)
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        return ax
    rows = list(dict.fromkeys(cell[0] for cell in cells))
    columns = list(dict.fromkeys(cell[1] for cell in cells))
    grid = np.full((len(rows), len(columns)), np.nan)
    for cell, (value, _) in zip(cells, values):
        grid[rows.index(cell[0]), columns.index(cell[1])] = value
    return heatmap(grid, [f"{names[0]}={r}" for r in rows], [f"{names[1]}={c}" for c in columns], label, ax=ax)


def grid_heatmap(found, statistic=None, ax: Axes | None = None) -> Axes:
    """Draw a roster grid (`grid.Grid`): a statistic per (attacker: weapon, target)."""
    values, row_labels, column_labels, label = found.matrix(statistic)
    ax = heatmap(values, row_labels, column_labels, label, ax=ax)
    ax.set_xlabel("target")
    ax.set_ylabel("attacker: weapon")
    return ax


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def caption(figure: Figure, text: str) -> None:
    """Put a small footer under the figure (the command, seed, method and version)."""
    figure.text(0.01, 0.005, text, fontsize=7, color="#555555", ha="left", va="bottom", wrap=True)
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.set(rect=(0, 0.06, 1, 0.94))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save(figure: Figure, path: str | os.PathLike) -> Path:
    """Save the figure to path atomically, then close it."""
    import matplotlib.pyplot as plt

    path = check_path(path)
    handle, temporary = tempfile.mkstemp(suffix=path.suffix, prefix=".oddscalc-", dir=path.parent or ".")
    os.close(handle)
    try:
        figure.savefig(temporary, format=path.suffix[1:].lower(), dpi=150)
        os.chmod(temporary, 0o666 & ~_umask())  # a temporary file is private; the plot is not
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
        plt.close(figure)
    return path
