import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainModel
import LTrainRoute

/// What the search field searches, as classic scripts, so that it loads with `<script>` elements
/// from `file://` as well as over http(s), is kept offline with the other files, and is inlined
/// in the single file:
///
/// - `search-index.js` sets `self.ltrainSearchIndex`: the shards' paths and the checklists
///   (title, rows);
/// - each shard, `search/N.js`, a run of stations (`Routes.searchShards`), adds its entries to
///   `self.ltrainSearchShards`: each station (title, summary), then each info page (its
///   station's title, then its text cut at its headings, each with the heading's id).
///
/// A change to one station's text rewrites its shard alone. Links are relative to the site's
/// root. The theme's search.js folds case and accents and matches as the reader types.
public enum SearchIndex {
    /// The most bytes of text the index may hold for the index page to carry it whole, inline
    /// (`PageRenderer.inlineSearchIndex`), so that the first search asks for nothing; past it,
    /// what every visit to the index page would download outweighs the two requests a search
    /// saves.
    static let inlineTextLimit = 32 * 1024

    /// Whether the texts the index holds (each station's title, summary and info text, each
    /// checklist's title and rows) fit `inlineTextLimit`, and the stations one shard.
    static func fitsInline(_ site: Site) -> Bool {
        let stations = site.line.stations
        guard Routes.searchShards(stationCount: stations.count).count <= 1 else { return false }
        var bytes = 0
        for index in stations.indices {
            bytes += stations[index].title.utf8.count + (stations[index].summary?.utf8.count ?? 0)
                + stations[index].info.body.text.utf8.count
            if bytes > inlineTextLimit { return false }
        }
        for checklist in site.checklists {
            bytes += checklist.title.utf8.count
            for row in checklist.rows { bytes += row.text.utf8.count }
            if bytes > inlineTextLimit { return false }
        }
        return true
    }

    /// The hash of the entries of the station at `index`: its slug, title, summary and info text.
    /// Read in place, by index: a station passed whole was copied, field by field, which was
    /// most of the time a title edit spends on this.
    static func hash(ofStationAt index: Int, in stations: [Station]) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(stations[index].slug)
        hasher.add(stations[index].title)
        hasher.add(stations[index].summary ?? "\u{0}")
        hasher.add(stations[index].info.body.textHash)
        return hasher.hash
    }

    /// How a page's output path is linked from the index, and what stands between a page's
    /// link and a heading's id: relative to the site's root and `#` on the site; the single file
    /// names its pages `#page` and a page's headings `page.id`.
    package struct Links: Sendable {
        var page: @Sendable (String) -> String = { SiteFileName.url(of: $0) }
        var fragmentJoin = "#"

        package init() {}

        package init(page: @escaping @Sendable (String) -> String, fragmentJoin: String) {
            self.page = page
            self.fragmentJoin = fragmentJoin
        }
    }

    /// `search-index.js`: the shards' paths and the checklists. `pages`: every shard's entries in
    /// it too (for the single file, which loads nothing).
    package static func root(site: Site, shardPaths: [String], links: Links, pages: [[UInt8]]? = nil) -> [UInt8] {
        var bytes = Array(
            "// Written by ltrain build: what the search field searches (see search.js).\nself.ltrainSearchIndex = {\"join\": ".utf8)
        JSONText.appendQuoted(links.fragmentJoin, to: &bytes)
        bytes += Array(", \"shards\": ".utf8)
        appendList(pages == nil ? shardPaths.map { SiteFileName.url(of: $0) } : [], to: &bytes)
        bytes += Array(", \"checklists\": [".utf8)
        for (position, checklist) in site.checklists.enumerated() {
            bytes += Array((position > 0 ? ",\n" : "\n").utf8)
            bytes += line("c", checklist.title, links.page(Routes.outputPath(of: .checklist(slug: checklist.slug))))
            bytes.append(UInt8(ascii: ","))
            appendList(checklist.rows.map(\.text), to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes += Array("]".utf8)
        if let pages {
            bytes += Array(", \"pages\": [\n".utf8)
            for (position, entries) in pages.enumerated() {
                if position > 0 && !entries.isEmpty { bytes += Array(",\n".utf8) }
                bytes += entries
            }
            bytes += Array("]".utf8)
        }
        bytes += Array("};\n".utf8)
        return bytes
    }

    /// A shard's script: the entries of the stations in `range`, written into one buffer sized
    /// once (the entries are most of a 37 MB index).
    package static func shard(
        path: String, of stations: [Station], in range: Range<Int>, infoSections: (Int) -> [MarkdownSection], links: Links
    ) -> [UInt8] {
        let sections = range.map(infoSections)
        var bytes = Array(
            "// Written by ltrain build: stations \(range.lowerBound + 1)-\(range.upperBound) of the search index (see search.js).\n"
                .utf8)
        bytes.reserveCapacity(bytes.count + path.utf8.count + 64 + size(of: sections, stations: range.count))
        bytes += Array("(self.ltrainSearchShards = self.ltrainSearchShards || {})[".utf8)
        JSONText.appendQuoted(SiteFileName.url(of: path), to: &bytes)
        bytes += Array("] = [\n".utf8)
        appendEntries(of: stations, in: range, sections: sections, links: links, to: &bytes)
        bytes += Array("\n];\n".utf8)
        return bytes
    }

    /// The entries of the stations in `range`, one a line, without the list's brackets: each
    /// station, then each info page, with its sections (`infoSections`, by position on the line).
    package static func entries(
        of stations: [Station], in range: Range<Int>, infoSections: (Int) -> [MarkdownSection], links: Links
    ) -> [UInt8] {
        let sections = range.map(infoSections)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size(of: sections, stations: range.count))
        appendEntries(of: stations, in: range, sections: sections, links: links, to: &bytes)
        return bytes
    }

    /// About the size of the entries of `stations` stations with these sections: the texts are
    /// most of the bytes, and growing by doubling copied them again.
    private static func size(of sections: [[MarkdownSection]], stations: Int) -> Int {
        sections.reduce(stations * 256) { total, sections in
            sections.reduce(total) { $0 + $1.utf8.count + $1.heading.utf8.count + 64 }
        }
    }

    private static func appendEntries(
        of stations: [Station], in range: Range<Int>, sections sectionsOfRange: [[MarkdownSection]], links: Links,
        to bytes: inout [UInt8]
    ) {
        for index in range {
            if index > range.lowerBound { bytes += Array(",\n".utf8) }
            bytes += line("s", stations[index].title, links.page(Routes.outputPath(of: .station(slug: stations[index].slug))))
            bytes.append(UInt8(ascii: ","))
            JSONText.appendQuoted(stations[index].summary ?? "", to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        for index in range {
            bytes += Array(",\n".utf8)
            bytes += line("i", stations[index].title, links.page(Routes.outputPath(of: .info(slug: stations[index].slug))))
            bytes += Array(",[".utf8)
            for (position, section) in sectionsOfRange[index - range.lowerBound].enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "["))
                JSONText.appendQuoted(section.heading, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                JSONText.appendQuoted(section.id ?? "", to: &bytes)
                bytes.append(UInt8(ascii: ","))
                section.utf8.withUnsafeBufferPointer { JSONText.appendQuoted($0, to: &bytes) }
                bytes.append(UInt8(ascii: "]"))
            }
            bytes += Array("]]".utf8)
        }
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
