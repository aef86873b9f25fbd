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

@Suite struct RouteTests {
    func routes() throws -> Routes {
        let content = LoadedContent(
            index: try contentFile("index.md", "---\ntitle: T\n---\n"),
            stations: [try station("01-a.md", title: "A"), try station("02-b.md", title: "B")],
            checklists: [try contentFile("checklists/pick.md", "---\ntitle: Pick\n---\n- x\n")],
            assets: [AssetFile(outputPath: "assets/map.png", sourcePath: "/nonexistent/route-only", displayPath: "content/assets/map.png")])
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
            staticFiles: [AssetFile(outputPath: "stations/a.html", sourcePath: "/nonexistent/route-only", displayPath: "templates/stations/a.html")],
            log: &log)
        #expect(
            log.errors.map(\.message) == [
                "templates/stations/a.html and content/stations/01-a.md would both be written to stations/a.html"
            ])
    }
}

@Suite struct FolderClashTests {
    func errors(staticFiles: [String]) throws -> [String] {
        var log = DiagnosticLog()
        let content = LoadedContent(
            index: try contentFile("index.md", "---\ntitle: T\n---\n"), stations: [try station("01-a.md", title: "A")])
        let site = try #require(SiteBuilder.build(content, log: &log))
        _ = Routes(
            site: site,
            staticFiles: staticFiles.map { AssetFile(outputPath: $0, sourcePath: "/nonexistent/route-only", displayPath: "templates/\($0)") },
            log: &log)
        return log.errors.map { "\($0.path ?? ""): \($0.message)" }
    }

    @Test func aStaticFolderNamedLikeAPageIsAnErrorAtThePage() throws {
        let errors = try errors(staticFiles: ["stations/a.html/extra.txt"])
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/stations/01-a.md: is written as the file stations/a.html") == true)
        #expect(errors.first?.contains("templates/stations/a.html/extra.txt needs a folder of that name") == true)
    }

    @Test func aStaticFileNamedLikeAFolderOfPagesIsAnErrorAtTheFile() throws {
        let errors = try errors(staticFiles: ["stations"])
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("templates/stations: is written as the file stations, but ") == true)
    }

    @Test func filesBesideEachOtherAreNoClash() throws {
        #expect(try errors(staticFiles: ["stations/a.html.txt", "stations-list", "extra/a.html"]).isEmpty)
    }
}
