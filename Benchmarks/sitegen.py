"""Generates synthetic sites of N stations, deterministic by seed. The same Markdown bytes are
written for ltrain and, optionally, for Hugo, so both generators do the same work.

Three corpora (`style`):
- "realistic" (the default): Markdown as authors write it. Brackets inside link text, reference
  links, autolinks and bare URLs; tables, footnotes, strikethrough and task lists in some
  stations; raw HTML inline and as blocks, and entities; accents, CJK, emoji and right-to-left
  text; code spans and blocks holding `{{ }}` and `<`, and long lines. Page sizes spread like real
  documentation: many under 1 KB, a median near 2 KB, a few of 30-100 KB.
- "every": the realistic corpus with every kind of notice (table, footnote, strikethrough, task
  list, bare URL, raw HTML) in every station: the worst case for the notice scan.
- "plain": the shapes this generator wrote before (about 3 KB a station of headings, lists,
  emphasis, `[plain text](url)` links and a code block, ASCII only)."""

import math
import pathlib
import random

STYLES = ("realistic", "every", "plain")

WORDS = (
    "train platform avenue street transfer express local uptown downtown tunnel river station token "
    "turnstile rider conductor signal track borough bridge elevated subway mezzanine stair escalator"
).split()

# Words authors outside English write: accents, CJK, Hangul, emoji, Hebrew and Arabic.
FOREIGN = (
    "Görlitzer Bahnhof café naïve Müllerstraße São Paulo Kraków Łódź Ærø "
    "東京駅 新宿 地铁站 換乗 서울역 환승 🚇 🚉 ✨ 🗺️ תחנה רכבת محطة قطار"
).split()

PLACES = ["Union Square", "Bedford Avenue", "Lorimer Street", "Canarsie", "Myrtle–Wyckoff", "Grand Street"]


def paragraph(rng: random.Random, sentences: int) -> str:
    """The plain corpus's paragraph: ASCII words with one emphasis and one strong each sentence."""
    out = []
    for _ in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 16))]
        words[0] = words[0].capitalize()
        i = rng.randrange(len(words))
        words[i] = f"*{words[i]}*"
        j = rng.randrange(len(words))
        words[j] = f"**{words[j]}**"
        out.append(" ".join(words) + ".")
    return " ".join(out)


def plain_body(rng: random.Random, index: int, count: int, link_style: str) -> str:
    neighbour = (index + 1) % count
    if link_style == "ltrain":
        link = f"[the next stop]({neighbour + 1:05d}-stop-{neighbour + 1}.md)"
    else:
        link = f"[the next stop](https://example.org/stop-{neighbour + 1})"
    parts = [
        "## Where it is",
        paragraph(rng, 6),
        "## History",
        paragraph(rng, 8) + f" See {link} and [the MTA](https://new.mta.info/).",
        "## Connections",
        "\n".join(f"- {rng.choice(WORDS).capitalize()} line at *{rng.choice(WORDS)}* street" for _ in range(5)),
        "## Worth knowing",
        paragraph(rng, 6),
        "```\n" + "\n".join(f"departure {h:02d}:{m:02d}  track {rng.randint(1, 4)}" for h, m in [(7, 5), (7, 12), (7, 19), (7, 26)]) + "\n```",
        paragraph(rng, 5),
    ]
    return "\n\n".join(parts) + "\n"


class Station:
    """What one realistic station's text holds: which notice kinds (chosen per station, so only
    some stations have each), and the footnotes and reference links it defines."""

    def __init__(self, rng: random.Random, index: int, count: int, link_style: str, every: bool):
        self.rng = rng
        self.index = index
        self.count = count
        self.link_style = link_style
        chance = (lambda p: True) if every else (lambda p: rng.random() < p)
        self.bare_urls = chance(0.30)
        self.raw_html = chance(0.15)
        self.tables = chance(0.10)
        self.footnotes = chance(0.06)
        self.strikethrough = chance(0.06)
        self.task_lists = chance(0.05)
        self.footnote_count = 0
        self.references = set()

    def word(self) -> str:
        rng = self.rng
        return rng.choice(FOREIGN) if rng.random() < 0.08 else rng.choice(WORDS)

    def station_link(self, text: str) -> str:
        neighbour = self.rng.randrange(self.count)
        if self.link_style == "ltrain":
            return f"[{text}]({neighbour + 1:05d}-stop-{neighbour + 1}.md)"
        return f"[{text}](https://example.org/stop-{neighbour + 1})"

    def inline(self) -> str:
        """One piece of inline Markdown of the kinds authors write."""
        rng = self.rng
        kinds = ["emphasis", "strong", "link", "bracketed", "reference", "autolink", "entity", "code", "station",
                 "brackets"]
        if self.bare_urls:
            kinds.append("bare")
        if self.raw_html:
            kinds.append("html")
        if self.strikethrough:
            kinds.append("strike")
        if self.footnotes:
            kinds.append("footnote")
        kind = rng.choice(kinds)
        w = self.word
        if kind == "emphasis":
            return f"*{w()}*"
        if kind == "strong":
            return f"**{w()} {w()}**"
        if kind == "link":
            return f"[{w()} {w()}](https://example.org/{rng.randrange(1000)})"
        if kind == "bracketed":
            # Brackets inside link text, and a link inside a link's text (CommonMark keeps the inner one).
            if rng.random() < 0.5:
                return f"[[{w()}](https://example.org/a{rng.randrange(99)}) {w()}](https://example.org/b{rng.randrange(99)})"
            return f"[the [{rng.choice(PLACES)}] {w()}](https://example.org/c{rng.randrange(99)})"
        if kind == "reference":
            name = rng.choice(["mta", "map", "hours", "access", "history"])
            self.references.add(name)
            return f"[{w()}][{name}]"
        if kind == "autolink":
            return f"<https://example.org/{w() if rng.random() < 0.1 else 'path'}/{rng.randrange(1000)}>"
        if kind == "entity":
            return rng.choice(["&amp;", "&copy;", "&#8212;", "&nbsp;", "&lt;tag&gt;", "&eacute;"])
        if kind == "code":
            return rng.choice(["`{{ station.title }}`", "`a < b && c > d`", "`{{{raw}}}`", "`<br>`", "`[x]`", "`~~`"])
        if kind == "station":
            return self.station_link(f"{rng.choice(PLACES)} {w()}")
        if kind == "brackets":
            return rng.choice(["[c]reate", "[optional]", "[1]", "a[i]", "[sic]", "[ ]x"])
        if kind == "bare":
            return rng.choice([f"https://example.org/bare/{rng.randrange(1000)}", f"www.example.org/{rng.randrange(99)}",
                               f"http://example.org/q?a={rng.randrange(9)}&b=2"])
        if kind == "html":
            return rng.choice(["<kbd>L</kbd>", "<br>", "<span class=\"note\">note</span>", "<abbr title=\"Metropolitan\">MTA</abbr>"])
        if kind == "strike":
            return f"~~{w()} {w()}~~"
        self.footnote_count += 1
        return f"[^{self.footnote_count}]"

    def sentence(self) -> str:
        rng = self.rng
        words = [self.word() for _ in range(rng.randint(6, 16))]
        words[0] = words[0][:1].upper() + words[0][1:]
        for _ in range(rng.randint(0, 3)):
            words.insert(rng.randrange(1, len(words) + 1), self.inline())
        return " ".join(words) + rng.choice([".", ".", ".", "!", "?", " …"])

    def paragraph(self) -> str:
        sentences = [self.sentence() for _ in range(self.rng.randint(1, 6))]
        # Some authors wrap their lines, some write a paragraph on one long line.
        return ("\n" if self.rng.random() < 0.5 else " ").join(sentences)

    def block(self) -> str:
        rng = self.rng
        kinds = ["paragraph"] * 6 + ["heading", "heading", "list", "code", "quote"]
        if self.tables:
            kinds.append("table")
        if self.task_lists:
            kinds.append("tasks")
        if self.raw_html:
            kinds.append("html")
        kind = rng.choice(kinds)
        if kind == "paragraph":
            return self.paragraph()
        if kind == "heading":
            return "#" * rng.choice([2, 2, 3]) + " " + " ".join(self.word() for _ in range(rng.randint(1, 4))).capitalize()
        if kind == "list":
            marker = rng.choice(["-", "*", "1."])
            return "\n".join(f"{marker} {self.sentence()}" for _ in range(rng.randint(2, 7)))
        if kind == "code":
            lines = [rng.choice([
                "<div class=\"{{ kind }}\">{{ station.title }}</div>",
                "if a < b && b > c { print(\"{{not a tag}}\") }",
                "ltrain build --content content --output _site",
                "  - [ ] not a task | not | a table ~~not struck~~ https://example.org/not-bare",
                "# " + "long line " * rng.randint(10, 40),
            ]) for _ in range(rng.randint(2, 8))]
            return "```" + rng.choice(["", "html", "sh", "swift"]) + "\n" + "\n".join(lines) + "\n```"
        if kind == "quote":
            return "> " + self.sentence() + "\n> " + self.sentence()
        if kind == "table":
            columns = rng.randint(2, 5)
            rows = [" | ".join(self.word() for _ in range(columns)) for _ in range(rng.randint(2, 12))]
            delimiter = "|" + "|".join(rng.choice(["---", ":--", ":-:", "--:"]) for _ in range(columns)) + "|"
            return "\n".join([f"| {rows[0]} |", delimiter] + [f"| {row} |" for row in rows[1:]])
        if kind == "tasks":
            return "\n".join(f"- [{rng.choice([' ', 'x'])}] {self.sentence()}" for _ in range(rng.randint(2, 6)))
        return f"<div class=\"note\">\n<p>{self.sentence()}</p>\n</div>"

    def body(self, size: int) -> str:
        blocks = []
        length = 0
        while length < size:
            block = self.block()
            blocks.append(block)
            length += len(block.encode()) + 2
        if self.footnotes and self.footnote_count == 0:
            blocks.append(self.sentence() + " " + "[^1]")
            self.footnote_count = 1
        blocks.extend(f"[^{n}]: {self.sentence()}" for n in range(1, self.footnote_count + 1))
        blocks.extend(f"[{name}]: https://example.org/{name}" for name in sorted(self.references))
        return "\n\n".join(blocks) + "\n"


def page_size(rng: random.Random) -> int:
    """Bytes of Markdown for one page: 2 in 100 pages of 30-100 KB, the rest spread around a
    median of about 2 KB (many under 1 KB), as in real documentation."""
    if rng.random() < 0.02:
        return rng.randint(30_000, 90_000)
    return max(150, min(25_000, int(rng.lognormvariate(math.log(1500), 1.0))))


def station_body(rng: random.Random, index: int, count: int, link_style: str, style: str = "realistic") -> str:
    if style == "plain":
        return plain_body(rng, index, count, link_style)
    station = Station(rng, index, count, link_style, every=style == "every")
    return station.body(page_size(rng))


def generate_ltrain(root: pathlib.Path, count: int, seed: int = 14, variant: str = "", style: str = "realistic") -> pathlib.Path:
    """Writes content/ for ltrain under root; `variant` changes every station's title."""
    assert style in STYLES, style
    rng = random.Random(seed)
    content = root / "content"
    (content / "stations").mkdir(parents=True, exist_ok=True)
    (content / "checklists").mkdir(parents=True, exist_ok=True)
    (content / "index.md").write_text(f"---\ntitle: Synthetic Line\n---\nA generated line of {count} stations.\n")
    (content / "checklists" / "check-one.md").write_text("---\ntitle: Check One\n---\n- One\n- Two\n- Three\n")
    for index in range(count):
        body = station_body(rng, index, count, "ltrain", style)
        (content / "stations" / f"{index + 1:05d}-stop-{index + 1}.md").write_text(
            f"---\ntitle: Stop {index + 1}{variant}\nsummary: Stop number {index + 1}.\n---\n{body}"
        )
    return content


def generate_hugo(root: pathlib.Path, count: int, seed: int = 14, style: str = "realistic") -> pathlib.Path:
    """Writes an equivalent Hugo site: the same station Markdown, a station page with back and
    Go East links and an info page per station, an index and a checklist page."""
    assert style in STYLES, style
    rng = random.Random(seed)
    site = root
    (site / "content" / "stations").mkdir(parents=True, exist_ok=True)
    (site / "content" / "info").mkdir(parents=True, exist_ok=True)
    (site / "layouts" / "_default").mkdir(parents=True, exist_ok=True)
    (site / "layouts" / "stations").mkdir(parents=True, exist_ok=True)
    (site / "layouts" / "info").mkdir(parents=True, exist_ok=True)
    (site / "hugo.toml").write_text(
        'baseURL = "/"\nrelativeURLs = true\nuglyURLs = true\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "404", "robotsTXT"]\n'
        "[markup.highlight]\ncodeFences = false\nnoClasses = false\n[markup.goldmark.renderer]\nunsafe = false\n"
    )
    (site / "content" / "_index.md").write_text(f"---\ntitle: Synthetic Line\n---\nA generated line of {count} stations.\n")
    (site / "content" / "check-one.md").write_text("---\ntitle: Check One\n---\n- One\n- Two\n- Three\n")
    for index in range(count):
        body = station_body(rng, index, count, "hugo", style)
        name = f"{index + 1:05d}-stop-{index + 1}"
        front = f"---\ntitle: Stop {index + 1}\nsummary: Stop number {index + 1}.\nweight: {index + 1}\n---\n"
        (site / "content" / "stations" / f"{name}.md").write_text(front)
        (site / "content" / "info" / f"{name}.md").write_text(front + body)
    head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} — {{ .Site.Title }}</title><link rel="stylesheet" href="{{ "style.css" | relURL }}"></head><body>'
    (site / "layouts" / "_default" / "baseof.html").write_text(head + '{{ block "main" . }}{{ end }}</body></html>\n')
    (site / "layouts" / "index.html").write_text(
        '{{ define "main" }}<h1>{{ .Site.Title }}</h1>{{ .Content }}<ol>{{ range (where .Site.RegularPages "Section" "stations").ByWeight }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol>{{ end }}'
    )
    # Hugo's .NextInSection points to the previous page in weight order, so the two are swapped.
    (site / "layouts" / "stations" / "single.html").write_text(
        '{{ define "main" }}<header>{{ with .NextInSection }}<a rel="prev" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}'
        '<h1>{{ .Title }}</h1>{{ with .PrevInSection }}<a rel="next" href="{{ .RelPermalink }}">Go East</a>{{ end }}</header>'
        '<main><p>{{ .Params.summary }}</p><a href="{{ (printf "/info/%s.html" .File.BaseFileName) | relURL }}">More Information</a></main>{{ end }}'
    )
    (site / "layouts" / "info" / "single.html").write_text(
        '{{ define "main" }}<header><h1>{{ .Title }}</h1><a href="{{ (printf "/stations/%s.html" .File.BaseFileName) | relURL }}">Done</a></header><main>{{ .Content }}</main>{{ end }}'
    )
    (site / "layouts" / "_default" / "single.html").write_text('{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}')
    (site / "layouts" / "_default" / "list.html").write_text('{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}')
    (site / "static").mkdir(exist_ok=True)
    (site / "static" / "style.css").write_text("body{font-family:sans-serif}\n")
    return site


def describe(root: pathlib.Path) -> str:
    """A line on the corpus under root/content: stations, bytes, and the page-size spread."""
    sizes = sorted(len(path.read_bytes()) for path in (root / "content" / "stations").glob("*.md"))
    if not sizes:
        return "no stations"
    under = sum(1 for size in sizes if size < 1024) / len(sizes)
    return (f"{len(sizes):,} stations, {sum(sizes) / 1e6:.1f} MB of Markdown; median {sizes[len(sizes) // 2]:,} B, "
            f"{under:.0%} under 1 KB, largest {sizes[-1]:,} B")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Writes a generated ltrain site (content/) under ROOT.")
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--stations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=14)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--plain", action="store_const", const="plain", dest="style", help="the old ASCII-only shapes")
    group.add_argument("--every", action="store_const", const="every", dest="style", help="every notice in every station")
    parser.set_defaults(style="realistic")
    options = parser.parse_args()
    generate_ltrain(options.root, options.stations, seed=options.seed, style=options.style)
    print(describe(options.root))
