"""What each plot draws, read back from the axes (bars, curves, labels, cells) and checked
against exact values, in the style of dyce's plot tests."""

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from oddscalc.core import engine
from oddscalc.output import plots  # noqa: E402
from oddscalc.core.dice import DiceExpression  # noqa: E402
from oddscalc.core.distribution import Distribution  # noqa: E402
from oddscalc.errors import InputError  # noqa: E402
from oddscalc.core.roll import Roll  # noqa: E402

WAYS = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1])  # 2d6 totals 2..12, of 36


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def two_d6(trials=None):
    roll = Roll(DiceExpression.parse("2d6"))
    result = engine.run(roll, method="exact") if trials is None else engine.run(roll, trials=trials, seed=7)
    return result["sum"]


def bars(ax):
    return [patch for patch in ax.patches if isinstance(patch, matplotlib.patches.Rectangle)]


def at_least_line(figure):
    """The P(≥ k) curve, on whichever axes of the figure it is drawn."""
    lines = [line for ax in figure.axes for line in ax.get_lines() if line.get_label() == "P(≥ k)"]
    assert len(lines) == 1, "the P(≥ k) curve is drawn once"
    return lines[0]


def test_the_distribution_plot_draws_the_pmf_as_bars():
    ax = plots.distribution(two_d6(), "sum")
    drawn = bars(ax)
    assert [round(bar.get_x() + bar.get_width() / 2) for bar in drawn] == list(range(2, 13))
    assert [bar.get_height() for bar in drawn] == pytest.approx(100 * WAYS / 36)
    assert ax.get_xlabel() == "sum" and ax.get_ylabel() == "probability, %"
    assert len(ax.figure.axes) == 1  # one y-axis: the bars and the P(≥ k) curve share it, both in %


def test_the_distribution_plot_draws_the_at_least_curve():
    ax = plots.distribution(two_d6(), "sum")
    line = at_least_line(ax.figure)
    assert list(line.get_xdata()) == list(range(2, 13))
    assert line.get_ydata() == pytest.approx([100 * WAYS[k:].sum() / 36 for k in range(11)])


def test_the_title_is_the_attack_in_words_then_the_mean_and_sd():
    ax = plots.distribution(two_d6(), "sum", title="Roll 2d6")
    assert ax.get_title(loc="left") == "Roll 2d6\nsum: mean 7, sd 2.415"
    assert plots.distribution(two_d6(20_000), "sum").get_title(loc="left").startswith("sum: mean 7.0")


def test_small_tails_are_labelled_with_their_digits():
    ax = plots.distribution(two_d6(), "sum")
    labels = [text.get_text() for text in ax.texts]
    assert labels[0] == "100%" and labels[-1] == "2.778%" and "0%" not in labels


def test_a_yes_no_outcome_is_drawn_as_its_probability_with_its_interval():
    sampled = Distribution.from_counts(np.array([4000, 6000]))
    ax = plots.event(sampled, "broken", title="Epic barrage: 6 BP on 3 units, armour 4+")
    track, bar = bars(ax)  # the odds against the whole: 100 % behind, the probability over it
    assert (track.get_x(), track.get_width(), track.get_facecolor()) == (0, 100, matplotlib.colors.to_rgba(plots.TRACK))
    assert bar.get_x() == 0 and bar.get_width() == pytest.approx(60.0) and bar.get_facecolor() != track.get_facecolor()
    (container,) = [c for c in ax.containers if getattr(c, "errorbar", None) is not None]
    (segment,) = container.errorbar.lines[2][0].get_segments()
    half = abs(segment[1][0] - segment[0][0]) / 2
    assert half == pytest.approx(100 * 1.96 * (0.6 * 0.4 / 10_000) ** 0.5)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["P(broken)"] and ax.get_xlim() == (0, 100)
    assert ax.get_title(loc="left").startswith("Epic barrage: 6 BP on 3 units, armour 4+\nP(broken) = 60.00% ± 0.49")
    assert "95 % interval 59.04% to 60.96%" in ax.get_title(loc="left")


def test_a_sampled_distribution_has_95_percent_error_bars():
    dist = two_d6(trials=20_000)
    ax = plots.distribution(dist, "sum")
    (container,) = [c for c in ax.containers if getattr(c, "errorbar", None) is not None]
    segments = container.errorbar.lines[2][0].get_segments()
    half_widths = [abs(segment[1][1] - segment[0][1]) / 2 for segment in segments]
    expected = [1.96 * 100 * dist.stderr(p) for p in dist.pmf[2:]]
    assert half_widths == pytest.approx(expected, rel=1e-6)


def test_the_overlay_draws_each_at_least_curve_with_its_label():
    plain, maximised = two_d6(), engine.run(Roll(DiceExpression.parse("2d6"), 1), method="exact")["sum"]
    ax = plots.overlay([("2d6", plain), ("maximised", maximised)], "sum")
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert lines["2d6"].get_ydata() == pytest.approx(100 * plain.at_least_all)
    assert lines["maximised"].get_ydata() == pytest.approx(100 * maximised.at_least_all)
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["2d6", "maximised"]
    legend = ax.get_legend().get_window_extent(ax.figure.canvas.get_renderer())
    assert legend.y1 <= ax.get_window_extent().y0  # below the axes: it never covers a curve


def test_the_heatmap_shows_each_value_in_its_cell():
    values = np.array([[0.25, np.nan], [1.5, 3.0]])
    ax = plots.heatmap(values, ["a: gun", "b: gun"], ["x", "y"], "mean kills")
    image = ax.get_images()[0]
    assert np.array_equal(np.ma.filled(image.get_array(), np.nan), values, equal_nan=True)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a: gun", "b: gun"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x", "y"]
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    assert cells == {(0, 0): "0.25", (1, 0): "1.5", (1, 1): "3"}
    assert ax.figure.axes[-1].get_ylabel() == "mean kills"


def test_the_line_plot_draws_each_series():
    ax = plots.line([1, 2, 3], [("P(x ≥ 2)", [0.1, 0.5, 0.9])], "dice", "P(x ≥ 2)")
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [1, 2, 3] and list(line.get_ydata()) == [0.1, 0.5, 0.9]
    assert ax.get_xlabel() == "dice" and ax.get_ylabel() == "P(x ≥ 2)"


def test_the_caption_is_the_footer():
    ax = plots.distribution(Distribution.from_pmf([0.5, 0.5]), "hit")
    plots.caption(ax.figure, "oddscalc t9a direction --exact  ·  exact")
    assert "oddscalc t9a direction --exact  ·  exact" in [text.get_text() for text in ax.figure.texts]


@pytest.mark.parametrize("p", [0.023, 0.5, 0.97])
@pytest.mark.parametrize("length", [40, 300])
def test_nothing_a_yes_no_plot_writes_overlaps(p, length):
    """Title, value, ticks, axis label, error bar and a caption of any length: no two boxes meet."""
    command = ("oddscalc epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --crossfire " * 5)[:length]
    sampled = Distribution.from_counts(np.array([round(10**6 * (1 - p)), round(10**6 * p)]))
    ax = plots.event(sampled, "broken", title="Epic shooting: 12 shots at 4+ on 6 units, armour 4+, crossfire")
    plots.caption(ax.figure, command)
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    texts = [text for text in figure.findobj(matplotlib.text.Text) if text.get_text() and text.get_visible()]
    assert any(text.get_text().startswith(command[:30]) for text in texts)
    boxes = [(text.get_text()[:25], text.get_window_extent(renderer)) for text in texts]
    (container,) = [c for c in ax.containers if getattr(c, "errorbar", None) is not None]
    boxes += [("error bar", line.get_window_extent(renderer)) for line in container.errorbar.lines[1]]
    crossing = [(a, b) for i, (a, one) in enumerate(boxes) for b, other in boxes[i + 1:]
                if one.overlaps(other) and not a == b == "error bar"]  # a narrow interval's two caps may meet
    assert crossing == []
    (value,) = [text for text in ax.texts]
    assert value.get_color() == ("white" if 100 * p > 50 else "black")  # white on the bar, black off it
    plt.close(figure)


def test_save_writes_atomically_and_leaves_nothing_on_failure(tmp_path):
    ax = plots.distribution(two_d6(), "sum")
    path = plots.save(ax.figure, tmp_path / "plot.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InputError):
        plots.save(plots.distribution(two_d6(), "sum").figure, tmp_path / "plot.gif")
    assert sorted(os.listdir(tmp_path)) == ["plot.png"]


def test_a_sweep_plot_has_a_title_a_percent_axis_and_the_goal():
    from oddscalc.studies import sweeps as studies
    from oddscalc.core.hits import HitAndSave

    goal = studies.Goal.parse("at_least_2>=0.5")
    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 8)}, goal=goal, method="exact")
    ax = plots.sweep_plot(found, goal.statistic, title="10 dice hit 4+, save 5+")
    line = ax.get_lines()[0]
    chances = [1 - (2 / 3) ** n - n * (1 / 3) * (2 / 3) ** (n - 1) for n in range(1, 8)]
    assert list(line.get_ydata()) == pytest.approx([100 * c for c in chances])
    assert ax.get_ylabel() == "P(unsaved ≥ 2), %" and ax.get_ylim() == (0, 105)
    goal_line = [g for g in ax.get_lines() if g.get_label() == "goal P(unsaved ≥ 2) ≥ 50%"][0]  # as the axis reads
    assert list(goal_line.get_ydata()) == [50, 50]
    marked = [g for g in ax.get_lines() if g.get_label() == "smallest dice: 5"][0]
    assert list(marked.get_xdata()) == [5.0]
    assert ax.get_title(loc="left") == ("10 dice hit 4+, save 5+\nP(unsaved ≥ 2) by dice; goal P(unsaved ≥ 2) ≥ 50%: "
                                        "dice = 5")


def test_a_large_figure_is_saved_at_a_resolution_that_bounds_its_memory():
    small, large = plt.figure(figsize=(8, 5)), plt.figure(figsize=(40, 40))
    try:
        assert plots.dpi_for(small) == plots.DPI
        width, height = large.get_size_inches() * plots.dpi_for(large)
        assert width * height == pytest.approx(plots.MAX_PIXELS)
    finally:
        plt.close(small)
        plt.close(large)


GRID_ROSTER = '''game = "epic"

[[unit]]
name = "Guns"
kind = "infantry"
units = 2
armour = "4+"

[[unit.weapon]]
name = "Autocannon"
ap = "5+"
at = "6+"

[[unit]]
name = "Tanks"
kind = "armoured-vehicle"
units = 1
armour = "4+"

[[unit.weapon]]
name = "{tank_gun}"
ap = "4+"
{tank_at}'''


def grid_of(tank_gun, tank_at=""):
    from oddscalc.lists import games
    from oddscalc.studies.grid import run_grid

    roster = games.parse_roster(GRID_ROSTER.format(tank_gun=tank_gun, tank_at=tank_at), "grid.toml")
    return run_grid(roster, method="exact")


def test_the_grid_heatmap_leaves_a_cell_that_cannot_hurt_blank_and_says_why():
    ax = plots.grid_heatmap(grid_of("Bolters"))  # AP only: the Bolters cannot hurt the Tanks
    assert ax.get_title(loc="left") == ("Epic Armageddon: every weapon against every target\n"
                                        "mean kills; a blank cell: the weapon cannot hurt the target")
    drawn = ax.get_images()[0].get_array()
    assert np.ma.getmaskarray(drawn).tolist() == [[False, False], [False, True]]  # row Tanks: Bolters, column Tanks
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])) for t in ax.texts}
    assert cells == {(0, 0), (0, 1), (1, 0)}  # no value written in the blank cell


def test_a_grid_heatmap_where_every_weapon_can_hurt_has_no_blank_cell_note():
    ax = plots.grid_heatmap(grid_of("Battle cannon", 'at = "5+"'))
    assert ax.get_title(loc="left") == "Epic Armageddon: every weapon against every target\nmean kills"
    assert not np.ma.getmaskarray(ax.get_images()[0].get_array()).any()
    assert "cannot hurt" not in ax.get_title(loc="left")


def test_tail_labels_never_print_over_one_another():
    """16 dice hitting on a 5+: P(≥ k) falls to 0.0017%, 0.00007606% ...; each label drawn keeps clear of
    the others (they printed as '0.0185%0.0017%...'), and the labels drawn are the exact P(≥ k)."""
    from oddscalc.output.style import percent

    dist = engine.run(Roll(DiceExpression.parse("15d6"), success=5), method="exact")["successes"]
    ax = plots.distribution(dist, "successes")
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    shown = [text for text in ax.texts if text.get_visible()]
    boxes = [text.get_window_extent(renderer) for text in shown]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert 4 <= len(shown) < len(ax.texts) == 16  # a label for most values, not for every tail value
    assert {text.get_text() for text in shown} <= {percent(p) for p in dist.at_least_all}
    assert shown[0].get_text() == "100%"


def test_a_long_title_is_wrapped_within_the_figure():
    """A sweep of a long query: its title and subtitle wrap, every line inside the figure (it was cut)."""
    from oddscalc.studies import sweeps as studies
    from oddscalc.core.hits import HitAndSave

    found = studies.sweep(HitAndSave(1, 4, 5), {"dice": range(1, 4)}, method="exact")
    long = "Epic shooting: 12 shots at 4+, 6 shots at MW 2+ on 6 units, armour 4+, crossfire, sniper, " * 3
    ax = plots.sweep_plot(found, studies.Statistic.parse("mean"), title=long.strip())
    figure = ax.figure
    figure.canvas.draw()
    box = ax.title if ax.get_title(loc="left") == "" else ax._left_title  # the left title carries the text
    extent = box.get_window_extent(figure.canvas.get_renderer())
    assert extent.x1 <= figure.bbox.x1 and extent.y1 <= figure.bbox.y1 and extent.x0 >= 0
    assert ax.get_title(loc="left").count("\n") >= 3  # three lines of title at least, then the subtitle
    assert ax.get_title(loc="left").replace("\n", " ").startswith(long.strip()[:120])


def test_an_assault_grid_says_a_blank_cell_cannot_assault_or_was_not_computed(monkeypatch):
    """grid --assault: the Guns have CC and FF, the Tanks none (a cell that cannot be fought: "cannot assault",
    not "cannot hurt"); an exact answer refused as too costly is blank too, and said to be not computed."""
    from oddscalc.lists import games
    from oddscalc.epic.assault import Assault
    from oddscalc.errors import InputError
    from oddscalc.studies.grid import run_grid

    text = GRID_ROSTER.format(tank_gun="Bolters", tank_at="").replace(
        'units = 2\narmour = "4+"', 'units = 2\narmour = "4+"\ncc = "4+"\nff = "5+"') + (
        '\n[[unit]]\nname = "Scouts"\nkind = "infantry"\nunits = 3\narmour = "5+"\ncc = "5+"\nff = "4+"\n')
    roster = games.parse_roster(text, "grid.toml")
    found = run_grid(roster, method="exact", assault=True)
    ax = plots.grid_heatmap(found)
    assert " ".join(ax.get_title(loc="left").split()) == ("Epic Armageddon: each attacker's assault against each "
                                                          "target P(win); a blank cell: cannot assault")
    real = Assault.pmfs

    def costly(self, number):  # the Guns on the Guns: as an engagement of many war engines answers
        if self.units == self.enemy_units == 2:
            raise InputError("exact", self.describe(), "the exact answer would take about 9 s; sample instead")
        return real(self, number)

    monkeypatch.setattr(Assault, "pmfs", costly)
    found = run_grid(roster, method="exact", assault=True)
    assert " ".join(plots.grid_heatmap(found).get_title(loc="left").split()).endswith(
        "a blank cell: cannot assault or not computed (too costly exactly: sample it)")
