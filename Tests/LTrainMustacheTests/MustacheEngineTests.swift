import Testing

@testable import LTrainMustache
import LTrainSupport

/// The engine's own tests, one or more per area of the Mustache spec, so a machine without the
/// spec files still tests every feature ltrain's templates rely on.
@Suite struct MustacheEngineTests {
    func render(_ template: String, _ data: MustacheValue = [:], partials: [String: String] = [:]) throws -> String {
        var sources = partials
        sources["main"] = template
        return try MustacheLibrary(sources: sources).render("main", data)
    }

    // MARK: Interpolation

    /// Text held as UTF-8 bytes (a page's Markdown HTML) renders exactly as the same text held as
    /// a String: escaped in `{{ }}`, as it is in `{{{ }}}` and `{{& }}`, truthy when empty, as a
    /// section's context and as a dynamic partial's name.
    @Test func textHeldAsBytesRendersAsTheSameString() throws {
        let texts = ["", "plain", "<p>Caf\u{E9} & \"quotes\" 'single' > 日本語 🚇</p>", "a\u{0}b"]
        let template = "[{{text}}][{{{text}}}][{{&text}}][{{#text}}yes{{/text}}][{{^text}}no{{/text}}][{{#text}}{{.}}{{/text}}]"
        for text in texts {
            let asString = try render(template, ["text": .string(text)])
            let asBytes = try render(template, ["text": .utf8(Array(text.utf8))])
            #expect(asBytes == asString, "\(text.debugDescription)")
        }
        #expect(
            try render("{{text}}", ["text": .utf8(Array("<a href=\"x\">".utf8))]) == "&lt;a href=&quot;x&quot;&gt;")
        #expect(try render("{{{text}}}", ["text": .utf8(Array("<b>é</b>".utf8))]) == "<b>é</b>")
        #expect(try render("{{>*name}}", ["name": .utf8(Array("part".utf8))], partials: ["part": "from the part"]) == "from the part")
    }

    /// An object of one field per file of a site's static folder: finding every field reads a
    /// bounded number of fields each, so 40,000 cost at most 4.5 times what 10,000 do (counted,
    /// not timed). Names compare as Strings in a large object too.
    @Test func findingAFieldOfALargeObjectReadsABoundedNumberOfFields() {
        func fieldsRead(_ count: Int) -> Int {
            var object = MustacheObject(minimumCapacity: count)
            for number in 0..<count { object["static/d\(number % 50)/file-\(number).txt"] = .int(number) }
            #expect(object.count == count)
            #expect(object["static/d7/file-7.txt"] == .int(7))
            #expect(object["static/d7/file-\(count).txt"] == nil)
            return (0..<count).reduce(0) { $0 + object.fieldsRead(findingName: "static/d\($1 % 50)/file-\($1).txt") }
        }
        let small = fieldsRead(10_000)
        let large = fieldsRead(40_000)
        #expect(small >= 10_000 && Double(large) / Double(small) <= 4.5, "\(small) → \(large) fields read")
        var accented = MustacheObject()
        for number in 0..<100 { accented["caf\u{E9}-\(number)"] = .int(number) }
        #expect(accented["cafe\u{301}-99"] == .int(99))
        accented["cafe\u{301}-5"] = nil
        #expect(accented.count == 99 && accented["caf\u{E9}-5"] == nil && accented["caf\u{E9}-6"] == .int(6))
    }

    @Test func objectsSetReplaceAndRemoveFieldsAtAnySize() throws {
        var object: MustacheObject = ["a": 1, "b": "two", "a": 3]
        #expect(object.count == 2)
        #expect(object["a"] == 3)
        object["b"] = nil
        #expect(object["b"] == nil && object.count == 1)
        // Many fields, set, replaced and removed in any order.
        for number in 0..<40 { object["field\(number)"] = .int(number) }
        #expect(object.count == 41)
        for number in 0..<40 { #expect(object["field\(number)"] == .int(number)) }
        object["field7"] = "seven"
        for number in stride(from: 0, to: 40, by: 2) { object["field\(number)"] = nil }
        #expect(object.count == 21)
        #expect(object["field7"] == "seven")
        #expect(object["field8"] == nil)
        #expect(object["field39"] == 39)
        for number in 0..<40 { object["field\(number)"] = nil }
        #expect(object.count == 1 && object["a"] == 3)
        #expect(try render("{{a}} {{field7}}", .object(object)) == "3 ")
        // Names are compared as Strings: a decomposed é finds a precomposed one, in a template too.
        var accented: MustacheObject = ["caf\u{E9}": "precomposed"]
        #expect(accented["cafe\u{301}"] == "precomposed")
        accented["cafe\u{301}"] = "replaced"
        #expect(accented.count == 1 && accented["caf\u{E9}"] == "replaced")
        #expect(try render("{{cafe\u{301}}}", .object(accented)) == "replaced")
        #expect(accented["cafe"] == nil)
        // Equal whatever the order the fields were set in.
        #expect(MustacheValue.object(["x": 1, "y": 2]) == .object(["y": 2, "x": 1]))
        #expect(MustacheValue.object(["x": 1, "y": 2]) != .object(["x": 1, "y": 3]))
        #expect(MustacheValue.object(["x": 1]) != .object(["x": 1, "y": 2]))
    }

    @Test func escapesHTMLInValues() throws {
        let output = try render("<h1>{{title}}</h1>", ["title": "Q & A <Street> \"quoted\" 'single'"])
        #expect(output == "<h1>Q &amp; A &lt;Street&gt; &quot;quoted&quot; &#39;single&#39;</h1>")
        // Specials first, last and side by side, among multi-byte characters.
        #expect(try render("{{v}}", ["v": "&é<<—>'"]) == "&amp;é&lt;&lt;—&gt;&#39;")
        #expect(try render("[{{v}}]", ["v": ""]) == "[]")
        #expect(try render("{{v}}", ["v": "Straße — ok"]) == "Straße — ok")
    }

    /// Every special byte at every place of values of every length up to 20, among bytes one bit
    /// away from a special one and multi-byte characters (whose bytes are 0xA6, 0xBC… with the
    /// high bit set), escaped as a plain character-by-character escape would.
    @Test func escapingFindsEverySpecialByteAtEveryPlace() throws {
        func plainEscape(_ text: String) -> String {
            var escaped = ""
            for character in text {
                switch character {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                case "'": escaped += "&#39;"
                default: escaped.append(character)
                }
            }
            return escaped
        }
        let fillers = ["x", "%", "$", ".", "=", "?", "Ŧ", "æ"]
        for length in 0..<20 {
            for special in ["&", "<", ">", "\"", "'"] {
                for place in 0...length {
                    var parts = (0..<length).map { fillers[$0 % fillers.count] }
                    parts.insert(special, at: place)
                    let value = parts.joined()
                    #expect(try render("{{v}}", ["v": .string(value)]) == plainEscape(value), "\(value)")
                }
            }
        }
    }

    @Test func rawFormsDoNotEscape() throws {
        #expect(try render("{{{html}}}|{{& html}}", ["html": "<b>&</b>"]) == "<b>&</b>|<b>&</b>")
    }

    @Test func numbersBooleansAndMissingValues() throws {
        #expect(try render("{{a}} {{b}} {{c}} [{{missing}}]", ["a": 85, "b": .double(1.21), "c": true]) == "85 1.21 true []")
    }

    @Test func dottedNamesResolveFromTheFirstPartOnly() throws {
        let data: MustacheValue = ["a": ["b": [:]], "b": ["c": "ERROR"]]
        #expect(try render("{{#a}}[{{b.c}}]{{/a}}", data) == "[]")
        #expect(try render("{{person.name}}", ["person": ["name": "Joe"]]) == "Joe")
    }

    @Test func nonASCIIAndWhitespaceInTags() throws {
        #expect(try render("{{  name  }} Étouffée", ["name": "Bubba Gump Shrimp"]) == "Bubba Gump Shrimp Étouffée")
    }

    // MARK: Sections

    @Test func sectionsIterateListsAndPushObjects() throws {
        let data: MustacheValue = ["rows": [["t": "a"], ["t": "b"]], "one": ["t": "x"], "no": false]
        #expect(try render("{{#rows}}<{{t}}>{{/rows}}{{#one}}{{t}}{{/one}}{{#no}}hidden{{/no}}", data) == "<a><b>x")
    }

    @Test func implicitIteratorAndScalarSections() throws {
        #expect(try render("{{#list}}{{.}},{{/list}}", ["list": ["a", "b"]]) == "a,b,")
        #expect(try render("{{#name}}[{{.}}]{{/name}}", ["name": "Joe"]) == "[Joe]")
    }

    @Test func invertedSectionsRenderForFalseyValues() throws {
        let data: MustacheValue = ["empty": [], "no": false, "yes": true]
        #expect(try render("{{^empty}}E{{/empty}}{{^no}}N{{/no}}{{^missing}}M{{/missing}}{{^yes}}Y{{/yes}}", data) == "ENM")
    }

    @Test func standaloneLinesAreRemoved() throws {
        let template = "<ul>\n  {{#rows}}\n  <li>{{.}}</li>\n  {{/rows}}\n</ul>\n"
        #expect(try render(template, ["rows": ["a", "b"]]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
    }

    @Test func standaloneLinesWithWindowsLineEndings() throws {
        #expect(try render("|\r\n{{#b}}\r\n{{/b}}\r\n|", ["b": true]) == "|\r\n|")
    }

    // MARK: Comments and delimiters

    @Test func commentsVanishIncludingMultilineStandalone() throws {
        #expect(try render("a{{! note }}b\n{{!\nlong\n}}\nc") == "ab\nc")
    }

    @Test func setDelimiters() throws {
        #expect(try render("{{=<% %>=}}<% name %> {{name}} <%={{ }}=%>{{name}}", ["name": "x"]) == "x {{name}} x")
    }

    // MARK: Partials

    @Test func partialsUseTheCurrentContextAndIndentStandaloneLines() throws {
        let output = try render(
            "<div>\n  {{>row}}\n</div>", ["t": "a\nb"], partials: ["row": "<p>\n{{t}}\n</p>\n"])
        // The partial's lines are indented; the value's own newline is not.
        #expect(output == "<div>\n  <p>\n  a\nb\n  </p>\n</div>")
    }

    @Test func missingPartialRendersNothingButIsReportedAsAReference() throws {
        let library = try MustacheLibrary(sources: ["main": "a{{>nope}}b"])
        #expect(try library.render("main", [:]) == "ab")
        #expect(library.references(in: "main").map(\.name) == ["nope"])
        #expect(library.references(in: "main").first?.location == SourceLocation(line: 1, column: 2))
    }

    @Test func recursivePartialsStopAtTheDepthLimit() throws {
        let library = try MustacheLibrary(sources: ["a": "{{>b}}", "b": "{{>a}}"])
        #expect {
            _ = try library.render("a", [:])
        } throws: { error in
            guard let error = error as? MustacheError else { return false }
            return error.message.contains("partials include each other without end") && error.message.contains("a → b")
        }
    }

    @Test func dataBoundedRecursionIsFine() throws {
        let data: MustacheValue = ["c": "X", "nodes": [["c": "Y", "nodes": []]]]
        #expect(try render("{{>node}}", data, partials: ["node": "{{c}}<{{#nodes}}{{>node}}{{/nodes}}>"]) == "X<Y<>>")
    }

    // MARK: Inheritance and dynamic names

    @Test func layoutBlocksAreReplacedByTheCaller() throws {
        let layout = "<title>{{$title}}Default{{/title}}</title>\n{{$body}}{{/body}}"
        let page = "{{<layout}}\n{{$title}}Union Square{{/title}}\n{{$body}}\n<main>{{text}}</main>\n{{/body}}\n{{/layout}}\n"
        #expect(try render(page, ["text": "hi"], partials: ["layout": layout]) == "<title>Union Square</title>\n<main>hi</main>\n")
    }

    @Test func outermostOverrideWinsAcrossLevels() throws {
        let partials = ["parent": "{{<older}}{{$a}}p{{/a}}{{/older}}", "older": "{{$a}}o{{/a}}"]
        #expect(try render("{{<parent}}{{$a}}c{{/a}}{{/parent}}", partials: partials) == "c")
        #expect(try render("{{<parent}}{{/parent}}", partials: partials) == "p")
    }

    @Test func blockContentIsReindentedAtItsSite() throws {
        let output = try render(
            "{{<parent}}{{$block}}\n    one\n    two\n{{/block}}{{/parent}}\n",
            partials: ["parent": "Hi,\n  {{$block}}\n  {{/block}}\n"])
        #expect(output == "Hi,\n  one\n  two\n")
    }

    @Test func dynamicPartialNamesComeFromTheContext() throws {
        #expect(try render("[{{>*kind}}]", ["kind": "card"], partials: ["card": "C"]) == "[C]")
        #expect(try render("[{{>*missing}}]", partials: ["card": "C"]) == "[]")
    }

    // MARK: Compiled programs

    /// A page template (a layout with blocks, partials, sections over lists and objects, inverted
    /// sections, escaped and raw values) renders through a compiled program, and writes what the
    /// walk of its nodes writes: the same bytes, and the same places of raw `.utf8` values.
    @Test func aPageTemplateIsCompiledAndRendersAsTheWalk() throws {
        let sources = [
            "layout": "<html>\n<title>{{$title}}Default{{/title}}</title>\n  {{$body}}{{/body}}\n{{>footer}}\n</html>\n",
            "footer": "{{#site.footer}}<footer>{{site.footer}}</footer>{{/site.footer}}\n",
            "page": """
                {{<layout}}
                {{$title}}{{title}}{{/title}}
                {{$body}}
                <h1>{{title}}</h1>
                {{#previous}}<a href="{{href}}">{{title}} {{site.back}}</a>{{/previous}}
                {{^previous}}<span>first</span>{{/previous}}
                <ul>
                {{#rows}}
                  <li>{{.}}</li>
                {{/rows}}
                </ul>
                {{{body}}}|{{&body}}|{{body}}
                {{/body}}
                {{/layout}}
                """,
        ]
        let library = try MustacheLibrary(sources: sources)
        #expect(library.isCompiled("page") && library.isCompiled("layout") && library.isCompiled("footer"))
        let pages: [MustacheValue] = [
            [
                "title": "Union Sq & 14 St", "rows": ["L", "<4>", "N"], "body": .utf8(Array("<p>café</p>".utf8)),
                "previous": ["title": "8 Av", "href": "8-av.html"], "site": ["back": "Back", "footer": "L train"],
            ],
            ["title": "8 Av", "rows": [], "body": .utf8([]), "site": ["back": "Back"]],
            ["title": .int(3), "rows": [.double(1.5), .bool(true), .null], "previous": .bool(false), "site": [:]],
        ]
        for data in pages {
            let compiled = try library.renderTemplate("page", data)
            #expect(try library.render("page", data) == library.renderByWalk("page", data))
            // Through the walk: the caller's item memory makes the library walk the nodes.
            let walked = try library.renderTemplate("page", data, itemMemory: ForgetfulItemMemory())
            #expect(compiled.bytes == walked.bytes)
            #expect(compiled.rawUTF8Ranges == walked.rawUTF8Ranges)
        }
        let first = try library.render("page", pages[0])
        #expect(first.contains("<a href=\"8-av.html\">8 Av Back</a>"))
        #expect(first.contains("  <li>&lt;4&gt;</li>\n"))
        #expect(first.contains("<p>café</p>|<p>café</p>|&lt;p&gt;café&lt;/p&gt;"))
        #expect(first.contains("<footer>L train</footer>"))
    }

    /// What only rendering can settle is left to the walk: a partial named by a value, a partial
    /// that includes itself (ended by the data), a chain of includes deeper than the walk allows
    /// (which it reports), and includes that multiply past a program's bound.
    @Test func templatesOnlyRenderingCanSettleAreWalked() throws {
        let dynamic = try MustacheLibrary(sources: ["main": "[{{>*kind}}]", "card": "C"])
        #expect(!dynamic.isCompiled("main") && dynamic.isCompiled("card"))
        #expect(try dynamic.render("main", ["kind": "card"]) == "[C]")

        let tree = try MustacheLibrary(sources: ["node": "{{c}}<{{#nodes}}{{>node}}{{/nodes}}>"])
        #expect(!tree.isCompiled("node"))
        #expect(try tree.render("node", ["c": "X", "nodes": [["c": "Y", "nodes": []]]]) == "X<Y<>>")

        let cycle = try MustacheLibrary(sources: ["a": "{{>b}}", "b": "{{>a}}"])
        #expect(!cycle.isCompiled("a"))
        #expect(throws: MustacheError.self) { _ = try cycle.render("a", [:]) }

        // Each level includes the next twice: 2^17 copies of the last, past `maximumSteps`.
        var doubling: [String: String] = ["level17": "{{x}}"]
        for level in 0..<17 { doubling["level\(level)"] = "{{>level\(level + 1)}}{{>level\(level + 1)}}" }
        let large = try MustacheLibrary(sources: doubling)
        #expect(!large.isCompiled("level0") && large.isCompiled("level10"))
        #expect(try large.render("level0", ["x": "ab"]).utf8.count == 2 << 17)

        // Ten levels that each include the next sixteen times and write nothing: 2^40 includes,
        // never rendered. Compiling stops at `maximumVisits` (this test would not end otherwise),
        // leaving them to the walk.
        var silent: [String: String] = ["step10": ""]
        for level in 0..<10 {
            silent["step\(level)"] = String(repeating: "{{>step\(level + 1)}}", count: 16)
        }
        let unused = try MustacheLibrary(sources: silent)
        #expect(!unused.isCompiled("step0") && !unused.isCompiled("step5") && unused.isCompiled("step6"))
        // Rendered, the walk stops at `maximumIncludes` with an error naming the chain.
        #expect {
            _ = try unused.render("step4", [:])
        } throws: { error in
            guard let error = error as? MustacheError else { return false }
            return error.message.contains("include each other more than 2097152 times for one page (through ")
                && error.message.contains("step5 → step6") && error.hint?.contains("fewer times") == true
        }
    }

    // MARK: Errors

    func parseError(_ template: String) -> MustacheError? {
        do {
            _ = try MustacheLibrary(sources: ["page": template])
            return nil
        } catch {
            return error
        }
    }

    @Test func unclosedSectionNamesTheTagAndWhereItOpened() {
        let error = parseError("line one\n  {{#rows}}\n<li>")
        #expect(error?.message == "section {{#rows}} is never closed")
        #expect(error?.location == SourceLocation(line: 2, column: 3))
        #expect(error?.hint == "add {{/rows}} where the section ends")
    }

    @Test func mismatchedClosingTag() {
        let error = parseError("{{#a}}\n{{#b}}\n{{/c}}")
        #expect(error?.message == "closing tag {{/c}} does not match {{#b}} opened at line 2, column 1")
        #expect(error?.location == SourceLocation(line: 3, column: 1))
    }

    @Test func closingAnOuterSectionBlamesTheUnclosedInnerOne() {
        let error = parseError("{{#a}}\n  {{#b}}\n{{/a}}")
        #expect(error?.message == "section {{#b}} is never closed (found {{/a}} at line 3, column 1 first)")
        #expect(error?.location == SourceLocation(line: 2, column: 3))
    }

    @Test func aPrivateCopyRendersTheSame() throws {
        let sources = [
            "layout": "<title>{{$title}}Default{{/title}}</title>\n{{$body}}{{/body}}\n",
            "page": "{{<layout}}{{$title}}{{name}}{{/title}}{{$body}}\n  {{>row}}\n{{/body}}{{/layout}}",
            "row": "{{#items}}<li>{{.}}</li>{{/items}}", "broken": "{{#open}}",
        ]
        let (library, errors) = MustacheLibrary.parseAll(sources)
        #expect(errors.count == 1)
        let copy = library.privateCopy()
        let data: MustacheValue = ["name": "Union Sq & 14 St", "items": ["L", "4", "N"]]
        #expect(try copy.render("page", data) == library.render("page", data))
        #expect(try copy.render("page", data).contains("<title>Union Sq &amp; 14 St</title>"))
        // The template that did not parse stays out of the copy too.
        #expect(copy.names == library.names && !copy.contains("broken"))
    }

    @Test func unclosedTagAndStrayClose() {
        #expect(parseError("x {{name")?.message == "tag opened with '{{' is never closed")
        #expect(parseError("{{/x}}")?.message == "closing tag {{/x}} has no matching opening tag")
        #expect(parseError("{{=<% %>}}")?.message == "set-delimiter tag must end with '='")
    }
}

/// Keeps nothing: a render given it walks the nodes, as `ltrain serve`'s index page does.
private final class ForgetfulItemMemory: MustacheItemMemory {
    func keptItems(of section: MustacheListSection, items: [MustacheValue]) -> [[UInt8]?]? { nil }
    func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue]) {}
}
