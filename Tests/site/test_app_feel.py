"""It feels like the app: motion with meaning between pages (View Transitions with types), a
Back that goes back in history, neighbours fetched ahead, a bar that never collides, a station
page that never scrolls when it fits, fragments below the bar, an info sheet that styles
everything, and the line drawn on a phone. Headless Chromium, over HTTP on loopback."""

import json
import re
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, build_site, copy_site
from test_browser import set_viewport, h1


def motion(driver, reduced):
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-reduced-motion", "value": "reduce" if reduced else "no-preference"}]},
    )


def arrived(driver, title):
    """Waits for the page titled `title` to be revealed, and returns what its transition was."""
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.documentElement.hasAttribute('data-transition')"
        ) and h1(d) == title
    )
    # Let the animation (0.35 s) finish before the next click.
    time.sleep(0.5)
    return driver.execute_script("return document.documentElement.getAttribute('data-transition')")


def click(driver, selector):
    driver.find_element(By.CSS_SELECTOR, selector).click()


@pytest.fixture
def moving(browser):
    motion(browser, reduced=False)
    yield browser
    motion(browser, reduced=True)


def test_every_move_has_its_meaning_and_the_browsers_back_too(moving, http_site):
    browser = moving
    browser.get(http_site + "index.html")
    assert arrived(browser, "L Train") == "none", "a page opened directly has no transition"
    click(browser, "a.link-row")
    assert arrived(browser, "Eighth Avenue") == "push", "index → station pushes"
    click(browser, "a[rel=next]")
    assert arrived(browser, "Sixth Avenue") == "push", "Go East pushes"
    click(browser, "a.more-info")
    assert arrived(browser, "Sixth Avenue") == "present", "More Information presents the sheet"
    assert browser.current_url.endswith("/info/sixth-avenue.html")
    click(browser, "a.done")
    assert arrived(browser, "Sixth Avenue") == "dismiss", "Done dismisses it"
    browser.back()
    assert arrived(browser, "Eighth Avenue") == "pop", "the browser's Back pops"
    browser.forward()
    assert arrived(browser, "Sixth Avenue") == "push", "and Forward pushes"
    click(browser, "a[rel=prev]")
    assert arrived(browser, "Eighth Avenue") == "pop", "back pops"
    browser.get(http_site + "checklists/check-one.html")
    arrived(browser, "Check One")
    click(browser, "a.back")
    assert arrived(browser, "L Train") == "pop", "a checklist's back pops"
    # The types really reach the View Transition: the page's own CSS animates by them.
    css = (REPO / "templates" / "style.css").read_text()
    for kind in ["push", "pop", "present", "dismiss"]:
        assert f"html:active-view-transition-type({kind})" in css


def test_reduced_motion_gets_no_transition_at_all(browser, http_site):
    motion(browser, reduced=True)
    browser.get(http_site + "stations/eighth-avenue.html")
    assert arrived(browser, "Eighth Avenue") == "none"
    for selector, title in [("a[rel=next]", "Sixth Avenue"), ("a.more-info", "Sixth Avenue"), ("a.done", "Sixth Avenue"),
                            ("a[rel=prev]", "Eighth Avenue")]:
        click(browser, selector)
        assert arrived(browser, title) == "none", selector


def test_back_and_done_go_back_in_history(moving, http_site):
    browser = moving
    browser.get(http_site + "index.html")
    arrived(browser, "L Train")
    click(browser, "a.link-row")
    arrived(browser, "Eighth Avenue")
    click(browser, "a[rel=next]")
    arrived(browser, "Sixth Avenue")
    browser.execute_script("window.stationMarker = 'kept'")
    click(browser, "a.more-info")
    arrived(browser, "Sixth Avenue")
    depth = browser.execute_script("return navigation.entries().length")
    click(browser, "a.done")
    arrived(browser, "Sixth Avenue")
    assert browser.execute_script("return navigation.currentEntry.index") == depth - 2, "Done went back"
    assert browser.execute_script("return window.stationMarker") == "kept", "Done's target came from the back/forward cache"
    browser.back()
    assert arrived(browser, "Eighth Avenue") == "pop", "after Done, the phone's Back lands on the station before"
    browser.forward()
    arrived(browser, "Sixth Avenue")
    click(browser, "a[rel=prev]")
    arrived(browser, "Eighth Avenue")
    browser.back()
    assert arrived(browser, "L Train") == "pop", "after the in-app back, Back never returns east"


def test_a_page_opened_directly_keeps_plain_links(browser, http_site):
    motion(browser, reduced=True)
    browser.get("about:blank")
    browser.get(http_site + "info/union-square.html")
    arrived(browser, "Union Square")
    click(browser, "a.done")
    arrived(browser, "Union Square")
    assert browser.current_url.endswith("/stations/union-square.html"), "Done still leads to its station"
    browser.back()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/info/union-square.html"))


NEIGHBOURS = [
    ("eighth-avenue", ["sixth-avenue.html", "../info/eighth-avenue.html"]),
    ("union-square", ["third-avenue.html", "sixth-avenue.html", "../info/union-square.html"]),
    ("bedford-avenue", ["first-avenue.html", "../info/bedford-avenue.html"]),
]


def test_each_station_names_its_neighbours_and_its_info_page_to_fetch_ahead(default_site):
    for slug, expected in NEIGHBOURS:
        html = (default_site / "stations" / f"{slug}.html").read_text()
        assert re.findall(r'<link rel="prefetch" href="([^"]+)">', html) == expected


def test_speculation_rules_name_the_neighbours_where_the_browser_has_them(browser, http_site):
    for slug, expected in NEIGHBOURS:
        browser.get(http_site + f"stations/{slug}.html")
        assert browser.execute_script("return HTMLScriptElement.supports('speculationrules')")
        text = browser.execute_script("const s = document.querySelector('script[type=speculationrules]'); return s && s.textContent")
        assert text, "the page declares speculation rules"
        (rule,) = json.loads(text)["prefetch"]
        assert rule == {"source": "list", "eagerness": "moderate", "urls": expected}


LONG_TITLE = "Union Square and the Long Passage to the Fourteenth Street L"  # 60 characters


@pytest.fixture(scope="module")
def long_title_site(tmp_path_factory):
    assert len(LONG_TITLE) == 60
    root = copy_site(tmp_path_factory.mktemp("long"), REPO / "content")
    for name in ["03-union-square.md", "02-sixth-avenue.md"]:
        path = root / "content" / "stations" / name
        text = path.read_text()
        path.write_text(re.sub(r"^title: .*$", f"title: {LONG_TITLE}", text, count=1, flags=re.M))
    return build_site(root)


def boxes(driver):
    return driver.execute_script("""
        const box = s => { const e = document.querySelector(s); if (!e) return null;
                           const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.height]; };
        const label = document.querySelector('.back-label');
        return {title: box('.bar-title h1'), back: box('a.back'), next: box('a.next'), done: box('a.done'),
                backText: label && label.textContent, backFull: label && label.getAttribute('data-full-label'),
                backFits: label ? label.scrollWidth <= label.clientWidth + 1 : true,
                nextLine: parseFloat(getComputedStyle(document.querySelector('a.next, a.done')).lineHeight)};
    """)


def apart(a, b):
    return a is None or b is None or a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5


@pytest.mark.parametrize("width", [375, 1024, 1440])
@pytest.mark.parametrize("page", ["stations/union-square.html", "stations/third-avenue.html", "info/union-square.html"])
def test_a_long_title_never_runs_into_the_buttons(browser, long_title_site, width, page):
    set_viewport(browser, width, 800)
    browser.get((long_title_site / page).as_uri())
    found = boxes(browser)
    assert apart(found["back"], found["title"]), f"the title overlaps the back button: {found}"
    assert apart(found["title"], found["next"]), f"the title overlaps Go East: {found}"
    assert apart(found["title"], found["done"]), f"the title overlaps Done: {found}"
    button = found["next"] or found["done"]
    assert button[4] < 2 * found["nextLine"] + 1, "Go East and Done never wrap"
    if found["back"]:
        assert found["backFits"], "the back label is never cut to a few letters"
        assert found["backText"] in (found["backFull"], "Back")


@pytest.mark.parametrize("slug", ["eighth-avenue", "union-square", "bedford-avenue"])
def test_a_station_that_fits_never_scrolls_on_a_landscape_phone(browser, default_site, slug):
    set_viewport(browser, 568, 320)
    browser.get((default_site / "stations" / f"{slug}.html").as_uri())
    geometry = browser.execute_script("""
        const bar = document.querySelector('header.bar').getBoundingClientRect();
        const button = document.querySelector('.more-info').getBoundingClientRect();
        const view = document.querySelector('main').getBoundingClientRect();
        const e = document.scrollingElement;
        return {scroll: e.scrollHeight - innerHeight, sideways: e.scrollWidth - innerWidth,
                buttonY: button.top + button.height / 2, middle: (bar.bottom + innerHeight) / 2,
                buttonX: button.left + button.width / 2, centre: (view.left + view.right) / 2};
    """)
    assert geometry["scroll"] <= 0 and geometry["sideways"] <= 0, geometry
    assert abs(geometry["buttonY"] - geometry["middle"]) <= 1, geometry
    assert abs(geometry["buttonX"] - geometry["centre"]) <= 0.5, geometry


def test_a_fragment_lands_below_the_bar(browser, default_site):
    set_viewport(browser, 390, 500)
    browser.get((default_site / "info" / "union-square.html").as_uri() + "#connections")
    time.sleep(0.5)
    found = browser.execute_script("""
        const bar = document.querySelector('.sheet-bar').getBoundingClientRect();
        const heading = document.getElementById('connections').getBoundingClientRect();
        return [bar.bottom, heading.top, scrollY];
    """)
    assert found[2] > 0, "the page scrolled to the fragment"
    assert found[1] >= found[0], f"the heading is under the bar: {found}"


@pytest.fixture(scope="module")
def everything_site(tmp_path_factory):
    root = copy_site(tmp_path_factory.mktemp("everything"), REPO / "content")
    path = root / "content" / "stations" / "03-union-square.md"
    path.write_text(path.read_text() + """
## Everything Markdown makes

> A block quote, as riders say: mind the gap between the train and the platform edge.

A very long word: Pneumonoultramicroscopicsilicovolcanoconiosisandthensomemoretomakeitlonger.

A long link: <https://example.org/a/very/long/path/that/keeps/going/and/going/without/any/break/at/all.html>

```
a code block with a very long line that must scroll inside itself rather than push the page sideways ever
```

![The map](../assets/map-placeholder.svg)

1. An ordered list
2. with two items

---
""")
    (root / "content" / "assets").mkdir(exist_ok=True)
    (root / "content" / "assets" / "map-placeholder.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="1200" height="300" fill="#a7a9ac"/></svg>')
    return build_site(root)


def test_the_info_sheet_styles_everything_markdown_makes_on_a_320_px_screen(browser, everything_site):
    set_viewport(browser, 320, 640)
    browser.get((everything_site / "info" / "union-square.html").as_uri())
    found = browser.execute_script("""
        const quote = getComputedStyle(document.querySelector('.prose blockquote'));
        const image = document.querySelector('.prose img').getBoundingClientRect();
        const pre = document.querySelector('.prose pre');
        return {sideways: document.scrollingElement.scrollWidth - innerWidth, quoteBorder: quote.borderLeftStyle,
                imageRight: image.right, preScrolls: pre.scrollWidth > pre.clientWidth,
                preOverflow: getComputedStyle(pre).overflowX};
    """)
    assert found["sideways"] <= 0, found
    assert found["quoteBorder"] == "solid", "block quotes are set off"
    assert found["imageRight"] <= 320, "images fit the screen"
    assert found["preScrolls"] and found["preOverflow"] == "auto", "a long code line scrolls inside its block"


@pytest.mark.parametrize("width", [320, 390, 1024])
def test_the_line_is_drawn_on_every_screen_and_never_scrolls_sideways(browser, default_site, width):
    set_viewport(browser, width, 800)
    browser.get((default_site / "index.html").as_uri())
    found = browser.execute_script("""
        const map = document.querySelector('.strip-map-group');
        const shown = map && getComputedStyle(map).display !== 'none';
        const svg = document.querySelector('.strip');
        const strip = svg.getBoundingClientRect();
        const cut = shown ? [...svg.querySelectorAll('text')].filter(t => {
            const r = t.getBoundingClientRect(); return r.right > strip.right + 1 || r.bottom > strip.bottom + 1; }).length : 0;
        const box = shown ? document.querySelector('.strip-map') : null;
        const line = getComputedStyle(document.querySelector('.station-list > li'), '::after');
        return {sideways: document.scrollingElement.scrollWidth - innerWidth, shown: shown, cut: cut,
                boxScrolls: box ? box.scrollWidth > box.clientWidth : false, line: line.backgroundColor, lineWidth: line.width};
    """)
    assert found["sideways"] <= 0, found
    assert found["cut"] == 0, "no label of the strip map is cut off"
    assert found["line"] == "rgb(167, 169, 172)" and found["lineWidth"] == "4px", "the station list draws the line"
    if width < 640:
        assert not found["shown"], "no mostly blank strip map box on a phone"
    else:
        assert found["shown"] and not found["boxScrolls"], found
