"""The page in a real browser: Playwright driving the system's Chromium (Debian's `chromium`).

Without a browser these tests skip, saying why; with ODDSCALC_BROWSER_TESTS=required (as
.ci/run sets it) a missing browser fails them instead, so CI always runs them."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from oddscalc.core import engine
from oddscalc.query.words import parse_query
from oddscalc.output.style import percent

DATA = Path(__file__).parent.parent / "data"
REQUIRED = os.environ.get("ODDSCALC_BROWSER_TESTS") == "required"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # no connection leaves this machine


def chromium() -> str | None:
    return os.environ.get("ODDSCALC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason} (ODDSCALC_BROWSER_TESTS=required)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server():
    """The page served by uvicorn on a free port of this machine, in a thread."""
    pytest.importorskip("uvicorn")
    from oddscalc.web.app import create_app
    from web.serving import in_thread

    with in_thread(create_app()) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("no Playwright for Python (pip install -e '.[test]')")
    path = chromium()
    if path is None:
        unavailable("no Chromium: install Debian's chromium package (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    yield from opened(browser, 1200, 900)


@pytest.fixture
def phone(browser):
    """A phone's screen: 390 px wide."""
    yield from opened(browser, 390, 844)


def opened(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield tab
    context.close()
    assert errors == []  # no script error, no resource refused by the Content-Security-Policy


ARTEFACTS = Path(os.environ.get("ODDSCALC_ARTEFACTS") or Path(__file__).parent.parent.parent / "artefacts")


def keep(tab, name: str) -> Path:
    """A screenshot of the whole page among the test run's artefacts (ODDSCALC_ARTEFACTS, default artefacts/)."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / name
    tab.screenshot(path=path, full_page=True)
    assert path.read_bytes().startswith(b"\x89PNG")
    return path


SHOOT = {"--shots": "12", "--to-hit": "4+", "--units": "6", "--armour": "4+"}


def fill(page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.fill(f'[data-field="{name}"] input', value)


def event_probability(page, event: str) -> str:
    return page.locator("#answer table tr", has_text=f"P({event})").locator("td").nth(1).inner_text()


def test_a_query_filled_in_the_page_gives_the_exact_answer_and_a_permalink(server, page, tmp_path):
    page.goto(f"{server}/?query=epic%20shoot")
    fill(page, SHOOT)
    page.check('[data-field="--exact"] input')
    page.click("button[type=submit]")
    page.wait_for_selector("#answer h2")
    exact = engine.run(parse_query("epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+").attack,
                       method="exact")
    assert event_probability(page, "broken") == percent(exact["broken"].at_least(1))
    assert "/?q=epic+shoot" in page.url  # the address is the permalink
    shown = page.inner_text("#answer .tables")
    page.screenshot(path=tmp_path / "query.png", full_page=True)
    assert (tmp_path / "query.png").read_bytes().startswith(b"\x89PNG")
    again = page.context.new_page()
    again.goto(page.url)  # the permalink, opened afresh: rendered on the server, the same figures
    assert again.inner_text("#answer .tables") == shown
    assert again.inner_text("#command") == ("oddscalc epic shoot --shots 12 --to-hit 4+ --armour 4+ --units 6 "
                                            "--exact")


def test_a_sampled_answer_pins_its_seed(server, page):
    page.goto(f"{server}/?query=roll")
    fill(page, {"DICE": "6d6", "--trials": "3e6"})
    assert page.is_checked('[data-field="--exact"] input')  # exact by default: this one samples
    page.uncheck('[data-field="--exact"] input')
    page.click("button[type=submit]")
    page.wait_for_selector("#answer h2", timeout=60_000)
    assert re.search(r"--seed\+\d+", page.url)
    figures = page.inner_text("#answer .tables")
    page.goto(page.url)
    assert page.inner_text("#answer .tables") == figures


def test_a_bad_value_shows_the_command_lines_message_by_its_field(server, page):
    page.goto(f"{server}/?query=epic%20shoot")
    fill(page, {**SHOOT, "--to-hit": "9"})
    page.click("button[type=submit]")
    page.wait_for_selector(".refused .error")
    assert page.get_attribute(".refused", "data-field") == "--to-hit"
    assert page.inner_text(".refused .error") == "error: --to-hit 9+: expected the weapon's to-hit value, 2+ to 6+"


def grid_of_steel_legion(page, server: str) -> None:
    """The Steel Legion list uploaded on the grid page, its Basilisk Battery's rows computed exactly."""
    page.goto(f"{server}/grid")
    page.set_input_files("#roster", str(DATA / "battlescribe" / "bsdata" / "steel_legion.rosz"))
    page.check("#exact")
    page.fill("#options", "--attackers 'Basilisk Battery'")
    page.click("button[type=submit]")
    page.wait_for_selector("table.sortable")


def test_an_uploaded_list_grids_and_a_cell_opens_its_query(server, page):
    grid_of_steel_legion(page, server)
    first = page.locator("table.sortable tbody tr").first.locator("td").first.inner_text()
    page.click("table.sortable th:nth-child(1) button")  # sorts by the first column
    page.click("table.sortable th:nth-child(1) button")
    assert page.locator("table.sortable tbody tr").count() >= 1 and first
    link = page.locator("table.sortable a").first
    query = link.inner_text()
    link.click()
    page.wait_for_selector("#answer h2")
    assert page.inner_text("#command") == f"oddscalc {query} --exact"  # the grid was exact: so is its cell


PERMALINK = "/?q=epic+shoot+--shots+12+--to-hit+4%2B+--units+6+--armour+4%2B+--crossfire+--exact"
CHART_TEXT = """Array.from(document.querySelectorAll('.chart svg')).filter(svg => svg.getBoundingClientRect().width > 0)
  .flatMap(svg => Array.from(svg.querySelectorAll('text'))
  .map(text => parseFloat(text.getAttribute('font-size')) * svg.getScreenCTM().a))"""
WORDS_SPLIT = """Array.from(document.querySelectorAll('#command .w')).filter(word => {
  const box = word.getBoundingClientRect(); return box.height > 1.6 * parseFloat(getComputedStyle(word).lineHeight || 20);
}).map(word => word.textContent)"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_shared_permalink_reads_without_zooming_or_scrolling_sideways(server, browser, width):
    """The sentence and the main figures on the first screen, the plot's text 10 px or more, tables that
    scroll with a cue, a command line wrapped between its words; a screenshot kept."""
    for tab in opened(browser, width, 844 if width == 390 else 900):
        tab.goto(server + PERMALINK)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width  # nothing cut, nothing sideways
        sentence = tab.locator("#sentence").bounding_box()
        assert sentence["y"] + sentence["height"] <= 844  # read on the first screen
        first = tab.locator("#answer table").first.bounding_box()
        assert first["y"] < 844 and first["x"] >= 0
        exact = engine.run(parse_query(PERMALINK.split("q=")[1].replace("+", " ").replace("%2B", "+")
                                       .removesuffix(" --exact")).attack, method="exact")
        assert tab.inner_text("#sentence").startswith(f"Kills {exact['kills'].mean:.3g} of 6 units on average")
        sizes = tab.evaluate(CHART_TEXT)
        assert sizes and min(sizes) >= 10, sizes  # the plot drawn for the width it is shown at
        assert tab.evaluate(WORDS_SPLIT) == []  # no word of the command line broken ("-" / "-shots")
        for box in tab.locator("#answer .scroll").all():  # each table fits, or says it scrolls
            fits = tab.evaluate("(box) => box.scrollWidth <= box.clientWidth + 1", box.element_handle())
            assert fits or "overflows" in box.get_attribute("class")
        keep(tab, f"permalink-{width}.png")


def test_after_compute_the_answer_has_the_focus_and_only_its_sentence_is_announced(server, page):
    page.goto(f"{server}/?query=epic%20shoot")
    assert page.get_attribute("a.skip", "href") == "#content"
    fill(page, SHOOT)
    page.click("button[type=submit]")
    page.wait_for_selector("#answer h2")
    page.locator("#status", has_text="on average").wait_for(state="attached")
    assert page.evaluate("document.activeElement.id") == "answer-title"
    status = page.inner_text("#status")
    assert status == f"{page.inner_text('#answer-title')}: {page.inner_text('#sentence')}"
    assert page.get_attribute("#answer", "aria-live") is None  # the tables are not read out, only the sentence
    keep(page, "answer-1280.png")


def test_an_exact_answer_too_big_to_be_quick_is_sampled_instead(server, page):
    page.goto(f"{server}/?query=epic%20shoot")
    fill(page, {"--shots": "200", "--to-hit": "4+", "--armour": "4+", "--trials": "2000"})
    page.click("summary:has-text('More options')")
    fill(page, {"--war-engines": "20", "--damage-capacity": "20", "--shields": "20"})
    assert page.is_checked('[data-field="--exact"] input')
    page.click("button[type=submit]")
    page.wait_for_selector("#answer h2", timeout=60_000)
    assert page.inner_text("#answer .note").startswith("Sampled: --exact Epic shooting")
    assert "--exact" not in page.inner_text("#command") and "--trials 2000" in page.inner_text("#command")


def test_a_grid_keeps_its_upload_and_sorts_with_a_stated_order(server, page):
    grid_of_steel_legion(page, server)
    assert page.eval_on_selector("#roster", "input => input.files.length") == 1  # ready for the next grid
    assert page.evaluate("document.activeElement.id") == "answer-title"
    header = page.locator("table.sortable th").nth(4)
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    means = [float(cell.get_attribute("data-v")) for cell in page.locator("table.sortable tbody td:nth-child(5)").all()]
    assert means == sorted(means)


def test_a_grid_reads_as_cards_on_a_phone(server, phone):
    phone.goto(f"{server}/?q=grid+--game+epic+--exact+--attackers+'Whirlwind+Battery'")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    first = phone.locator("table.sortable tbody tr").first
    labels = phone.evaluate("(row) => Array.from(row.cells).map(cell => getComputedStyle(cell, '::before').content)",
                            first.element_handle())
    assert '"mean"' in labels and '"p_kill"' in labels  # every figure shown, named
    assert first.bounding_box()["width"] <= 390
    keep(phone, "grid-390.png")


def test_the_questions_narrow_as_a_player_types(server, phone):
    phone.goto(server + "/")
    phone.fill("#search", "breath")
    visible = [item.inner_text().split("\n")[0] for item in phone.locator("li[data-search]").all() if item.is_visible()]
    assert visible == ["Automatic hits"]
    keep(phone, "home-390.png")


def test_the_plots_png_is_drawn_in_the_browser_from_the_plot_shown(server, page):
    page.goto(server + PERMALINK)
    with page.expect_download() as download:
        page.click("figure a.png")
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"\x89PNG") and download.value.suggested_filename == "oddscalc.png"
    width = int.from_bytes(data[16:20], "big")
    assert width == 2 * int(page.locator(".chart .wide svg").get_attribute("width"))  # twice the plot's size


ENGAGEMENTS = [
    ("epic assault", ("Your formation", "The enemy formation"),
     {"--units": "6", "--cc": "4+", "--ff": "4+", "--armour": "4+"},
     {"--enemy-units": "8", "--enemy-cc": "4+", "--enemy-ff": "6+", "--enemy-armour": "6+"}),
    ("t9a combat", ("The charger", "The charged unit"),
     {"--models": "5", "--width": "5", "--attacks": "1", "--offensive": "4", "--defensive": "4", "--strength": "5",
      "--resilience": "3", "--agility": "3", "--discipline": "7"},
     {"--enemy-models": "20", "--enemy-width": "5", "--enemy-attacks": "1", "--enemy-offensive": "3",
      "--enemy-defensive": "3", "--enemy-strength": "3", "--enemy-resilience": "3", "--enemy-agility": "3",
      "--enemy-discipline": "7"}),
]


@pytest.mark.parametrize("path, legends, mine, theirs", ENGAGEMENTS, ids=[e[0] for e in ENGAGEMENTS])
def test_an_engagement_is_asked_side_by_side_from_the_fields_a_player_fills_first(server, browser, path, legends,
                                                                                  mine, theirs):
    """Issue 49: the Assault form showed no assault field (all 51 under "more") and Compute answered a bare result
    roll. Each side's first fields stand in its own fieldset, beside the other's on a wide screen, above it on a
    phone; filled and computed, the answer is the exact answer of the same query, and its permalink reads it
    again."""
    for width in (1280, 390):
        for tab in opened(browser, width, 900):
            tab.goto(f"{server}/?query={path.replace(' ', '%20')}")
            sides = tab.locator("fieldset.side")
            assert [sides.nth(index).locator("legend").inner_text() for index in range(2)] == list(legends)
            for index, values in enumerate((mine, theirs)):
                for name in values:  # on the first screen of its side, not under "more"
                    assert sides.nth(index).locator(f'[data-field="{name}"]').is_visible(), (width, name)
            first, second = (sides.nth(index).bounding_box() for index in range(2))
            assert (first["y"] == second["y"]) if width > 700 else (second["y"] > first["y"] + first["height"] - 1)
            assert tab.evaluate("document.documentElement.scrollWidth") <= width
            fill(tab, {**mine, **theirs})
            tab.check('[data-field="--exact"] input')
            tab.click("button.compute")
            tab.wait_for_selector("#answer h2")
            words = " ".join(f"{name} {value}" for name, value in {**mine, **theirs}.items())
            attack = parse_query(f"{path} {words}").attack
            exact = engine.run(attack, method="exact")
            assert event_probability(tab, "win") == percent(exact["win"].at_least(1))
            said = tab.inner_text("#sentence")
            assert said and "result roll" not in said
            again = tab.context.new_page()
            again.goto(tab.url)  # the permalink
            assert again.inner_text("#sentence") == said
            keep(tab, f"{path.replace(' ', '-')}-{width}.png")


PRESETS = [("t9a combat", "Knights", "Heavy Infantry"), ("epic assault", "Tactical Detachment", "Ork Warband")]


@pytest.mark.parametrize("path, charger, charged", PRESETS, ids=[p[0] for p in PRESETS])
def test_an_engagements_sides_are_filled_from_a_roster_and_from_an_uploaded_list(server, browser, tmp_path, path,
                                                                                 charger, charged):
    """Issue 49: a preset from a roster or an imported list, a unit for each side. Each side filled from a unit of
    the bundled example (and, on the phone, of a list the player uploads) shows the unit's figures in its fields,
    as the grid fights them, and Compute answers the grid's exact P(win) of the one on the other."""
    from oddscalc.lists.games import load_roster
    from oddscalc.web.forms import values_of

    game = path.split()[0]
    roster = load_roster(None, game)
    units = {unit.name: unit for unit in roster.units}
    attack = roster.game.assault(units[charger], units[charged])
    expected = values_of(path, attack.query().split()[1:])
    club = tmp_path / "club.toml"
    shutil.copy(Path(__file__).parents[2] / "oddscalc" / "data" / f"{game}_example.toml", club)
    for width in (1280, 390):
        for tab in opened(browser, width, 900):
            tab.goto(f"{server}/?query={path.replace(' ', '%20')}")
            source = f"bundled {game} example"
            if width < 700:  # the phone reads the player's own list (the same units, named after its file)
                tab.set_input_files("#list-file", str(club))
                tab.click("form.list button")
                tab.wait_for_selector("#preset-1")
                source = "club.toml"
            for side, unit in ((1, charger), (2, charged)):
                tab.select_option(f"#preset-{side}", label=f"{unit} ({source})")
                tab.click(f'button.fill[value="{side}"]')
                tab.wait_for_selector(f"#preset-{side}")
            for name, value in expected.items():
                box = tab.locator(f'[data-field="{name}"] input, [data-field="{name}"] select').first
                shown = "on" if box.get_attribute("type") == "checkbox" and box.is_checked() else box.input_value()
                assert shown == value, (width, name)
            tab.check('[data-field="--exact"] input')
            tab.click("button.compute")
            tab.wait_for_selector("#answer h2")
            assert event_probability(tab, "win") == percent(engine.run(attack, method="exact")["win"].at_least(1))
            assert tab.evaluate("document.documentElement.scrollWidth") <= width
            keep(tab, f"{path.replace(' ', '-')}-presets-{width}.png")
