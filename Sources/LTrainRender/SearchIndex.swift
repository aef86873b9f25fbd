import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainModel
import LTrainRoute

/// `search-index.js`: everything the search field searches, as one classic script that sets
/// `self.ltrainSearchIndex`, so that it loads with a `<script>` element from `file://` as well as
/// over http(s), is kept offline with the other files, and is inlined in the single file.
///
/// It lists, in the order results are ranked: each station (title, summary), each info page (its
/// station's title, then its text cut at its headings, each with the heading's id), and each
/// checklist (title, rows). Links are relative to the site's root. The theme's script folds case
/// and accents and matches as the reader types (see templates/search.js).
public enum SearchIndex {
    /// The sections of each info text the renderer has cut (`Markdown.render(collectsSections:)`)
    /// or parsed, by station slug with the text they were cut from: an info page rendered in this
    /// build, or in an earlier version of the preview, is not parsed again for the index. Every
    /// entry was cut with the same Markdown options and template ids (`context`).
    package final class Memory: Sendable {
        private struct Entry {
            var text: String
            var sections: [MarkdownSection]
        }

        let context: ContentHash
        private let entries = Mutex([String: Entry]())
        /// How many texts were parsed for the index alone (their page was not rendered).
        private let parsed = Atomic<Int>(0)
        package var textsParsed: Int { parsed.load(ordering: .relaxed) }

        init(context: ContentHash) {
            self.context = context
        }

        func keep(_ sections: [MarkdownSection], slug: String, text: String) {
            entries.withLock { $0[slug] = Entry(text: text, sections: sections) }
        }

        /// The sections kept for the station, when they were cut from this very text.
        func sections(slug: String, text: String) -> [MarkdownSection]? {
            entries.withLock { entries in
                guard let entry = entries[slug], entry.text == text else { return nil }
                return entry.sections
            }
        }

        func countParse() {
            parsed.wrappingAdd(1, ordering: .relaxed)
        }

        /// Keeps only the entries of `slugs` (the stations of the version just indexed).
        func keepOnly(_ slugs: Set<String>) {
            entries.withLock { kept in kept = kept.filter { slugs.contains($0.key) } }
        }
    }

    /// What an info text's sections depend on besides the text: the Markdown options, and the
    /// ids the page's template holds (which no heading takes).
    static func context(optionsKey: ContentHash, reservedIDs: Set<String>) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(optionsKey)
        for id in reservedIDs.sorted() { hasher.add(id) }
        return hasher.hash
    }

    /// The script, from the site, its routes, and each station's info sections (by its position
    /// on the line; asked once a station, on every core). `link`: how a page's output path is
    /// linked from the index (relative to the site's root, percent-encoded, by default);
    /// `fragmentJoin`: what stands between a page's link and a heading's id (`#` on the site; the
    /// single file names a page's headings `page.id`).
    package static func script(
        site: Site, routes: Routes, infoSections: @Sendable (Int) -> [MarkdownSection],
        link: @Sendable (String) -> String = { SiteFileName.url(of: $0) }, fragmentJoin: String = "#"
    ) -> [UInt8] {
        let stations = site.line.stations
        // Each station's two lines (its page, then its info page), made on every core.
        let lines = concurrentMap(stations.count) { index -> (station: [UInt8], info: [UInt8]) in
            let slug = stations[index].slug
            var station = line("s", stations[index].title, link(routes.path(of: .station(slug: slug))))
            station.append(UInt8(ascii: ","))
            JSONText.appendQuoted(stations[index].summary ?? "", to: &station)
            station.append(UInt8(ascii: "]"))
            var info = line("i", stations[index].title, link(routes.path(of: .info(slug: slug))))
            info += Array(",[".utf8)
            for (position, section) in infoSections(index).enumerated() {
                if position > 0 { info.append(UInt8(ascii: ",")) }
                appendList([section.heading, section.id ?? "", section.text], to: &info)
            }
            info += Array("]]".utf8)
            return (station, info)
        }
        var checklists: [[UInt8]] = []
        for checklist in site.checklists {
            var entry = line("c", checklist.title, link(routes.path(of: .checklist(slug: checklist.slug))))
            entry.append(UInt8(ascii: ","))
            appendList(checklist.rows.map(\.text), to: &entry)
            entry.append(UInt8(ascii: "]"))
            checklists.append(entry)
        }
        var head = Array(
            "// Written by ltrain build: what the search field searches (see search.js).\nself.ltrainSearchIndex = {\"join\": ".utf8)
        JSONText.appendQuoted(fragmentJoin, to: &head)
        head += Array(", \"pages\": [\n".utf8)
        let entries = lines.map(\.station) + lines.map(\.info) + checklists
        let tail = Array("\n]};\n".utf8)
        // Sized exactly: the index can be tens of megabytes, and a doubling would hold it twice.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + entries.reduce(0) { $0 + $1.count + 2 } + tail.count)
        bytes += head
        for (position, entry) in entries.enumerated() {
            if position > 0 { bytes += [UInt8(ascii: ","), 0x0A] }
            bytes += entry
        }
        bytes += tail
        return bytes
    }

    /// `["kind","title","link"` (the entry goes on).
    private static func line(_ kind: String, _ title: String, _ link: String) -> [UInt8] {
        var bytes = Array("[\"\(kind)\",".utf8)
        JSONText.appendQuoted(title, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        JSONText.appendQuoted(link, to: &bytes)
        return bytes
    }

    /// A JSON array of strings.
    private static func appendList(_ texts: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(text, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
