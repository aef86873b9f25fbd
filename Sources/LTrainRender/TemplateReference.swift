import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG
import LTrainSupport
import LTrainMustache
import LTrainMarkdown

/// The values each page template receives, written out from the schema the template-name check
/// uses (`TemplateNames.schema`, read off what the pages are given), so the list an author reads (`ltrain help templates`, and the
/// README, which a test holds to it) cannot drift from what the pages are given.
public enum TemplateReference {
    /// What each name holds, by its path in the schema (`[]` for a list's items). A test holds
    /// this table to the schema: no name without words, no words without a name.
    static let meanings: [String: String] = [
        "site.title": "the site's title (index.md)",
        "site.language": "the pages' language, for `<html lang>`",
        "site.direction": "`ltr` or `rtl`, for `<html dir>`",
        "site.home": "link to the index",
        "site.base_url": "the base URL, if any",
        "site.offline": "true unless index.md sets `offline: false`",
        "site.labels.*": "each label by its key (`ltrain help labels`), e.g. `site.labels.done`",
        "files.*": "link to a theme or asset file, by its path with every character but letters and digits as `_` (`style.css` → `files.style_css`); absent when there is no such file",
        "document_title": "for `<title>`: \"Union Square — L Train\" (the site's title alone on the index)",
        "canonical_url": "the page's absolute URL, with a base URL",
        "title": "the page's title (on an info page, its station's)",
        "body": "the page's Markdown as HTML (raw: `{{{body}}}`)",
        "summary": "the station's `summary`, if any",
        "position": "the station's place on the line, from 1",
        "station_count": "how many stations the line has",
        "position_label": "the `position` label filled in: \"Stop 3 of 6\"",
        "info_href": "link to the station's info page",
        "previous.title": "the previous station's title (absent on the first)",
        "previous.href": "link to the previous station",
        "next.title": "the next station's title (absent on the last)",
        "next.href": "link to the next station",
        "next.label": "the `next` label (\"Go East\")",
        "done_href": "link back to the station",
        "slug": "the checklist's slug",
        "intro": "the checklist's Markdown above its list, as HTML",
        "group": "the name its inputs share",
        "chooses_many": "true for `choose: many`",
        "input_type": "`radio`, or `checkbox` for `choose: many`",
        "back.title": "the index's title",
        "back.href": "link to the index",
        "rows[].id": "the row's input id",
        "rows[].value": "the row's input value",
        "rows[].text": "the row's words, as text",
        "rows[].label": "the row's words, as HTML",
        "rows[].position": "the row's place, from 1",
        "has_checklists": "true when the site has checklists",
        "search_index": "the whole search index as a script, when the texts it holds come to at most 32 kB (raw, inside `<script>`: `{{{search_index}}}`); absent otherwise, and `search.js` loads `files.search_index_js`",
        "stations[].title": "a station's title",
        "stations[].summary": "its summary, if any",
        "stations[].href": "link to it",
        "stations[].position": "its place on the line, from 1",
        "stations[].is_first": "true for the first station",
        "stations[].is_last": "true for the last station",
        "checklists[].title": "a checklist's title",
        "checklists[].href": "link to it",
        "map.width": "the strip map's width (at least its card's at desktop sizes)",
        "map.height": "its height",
        "map.line_x": "where the line starts",
        "map.line_y": "the line's height on the map",
        "map.line_length": "the line's length",
        "map.has_stops": "true when the line has stations",
        "map.stops[].offset": "a stop's place along the line, a percentage",
        "map.stops[].y": "its height",
        "map.stops[].label_y": "its label's height",
        "map.stops[].title": "its station's title",
        "map.stops[].label": "the title, shortened past 40 characters",
        "map.stops[].href": "link to the station",
        "map.stops[].position": "its place on the line, from 1",
        "map.stops[].is_terminal": "true for the first and the last stop",
        "404:stations[].title": "the first station's title (a list of one)",
        "404:stations[].href": "link to it",
    ]

    /// The page templates, in the order an author meets them.
    static let pages = ["station", "info", "checklist", "index", "404"]

    /// Every name path of `shape`: `a.b`, `list[].c`; a label or file name as `*`.
    static func paths(of shape: TemplateNames.Shape, prefix: String = "") -> [String] {
        switch shape {
        case .object(let fields):
            return fields.keys.sorted().flatMap { key -> [String] in
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if prefix == "site", key == "labels" { return ["site.labels.*"] }
                if let field = fields[key] { return paths(of: field, prefix: path) }
                return [path]
            }
        case .list(let item):
            return paths(of: item, prefix: prefix + "[]")
        case .scalar:
            return [prefix]
        case .any:
            return [prefix + ".*"]
        }
    }

    /// The names every page has, then each page's own, in the schema's order.
    static func entries() -> [(page: String?, path: String)] {
        let own = pages.map { page in (page, TemplateNames.schema(of: page).map { paths(of: $0) } ?? []) }
        // What every page kind has is listed once.
        let shared = own.dropFirst().reduce(Set(own.first?.1 ?? [])) { $0.intersection($1.1) }
        var entries = shared.sorted().map { (page: String?.none, path: $0) }
        for (page, paths) in own {
            entries += paths.filter { !shared.contains($0) }.map { (page, $0) }
        }
        return entries
    }

    /// The meaning of one entry: a page's own words first (`404:stations[].title`), else the shared ones.
    static func meaning(of path: String, on page: String?) -> String? {
        page.flatMap { meanings["\($0):\(path)"] } ?? meanings[path]
    }

    /// The reference as Markdown: one table of the names every page has, then one per page.
    public static func markdown() -> String {
        var text = "Every page has:\n\n| name | value |\n| --- | --- |\n"
        var current: String?
        for entry in entries() {
            if entry.page != current, let page = entry.page {
                current = page
                text += "\n`\(page).mustache` has:\n\n| name | value |\n| --- | --- |\n"
            }
            text += "| `\(entry.path)` | \(meaning(of: entry.path, on: entry.page) ?? "") |\n"
        }
        return text + "\nA name with `[]` is a list's items: `{{#stations}}{{title}}{{/stations}}`.\n"
    }
}

extension Labels {
    /// Every label with its default and where the default theme shows it, as a Markdown table
    /// (`ltrain help labels`, and the README).
    public static func markdownTable() -> String {
        "| key | default | shown as |\n| --- | --- | --- |\n"
            + all.map { "| `\($0.key)` | \($0.text) | \($0.shownAs) |\n" }.joined()
    }
}

extension TemplateReference {
    /// The names alone, one line per page kind, for the README (`markdown()` has their meanings).
    public static func compact() -> String {
        var lines: [(String, [String])] = []
        for entry in entries() {
            let heading = entry.page.map { "`\($0).mustache`" } ?? "every page"
            if lines.last?.0 == heading {
                lines[lines.count - 1].1.append(entry.path)
            } else {
                lines.append((heading, [entry.path]))
            }
        }
        return lines.map { "- \($0.0): " + $0.1.map { "`\($0)`" }.joined(separator: ", ") }.joined(separator: "\n") + "\n"
    }
}
