"""Right to left: a site in Hebrew (the rakevet fixture) mirrors as UIKit does. The bar leads from
the right (back on the right, its chevron pointing right, "next" on the left), the arrow keys go
to the neighbour on their side, push and pop slide the mirrored way, the line list, the strip
map, checklists and the info sheet read right to left, and the single file does the same."""

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import FIXTURES, axe_report, axe_results, copy_site, run_ltrain
from test_browser import set_viewport, h1

STATIONS = ["הר הרצל", "התחנה המרכזית", "יפו מרכז", "העירייה"]
SLUGS = ["har-herzl", "central-station", "jaffa-center", "city-hall"]
PAGES = ["index.html", "stations/har-herzl.html", "stations/central-station.html", "stations/city-hall.html",
         "info/central-station.html", "checklists/what-to-bring.html", "404.html"]


def box(driver, selector):
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};", selector)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_says_it_reads_right_to_left(rakevet_site, page):
    assert re.search(r'<html lang="he" dir="rtl"', (rakevet_site / page).read_text())


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_the_bar_mirrors(browser, rakevet_site, width):
    set_viewport(browser, width, 844)
    browser.get((rakevet_site / "stations/central-station.html").as_uri())
    back, title, onward = box(browser, "a[rel=prev]"), box(browser, ".bar-title"), box(browser, "a[rel=next]")
    assert back["left"] >= title["right"] - 1, "back leads from the right"
    assert onward["right"] <= title["left"] + 1, "next is on the left"
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('a[rel=prev] .chevron')).transform") == "matrix(-1, 0, 0, 1, 0, 0)"
    chevron = box(browser, "a[rel=prev] .chevron")
    label = box(browser, "a[rel=prev] .back-label")
    assert chevron["left"] >= label["right"] - 1, "the chevron stands at the button's leading (right) edge"
    browser.get((rakevet_site / "info/central-station.html").as_uri())
    assert box(browser, "a.done")["right"] <= box(browser, ".bar-title")["left"] + 1, "Done is on the left"


def test_the_arrow_keys_go_to_the_neighbour_on_their_side(browser, rakevet_site):
    set_viewport(browser, 390, 844)
    browser.get((rakevet_site / "stations/central-station.html").as_uri())
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert h1(browser) == STATIONS[2], "← goes on to the next station, shown on the left"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert h1(browser) == STATIONS[1], "→ goes back"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert h1(browser) == STATIONS[0]


@pytest.mark.parametrize("site, sign", [("rakevet_site", -1), ("default_site", 1)])
def test_push_and_pop_slide_the_way_the_line_reads(request, browser, site, sign):
    """The site's own keyframes, run on a probe 100 px wide: a pushed page comes in from the
    trailing edge (the left, right to left) and a popped one from the leading edge."""
    folder = request.getfixturevalue(site)
    set_viewport(browser, 390, 844)
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
    try:
        browser.get((folder / "stations" / ("central-station.html" if sign < 0 else "union-square.html")).as_uri())
        starts = browser.execute_script("""
            const starts = {};
            for (const name of ['slide-in-from-trailing', 'slide-out-to-trailing', 'slide-in-from-leading']) {
                const probe = document.createElement('div');
                probe.style.cssText = 'position: fixed; width: 100px; height: 10px; animation: ' + name +
                    ' 10s linear paused both';
                document.body.appendChild(probe);
                const matrix = new DOMMatrix(getComputedStyle(probe).transform);
                starts[name] = matrix.m41;
                probe.remove();
            }
            return starts;
        """)
    finally:
        browser.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    assert starts["slide-in-from-trailing"] == pytest.approx(sign * 100), starts
    assert starts["slide-in-from-leading"] == pytest.approx(sign * -30), starts


def test_the_line_list_and_the_checklist_read_right_to_left(browser, rakevet_site):
    set_viewport(browser, 390, 844)
    browser.get((rakevet_site / "index.html").as_uri())
    number, label, disclosure = (box(browser, f".station-list li:first-child {part}")
                                 for part in [".row-number", ".row-label", ".disclosure"])
    assert number["left"] >= label["right"] - 1 and disclosure["right"] <= label["left"] + 1
    line = browser.execute_script(
        "const li = document.querySelector('.station-list li');"
        "return [li.getBoundingClientRect().right - parseFloat(getComputedStyle(li, '::after').right)];")
    assert number["left"] <= line[0] <= number["right"], "the drawn line runs through the numbers, on the right"
    browser.get((rakevet_site / "checklists/what-to-bring.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "label.check-row")
    rows[1].click()
    check, text = (box(browser, f".group-rows > label:nth-of-type(2) {part}") for part in [".check", ".row-label"])
    assert check["right"] <= text["left"] + 1, "the check mark is on the trailing (left) side"


def test_the_strip_map_reads_right_to_left_and_spans_its_card(browser, rakevet_site):
    set_viewport(browser, 1280, 900)
    browser.get((rakevet_site / "index.html").as_uri())
    found = browser.execute_script("""
        const card = document.querySelector('.strip-map').getBoundingClientRect();
        const stops = [...document.querySelectorAll('.strip-stop circle')].map(c => c.getBoundingClientRect());
        const labels = [...document.querySelectorAll('.strip-stop text')].map(t => t.getBoundingClientRect());
        return {card: [card.left, card.right], stops: stops.map(s => (s.left + s.right) / 2),
                labelsInside: labels.every(l => l.left >= card.left - 1 && l.right <= card.right + 1),
                labelsLeftOfStops: labels.every((l, i) => l.right <= stops[i].right + 2)};
    """)
    assert found["stops"] == sorted(found["stops"], reverse=True), "the first station is on the right"
    span = (found["stops"][0] - found["stops"][-1]) / (found["card"][1] - found["card"][0])
    assert span > 0.7, f"the line spans {span:.2f} of its card"
    assert found["labelsInside"] and found["labelsLeftOfStops"], found


def test_the_strip_map_spans_its_card_left_to_right(browser, default_site):
    set_viewport(browser, 1280, 900)
    browser.get((default_site / "index.html").as_uri())
    found = browser.execute_script("""
        const card = document.querySelector('.strip-map').getBoundingClientRect();
        const stops = [...document.querySelectorAll('.strip-stop circle')].map(c => c.getBoundingClientRect());
        return {card: [card.left, card.right], stops: stops.map(s => (s.left + s.right) / 2)};
    """)
    assert found["stops"] == sorted(found["stops"]), "the first station is on the left"
    span = (found["stops"][-1] - found["stops"][0]) / (found["card"][1] - found["card"][0])
    assert span > 0.7, f"the line spans {span:.2f} of its card"


@pytest.mark.parametrize("page", PAGES)
def test_axe_finds_no_violation_right_to_left(browser, rakevet_site, page):
    set_viewport(browser, 390, 844)
    browser.get((rakevet_site / page).as_uri())
    results = axe_results(browser)
    assert axe_report(results) == []
    assert results["passes"]


def test_the_single_file_reads_right_to_left(browser, tmp_path):
    root = copy_site(tmp_path, FIXTURES / "rakevet" / "content")
    run_ltrain("bundle", "--output", tmp_path / "rakevet.html", cwd=root)
    set_viewport(browser, 390, 844)
    browser.get((tmp_path / "rakevet.html").as_uri() + "#stations-central-station")
    assert browser.execute_script("return document.documentElement.dir") == "rtl"

    def shown(selector):
        return [e for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]

    back, onward = shown("a[rel=prev]")[0].rect, shown("a[rel=next]")[0].rect
    assert back["x"] > onward["x"], "back on the right, next on the left"
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert [h.text for h in shown("h1")] == [STATIONS[2]]
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert [h.text for h in shown("h1")] == [STATIONS[1]]
