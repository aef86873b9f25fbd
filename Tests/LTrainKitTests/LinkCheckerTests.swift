import Testing

@testable import LTrainKit

@Suite struct LinkCheckerTests {
    @Test func scannerReadsLinksAndIDs() {
        let html = """
            <a href="a.html" id=top>x</a><img src='p.png' alt="a > b"><!-- <a href="no.html"> -->
            <script>var s = '<a href="nope.html">';</script><h2 id="q&amp;a">Q</h2><a name=old href="x.html?y=1&amp;z=2#f">
            """
        let scanned = HTMLScanner.scan(html)
        #expect(scanned.links == ["a.html", "p.png", "x.html?y=1&z=2#f"])
        #expect(scanned.ids == ["top", "q&a", "old"])

        // End tags carry no attributes; STYLE bodies and comments hide what looks like tags; a
        // value left open at the end of the page runs to the end.
        let tricky = """
            <p>a</p ><P ID=up></a href="end-tag.html"><STYLE>a[href="no.css"]{}</sTyLe><a HREF="b.html">\
            <!-- x -- <a href="c.html"> --><img src="open.png
            """
        let trickyScan = HTMLScanner.scan(tricky)
        #expect(trickyScan.links == ["b.html", "open.png"])
        #expect(trickyScan.ids == ["up"])
    }

    func verdict(_ link: String, on page: String = "stations/a.html") -> LinkChecker.Verdict {
        let files: Set<String> = ["index.html", "stations/a.html", "stations/b.html", "style.css", "assets/a b.png"]
        let ids = ["stations/b.html": Set(["history"])]
        return LinkChecker.judge(link, on: page, files: files, ids: { ids[$0] }, ownIDs: ["here"])
    }

    @Test func judgesLinks() {
        #expect(verdict("b.html") == .fine)
        #expect(verdict("../style.css") == .fine)
        #expect(verdict("../assets/a%20b.png") == .fine)
        #expect(verdict("b.html#history") == .fine)
        #expect(verdict("#here") == .fine)
        #expect(verdict("https://example.org/") == .external)
        #expect(verdict("mailto:a@example.org") == .external)
        guard case .broken(let missing, _) = verdict("c.html") else {
            Issue.record("c.html should be broken")
            return
        }
        #expect(missing == "points to stations/c.html, which is not in the site")
        guard case .broken(let fragment, _) = verdict("b.html#nowhere") else {
            Issue.record("missing fragment should be broken")
            return
        }
        #expect(fragment == "points to no id 'nowhere' on stations/b.html")
        guard case .broken(let absolute, _) = verdict("/stations/b.html") else {
            Issue.record("root-absolute link should be broken")
            return
        }
        #expect(absolute.contains("starts at the root of the host"))
        if case .fine = verdict("../../index.html") { Issue.record("climbing out of the site should be broken") }
        if case .fine = verdict("#elsewhere") { Issue.record("missing own fragment should be broken") }
        if case .fine = verdict("a.html#elsewhere") { Issue.record("own fragment named with the page's file should be checked") }
        #expect(verdict("a.html#here") == .fine)
        #expect(verdict("b.html?from=a#history") == .fine)
        #expect(verdict("../index.html?q=1") == .fine)
        #expect(verdict("?q=1") == .fine)
        #expect(verdict("./b.html") == .fine)
        #expect(verdict("../stations//b.html") == .fine)
        if case .fine = verdict("c.html?x=b.html") { Issue.record("the query is not part of the path") }
        if case .fine = verdict("../assets/a%2") { Issue.record("a malformed escape should be broken") }
        #expect(verdict("b.html", on: "index.html") != .fine)
        #expect(verdict("stations/b.html", on: "index.html") == .fine)
        #expect(
            LinkChecker.judge("c.html#x", on: "a.html", files: ["a.html", "c.html"], ids: { _ in nil }, ownIDs: [])
                == .fragmentElsewhere(target: "c.html", fragment: "x"))
    }

    @Test func fragmentsIntoOtherPagesAreCheckedOnceAllPagesAreKnown() {
        let files: Set<String> = ["a.html", "b.html"]
        let a = LinkChecker.checkPage(
            outputPath: "a.html", html: #"<a href="b.html#here">ok</a><a href="b.html#gone">bad</a>"#,
            templatePath: "templates/index.mustache", sourceLinks: [], files: files)
        let b = LinkChecker.checkPage(
            outputPath: "b.html", html: #"<h2 id="here">H</h2><a href="https://example.org/">x</a>"#,
            templatePath: "templates/index.mustache", sourceLinks: [], files: files)
        #expect(a.problems.isEmpty, "fragments into other pages wait for the second pass")
        var log = DiagnosticLog()
        let external = LinkChecker.checkFragments([a, b], log: &log)
        #expect(external == ["https://example.org/"])
        #expect(log.errors.map(\.message) == ["link 'b.html#gone' on a.html points to no id 'gone' on b.html"])
    }

    @Test func brokenMarkdownLinkNamesItsSourceLine() {
        let page = LinkChecker.checkPage(
            outputPath: "info/a.html", html: #"<a href="../stations/zz.html">x</a><a href="../index.html">i</a>"#,
            templatePath: "templates/info.mustache",
            sourceLinks: [
                SourceLink(
                    destination: "../stations/zz.html", displayPath: "content/stations/01-a.md",
                    location: SourceLocation(line: 7, column: 5))
            ], files: ["info/a.html", "index.html"])
        var log = DiagnosticLog()
        _ = LinkChecker.checkFragments([page], log: &log)
        #expect(
            log.diagnostics.map(\.description) == [
                "content/stations/01-a.md:7:5: error: link '../stations/zz.html' points to stations/zz.html, which is not in the site\n  hint: check the path; it is relative to the page it appears on"
            ])
    }
}
