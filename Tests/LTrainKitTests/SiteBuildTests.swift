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

/// Whole builds of real sites in temporary folders, asserted on the files they produce.
@Suite struct SiteBuildTests {
    struct ExpectedStation {
        let slug: String
        let title: String
    }

    static let lTrain = [
        ExpectedStation(slug: "eighth-avenue", title: "Eighth Avenue"),
        ExpectedStation(slug: "sixth-avenue", title: "Sixth Avenue"),
        ExpectedStation(slug: "union-square", title: "Union Square"),
        ExpectedStation(slug: "third-avenue", title: "Third Avenue"),
        ExpectedStation(slug: "first-avenue", title: "First Avenue"),
        ExpectedStation(slug: "bedford-avenue", title: "Bedford Avenue"),
    ]

    static let tram = [
        ExpectedStation(slug: "martim-moniz", title: "Martim Moniz"),
        ExpectedStation(slug: "graca", title: "Graça"),
        ExpectedStation(slug: "estrela", title: "Estrela & Basílica <Top>"),
    ]

    /// The navigation structure every site must have, whatever its content.
    func checkLine(_ site: TestSite, _ stations: [ExpectedStation], siteTitle: String, nextLabel: String) throws {
        for (position, station) in stations.enumerated() {
            let html = try site.page("stations/\(station.slug).html")
            #expect(HTML.matches("<h1[ >]", in: html).count == 1, "\(station.slug) has one h1")
            #expect(HTML.text(HTML.matches("<h1>(.*?)</h1>", in: html).first?[1] ?? "") == station.title)
            #expect(HTML.text(HTML.matches("<title>(.*?)</title>", in: html).first?[1] ?? "") == "\(station.title) — \(siteTitle)")
            let back = HTML.anchors(with: #"rel="prev""#, in: html)
            let next = HTML.anchors(with: #"rel="next""#, in: html)
            if position == 0 {
                #expect(back.isEmpty, "the first station has no back button")
            } else {
                let previous = stations[position - 1]
                #expect(back.count == 1)
                #expect(back.first?.href == "\(previous.slug).html")
                #expect(HTML.text(back.first?.text ?? "") == previous.title, "back button names the previous station")
            }
            if position == stations.count - 1 {
                #expect(next.isEmpty, "the last station has no Go East")
            } else {
                #expect(next.first?.href == "\(stations[position + 1].slug).html")
                #expect(HTML.text(next.first?.text ?? "") == nextLabel)
            }
            let more = HTML.anchors(with: "more-info", in: html)
            #expect(more.map(\.href) == ["../info/\(station.slug).html"])
            #expect(HTML.text(more.first?.text ?? "") == "More Information")
            #expect(HTML.anchors(with: "bar-home", in: html).map(\.href) == ["../index.html"], "a way home")

            let info = try site.page("info/\(station.slug).html")
            #expect(HTML.text(HTML.matches("<h1>(.*?)</h1>", in: info).first?[1] ?? "") == station.title)
            #expect(HTML.anchors(with: "done", in: info).map(\.href) == ["../stations/\(station.slug).html"])
            #expect(HTML.anchors(with: "done", in: info).map { HTML.text($0.text) } == ["Done"])
            #expect(!info.contains(#"rel="prev""#) && !info.contains(#"rel="next""#), "no back or east on info")
            #expect(info.contains("<main"))
        }
    }

    /// Every relative href/src in every page names a file that exists (checked here, not by the
    /// generator's own checker), and no page loads anything from outside the site.
    func checkEveryLinkResolves(_ folder: String) throws {
        let pages = TestSite.snapshot(folder).keys.filter { $0.hasSuffix(".html") }
        #expect(!pages.isEmpty)
        for page in pages {
            let html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            for match in HTML.matches(#"(href|src)="([^"]*)""#, in: html) {
                let link = match[2]
                if link.hasPrefix("https://") || link.hasPrefix("http://") || link.hasPrefix("mailto:") || link.hasPrefix("data:") {
                    continue
                }
                #expect(!link.hasPrefix("/"), "\(page): \(link) is root-absolute")
                let path = String(link.split(separator: "#", omittingEmptySubsequences: false)[0])
                if path.isEmpty { continue }
                let decoded = path.removingPercentEncoding ?? path
                let target = URL(fileURLWithPath: folder + "/" + page).deletingLastPathComponent()
                    .appendingPathComponent(decoded).standardizedFileURL.path
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory)
                #expect(exists && !isDirectory.boolValue, "\(page): \(link) does not name a file")
                #expect(target.hasPrefix(folder + "/"), "\(page): \(link) leaves the site")
            }
            for match in HTML.matches(#"<(?:link|script|img)[^>]*(?:href|src)="(https?:[^"]*)""#, in: html) {
                Issue.record("\(page) loads \(match[1]) from outside the site")
            }
        }
    }

    func checkPageBasics(_ folder: String, language: String) throws {
        for (page, _) in TestSite.snapshot(folder) where page.hasSuffix(".html") {
            let html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            #expect(html.hasPrefix("<!doctype html>\n<html lang=\"\(language)\""), "\(page)")
            #expect(html.contains("<meta charset=\"utf-8\">"))
            #expect(html.contains("<meta name=\"viewport\""))
            #expect(HTML.matches("<h1[ >]", in: html).count == 1, "\(page) has exactly one h1")
        }
    }

    @Test func defaultSiteBuilds() throws {
        let site = try TestSite.defaultSite()
        let report = try site.build()
        #expect(report.stationCount == 6)
        #expect(report.checklistCount == 1)
        try checkLine(site, Self.lTrain, siteTitle: "L Train", nextLabel: "Go East")
        try checkEveryLinkResolves(site.output)
        try checkPageBasics(site.output, language: "en")

        let files = Set(TestSite.snapshot(site.output).keys)
        let expected: Set<String> = Set(
            ["index.html", "404.html", "style.css", "ltrain.js", "checklists/check-one.html", ".ltrain-manifest",
             "sw.js", "offline-files.js", "manifest.webmanifest", "icons/icon-192.png", "icons/icon-512.png",
             "icons/apple-touch-icon.png", "search.js", "search-index.js", "search/1.js"]
                + Self.lTrain.flatMap { ["stations/\($0.slug).html", "info/\($0.slug).html"] })
        #expect(files == expected, "the output holds exactly the site")

        let checklist = try site.page("checklists/check-one.html")
        let rows = HTML.matches(#"<label class="row check-row"[^>]*><input ([^>]*)><span class="row-label">(.*?)</span>"#, in: checklist)
        #expect(
            rows.map { HTML.text($0[2]) } == [
                "Who Hash", "Bubba Gump Shrimp Étouffée", "Who Pudding", "Scooby Snacks", "Everlasting Gobstopper",
                "Green Eggs and Ham", "Soylent Green", "Hard Tack", "Lembas Bread", "Roast Beast", "Blancmange",
            ])
        #expect(rows.allSatisfy { $0[1].contains(#"type="radio""#) && $0[1].contains(#"name="check-one-choice""#) })
        #expect(!checklist.contains("checked"), "no row is checked at first")
        #expect(checklist.contains("<fieldset") && checklist.contains("<legend"))
        #expect(HTML.anchors(with: "back", in: checklist).map(\.href) == ["../index.html"])
        #expect(HTML.anchors(with: "back", in: checklist).map { HTML.text($0.text) } == ["L Train"])

        let index = try site.page("index.html")
        let listed = HTML.anchors(with: "link-row", in: index).map(\.href)
        #expect(listed == Self.lTrain.map { "stations/\($0.slug).html" } + ["checklists/check-one.html"])
        #expect(HTML.matches(#"<a href="(stations/[^"]+)" class="strip-stop">"#, in: index).map { $0[1] } == Self.lTrain.map { "stations/\($0.slug).html" })
    }

    /// A build lists the pages' external links only when asked (`ltrain build --verbose`):
    /// otherwise it does not gather them.
    @Test func externalLinksAreListedOnlyWhenAsked() throws {
        let site = try TestSite.defaultSite()
        let station = site.content + "/stations/01-eighth-avenue.md"
        let text = try String(contentsOfFile: station, encoding: .utf8)
        try site.write(
            "content/stations/01-eighth-avenue.md",
            text + "\nSee [the schedule](https://example.org/schedule) and [the map](https://example.org/map).\n")
        #expect(try site.build().externalLinks.isEmpty)
        // A fresh output: a build with nothing to render lists no links.
        var options = site.options(output: site.root + "/_listed")
        options.listsExternalLinks = true
        let listed = try SiteBuild.run(options).externalLinks
        #expect(listed == ["https://example.org/map", "https://example.org/schedule"])
    }

    @Test func anUnrelatedSiteBuildsJustAsWell() throws {
        let site = try TestSite.fixture("tram")
        let report = try site.build()
        #expect(report.stationCount == 3)
        #expect(report.checklistCount == 2)
        try checkLine(site, Self.tram, siteTitle: "Tram 28 & Friends", nextLabel: "Next stop")
        try checkEveryLinkResolves(site.output)
        try checkPageBasics(site.output, language: "en-GB")

        // Titles are escaped everywhere: text, <title> and attributes.
        let estrela = try site.page("stations/estrela.html")
        #expect(estrela.contains("<title>Estrela &amp; Basílica &lt;Top&gt; — Tram 28 &amp; Friends</title>"))
        #expect(estrela.contains("<h1>Estrela &amp; Basílica &lt;Top&gt;</h1>"))
        #expect(estrela.contains("Quotes &quot;double&quot; and &#39;single&#39; survive."))
        #expect(!estrela.contains("<Top>"))
        let graca = try site.page("stations/graca.html")
        #expect(graca.contains(#"<span class="back-label" data-short-label="Back">Martim Moniz</span>"#))
        #expect(HTML.anchors(with: #"rel="next""#, in: graca).first?.href == "estrela.html")

        // Markdown links to content files become page links; assets are copied and linked.
        let info = try site.page("info/graca.html")
        #expect(info.contains(#"<a href="../stations/estrela.html">Estrela</a>"#))
        #expect(info.contains(#"<h2 id="miradouro">Miradouro</h2>"#))
        #expect(try site.page("info/martim-moniz.html").contains(#"src="../assets/route%20map.svg""#))
        #expect(FileManager.default.fileExists(atPath: site.output + "/assets/route map.svg"))
        let index = try site.page("index.html")
        #expect(index.contains(#"href="checklists/pick-a-seat.html#where-to-sit""#))
        #expect(index.contains(#"href="stations/martim-moniz.html""#))

        // Raw HTML from content never reaches the output by default.
        let seat = try site.page("checklists/pick-a-seat.html")
        #expect(!seat.contains("onclick") && !seat.contains("<p id=\"raw\""))
        #expect(seat.contains(#"<span class="row-label"><em>Back</em>, by the window</span>"#))
        #expect(!seat.contains("Front, by the driver</li>"), "the list became rows, not a list")
    }

    @Test func rawHTMLIsAnOptIn() throws {
        let site = try TestSite.fixture("tram")
        try site.write("content/index.md", "---\ntitle: Tram\nunsafe_html: true\n---\nHi\n")
        try site.build()
        #expect(try site.page("checklists/pick-a-seat.html").contains(#"<p id="raw" onclick="alert(1)">"#))
    }

    @Test func customTemplatesReplaceTheDefaultOnes() throws {
        let site = try TestSite.fixture("tram")
        try site.remove("templates")
        try site.write("templates/page.mustache", "<!doctype html><title>{{document_title}}</title>{{$main}}{{/main}}\n")
        try site.write("templates/index.mustache", "{{<page}}{{$main}}<h1>{{title}}</h1>{{#stations}}<a href=\"{{href}}\">{{title}}</a>{{/stations}}{{/main}}{{/page}}")
        try site.write("templates/station.mustache", "{{<page}}{{$main}}<h1>{{title}}</h1>{{#next}}<a rel=\"next\" href=\"{{href}}\">{{label}}</a>{{/next}}{{/main}}{{/page}}")
        try site.write("templates/info.mustache", "{{<page}}{{$main}}<h1>{{title}}</h1>{{{body}}}{{/main}}{{/page}}")
        try site.write("templates/checklist.mustache", "{{<page}}{{$main}}<h1>{{title}}</h1>{{#rows}}[{{text}}]{{/rows}}{{/main}}{{/page}}")
        try site.build()
        #expect(try site.page("stations/martim-moniz.html") == "<!doctype html><title>Martim Moniz — Tram 28 &amp; Friends</title><h1>Martim Moniz</h1><a rel=\"next\" href=\"graca.html\">Next stop</a>\n")
        #expect(try site.page("checklists/pack-one.html").contains("[Umbrella][Sunscreen]"))
    }
}
