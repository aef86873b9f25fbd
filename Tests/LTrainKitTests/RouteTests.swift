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
        // The folders the pages are in, worked out once a kind: those of every page's path.
        #expect(routes.pageFolders == ["", "stations/", "info/", "checklists/"])
        #expect(routes.pageFolders == Set(routes.pagePaths.values.map(SitePath.folder(of:))))
        // By position, in line order, the same paths.
        #expect(routes.stationPagePaths == ["a", "b"].map { routes.path(of: .station(slug: $0)) })
        #expect(routes.infoPagePaths == ["a", "b"].map { routes.path(of: .info(slug: $0)) })
        // Every page in the one order, and its path by position.
        #expect(
            routes.everyPage == [
                .index, .station(slug: "a"), .info(slug: "a"), .station(slug: "b"), .info(slug: "b"),
                .checklist(slug: "pick"),
            ])
        #expect(routes.everyPagePath == routes.everyPage.map { routes.path(of: $0) })
        #expect(routes.everyPagePath == ["index.html", "stations/a.html", "info/a.html", "stations/b.html", "info/b.html", "checklists/pick.html"])
        var log = DiagnosticLog()
        let withNotFound = Routes(site: try #require(SiteBuilder.build(
            LoadedContent(index: try contentFile("index.md", "---\ntitle: T\n---\n"), stations: [try station("01-a.md", title: "A")]),
            log: &log)), staticFiles: [], hasNotFoundPage: true, log: &log)
        #expect(withNotFound.everyPage == [.index, .station(slug: "a"), .info(slug: "a"), .notFound])
        #expect(withNotFound.everyPagePath.last == "404.html")
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
        // The fragment is cut at its '#' byte, after text of any script.
        #expect(routes.rewriteContentLink("02-b.md#gesch%C3%BCtzt-été", writtenIn: "stations/01-a.md", on: info) == "b.html#gesch%C3%BCtzt-été")
        #expect(routes.rewriteContentLink("été.md#x", writtenIn: "stations/01-a.md", on: info) == nil)
        #expect(Routes.splitFragment("été/ü.md#à#b") == ("été/ü.md", "#à#b"))
        #expect(Routes.splitFragment("no-fragment.md") == ("no-fragment.md", ""))
        #expect(Routes.splitFragment("#only") == ("", "#only"))
        // One rewriter for a text on a page answers as rewriteContentLink does, link by link.
        let rewrite = routes.contentLinkRewriter(writtenIn: "stations/01-a.md", on: info)
        for link in ["02-b.md", "02-b.md#history", "../index.md", "../assets/map.png", "09-missing.md", "#top", "https://x.org"] {
            #expect(rewrite(link) == routes.rewriteContentLink(link, writtenIn: "stations/01-a.md", on: info), "\(link)")
        }
    }

    /// A link that still names a `.md` file after rewriting names a content file that is not there;
    /// one from the root, with a scheme, or to another kind of file does not.
    @Test func aLinkLeftNamingAMarkdownFileNamesAMissingContentFile() throws {
        let source = MarkdownSource(text: "", displayPath: "content/stations/01-a.md", contentPath: "stations/01-a.md", lineOffset: 4)
        func missing(_ destination: String) -> String? {
            let link = MarkdownLink(destination: destination, writtenDestination: destination, line: 2, column: 3, isImage: false)
            return SourceLink(link, in: source).missingContentFile
        }
        #expect(missing("09-nowhere.md") == "stations/09-nowhere.md")
        #expect(missing("09-nowhere.md#history") == "stations/09-nowhere.md")
        #expect(missing("../über/ça.md#été") == "über/ça.md")
        #expect(missing("../../outside.md") == "../../outside.md")
        #expect(missing(".md") == "stations/.md")
        for other in ["/09-nowhere.md", "https://example.org/a.md", "mailto:a.md", "a.mdx", "md", "a#b.md", "a.md/", "", "#x.md"] {
            #expect(missing(other) == nil, "\(other)")
        }
        let link = MarkdownLink(destination: "x.md", writtenDestination: "x.md", line: 2, column: 3, isImage: false)
        #expect(SourceLink(link, in: source).location == SourceLocation(line: 6, column: 3))
    }

    /// A page's links as its render found them: every destination, in the order written, and a
    /// `SourceLink` made for the one the check asks about, in the text it was written in.
    @Test func sourceLinksGiveDestinationsAndMakeTheLinkAskedFor() {
        let first = MarkdownSource(text: "", displayPath: "content/stations/01-a.md", contentPath: "stations/01-a.md", lineOffset: 4)
        let second = MarkdownSource(text: "", displayPath: "content/checklists/b.md", contentPath: "checklists/b.md", lineOffset: 1)
        func link(_ written: String, _ destination: String, line: Int) -> MarkdownLink {
            MarkdownLink(destination: destination, writtenDestination: written, line: line, column: 2, isImage: false)
        }
        var links = SourceLinks([SourceLink(destination: "given.html", displayPath: "templates/x.mustache", location: SourceLocation(line: 1, column: 1))])
        links.append([link("02-b.md", "b.html", line: 1), link("09-gone.md", "09-gone.md", line: 3)], writtenIn: first)
        links.append([], writtenIn: second)
        links.append([link("a b.html", "a%20b.html", line: 2)], writtenIn: second)
        var pairs: [String] = []
        links.forEach { written, destination in pairs.append("\(written) -> \(destination)") }
        #expect(pairs == ["given.html -> given.html", "02-b.md -> b.html", "09-gone.md -> 09-gone.md", "a b.html -> a%20b.html"])
        let gone = links.first(whereDestination: { $0 == "09-gone.md" })
        #expect(gone?.displayPath == "content/stations/01-a.md")
        #expect(gone?.location == SourceLocation(line: 7, column: 2))
        #expect(gone?.missingContentFile == "stations/09-gone.md")
        #expect(links.first(whereDestination: { $0 == "a%20b.html" })?.location == SourceLocation(line: 3, column: 2))
        #expect(links.first(whereDestination: { $0 == "given.html" })?.displayPath == "templates/x.mustache")
        #expect(links.first(whereDestination: { $0 == "nowhere.html" }) == nil)
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
