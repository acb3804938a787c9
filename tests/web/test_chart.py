"""The page's plots (web/chart.py), read back from their SVG and checked against exact values: each
bar its P(= k), each point its P(≥ k), each heatmap cell its figure; text that stays 12 px at the
width it is drawn for; a pmf of thousands of values drawn in bins that add up."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import numpy as np
import pytest

from oddscalc.core import engine
from oddscalc.query.asking import ask
from oddscalc.core.dice import DiceExpression
from oddscalc.core.roll import Roll
from oddscalc.output.style import percent
from oddscalc.web import chart

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def figures(svg: str, kind: str, attribute: str = "data-p") -> list[float]:
    return [float(element.get(attribute)) for element in parsed(svg).iter() if element.get("class") == kind]


def plot_of(words: list[str]) -> chart.Chart:
    return ask(words).answer.plot.draw(chart)


def test_every_bar_is_its_exact_probability_and_every_point_its_p_at_least():
    exact = engine.run(Roll(DiceExpression.parse("2d6")), method="exact")["sum"]
    drawn = plot_of(["roll", "2d6", "--exact"])
    for width in (chart.NARROW, chart.WIDE):
        svg = drawn.svg(width)
        assert figures(svg, "bar") == pytest.approx(list(exact.pmf[2:]), abs=1e-15)
        assert figures(svg, "at-least") == pytest.approx(list(exact.at_least_all[2:]), abs=1e-15)
        assert [int(k) for k in figures(svg, "bar", "data-k")] == list(range(2, 13))
        titles = [element.find(f"{SVG}title").text for element in parsed(svg).iter() if element.get("class") == "bar"]
        assert titles[5] == "P(sum = 7) = 16.67%"  # 6 of 36


def test_the_text_of_a_chart_stays_readable_at_the_width_it_is_drawn_for():
    svg = plot_of(["epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+", "--exact"])
    for width in (chart.NARROW, chart.WIDE):
        root = parsed(svg.svg(width))
        assert root.get("viewBox").split()[2] == str(width) and root.get("width") == str(width)
        sizes = [float(text.get("font-size")) for text in root.iter(f"{SVG}text")]
        assert sizes and min(sizes) >= 11  # the phone's: 360 units shown about 358 px wide, so ≥ 10.9 px


def test_a_long_pmf_is_drawn_in_bins_that_add_up():
    result = ask(["roll", "200d100", "--exact"]).answer.content.result["sum"]  # 19,801 values
    svg = plot_of(["roll", "200d100", "--exact"]).svg(chart.WIDE)
    bars = figures(svg, "bar")
    assert len(bars) <= chart.MOST_BARS and sum(bars) == pytest.approx(1, abs=1e-12)
    starts = [int(k) for k in figures(svg, "bar", "data-k")]
    width = starts[1] - starts[0]
    first = int(np.flatnonzero(result.pmf)[0])
    assert starts[0] == first and bars[3] == pytest.approx(result.pmf[starts[3]:starts[3] + width].sum(), abs=1e-15)
    assert len(svg) < 100_000  # thousands of values, one small drawing


def test_a_yes_no_outcome_is_one_bar_of_its_probability():
    exact = ask(["dust", "reactive", "--exact"]).answer.content.result["success"].at_least(1)
    svg = plot_of(["dust", "reactive", "--exact"]).svg(chart.NARROW)
    assert figures(svg, "bar") == pytest.approx([exact], abs=1e-15)
    assert "P(success) = 33.33%" in svg  # 1/3, exactly


def test_an_overlay_draws_each_p_at_least_curve():
    answer = ask(["compare", "roll 2d6", "roll d6", "--exact"])
    svg = answer.answer.plot.draw(chart).svg(chart.WIDE)
    two, one = (engine.run(Roll(DiceExpression.parse(dice)), method="exact")["sum"] for dice in ("2d6", "d6"))
    points = figures(svg, "point", "data-y")
    assert points == pytest.approx([*(100 * two.at_least_all), *(100 * one.at_least_all)], abs=1e-12)
    assert ">#1: Roll 2d6 (sum)<" in svg and ">#2: Roll 1d6 (sum)<" in svg  # the legend


def test_a_sweep_draws_its_statistic_and_a_goal_and_two_options_as_a_heatmap():
    words = ["sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact", "--goal", "mean>=8"]
    svg = plot_of(words).svg(chart.WIDE)
    means = [engine.run(Roll(DiceExpression.parse("2d6"), extra), method="exact")["sum"].mean for extra in range(3)]
    assert figures(svg, "point", "data-y") == pytest.approx(means, abs=1e-12)
    assert "goal mean sum ≥ 8: maximised = 1" in svg  # 2d6 maximised once: 8.46 (7 without)
    grid = plot_of(["sweep", "roll 2d6", "--vary", "maximised=0..1", "--vary", "minimised=0..1", "--exact"])
    cells = figures(grid.svg(chart.WIDE), "cell", "data-v")
    assert len(cells) == 4 and cells[0] == pytest.approx(7.0, abs=1e-12)  # neither: 2d6's mean


def test_a_grids_heatmap_carries_each_cells_figure():
    answer = ask(["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"])
    svg = answer.answer.plot.draw(chart).svg(chart.WIDE)
    rows = answer.answer.content.rows
    assert sorted(figures(svg, "cell", "data-v")) == pytest.approx(sorted(row["mean"] for row in rows), abs=1e-12)
    for row in rows:
        assert re.search(rf"{re.escape(row['attacker'])}: {re.escape(row['weapon'])} → {re.escape(row['target'])}: ",
                         svg)


def test_tail_labels_keep_apart_on_the_page_too():
    """The same 16 values at 720 px: the P(≥ k) labels drawn are exact figures, and no two of them share
    room (each box estimated as the chart estimates it, 0.6 em a character)."""
    from oddscalc.output.style import percent

    exact = engine.run(Roll(DiceExpression.parse("15d6"), success=5), method="exact")["successes"]
    root = parsed(plot_of(["roll", "15d6", "--success", "5", "--exact"]).svg(chart.WIDE))
    labels = [text for text in root.iter(f"{SVG}text") if text.get("fill") == "#A0522D"]
    assert 4 <= len(labels) < 16 and labels[0].text == "100%"
    assert {text.text for text in labels} <= {percent(p) for p in exact.at_least_all}
    boxes = []
    for text in labels:
        x, y, font = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
        half = len(text.text) * 0.6 * font / 2
        boxes.append((x - half, y - font, x + half, y))
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_the_pages_assault_grid_says_what_its_blank_cell_means():
    """The page's heatmap (SVG) and the saved plot say the same of a blank cell: a cell that cannot be fought
    "cannot assault", never "cannot hurt"."""
    from oddscalc.lists import games
    from oddscalc.studies.grid import run_grid

    roster = games.parse_roster('game = "epic"\n[[unit]]\nname = "Guns"\nkind = "infantry"\nunits = 2\n'
                                'armour = "4+"\ncc = "4+"\nff = "5+"\n[[unit]]\nname = "Tanks"\n'
                                'kind = "armoured-vehicle"\nunits = 1\narmour = "4+"\n', "grid.toml")
    found = run_grid(roster, method="exact", assault=True)
    drawn = chart.grid_heatmap(found)
    assert "each attacker's assault against each target" in drawn.label
    svg = drawn.svg()
    assert "a blank cell: cannot assault" in svg and "cannot hurt" not in svg


FIGHT = ["t9a", "combat", "--models", "10", "--width", "5", "--attacks", "2", "--offensive", "5", "--defensive", "4",
         "--strength", "4", "--resilience", "4", "--agility", "5", "--discipline", "8", "--armour", "3",
         "--enemy-models", "15", "--enemy-width", "5", "--enemy-attacks", "1", "--enemy-offensive", "3",
         "--enemy-defensive", "3", "--enemy-strength", "3", "--enemy-resilience", "3", "--enemy-agility", "3",
         "--enemy-discipline", "7", "--rounds", "3", "--by-round", "--outcome", "rounds", "--exact"]


def test_a_fight_of_rounds_is_drawn_its_rounds_decided_and_each_sides_losses():
    """The page drew a fight's rounds with matplotlib and failed (500): now a bar per round, P(decided in it) from
    the exact pmf of the rounds fought, and a point per side and round, its mean Health Points lost by then."""
    result = ask(FIGHT).answer.content.result
    fought, decided = result["rounds"].probabilities, result["decided"].at_least(1)
    expected = [fought[1], fought[2], decided - fought[1] - fought[2]]  # decided in round 3, not just fought to it
    for width in (chart.NARROW, chart.WIDE):
        svg = plot_of(FIGHT).svg(width)
        assert figures(svg, "bar") == pytest.approx(expected, abs=1e-12)
        assert [int(k) for k in figures(svg, "bar", "data-round")] == [1, 2, 3]
        lost = [result[f"{side}health_lost_by_round_{k}"].mean for side in ("", "enemy_") for k in (1, 2, 3)]
        assert figures(svg, "point", "data-y") == pytest.approx(lost, abs=1e-12)
        titles = [element.find(f"{SVG}title").text for element in parsed(svg).iter() if element.get("class") == "bar"]
        assert titles[0] == f"decided in round 1: {percent(fought[1])}"


def test_a_fight_of_rounds_is_a_page_with_its_picture(client):
    from urllib.parse import quote

    query = " ".join(FIGHT)
    page = client.get("/?q=" + quote(query))
    assert page.status_code == 200 and page.text.count("<svg") == 2  # the phone's and the screen's
    assert client.get("/plot.svg?q=" + quote(query)).status_code == 200
