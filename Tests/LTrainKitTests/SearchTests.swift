import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainModel
@testable import LTrainRoute
@testable import LTrainRender
@testable import LTrainMarkdown
@testable import LTrainServe
@testable import LTrainSupport

/// Search (issue 30): the sections the Markdown stage cuts, the index the build writes, and the
/// memory that lets a kept page, or an earlier version in serve, hand its sections over.
@Suite struct SearchTests {
    static let text = """
        Before any heading, with `code`.

        # Getting *there*

        Take the **L** to <span>raw</span> Union   Square.
        Line two.

        ```
        git commit -m x
        ```

        ## Getting there

        - one
        - two
        """

    @Test func sectionsFollowTheHeadingsWithTheRenderedIDs() throws {
        let rendered = Markdown.render(Self.text, reservedIDs: ["map-heading"], collectsSections: true)
        #expect(rendered.sections == [
            MarkdownSection(heading: "", id: nil, text: "Before any heading, with code."),
            MarkdownSection(
                heading: "Getting there", id: "getting-there",
                text: "Take the L to raw Union Square. Line two. git commit -m x"),
            MarkdownSection(heading: "Getting there", id: "getting-there-2", text: "one two"),
        ])
        // Every id a section names is one the HTML gives its heading.
        for id in rendered.sections.compactMap(\.id) { #expect(rendered.html.contains("id=\"\(id)\"")) }
        // Cut without rendering (a kept page), the same.
        #expect(Markdown.sections(of: Self.text, reservedIDs: ["map-heading"]) == rendered.sections)
        // Raw HTML is no word of the text: the tag is dropped, its words (text nodes) stay.
        #expect(!rendered.sections.contains { $0.text.contains("<span>") })
        // Without the option, nothing is collected.
        #expect(Markdown.render(Self.text).sections.isEmpty)
    }

    @Test func aHeadingTakesNoReservedID() {
        let sections = Markdown.sections(of: "## Map heading\n\nx\n", reservedIDs: ["map-heading"])
        #expect(sections.map(\.id) == ["map-heading-2"])
    }

    @Test func quotingIsSafeInsideAScriptElementAndForOldJavaScript() {
        var bytes: [UInt8] = []
        JSONText.appendQuoted("a\"b\\c</script>\n\t\u{1}\u{2028}\u{2029}é東", to: &bytes)
        let quoted = String(decoding: bytes, as: UTF8.self)
        #expect(quoted == "\"a\\\"b\\\\c\\u003c/script>\\n\\t\\u0001\\u2028\\u2029é東\"")
        #expect(JSONText.quoted("x\u{2028}") == "\"x\\u2028\"")
        // A lone E2 at the end, and E2 80 followed by something else, are copied as they are.
        #expect(JSONText.quoted("\u{2020}\u{20AC}") == "\"\u{2020}\u{20AC}\"")
    }

    /// The escape rule, one scalar at a time, as the reference for the quoting's fast path (eight
    /// bytes at a time), with every special character at every offset of those eight.
    @Test func quotingEscapesTheSameAsTheRuleAtEveryOffset() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "<": out += "\\u003c"
                case "\u{2028}": out += "\\u2028"
                case "\u{2029}": out += "\\u2029"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let pieces = ["a", "bcdefgh", "é", "東", "\"", "\\", "<", "\n", "\t", "\u{1}", "\u{1f}", "\u{2028}", "\u{2029}", "\u{20AC}", " ", "~\u{7f}"]
        var random = ServeEquivalenceTests.Random(state: 30)
        for _ in 0..<3_000 {
            let text = (0..<random.next(25)).map { _ in pieces[random.next(pieces.count)] }.joined()
            #expect(JSONText.quoted(text) == reference(text), "\(Array(text.utf8))")
        }
    }

    /// White space made one space, as the reference (split at white space, joined with one
    /// space), for the run copy's fast path (eight bytes at a time), in code, where the text
    /// keeps its own spaces, tabs and line ends.
    @Test func sectionTextsCollapseWhiteSpaceAsTheRuleSays() {
        let pieces = ["w", "word", "longerwordthaneight", " ", "  ", "\t", " \t ", "\u{c}", "\r", "é", "東京", "\u{1}"]
        var random = ServeEquivalenceTests.Random(state: 25)
        for _ in 0..<2_000 {
            let code = (0...random.next(30)).map { _ in pieces[random.next(pieces.count)] }.joined()
            let sections = Markdown.sections(of: "```\n" + code + "\n```\n")
            let words = code.split(whereSeparator: { " \t\n\r\u{c}".contains($0) }).joined(separator: " ")
            #expect(sections.map(\.text) == (words.isEmpty ? [] : [words]), "\(Array(code.utf8))")
        }
    }

    @Test func theBuildWritesTheIndexInTheGuidesOrder() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/07-goerlitzer.md", "---\ntitle: Görlitzer </script> \"Bahnhof\"\n---\n## 出口\n\n東口\n")
        try site.build()
        let root = try site.page("search-index.js")
        #expect(root.hasPrefix("// Written by ltrain build"))
        #expect(root.contains("self.ltrainSearchIndex = {\"join\": \"#\", \"shards\": [\"search/1.js\"], \"checklists\": [\n"))
        #expect(root.contains("[\"c\",\"Check One\",\"checklists/check-one.html\",[\"Who Hash\","))
        let script = try site.page("search/1.js")
        #expect(script.contains("(self.ltrainSearchShards = self.ltrainSearchShards || {})[\"search/1.js\"] = [\n"))
        #expect(!script.contains("</script>"), "the index never closes a script element it is inlined in")
        let lines = script.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(lines.first == "[\"s\",\"Eighth Avenue\",\"stations/eighth-avenue.html\",\"The west end of the line, under 14th Street at Eighth Avenue.\"],")
        #expect(lines.contains { $0.hasPrefix("[\"i\",\"Görlitzer \\u003c/script> \\\"Bahnhof\\\"\",\"info/goerlitzer.html\",[[\"出口\",\"section\",\"東口\"]]]") })
        // The heading's id is the one its page gives it (`section`, as the heading has no Latin letter).
        #expect(try site.page("info/goerlitzer.html").contains("<h2 id=\"section\">出口</h2>"))
        // Stations, then info pages.
        let kinds = lines.map { String($0.prefix(4)) }
        #expect(kinds == Array(repeating: "[\"s\"", count: 7) + Array(repeating: "[\"i\"", count: 7))
        // Every page links the search script; only the index holds the field.
        #expect(try site.page("index.html").contains("data-search-index=\"search-index.js\""))
        #expect(try site.page("stations/union-square.html").contains("<script src=\"../search.js\" defer></script>"))
    }

    @Test func searchFalseWritesNoIndexAndNoPageOffersSearch() throws {
        let site = try TestSite.defaultSite()
        let index = try String(contentsOfFile: site.content + "/index.md", encoding: .utf8)
        try site.write("content/index.md", index.replacingOccurrences(of: "---\n", with: "---\nsearch: false\n", options: [], range: index.range(of: "---\n")))
        try site.build()
        #expect(!FileManager.default.fileExists(atPath: site.output + "/search-index.js"))
        for page in ["index.html", "stations/union-square.html", "info/union-square.html", "checklists/check-one.html"] {
            let html = try site.page(page)
            #expect(!html.contains("search"), "\(page)")
        }
        let offline = try site.page("offline-files.js")
        #expect(!offline.contains("search-index.js") && !offline.contains("search/"))
        #expect(!FileManager.default.fileExists(atPath: site.output + "/search"))
    }

    /// A line whose info texts come to more than 32 kB, so that the index page carries no index
    /// and the shards alone hold the texts.
    static func siteBeyondTheInlineLimit() throws -> TestSite {
        let site = try TestSite.defaultSite()
        let path = "content/stations/01-eighth-avenue.md"
        try site.write(
            path,
            try String(contentsOfFile: site.root + "/" + path, encoding: .utf8) + "\n"
                + String(repeating: "Many long words here. ", count: 1_600) + "\n")
        return site
    }

    /// A preview of `site`'s content and templates.
    static func preview(of site: TestSite) -> PreviewSession {
        var options = ServeOptions()
        options.contentDirectory = site.content
        options.templatesDirectory = site.templates
        return PreviewSession(options: options)
    }

    static func append(_ text: String, to path: String, in site: TestSite) throws {
        try site.write(path, try String(contentsOfFile: site.root + "/" + path, encoding: .utf8) + text)
    }

    @Test func theIndexPageCarriesASmallLinesIndexAndAnEditReachesIt() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        let index = try site.page("index.html")
        let script = try site.page("search-index.js")
        #expect(index.contains("<script>\n// Written by ltrain build: what the search field searches"))
        #expect(index.contains("\"shards\": [], "), "nothing to load")
        #expect(index.contains("\"pages\": [\n[\"s\",\"Eighth Avenue\",\"stations/eighth-avenue.html\""))
        #expect(script.contains("\"shards\": [\"search/1.js\"]"), "the files are written too, for a theme that loads them")
        let path = "content/stations/04-third-avenue.md"
        try Self.append("\nA zebra crossing.\n", to: path, in: site)
        try site.build()
        #expect(try site.page("index.html").contains("A zebra crossing."))

        // In serve too, and the texts are parsed once each, then only the edited one.
        let preview = Self.preview(of: site)
        #expect(preview.rebuild().problems.isEmpty)
        let memory = try #require(preview.partMemory)
        #expect(memory.textsParsed <= 6)
        let parsedAtFirst = memory.textsParsed
        try Self.append("\nAn okapi.\n", to: path, in: site)
        let edit = preview.rebuild(changed: [site.root + "/" + path])
        #expect(edit.renderedPages == 2 && edit.changedFiles == 3, "the info page, the index page and the shard")
        #expect(memory.textsParsed <= parsedAtFirst + 1)
        #expect(String(decoding: preview.servedFiles["index.html"] ?? [], as: UTF8.self).contains("An okapi."))

        // Past the limit, the index page carries none: the theme's script loads the files.
        let long = try Self.siteBeyondTheInlineLimit()
        try long.build()
        #expect(!(try long.page("index.html")).contains("ltrainSearchIndex"))
        #expect(try long.page("search-index.js").contains("self.ltrainSearchIndex = {"))
        // A checklist's rows count too: a long one is not carried on every visit to the index.
        let rows = try TestSite.defaultSite()
        let manyRows = (1...2_000).map { "- Row number \($0) of a very long list" }.joined(separator: "\n")
        try rows.write("content/checklists/many.md", "---\ntitle: Many\n---\n\(manyRows)\n")
        try rows.build()
        #expect(!(try rows.page("index.html")).contains("ltrainSearchIndex"))
        #expect(try rows.page("search-index.js").contains("Row number 2000 of a very long list"))
    }

    @Test func aRebuildKeepsTheIndexAndABodyEditParsesNoOtherText() throws {
        let site = try Self.siteBeyondTheInlineLimit()
        try site.build()
        let again = try site.build()
        #expect(again.written == 0)
        let path = "content/stations/04-third-avenue.md"
        try Self.append("\nA zebra crossing.\n", to: path, in: site)
        try site.build()
        #expect(try site.page("search/1.js").contains("A zebra crossing."))

        // In serve, the edited page is rendered and every other text's sections are remembered.
        let preview = Self.preview(of: site)
        #expect(preview.rebuild().problems.isEmpty)
        let memory = try #require(preview.partMemory)
        let parsedAtFirst = memory.textsParsed
        #expect(parsedAtFirst == 0, "the first version renders every info page, which cuts its sections")
        try Self.append("\nAn okapi.\n", to: path, in: site)
        let edit = preview.rebuild(changed: [site.root + "/" + path])
        #expect(edit.renderedPages == 1 && edit.changedFiles == 2)
        #expect(memory.textsParsed == parsedAtFirst, "no text was parsed for the index alone")
        let served = String(decoding: preview.servedFiles["search/1.js"] ?? [], as: UTF8.self)
        #expect(served.contains("An okapi."))
        // A new station re-routes the site; the memory goes on, so only the new text is parsed
        // (its info page is rendered too, so none at all).
        try site.write("content/stations/07-new.md", "---\ntitle: New\n---\nFresh words.\n")
        let added = preview.rebuild(changed: [site.content + "/stations/07-new.md"])
        #expect(added.problems.isEmpty)
        #expect(preview.partMemory === memory)
        #expect(memory.textsParsed == parsedAtFirst)
        #expect(String(decoding: preview.servedFiles["search/1.js"] ?? [], as: UTF8.self).contains("Fresh words."))
    }

    /// Shards are runs of 40 stations, never more than 250 of them; a change rewrites its own.
    @Test func shardsAreRunsOfStationsAndAnEditRewritesOne() throws {
        #expect(Routes.searchShards(stationCount: 0).isEmpty)
        #expect(Routes.searchShards(stationCount: 6) == [0..<6])
        #expect(Routes.searchShards(stationCount: 81) == [0..<40, 40..<80, 80..<81])
        #expect(Routes.searchShards(stationCount: 10_000).count == 250)
        #expect(Routes.searchShards(stationCount: 10_001).count == 244)
        #expect(Routes.searchShards(stationCount: 100_000).count == 250)
        for count in [10_000, 10_001, 100_000] {
            let shards = Routes.searchShards(stationCount: count)
            #expect(shards.reduce(0) { $0 + $1.count } == count)
            #expect(zip(shards, shards.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }

        let site = try TestSite.defaultSite()
        for number in 7...40 {
            try site.write("content/stations/\(number)-stop-\(number).md", "---\ntitle: Stop \(number)\n---\nWords \(number).\n")
        }
        try site.build()
        #expect(FileSystem.filesBelow(site.output + "/search").sorted() == ["1.js"])
        // The 41st station opens a second shard, which no page links: the pages that show the new
        // stations are rendered (every station page, which shows the count; the new info pages;
        // the index and the 404 page), but no other info page.
        for number in 41...50 {
            try site.write("content/stations/\(number)-stop-\(number).md", "---\ntitle: Stop \(number)\n---\nWords \(number).\n")
        }
        let grown = try site.build()
        #expect(grown.rendered <= 50 + 10 + 2, "\(grown.rendered) pages rendered for ten new stations")
        #expect(FileSystem.filesBelow(site.output + "/search").sorted() == ["1.js", "2.js"])
        let first = try site.page("search/1.js")
        try site.write("content/stations/50-stop-50.md", "---\ntitle: Stop 50\n---\nA heron.\n")
        let edit = try site.build()
        #expect(edit.written == 3, "the info page, its shard and the offline list")
        #expect(try site.page("search/1.js") == first)
        #expect(try site.page("search/2.js").contains("A heron."))
        #expect(try site.page("search-index.js").contains("\"shards\": [\"search/1.js\",\"search/2.js\"]"))
    }

    /// The default site with stations 7 to 60 added, each a heading and a line of its own: a line
    /// of two search shards (40 and 20 stations).
    static func sixtyStations() throws -> TestSite {
        let site = try TestSite.defaultSite()
        for number in 7...60 {
            try site.write("content/stations/\(number)-stop-\(number).md", "---\ntitle: Stop \(number)\n---\n## Words\n\nWords \(number).\n")
        }
        return site
    }

    /// A build writes each shard once its info pages are done and lets go of their sections (it
    /// holds a few shards' texts, not the site's); the shards are the very bytes the preview makes
    /// after every page, keeping every section for its next version.
    @Test func aBuildWritesEachShardOnceItsPagesAreDoneAndKeepsNoText() throws {
        let site = try Self.sixtyStations()
        try site.build()
        let preview = Self.preview(of: site)
        #expect(preview.rebuild().problems.isEmpty)
        for path in ["search-index.js", "search/1.js", "search/2.js"] {
            #expect(try site.page(path) == String(decoding: preview.servedFiles[path] ?? [], as: UTF8.self), "\(path)")
        }

        let prepared = try PreparedSite.prepare(content: site.content, templates: site.templates)
        var clock = PhaseClock(enabled: false)
        let output = MemorySite()
        _ = try SiteBuild.render(prepared, into: output, jobs: 2, keepsSearchSections: false, clock: &clock)
        _ = output.commit()
        for path in ["search-index.js", "search/1.js", "search/2.js"] {
            #expect(output.file(at: path)?.bytes == preview.servedFiles[path], "\(path)")
        }
        // A build keeps no section (each went from its page's render to its shard); the preview
        // keeps every one for its next version.
        #expect(prepared.renderer.parts == nil)
        let stations = prepared.site.line.stations
        let kept = try #require(preview.partMemory)
        #expect(stations.allSatisfy { kept.keptSections(of: $0.info.body) != nil })
    }

    @Test func eachShardIsMadeFromTheSectionsItsPagesRenderHandedIn() throws {
        let site = try Self.sixtyStations()
        let prepared = try PreparedSite.prepare(content: site.content, templates: site.templates)
        let renderer = prepared.renderer
        let output = MemorySite()
        let pages = renderer.pages
        let writer = try #require(
            SearchShardWriter(renderer: renderer, files: renderer.searchFiles(), pages: pages, output: output))
        let firstShard = Set(renderer.site.line.stations[0..<40].map { Page.info(slug: $0.slug) })
        var handedIn = 0
        for (index, page) in pages.enumerated() where firstShard.contains(page) {
            #expect(writer.done.isEmpty, "written before its last page is done")
            let sections = [MarkdownSection(heading: "Handed", id: "handed", text: "handed in \(handedIn)")]
            // The last page is kept from an earlier build: its text is parsed.
            try writer.pageDone(index, sections: handedIn == 39 ? nil : sections, renderer: renderer, into: output)
            handedIn += 1
        }
        _ = output.commit()
        let shard = String(decoding: try #require(output.file(at: "search/1.js")).bytes, as: UTF8.self)
        #expect(shard.contains("\"handed in 0\"") && shard.contains("\"handed in 38\""))
        #expect(!shard.contains("\"handed in 39\"") && shard.contains("\"Words 40.\""), "\(shard)")
        #expect(output.file(at: "search/2.js") == nil)
        #expect(writer.done == ["search/1.js"])
    }

    /// The info pages come in line order in a build, and each is placed by its position; in any
    /// other order each is still placed by its slug, at its station's place in its shard.
    @Test func eachInfoPageIsPlacedAtItsStationsPlaceInAnyOrder() throws {
        let site = try Self.sixtyStations()
        let prepared = try PreparedSite.prepare(content: site.content, templates: site.templates)
        let renderer = prepared.renderer
        let stations = renderer.site.line.stations
        let inLineOrder = renderer.pages
        let swapped = inLineOrder.enumerated().map { index, page in
            // The info pages of the second and third stations trade places: the rest stay in order.
            if page == .info(slug: stations[1].slug) { return Page.info(slug: stations[2].slug) }
            if page == .info(slug: stations[2].slug) { return Page.info(slug: stations[1].slug) }
            return inLineOrder[index]
        }
        for pages in [inLineOrder, Array(inLineOrder.reversed()), swapped] {
            let output = MemorySite()
            let writer = try #require(
                SearchShardWriter(renderer: renderer, files: renderer.searchFiles(), pages: pages, output: output))
            for (index, page) in pages.enumerated() {
                guard case .info(let slug) = page else { continue }
                let sections = [MarkdownSection(heading: "Handed", id: "handed", text: "text of \(slug)")]
                try writer.pageDone(index, sections: sections, renderer: renderer, into: output)
            }
            _ = output.commit()
            #expect(writer.done == ["search/1.js", "search/2.js"])
            let shards = try ["search/1.js", "search/2.js"].map {
                String(decoding: try #require(output.file(at: $0)).bytes, as: UTF8.self)
            }
            // Each station's text in its shard, in line order.
            for (shard, range) in [(0, 0..<40), (1, 40..<stations.count)] {
                let places = range.map { shards[shard].range(of: "\"text of \(stations[$0].slug)\"")?.lowerBound }
                #expect(places.allSatisfy { $0 != nil }, "every station of shard \(shard + 1)")
                let found = places.compactMap { $0 }
                #expect(zip(found, found.dropFirst()).allSatisfy { $0 < $1 }, "in line order in shard \(shard + 1)")
            }
        }
    }

    @Test func theSearchLabelsTakeTheirPlaceholder() throws {
        let labels = Labels.all.map(\.key)
        for key in ["search", "no_results", "one_result", "result_count"] { #expect(labels.contains(key)) }
        #expect(Labels.placeholdersByLabel["result_count"] == ["count"])
    }
}
