import Testing

@testable import LTrainMarkdown
import LTrainSupport

/// The notice scan and the footnote pass do work in proportion to the text, whatever its shape:
/// each pathological input is scanned at one size and at four times that size, and the work
/// counted (bytes and nodes read, never time) may grow at most 4.5 times. What is found is
/// checked too, so a scan that skipped the work would fail as well.
@Suite struct MarkdownGrowthTests {
    /// The notices of `text`, as `kind line:column +more`, and the work the scan did.
    func scan(_ text: String, unsafe: Bool = false) -> (found: [String], work: Int) {
        var work = 0
        let notices = Markdown.notices(in: text, options: MarkdownOptions(allowsUnsafeHTML: unsafe), work: &work)
        return (notices.map { "\($0.kind.rawValue) \($0.line):\($0.column) +\($0.more)" }, work)
    }

    /// Scans `make(n)` and `make(4n)`: the larger may cost at most 4.5 times the smaller, and at
    /// least 3 times (so the count does see the text grow). Returns both scans' notices.
    func expectLinear(
        _ n: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ make: (Int) -> String
    ) -> (small: [String], large: [String]) {
        let small = scan(make(n))
        let large = scan(make(4 * n))
        let ratio = Double(large.work) / Double(max(1, small.work))
        #expect(ratio <= 4.5 && ratio >= 3, "work grew \(ratio)× for 4× the input", sourceLocation: sourceLocation)
        return (small.found, large.found)
    }

    @Test func aHundredThousandBareURLsOnOneLine() {
        let found = expectLinear(25_000) { n in
            (0..<n).map { "see https://example.org/\($0)" }.joined(separator: " ") + "\n"
        }
        #expect(found.small == ["bareURL 1:5 +0"], "one text node: counted once")
        #expect(found.large == ["bareURL 1:5 +0"])
    }

    @Test func aOneMegabyteTable() {
        let found = expectLinear(6_000) { rows in
            "| Line | Colour | To |\n|---|:---:|--:|\n"
                + (0..<rows).map { "| L\($0) | grey | Canarsie |\n" }.joined()
        }
        #expect(found.small == ["table 1:1 +0"])
        #expect(found.large == ["table 1:1 +0"])
        // The larger one is about a megabyte.
        #expect((0..<24_000).map { "| L\($0) | grey | Canarsie |\n" }.joined().utf8.count > 600_000)
    }

    @Test func fiftyThousandOpeningBrackets() {
        let found = expectLinear(12_500) { n in String(repeating: "[", count: n) + " [x] [^ done\n" }
        #expect(found.small == ["footnote 1:12506 +0"])
        #expect(found.large == ["footnote 1:50006 +0"])
        // Opening brackets that start a footnote each, on one line.
        _ = expectLinear(12_500) { n in String(repeating: "[^", count: n) + "\n" }
    }

    @Test func eightThousandFootnotes() {
        let found = expectLinear(2_000) { n in
            (1...n).map { "Note\($0)[^\($0)] and a link [^x\($0)](https://example.com)." }.joined(separator: "\n")
                + "\n\n" + (1...n).map { "[^\($0)]: Footnote \($0)." }.joined(separator: "\n") + "\n"
        }
        // Each line's reference and link, and each definition (a line of text to cmark, since
        // `Footnote 1.` is no link destination and title) found in the tree and by line: 4n.
        #expect(found.small == ["footnote 1:6 +7999"])
        #expect(found.large == ["footnote 1:6 +31999"])
    }

    @Test func everyKindInEveryParagraph() {
        let paragraph =
            "| a | b |\n|---|---|\n\nWas ~~closed~~ at https://mta.info <b>now</b>.[^1]\n\n- [ ] Milk\n\n<div>x</div>\n\n[^1]: note\n\n"
        let found = expectLinear(1_000) { n in String(repeating: paragraph, count: n) }
        #expect(found.small == [
            "table 1:1 +999", "strikethrough 4:5 +999", "bareURL 4:19 +999", "omittedHTML 4:36 +2999",
            "footnote 4:47 +1999", "taskListItem 6:3 +999",
        ])
    }

    /// Each notice is located where it stands, also far into a file, on a line of non-ASCII
    /// text (columns count Unicode scalars) and never inside code.
    @Test func noticesAreLocatedInTheirOwnNode() {
        let text = """
            Intro line.

            Ünïcode `~~code~~` then ~~struck~~ and `https://code` then https://bare.example here.

            - plain
            - [x] Done, 東京 <kbd>K</kbd>
            """
        #expect(scan(text).found == [
            "strikethrough 3:25 +0", "bareURL 3:60 +0", "taskListItem 6:3 +0", "omittedHTML 6:16 +1",
        ])
        // A word before the scheme (in any script) is no bare URL; a space or punctuation is.
        #expect(scan("東京https://a.example x\n").found.isEmpty)
        #expect(scan("東京 https://a.example x\n").found == ["bareURL 1:4 +0"])
        #expect(scan("(see www.a.example)\n").found == ["bareURL 1:6 +0"])
        #expect(scan("https:// alone\n").found.isEmpty)
        // Lines end where cmark ends them: `\r\n` and a lone `\r` too.
        #expect(scan("One\r\nTwo\r\n\r\nWas ~~closed~~.\r\n").found == ["strikethrough 4:5 +0"])
        #expect(scan("One\rTwo\r\rWas ~~closed~~.\r\r[^1]: note\r").found == ["strikethrough 4:5 +0", "footnote 6:1 +0"])
        // In parentheses in prose it is still bare; a link's destination and an autolink are not.
        #expect(scan("Times (https://mta.info) here.\n").found == ["bareURL 1:8 +0"])
        #expect(scan("Maps (www.mta.info).\n").found == ["bareURL 1:7 +0"])
        #expect(scan("[Times](https://mta.info) and <https://mta.info>.\n").found.isEmpty)
    }

    /// A page's render finds its notices in its own walk, after footnote references are put back
    /// as text: the same kinds and counts as a parse of their own, whatever a footnote's label holds.
    @Test func theRenderFindsWhatAScanOfItsOwnFinds() {
        for text in [
            "Old.[^~~a~~] and [^https://x.example].\n\n[^~~a~~]: https://x.example\n[^https://x.example]: y\n",
            "Note[^1] ~~struck~~ https://bare.example <b>x</b>\n\n[^1]: https://n.example\n\n| a | b |\n|---|---|\n",
            "- [ ] task [^2]\n\n[^2]: z\n",
        ] {
            let alone = Markdown.notices(in: text).map { "\($0.kind) +\($0.more)" }
            let rendered = Markdown.render(text).notices.map { "\($0.kind) +\($0.more)" }
            #expect(alone.sorted() == rendered.sorted(), "\(text)")
            #expect(!alone.isEmpty)
            let listed = Markdown.splitFirstList(text)?.notices.map { "\($0.kind) +\($0.more)" }
            #expect(listed == nil || listed?.sorted() == alone.sorted())
        }
    }

    @Test func delimiterRows() {
        func isRow(_ line: String) -> Bool {
            var line = line
            return line.withUTF8 { NoticeScan.isTableDelimiterRow($0) }
        }
        #expect(isRow("|---|:--:|"))
        #expect(isRow("--- | ---"))
        #expect(isRow(" | :-- | --: | "))
        #expect(!isRow("---"), "no pipe: a thematic break")
        #expect(!isRow("| --- | text |"))
        #expect(!isRow("| --- || --- |"), "an empty cell inside")
        #expect(!isRow("|  |"))
    }

    /// The footnote pass puts `[^1]` back as text in one pass, however many there are: the
    /// definitions are gathered once, not searched for each reference.
    @Test func theFootnotePassIsLinear() {
        func unlink(_ n: Int) -> (html: String, work: Int) {
            let text = (1...n).map { "Note[^\($0)] and [^x](https://example.com)." }.joined(separator: "\n")
                + "\n\n" + (1...n).map { "[^\($0)]: https://example.org/\($0)" }.joined(separator: "\n") + "\n"
            return (Markdown.render(text).html, Markdown.footnotePassWork(text))
        }
        let small = unlink(2_000)
        let large = unlink(8_000)
        let ratio = Double(large.work) / Double(small.work)
        #expect(ratio <= 4.5 && ratio >= 3, "work grew \(ratio)× for 4× the footnotes")
        #expect(large.html.contains("Note[^8000] and"), "a defined footnote's reference is text again")
        #expect(!large.html.contains("href=\"https://example.org/8000\""))
        #expect(large.html.contains("<a href=\"https://example.com\">^x</a>"), "an undefined one stays a link")
    }
}
