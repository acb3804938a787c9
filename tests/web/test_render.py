"""What the page shows of an answer (web/render.py): the figures a player reads in a study's
table and its links, checked against exact values; the words of permalinks; an answer's parts."""

from __future__ import annotations

import shlex
from fractions import Fraction
from html.parser import HTMLParser
from itertools import product
from urllib.parse import parse_qs, urlparse

import pytest

from oddscalc.query.asking import ask
from oddscalc.output.tables import Format, cell, describe, provenance
from oddscalc.web.render import fixed_words, link, pinned, shown, study_table, with_outcome


def answer(words: list[str]):
    return ask(words).answer


class Cells(HTMLParser):
    """A table's header and cells: (attributes, text, link) each."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[str] = []
        self.rows: list[list[tuple[dict, str, str | None]]] = []
        self.notes: list[str] = []
        self._cell: list | None = None
        self._where = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "th":
            self._where, self._cell = "th", [attrs, "", None]
        elif tag == "td":
            self._where, self._cell = "td", [attrs, "", None]
        elif tag == "tr" and self._where != "":
            self.rows.append([])
        elif tag == "tbody":
            self._where = "tbody"
        elif tag == "a" and self._cell is not None:
            self._cell[2] = attrs["href"]
        elif tag == "p":
            self._where, self._cell = "p", [attrs, "", None]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def handle_endtag(self, tag):
        if tag == "th":
            self.head.append(self._cell[1])
        elif tag == "td":
            self.rows[-1].append(tuple(self._cell))
        elif tag == "p":
            self.notes.append(self._cell[1])
        if tag in ("th", "td", "p"):
            self._cell = None


def parsed(html: str) -> Cells:
    cells = Cells()
    cells.feed(html)
    return cells


def two_dice_beat_one() -> float:
    """P(2d6 > d6), counted on the 216 rolls."""
    return float(Fraction(sum(a + b > c for a, b, c in product(range(1, 7), repeat=3)), 216))


def best_two_of(dice: int) -> float:
    """The mean of the two highest of `dice` d6, counted on every roll."""
    return sum(sum(sorted(roll)[-2:]) for roll in product(range(1, 7), repeat=dice)) / 6 ** dice


def test_a_comparisons_table_reads_the_exact_figures_and_links_each_query_exactly():
    content = answer(["compare", "roll 2d6", "roll d6", "--exact"]).content
    table = parsed(study_table(content))
    readable = content.tables()[0]
    assert table.head == [*(column for column in readable.columns if column != "query"), "query"]
    assert table.head[:3] == ["#", "outcome", "mean"] and "P(> #2)" in table.head
    first, second = table.rows
    by_name = dict(zip(table.head, first))
    assert float(by_name["mean"][0]["data-v"]) == pytest.approx(7.0, abs=1e-12) and by_name["mean"][1] == "7"
    beat = by_name["P(> #2)"]
    assert float(beat[0]["data-v"]) == pytest.approx(two_dice_beat_one(), abs=1e-12)
    shown_first = dict(zip(readable.columns, readable.rows[0]))
    assert beat[1] == cell(shown_first["P(> #2)"]) == "83.8%" and beat[0]["class"] == "n"
    assert by_name["outcome"] == ({"data-v": "", "data-label": "outcome"}, "sum", None)  # text: nothing to sort by
    assert dict(zip(table.head, second))["P(> #2)"] == ({"data-v": "", "data-label": "P(> #2)"}, "", None)  # none
    assert by_name["query"] == ({"data-label": "query"}, "roll 2d6", "/?q=roll+2d6+--exact")  # exact as the study
    assert dict(zip(table.head, second))["query"][2] == link(["roll", "d6", "--exact"])
    for row, raw in zip(table.rows, content.rows):  # each cell: the raw value to sort by, the figure shown
        for name, (attrs, text, _) in zip(table.head, row):
            if name != "query":
                value = raw.get(name, "")
                number = isinstance(value, (int, float)) and not isinstance(value, bool)
                assert attrs["data-v"] == (str(value) if number else "")
                assert ("class" in attrs) == number and attrs["data-label"] == name  # named, read as a card


def test_a_sampled_studys_links_are_not_exact_and_a_sweep_has_no_query_column():
    content = answer(["compare", "roll 2d6", "roll 3d6", "--trials", "2000", "--seed", "4"]).content
    links = [row[-1][2] for row in parsed(study_table(content)).rows]
    assert links == [link(["roll", "2d6"]), link(["roll", "3d6"])]
    sweep = answer(["sweep", "roll 2d6", "--vary", "maximised=0..2", "--exact"]).content
    table = parsed(study_table(sweep))
    assert "query" not in table.head and table.head[0] == "maximised"
    assert [row[0][1] for row in table.rows] == ["0", "1", "2"]
    assert [float(dict(zip(table.head, row))["mean"][0]["data-v"]) for row in table.rows] == pytest.approx(
        [7.0, best_two_of(3), best_two_of(4)], abs=1e-12)  # maximised: an extra die, the lowest discarded


def test_a_grids_notes_and_names_are_shown_as_text():
    content = answer(["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"]).content
    html = study_table(content)
    table = parsed(html)
    assert table.notes == list(content.notes)
    assert all(row[-1][2] and row[-1][2].endswith("+--exact") for row in table.rows)
    escaped = study_table(type(content)(rows=({"query": "roll 2d6 <b>", "mean": 1.5},), header={"method": "exact"},
                                        notes=("<script>",)))
    assert "<b>" not in escaped and "&lt;b&gt;" in escaped and "<p class=note>&lt;script&gt;</p>" in escaped


@pytest.mark.parametrize("words, outcome, expected", [
    (["epic", "shoot", "--shots", "3"], "hits", ["epic", "shoot", "--shots", "3", "--outcome", "hits"]),
    (["epic", "shoot", "--outcome", "kills", "--shots", "3"], "hits",
     ["epic", "shoot", "--shots", "3", "--outcome", "hits"]),
    (["epic", "shoot", "--outcome=kills", "--exact"], "broken", ["epic", "shoot", "--exact", "--outcome", "broken"]),
    (["roll", "--outcomes", "2d6"], "sum", ["roll", "--outcomes", "2d6", "--outcome", "sum"]),
])
def test_another_outcome_replaces_the_one_asked(words, outcome, expected):
    assert with_outcome(words, outcome) == expected


@pytest.mark.parametrize("words, seed, expected", [
    (["roll", "2d6"], 12, ["roll", "2d6", "--seed", "12"]),
    (["roll", "2d6", "--seed", "5"], 5, ["roll", "2d6", "--seed", "5"]),
    (["roll", "2d6", "--seed=5"], 5, ["roll", "2d6", "--seed=5"]),
    (["roll", "2d6", "--exact"], None, ["roll", "2d6", "--exact"]),
    (["roll", "2d6", "--seeds"], 3, ["roll", "2d6", "--seeds", "--seed", "3"]),
])
def test_a_permalink_pins_the_seed_the_run_used(words, seed, expected):
    assert pinned(words, seed) == expected


def test_a_link_is_the_query_quoted_whole_and_readable():
    words = ["epic", "shoot", "--to-hit", "4+", "--attackers", "A & B", "--set", "save=hit", "--x", "3/2-5/2,1:2"]
    url = link(words)
    assert url == "/?q=epic+shoot+--to-hit+4%2B+--attackers+'A+%26+B'+--set+save=hit+--x+3/2-5/2,1:2"
    assert parse_qs(urlparse(url).query)["q"] == [shlex.join(words)]  # it reads back as the words, whole


def test_a_query_answer_is_shown_whole():
    words = ["epic", "shoot", "--shots", "6", "--to-hit", "4+", "--units", "3", "--armour", "5+", "--trials", "500",
             "--seed", "9"]
    given = ask(words)
    view = shown(given, words)
    content = given.answer.content
    assert view.title == content.description and view.how == describe(content.result)
    assert view.how == provenance("monte-carlo", 500, 9)
    assert view.tables == tuple(table.html() for table in content.tables())
    assert view.command == "oddscalc " + shlex.join(words) and view.permalink == link(words)
    assert view.svg == link(words, "/plot.svg") and view.png == link(words, "/plot.png")
    assert (view.markdown, view.bbcode, view.json) == tuple(content.render(fmt) for fmt in (
        Format.MARKDOWN, Format.BBCODE, Format.JSON))
    assert [(name, chosen) for name, _, chosen in view.outcomes] == [
        (name, name == content.outcome) for name in content.result.outcomes]
    assert view.outcomes[1][1] == link([*words, "--outcome", list(content.result.outcomes)[1]])
    assert view.notes == tuple(given.answer.notes) and view.failed == given.answer.failed
    unseeded = ["roll", "2d6", "--trials", "300"]
    view = shown(ask(unseeded), unseeded)
    assert view.command.startswith("oddscalc roll 2d6 --trials 300 --seed ")  # the seed used, pinned
    assert view.permalink == link(shlex.split(view.command)[1:])


def test_a_study_is_shown_with_its_plot_drawn_into_the_page():
    words = ["compare", "roll 2d6", "roll d6", "--trials", "400", "--seed", "3"]
    given = ask(words)
    view = shown(given, words)
    assert view.title == shlex.join(words) and view.outcomes == ()
    assert view.how == provenance("monte-carlo", 400, 3, per_cell=True)
    assert view.tables == (study_table(given.answer.content),)
    narrow, wide = view.charts
    assert narrow.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 ') and 'viewBox="0 0 720 ' in wide
    assert view.svg == link(words, "/plot.svg") and fixed_words(given, words) == words  # seeded: its figures fixed


def test_a_sampled_study_pins_its_seed_and_a_failed_goal_is_shown():
    words = ["sweep", "roll 2d6", "--vary", "maximised=0..1", "--trials", "300", "--goal", "at_least_13>=0.5"]
    given = ask(words)
    view = shown(given, words)
    seed = given.answer.content.header["seed"]
    assert view.command == "oddscalc " + shlex.join([*words, "--seed", str(seed)])  # the seed the cells used
    assert view.failed == given.answer.failed and view.failed.startswith("error: --goal")
    assert "goal P(sum ≥ 13) ≥ 50%" in view.charts[1]  # the goal's line, in the plot


def test_every_url_of_an_answer_reads_back_as_its_words():
    words = ["dust", "salvo", "3/2-5/2", "--exact"]
    view = shown(ask(words), words)
    for url in (view.permalink, view.svg, view.png):
        assert parse_qs(urlparse(url).query)["q"] == [shlex.join(words)] and "3/2-5/2" in url


def test_an_uploaded_rosters_answer_has_no_permalink_and_its_plot_inside():
    words = ["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"]
    view = shown(ask(words), words, uploaded=True)
    assert view.permalink is None and view.png is None and view.json_link is None
    import base64

    assert base64.b64decode(view.svg.removeprefix("data:image/svg+xml;base64,")).startswith(b"<?xml")


def test_an_answer_kept_counts_what_its_distributions_hold():
    """The cache of answers keeps within its cap by `size_of`: a query's is its distributions' own
    count of what they hold (`Distribution.nbytes`) and its Fractions, never less."""
    from oddscalc.web.render import size_of

    asked = ask(["roll", "40d100", "--exact", "--fractions"])
    result = asked.answer.content.result
    held = sum(distribution.nbytes for distribution in result.outcomes.values())
    assert held >= 100 * len(result["sum"].probabilities)
    assert size_of(asked) == 4096 + held + 64 * len(result.rationals["sum"])
