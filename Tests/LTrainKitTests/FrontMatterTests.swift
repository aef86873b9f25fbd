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

@Suite struct FrontMatterTests {
    @Test func splitsFrontMatterFromBodyWithFileLineNumbers() throws {
        let document = try FrontMatterDocument.parse("---\ntitle: Union Square\nsummary: \"Busy\"\n---\nBody\n")
        #expect(document.body == "Body\n")
        #expect(document.bodyLineOffset == 4)
        guard case .mapping(let pairs, _)? = document.frontMatter else {
            Issue.record("front matter is not a mapping")
            return
        }
        #expect(pairs.map(\.key) == ["title", "summary"])
        #expect(pairs.map(\.keyLocation) == [SourceLocation(line: 2, column: 1), SourceLocation(line: 3, column: 1)])
        #expect(pairs[0].value == .scalar("Union Square", isPlain: true, SourceLocation(line: 2, column: 8)))
        #expect(pairs[1].value == .scalar("Busy", isPlain: false, SourceLocation(line: 3, column: 10)))
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        let document = try FrontMatterDocument.parse("# Title\n---\n")
        #expect(document.frontMatter == nil)
        #expect(document.body == "# Title\n---\n")
        #expect(document.bodyLineOffset == 0)
    }

    @Test func windowsLineEndingsAndDotsFence() throws {
        let document = try FrontMatterDocument.parse("---\r\ntitle: A\r\n...\r\nBody")
        #expect(document.body == "Body")
        #expect(document.bodyLineOffset == 3)
    }

    @Test func fencesAtTheEdgesOfTheFile() throws {
        // A closing fence on the last line, with no newline after it: an empty body.
        let closedAtEnd = try FrontMatterDocument.parse("---\ntitle: A\n--- \t")
        #expect(closedAtEnd.body == "")
        #expect(closedAtEnd.bodyLineOffset == 3)
        #expect(closedAtEnd.frontMatter?.location == SourceLocation(line: 2, column: 1))
        // Empty front matter: no node, the body after it.
        let empty = try FrontMatterDocument.parse("---\n---\nText ü\n")
        #expect(empty.frontMatter == nil)
        #expect(empty.body == "Text ü\n")
        #expect(empty.bodyLineOffset == 2)
        // A lone '---' line is a thematic break, not front matter; so is '----' and '...' first.
        for text in ["---", "----\ntitle: A\n----\n", "...\ntitle: A\n...\n", " ---\ntitle: A\n---\n"] {
            let document = try FrontMatterDocument.parse(text)
            #expect(document.frontMatter == nil && document.body == text, "\(text.debugDescription)")
        }
        // A '---' inside a value's line does not close it; the fence must stand alone.
        let inside = try FrontMatterDocument.parse("---\ntitle: a --- b\n---\nBody")
        #expect(inside.body == "Body")
        #expect(inside.bodyLineOffset == 3)
    }

    @Test func unclosedFrontMatter() {
        #expect {
            _ = try FrontMatterDocument.parse("---\ntitle: A\nBody text\n")
        } throws: { error in
            (error as? YAMLError)?.message == "front matter opened with '---' is never closed"
                && (error as? YAMLError)?.location == SourceLocation(line: 1, column: 1)
        }
    }

    @Test func syntaxErrorsCarryTheWholeFilesLineAndColumn() {
        do {
            _ = try FrontMatterDocument.parse("---\ntitle: A\nsummary: [unclosed\n---\n")
            Issue.record("expected a YAML error")
        } catch {
            #expect(error.message.hasPrefix("YAML syntax error:"))
            #expect(error.location.line == 4)
        }
        do {
            _ = try FrontMatterDocument.parse("---\ntitle: A\n  bad: indent\n---\n")
            Issue.record("expected a YAML error")
        } catch {
            #expect(error.location == SourceLocation(line: 3, column: 6))
        }
    }

    @Test func aliasesAreRefusedSoAliasBombsCannotExpand() {
        let bomb = """
            ---
            a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            title: *c
            ---
            """
        do {
            _ = try FrontMatterDocument.parse(bomb)
            Issue.record("expected the alias to be refused")
        } catch {
            #expect(error.message == "YAML aliases (*name) are not allowed in front matter")
            #expect(error.location == SourceLocation(line: 3, column: 8))
        }
    }

    @Test func nestingIsBounded() {
        let deep = "---\nx: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n---\n"
        #expect(throws: YAMLError.self) { _ = try FrontMatterDocument.parse(deep) }
    }

    @Test func duplicateKeysAreAnError() {
        do {
            _ = try FrontMatterDocument.parse("---\ntitle: A\ntitle: B\n---\n")
            Issue.record("expected a duplicate key error")
        } catch {
            #expect(error.message == "key 'title' appears twice")
            #expect(error.location == SourceLocation(line: 3, column: 1))
        }
    }

    @Test func sourceTextFindsNULAndInvalidUTF8() {
        #expect(SourceText.firstProblem(in: Array("ab\nc\0".utf8)) == .nulByte(SourceLocation(line: 2, column: 2)))
        #expect(SourceText.firstProblem(in: [0x61, 0x0A, 0x62, 0xC3, 0x28]) == .invalidUTF8(SourceLocation(line: 2, column: 2)))
        #expect(SourceText.firstProblem(in: [0xED, 0xA0, 0x80]) == .invalidUTF8(SourceLocation(line: 1, column: 1)))
        #expect(SourceText.firstProblem(in: Array("Étouffée ✓ 🚇".utf8)) == nil)
    }

    /// A text field takes a string or a number, trimmed of white space (Unicode's too); null is
    /// the same as no value; a boolean, a list or a mapping is an error at the value; a control
    /// character (C0, DEL, C1) is an error, white space around it trimmed first.
    @Test func textFieldsTakeStringsAndNumbersTrimmed() throws {
        func read(_ value: String, required: Bool = false) throws -> (text: String?, problems: [String]) {
            var log = DiagnosticLog()
            let node = try YAML.parse("title: \(value)\n")
            let fields = FrontMatterFields(node, path: "a.md", knownKeys: ["title"], noun: "a station", log: &log)
            let text = fields.string("title", required: required, log: &log)
            return (text, log.diagnostics.map(\.message))
        }
        #expect(try read("Union Square").text == "Union Square")
        #expect(try read("\"  Union Square \\t\"").text == "Union Square")
        #expect(try read("\"\\u3000Union\\u00A0\"").text == "Union")
        #expect(try read("\"é \"").text == "é")
        #expect(try read("14").text == "14")
        #expect(try read("1.5e3").text == "1.5e3")
        #expect(try read("\"true\"").text == "true")
        #expect(try read("~").text == nil && read("~").problems.isEmpty)
        #expect(try read("null", required: true).problems == ["'title' is empty"])
        #expect(try read("\"  \"", required: true).problems == ["'title' is empty"])
        #expect(try read("yes").problems == ["'title' must be a string, found a boolean"])
        #expect(try read("[a, b]").problems == ["'title' must be a string, found a list"])
        #expect(try read("\"Union\\x7F\"").problems == ["'title' holds the control character U+007F, which a page cannot show"])
        #expect(try read("\"Union\\u0085Square\"").problems == ["'title' holds the control character U+0085, which a page cannot show"])
        #expect(try read("\"Union\\u0085\"").text == "Union", "NEL is white space: trimmed")
    }

    /// A control character in a title, a summary or a label (a double-quoted escape writes one)
    /// would land raw in every page that shows it: an error at the value's line and column.
    @Test func aControlCharacterInAShownValueIsAnError() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", "---\ntitle: \"Union\\aSquare\"\nsummary: \"Busy \\e[31m\"\n---\nText.\n")
        try site.write("content/index.md", "---\ntitle: L Train\nlabels:\n  done: \"Fertig\\x9B\"\n---\n")
        let failures = site.failures()
        #expect(failures.contains { $0.hasPrefix("content/stations/03-union-square.md:2:8: error: 'title' holds the control character U+0007") })
        #expect(failures.contains { $0.hasPrefix("content/stations/03-union-square.md:3:10: error: 'summary' holds the control character U+001B") })
        #expect(failures.contains { $0.hasPrefix("content/index.md:4:9: error: 'labels.done' holds the control character U+009B") })
        try site.write("content/stations/03-union-square.md", "---\ntitle: \"Union\\tSquare\"\n---\nText.\n")
        try site.write("content/index.md", "---\ntitle: L Train\n---\n")
        #expect(throws: Never.self) { try site.build() }
    }
}
