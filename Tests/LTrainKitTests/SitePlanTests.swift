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

/// `SitePlan`: the pages a change reaches, from the last and the next version of the default site.
@Suite struct SitePlanTests {
    static let slugs = ["eighth-avenue", "sixth-avenue", "union-square", "third-avenue", "first-avenue", "bedford-avenue"]

    static func prepared(_ site: TestSite) throws -> PreparedSite {
        try PreparedSite.prepare(content: site.content, templates: site.templates)
    }

    /// The plan from the site as it is to the site after `edit`; links are those the pages were
    /// last rendered with (the default site's two Markdown links).
    static func plan(before: (TestSite) throws -> Void = { _ in }, _ edit: (TestSite) throws -> Void) throws -> SitePlan {
        let site = try TestSite.defaultSite()
        try before(site)
        let last = try prepared(site)
        try edit(site)
        let next = try prepared(site)
        let links = [
            "info/eighth-avenue.html": ["02-sixth-avenue.md"], "info/bedford-avenue.html": ["05-first-avenue.md"],
        ]
        return SitePlan.between(last, next, alwaysChecked: [], filesChanged: false, previousLinks: { links[$0] ?? [] })
    }

    static func append(_ text: String, to relative: String, in site: TestSite) throws {
        try site.write(relative, try String(contentsOfFile: site.root + "/" + relative, encoding: .utf8) + text)
    }

    @Test func nothingChangedPlansNothing() throws {
        #expect(try Self.plan { _ in } == SitePlan(scope: .pages([])))
    }

    @Test func aTemplateReachesThePagesItRendersThroughPartialsAndLayouts() throws {
        let station = try Self.plan { try Self.append("<!-- edit -->\n", to: "templates/station.mustache", in: $0) }
        #expect(station == SitePlan(scope: .pages(Set(Self.slugs.map { .station(slug: $0) }))))
        let info = try Self.plan { try Self.append("<!-- edit -->\n", to: "templates/info.mustache", in: $0) }
        #expect(info == SitePlan(scope: .pages(Set(Self.slugs.map { .info(slug: $0) }))))
        // The back chevron is a partial of the station and info templates alone.
        let chevron = try Self.plan { try Self.append("<!-- edit -->\n", to: "templates/back-chevron.mustache", in: $0) }
        guard case .pages(let pages) = chevron.scope else {
            Issue.record("a partial's edit planned every page")
            return
        }
        #expect(!pages.contains(.index) && pages.contains(.station(slug: "union-square")))
        // The layout is every page's.
        let layout = try Self.plan { try Self.append("<!-- edit -->\n", to: "templates/layout.mustache", in: $0) }
        guard case .pages(let all) = layout.scope else {
            Issue.record("a layout edit planned every page by key instead of by template")
            return
        }
        #expect(all.count == 1 + Self.slugs.count * 2 + 1 + 1, "index, stations, info pages, one checklist, 404")
    }

    /// The index page carries the search index while the line's texts come to at most 32 kB:
    /// then a body or a checklist reaches it; past that, and when a text crosses the limit
    /// either way (the index page loses or gains the index), only the first does not.
    @Test func aTextReachesTheIndexPageWhileItCarriesTheSearchIndex() throws {
        let longText = "\n" + String(repeating: "Many long words here. ", count: 1_600) + "\n"
        let lengthen = { (site: TestSite) in try Self.append(longText, to: "content/stations/01-eighth-avenue.md", in: site) }
        let body = { (site: TestSite) in try Self.append("\nMore.\n", to: "content/stations/03-union-square.md", in: site) }
        #expect(try Self.plan(before: lengthen, body) == SitePlan(scope: .pages([.info(slug: "union-square")])))
        #expect(
            try Self.plan(lengthen)
                == SitePlan(scope: .pages([.info(slug: "eighth-avenue"), .index])), "the index page lost the index")
        let checklist = try Self.plan { site in
            let path = site.content + "/checklists/check-one.md"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let row = try #require(lines.lastIndex(where: { $0.hasPrefix("- ") }))
            var edited = lines
            edited[row] += " (edited)"
            try site.write("content/checklists/check-one.md", edited.joined(separator: "\n"))
        }
        #expect(checklist == SitePlan(scope: .pages([.checklist(slug: "check-one"), .index])))
    }

    @Test func aBodyReachesItsInfoPageAndASummaryThePagesThatShowIt() throws {
        let body = try Self.plan { try Self.append("\nMore.\n", to: "content/stations/03-union-square.md", in: $0) }
        // The index page carries this small line's search index, which holds the text.
        #expect(body == SitePlan(scope: .pages([.info(slug: "union-square"), .index])))
        let summary = try Self.plan { site in
            let path = site.content + "/stations/03-union-square.md"
            try site.write(
                "content/stations/03-union-square.md",
                try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "summary: The busiest", with: "summary: The"))
        }
        #expect(
            summary
                == SitePlan(
                    scope: .pages([
                        .station(slug: "union-square"), .info(slug: "union-square"), .station(slug: "sixth-avenue"),
                        .station(slug: "third-avenue"), .index, .notFound,
                    ])))
    }

    @Test func aNewStationReachesEveryStationPageButNoOtherInfoPage() throws {
        let plan = try Self.plan { try $0.write("content/stations/03.5-new-stop.md", "---\ntitle: New Stop\n---\nHello.\n") }
        #expect(plan.pagesAddedOrRemoved)
        let expected = Set(Self.slugs.map { Page.station(slug: $0) } + [.station(slug: "new-stop"), .info(slug: "new-stop"), .index, .notFound])
        #expect(plan == SitePlan(scope: .pages(expected), pagesAddedOrRemoved: true))
    }

    @Test func aDeletedStationReachesThePagesThatLinkToItsFile() throws {
        let plan = try Self.plan { try $0.remove("content/stations/02-sixth-avenue.md") }
        guard case .pages(let pages) = plan.scope else {
            Issue.record("a deletion planned every page")
            return
        }
        #expect(plan.pagesAddedOrRemoved)
        #expect(pages.contains(.info(slug: "eighth-avenue")), "its page links to the deleted file")
        #expect(!pages.contains(.info(slug: "bedford-avenue")) && !pages.contains(.info(slug: "union-square")))
        #expect(!pages.contains(.station(slug: "sixth-avenue")), "a page the site no longer has")
    }

    @Test func whatEveryPageSharesReachesEveryPage() throws {
        let title = try Self.plan { site in
            let path = site.content + "/index.md"
            try site.write("content/index.md", try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "title: L Train", with: "title: The L"))
        }
        #expect(title == .everyPage)
        let labels = try Self.plan { site in
            let path = site.content + "/index.md"
            try site.write("content/index.md", try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "---\ntitle:", with: "---\nlabels:\n  done: Close\ntitle:"))
        }
        #expect(labels == .everyPage)
        let asset = try Self.plan { try $0.write("content/assets/map.txt", "a map\n") }
        #expect(asset == .everyPage, "a new file is in every page's files")
    }
}

/// Whole changes told as an author makes them (`SiteTest`): what a page reads is declared once
/// (`PageRenderer.inputs(for:at:)`, `Station.showsTheSame(as:)`), and the build, serve after an
/// edit and the template-name check all follow it.
@Suite struct DeclaredOnceTests {
    @Test func aSummaryEditedWhileServingReachesEveryPageThatShowsIt() throws {
        try SiteTest.defaultSite()
            .serve()
            .editing("content/stations/03-union-square.md") {
                $0.replacingOccurrences(of: "summary: The busiest transfer on the line", with: "summary: Change for the 4, 5 and 6")
            }
            .served("index.html", contains: "Change for the 4, 5 and 6, beneath the Greenmarket.")
            .served("stations/union-square.html", contains: "<p class=\"summary\">Change for the 4, 5 and 6")
            .servedAsBuilt()
            .build()
            .page("index.html", contains: "Change for the 4, 5 and 6, beneath the Greenmarket.")
            .noWarnings()
    }

    @Test func aTemplateMayNameWhatItsPagesAreGivenAndNothingElse() throws {
        try SiteTest.defaultSite()
            .editing("templates/info.mustache") { $0 + "<p hidden>{{title}} {{done_href}}</p>\n" }
            .build()
            .noWarnings()
            .editing("templates/info.mustache") { $0 + "<p hidden>{{summary}}</p>\n" }
            .build()
            .warned("info.mustache:")
            .warned("no page has a value named 'summary'")
            .serve()
            .warned("no page has a value named 'summary'")
            .servedAsBuilt()
    }
}
