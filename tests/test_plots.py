"""What each plot draws, read back from the axes (bars, curves, labels, cells) and checked
against exact values, in the style of dyce's plot tests."""

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from oddscalc import engine, plots  # noqa: E402
from oddscalc.dice import DiceExpression  # noqa: E402
from oddscalc.distribution import Distribution  # noqa: E402
from oddscalc.errors import InputError  # noqa: E402
from oddscalc.roll import Roll  # noqa: E402

WAYS = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1])  # 2d6 totals 2..12, of 36


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def two_d6(trials=None):
    roll = Roll(DiceExpression.parse("2d6"))
    result = engine.run(roll, method="exact") if trials is None else engine.run(roll, trials, 7)
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
    assert ax.get_xlabel() == "sum" and "P(= k)" in ax.get_ylabel()


def test_the_distribution_plot_draws_the_at_least_curve():
    ax = plots.distribution(two_d6(), "sum")
    line = at_least_line(ax.figure)
    assert list(line.get_xdata()) == list(range(2, 13))
    assert line.get_ydata() == pytest.approx([100 * WAYS[k:].sum() / 36 for k in range(11)])


def test_the_title_says_the_mean_and_sd():
    ax = plots.distribution(two_d6(), "sum")
    assert ax.get_title(loc="left") == "sum: mean 7, sd 2.42"


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


def test_save_writes_atomically_and_leaves_nothing_on_failure(tmp_path):
    ax = plots.distribution(two_d6(), "sum")
    path = plots.save(ax.figure, tmp_path / "plot.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InputError):
        plots.save(plots.distribution(two_d6(), "sum").figure, tmp_path / "plot.gif")
    assert sorted(os.listdir(tmp_path)) == ["plot.png"]
