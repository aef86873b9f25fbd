"""Labels of any length, 320 to 1440 px: German (the ubahn fixture), Finnish and Russian labels
about three times longer than English, with a title of about 60 characters. In every bar, with
JavaScript on or off: nothing is cut off, leaves the bar or overlaps the title; the title keeps at
least a third of the bar; a broken word of the title is wider than the room it had. With
JavaScript on (ltrain.js fits the bar): a back title is shown only on one line (else the back
label); no word of a title is broken unless even the sides at their narrowest leave it too
little room; a label takes a third line only when two lines, the other side and the title's
third cannot share the bar (a 27-letter Russian "next" label on a phone), never a fourth."""

import re
import shutil

import pytest

from conftest import FIXTURES, axe_report, axe_results, build_site, new_driver
from test_browser import set_viewport

WIDTHS = [320, 375, 390, 768, 1024, 1440]

# Per language: its labels, and the ubahn fixture's station titles in order.
LANGUAGES = {
    "fi": ({"next": "Seuraava asema itään", "back": "Takaisin", "more_information": "Lisätietoja", "done": "Valmis",
            "position": "Asema {position}/{count}"},
           ["Ruoholahti", "Kamppi", "Rautatientori", "Kaisaniemi",
            "Itäkeskus, Puotila ja Rastila: Vuosaaren metron liityntäbussit", "Hakaniemi", "Sörnäinen"]),
    "ru": ({"next": "Следующая станция на восток", "back": "Назад", "more_information": "Подробнее",
            "done": "Готово", "position": "Станция {position} из {count}"},
           ["Охотный Ряд", "Лубянка", "Чистые пруды", "Красные Ворота",
            "Площадь Революции, Театральная и Охотный Ряд у Госдумы России", "Комсомольская", "Сокольники"]),
}

BAR = """
const bar = document.querySelector('.bar');
const b = bar.getBoundingClientRect();
const style = getComputedStyle(bar);
const inner = b.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
const h1 = bar.querySelector('h1');
const title = bar.querySelector('.bar-title').getBoundingClientRect();
const problems = [];
// Words of the title broken across lines, with their widths and the room the title had.
const broken = [];
const text = h1.firstChild;
for (const m of text.data.matchAll(/\\S+/g)) {
  const range = document.createRange();
  range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
  const rects = [...range.getClientRects()].filter(r => r.width > 0);
  if (rects.length > 1) {
    const probe = document.createElement('span');
    probe.style.cssText = 'position: absolute; white-space: nowrap; font: ' + getComputedStyle(h1).font;
    probe.textContent = m[0];
    document.body.appendChild(probe);
    broken.push({word: m[0], width: probe.getBoundingClientRect().width, room: h1.clientWidth});
    probe.remove();
  }
}
if (title.width < inner / 3 - 1) problems.push('the title has ' + Math.round(title.width) + ' px of ' + Math.round(inner));
for (const el of bar.querySelectorAll('a.bar-button, .back-label, h1, .bar-home')) {
  if (!el.getClientRects().length) continue;  // not shown (the search button without JavaScript)
  const r = el.getBoundingClientRect();
  if (el.scrollWidth > el.clientWidth + 1) problems.push('cut off: ' + el.textContent);
  if (r.left < b.left - 1 || r.right > b.right + 1) problems.push('outside the bar: ' + el.textContent);
}
const h = h1.getBoundingClientRect();
for (const a of bar.querySelectorAll('a.bar-button')) {
  const r = a.getBoundingClientRect();
  if (r.right > h.left + 1 && r.left < h.right - 1 && r.bottom > h.top && r.top < h.bottom) problems.push('overlaps the title: ' + a.textContent);
}
const linesOf = el => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
const lines = {};
// For a label on more than two lines: whether two lines were possible at all, that is, whether its
// button in two lines, the other side as it is, and the title's third (or its longest word, if
// wider) fit the bar.
const twoLinesFit = {};
const gap = parseFloat(style.columnGap);
const room = inner - 2 * gap;
const probe = h1.cloneNode(true);
probe.style.cssText = 'position: absolute; visibility: hidden; width: min-content; overflow-wrap: normal';
h1.parentNode.appendChild(probe);
const titleNeeds = Math.max(room / 3, probe.getBoundingClientRect().width);
probe.remove();
for (const button of bar.querySelectorAll('.bar-side .bar-button')) {
  const label = button.querySelector('.back-label') || button;
  lines[label.textContent] = linesOf(label);
  if (lines[label.textContent] <= 2) continue;
  const copy = button.cloneNode(true);
  copy.style.cssText = 'position: absolute; visibility: hidden; max-width: none';
  button.parentNode.appendChild(copy);
  let width = Math.ceil(copy.getBoundingClientRect().width);
  for (copy.style.width = width + 'px'; width > 0; width--) {
    copy.style.width = (width - 1) + 'px';
    if (linesOf(copy.querySelector('.back-label') || copy) > 2) break;
  }
  copy.remove();
  const other = [...bar.querySelectorAll('.bar-side .bar-button')].filter(b => b !== button)
      .reduce((sum, b) => sum + b.getBoundingClientRect().width, 0);
  twoLinesFit[label.textContent] = width + other + titleNeeds <= room;
}
const back = bar.querySelector('.back-label');
// The least the sides can take: each button at its narrowest (its longest word).
let sidesLeast = 0;
for (const button of bar.querySelectorAll('.bar-side .bar-button')) {
  const copy = button.cloneNode(true);
  copy.style.cssText = 'position: absolute; visibility: hidden; max-width: none; width: min-content';
  button.parentNode.appendChild(copy);
  sidesLeast += copy.getBoundingClientRect().width;
  copy.remove();
}
for (const word of broken) word.couldFit = word.width + sidesLeast <= room;
return {problems, broken, lines, twoLinesFit, back: back ? [back.textContent, back.getAttribute('data-short-label'),
        back.getAttribute('data-full-label')] : null};
"""


def site_in(language, tmp_path):
    """A copy of the ubahn fixture in `language`: its labels and titles replaced."""
    root = tmp_path / language
    shutil.copytree(FIXTURES / "ubahn" / "content", root / "content")
    shutil.copytree(FIXTURES.parents[3] / "templates", root / "templates")
    if language != "de":
        labels, titles = LANGUAGES[language]
        index = root / "content" / "index.md"
        text = index.read_text()
        text = text.replace("language: de", f"language: {language}")
        for key, value in labels.items():
            text = re.sub(rf"^  {key}: .*$", f'  {key}: "{value}"', text, flags=re.M)
        index.write_text(text)
        for path, title in zip(sorted((root / "content" / "stations").iterdir()), titles):
            path.write_text(re.sub(r"^title: .*$", f'title: "{title}"', path.read_text(), count=1, flags=re.M))
    return build_site(root)


def bar_pages(site):
    return sorted(site.glob("stations/*.html")) + sorted(site.glob("info/*.html"))[3:5] + sorted(site.glob("checklists/*.html"))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("language", ["de", "fi", "ru"])
def test_long_labels_fit_the_bar_at_every_width(tmp_path, language, javascript):
    site = site_in(language, tmp_path)
    driver = new_driver(javascript=javascript)
    failures = []
    try:
        for width in WIDTHS:
            set_viewport(driver, width, 800)
            for page in bar_pages(site):
                driver.get(page.as_uri())
                found = driver.execute_script(BAR)
                where = f"{width} px {page.relative_to(site)}"
                failures += [f"{where}: {problem}" for problem in found["problems"]]
                for word in found["broken"]:
                    if word["width"] <= word["room"] + 1:
                        failures.append(f"{where}: '{word['word']}' is broken though it fits")
                    if javascript and word["couldFit"]:
                        failures.append(f"{where}: '{word['word']}' is broken though the sides could give it room")
                if javascript:
                    failures += [f"{where}: '{label}' takes {found['lines'][label]} lines though two fit"
                                 for label, fits in found["twoLinesFit"].items() if fits]
                    failures += [f"{where}: '{label}' takes {count} lines"
                                 for label, count in found["lines"].items() if count > 3]
                    if found["back"]:
                        shown, short, full = found["back"]
                        assert shown in (short, full), found["back"]
                        if shown == full:
                            assert found["lines"][shown] == 1, f"{where}: a back title is shown on one line"
    finally:
        driver.quit()
    assert failures == [], "\n".join(failures)


def test_a_back_title_that_fits_is_shown_and_one_that_does_not_becomes_the_back_label(ubahn_site):
    driver = new_driver()
    try:
        set_viewport(driver, 1440, 800)
        driver.get((ubahn_site / "stations/hallesches-tor.html").as_uri())
        assert driver.execute_script("return document.querySelector('.back-label').textContent") == "Möckernbrücke"
        set_viewport(driver, 320, 800)
        driver.get((ubahn_site / "stations/hallesches-tor.html").as_uri())
        assert driver.execute_script("return document.querySelector('.back-label').textContent") == "Zurück"
    finally:
        driver.quit()


@pytest.mark.parametrize("page", ["index.html", "stations/gorlitzer-bahnhof-wrangelkiez-und-oberba.html",
                                  "info/hallesches-tor.html", "checklists/mitnehmen.html", "404.html"])
def test_axe_finds_no_violation_with_long_labels(browser, ubahn_site, page):
    set_viewport(browser, 320, 800)
    browser.get((ubahn_site / page).as_uri())
    results = axe_results(browser)
    assert axe_report(results) == []
    assert results["passes"]
