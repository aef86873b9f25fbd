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

    @Test func attributeValuesAreDecodedAsBrowsersRead() {
        // cmark writes ' in a link as &#x27;; templates may write &#39; or &apos;.
        #expect(HTMLScanner.decodeEntities("a&#x27;b&#39;c&apos;d&quot;e&lt;f&gt;g&amp;h") == "a'b'c'd\"e<f>g&h")
        #expect(HTMLScanner.decodeEntities("&#X41;&#233;&#x1F687;") == "Aé🚇")
        // Not references, so left as written: a lone &, unknown names, bad or missing digits,
        // signs, code points that are not characters, and no ';' within reach.
        for text in ["a & b", "&copy;", "&#;", "&#x;", "&#xZZ;", "&#+39;", "&#-1;", "&#xD800;", "&#x110000;", "&amp"] {
            #expect(HTMLScanner.decodeEntities(text) == text)
        }
        #expect(HTMLScanner.scan(#"<a href="o&#x27;brien.html#it&#39;s">"#).links == ["o'brien.html#it's"])
    }

    @Test func aMarkdownLinkWithAnApostropheIsJudgedAsWritten() {
        // cmark escapes the ' of a Markdown link in the page; the check reads it back, so the
        // problem is told at the Markdown line, about the id as written.
        let page = LinkChecker.checkPage(
            outputPath: "info/a.html", html: #"<a href="../info/b.html#a&#x27;b">x</a>"#,
            templatePath: "templates/info.mustache",
            sourceLinks: [
                SourceLink(
                    destination: "../info/b.html#a'b", writtenDestination: "02-b.md#a'b",
                    displayPath: "content/stations/01-a.md", location: SourceLocation(line: 3, column: 9))
            ], files: ["info/a.html", "info/b.html"])
        var log = DiagnosticLog()
        LinkChecker.checkFragments(
            [page, PageCheck(outputPath: "info/b.html", ids: ["a-b"])], log: &log)
        #expect(
            log.diagnostics.map(\.description) == [
                "content/stations/01-a.md:3:9: error: link '02-b.md#a'b' points to no id 'a'b' on info/b.html\n  hint: check the spelling of the id it should point to"
            ])
    }

    @Test func aMarkdownLinkThatCmarkEscapedIsStillToldAtItsLine() {
        // `[gone](<missing file.html>)` is written href="missing%20file.html" in the page.
        let page = LinkChecker.checkPage(
            outputPath: "info/a.html", html: #"<a href="missing%20file.html">gone</a>"#,
            templatePath: "templates/info.mustache",
            sourceLinks: [
                SourceLink(
                    destination: "missing file.html", displayPath: "content/stations/01-a.md",
                    location: SourceLocation(line: 13, column: 5))
            ], files: ["info/a.html"])
        var log = DiagnosticLog()
        LinkChecker.checkFragments([page], log: &log)
        #expect(
            log.diagnostics.map(\.description) == [
                "content/stations/01-a.md:13:5: error: link 'missing file.html' points to info/missing file.html, which is not in the site\n  hint: check the path; it is relative to the page it appears on"
            ])
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
        #expect(verdict("data:,") == .fine, "a data: URL holds what it refers to")
        #expect(verdict("DATA:image/png;base64,AA==") == .fine)
        #expect(verdict("dAtA:\u{301},é") == .fine, "the scheme is read on code points: a mark after it is data")
        // Not data: URLs: another scheme, a byte that only folds to a letter or colon, too short.
        #expect(verdict("datum:x") == .external)
        #expect(verdict("data\u{1A}x") != .fine && verdict("dat") != .fine && verdict("\u{C4}ata:x") != .fine)
        #expect(LinkChecker.isDataURL("data:") && !LinkChecker.isDataURL("data") && !LinkChecker.isDataURL("xdata:"))
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

    /// Links judged fine on one page are taken as fine on the next page of the same folder,
    /// never a link to a fragment (which depends on the page) or one from another folder.
    @Test func linksFoundFineOnOnePageOfAFolderAreFineOnTheNext() {
        let files: Set<String> = ["style.css", "stations/a.html", "stations/b.html", "info/a.html"]
        let fine = LinkChecker.FineLinks()
        func check(_ path: String, _ html: String) -> [String] {
            LinkChecker.checkPage(
                outputPath: path, bytes: Array(html.utf8), templatePath: "templates/station.mustache",
                sourceLinks: [], files: files, fineLinks: fine
            ).problems.map(\.message)
        }
        let shared = ##"<link href="../style.css"><a href="b.html">b</a><a href="#top">top</a>"##
        #expect(check("stations/a.html", #"<h1 id="top">A</h1>"# + shared).isEmpty)
        // The same links on a page without the id: the fragment is judged again, and broken.
        #expect(check("stations/b.html", shared) == ["link '#top' on stations/b.html points to no id 'top' on this page"])
        // `b.html` from another folder is another file, which is not in the site.
        #expect(check("info/a.html", #"<a href="b.html">b</a>"#) == ["link 'b.html' on info/a.html points to info/b.html, which is not in the site"])
        // And a file that is not in the site is never fine, however often it is linked.
        #expect(check("stations/b.html", #"<a href="c.html">c</a>"#).count == 1)
        #expect(check("stations/a.html", #"<a href="c.html">c</a>"#).count == 1)
    }

    /// The memory finds a link by its bytes in the page, a link written with character references
    /// by its decoded text, and a known part's links as the render gave them: each is judged once
    /// a folder, and the page's check is what it is without the memory.
    @Test func theMemoryFindsLinksHoweverTheyWereRead() {
        let files: Set<String> = ["stations/a.html", "stations/b.html", "stations/it's.html"]
        let part = #"<p><a href="b.html">b</a></p>"#
        let html = #"<a href="it&#39;s.html">x</a><a href="it's.html">y</a>"# + part + #"<a href="https://example.org/">e</a>"#
        let start = html.utf8.count - part.utf8.count - #"<a href="https://example.org/">e</a>"#.utf8.count
        let known = [KnownHTMLPart(range: start..<start + part.utf8.count, scan: MarkdownHTMLScan(links: ["b.html"], ids: []))]
        let fine = LinkChecker.FineLinks()
        func check(_ fineLinks: LinkChecker.FineLinks?) -> PageCheck {
            LinkChecker.checkPage(
                outputPath: "stations/a.html", bytes: Array(html.utf8), templatePath: "templates/info.mustache",
                sourceLinks: [], files: files, fineLinks: fineLinks, knownParts: known)
        }
        let first = check(fine)
        // The two spellings of it's.html are one link: judged once, as is b.html and the external one.
        #expect(fine.judged == 3)
        #expect(first.problems.isEmpty)
        #expect(first.external == ["https://example.org/"])
        let second = check(fine)
        #expect(fine.judged == 3, "every link of the page was in the memory")
        #expect(second.external.isEmpty, "listed once a checker")
        let alone = check(nil)
        #expect(alone.problems.isEmpty)
        #expect(alone.external == ["https://example.org/"])
        #expect(alone.ids == first.ids)
        // Without b.html in the site, the memory of another checker does not hide it.
        let broken = LinkChecker.checkPage(
            outputPath: "stations/a.html", bytes: Array(html.utf8), templatePath: "templates/info.mustache",
            sourceLinks: [], files: ["stations/a.html", "stations/it's.html"], fineLinks: LinkChecker.FineLinks(),
            knownParts: known)
        #expect(broken.problems.map(\.message) == ["link 'b.html' on stations/a.html points to stations/b.html, which is not in the site"])
    }

    /// Values and text of every length up to past where the scanner stops reading eight bytes at
    /// a time and asks memchr, with the byte it looks for at each place.
    @Test func scannerFindsTheEndOfSpansOfEveryLength() {
        for length in 0..<80 {
            let value = String(repeating: "x", count: length)
            let text = String(repeating: "t", count: length)
            let scanned = HTMLScanner.scan(#"<p>\#(text)<a href="\#(value)" id='\#(value)i'>\#(text)</a><!--\#(text)-->"#)
            #expect(scanned.links == [value], "length \(length)")
            #expect(scanned.ids == ["\(value)i"], "length \(length)")
        }
    }

    /// A check whose external links nobody lists (a build without `--verbose`) passes over them by
    /// their bytes, judging none, and finds the same problems: a link under the site's own URL,
    /// one with a character reference and one in the Markdown are still judged as such.
    @Test func externalLinksNobodyListsArePassedOver() {
        let files: Set<String> = ["style.css", "stations/a.html", "stations/b.html"]
        let html =
            ##"<link href="../style.css"><a href="https://example.org/x">x</a><a href="//cdn.example.org/y">y</a>"##
            + ##"<a href="mailto:a@example.org">m</a><a href="data:,hi">d</a><a href="https://site.example/stations/c.html">own</a>"##
            + ##"<a href="https&#58;//site.example/stations/d.html">own, with a reference</a><a href="c.html">c</a>"##
        let markdownLinks = ["https://example.org/z", "https://site.example/stations/e.html", "b.html"]
        let markdown = Array(#"<p><a href="x">x</a></p>"#.utf8)
        func check(listing: Bool, siteURL: String?) -> (judged: Int, problems: [String], external: [String]) {
            let fine = LinkChecker.FineLinks(listsExternal: listing)
            let bytes = Array(html.utf8) + markdown
            let known = [
                KnownHTMLPart(
                    range: bytes.count - markdown.count..<bytes.count,
                    scan: MarkdownHTMLScan(links: markdownLinks, ids: []))
            ]
            let page = LinkChecker.checkPage(
                outputPath: "stations/a.html", bytes: bytes, templatePath: "templates/station.mustache",
                sourceLinks: [], files: files, siteURL: siteURL, fineLinks: fine, knownParts: known)
            return (fine.judged, page.problems.map(\.message).sorted(), page.external.sorted())
        }
        for siteURL in ["https://site.example/", nil] {
            let listed = check(listing: true, siteURL: siteURL)
            let passed = check(listing: false, siteURL: siteURL)
            #expect(passed.problems == listed.problems, "\(siteURL ?? "no URL")")
            // All but the link written with a character reference, which is read the long way.
            #expect(Set(passed.external).isSubset(of: ["https://site.example/stations/d.html"]))
            #expect(!listed.external.isEmpty)
            #expect(passed.judged < listed.judged)
        }
        // Under the site's URL, c.html, d.html and e.html are checked as its own pages, and broken.
        #expect(check(listing: false, siteURL: "https://site.example/").problems.count == 4)
        #expect(check(listing: false, siteURL: nil).problems.count == 1)
        // On bytes, as `judge` says.
        func external(_ link: String, _ siteURL: String? = nil) -> Bool {
            link.withUTF8Bytes { LinkChecker.isExternal($0, siteURL: siteURL) }
        }
        #expect(external("https://example.org/") && external("//example.org/") && external("mailto:a@b"))
        #expect(!external("a.html") && !external("/a.html") && !external("#x") && !external("") && !external("1a:b"))
        #expect(!external("https://site.example/a.html", "https://site.example/"))
        #expect(external("https://example.org/", "https://site.example/"))
        // A site URL beyond ASCII is left to `judge`.
        #expect(!external("https://example.org/", "https://bücher.example/"))
    }

    /// A link memory hands the next render what the last judged fine, while the files and the
    /// site's URL are the same: the same page is not judged again, but its broken link still is,
    /// and other files or another URL start afresh. Each render lists its external links anew.
    @Test func aLinkMemoryKeepsFineLinksWhileTheFilesAreTheSame() {
        let files: Set<String> = ["style.css", "stations/a.html", "stations/b.html"]
        let html = ##"<link href="../style.css"><a href="b.html">b</a><a href="c.html">c</a><a href="https://example.org/">x</a>"##
        let memory = LinkChecker.LinkMemory()
        func render(_ files: Set<String>, siteURL: String? = nil) -> (judged: Int, check: PageCheck) {
            let fine = memory.take(files: files, siteURL: siteURL)
            defer { memory.giveBack(fine) }
            let before = fine.judged
            let check = LinkChecker.checkPage(
                outputPath: "stations/a.html", bytes: Array(html.utf8), templatePath: "templates/station.mustache",
                sourceLinks: [], files: files, siteURL: siteURL, fineLinks: fine)
            return (fine.judged - before, check)
        }
        let first = render(files)
        #expect(first.judged == 4)
        #expect(first.check.problems.count == 1)
        #expect(first.check.external == ["https://example.org/"])
        // The same files again: only the broken link and the external one are judged; both are
        // reported and listed again.
        let second = render(files)
        #expect(second.judged == 2)
        #expect(second.check.problems.map(\.message) == first.check.problems.map(\.message))
        #expect(second.check.external == ["https://example.org/"])
        // Without stations/b.html, its link is judged again, and broken.
        let fewer = render(["style.css", "stations/a.html"])
        #expect(fewer.judged == 4)
        #expect(fewer.check.problems.count == 2)
        // Another site URL starts afresh too.
        #expect(render(["style.css", "stations/a.html"], siteURL: "https://example.net/").judged == 4)
        // What one thread found, the next knows, however many took one meanwhile; but not what
        // a thread found against files that changed before it gave it back.
        let one = memory.take(files: files, siteURL: nil)
        let other = memory.take(files: files, siteURL: nil)
        _ = LinkChecker.checkPage(
            outputPath: "stations/a.html", bytes: Array(html.utf8), templatePath: "templates/station.mustache",
            sourceLinks: [], files: files, fineLinks: one)
        memory.giveBack(one)
        memory.giveBack(other)
        #expect(render(files).judged == 2)
        func checkIndex(_ files: Set<String>, with fine: LinkChecker.FineLinks) -> Int {
            LinkChecker.checkPage(
                outputPath: "index.html", bytes: Array(#"<a href="stations/b.html">b</a>"#.utf8),
                templatePath: "templates/index.mustache", sourceLinks: [], files: files, fineLinks: fine
            ).problems.count
        }
        let stale = memory.take(files: files, siteURL: nil)
        #expect(checkIndex(files, with: stale) == 0)
        let withoutB: Set<String> = ["style.css", "stations/a.html"]
        let current = memory.take(files: withoutB, siteURL: nil)
        memory.giveBack(stale)
        memory.giveBack(current)
        let next = memory.take(files: withoutB, siteURL: nil)
        #expect(checkIndex(withoutB, with: next) == 1)
    }

    /// An external link is listed by the first page a checker finds it on, whatever the folder:
    /// the pages' lists together hold every external link once, and a link of the site that
    /// merely looks like one already listed is still judged.
    @Test func externalLinksAreListedOnceAPageCheckerWhateverTheFolder() {
        let files: Set<String> = ["stations/a.html", "stations/b.html", "info/a.html"]
        let fine = LinkChecker.FineLinks()
        func check(_ path: String, _ html: String) -> PageCheck {
            LinkChecker.checkPage(
                outputPath: path, bytes: Array(html.utf8), templatePath: "templates/station.mustache",
                sourceLinks: [], files: files, fineLinks: fine)
        }
        let first = check("stations/a.html", ##"<a href="https://example.org/x">x</a><a href="//cdn.example/y.js">y</a>"##)
        #expect(first.external == ["https://example.org/x", "//cdn.example/y.js"])
        let second = check("info/a.html", ##"<a href="https://example.org/x">x</a><a href="https://example.org/z">z</a>"##)
        #expect(second.external == ["https://example.org/z"])
        #expect(check("stations/b.html", ##"<a href="//cdn.example/y.js">y</a><a href="b.html">b</a>"##).external.isEmpty)
        #expect(
            LinkChecker.externalLinks(of: [first, second])
                == ["//cdn.example/y.js", "https://example.org/x", "https://example.org/z"])
        // Without a checker's memory, every page lists all of its own.
        let alone = LinkChecker.checkPage(
            outputPath: "info/a.html", html: ##"<a href="https://example.org/x">x</a>"##,
            templatePath: "templates/info.mustache", sourceLinks: [], files: files)
        #expect(alone.external == ["https://example.org/x"])
        // A broken link is reported on every page it is on, listed external links or not.
        #expect(check("info/a.html", ##"<a href="https://example.org/x">x</a><a href="c.html">c</a>"##).problems.count == 1)
        #expect(check("stations/a.html", ##"<a href="c.html">c</a>"##).problems.count == 1)
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
        LinkChecker.checkFragments([a, b], log: &log)
        #expect(LinkChecker.externalLinks(of: [a, b]) == ["https://example.org/"])
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
        LinkChecker.checkFragments([page], log: &log)
        #expect(
            log.diagnostics.map(\.description) == [
                "content/stations/01-a.md:7:5: error: link '../stations/zz.html' points to stations/zz.html, which is not in the site\n  hint: check the path; it is relative to the page it appears on"
            ])
    }
}
