"""The built site as a visitor uses it, in headless Chromium: from file:// (offline) and over
HTTP under a sub-path (static hosting)."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from conftest import REPO

STATIONS = ["Eighth Avenue", "Sixth Avenue", "Union Square", "Third Avenue", "First Avenue", "Bedford Avenue"]
ROWS = [
    "Who Hash", "Bubba Gump Shrimp Étouffée", "Who Pudding", "Scooby Snacks", "Everlasting Gobstopper",
    "Green Eggs and Ham", "Soylent Green", "Hard Tack", "Lembas Bread", "Roast Beast", "Blancmange",
]


def set_viewport(driver, width, height, dark=False):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    )
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"},
            {"name": "prefers-reduced-motion", "value": "reduce"},
        ]},
    )


@pytest.fixture(params=["file", "http"])
def site_url(request, default_site, http_site):
    """The site's base URL: the folder on disk, or the static server's /sub/dir/."""
    if request.param == "file":
        return default_site.as_uri() + "/"
    return http_site


def h1(driver):
    return driver.find_element(By.TAG_NAME, "h1").text


def links(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def back_label(link):
    """The previous station's title a back button stands for: its text, or its full label when
    the title did not fit and the button says "Back"."""
    label = link.find_element(By.CLASS_NAME, "back-label")
    if label.text == label.get_attribute("data-short-label"):
        return label.get_attribute("data-full-label")
    return label.text


@pytest.mark.parametrize("width", [320, 390, 1440])
def test_a_back_title_that_does_not_fit_says_back_never_a_few_letters(browser, default_site, width):
    set_viewport(browser, width, 800)
    for slug in ["sixth-avenue", "union-square", "third-avenue", "first-avenue", "bedford-avenue"]:
        browser.get((default_site / "stations" / f"{slug}.html").as_uri())
        label = browser.find_element(By.CSS_SELECTOR, "a[rel=prev] .back-label")
        full = label.get_attribute("data-full-label")
        # The full title, put back by hand: it fits when it stands on one line and the page's own
        # title keeps its longest word whole.
        fits = browser.execute_script(
            "var l = arguments[0]; l.textContent = l.getAttribute('data-full-label');"
            "var bar = l.closest('.bar'); bar.style.gridTemplateColumns = ''; bar.classList.remove('fitted');"
            "var h1 = bar.querySelector('h1'); h1.style.overflowWrap = 'normal';"
            "var fits = l.getBoundingClientRect().height < parseFloat(getComputedStyle(l).lineHeight) * 1.5"
            "  && h1.scrollWidth <= h1.clientWidth + 1;"
            "h1.style.overflowWrap = ''; window.dispatchEvent(new Event('resize')); return fits;",
            label)
        assert label.text == (full if fits else "Back"), f"{slug} at {width} px"
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", label)
    if width == 1440:
        assert label.text == "First Avenue", "on a wide screen the previous title shows in full"


def test_go_east_walks_the_line_and_back_returns(browser, site_url):
    set_viewport(browser, 390, 844)
    browser.get(site_url + "index.html")
    links(browser, "a.link-row")[0].click()
    seen = []
    while True:
        seen.append(h1(browser))
        position = len(seen) - 1
        back = links(browser, "a[rel=prev]")
        if position == 0:
            assert back == [], "the first station has no back button"
        else:
            assert back_label(back[0]) == STATIONS[position - 1], "back is labelled with the previous station"
        east = links(browser, "a[rel=next]")
        if not east:
            break
        assert east[0].text == "Go East"
        east[0].click()
    assert seen == STATIONS, "Go East walks every station, west to east"
    for title in reversed(STATIONS[:-1]):
        links(browser, "a[rel=prev]")[0].click()
        assert h1(browser) == title
    assert browser.current_url.startswith(site_url)


def test_more_information_opens_the_info_page_and_done_returns(browser, site_url):
    set_viewport(browser, 390, 844)
    for slug, title in [("eighth-avenue", "Eighth Avenue"), ("union-square", "Union Square"), ("bedford-avenue", "Bedford Avenue")]:
        browser.get(site_url + f"stations/{slug}.html")
        browser.find_element(By.LINK_TEXT, "More Information").click()
        assert browser.current_url == site_url + f"info/{slug}.html"
        assert h1(browser) == title
        assert links(browser, "a[rel=prev]") == [] and links(browser, "a[rel=next]") == []
        assert browser.find_elements(By.PARTIAL_LINK_TEXT, "Go East") == []
        assert len(browser.find_elements(By.CSS_SELECTOR, ".sheet-body p")) >= 3, "the info text is there"
        browser.find_element(By.LINK_TEXT, "Done").click()
        assert browser.current_url == site_url + f"stations/{slug}.html"
        assert h1(browser) == title


@pytest.mark.parametrize("width,height", [(320, 480), (390, 844), (1280, 800)])
def test_more_information_is_centred_below_the_bar(browser, default_site, width, height):
    set_viewport(browser, width, height)
    for slug in ["eighth-avenue", "union-square", "bedford-avenue"]:
        browser.get((default_site / "stations" / f"{slug}.html").as_uri())
        geometry = browser.execute_script(
            """
            const bar = document.querySelector('header.bar').getBoundingClientRect();
            const view = document.querySelector('main').getBoundingClientRect();
            const button = document.querySelector('.more-info').getBoundingClientRect();
            return {barBottom: bar.bottom, viewLeft: view.left, viewRight: view.right,
                    height: window.innerHeight, buttonX: button.left + button.width / 2,
                    buttonY: button.top + button.height / 2, scrollY: window.scrollY};
            """
        )
        assert geometry["scrollY"] == 0
        centre_y = (geometry["barBottom"] + geometry["height"]) / 2
        centre_x = (geometry["viewLeft"] + geometry["viewRight"]) / 2
        assert abs(geometry["buttonY"] - centre_y) <= 1, f"{slug} at {width}x{height}: {geometry}"
        assert abs(geometry["buttonX"] - centre_x) <= 1, f"{slug} at {width}x{height}: {geometry}"


def checked(driver):
    return [row.text for row in driver.find_elements(By.CSS_SELECTOR, "label.check-row") if row.find_element(By.TAG_NAME, "input").is_selected()]


def visible_marks(driver):
    return [
        row.text for row in driver.find_elements(By.CSS_SELECTOR, "label.check-row")
        if row.find_element(By.CSS_SELECTOR, ".check").value_of_css_property("visibility") == "visible"
    ]


def forget_checklists(driver, url):
    """Opens `url` with nothing remembered: its origin's localStorage cleared (JavaScript on)."""
    driver.get(url)
    driver.execute_script("window.localStorage.clear()")
    driver.get(url)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_check_one_allows_one_row_at_a_time(request, default_site, javascript):
    driver = request.getfixturevalue("browser" if javascript else "browser_without_js")
    set_viewport(driver, 390, 844)
    forget_checklists(driver, (default_site / "checklists" / "check-one.html").as_uri())
    rows = driver.find_elements(By.CSS_SELECTOR, "label.check-row")
    assert [row.text for row in rows] == ROWS
    assert checked(driver) == [] and visible_marks(driver) == [], "no row is checked at first"
    rows[2].click()
    assert checked(driver) == ["Who Pudding"] and visible_marks(driver) == ["Who Pudding"]
    rows[6].click()
    assert checked(driver) == ["Soylent Green"] and visible_marks(driver) == ["Soylent Green"], "the check moves"
    rows[6].click()
    assert checked(driver) == ["Soylent Green"], "choosing the same row again keeps it"
    focused = driver.switch_to.active_element
    assert focused.get_attribute("value") == "soylent-green"
    focused.send_keys(Keys.ARROW_DOWN)
    assert checked(driver) == ["Hard Tack"] and visible_marks(driver) == ["Hard Tack"], "arrow keys move the check"
    driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
    driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
    assert checked(driver) == ["Green Eggs and Ham"]


def test_the_chosen_row_is_remembered_across_a_navigation_and_a_reload(browser, default_site):
    set_viewport(browser, 390, 844)
    url = (default_site / "checklists" / "check-one.html").as_uri()
    forget_checklists(browser, url)
    browser.find_elements(By.CSS_SELECTOR, "label.check-row")[3].click()
    assert checked(browser) == ["Scooby Snacks"]
    browser.find_element(By.CSS_SELECTOR, "a.back").click()
    assert browser.current_url.endswith("/index.html")
    browser.find_element(By.LINK_TEXT, "Check One").click()
    assert checked(browser) == ["Scooby Snacks"] and visible_marks(browser) == ["Scooby Snacks"], "after a navigation"
    browser.refresh()
    assert checked(browser) == ["Scooby Snacks"], "after a reload"
    browser.get("about:blank")
    browser.get(url)
    assert checked(browser) == ["Scooby Snacks"], "on a new visit"
    stored = browser.execute_script("return Object.keys(localStorage).filter(k => k.startsWith('ltrain:'))")
    assert stored == [f"ltrain:{default_site.as_uri()}/index.html:check-one"], "keyed by site and checklist"
    browser.find_elements(By.CSS_SELECTOR, "label.check-row")[0].click()
    browser.refresh()
    assert checked(browser) == ["Who Hash"], "the new choice replaces the old"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_checklist_of_many_ticks_any_number_of_rows(request, passeio_site, javascript):
    driver = request.getfixturevalue("browser" if javascript else "browser_without_js")
    set_viewport(driver, 390, 844)
    forget_checklists(driver, (passeio_site / "checklists" / "o-que-levar.html").as_uri())
    rows = driver.find_elements(By.CSS_SELECTOR, "label.check-row")
    assert [row.text for row in rows] == ["Água", "Chapéu", "Sapatos confortáveis", "Protetor solar"]
    assert {row.find_element(By.TAG_NAME, "input").get_attribute("type") for row in rows} == {"checkbox"}
    assert driver.find_element(By.CSS_SELECTOR, "fieldset legend").get_attribute("textContent") == "O que levar"
    assert checked(driver) == [], "nothing is ticked at first"
    for index in (0, 2, 3):
        rows[index].click()
    assert checked(driver) == ["Água", "Sapatos confortáveis", "Protetor solar"]
    assert visible_marks(driver) == ["Água", "Sapatos confortáveis", "Protetor solar"]
    rows[2].click()
    assert checked(driver) == ["Água", "Protetor solar"], "a second tap unticks a row"
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    assert checked(driver) == ["Água", "Sapatos confortáveis", "Protetor solar"], "space ticks the focused row"
    if javascript:
        driver.refresh()
        assert checked(driver) == ["Água", "Sapatos confortáveis", "Protetor solar"], "remembered"
    # The single-choice list of the same site is still one row at a time.
    driver.get((passeio_site / "checklists" / "onde-almocar.html").as_uri())
    single = driver.find_elements(By.CSS_SELECTOR, "label.check-row")
    assert {row.find_element(By.TAG_NAME, "input").get_attribute("type") for row in single} == {"radio"}
    single[0].click()
    single[1].click()
    assert checked(driver) == ["Pastelaria"]


def test_a_tapped_row_does_not_stay_highlighted_but_keyboard_focus_shows(browser, default_site):
    # A phone: a touch screen, where the row last tapped keeps :hover.
    set_viewport(browser, 390, 844)
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        forget_checklists(browser, (default_site / "checklists" / "check-one.html").as_uri())
        assert browser.execute_script("return matchMedia('(hover: none)').matches")
        rows = browser.find_elements(By.CSS_SELECTOR, "label.check-row")
        untouched = rows[5].value_of_css_property("background-color")
        rows[1].click()
        assert browser.execute_script("return arguments[0].matches(':hover')", rows[1]), "the tap left :hover on it"
        assert rows[1].value_of_css_property("background-color") == untouched, "no highlight left after a tap"
        assert rows[1].value_of_css_property("outline-style") == "none", "a tap shows no focus ring"
        browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        assert checked(browser) == ["Who Pudding"]
        assert rows[2].value_of_css_property("outline-style") == "solid", "keyboard focus stays visible"
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def test_javascript_is_really_off_in_the_no_js_browser(browser_without_js, default_site):
    # Selenium's own script injection still works with page scripts disabled, so check the
    # site's script instead: with JavaScript off its arrow-key handler must not act.
    browser_without_js.get((default_site / "stations" / "union-square.html").as_uri())
    ActionChains(browser_without_js).send_keys(Keys.ARROW_RIGHT).perform()
    assert h1(browser_without_js) == "Union Square"


def tab_order(driver, count):
    """The first `count` stops of Tab from a freshly loaded page."""
    order = []
    for _ in range(count):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        element = driver.switch_to.active_element
        order.append((element.text or element.get_attribute("value") or element.get_attribute("aria-label") or "").strip())
    return order


def test_tab_reaches_every_button_in_order_and_enter_follows(browser, default_site):
    set_viewport(browser, 1024, 844)
    browser.get((default_site / "stations" / "union-square.html").as_uri())
    assert tab_order(browser, 5) == ["Sixth Avenue", "L Train", "Search", "Go East", "More Information"]
    browser.get((default_site / "stations" / "union-square.html").as_uri())
    tab_order(browser, 5)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert browser.current_url.endswith("/info/union-square.html")
    assert tab_order(browser, 2) == ["Search", "Done"], "the sheet's bar: Search on the leading side, then Done"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert browser.current_url.endswith("/stations/union-square.html")


def test_arrow_keys_go_west_and_east_and_escape_is_done(browser, default_site):
    set_viewport(browser, 390, 844)
    browser.get((default_site / "stations" / "union-square.html").as_uri())
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert h1(browser) == "Third Avenue"
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert h1(browser) == "Sixth Avenue"
    ActionChains(browser).key_down(Keys.ALT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.ALT).perform()
    assert h1(browser) == "Sixth Avenue", "ignored while a modifier is held"
    browser.get((default_site / "stations" / "eighth-avenue.html").as_uri())
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert h1(browser) == "Eighth Avenue", "no west of the first station"
    browser.get((default_site / "info" / "first-avenue.html").as_uri())
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert browser.current_url.endswith("/stations/first-avenue.html")
    browser.get((default_site / "checklists" / "check-one.html").as_uri())
    browser.find_elements(By.CSS_SELECTOR, "label.check-row")[0].click()
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.current_url.endswith("/checklists/check-one.html"), "arrows in a radio group stay there"


PAGES = ["index.html", "stations/eighth-avenue.html", "stations/union-square.html", "info/union-square.html",
         "checklists/check-one.html", "404.html"]


@pytest.mark.parametrize("page", PAGES)
def test_no_page_requests_anything_outside_the_site(browser, http_site, page):
    set_viewport(browser, 390, 844)
    browser.get(http_site + page)
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href])"
    )
    assert resources, "the page loaded"
    outside = [name for name in resources if not name.startswith(http_site)]
    assert outside == []
    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert any(name.endswith("style.css") for name in loaded), "the stylesheet loaded from the site"


@pytest.mark.parametrize("width,height", [(640, 400), (320, 480)], ids=["200%-zoom", "320-reflow"])
@pytest.mark.parametrize("page", PAGES)
def test_text_reflows_at_200_percent_zoom_without_sideways_scrolling(browser, default_site, page, width, height):
    # 1280x800 at 200% zoom lays out like a 640x400 viewport; WCAG's reflow width is 320.
    set_viewport(browser, width, height)
    browser.get((default_site / page).as_uri())
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page} scrolls sideways by {overflow}px at {width}x{height}"
    heading = browser.find_element(By.TAG_NAME, "h1")
    assert heading.is_displayed() and heading.size["width"] > 0


def test_the_sheet_slides_up_unless_reduced_motion_is_asked_for(browser, default_site):
    set_viewport(browser, 390, 844)
    browser.get((default_site / "info" / "union-square.html").as_uri())
    assert browser.execute_script("return getComputedStyle(document.querySelector('.sheet')).animationName") == "none"
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]}
    )
    browser.get((default_site / "info" / "union-square.html").as_uri())
    assert browser.execute_script("return getComputedStyle(document.querySelector('.sheet')).animationName") == "sheet-up"
