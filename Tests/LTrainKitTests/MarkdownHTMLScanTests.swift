import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainCheck
@testable import LTrainMarkdown
@testable import LTrainRender
@testable import LTrainSupport

/// A page's check takes the links and ids of its Markdown's HTML from the document rather than
/// scanning those bytes again (`RenderedMarkdown.htmlScan`): they must be exactly what the scan
/// reads, link for link and in order, on any text.
@Suite struct MarkdownHTMLScanTests {
    /// The scan of a rendered text's HTML, and what the render says it is.
    static func both(
        _ text: String, unsafe: Bool = false, rewrite: Markdown.LinkRewriter? = nil
    ) -> (scanned: (links: [String], ids: Set<String>), known: MarkdownHTMLScan?) {
        var options = MarkdownOptions()
        options.allowsUnsafeHTML = unsafe
        let rendered = Markdown.render(text, options: options, rewriteLink: rewrite)
        return (HTMLScanner.scan(rendered.htmlBytes), rendered.htmlScan)
    }

    static func expectSame(
        _ text: String, unsafe: Bool = false, rewrite: Markdown.LinkRewriter? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let (scanned, known) = both(text, unsafe: unsafe, rewrite: rewrite)
        guard let known else {
            Issue.record("no scan worked out for \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(known.links == scanned.links, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(Set(known.ids) == scanned.ids, "\(text.debugDescription)", sourceLocation: sourceLocation)
    }

    /// Every byte a destination can hold, alone and between others, in a link and an image, with
    /// raw HTML off and on: cmark's `%XX`, `&amp;` and `&#x27;` read back as the scan reads them.
    @Test func everyByteOfADestinationReadsAsTheScanReadsIt() {
        var characters = (1..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        characters += ["é", "日", "🚇", "\u{301}", "\u{2028}", "\u{FEFF}", "\u{10FFFF}"]
        for character in characters {
            for destination in [character, "a\(character)b", "\(character)\(character)", "../x/\(character).html#f\(character)"] {
                for unsafe in [false, true] {
                    Self.expectSame("[link](x.html) and ![image](y.png)", unsafe: unsafe, rewrite: { _ in destination })
                }
            }
        }
    }

    /// Links emptied as dangerous, or kept with raw HTML on, as cmark writes them either way.
    @Test func dangerousDestinationsReadAsTheScanReadsThem() {
        let destinations = [
            "javascript:alert(1)", "JaVaScRiPt:x", "java\tscript:x", " javascript:x", "vbscript:x", "file:///etc/passwd",
            "data:text/html,x", "data:image/png;base64,AA==", "DATA:image/gif,x", "data:image/svg+xml,x", "datas:x",
        ]
        for destination in destinations {
            for unsafe in [false, true] {
                Self.expectSame("[a](x.html) ![b](y.png)", unsafe: unsafe, rewrite: { _ in destination })
                Self.expectSame("[a](<\(destination)>) ![b](<\(destination)>)", unsafe: unsafe)
            }
        }
    }

    /// The shapes authors write: brackets in link text, autolinks, e-mail, references, titles
    /// with quotes, entities and escapes in destinations, images inside links and links inside
    /// images (which cmark writes as alt text, not links), headings made unique, code holding
    /// what looks like tags, footnotes, tables, raw HTML when it is off.
    @Test func theShapesAuthorsWriteReadAsTheScanReadsThem() {
        let texts = [
            "[[rain](https://example.org/a) busker](https://example.org/b) and https://bare.example",
            "<https://example.org/x?a=1&b=2> and <someone@example.org> and <mailto:a@b.c>",
            "[ref][1] and [other]\n\n[1]: https://example.org/ref \"Title 'quoted' \\\"twice\\\"\"\n[other]: <a b.html>",
            "[amp](a.html?x=1&amp;y=2) [apos](o&#39;brien.html) [esc](a\\(b\\).html) [pct](a%20b%zz.html)",
            "[![img](a.png \"t\")](b.html) ![alt [inner](c.html) ![deep](d.png)](e.png) ![](f.png)",
            "# Café\n\n## Café\n\n### `code` <b>\n\n#### Café 2\n\n# \n\nText",
            "`<a href=\"no.html\">` and\n\n    <a href=\"no.html\" id=\"no\">\n\n```html\n<img src=\"no.png\">\n```",
            "Note[^1] and [^x](https://example.com).\n\n[^1]: https://example.org/note",
            "| a | b |\n| - | - |\n| [c](c.html) | ~~d~~ |\n\n- [ ] task [e](e.html)",
            "<div><a href=\"raw.html\" id=\"raw\">raw</a></div>\n\nInline <a href=\"x.html\">x</a> <!-- c -->",
            "[empty]() [space](<a b.html>) [hash](#top) [query](?q) [unicode](日本/語.html) [emoji](🚇.html)",
            "",
            "Just text, & < > \" ' and é.",
        ]
        for text in texts { Self.expectSame(text) }
        for text in texts { Self.expectSame(text, rewrite: { $0.hasSuffix(".html") ? "../stations/\($0)" : nil }) }
    }

    /// Raw HTML in the text with raw HTML on: only a scan can read it, so none is worked out.
    @Test func rawHTMLIsLeftToTheScan() {
        #expect(Self.both("<a href=\"x.html\">x</a>", unsafe: true).known == nil)
        #expect(Self.both("<div id=\"a\"></div>", unsafe: true).known == nil)
        #expect(Self.both("text <b>bold</b>", unsafe: true).known == nil)
        #expect(Self.both("<div id=\"a\"></div>", unsafe: false).known == MarkdownHTMLScan(links: [], ids: []))
        #expect(Self.both("[a](b.html)", unsafe: true).known == MarkdownHTMLScan(links: ["b.html"], ids: []))
    }

    /// A known part is taken as known only where the scan comes to it outside any tag: inside a
    /// comment, a tag's attribute or a script its bytes are read as the rest (here, a part whose
    /// bytes say otherwise shows which was used).
    @Test func aKnownPartIsTakenOnlyWhereTheScanIsOutsideAnyTag() {
        let part = #"<p><a href="bytes.html" id="bytes">x</a></p>"#
        let known = MarkdownHTMLScan(links: ["known.html"], ids: ["known"])
        func scan(_ before: String, _ after: String) -> (links: [String], ids: Set<String>) {
            let page = Array((before + part + after).utf8)
            let start = before.utf8.count
            return HTMLScanner.scan(page, knownParts: [KnownHTMLPart(range: start..<start + part.utf8.count, scan: known)])
        }
        let outside = scan(#"<main><a href="a.html">a</a>text "#, #"<a href="b.html">b</a></main>"#)
        #expect(outside.links == ["a.html", "known.html", "b.html"] && outside.ids == ["known"])
        #expect(scan("", "").links == ["known.html"])
        // Inside a comment, an attribute's value and a script: read as bytes (or not at all).
        #expect(scan("<!-- ", " -->").links.isEmpty)
        #expect(scan(#"<a title='"#, #"' href="c.html">"#).links == ["c.html"])
        #expect(scan("<script>", "</script>").links.isEmpty)
        // Where the scan passes a part's start inside a tag, the part's bytes are read.
        #expect(scan("<a ", ">").links == ["bytes.html"])
    }

    /// Every page of the default site and of each fixture site checks the same with its known
    /// parts as read whole, and every info page has one (its text's HTML).
    @Test func everyPageOfTheFixtureSitesReadsTheSameWithItsKnownParts() throws {
        var sites = [try TestSite.defaultSite()]
        for name in ["passeio", "rakevet", "tram", "ubahn"] { sites.append(try TestSite.fixture(name)) }
        for site in sites {
            let renderer = try PreparedSite.prepare(content: site.content, templates: site.templates).renderer
            for page in renderer.pages {
                let rendered = try renderer.render(page)
                let whole = HTMLScanner.scan(rendered.bytes)
                let withKnown = HTMLScanner.scan(rendered.bytes, knownParts: rendered.knownParts)
                #expect(withKnown.links == whole.links, "\(site.content) \(page)")
                #expect(withKnown.ids == whole.ids, "\(site.content) \(page)")
                if case .info = page { #expect(!rendered.knownParts.isEmpty, "\(site.content) \(page)") }
            }
        }
    }
}
