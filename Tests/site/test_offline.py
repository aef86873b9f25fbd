"""Offline when hosted: once a reader has opened one page over HTTP, the whole site works with the
server gone; a redeploy is offered, never forced, and leaves only the new version's cache. From
file:// nothing is registered and nothing fails. Headless Chromium, a static server under a
sub-path on loopback."""

import functools
import http.server
import re
import shutil
import threading
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, QuietHandler, build_site, copy_site, new_driver
from test_browser import STATIONS, set_viewport, h1


class Host:
    """A static server for `folder`'s parent under /guides/ltrain/, that can be stopped and
    started again on the same port (a redeploy, or the reader going underground)."""

    def __init__(self, root):
        self.root = root
        self.server = None
        self.port = 0
        self.start()

    def start(self):
        handler = functools.partial(QuietHandler, directory=str(self.root))
        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/guides/ltrain/"


def publish(built, root):
    """`built` copied to where a Host serves it (root/public/guides/ltrain/), and the Host started."""
    public = root / "public" / "guides" / "ltrain"
    shutil.copytree(built, public)
    return public, Host(root / "public")


@pytest.fixture
def hosted(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    site = copy_site(source, REPO / "content")
    public, host = publish(build_site(site), tmp_path)
    driver = new_driver()
    try:
        yield site, public, host, driver
    finally:
        driver.quit()
        try:
            host.stop()
        except Exception:
            pass


def wait_for_worker(driver):
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))
    # Everything is kept once the worker is active: the install finished.
    WebDriverWait(driver, 20).until(lambda d: d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.keys().then(names => done(names.filter(n => n.startsWith('ltrain:')).length === 1));
    """))


def ltrain_caches(driver):
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.keys().then(async names => {
            const ours = names.filter(n => n.startsWith('ltrain:'));
            const files = {};
            for (const name of ours) files[name] = (await (await caches.open(name)).keys()).map(r => r.url);
            done(files);
        });
    """)


def walk_the_line(driver, url):
    driver.get(url + "index.html")
    assert h1(driver) == "L Train"
    driver.find_elements(By.CSS_SELECTOR, "a.link-row")[0].click()
    for position, title in enumerate(STATIONS):
        assert h1(driver) == title
        driver.find_element(By.CSS_SELECTOR, "a.more-info").click()
        assert h1(driver) == title and driver.current_url.endswith("/info/" + driver.current_url.split("/")[-1])
        assert len(driver.find_elements(By.CSS_SELECTOR, ".sheet-body p")) >= 1, f"{title}'s info text"
        driver.find_element(By.CSS_SELECTOR, "a.done").click()
        assert h1(driver) == title
        east = driver.find_elements(By.CSS_SELECTOR, "a[rel=next]")
        if position < len(STATIONS) - 1:
            east[0].click()
    driver.get(url + "checklists/check-one.html")
    assert h1(driver) == "Check One"
    driver.find_elements(By.CSS_SELECTOR, "label.check-row")[1].click()
    driver.find_element(By.CSS_SELECTOR, "a.back").click()
    assert h1(driver) == "L Train"


def test_one_visit_keeps_the_whole_line_for_underground(hosted):
    site, public, host, driver = hosted
    set_viewport(driver, 390, 844)
    driver.get(host.url + "stations/union-square.html")
    wait_for_worker(driver)
    (cache, files), = ltrain_caches(driver).items()
    assert cache.startswith(f"ltrain:{host.url}:"), "the cache is the site's own, named by its scope"
    kept = {url.removeprefix(host.url) for url in files}
    for path in ["index.html", "404.html", "style.css", "ltrain.js", "manifest.webmanifest", "icons/icon-192.png",
                 "checklists/check-one.html"] + [f"stations/{s}.html" for s in ["eighth-avenue", "bedford-avenue"]] \
            + [f"info/{s}.html" for s in ["eighth-avenue", "bedford-avenue"]]:
        assert path in kept, f"{path} is not kept offline"
    host.stop()
    walk_the_line(driver, host.url)
    # A page that is not in the site gets the site's own 404 page, offline too.
    driver.get(host.url + "stations/nowhere.html")
    assert h1(driver) == "Not Found"


def test_a_redeploy_is_offered_and_accepting_it_shows_the_new_site(hosted):
    site, public, host, driver = hosted
    set_viewport(driver, 390, 844)
    driver.get(host.url + "info/union-square.html")
    wait_for_worker(driver)
    old = next(iter(ltrain_caches(driver)))
    # A redeploy: Union Square's text changes and Bedford Avenue is gone.
    station = site / "content" / "stations" / "03-union-square.md"
    station.write_text(station.read_text() + "\nNew since the redeploy.\n")
    (site / "content" / "stations" / "06-bedford-avenue.md").unlink()
    first = site / "content" / "stations" / "05-first-avenue.md"
    first.write_text(re.sub(r"\[[^\]]*\]\(06-bedford-avenue\.md[^)]*\)", "Bedford", first.read_text()))
    rebuilt = build_site(site)
    shutil.rmtree(public)
    shutil.copytree(rebuilt, public)
    driver.get(host.url + "info/union-square.html")
    assert "New since the redeploy." not in driver.page_source, "the reader's page is never swapped unasked"
    notice = WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".update-notice"))[0]
    assert notice.get_attribute("role") == "status"
    assert "A new version of this guide is available." in notice.text
    notice.find_element(By.TAG_NAME, "button").click()
    WebDriverWait(driver, 20).until(lambda d: "New since the redeploy." in d.page_source)
    WebDriverWait(driver, 20).until(lambda d: list(ltrain_caches(d)) != [old])
    caches = ltrain_caches(driver)
    assert len(caches) == 1 and old not in caches, "only the new version's cache remains"
    kept = {url.removeprefix(host.url) for url in next(iter(caches.values()))}
    assert "stations/bedford-avenue.html" not in kept and "info/bedford-avenue.html" not in kept, "a deleted station is gone"
    host.stop()
    driver.get(host.url + "info/union-square.html")
    assert "New since the redeploy." in driver.page_source, "the new version works offline too"


def test_from_file_nothing_is_registered_and_nothing_fails(default_site):
    driver = new_driver()
    try:
        for page in ["index.html", "stations/union-square.html", "info/union-square.html", "checklists/check-one.html"]:
            driver.get((default_site / page).as_uri())
            time.sleep(0.3)
            assert driver.execute_script("return !navigator.serviceWorker || !navigator.serviceWorker.controller")
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], errors
    finally:
        driver.quit()


def test_offline_false_writes_no_worker_files_and_links_none(tmp_path):
    site = copy_site(tmp_path, REPO / "content")
    index = site / "content" / "index.md"
    index.write_text(index.read_text().replace("---\n", "---\noffline: false\n", 1))
    built = build_site(site)
    for path in ["manifest.webmanifest", "offline-files.js"]:
        assert not (built / path).exists(), path
    assert (built / "icons" / "icon-192.png").exists(), "the page's icon is not an offline file"
    page = (built / "stations" / "union-square.html").read_text()
    assert "data-service-worker" not in page and 'rel="manifest"' not in page


def test_a_page_left_open_is_offered_every_redeploy(hosted):
    """Ten redeploys, with the page left open between them: each time the page is shown again
    (visibilitychange), or another page is opened, it learns of the new version and offers it.
    The reader accepts only every third time: Reload then shows the newest version, not the one
    the notice first appeared for (that worker was replaced by the next redeploy)."""
    site, public, host, driver = hosted
    set_viewport(driver, 390, 844)
    driver.get(host.url + "stations/union-square.html")
    wait_for_worker(driver)
    station = site / "content" / "stations" / "03-union-square.md"
    original = station.read_text()
    for redeploy in range(1, 11):
        # The test server's Last-Modified counts whole seconds, and the browser revalidates the
        # worker's files with it: two redeploys within one second would look like one.
        time.sleep(1.05)
        mark = f"Redeploy number {redeploy}."
        station.write_text(re.sub(r"^summary: .*$", f"summary: {mark}", original, count=1, flags=re.M))
        rebuilt = build_site(site)
        shutil.rmtree(public)
        shutil.copytree(rebuilt, public)
        if redeploy % 2:
            # The reader comes back to the open page: it checks for a new version.
            driver.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
        else:
            # The reader opens the page again: the browser checks as it loads.
            driver.get(host.url + "stations/union-square.html")
        assert mark not in driver.page_source, "the page is never swapped unasked"
        notice = WebDriverWait(driver, 20).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".update-notice"), f"no notice after redeploy {redeploy}")[0]
        if redeploy % 3 == 0 or redeploy == 10:
            # Make sure the browser has this redeploy's worker (its own check after a page load
            # may come a moment later) and that it has finished installing: it replaced the one
            # the notice appeared for.
            WebDriverWait(driver, 20).until(lambda d: d.execute_async_script("""
                const done = arguments[arguments.length - 1];
                navigator.serviceWorker.getRegistration().then(r => r.update().then(() => r))
                    .then(r => done(!!r.waiting && !r.installing), () => done(false));
            """))
            notice.find_element(By.TAG_NAME, "button").click()
            WebDriverWait(driver, 20).until(lambda d: mark in d.page_source, f"redeploy {redeploy} was not shown")
            WebDriverWait(driver, 20).until(lambda d: d.execute_script(
                "return document.readyState === 'complete' && !!navigator.serviceWorker.controller"
                " && !document.querySelector('.update-notice')"))


@pytest.mark.parametrize("depth", ["", "guides/ltrain/"], ids=["root", "sub-path"])
def test_the_preview_takes_the_address_back_from_a_built_copys_worker(tmp_path, depth):
    """A built copy opened on an address keeps its worker there; `ltrain serve` on the same
    address must not be hidden by it: one reload, and the page comes from the preview."""
    import subprocess
    from conftest import ltrain_binary
    source = tmp_path / "source"
    source.mkdir()
    site = copy_site(source, REPO / "content")
    public = tmp_path / "public" / depth
    shutil.copytree(build_site(site), public)
    host = Host(tmp_path / "public")
    port = host.port
    driver = new_driver()
    preview = None
    try:
        page = f"http://127.0.0.1:{port}/{depth}stations/union-square.html"
        driver.get(page)
        wait_for_worker(driver)
        host.stop()
        station = site / "content" / "stations" / "03-union-square.md"
        station.write_text(station.read_text().replace("title: Union Square", "title: Union Square Live", 1))
        preview = subprocess.Popen([str(ltrain_binary()), "serve", "--port", str(port)], cwd=site,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert "Serving" in preview.stdout.readline()
        driver.refresh()
        # The built copy's worker answers this reload from its cache; its update check finds the
        # preview's retiring worker, which unregisters and reloads the page from the preview.
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "return window.ltrainPreview === true && !navigator.serviceWorker.controller"))
        if depth == "":
            assert h1(driver) == "Union Square Live"
        assert driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.getRegistrations().then(all => done(all.length));""") == 0
        assert ltrain_caches(driver) == {}, "the built copy's cache is gone"
    finally:
        driver.quit()
        if preview:
            preview.terminate()
            preview.wait(timeout=30)


def test_files_named_with_spaces_hashes_and_percents_are_kept_offline(tmp_path):
    """The offline list holds URLs, percent-encoded once: an asset named 'a b#c%25?.png' is
    fetched as itself (a '#' used to cut its URL short, the worker's install failed on it, and
    nothing at all was kept offline)."""
    source = tmp_path / "source"
    source.mkdir()
    site = copy_site(source, REPO / "content")
    assets = site / "content" / "assets"
    assets.mkdir(exist_ok=True)
    names = ["a b#c%25?.png", "back\\slash.txt", "ümlaut & more.txt"]
    for name in names:
        (assets / name).write_bytes(name.encode())
    public = tmp_path / "public" / "guides" / "ltrain"
    shutil.copytree(build_site(site), public)
    host = Host(tmp_path / "public")
    driver = new_driver()
    try:
        driver.get(host.url + "index.html")
        wait_for_worker(driver)
        host.stop()
        for name in names:
            body = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                fetch(arguments[0]).then(r => r.ok ? r.text() : 'status ' + r.status, e => 'error ' + e).then(done);""",
                "assets/" + "".join(c if c.isalnum() or c in "-._~" else "".join(f"%{b:02X}" for b in c.encode())
                                    for c in name))
            assert body == name, f"{name} offline"
    finally:
        driver.quit()
