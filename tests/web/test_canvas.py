"""What the page's charts are drawn with (web/canvas.py): round tick values, the heatmaps' colours, text wrapped to
the width it is shown at, an SVG's size and label."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from oddscalc.web import canvas


@pytest.mark.parametrize("low, high, most, expected", [(0, 100, 5, [0, 25, 50, 75, 100]), (0, 7, 8, list(range(8))),
                                                       (2, 3, 3, [2, 2.5, 3]), (5, 5, 4, [5])])
def test_ticks_are_round_values(low, high, most, expected):
    assert canvas.ticks(low, high, most) == pytest.approx(expected)


def test_colours_run_from_viridis_dark_to_yellow():
    assert canvas.colour(0) == "#440154" and canvas.colour(1) == "#fde725" and canvas.colour(0.5) == "#21918c"
    assert canvas.colour(-1) == canvas.colour(0) and canvas.colour(2) == canvas.colour(1)


def test_text_is_wrapped_to_the_width_it_is_shown_at():
    words = "Epic shooting: 12 shots at 4+ on 6 units, armour 4+, crossfire, and a long tail of words"
    for width, font in ((360, 12), (720, 13)):
        lines = canvas.wrap(words, width, font)
        assert " ".join(lines) == words and all(len(line) * 0.55 * font <= width for line in lines)
    assert len(canvas.wrap(words, 200, 12)) > len(canvas.wrap(words, 700, 12)) == 1
    assert canvas.wrap("", 300, 12) == []


def test_a_canvas_writes_an_svg_of_its_size_with_its_label_and_escaped_text():
    drawn = canvas.Canvas(360, 0)
    drawn.height = 120.4
    drawn.text(10, 20, "P(hits ≥ 3) < 50% & more")
    root = ElementTree.fromstring(drawn.svg('a "chart"'))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("360", "120", "0 0 360 120")
    assert root.get("aria-label") == 'a "chart"' and root[0].text == "P(hits ≥ 3) < 50% & more"
    assert canvas.size(canvas.NARROW) == 12 and canvas.size(canvas.WIDE) == 13
