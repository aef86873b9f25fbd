"""Generates synthetic sites of N stations with realistic CommonMark (about 3 KB a station):
headings, lists, emphasis, links and a code block. The same Markdown bytes are written for
ltrain and, optionally, for Hugo, so both generators do the same work."""

import pathlib
import random

WORDS = (
    "train platform avenue street transfer express local uptown downtown tunnel river station token "
    "turnstile rider conductor signal track borough bridge elevated subway mezzanine stair escalator"
).split()


def paragraph(rng: random.Random, sentences: int) -> str:
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


def station_body(rng: random.Random, index: int, count: int, link_style: str) -> str:
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


def generate_ltrain(root: pathlib.Path, count: int, seed: int = 14, variant: str = "") -> pathlib.Path:
    """Writes content/ for ltrain under root; `variant` changes every station's text."""
    rng = random.Random(seed)
    content = root / "content"
    (content / "stations").mkdir(parents=True, exist_ok=True)
    (content / "checklists").mkdir(parents=True, exist_ok=True)
    (content / "index.md").write_text(f"---\ntitle: Synthetic Line\n---\nA generated line of {count} stations.\n")
    (content / "checklists" / "check-one.md").write_text("---\ntitle: Check One\n---\n- One\n- Two\n- Three\n")
    for index in range(count):
        body = station_body(rng, index, count, "ltrain")
        (content / "stations" / f"{index + 1:05d}-stop-{index + 1}.md").write_text(
            f"---\ntitle: Stop {index + 1}{variant}\nsummary: Stop number {index + 1}.\n---\n{body}"
        )
    return content


def generate_hugo(root: pathlib.Path, count: int, seed: int = 14) -> pathlib.Path:
    """Writes an equivalent Hugo site: the same station Markdown, a station page with back and
    Go East links and an info page per station, an index and a checklist page."""
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
        body = station_body(rng, index, count, "hugo")
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
