"""The page in a real browser: Playwright driving the system's Chromium (Debian's `chromium`).

Without a browser these tests skip, saying why; with ODDSCALC_BROWSER_TESTS=required (as
.ci/run sets it) a missing browser fails them instead, so CI always runs them."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from oddscalc import engine
from oddscalc.cli.words import parse_query
from oddscalc.style import percent

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
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield opened
    context.close()
    assert errors == []  # no script error, no resource refused by the Content-Security-Policy


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


def test_an_uploaded_list_grids_and_a_cell_opens_its_query(server, page):
    page.goto(f"{server}/grid")
    page.set_input_files("#roster", str(DATA / "battlescribe" / "bsdata" / "steel_legion.rosz"))
    page.check("#exact")
    page.fill("#options", "--attackers 'Basilisk Battery'")
    page.click("button[type=submit]")
    page.wait_for_selector("table.sortable")
    first = page.locator("table.sortable tbody tr").first.locator("td").first.inner_text()
    page.click("table.sortable th:nth-child(1) button")  # sorts by the first column
    page.click("table.sortable th:nth-child(1) button")
    assert page.locator("table.sortable tbody tr").count() >= 1 and first
    link = page.locator("table.sortable a").first
    query = link.inner_text()
    link.click()
    page.wait_for_selector("#answer h2")
    assert page.inner_text("#command") == f"oddscalc {query} --exact"  # the grid was exact: so is its cell
