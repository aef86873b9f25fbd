import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainLoad
@testable import LTrainModel
@testable import LTrainRoute
@testable import LTrainRender
@testable import LTrainCheck
@testable import LTrainWrite
@testable import LTrainScaffold
@testable import LTrainTemplates
@testable import LTrainPNG
@testable import LTrainMarkdown
@testable import LTrainMustache
@testable import LTrainServe
@testable import LTrainSupport

/// A page's cache key is the hash of the very inputs its context is built from: whatever a page
/// is made of, changing it changes the key (so the page is rendered again) and the page.
@Suite struct PageInputsTests {
    static func prepared(_ site: TestSite) throws -> PreparedSite {
        try PreparedSite.prepare(content: site.content, templates: site.templates)
    }

    /// Values templates are given (see the README) that the default templates do not show
    /// (`has_checklists` as a string is as true as `true`).
    /// (`position_label` shows a station's position and count, as the `position` label words them.)
    static let notShownByTheDefaultTemplates: Set = [
        "index.station_count", "index.has_checklists", "station.position", "station.station_count",
        "checklist.chooses_many",
    ]

    /// A value's hash is its text's, whether the text is held as a String or as UTF-8 bytes; any
    /// other text, held either way, hashes otherwise.
    @Test func textHashesTheSameHeldAsAStringOrAsBytes() {
        for text in ["", "a", "<p>Café 日本語 🚇</p>"] {
            #expect(PageInputs.hash(of: .utf8(Array(text.utf8))) == PageInputs.hash(of: .string(text)))
            #expect(PageInputs.hash(of: .utf8(Array((text + "x").utf8))) != PageInputs.hash(of: .string(text)))
        }
        #expect(PageInputs.hash(of: .utf8([])) != PageInputs.hash(of: .null))
    }

    @Test func changingAnyValueOfAnyPageChangesItsKeyAndItsPage() throws {
        let site = try TestSite.defaultSite()
        let renderer = try Self.prepared(site).renderer
        var checked = 0
        for page in renderer.pages {
            let inputs = renderer.inputs(for: page, at: renderer.routes.path(of: page))
            let key = renderer.key(of: inputs, links: nil)
            let html = try renderer.render(inputs).bytes
            var names: [String] = []
            inputs.values.forEachField { name, _ in names.append(name) }
            #expect(!names.isEmpty)
            for name in names {
                var changed = inputs
                changed.values[name] = .string("«changed \(name)»")
                #expect(renderer.key(of: changed, links: nil) != key, "\(page): \(name) is not in the key")
                // canonical_url is empty without a base URL: nothing to change in the page.
                if inputs.values[name] == .null { continue }
                let shown = try renderer.render(changed).bytes != html
                if Self.notShownByTheDefaultTemplates.contains("\(inputs.template).\(name)") {
                    #expect(!shown, "\(page): \(name) is shown now; take it off the list")
                } else {
                    #expect(shown, "\(page): \(name) does not reach the page")
                    checked += 1
                }
            }
            for (index, markdown) in inputs.markdown.enumerated() {
                var changed = inputs
                switch markdown {
                case .body(let field, var source):
                    source.text += "\n\nA changed paragraph.\n"
                    changed.markdown[index] = .body(field: field, source)
                case .checklist(var source):
                    source.text = "Changed intro.\n\n" + source.text
                    changed.markdown[index] = .checklist(source)
                }
                #expect(renderer.key(of: changed, links: nil) != key, "\(page): its Markdown is not in the key")
                #expect(try renderer.render(changed).bytes != html)
            }
        }
        #expect(checked > 50)
    }

    /// `ltrain serve`'s renderer keeps the index page's rows and their bytes from one version to
    /// the next (`PageRenderer.keepingParts`): its keys and pages are those of a renderer that
    /// keeps nothing, before and after a title edit, and the edit renders one row and one stop.
    @Test func theIndexKeptFromTheLastVersionHasTheKeyAndBytesOfOneMadeAfresh() throws {
        let site = try TestSite.defaultSite()
        let plain = try Self.prepared(site).renderer
        let remembering = plain.keepingParts(after: nil, keepsRenders: true)
        let count = plain.site.line.stations.count
        let first = try remembering.render(.index).bytes
        #expect(first == (try plain.render(.index).bytes))
        #expect(remembering.inputKey(for: .index) == plain.inputKey(for: .index))
        #expect(remembering.parts?.itemsReused == 0)

        var edited = plain.site
        edited.line.stations[2].title = "Renamed Stop"
        let next = remembering.replacingStations(with: edited).keepingParts(after: remembering, keepsRenders: true)
        let fresh = plain.replacingStations(with: edited)
        #expect(next.inputKey(for: .index) == fresh.inputKey(for: .index))
        #expect(next.inputKey(for: .index) != remembering.inputKey(for: .index))
        let second = try next.render(.index).bytes
        #expect(second == (try fresh.render(.index).bytes))
        #expect(String(decoding: second, as: UTF8.self).contains("Renamed Stop"))
        // Every row of the list and every stop of the map but the renamed station's was copied.
        #expect(next.parts?.itemsReused == 2 * (count - 1))
    }

    @Test func aTemplateIsInTheKeysOfThePagesThatCanIncludeItAndNoOthers() throws {
        let site = try TestSite.defaultSite()
        let before = try Self.prepared(site).renderer
        #expect(!before.pages.isEmpty)
        func keys(_ renderer: PageRenderer) -> [Page: ContentHash] {
            Dictionary(uniqueKeysWithValues: renderer.pages.map { ($0, renderer.inputKey(for: $0)) })
        }
        let original = keys(before)
        try site.write("templates/info.mustache", try String(contentsOfFile: site.templates + "/info.mustache", encoding: .utf8) + "<!-- -->\n")
        let afterInfo = keys(try Self.prepared(site).renderer)
        for (page, key) in original {
            if case .info = page { #expect(afterInfo[page] != key) } else { #expect(afterInfo[page] == key, "\(page)") }
        }
        // The back chevron is a partial of the station and checklist templates only.
        try site.write("templates/back-chevron.mustache", try String(contentsOfFile: site.templates + "/back-chevron.mustache", encoding: .utf8) + " ")
        let afterChevron = keys(try Self.prepared(site).renderer)
        for (page, key) in afterInfo {
            switch page {
            case .station, .checklist: #expect(afterChevron[page] != key, "\(page)")
            default: #expect(afterChevron[page] == key, "\(page)")
            }
        }
        // A template named by a value could be any template: every one is in the key.
        try site.write("templates/info.mustache", "{{<layout}}{{$content}}{{>*partial_name}}{{/content}}{{/layout}}\n")
        let dynamic = try Self.prepared(site).renderer
        try site.write("templates/unused.mustache", "anything")
        let dynamicAfter = try Self.prepared(site).renderer
        #expect(dynamic.inputKey(for: .info(slug: "union-square")) != dynamicAfter.inputKey(for: .info(slug: "union-square")))
        #expect(dynamic.inputKey(for: .station(slug: "union-square")) == dynamicAfter.inputKey(for: .station(slug: "union-square")))
    }

    @Test func whereContentLinksLeadIsInTheKeyOfEveryPageWithMarkdown() throws {
        let site = try TestSite.defaultSite()
        let before = try Self.prepared(site).renderer
        // Eighth Avenue's text links to Sixth Avenue; Union Square's links to no content file.
        let eighth = try before.render(.info(slug: "eighth-avenue"))
        let eighthLinks = PageRenderer.contentLinks(of: eighth)
        #expect(eighthLinks == ["02-sixth-avenue.md"])
        let unionLinks = PageRenderer.contentLinks(of: try before.render(.info(slug: "union-square")))
        #expect(unionLinks.isEmpty)
        func keys(_ renderer: PageRenderer) -> (eighth: ContentHash, union: ContentHash, unknown: ContentHash) {
            (
                renderer.inputKey(for: .info(slug: "eighth-avenue"), links: eighthLinks),
                renderer.inputKey(for: .info(slug: "union-square"), links: unionLinks),
                renderer.inputKey(for: .info(slug: "union-square"), links: nil)
            )
        }
        let original = keys(before)
        // A new station moves none of their links: with their links known, their keys stay; without
        // them, any new page could be one their text links to.
        try site.write("content/stations/07-new.md", "---\ntitle: New\n---\nNew.\n")
        let added = keys(try Self.prepared(site).renderer)
        #expect(added.eighth == original.eighth && added.union == original.union)
        #expect(added.unknown != original.unknown)
        // Sixth Avenue's page moves (a slug of its own): the page that links to it changes, the other not.
        let sixth = site.content + "/stations/02-sixth-avenue.md"
        try site.write("content/stations/02-sixth-avenue.md", try String(contentsOfFile: sixth, encoding: .utf8).replacingOccurrences(of: "title: Sixth Avenue", with: "title: Sixth Avenue\nslug: sixth"))
        let moved = keys(try Self.prepared(site).renderer)
        #expect(moved.eighth != added.eighth)
        #expect(moved.union == added.union)
        #expect(try Self.prepared(site).renderer.render(.info(slug: "eighth-avenue")).bytes != eighth.bytes)
    }

    /// A page's key after rendering is taken from where the render sent each link; it must be the
    /// key the next build works out from the written links alone, or no page would ever be kept.
    @Test func theKeyFromARenderIsTheKeyFromItsWrittenLinks() throws {
        let site = try TestSite.defaultSite()
        // Links of every kind a rewriter tells apart: to a station's text, to a heading of it, to
        // the index, to no content file, to a file, to nowhere on the site, and absolute.
        try site.write(
            "content/stations/07-links.md",
            """
            ---
            title: Links
            ---
            See [Sixth](02-sixth-avenue.md), [its history](02-sixth-avenue.md#history), [home](../index.md),
            [gone](99-gone.md), [a file](../static/map.pdf), [up](../../x.html), [here](#links),
            [there](https://example.org/a), and ![a map](../assets/map.png).

            - [ ] [a task](03-union-square.md)
            """)
        try site.write("content/checklists/pack.md", "---\ntitle: Pack\n---\n- [Sixth](../stations/02-sixth-avenue.md)\n- Water\n")
        let renderer = try Self.prepared(site).renderer
        var compared = 0
        for page in renderer.pages {
            let inputs = renderer.inputs(for: page, at: renderer.routes.path(of: page))
            guard !inputs.markdown.isEmpty else { continue }
            let rendered = try renderer.render(inputs)
            let links = PageRenderer.contentLinks(of: rendered)
            #expect(renderer.key(of: inputs, rendered: rendered) == renderer.key(of: inputs, links: links), "\(page)")
            if !links.isEmpty { compared += 1 }
        }
        #expect(compared >= 4, "pages with content links compared: \(compared)")
        // Where a link leads is in both: a render on other routes gives another key.
        try site.write(
            "content/stations/02-sixth-avenue.md",
            try String(contentsOfFile: site.content + "/stations/02-sixth-avenue.md", encoding: .utf8)
                .replacingOccurrences(of: "title: Sixth Avenue", with: "title: Sixth Avenue\nslug: sixth"))
        let moved = try Self.prepared(site).renderer
        let page = Page.info(slug: "links")
        let before = try renderer.render(renderer.inputs(for: page, at: renderer.routes.path(of: page)))
        let inputs = moved.inputs(for: page, at: moved.routes.path(of: page))
        let after = try moved.render(inputs)
        #expect(moved.key(of: inputs, rendered: after) == moved.key(of: inputs, links: PageRenderer.contentLinks(of: before)))
        #expect(moved.key(of: inputs, rendered: after) != renderer.key(of: renderer.inputs(for: page, at: renderer.routes.path(of: page)), rendered: before))
    }

    @Test func aNewStationRendersNoInfoPageAndTheManifestKeepsTheLinks() throws {
        let site = try TestSite.defaultSite()
        #expect(try site.build().rendered == 15)
        let manifest = try #require(Manifest(text: try site.page(Manifest.fileName)))
        #expect(manifest.entries["info/eighth-avenue.html"]?.links == ["02-sixth-avenue.md"])
        #expect(manifest.entries["info/bedford-avenue.html"]?.links == ["05-first-avenue.md", "../index.md"])
        try site.write("content/stations/07-new.md", "---\ntitle: New\n---\nNew.\n")
        // Every station page changes ("Stop N of 7"), and the index lists the line; the new station
        // has its info page. No other info page links to it, so none is rendered.
        let report = try site.build()
        #expect(report.rendered == 7 + 1 + 1, "seven station pages, the new info page and the index")
    }
}
