"""What the page's SVG charts are drawn with (`web/chart.py`): a canvas of elements, a plotting frame with its axes,
the sizes and colours of the house style, text wrapped to a width, round tick values."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Callable, Optional, Sequence

NARROW, WIDE = 360, 720  # the widths a chart is drawn at: a phone's, a screen's (CSS px)
BLUE, ORANGE, RED, GREY, INK = "#4C72B0", "#DD8452", "#C44E52", "#d7dce3", "#1d2430"
SERIES = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")
VIRIDIS = ((0.0, (68, 1, 84)), (0.25, (59, 82, 139)), (0.5, (33, 145, 140)), (0.75, (94, 201, 98)),
           (1.0, (253, 231, 37)))
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"


def size(width: int) -> float:
    """The font size of a chart drawn `width` wide."""
    return 12.0 if width <= NARROW else 13.0


@dataclass
class Canvas:
    """An SVG being written: width, height, and its elements."""

    width: int
    height: float
    parts: list[str] = field(default_factory=list)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, words: str, *, anchor: str = "start", font: float = 12, weight: str = "normal",
             fill: str = INK, rotate: Optional[float] = None, title: Optional[str] = None) -> None:
        turn = f' transform="rotate({rotate:g} {x:.1f} {y:.1f})"' if rotate is not None else ""
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:g}" text-anchor="{anchor}" font-weight="{weight}" '
                 f'fill="{fill}"{turn}>{tip}{escape(words)}</text>')

    def svg(self, label: str) -> str:
        body = "".join(self.parts)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height:.0f}" '
                f'width="{self.width}" height="{self.height:.0f}" role="img" aria-label="{escape(label)}" '
                f'font-family="{FONT}">{body}</svg>')


def wrap(words: str, width: float, font: float, bold: bool = False) -> list[str]:
    """Lines of `words` that fit `width` px at `font` px (a character about 0.55 em, 0.62 em bold)."""
    most = max(int(width / ((0.62 if bold else 0.55) * font)), 12)
    lines, line = [], ""
    for word in words.split():
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def ticks(low: float, high: float, most: int) -> list[float]:
    """Round values from low to high, at most `most` of them (1, 2, 5 times a power of ten apart)."""
    if high <= low:
        return [low]
    raw = (high - low) / max(most - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(factor * power for factor in (1, 2, 2.5, 5, 10) if factor * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + index * step, 10) for index in range(int((high - first) / step + 1e-9) + 1)]


def colour(share: float) -> str:
    """The viridis colour of a share from 0 to 1 (the heatmaps' scale, as matplotlib draws it)."""
    share = min(max(share, 0.0), 1.0)
    for (low, start), (high, end) in zip(VIRIDIS, VIRIDIS[1:]):
        if share <= high:
            part = (share - low) / (high - low)
            return "#" + "".join(f"{round(a + (b - a) * part):02x}" for a, b in zip(start, end))
    return "#fde725"


@dataclass
class Frame:
    """A plotting area on a canvas: the box it takes (px) and the values its edges stand for."""

    canvas: Canvas
    left: float
    top: float
    right: float
    bottom: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def x(self, value: float) -> float:
        low, high = self.x_range
        return self.left + (value - low) / ((high - low) or 1) * (self.right - self.left)

    def y(self, value: float) -> float:
        low, high = self.y_range
        return self.bottom - (value - low) / ((high - low) or 1) * (self.bottom - self.top)

    def y_axis(self, values: Sequence[float], shown: Callable[[float], str], title: str, font: float) -> None:
        canvas = self.canvas
        for value in values:
            y = self.y(value)
            canvas.add(f'<line x1="{self.left:.1f}" x2="{self.right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GREY}" '
                       'stroke-width="1"/>')
            canvas.text(self.left - 5, y + font / 3, shown(value), anchor="end", font=font)
        middle = (self.top + self.bottom) / 2
        canvas.text(font, middle, title, anchor="middle", font=font, rotate=-90)

    def x_axis(self, placed: Sequence[tuple[float, str]], title: str, font: float) -> None:
        canvas = self.canvas
        canvas.add(f'<line x1="{self.left:.1f}" x2="{self.right:.1f}" y1="{self.bottom:.1f}" y2="{self.bottom:.1f}" '
                   f'stroke="{INK}" stroke-width="1"/>')
        for value, label in placed:
            canvas.text(self.x(value), self.bottom + font + 3, label, anchor="middle", font=font)
        canvas.text((self.left + self.right) / 2, self.bottom + 2 * font + 10, title, anchor="middle", font=font)


@dataclass
class Chart:
    """A plot to draw: `draw(width)` writes its SVG `width` px wide; `label` says what it shows."""

    label: str
    draw: Callable[[int], str]

    def svg(self, width: int = WIDE) -> str:
        return self.draw(width)

    @property
    def figure(self) -> Chart:  # as a matplotlib Axes has it (`Plot.drawn` captions `ax.figure`)
        return self


def heading(canvas: Canvas, title: Optional[str], subtitle: str, font: float) -> float:
    """The title (wrapped) and what the panel shows under it; returns the y where the panel may start."""
    y = font + 4
    for line in wrap(title or "", canvas.width - 16, font + 1, bold=True):
        canvas.text(8, y, line, font=font + 1, weight="600")
        y += font + 5
    for line in wrap(subtitle, canvas.width - 16, font):
        canvas.text(8, y, line, font=font, fill="#5b6573")
        y += font + 4
    return y + 6


def swatches(canvas: Canvas, right: float, top: float, entries: Sequence[tuple[str, str]], font: float) -> None:
    """Coloured squares and their words, right-aligned at (`right`, `top`)."""
    x = right
    for words, fill in reversed(entries):
        x -= 0.6 * font * len(words) + 22
        canvas.add(f'<rect x="{x:.1f}" y="{top - font + 2:.1f}" width="10" height="10" fill="{fill}"/>')
        canvas.text(x + 14, top, words, font=font - 1)
