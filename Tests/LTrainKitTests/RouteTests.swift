import Testing

@testable import LTrainKit
@testable import LTrainMarkdown
@testable import LTrainMustache
@testable import LTrainServe
@testable import LTrainSupport

@Suite struct RouteTests {
    @Test func relativePathsBetweenAnyTwoDepths() {
        #expect(SitePath.relativePath(from: "index.html", to: "style.css") == "style.css")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "style.css") == "../style.css")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "stations/b.html") == "b.html")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "info/a.html") == "../info/a.html")
        #expect(SitePath.relativePath(from: "index.html", to: "stations/a.html") == "stations/a.html")
        #expect(SitePath.relativePath(from: "a/b/c.html", to: "a/d/e.html") == "../d/e.html")
        #expect(SitePath.relativePath(from: "a/b/c.html", to: "x.html") == "../../x.html")
        #expect(SitePath.relativePath(from: "x.html", to: "a/b/c.html") == "a/b/c.html")
        #expect(SitePath.relativePath(from: "assets/a b.html", to: "assets/café.png") == "caf%C3%A9.png")
    }

    @Test func percentEncodingKeepsUnreservedBytesAndEscapesTheRest() {
        #expect(SitePath.percentEncoded("stop-1_a.b~c") == "stop-1_a.b~c")
        #expect(SitePath.percentEncoded("") == "")
        #expect(SitePath.percentEncoded("café au lait/é%,") == "caf%C3%A9%20au%20lait%2F%C3%A9%25%2C")
        for text in ["", "plain", "a b", "ü/%#?,", "100% sure"] {
            #expect(SitePath.percentDecoded(SitePath.percentEncoded(text)) == text)
        }
    }

    @Test func resolveIsTheInverseOfRelativePath() {
        let paths = ["index.html", "stations/a.html", "info/b.html", "a/b/c.html", "style.css", "assets/x/y.png"]
        for source in paths {
            for target in paths {
                let link = SitePath.relativePath(from: source, to: target)
                #expect(SitePath.resolve(link, against: source) == target, "\(source) → \(target) via \(link)")
            }
        }
        #expect(SitePath.resolve("../../x", against: "a.html") == nil)
        #expect(SitePath.resolve("../../x", against: "stations/a.html") == nil)
        #expect(SitePath.resolve("../x/../y.html", against: "stations/a.html") == "y.html")
        #expect(SitePath.resolve("./b.html", against: "stations/a.html") == "stations/b.html")
        #expect(SitePath.resolve("../info//b.html", against: "stations/a.html") == "info/b.html")
        #expect(SitePath.resolve("../...", against: "stations/a.html") == "...")
        #expect(SitePath.resolve("../../x.html", against: "a/b/c.html") == "x.html")
        #expect(SitePath.resolve("../x/y.html", against: "a/b/c.html") == "a/x/y.html")
        #expect(SitePath.resolve("../../../x.html", against: "a/b/c.html") == nil)
        #expect(SitePath.resolve("../é/ü.html", against: "ä/b.html") == "é/ü.html")
    }

    func routes() throws -> Routes {
        let content = LoadedContent(
            index: try contentFile("index.md", "---\ntitle: T\n---\n"),
            stations: [try station("01-a.md", title: "A"), try station("02-b.md", title: "B")],
            checklists: [try contentFile("checklists/pick.md", "---\ntitle: Pick\n---\n- x\n")],
            assets: [AssetFile(outputPath: "assets/map.png", sourcePath: "/dev/null", displayPath: "content/assets/map.png")])
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        return Routes(site: site, staticFiles: [], log: &log)
    }

    @Test func everyPageHasOneOutputPath() throws {
        let routes = try routes()
        #expect(routes.path(of: .index) == "index.html")
        #expect(routes.path(of: .station(slug: "a")) == "stations/a.html")
        #expect(routes.path(of: .info(slug: "a")) == "info/a.html")
        #expect(routes.path(of: .checklist(slug: "pick")) == "checklists/pick.html")
        #expect(routes.link(from: .info(slug: "a"), to: .station(slug: "a")) == "../stations/a.html")
        #expect(routes.link(from: .station(slug: "a"), to: .station(slug: "b")) == "b.html")
    }

    @Test func markdownLinksToContentFilesAreRewritten() throws {
        let routes = try routes()
        let info = Page.info(slug: "a")
        #expect(routes.rewriteContentLink("02-b.md", writtenIn: "stations/01-a.md", on: info) == "../stations/b.html")
        #expect(routes.rewriteContentLink("02-b.md#history", writtenIn: "stations/01-a.md", on: info) == "b.html#history")
        #expect(routes.rewriteContentLink("../index.md", writtenIn: "stations/01-a.md", on: info) == "../index.html")
        #expect(routes.rewriteContentLink("../assets/map.png", writtenIn: "stations/01-a.md", on: info) == "../assets/map.png")
        #expect(routes.rewriteContentLink("checklists/pick.md", writtenIn: "index.md", on: .index) == "checklists/pick.html")
        #expect(routes.rewriteContentLink("https://example.org/a.md", writtenIn: "index.md", on: .index) == nil)
        #expect(routes.rewriteContentLink("09-missing.md", writtenIn: "stations/01-a.md", on: info) == nil)
        #expect(routes.rewriteContentLink("#top", writtenIn: "index.md", on: .index) == nil)
    }

    @Test func twoThingsClaimingOnePathIsAnError() throws {
        var log = DiagnosticLog()
        let content = LoadedContent(
            index: try contentFile("index.md", "---\ntitle: T\n---\n"), stations: [try station("01-a.md", title: "A")])
        let site = try #require(SiteBuilder.build(content, log: &log))
        _ = Routes(
            site: site,
            staticFiles: [AssetFile(outputPath: "stations/a.html", sourcePath: "/dev/null", displayPath: "templates/stations/a.html")],
            log: &log)
        #expect(
            log.errors.map(\.message) == [
                "templates/stations/a.html and content/stations/01-a.md would both be written to stations/a.html"
            ])
    }
}
