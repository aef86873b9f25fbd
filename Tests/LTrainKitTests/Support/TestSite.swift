import Foundation
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

/// The package's own folders, found from this file's path.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let content = root + "/content"
    static let templates = root + "/templates"
    static let fixtures = root + "/Tests/LTrainKitTests/Fixtures"
}

/// A site in a fresh temporary folder: `content/`, `templates/` and an output folder, with helpers
/// to build it and read what came out.
final class TestSite {
    let root: String

    var content: String { root + "/content" }
    var templates: String { root + "/templates" }
    var output: String { root + "/_site" }

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ltrain-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = base.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A copy of the default L train site with its templates.
    static func defaultSite() throws -> TestSite {
        let site = try TestSite()
        try site.copy(Repository.content, to: "content")
        try site.copy(Repository.templates, to: "templates")
        return site
    }

    /// A copy of a fixture under Tests/LTrainKitTests/Fixtures/<group> (`sites` or `broken`), with
    /// the default templates unless the fixture brings its own (laid over the built-in ones).
    static func fixture(_ name: String, in group: String = "sites") throws -> TestSite {
        let site = try TestSite()
        let folder = Repository.fixtures + "/" + group + "/" + name
        try site.copy(folder + "/content", to: "content")
        let templates = folder + "/templates"
        try site.copy(FileManager.default.fileExists(atPath: templates) ? templates : Repository.templates, to: "templates")
        return site
    }

    func copy(_ source: String, to relative: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: root + "/" + relative)
    }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    func write(_ relative: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }

    func options(output: String? = nil, force: Bool = false, jobs: Int = 2) -> BuildOptions {
        BuildOptions(
            contentDirectory: content, templatesDirectory: templates, outputDirectory: output ?? self.output,
            force: force, jobs: jobs)
    }

    @discardableResult
    func build(output: String? = nil, force: Bool = false, jobs: Int = 2) throws -> BuildReport {
        try SiteBuild.run(options(output: output, force: force, jobs: jobs))
    }

    /// The diagnostics of a build that must fail, as printed, with this site's folder removed from paths.
    func failures(output: String? = nil, force: Bool = false) -> [String] {
        do {
            _ = try SiteBuild.run(options(output: output, force: force))
            Issue.record("the build was expected to fail")
            return []
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: root + "/", with: "") }
        }
    }

    func page(_ relative: String, in folder: String? = nil) throws -> String {
        try String(contentsOfFile: (folder ?? output) + "/" + relative, encoding: .utf8)
    }

    /// Every file of a folder with its bytes, for comparing whole outputs.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return files }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }
}

/// Small HTML readers for assertions; independent of the generator's own scanner.
enum HTML {
    static func matches(_ pattern: String, in html: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            Issue.record("bad pattern \(pattern)")
            return []
        }
        let range = NSRange(html.startIndex..., in: html)
        return regex.matches(in: html, range: range).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: html).map { String(html[$0]) } ?? ""
            }
        }
    }

    /// `(href, inner HTML)` of every `<a>` whose attributes contain `attribute`.
    static func anchors(with attribute: String, in html: String) -> [(href: String, text: String)] {
        matches(#"<a ([^>]*)>(.*?)</a>"#, in: html).compactMap { match in
            guard match[1].contains(attribute), let href = matches(#"href="([^"]*)""#, in: match[1]).first?[1] else {
                return nil
            }
            return (href, match[2])
        }
    }

    static func text(_ html: String) -> String {
        let stripped = html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        return stripped.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
