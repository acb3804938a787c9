"""A plot's axes and title in the house style (plot_axes.py): a figure of its own outside a notebook, the axes
given kept, and a title wrapped to the width of the panel it heads."""

from __future__ import annotations

from oddscalc.output.plot_axes import CHARACTER, TITLE_POINTS, axes, title

LONG = ("Epic assault: (6 units, CC 4+, FF 4+, armour 4+) against (8 units, CC 4+, FF 6+, armour 6+) with a very long "
        "description of every kind on each side")


def test_a_new_figure_of_its_size_or_the_axes_given():
    made = axes(None, (6, 3))
    assert tuple(made.figure.get_size_inches()) == (6, 3)
    assert axes(made) is made


def test_a_title_is_wrapped_to_its_panels_width_and_keeps_every_word():
    for inches in (4, 8, 12):
        ax = axes(None, (inches, 3))
        title(ax, LONG, "what the panel shows")
        lines = ax.get_title(loc="left").split("\n")
        room = max(20, int(inches * ax.get_position().width * 72 / (TITLE_POINTS * CHARACTER)))
        assert all(len(line) <= room for line in lines)
        assert " ".join(lines) == f"{LONG} what the panel shows"
    narrow, wide = axes(None, (4, 3)), axes(None, (12, 3))
    title(narrow, LONG, "")
    title(wide, LONG, "")
    assert narrow.get_title(loc="left").count("\n") > wide.get_title(loc="left").count("\n")
    ax = axes(None)
    title(ax, None, "only the subtitle")
    assert ax.get_title(loc="left") == "only the subtitle"
