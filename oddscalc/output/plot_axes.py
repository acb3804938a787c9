"""A plot's axes and its title in the house style, shared by the plots modules (`plots`, `plot_rounds`):
matplotlib is imported when a figure is made."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

Z95 = 1.96  # a 95 % interval's half-width in standard errors


def axes(ax: Axes | None, size: tuple[float, float] = (8, 4.8)) -> Axes:
    """The axes to draw on: `ax`, or a new figure's: pyplot's in a notebook (it shows the figure at the
    cell's end), else a figure of its own (no global state: figures drawn in parallel threads,
    nothing to close)."""
    if ax is not None:
        return ax
    shell = sys.modules.get("IPython")
    if shell is not None and shell.get_ipython() is not None:
        import matplotlib.pyplot as plt

        return plt.figure(figsize=size, layout="constrained").add_subplot()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)  # its own canvas, as pyplot would give it
    return figure.add_subplot()


TITLE_POINTS = 10
CHARACTER = 0.6  # a character's width in ems, on the wide side (so that a wrapped line always fits)


def title(ax: Axes, heading: str | None, subtitle: str) -> None:
    """The attack's description as the title, and what the panel shows under it, each wrapped to the
    figure's width (a long sweep's title was cut at the right edge)."""
    import textwrap

    root = ax.figure.figure  # the whole figure, whether the axes sit on it or on a subfigure of it
    inches = root.get_size_inches()[0] * ax.get_position().width
    room = max(20, int(inches * 72 / (TITLE_POINTS * CHARACTER)))
    lines = [line for part in (heading, subtitle) if part for line in textwrap.wrap(part, room)]
    ax.set_title("\n".join(lines), loc="left", fontsize=TITLE_POINTS)
