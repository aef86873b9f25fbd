import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif
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

/// Drafts, the base URL's sitemap, canonical links and robots.txt, and the 404 page.
@Suite struct PublishingTests {
    @Test func draftsStayOutUnlessAskedFor() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", "---\ntitle: Union Square\ndraft: true\n---\nSoon.\n")
        try site.write("content/checklists/pack-one.md", "---\ntitle: Pack One\ndraft: true\n---\n- Umbrella\n")
        let report = try site.build()
        #expect(report.stationCount == 5)
        #expect(report.checklistCount == 1)
        #expect(!FileManager.default.fileExists(atPath: site.output + "/stations/union-square.html"))
        #expect(!FileManager.default.fileExists(atPath: site.output + "/checklists/pack-one.html"))
        let sixth = try site.page("stations/sixth-avenue.html")
        #expect(HTML.anchors(with: #"rel="next""#, in: sixth).first?.href == "third-avenue.html", "east skips the draft")
        #expect(try site.page("stations/third-avenue.html").contains(#"<span class="back-label" data-short-label="Back">Sixth Avenue</span>"#))

        let withDrafts = try SiteBuild.run(
            BuildOptions(
                contentDirectory: site.content, templatesDirectory: site.templates, outputDirectory: site.root + "/drafts"
            ).with { $0.includeDrafts = true })
        #expect(withDrafts.stationCount == 6)
        #expect(withDrafts.checklistCount == 2)
    }

    @Test func aBaseURLAddsSitemapCanonicalLinksAndRobots() throws {
        let site = try TestSite.defaultSite()
        try SiteBuild.run(site.options().with { $0.baseURL = "https://example.org/sub" })
        let sitemap = try site.page("sitemap.xml")
        let parser = XMLParser(data: Data(sitemap.utf8))
        final class Locations: NSObject, XMLParserDelegate {
            var urls: [String] = []
            var inLoc = false
            var rootName: String?
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                if rootName == nil { rootName = name }
                inLoc = name == "loc"
                if inLoc { urls.append("") }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if inLoc { urls[urls.count - 1] += string }
            }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                inLoc = false
            }
        }
        let locations = Locations()
        parser.delegate = locations
        #expect(parser.parse(), "sitemap.xml is well-formed XML")
        #expect(locations.rootName == "urlset")
        #expect(locations.urls.count == 14)
        #expect(locations.urls.first == "https://example.org/sub/index.html")
        #expect(locations.urls.contains("https://example.org/sub/stations/union-square.html"))
        #expect(locations.urls.allSatisfy { $0.hasPrefix("https://example.org/sub/") })

        let page = try site.page("info/union-square.html")
        #expect(page.contains(#"<link rel="canonical" href="https://example.org/sub/info/union-square.html">"#))
        #expect(page.contains(#"href="../stations/union-square.html""#), "pages stay relative")
        #expect(try site.page("robots.txt") == "User-agent: *\nAllow: /\n\nSitemap: https://example.org/sub/sitemap.xml\n")
        let notFound = try site.page("404.html")
        #expect(notFound.contains(#"<base href="https://example.org/sub/">"#), "the 404 page works at any depth")
    }

    @Test func withoutABaseURLThereIsNoSitemap() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        #expect(!FileManager.default.fileExists(atPath: site.output + "/sitemap.xml"))
        #expect(!(try site.page("index.html")).contains("canonical"))
        let notFound = try site.page("404.html")
        #expect(notFound.contains(#"<a href="index.html">See the whole line</a>"#))
        #expect(!notFound.contains("<base"))
    }

    @Test func baseURLInIndexAndBadURLs() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/index.md", "---\ntitle: L Train\nbase_url: https://l.example/\n---\n")
        try site.build()
        #expect(try site.page("robots.txt").contains("Sitemap: https://l.example/sitemap.xml"))
        try site.write("content/index.md", "---\ntitle: L Train\nbase_url: /relative/\n---\n")
        #expect(site.failures().first?.contains("base_url '/relative/' is not an absolute http(s) URL") == true)
        // A query, a fragment, quotes, spaces, brackets or a control character would land raw in
        // robots.txt, the sitemap and every canonical link.
        for bad in ["https://l.example/?a=1", "https://l.example/#top", "https://l.example/\"x", "https://l.example/a b",
            "https://l.example/<x>", "https://l.example/'", "https://l.example/\u{7}"]
        {
            try site.write("content/index.md", "---\ntitle: L Train\nbase_url: '\(bad.replacingOccurrences(of: "'", with: "''"))'\n---\n")
            let failures = site.failures()
            // A control character is refused by the front matter's reader already, with its own error.
            #expect(
                failures.first?.contains("is not an absolute http(s) URL: a base URL is an absolute http(s) URL with no query") == true
                    || (bad.hasSuffix("\u{7}") && !failures.isEmpty),
                "\(bad)")
            try site.write("content/index.md", "---\ntitle: L Train\n---\n")
            let options = site.options().with { $0.baseURL = bad }
            do {
                _ = try SiteBuild.run(options)
                Issue.record("--base-url \(bad) was accepted")
            } catch {
                #expect(error.diagnostics.first?.message.hasPrefix("--base-url '\(bad)' is not an absolute http(s) URL") == true)
            }
        }
        try site.write("content/index.md", "---\ntitle: L Train\nbase_url: https://l.example/sub/path\n---\n")
        try site.build()
        #expect(try site.page("robots.txt").contains("Sitemap: https://l.example/sub/path/sitemap.xml"))
    }
}

extension BuildOptions {
    func with(_ change: (inout BuildOptions) -> Void) -> BuildOptions {
        var copy = self
        change(&copy)
        return copy
    }
}
