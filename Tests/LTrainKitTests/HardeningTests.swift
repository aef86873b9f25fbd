import Dispatch
import Foundation
import Synchronization
import Testing

@testable import LTrainKit

/// Hostile shapes of input found by fuzzing: each test failed (crashed, hung or misreported)
/// before its fix.
@Suite struct HardeningTests {
    // MARK: Deep template nesting

    static let openers = ["{{#x}}", "{{^x}}", "{{$x}}", "{{<parent}}"]

    @Test(arguments: openers)
    func deeplyNestedTemplatesAreAnErrorNotACrash(_ opener: String) throws {
        // 100,000 levels: this overflowed the stack (and took quadratic time) before.
        let source = String(repeating: opener, count: 100_000)
        do {
            _ = try MustacheLibrary(sources: ["station": source, "parent": ""])
            Issue.record("a template nested 100,000 deep must not parse")
        } catch {
            #expect(error.message == "sections nested deeper than \(MustacheParser.maximumNesting) levels")
            let column = MustacheParser.maximumNesting * opener.count + 1
            #expect(error.location == SourceLocation(line: 1, column: column))
            #expect(error.templateName == "station")
        }
    }

    @Test func nestingUpToTheBoundStillWorks() throws {
        let depth = MustacheParser.maximumNesting
        let source = String(repeating: "{{#x}}", count: depth) + "deep" + String(repeating: "{{/x}}", count: depth)
        let output = try MustacheLibrary(sources: ["main": source]).render("main", ["x": true])
        #expect(output == "deep")
    }

    @Test func aBuildNamesTheTemplateNestedTooDeeply() throws {
        let site = try TestSite.defaultSite()
        try site.write("templates/station.mustache", String(repeating: "{{#x}}", count: 10_000))
        let failures = site.failures()
        #expect(failures == ["templates/station.mustache:1:601: error: sections nested deeper than 100 levels\n  hint: close some sections before opening more; a template needs only a few levels"])
    }

    /// Partials multiply nesting: 64 templates, each 99 sections deep around the next. Rendering
    /// stops with an error at its own depth bound instead of running off a rendering thread's stack.
    @Test func renderingDepthIsBoundedAcrossPartialsOnAnyThread() throws {
        var sources: [String: String] = [:]
        let levels = MustacheParser.maximumNesting - 1
        for index in 0..<64 {
            let next = index == 63 ? "end" : "{{>p\(index + 1)}}"
            sources["p\(index)"] = String(repeating: "{{#x}}", count: levels) + next + String(repeating: "{{/x}}", count: levels)
        }
        let library = try MustacheLibrary(sources: sources)
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do throws(MustacheError) {
                _ = try library.render("p0", ["x": true])
                outcomes.withLock { $0.append("rendered") }
            } catch {
                outcomes.withLock { $0.append(error.message) }
            }
        }
        #expect(outcomes.withLock { $0.count } == 2)
        for outcome in outcomes.withLock({ $0 }) {
            #expect(outcome.hasPrefix("templates nest deeper than \(MustacheLibrary.maximumRenderDepth) levels when rendered"))
        }
    }

    // MARK: Linear time

    @Test func identicalHeadingsGetUniqueIDsInLinearTime() {
        // 100,000 equal headings: quadratic probing took minutes.
        let count = 100_000
        let text = String(repeating: "## Stop\n\n", count: count)
        let html = Markdown.render(text).html
        #expect(html.hasPrefix("<h2 id=\"stop\">Stop</h2>\n<h2 id=\"stop-2\">"))
        #expect(html.hasSuffix("<h2 id=\"stop-\(count)\">Stop</h2>\n"))
    }

    @Test func uniqueSlugsSkipSlugsAlreadyTaken() {
        var slugs = UniqueSlugs()
        #expect(["a", "a-2", "a", "a", "b", "a"].map { slugs.claim($0) } == ["a", "a-2", "a-3", "a-4", "b", "a-5"])
    }

    @Test func manyTagsOnOneLineParseInLinearTime() throws {
        // 40,000 partials on one line never finished: every tag's column was counted from the line's start.
        let partials = String(repeating: "{{>p}}", count: 40_000)
        let library = try MustacheLibrary(sources: ["main": partials + "é{{x}}", "p": "-"])
        #expect(try library.render("main", ["x": "!"]) == String(repeating: "-", count: 40_000) + "é!")
        // Columns stay right at the end of a long line with multi-byte text before it.
        do {
            _ = try MustacheLibrary(sources: ["main": String(repeating: "{{a}}é", count: 20_000) + "{{/x}}"])
            Issue.record("an unmatched closing tag must not parse")
        } catch {
            #expect(error.location == SourceLocation(line: 1, column: 20_000 * 6 + 1))
        }
    }

    @Test func longTextTemplatesParseInLinearTime() throws {
        // Text is merged line by line; appending to a copy of the text so far was quadratic.
        let source = String(repeating: "a line of text {{! a comment }}\n", count: 200_000)
        let output = try MustacheLibrary(sources: ["main": source]).render("main", [:])
        #expect(output.utf8.count == 200_000 * 16)
    }

    // MARK: Warnings and errors

    static func frontMatter(unknownKeys: Int, title: Bool = true) -> String {
        var text = "---\n"
        if title { text += "title: Union Square\n" }
        for index in 0..<unknownKeys { text += "extra\(index): x\n" }
        return text + "---\nBody.\n"
    }

    @Test func manyWarningsNeverFailABuild() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", Self.frontMatter(unknownKeys: 51))
        let report = try site.build()
        let warnings = report.warnings.map(\.description)
        #expect(warnings.count == DiagnosticLog.defaultLimit + 1)
        #expect(warnings.last == "warning: 1 more warning not shown (only the first 50 are)")
        #expect(report.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func errorsComeBeforeWarningsAndAreCountedInFull() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", Self.frontMatter(unknownKeys: 60, title: false))
        do throws(BuildFailure) {
            try SiteBuild.run(site.options())
            Issue.record("a station without a title must fail")
        } catch {
            #expect(error.errorCount == 1)
            #expect(error.diagnostics.first?.severity == .error)
            #expect(error.diagnostics.first?.message == "missing 'title' in front matter")
            #expect(error.diagnostics.filter { $0.severity == .error }.count == 1)
            #expect(error.diagnostics.last?.message == "10 more warnings not shown (only the first 50 are)")
        }
        var log = DiagnosticLog(limit: 2)
        for index in 0..<5 { log.report(.error("e\(index)")) }
        #expect(log.errorCount == 5 && log.hasErrors)
        #expect(log.errors.map(\.message) == ["e0", "e1", "3 more errors not shown (only the first 2 are)"])
    }
}
