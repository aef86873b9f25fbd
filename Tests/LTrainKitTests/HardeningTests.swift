import Dispatch
import Foundation
import Synchronization
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

    @Test func aLongChainOfTemplatesIsWalkedWithoutRecursion() throws {
        // 20,000 templates including the next, the last the first: a recursive walk that copied
        // its path at every step overflowed the stack or took minutes.
        let count = 20_000
        var sources: [String: String] = [:]
        for index in 0..<count { sources["t\(index)"] = "{{>t\((index + 1) % count)}}" }
        let cycles = try MustacheLibrary(sources: sources).unconditionalCycles()
        #expect(cycles.count == 1)
        #expect(cycles.first?.count == count)
        #expect(cycles.first?.first?.location == SourceLocation(line: 1, column: 1))
        // A small cycle is still named in order, each with the include it follows.
        let small = try MustacheLibrary(sources: ["a": "x{{>b}}", "b": "{{#s}}{{>a}}{{/s}}{{>c}}", "c": "{{>a}}"])
            .unconditionalCycles()
        #expect(small.map { $0.map(\.name) } == [["a", "b", "c"]])
        #expect(small.first?.map(\.location.column) == [2, 19, 1])
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

    // MARK: Files that are not what they seem

    @Test func anIndexLinkedOutOfTheContentFolderIsRefused() throws {
        let site = try TestSite.defaultSite()
        let outside = try TestSite()
        try outside.write("index.md", "---\ntitle: Leaked\n---\nA secret that must not appear.\n")
        try site.remove("content/index.md")
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/index.md", withDestinationPath: outside.root + "/index.md")
        let failures = site.failures()
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("content/index.md: error: symbolic link points outside its folder") == true)
    }

    @Test func aStationLinkedToTheIndexIsRefused() throws {
        let site = try TestSite.defaultSite()
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/stations/09-home.md", withDestinationPath: "../index.md")
        // (Its front matter also draws a warning as a station's: the index's keys mean nothing there.)
        #expect(
            site.failures().first
                == "content/stations/09-home.md: error: is the same file as content/index.md (through a symbolic link): one file cannot be both the index and a station\n  hint: copy the file instead of linking to it"
        )
    }

    @Test func aChecklistLinkedToAStationIsRefusedAndTwoStationsMayShareAFile() throws {
        let site = try TestSite.defaultSite()
        let checklists = try FileManager.default.contentsOfDirectory(atPath: site.content + "/checklists").sorted()
        let stations = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations").sorted()
        let checklist = try #require(checklists.first)
        try site.remove("content/checklists/" + checklist)
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/checklists/" + checklist, withDestinationPath: "../stations/" + stations[1])
        // A second station through a link to the same file has the same role: no error of its own.
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/stations/00-again.md", withDestinationPath: stations[1])
        let sameFile = site.failures().filter { $0.contains("is the same file") }
        #expect(
            sameFile == [
                "content/checklists/\(checklist): error: is the same file as content/stations/00-again.md (through a symbolic link): one file cannot be both a station and a checklist\n  hint: copy the file instead of linking to it"
            ])
    }

    /// A symbolic link loop is named as one, at the link: a station, a template, the checklists
    /// folder (which read as no checklists) and the content folder itself (which "did not exist").
    @Test func aSymbolicLinkLoopIsNamedAsOne() throws {
        let loop = "symbolic link loop: following it leads back to a link it passed"
        func link(_ site: TestSite, _ relative: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: site.root + "/" + relative, withDestinationPath: target)
        }
        for (first, second) in [("content/stations/09-loop.md", "content/stations/x.md"), ("templates/extra.mustache", "templates/x")] {
            let site = try TestSite.defaultSite()
            try link(site, first, to: lastPathComponent(second))
            try link(site, second, to: lastPathComponent(first))
            let failures = site.failures()
            #expect(failures.contains { $0.hasPrefix("\(first): error: \(loop)") }, "\(failures)")
        }
        let site = try TestSite.defaultSite()
        try FileManager.default.removeItem(atPath: site.content + "/checklists")
        try link(site, "content/checklists", to: "lists")
        try link(site, "content/lists", to: "checklists")
        #expect(site.failures().contains { $0.hasPrefix("content/checklists: error: \(loop)") })

        let outside = try TestSite()
        try link(outside, "a", to: outside.root + "/b")
        try link(outside, "b", to: outside.root + "/a")
        var options = site.options()
        options.contentDirectory = outside.root + "/a"
        #expect(throws: BuildFailure.self) { try SiteBuild.run(options) }
        do { _ = try SiteBuild.run(options) } catch {
            #expect(error.diagnostics.map(\.message) == ["the content folder is a symbolic link loop: following it leads back to a link it passed"])
        }
    }

    @Test func anIndexLinkedInsideTheContentFolderWorks() throws {
        let site = try TestSite.defaultSite()
        try FileManager.default.moveItem(atPath: site.content + "/index.md", toPath: site.content + "/home.md")
        try FileManager.default.createSymbolicLink(atPath: site.content + "/index.md", withDestinationPath: "home.md")
        let report = try site.build()
        #expect(report.stationCount > 0)
    }

    /// A FIFO where a file is expected: reading it blocked forever; as a template it was ignored.
    @Test(arguments: ["content/index.md", "content/stations/09-pipe.md", "templates/station.mustache", "content/assets/pipe.png"])
    func specialFilesAreNamedNeverOpened(_ relative: String) throws {
        let site = try TestSite.defaultSite()
        if FileManager.default.fileExists(atPath: site.root + "/" + relative) { try site.remove(relative) }
        try FileManager.default.createDirectory(
            atPath: (site.root + "/" + relative as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(site.root + "/" + relative, 0o644) == 0)
        #expect(
            site.failures() == [
                "\(relative): error: is not a regular file or folder (a FIFO, socket or device)\n  hint: remove it, or replace it with an ordinary file"
            ])
    }

    @Test func readingASpecialFileFailsAtOnce() throws {
        let site = try TestSite()
        #expect(mkfifo(site.root + "/pipe", 0o644) == 0)
        #expect(throws: FileSystemError.self) { try FileSystem.read(site.root + "/pipe", limit: 100) }
    }

    @Test func aNULEscapeInFrontMatterIsAnError() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/03-union-square.md", "---\ntitle: \"\\0Union\"\n---\nBody.\n")
        #expect(
            site.failures() == [
                "content/stations/03-union-square.md:2:8: error: value contains a NUL character (written as an escape such as \\0 or \\x00)\n  hint: remove the escape; NUL bytes are not allowed in any text"
            ])
    }

    @Test func manyFrontMatterKeysAndItemsParseInLinearTime() throws {
        // Adding to a mapping or list copied it, and duplicate keys were searched one by one.
        let keys = (0..<50_000).map { "k\($0): v" }.joined(separator: "\n")
        guard case .mapping(let pairs, _)? = try YAML.parse(keys) else {
            Issue.record("expected a mapping")
            return
        }
        #expect(pairs.count == 50_000)
        let items = "[" + Array(repeating: "x", count: 100_000).joined(separator: ", ") + "]"
        guard case .sequence(let values, _)? = try YAML.parse(items) else {
            Issue.record("expected a sequence")
            return
        }
        #expect(values.count == 100_000)
        #expect(throws: YAMLError.self) { try YAML.parse("a: 1\nb: 2\na: 3\n") }
    }

    // MARK: What is printed is what is there

    @Test func controlCharactersInPathsAndMessagesCannotForgeLines() {
        let forged = Diagnostic.error(
            "bad \u{1B}[31mred", path: "content/stations/07-x\nfake.md:1:1: error: all is lost.md",
            hint: "a\u{202E}b")
        #expect(
            forged.description
                == "content/stations/07-x\\nfake.md:1:1: error: all is lost.md: error: bad \\u{1B}[31mred\n  hint: a\\u{202E}b")
        #expect(forged.description.split(separator: "\n").count == 2)
    }

    @Test func aFileNameThatIsNotUTF8IsNamedAsSuch() throws {
        let site = try TestSite.defaultSite()
        let name = Array((site.content + "/stations/07-x").utf8) + [0xFF] + Array(".md".utf8)
        let descriptor = name.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                var terminated = Array(characters)
                terminated.append(0)
                return open(terminated, O_CREAT | O_WRONLY, 0o644)
            }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        #expect(
            site.failures() == [
                "content/stations/07-x\\xFF.md: error: file name is not valid UTF-8\n  hint: rename it: file names become page names and links, which are UTF-8 text"
            ])
    }

    @Test func aStationNumberThatIsTooLongIsSaidSo() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/\(String(repeating: "1", count: 40))-long.md", "---\ntitle: Long\n---\n")
        #expect(
            site.failures() == [
                "content/stations/\(String(repeating: "1", count: 40))-long.md: error: station number is too long: each part of it may have at most 9 digits\n  hint: renumber it with fewer digits; numbers only order the stations, like 03 or 03.1"
            ])
        #expect(SiteBuilder.hasOverlongNumber("03.1234567890-x.md"))
        #expect(!SiteBuilder.hasOverlongNumber("123456789.1-x.md"))
    }

    // MARK: The right file blamed

    @Test(arguments: [false, true])
    func aBrokenLinkInTheLayoutIsReportedOnceAtTheLayout(changesDelimiters: Bool) throws {
        let site = try TestSite.defaultSite()
        var layout = try String(contentsOfFile: site.templates + "/layout.mustache", encoding: .utf8)
        let link = "<link rel=\"icon\" href=\"missing-icon.png\">\n"
        layout = layout.replacingOccurrences(of: "</head>\n", with: link + "</head>\n")
        if changesDelimiters { layout = "{{=<% %>=}}\n" + layout.replacingOccurrences(of: "{{", with: "<%").replacingOccurrences(of: "}}", with: "%>") }
        try site.write("templates/layout.mustache", layout)
        let lines = layout.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (lines.firstIndex { $0.contains("missing-icon.png") } ?? 0) + 1
        let failures = site.failures()
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.hasPrefix("templates/layout.mustache:\(line):24: error: link 'missing-icon.png' on ") == true)
    }

    @Test func thousandsOfBrokenTemplateLinksAreLocatedInLinearTime() throws {
        // Each broken link was looked for by searching the templates' text: 20,000 distinct ones in
        // a layout took minutes. Now every attribute value is indexed once per template.
        let site = try TestSite.defaultSite()
        var layout = try String(contentsOfFile: site.templates + "/layout.mustache", encoding: .utf8)
        let links = (0..<20_000).map { "<a href=\"missing-\($0).html\">x</a>" }.joined(separator: "\n")
        layout = layout.replacingOccurrences(of: "</body>", with: links + "\n</body>")
        try site.write("templates/layout.mustache", layout)
        let failures = site.failures()
        #expect(failures.count == DiagnosticLog.defaultLimit + 1)
        #expect(failures.first?.hasPrefix("templates/layout.mustache:") == true)
        #expect(failures.last?.hasPrefix("error: 19950 more errors not shown") == true)
        let source = TemplateSource(path: "t", text: "<a href=\"a.html\">\n<img src='é/b.png'> <a href=c.html>")
        #expect(source.location(of: "a.html") == SourceLocation(line: 1, column: 10))
        #expect(source.location(of: "é/b.png") == SourceLocation(line: 2, column: 11))
        #expect(source.location(of: "c.html") == SourceLocation(line: 2, column: 29))
        #expect(source.location(of: "b.png") == nil)
    }

    // MARK: A malformed tag is reported where it is

    @Test func aTagLeftOpenIsReportedAtItsOwnPosition() throws {
        // It used to swallow the next tag's close and be reported as "section {{$content}} is
        // never closed" at the section's line, far from the mistake.
        let site = try TestSite.defaultSite()
        let station = try String(contentsOfFile: site.templates + "/station.mustache", encoding: .utf8)
        var lines = station.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(lines.firstIndex { $0.contains("more-info") && $0.contains("{{info_href}}") })
        lines[line] = lines[line].replacingOccurrences(of: "{{info_href}}", with: "{{info_href}")
        try site.write("templates/station.mustache", lines.joined(separator: "\n"))
        let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: "{{info_href}")!.lowerBound) + 1
        #expect(
            site.failures() == [
                "templates/station.mustache:\(line + 1):\(column): error: tag '{{info_href}' is not closed before the next tag\n  hint: end it with '}}'"
            ])
        do {
            _ = try MustacheLibrary(sources: ["main": "a {{title b {{next}} c"])
            Issue.record("a tag left open before the next one must not parse")
        } catch {
            #expect(error.message == "tag '{{title b' is not closed before the next tag")
            #expect(error.location == SourceLocation(line: 1, column: 3))
        }
        // Comments may span lines; other tags with spaces inside still work.
        #expect(try MustacheLibrary(sources: ["main": "{{! a\ncomment }}{{ title }}"]).render("main", ["title": "x"]) == "x")
    }

    // MARK: Found by the fuzz targets

    @Test func serveRefusesAPathWithANULAfterDecoding() {
        // Foundation's String.contains stopped at the NUL, so this climbed out as "..\0x".
        #expect(PreviewSession.sitePath(forRequest: "/..\u{0}x") == .refused(status: 400, text: "Bad path.\n"))
        #expect(PreviewSession.sitePath(forRequest: "/index.html\u{0}.txt") == .refused(status: 400, text: "Bad path.\n"))
        #expect(PreviewSession.sitePath(forRequest: "/a\\b") == .refused(status: 400, text: "Bad path.\n"))
        #expect(PreviewSession.sitePath(forRequest: "//$/") == .file("$/index.html"))
        #expect(PreviewSession.sitePath(forRequest: "/stations//a.html") == .file("stations/a.html"))
        // A combining mark after a '/' makes one Character of them; the '..' before it still climbs.
        #expect(PreviewSession.sitePath(forRequest: "/../\u{301}x") == .refused(status: 403, text: "Paths may not climb out of the site.\n"))
        #expect(PreviewSession.sitePath(forRequest: "/") == .file("index.html"))
    }

    /// The inputs libFuzzer found against serve's paths are kept in its corpus, each by name, and
    /// each is answered with a file inside the site.
    @Test(arguments: [("found-double-slash", "index.html"), ("found-double-slash-dollar", "$/index.html")])
    func serveAnswersTheInputsTheFuzzerFound(_ name: String, _ expected: String) throws {
        let input = try String(contentsOfFile: Repository.root + "/Fuzz/Corpus/ServePath/" + name, encoding: .utf8)
        #expect(PreviewSession.sitePath(forRequest: input) == .file(expected))
    }

    @Test func aManifestWithNumbersTooLargeIsDamagedNotWrappedOrATrap() {
        let good = "ltrain manifest 3\n0a 12 34 - - index.html\n"
        #expect(Manifest(text: good)?.entries["index.html"]?.size == 12)
        // 2^64 wraps to 0 and 2^63 does not fit an Int: both were read as numbers before.
        #expect(Manifest(text: "ltrain manifest 3\n0a 18446744073709551616 34 - - index.html\n") == nil)
        #expect(Manifest(text: "ltrain manifest 3\n0a 9223372036854775808 34 - - index.html\n") == nil)
        #expect(Manifest(text: "ltrain manifest 3\nsources 0a 99999999999999999999 1 1\n") == nil)
    }
}
