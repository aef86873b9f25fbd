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

/// Markdown that is not CommonMark is found where it stands, and CommonMark is never taken for it.
@Suite struct MarkdownNoticesTests {
    func found(_ text: String, unsafe: Bool = false) -> [String] {
        Markdown.notices(in: text, options: MarkdownOptions(allowsUnsafeHTML: unsafe)).map {
            "\($0.kind.rawValue) \($0.line):\($0.column)\($0.more > 0 ? " +\($0.more)" : "")"
        }
    }

    /// Each warning says what the page will show: the claims of its text, checked on the HTML
    /// the same Markdown renders to (smart punctuation on, as a site has it by default).
    @Test func eachWarningSaysWhatThePageShows() {
        func page(_ text: String) -> (html: String, message: String) {
            let rendered = Markdown.render(text)
            return (rendered.html, rendered.notices.first?.message ?? "no notice")
        }
        let table = page("| Line | To |\n|---|:--|\n| L | Canarsie |\n")
        #expect(table.message.contains("one paragraph, its rows run together with every '|'"))
        #expect(table.html.components(separatedBy: "<p>").count == 2 && !table.html.contains("<table"))
        #expect(table.html.components(separatedBy: "|").count - 1 == 9, "every '|' shows")
        let footnotes = page("Old.[^1] New.[^2]\n\n[^1]: Opened in 1924.\n\n[^2]: note\n")
        #expect(footnotes.message.contains("each '[^…]' shows as typed, and each note as a paragraph of its own"))
        #expect(footnotes.message.contains("a note of one word or URL does not show at all"))
        #expect(footnotes.html.contains("Old.[^1] New.[^2]") && !footnotes.html.contains("<a"))
        #expect(footnotes.html.contains("<p>[^1]: Opened in 1924.</p>"))
        #expect(!footnotes.html.contains("note"))
        let strike = page("Was ~~closed~~.\n")
        #expect(strike.message.contains("the tildes show as they are") && strike.html.contains("~~closed~~"))
        let tasks = page("- [ ] Water\n- [x] Hat\n")
        #expect(tasks.message.contains("'[ ]' and '[x]' show as text, with no check box"))
        #expect(tasks.html.contains("[ ] Water") && tasks.html.contains("[x] Hat") && !tasks.html.contains("<input"))
        let bare = page("See https://mta.info today.\n")
        #expect(bare.message.contains("it shows as plain text") && bare.html.contains("https://mta.info") && !bare.html.contains("<a"))
        let raw = page("A <b>bold</b> word.\n")
        #expect(raw.message.contains("raw HTML is omitted") && !raw.html.contains("<b>") && !raw.html.contains("bold</b>"))
    }

    @Test func aGitHubTableIsFoundAtItsFirstRow() {
        #expect(found("Intro.\n\n| Line | Colour |\n|------|:------:|\n| L | grey |\n") == ["table 3:1"])
        #expect(found("Line | Colour\n--- | ---\nL | grey\n") == ["table 1:1"])
        #expect(found("Two tables.\n\n| a | b |\n|---|---|\n\n| c | d |\n| - | - |\n") == ["table 3:1 +1"])
        #expect(found("A line with a | in it.\n\nAnd --- dashes.\n").isEmpty)
        #expect(found("```\n| a | b |\n|---|---|\n```\n").isEmpty, "inside code it is code")
    }

    @Test func footnotesAreFoundAsDefinitionsAndReferences() {
        #expect(found("Old station.[^1]\n\n[^1]: Opened 1924.\n") == ["footnote 1:13 +2"])
        // A definition cmark reads as a link definition: the reference becomes a link to 'note'.
        #expect(found("Old station.[^1]\n\n[^1]: note\n") == ["footnote 1:13 +1"])
        #expect(found("Undefined note[^x] here.\n") == ["footnote 1:15"])
        #expect(found("`[^1]` in code.\n\n    [^1]: in an indented block\n").isEmpty)
        // In a fenced code block, also one inside a quote or a list: code, not a definition.
        #expect(found("```\n[^1]: in a fence\n```\n").isEmpty)
        #expect(found("> ```\n> [^1]: in a quoted fence\n> ```\n").isEmpty)
        #expect(found("- item\n\n  ~~~\n  [^1]: in a listed fence\n  ~~~\n").isEmpty)
        #expect(found("```\ncode\n```\n\n[^1]: after the fence\n") == ["footnote 5:1 +1"], "the definition, and its text as a paragraph")
        #expect(found("    [^1]: four spaces in: code\n\n   [^2]: three: a definition\n") == ["footnote 3:4 +1"])
    }

    @Test func strikethroughTaskItemsAndBareURLs() {
        #expect(found("Was ~~closed~~ open.\n") == ["strikethrough 1:5"])
        #expect(found("- [ ] Buy a MetroCard\n- [x] Top it up\n- plain\n") == ["taskListItem 1:3 +1"])
        #expect(found("1. [X] done\n") == ["taskListItem 1:4"])
        #expect(found("See https://mta.info for times.\n") == ["bareURL 1:5"])
        #expect(found("Or www.mta.info.\n") == ["bareURL 1:4"])
        #expect(found("[MTA](https://mta.info) and <https://mta.info> are links.\n").isEmpty)
        #expect(found("`https://mta.info` in code, ~~ in `~~code~~`.\n") == ["strikethrough 1:29"])
        #expect(found("- [link](x.md) is a link, not a task\n").isEmpty)
    }

    @Test func rawHTMLIsFoundOnlyWhenItIsOmitted() {
        #expect(found("Text <b>bold</b> here.\n\n<div>block</div>\n") == ["omittedHTML 1:6 +2"])
        #expect(found("Text <b>bold</b> here.\n", unsafe: true).isEmpty)
        #expect(found("A < B and 3 <4.\n").isEmpty, "a lone '<' is text")
    }

    /// Only the first of each kind is located: one paragraph of 100,000 lines, each with a tag
    /// of its own, takes linear time (locating every tag searched the paragraph from its start
    /// for that tag's text: quadratic).
    @Test func aHundredThousandNoticesInOneParagraphAreCountedNotEachLocated() {
        let text = (0..<100_000).map { "a <b data-n=\"\($0)\">c</b> ~~d~~\n" }.joined()
        let notices = Markdown.notices(in: text)
        #expect(notices.map { "\($0.kind.rawValue) \($0.line):\($0.column) +\($0.more)" } == [
            "omittedHTML 1:3 +199999", "strikethrough 1:23 +99999",
        ])
    }

    @Test func plainCommonMarkHasNoNoticesAndIsNotParsedTwice() {
        let text = "## Where it is\n\nUnion Square, [next](04-third-avenue.md). *Busy* at 5 pm.\n\n- one\n- two\n"
        #expect(found(text).isEmpty)
        #expect(!Markdown.mayHoldNotices(text, options: MarkdownOptions()))
        #expect(Markdown.mayHoldNotices("a | b", options: MarkdownOptions()))
        // A link's destination is not a bare URL: a text of links is not parsed twice.
        let links = "See [the MTA](https://new.mta.info/) and [maps](http://www.mta.info/maps). It flows.\n"
        #expect(!Markdown.mayHoldNotices(links, options: MarkdownOptions()))
        #expect(Markdown.mayHoldNotices("See https://mta.info.", options: MarkdownOptions()))
        #expect(Markdown.mayHoldNotices("See www.mta.info.", options: MarkdownOptions()))
    }

    /// A whole build: each file's first notice of each kind at file:line:column (counting the
    /// front matter), with what to write instead; the build succeeds, and says so every time.
    @Test func aBuildWarnsAtTheFileLineAndColumnAndStillBuilds() throws {
        let site = try TestSite.defaultSite()
        try site.write(
            "content/stations/03-union-square.md",
            "---\ntitle: Union Square\n---\n## Lines\n\n| Line | To |\n|---|---|\n| L | Canarsie |\n\nWas ~~closed~~.[^1]\n\n[^1]: note\n")
        try site.write("content/checklists/pack.md", "---\ntitle: Pack\n---\n- [ ] Water\n- [ ] Hat\n")
        for _ in 0..<2 {
            // The footnote's reference stays the text it was written as: no link to 'note' to break.
            let report = try site.build()
            #expect(report.warnings.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") } == [
                "content/stations/03-union-square.md:6:1: warning: tables are not CommonMark: this one shows as one paragraph, its rows run together with every '|' in them\n  hint: write the rows as a list, or (with unsafe_html: true in index.md) as an HTML <table>",
                "content/stations/03-union-square.md:10:5: warning: '~~strikethrough~~' is not CommonMark: the tildes show as they are\n  hint: write <del>…</del> with unsafe_html: true in index.md, or reword it",
                "content/stations/03-union-square.md:10:16: warning: footnotes are not CommonMark: each '[^…]' shows as typed, and each note as a paragraph of its own (a note of one word or URL does not show at all) (1 more in this file)\n  hint: write the note in the text, in parentheses, or link to a heading: [see below](#notes)",
                "content/checklists/pack.md:4:3: warning: task-list items are not CommonMark: '[ ]' and '[x]' show as text, with no check box (1 more in this file)\n  hint: write the rows without '[ ]': every row of a checklist can be ticked already",
            ])
        }
    }

    /// The render finds the notices of the pages it renders; those of pages kept from the last
    /// build (and of a build with nothing to render) are looked for apart: every build shows the
    /// same warnings, whatever it rendered.
    @Test func keptPagesKeepTheirWarnings() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", "---\ntitle: Union Square\n---\nWas ~~closed~~.\n")
        try site.write("content/stations/05-first-avenue.md", "---\ntitle: First Avenue\n---\nSee https://mta.info.\n")
        func warnings(_ report: BuildReport) -> [String] {
            report.warnings.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") }
        }
        let expected = [
            "content/stations/03-union-square.md:4:5: warning: '~~strikethrough~~' is not CommonMark: the tildes show as they are\n  hint: write <del>…</del> with unsafe_html: true in index.md, or reword it",
            "content/stations/05-first-avenue.md:4:5: warning: a bare URL is not a link in CommonMark: it shows as plain text\n  hint: put it in angle brackets, <https://example.org/>, or write [a label](https://example.org/)",
        ]
        let first = try site.build()
        #expect(first.rendered > 0 && warnings(first) == expected)
        // Another station edited: Union Square's and First Avenue's info pages are kept.
        try site.write("content/stations/04-third-avenue.md", "---\ntitle: Third Avenue\n---\nEdited.\n")
        let second = try site.build()
        #expect(second.rendered < first.rendered && warnings(second) == expected)
        let third = try site.build()
        #expect(third.rendered == 0 && warnings(third) == expected)
    }

    /// A build that fails after the model (here a template's error) still lists the notices.
    @Test func aFailedBuildListsTheNoticesToo() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", "---\ntitle: Union Square\n---\nWas ~~closed~~.\n")
        try site.write("templates/station.mustache", "{{#broken}}\n")
        let failures = site.failures()
        #expect(failures.contains { $0.contains("station.mustache") && $0.contains("error:") })
        #expect(failures.contains { $0.hasPrefix("content/stations/03-union-square.md:4:5: warning: '~~strikethrough~~'") })
    }

    /// However many notices a site has, 50 warnings are shown and the rest counted exactly.
    @Test func manyNoticesAreCountedAndFiftyShown() throws {
        let site = try TestSite.defaultSite()
        for number in 1...60 {
            try site.write(
                "content/stations/\(String(format: "%02d", number + 10))-stop-\(number).md",
                "---\ntitle: Stop \(number)\n---\nWas ~~closed~~ at https://mta.info.\n")
        }
        let report = try site.build()
        #expect(report.warnings.count == 51)
        #expect(report.warnings.last?.message == "70 more warnings not shown (only the first 50 are)")
        #expect(try site.build().warnings.last?.message == "70 more warnings not shown (only the first 50 are)")
    }

    @Test func aFootnoteReferenceIsNotALinkToItsNote() {
        let rendered = Markdown.render("Old.[^1] See [^x].\n\n[^1]: note\n")
        #expect(rendered.html == "<p>Old.[^1] See [^x].</p>\n")
        #expect(rendered.links.isEmpty)
        #expect(Markdown.render("[^a](x.html) [b](y.html)\n").links.map(\.destination) == ["x.html", "y.html"])
    }

    @Test func theFixtureSitesRawHTMLIsNamed() throws {
        let site = try TestSite.fixture("tram")
        let report = try site.build()
        #expect(report.warnings.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") } == [
            "content/checklists/pick-a-seat.md:6:1: warning: raw HTML is omitted: unsafe_html is off\n  hint: write it in Markdown, or set unsafe_html: true in index.md if the HTML is yours and trusted"
        ])
    }
}
