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
    /// or parsed, by `SearchIndex.textKey`: an info page rendered in this build, or in an earlier
    /// version of the preview, is not parsed again for the index.
    package final class Memory: Sendable {
        private let sections = Mutex([ContentHash: [MarkdownSection]]())

        package init() {}

        func keep(_ found: [MarkdownSection], for key: ContentHash) {
            sections.withLock { $0[key] = found }
        }

        func sections(for key: ContentHash) -> [MarkdownSection]? {
            sections.withLock { $0[key] }
        }

        /// Keeps only the entries of `keys` (the texts of the version just indexed).
        func keepOnly(_ keys: Set<ContentHash>) {
            sections.withLock { kept in kept = kept.filter { keys.contains($0.key) } }
        }
    }

    /// What an info text's sections depend on: the text, the Markdown options, and the ids the
    /// page's template holds (which no heading takes).
    static func textKey(_ text: String, optionsKey: ContentHash, reservedIDs: Set<String>) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(optionsKey)
        for id in reservedIDs.sorted() { hasher.add(id) }
        hasher.add(text)
        return hasher.hash
    }

    /// The script, from the site, its routes, and each station's info sections (in line order).
    /// `link`: how a page's output path is linked from the index (relative to the site's root,
    /// percent-encoded, by default); `fragmentJoin`: what stands between a page's link and a
    /// heading's id (`#` on the site; the single file names a page's headings `page.id`).
    package static func script(
        site: Site, routes: Routes, infoSections: [[MarkdownSection]],
        link: (String) -> String = { SiteFileName.url(of: $0) }, fragmentJoin: String = "#"
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + infoSections.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.utf8.count + 32 } })
        bytes += Array("// Written by ltrain build: what the search field searches (see search.js).\nself.ltrainSearchIndex = {\"join\": ".utf8)
        JSONText.appendQuoted(fragmentJoin, to: &bytes)
        bytes += Array(", \"pages\": [\n".utf8)
        var first = true
        func entry(_ kind: String, _ title: String, _ page: Page, _ rest: (inout [UInt8]) -> Void) {
            if !first { bytes += Array(",\n".utf8) }
            first = false
            bytes += Array("[\"\(kind)\",".utf8)
            JSONText.appendQuoted(title, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONText.appendQuoted(link(routes.path(of: page)), to: &bytes)
            rest(&bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        /// A JSON array of strings.
        func list(_ texts: [String], into bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: "["))
            for (index, text) in texts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(text, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        let stations = site.line.stations
        for index in stations.indices {
            entry("s", stations[index].title, .station(slug: stations[index].slug)) { bytes in
                bytes.append(UInt8(ascii: ","))
                JSONText.appendQuoted(stations[index].summary ?? "", to: &bytes)
            }
        }
        for index in stations.indices {
            let sections = index < infoSections.count ? infoSections[index] : []
            entry("i", stations[index].title, .info(slug: stations[index].slug)) { bytes in
                bytes += Array(",[".utf8)
                for (position, section) in sections.enumerated() {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    list([section.heading, section.id ?? "", section.text], into: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }
        for checklist in site.checklists {
            entry("c", checklist.title, .checklist(slug: checklist.slug)) { bytes in
                bytes.append(UInt8(ascii: ","))
                list(checklist.rows.map(\.text), into: &bytes)
            }
        }
        bytes += Array("\n]};\n".utf8)
        return bytes
    }
}
