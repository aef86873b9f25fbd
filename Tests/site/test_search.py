"""Search: the field on the index, reached from every page's bar and the "/" key, over a classic
script index; hosted, with the server stopped, from file://, in the single file and in serve.
Headless Chromium."""

import functools
import http.server
import pathlib
import re
import shutil
import threading
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, axe_report, axe_results, build_site, copy_site, file_url, new_driver, run_ltrain
from test_offline import publish, wait_for_worker
from test_serve import Server

EXTRA_STATIONS = {
    # Written before "Tar", so the guide's own order alone would list it first.
    "07-tarsnap-keygen.md": "---\ntitle: Tarsnap Keygen\nsummary: Keys for backups.\n---\nMake keys.\n",
    "08-tar.md": "---\ntitle: Tar\nsummary: Archives.\n---\n## Usage\n\nPack files together.\n",
    "09-gorlitzer-bahnhof.md": (
        "---\ntitle: Görlitzer Bahnhof\nsummary: Kreuzberg, über der Straße.\n---\n"
        "## 出口\n\n新宿駅の東口から歩いて五分です。\n"
    ),
}


def search_site(root: pathlib.Path, extra_index: str = "") -> pathlib.Path:
    site = copy_site(root, REPO / "content")
    for name, text in EXTRA_STATIONS.items():
        (site / "content" / "stations" / name).write_text(text, encoding="utf-8")
    if extra_index:
        index = site / "content" / "index.md"
        text = index.read_text(encoding="utf-8")
        index.write_text(text.replace("---\n", "---\n" + extra_index, 1), encoding="utf-8")
    return site


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("search")
    site = search_site(root)
    return site, build_site(site)


@pytest.fixture(scope="module")
def driver():
    driver = new_driver()
    yield driver
    driver.quit()


def field(driver):
    return WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-search] [role=combobox]"))


def results(driver):
    """Each result shown: (title, href, excerpt)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-search] [role=option]'))"
        ".filter(o => o.getClientRects().length)"
        ".map(o => [o.querySelector('.row-label').textContent, o.getAttribute('data-href'),"
        " (o.querySelector('.row-detail') || {innerHTML: ''}).innerHTML])")


def search_for(driver, query):
    box = field(driver)
    box.clear()
    box.send_keys(query)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-search] [role=status]").text)
    return results(driver)


def check_searches(driver, home_url):
    """The same checks wherever the guide is opened: ranking, accents, Japanese, the heading's fragment."""
    driver.get(home_url)
    assert field(driver).is_displayed()
    found = search_for(driver, "tar")
    assert [title for title, _, _ in found[:2]] == ["Tar", "Tarsnap Keygen"], found
    status = driver.find_element(By.CSS_SELECTOR, "[data-search] [role=status]").text
    assert status == f"{len(found)} results"
    found = search_for(driver, "gorlitzer")
    assert found and found[0][0] == "Görlitzer Bahnhof", found
    found = search_for(driver, "Strasse")
    assert found == [] or all("Görlitzer" not in title for title, _, _ in found)
    found = search_for(driver, "uber der")
    assert found and found[0][0] == "Görlitzer Bahnhof" and "<mark>über</mark>" in found[0][2], found
    found = search_for(driver, "東口")
    assert found and found[0][0] == "Görlitzer Bahnhof · 出口", found
    assert "<mark>東口</mark>" in found[0][2]
    found = search_for(driver, "passageway")
    assert found[0][0] == "Eighth Avenue · Connections", found
    assert "<mark>passageway</mark>" in found[0][2].lower()
    assert found[0][1].endswith("eighth-avenue.html#connections") or found[0][1].endswith("info-eighth-avenue.connections")
    found = search_for(driver, "zzqx")
    assert found == []
    assert driver.find_element(By.CSS_SELECTOR, "[data-search] [role=status]").text == "No results"


def test_search_hosted_ranks_folds_accents_and_finds_japanese(built, driver, tmp_path):
    _, output = built
    _, host = publish(output, tmp_path)
    try:
        check_searches(driver, host.url + "index.html")
    finally:
        host.stop()


def test_search_from_file_uses_classic_scripts_only(built, driver):
    _, output = built
    check_searches(driver, file_url(output, "index.html"))
    script = (output / "search-index.js").read_text(encoding="utf-8")
    assert script.startswith("// Written by ltrain build") and "self.ltrainSearchIndex = {" in script
    code = "\n".join(line for line in (output / "search.js").read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("//"))
    for forbidden in ["import ", "export ", "fetch(", "WebAssembly", "Worker("]:
        assert forbidden not in code


def test_search_in_the_single_file(built, driver, tmp_path):
    site, _ = built
    bundle = tmp_path / "guide.html"
    run_ltrain("bundle", "--output", str(bundle), cwd=site)
    text = bundle.read_text(encoding="utf-8")
    assert "<script src" not in text, "the single file fetches nothing: its index and script are inline"
    check_searches(driver, bundle.as_uri())
    # A result opens its page of the file. The list, whole at once here, is not drawn again under
    # the reader's finger (it was, half a second after the last key, and the tap went nowhere).
    found = search_for(driver, "tar")
    first = driver.find_elements(By.CSS_SELECTOR, "[data-search] [role=option]")[0]
    time.sleep(0.7)
    first.click()
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "return document.querySelector('.bundle-page:not([hidden]) h1').textContent") == "Tar")
    assert found[0][1] == "#stations-tar"


def test_keyboard_slash_arrows_enter_and_escape(built, driver):
    _, output = built
    driver.get(file_url(output, "stations/union-square.html"))
    link = driver.find_element(By.CSS_SELECTOR, "a[data-search-link]")
    assert link.is_displayed() and link.get_attribute("aria-label") == "Search"
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    WebDriverWait(driver, 5).until(lambda d: d.current_url.endswith("index.html"))
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "return document.activeElement && document.activeElement.getAttribute('role') === 'combobox'"))
    box = field(driver)
    box.send_keys("avenue")
    WebDriverWait(driver, 5).until(lambda d: len(results(d)) > 2)
    assert box.get_attribute("aria-expanded") == "true"
    box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    second = driver.find_elements(By.CSS_SELECTOR, "[data-search] [role=option]")[1]
    assert box.get_attribute("aria-activedescendant") == second.get_attribute("id")
    assert second.get_attribute("aria-selected") == "true"
    box.send_keys(Keys.ESCAPE)
    assert box.get_attribute("value") == "" and box.get_attribute("aria-expanded") == "false"
    box.send_keys("sixth")
    WebDriverWait(driver, 5).until(lambda d: results(d))
    box.send_keys(Keys.ENTER)
    WebDriverWait(driver, 5).until(lambda d: d.current_url.endswith("stations/sixth-avenue.html"))
    # On the index itself, "/" puts the caret in the field.
    driver.get(file_url(output, "index.html"))
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    assert driver.execute_script("return document.activeElement.getAttribute('role')") == "combobox"


def test_every_page_reaches_search_and_axe_finds_nothing(built, driver):
    _, output = built
    for page in ["stations/eighth-avenue.html", "info/union-square.html", "checklists/check-one.html"]:
        driver.get(file_url(output, page))
        link = driver.find_element(By.CSS_SELECTOR, "a[data-search-link]")
        assert link.is_displayed(), page
        link.click()
        WebDriverWait(driver, 5).until(lambda d: d.current_url.endswith("index.html"))
    driver.get(file_url(output, "index.html"))
    search_for(driver, "avenue")
    assert axe_report(axe_results(driver)) == []


def test_without_javascript_nothing_of_search_shows(built):
    _, output = built
    driver = new_driver(javascript=False)
    try:
        driver.get(file_url(output, "index.html"))
        assert not driver.find_element(By.CSS_SELECTOR, "[data-search]").is_displayed()
        driver.get(file_url(output, "stations/union-square.html"))
        assert not driver.find_element(By.CSS_SELECTOR, "a[data-search-link]").is_displayed()
    finally:
        driver.quit()


def test_search_works_with_the_server_stopped(tmp_path):
    site = search_site(tmp_path / "source")
    _, host = publish(build_site(site), tmp_path)
    driver = new_driver()
    try:
        driver.get(host.url + "stations/union-square.html")
        wait_for_worker(driver)
        host.stop()
        driver.get(host.url + "index.html")
        found = search_for(driver, "gorlitzer")
        assert found and found[0][0] == "Görlitzer Bahnhof"
    finally:
        driver.quit()


def test_serve_updates_the_index_on_every_edit(tmp_path):
    site = search_site(tmp_path)
    server = Server(site)
    driver = new_driver()
    try:
        driver.get(server.base + "index.html")
        assert search_for(driver, "Tar")[0][0] == "Tar"
        station = site / "content" / "stations" / "08-tar.md"
        station.write_text(station.read_text(encoding="utf-8").replace("Pack files together.", "Pack files into a zebra."),
                           encoding="utf-8")
        deadline = time.time() + 15
        found = []
        while time.time() < deadline and not found:
            time.sleep(0.3)
            driver.get(server.base + "index.html")
            found = search_for(driver, "zebra")
        assert found and found[0][0] == "Tar · Usage", found
    finally:
        driver.quit()
        server.stop()


def test_search_false_turns_it_off(tmp_path):
    site = search_site(tmp_path, extra_index="search: false\n")
    output = build_site(site)
    assert not (output / "search-index.js").exists()
    for page in ["index.html", "stations/union-square.html", "info/union-square.html"]:
        html = (output / page).read_text(encoding="utf-8")
        assert "data-search" not in html and "search.js" not in html, page


def test_a_line_of_several_shards_is_searched_whole_from_file(tmp_path, driver):
    """297 stations make eight shards of 40; a station of the last is found, from file:// and in
    the single file, and its info page's heading is linked."""
    site = search_site(tmp_path)
    for number in range(10, 301):
        (site / "content" / "stations" / f"{number:03}-stop-{number}.md").write_text(
            f"---\ntitle: Stop {number}\n---\n## Platform {number}\n\nA kiosk sells paper number {number}.\n",
            encoding="utf-8")
    output = build_site(site)
    shards = [f"{number}.js" for number in range(1, 9)]
    assert sorted(p.name for p in (output / "search").iterdir()) == sorted(shards)
    driver.get(file_url(output, "index.html"))
    found = search_for(driver, "stop 299")
    assert found[0][0] == "Stop 299", found
    found = search_for(driver, "paper number 287")
    assert found[0][0] == "Stop 287 · Platform 287" and found[0][1] == "info/stop-287.html#platform-287", found
    loaded = driver.execute_script(
        "return Array.from(document.scripts).map(s => s.getAttribute('src')).filter(s => s && /search/.test(s))")
    assert sorted(src.split("/_site/")[-1] for src in loaded) \
        == sorted(["search-index.js", "search.js"] + [f"search/{name}" for name in shards]), loaded
    bundle = tmp_path / "guide.html"
    run_ltrain("bundle", "--output", str(bundle), cwd=site)
    driver.get(bundle.as_uri())
    found = search_for(driver, "paper number 287")
    assert found[0][1] == "#info-stop-287.platform-287", found


def halts_site(tmp_path):
    """The guide's nine stations and halts 10-89: three shards (to halt 40, to halt 80, the rest)."""
    site = search_site(tmp_path)
    for number in range(10, 90):
        (site / "content" / "stations" / f"{number:03}-halt-{number}.md").write_text(
            f"---\ntitle: Halt {number}\n---\nA kiosk sells paper number {number}.\n", encoding="utf-8")
    output = build_site(site)
    assert sorted(p.name for p in (output / "search").iterdir()) == ["1.js", "2.js", "3.js"]
    return output


def serve_output(output, answer):
    """A local server of `output` whose requests go first to `answer(handler)`, which returns
    True when it answered itself; its base URL and the server."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if not answer(self):
                super().do_GET()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(output)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


def test_results_show_as_shards_arrive_and_a_lost_shard_leaves_a_gap(tmp_path, driver):
    """Hosted, with the second of three shards slow and then missing: the first shard's results show
    while it is on its way, without a count (said once, when no shard is still coming); then the
    count comes, for the stations of the shards that arrived."""
    output = halts_site(tmp_path)
    assert "Halt 41" in (output / "search" / "2.js").read_text(encoding="utf-8")
    release = threading.Event()

    def answer(handler):
        if not handler.path.startswith("/search/2.js"):
            return False
        release.wait(10)
        handler.send_error(404)
        return True

    base, server = serve_output(output, answer)
    status = (By.CSS_SELECTOR, "[data-search] [role=status]")
    try:
        driver.get(base + "index.html")
        field(driver).send_keys("halt")
        # The shards that arrive show (the third may come before the first).
        WebDriverWait(driver, 10).until(lambda d: {"Halt 10", "Halt 81"} <= {title for title, _, _ in results(d)})
        titles = [title for title, _, _ in results(driver)]
        assert "Halt 50" not in titles, titles
        assert driver.find_element(*status).text == ""
        release.set()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(*status).text)
        titles = [title for title, _, _ in results(driver)]
        assert titles == [f"Halt {n}" for n in [*range(10, 41), *range(81, 90)]], titles
        assert driver.find_element(*status).text == "40 results"
    finally:
        release.set()
        server.shutdown()


def keep_typing(driver, query, seconds):
    """Types `query` into the field a key every 100 ms, then goes on with an input event every
    100 ms (a reader still typing) until `seconds` have passed; returns then."""
    driver.execute_async_script("""
        const [query, seconds, done] = arguments;
        const field = document.querySelector('[data-search] [role=combobox]');
        field.focus();
        const started = performance.now();
        let typed = 0;
        (function next() {
          typed = Math.min(query.length, typed + 1);
          field.value = query.slice(0, typed);
          field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
          if (performance.now() - started < seconds * 1000) setTimeout(next, 100); else done();
        })();""", query, seconds)


def test_the_index_loads_only_as_far_as_the_reader_needs(tmp_path, driver):
    """Focused, the field loads the root and the first shard alone. While the reader types, a query
    whose list the shards in hold a screenful of loads nothing more, and one they hold too few of
    loads on; after a pause the rest comes in and the count is said."""
    output = halts_site(tmp_path)
    # The service worker would fetch every file to keep it offline; without it, the page's own.
    (output / "sw.js").unlink()
    requested = []

    def answer(handler):
        if "search" in handler.path and not handler.path.startswith("/search.js"):
            requested.append(handler.path)
        return False

    base, server = serve_output(output, answer)
    status = (By.CSS_SELECTOR, "[data-search] [role=status]")
    try:
        driver.get(base + "index.html")
        field(driver).click()
        WebDriverWait(driver, 10).until(lambda d: "/search/1.js" in requested)
        time.sleep(0.5)
        assert requested == ["/search-index.js", "/search/1.js"], requested
        # Halts 10-40 are in the first shard: a screenful, so nothing more while typing goes on.
        keep_typing(driver, "halt", 2)
        assert requested == ["/search-index.js", "/search/1.js"], requested
        titles = [title for title, _, _ in results(driver)]
        assert titles[:3] == ["Halt 10", "Halt 11", "Halt 12"], titles
        assert driver.find_element(*status).text == ""
        # The pause: every shard, every result and the count.
        WebDriverWait(driver, 10).until(lambda d: d.find_element(*status).text)
        assert sorted(requested) == ["/search-index.js", "/search/1.js", "/search/2.js", "/search/3.js"], requested
        assert driver.find_element(*status).text == "80 results"

        # A fresh page: "halt 8" is in no station of the first shard, so the others load while
        # the reader is still typing, and its results show.
        requested.clear()
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.get(base + "index.html?again")
        field(driver)
        keep_typing(driver, "halt 8", 2)
        assert sorted(requested) == ["/search-index.js", "/search/1.js", "/search/2.js", "/search/3.js"], requested
        titles = [title for title, _, _ in results(driver)]
        assert titles == ["Halt 80", *[f"Halt {n}" for n in range(81, 90)]], titles
    finally:
        server.shutdown()


def test_a_small_line_is_searched_with_no_request_of_its_own(built, driver, tmp_path):
    """The default theme's index page carries a small line's index (the guide's is 6 kB): focusing
    the field and searching ask the host for nothing beyond what the page loaded."""
    output = tmp_path / "site"
    shutil.copytree(built[1], output)
    # The service worker would fetch every file to keep it offline; without it, the page's own.
    (output / "sw.js").unlink()
    requested = []

    def answer(handler):
        requested.append(handler.path)
        return False

    base, server = serve_output(output, answer)
    try:
        driver.get(base + "index.html")
        field(driver).click()
        found = search_for(driver, "gorlitzer")
        assert found and found[0][0] == "Görlitzer Bahnhof", found
        time.sleep(0.5)
        assert [path for path in requested if "search" in path] == ["/search.js"], requested
    finally:
        server.shutdown()


def test_a_single_part_of_150000_results_is_counted(built, driver):
    """The single file holds every entry in one part; a query matching 150,000 of them (more than
    a JavaScript call takes as arguments) is shown and counted."""
    _, output = built
    html = (output / "index.html").read_text(encoding="utf-8")
    # In place of the small line's own index, which the index page carries.
    html, carried = re.subn(r"<script>\n// Written by ltrain build.*?</script>\n", "", html, flags=re.S)
    assert carried == 1
    index = ('<script>self.ltrainSearchIndex = {"join": "#", "shards": [], "checklists": [], "pages": '
             'Array.from({length: 150000}, (_, i) => ["s", "Halt " + i, "#halt-" + i, ""])};</script>\n')
    assert '<script src="search.js"' in html
    big = output / "many-results.html"
    big.write_text(html.replace('<script src="search.js"', index + '<script src="search.js"', 1), encoding="utf-8")
    try:
        driver.get(file_url(output, "many-results.html"))
        found = search_for(driver, "halt")
        assert found[0][0] == "Halt 0" and len(found) == 50, found[:3]
        assert driver.find_element(By.CSS_SELECTOR, "[data-search] [role=status]").text == "150000 results"
    finally:
        big.unlink()
