"""The 404 page at any depth: a static host (conftest.QuietHandler) answers a missing path with
the site's 404.html at the missing URL, and the service worker does the same offline. The page
must be styled, run its script, and link only to pages of the site, wherever it is shown."""

import functools
import pathlib
import http.server
import shutil
import threading
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, QuietHandler, copy_site, new_driver, run_ltrain
from test_browser import h1
from test_offline import hosted, wait_for_worker  # noqa: F401 (a fixture)

MISSING = [
    "nope.html",                            # at the root
    "stations/old-name.html",               # a renamed station
    "stations/renamed/twice/old-name.html",  # deeper than any page
    "info/",                                # a folder of the site with no index
    "stations/union-square.html/",          # a page's name as a folder
]


def status(url):
    try:
        with urllib.request.urlopen(url) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_until_styled(driver):
    """The theme's stylesheet applies: the bar sticks to the top."""
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "var bar = document.querySelector('.bar');"
        "return !!bar && getComputedStyle(bar).position === 'sticky'"))


def links(driver):
    return [link.get_attribute("href") for link in driver.find_elements(By.CSS_SELECTOR, "a[href]")]


def assert_links_lead_into(site_root, hrefs):
    assert hrefs, "the page links somewhere"
    for href in hrefs:
        assert href.startswith(site_root), f"{href} is outside the site {site_root}"
        assert status(href) == 200, f"{href} is not a page of the site"


@pytest.mark.parametrize("missing", MISSING)
def test_the_404_page_works_at_any_depth_on_a_static_host(http_site, missing):
    url = http_site + missing
    assert status(url) == 404
    driver = new_driver()  # a fresh profile: no worker registered by another test
    try:
        driver.get(url)
        wait_until_styled(driver)
        assert h1(driver) == "Not Found"
        assert driver.current_url == url, "the host serves the page at the missing URL"
        assert_links_lead_into(http_site, links(driver))
        # Its script ran from the site's root: it registered the site's worker, scoped to the root.
        scopes = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready.then(registration => done([registration.scope]));
        """)
        assert scopes == [http_site]
    finally:
        driver.quit()


def test_the_404_page_at_the_root_is_styled_with_javascript_off(http_site, browser_without_js):
    browser_without_js.get(http_site + "nope.html")
    wait_until_styled(browser_without_js)
    assert_links_lead_into(http_site, links(browser_without_js))


@pytest.fixture
def host_with_base_url(tmp_path):
    """The default site built with its base URL, served under /guide/ by a static host."""
    handler = functools.partial(QuietHandler, directory=str(tmp_path / "public"))
    (tmp_path / "public").mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/guide/"
    site = copy_site(tmp_path / "source", REPO / "content")
    run_ltrain("build", "--content", site / "content", "--templates", site / "templates",
               "--output", site / "_site", "--base-url", base_url)
    shutil.copytree(site / "_site", tmp_path / "public" / "guide")
    yield base_url
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("missing", MISSING)
def test_with_a_base_url_the_404_page_works_at_any_depth_without_javascript(host_with_base_url, browser_without_js,
                                                                             missing):
    url = host_with_base_url + missing
    assert status(url) == 404
    browser_without_js.get(url)
    wait_until_styled(browser_without_js)
    assert h1(browser_without_js) == "Not Found"
    assert_links_lead_into(host_with_base_url, links(browser_without_js))


def test_offline_the_404_page_works_at_any_depth(hosted):  # noqa: F811 (the fixture)
    _, _, host, driver = hosted
    driver.get(host.url + "stations/union-square.html")
    wait_for_worker(driver)
    host.stop()
    for missing in ["nope.html", "stations/renamed/old-name.html"]:
        driver.get(host.url + missing)
        wait_until_styled(driver)
        assert h1(driver) == "Not Found"
        hrefs = links(driver)
        assert hrefs and all(href.startswith(host.url) for href in hrefs), hrefs
    driver.find_element(By.LINK_TEXT, "See the whole line").click()
    assert h1(driver) == "L Train"
    driver.back()
    wait_until_styled(driver)
    driver.find_element(By.LINK_TEXT, "Eighth Avenue").click()
    assert h1(driver) == "Eighth Avenue"


PAGE_KINDS = ["index.html", "stations/union-square.html", "info/union-square.html", "checklists/check-one.html",
              "404.html"]


def icon_links(page):
    """The icons a page names (the 404 page's empty placeholder, which its script removes once
    its real icon is in, aside)."""
    import re
    return [href for href in re.findall(r'<link rel="icon" href="([^"]+)"[^>]*>', page) if href != "data:,"]


@pytest.mark.parametrize("offline", [True, False])
def test_every_page_links_an_icon_that_exists(tmp_path, offline):
    """No visit logs a 404 for /favicon.ico: every page names the drawn icon, with or without
    offline use."""
    site = copy_site(tmp_path, REPO / "content")
    if not offline:
        index = site / "content" / "index.md"
        index.write_text(index.read_text().replace("---\n", "---\noffline: false\n", 1))
    run_ltrain("build", "--content", site / "content", "--templates", site / "templates", "--output", site / "_site")
    for kind in PAGE_KINDS:
        page = site / "_site" / kind
        hrefs = icon_links(page.read_text())
        assert hrefs, f"{kind} links no icon"
        for href in hrefs:
            assert (page.parent / href).resolve().read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", href


@pytest.mark.parametrize("name, kind", [("icon.png", b"\x89PNG\r\n\x1a\n"), ("icon.svg", b"<svg")])
def test_the_authors_icon_is_the_pages_icon(tmp_path, name, kind):
    site = copy_site(tmp_path, REPO / "content")
    (site / "content" / "assets").mkdir(exist_ok=True)
    drawn = site / "drawn"
    run_ltrain("build", "--content", site / "content", "--templates", site / "templates", "--output", drawn)
    source = (drawn / "icons" / "icon-192.png").read_bytes() if name.endswith(".png") else \
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'
    (site / "content" / "assets" / name).write_bytes(source)
    run_ltrain("build", "--content", site / "content", "--templates", site / "templates", "--output", site / "_site")
    for kind_page in PAGE_KINDS:
        page = site / "_site" / kind_page
        hrefs = icon_links(page.read_text())
        assert [pathlib.PurePosixPath(href).name for href in hrefs] == [name], (kind_page, hrefs)
        assert (page.parent / hrefs[0]).resolve().read_bytes().startswith(kind)


def test_a_browser_asks_for_no_favicon_ico(default_site, tmp_path):
    """Chromium asks for /favicon.ico only when a page names no icon: the server sees it ask for
    the named icon instead, on every page kind."""
    asked = []

    class Recording(QuietHandler):
        def do_GET(self):
            asked.append(self.path)
            return super().do_GET()

    shutil.copytree(default_site, tmp_path / "guide")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Recording, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/guide/"
    driver = new_driver()
    try:
        for kind in PAGE_KINDS:
            driver.get(url + kind)
            WebDriverWait(driver, 10).until(lambda d: "/guide/icons/icon-192.png" in asked)
        assert "/favicon.ico" not in asked
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
