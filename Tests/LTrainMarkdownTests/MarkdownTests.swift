import Testing

@testable import LTrainMarkdown
import LTrainSupport

@Suite struct MarkdownTests {
    @Test func rendersCommonMarkWithUTF8() {
        let html = Markdown.render("# Étouffée\n\n*Bubba* Gump — **shrimp**").html
        #expect(html == "<h2 id=\"etouffee\">Étouffée</h2>\n<p><em>Bubba</em> Gump — <strong>shrimp</strong></p>\n")
    }

    /// A kept render is used again only when each of its links leads where it did: the check
    /// gives the destination the render gave, rewritten then emptied when dangerous.
    @Test func aLinkLeadsTheSameOnlyWhereItIsRewrittenTheSame() {
        let text = "[a](a.md) [b](b.md#x) [web](https://example.org) [bad](javascript:alert(1)) ![i](i.png)"
        let first: Markdown.LinkRewriter = { $0.hasSuffix(".md") || $0.contains(".md#") ? "one/" + $0 : nil }
        let links = Markdown.render(text, rewriteLink: first).links
        #expect(links.map(\.destination) == ["one/a.md", "one/b.md#x", "https://example.org", "", "i.png"])
        #expect(links.allSatisfy { $0.leadsTheSame(options: MarkdownOptions(), rewriteLink: first) })
        // `b.md` now leads elsewhere; the others do not.
        let moved: Markdown.LinkRewriter = { $0 == "b.md#x" ? "two/b.md#x" : first($0) }
        #expect(links.map { $0.leadsTheSame(options: MarkdownOptions(), rewriteLink: moved) } == [true, false, true, true, true])
        // A link that no longer leads to content keeps what was written.
        let none: Markdown.LinkRewriter = { _ in nil }
        #expect(links.map { $0.leadsTheSame(options: MarkdownOptions(), rewriteLink: none) } == [false, false, true, true, true])
        // With raw HTML allowed, the dangerous link keeps its destination: not what was rendered.
        #expect(!links[3].leadsTheSame(options: MarkdownOptions(allowsUnsafeHTML: true), rewriteLink: first))
    }

    @Test func levelOneHeadingsMoveBelowThePageTitle() {
        let html = Markdown.render("# Top\n\n## Under\n\n###### Deepest").html
        #expect(html.contains(#"<h2 id="top">Top</h2>"#))
        #expect(html.contains(#"<h3 id="under">Under</h3>"#))
        #expect(html.contains(#"<h6 id="deepest">Deepest</h6>"#))
        #expect(!html.contains("<h1"))
    }

    @Test func headingsGetUniqueIDs() {
        let html = Markdown.render("## When it opened\n\n> ### Quote `code`\n\n## When it opened\n\n```\n<h2>not a heading</h2>\n```").html
        #expect(html.contains(#"<h2 id="when-it-opened">When it opened</h2>"#))
        #expect(html.contains(#"<h3 id="quote-code">Quote <code>code</code></h3>"#))
        #expect(html.contains(#"<h2 id="when-it-opened-2">When it opened</h2>"#))
        #expect(html.contains("&lt;h2&gt;not a heading"))
    }

    /// The HTML is kept as bytes: valid UTF-8 with every heading's id written in, before and
    /// after text beyond ASCII, and as text the same bytes. (A page's title is its `<h1>`, so
    /// each heading is a level lower.)
    @Test func theHTMLBytesAreValidUTF8WithTheHeadingIDsIn() {
        let rendered = Markdown.render("# Café 🚇\n\nÉtouffée, 日本語.\n\n## Café 🚇\n\nעברית\n\n### x")
        let expected =
            "<h2 id=\"cafe\">Café 🚇</h2>\n<p>Étouffée, 日本語.</p>\n<h3 id=\"cafe-2\">Café 🚇</h3>\n<p>עברית</p>\n"
            + "<h4 id=\"x\">x</h4>\n"
        #expect(String(validating: rendered.htmlBytes, as: UTF8.self) == expected)
        #expect(rendered.html == expected)
        #expect(Markdown.render("").htmlBytes.isEmpty)
        #expect(String(validating: Markdown.render("No heading, ü").htmlBytes, as: UTF8.self) == "<p>No heading, ü</p>\n")
    }

    @Test func rawHTMLIsOmittedByDefault() {
        let html = Markdown.render("<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> here").html
        #expect(!html.contains("<script"))
        #expect(!html.contains("onerror"))
        #expect(html.contains("<!-- raw HTML omitted -->"))
        #expect(html.contains("Text"))
    }

    @Test func dangerousLinksAreEmptiedByDefault() {
        let source = "[a](javascript:alert(1)) [b](VBScript:x) [c](data:text/html;base64,PHNjcmlwdD4=) [d](java%0Ascript:x)"
        let rendered = Markdown.render(source)
        #expect(!rendered.html.lowercased().contains("javascript:"))
        #expect(!rendered.html.lowercased().contains("vbscript:"))
        #expect(!rendered.html.contains("data:"))
        #expect(rendered.html.contains(#"<a href="">a</a>"#))
    }

    @Test func dangerousSchemesAreFoundThroughCaseSpacesAndControls() {
        for dangerous in [
            "javascript:x", "JavaScript:x", " \tjava\nscript:x", "\u{1}javascript:x", "java\u{7F}script:x",
            "vbscript:x", "DATA:text/html,x", "file:///etc/passwd", "data:", "FiLe:x", "\u{7F}VBScript:x",
        ] {
            #expect(Markdown.isDangerous(dangerous), "\(dangerous.debugDescription) should be dangerous")
        }
        for safe in [
            "", "https://example.org/javascript:x", "javascript", "javascriptx:x", "java%0Ascript:x",
            "j\u{430}vascript:x", "stations/data.html", "../file.html", "#data:", "mailto:x@example.org",
        ] {
            #expect(!Markdown.isDangerous(safe), "\(safe.debugDescription) should be safe")
        }
    }

    @Test func unsafeModeIsAnOptIn() {
        let options = MarkdownOptions(allowsUnsafeHTML: true)
        let html = Markdown.render("<aside>raw</aside>\n\n[x](javascript:go())", options: options).html
        #expect(html.contains("<aside>raw</aside>"))
        #expect(html.contains("javascript:go()"))
    }

    @Test func linksAreCollectedWithTheirLines() {
        let rendered = Markdown.render("Intro\n\nSee [two](02-b.md) and\n![map](../assets/map.png).")
        #expect(rendered.links.map(\.destination) == ["02-b.md", "../assets/map.png"])
        #expect(rendered.links.map(\.line) == [3, 4])
        #expect(rendered.links.map(\.isImage) == [false, true])
    }

    @Test func linksCanBeRewritten() {
        let rendered = Markdown.render("[next](02-b.md#top) [out](https://example.org)") { destination in
            destination.hasPrefix("02-b.md") ? "b.html#top" : nil
        }
        #expect(rendered.html.contains(#"<a href="b.html#top">next</a>"#))
        #expect(rendered.html.contains(#"<a href="https://example.org">out</a>"#))
    }

    @Test func firstListIsSplitOffForChecklists() throws {
        let list = try #require(Markdown.splitFirstList("Pick one.\n\n- Who *Hash*\n- Étouffée\n\nAfter.\n\n- second list"))
        #expect(list.items.map(\.text) == ["Who Hash", "Étouffée"])
        #expect(list.items.map(\.html) == ["Who <em>Hash</em>", "Étouffée"])
        #expect(list.items.map(\.line) == [3, 4])
        #expect(list.introductionHTML.contains("<p>Pick one.</p>"))
        #expect(list.introductionHTML.contains("second list"))
        #expect(!list.introductionHTML.contains("Hash"))
    }

    @Test func documentWithoutListHasNoChecklist() {
        #expect(Markdown.splitFirstList("Just a paragraph.\n\n## Heading") == nil)
    }

    @Test func deeplyNestedMarkdownRenders() {
        let nested = String(repeating: "> ", count: 500) + "deep\n" + String(repeating: "- ", count: 200) + "item"
        #expect(Markdown.render(nested).html.contains("deep"))
    }

    // Documents larger than the Markdown arena's blocks (256 KiB) and buffers past its large-allocation
    // threshold: nodes spill into further blocks, the HTML buffer grows through realloc of a large
    // allocation, and the next document on the same thread starts from reused blocks.
    @Test func largeDocumentsRenderWholeAndTheArenaIsReused() {
        let line = "departure 07:05 & track <4>\n"
        let code = String(repeating: line, count: 20_000)
        let paragraphs = (1...3_000).map { "Stop \($0) has *one* [link](s\($0).md)." }
        let source = "## Timetable\n\n```\n\(code)```\n\n" + paragraphs.joined(separator: "\n\n")
        for _ in 0..<3 {
            let rendered = Markdown.render(source)
            let escapedLine = "departure 07:05 &amp; track &lt;4&gt;\n"
            let expectedParagraphs = (1...3_000).map { "<p>Stop \($0) has <em>one</em> <a href=\"s\($0).md\">link</a>.</p>\n" }
            let expected = "<h2 id=\"timetable\">Timetable</h2>\n<pre><code>" + String(repeating: escapedLine, count: 20_000)
                + "</code></pre>\n" + expectedParagraphs.joined()
            #expect(rendered.html == expected)
            #expect(rendered.links.count == 3_000)
            #expect(rendered.links.last?.destination == "s3000.md")
            #expect(rendered.links.last?.line == 5 + 20_000 + 2 * 2_999 + 1)
            // A small document right after a large one: nothing of the large one shows through.
            #expect(Markdown.render("*small*").html == "<p><em>small</em></p>\n")
        }
    }

    @Test func documentsRenderTheSameOnManyThreadsAtOnce() async {
        let sources = (0..<64).map { index in
            "## Part \(index)\n\n" + String(repeating: "Word \(index) [x](p\(index).md). ", count: 50 * (index % 7 + 1))
        }
        let serial = sources.map { Markdown.render($0).html }
        let parallel = await withTaskGroup(of: (Int, String).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask { (index, Markdown.render(source).html) }
            }
            var results = [String](repeating: "", count: sources.count)
            for await (index, html) in group { results[index] = html }
            return results
        }
        #expect(parallel == serial)
        #expect(serial[3].hasPrefix("<h2 id=\"part-3\">Part 3</h2>\n<p>Word 3 <a href=\"p3.md\">x</a>."))
    }
}
