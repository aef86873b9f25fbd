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

/// What the content folder holds beyond pages: `static/` for the site's root, and files no rule
/// reads, which are named rather than silently left out.
@Suite struct ContentFolderTests {
    func relative(_ site: TestSite, _ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") }
    }

    @Test func staticFilesAreCopiedAsTheyAreToTheRoot() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/static/CNAME", "l.example.org\n")
        try site.write("content/static/.nojekyll", "")
        try site.write("content/static/.well-known/security.txt", "Contact: mailto:a@example.org\n")
        try site.write("content/static/favicon.ico", Data([0, 0, 1, 0, 0xFF]))
        try site.write("content/static/CNAME~", "an editor's backup\n")
        try site.write("content/static/.CNAME.swp", "an editor's swap file\n")
        let report = try site.build()
        #expect(report.warnings.isEmpty)
        #expect(try String(contentsOfFile: site.output + "/CNAME", encoding: .utf8) == "l.example.org\n")
        #expect(FileSystem.kind(of: site.output + "/.nojekyll") == .file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/favicon.ico")) == Data([0, 0, 1, 0, 0xFF]))
        #expect(FileSystem.kind(of: site.output + "/.well-known/security.txt") == .file)
        #expect(FileSystem.kind(of: site.output + "/CNAME~") == .missing)
        #expect(FileSystem.kind(of: site.output + "/.CNAME.swp") == .missing)
        let manifest = try String(contentsOfFile: site.output + "/.ltrain-manifest", encoding: .utf8)
        for path in ["CNAME", ".nojekyll", ".well-known/security.txt", "favicon.ico"] {
            #expect(manifest.contains(" \(path)\n"), "\(path) is not in the manifest")
        }
        // Nothing changed: nothing written. A static file removed is removed from the output.
        #expect(try site.build().written == 0)
        try site.remove("content/static/CNAME")
        let after = try site.build()
        #expect(after.removed == 1)
        #expect(FileSystem.kind(of: site.output + "/CNAME") == .missing)
    }

    @Test func aStaticFileThatWouldReplaceAGeneratedFileIsAnErrorNamingBoth() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/static/index.html", "<p>mine</p>\n")
        try site.write("content/static/stations/union-square.html", "<p>mine</p>\n")
        try site.write("content/static/style.css", "body {}\n")
        let failures = site.failures()
        #expect(failures.contains("content/static/index.html: error: content/static/index.html and content/index.md would both be written to index.html\n  hint: rename one of them"))
        #expect(failures.contains("content/static/stations/union-square.html: error: content/static/stations/union-square.html and content/stations/03-union-square.md would both be written to stations/union-square.html\n  hint: rename one of them"))
        #expect(failures.contains { $0.hasPrefix("content/static/style.css: error: content/static/style.css and templates/style.css would both be written to style.css") })
        let manifest = try TestSite.defaultSite()
        try manifest.write("content/static/.ltrain-manifest", "x\n")
        #expect(manifest.failures() == ["content/static/.ltrain-manifest: error: a static file cannot be named .ltrain-manifest\n  hint: that name is ltrain's record of what it wrote; remove the file"])
    }

    @Test func filesAndFoldersNoRuleReadsAreNamedWithTheNearestName() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/about.md", "---\ntitle: About\n---\nAbout us.\n")
        try site.write("content/station/07-lorimer-street.md", "---\ntitle: Lorimer Street\n---\nA stop.\n")
        try site.write("content/notes.txt", "to do\n")
        try site.write("content/.git/HEAD", "ref: refs/heads/main\n")
        try site.write("content/index.md~", "a backup\n")
        let report = try site.build()
        let reads = "index.md, stations/, checklists/, assets/ and static/ in \(site.content)/"
        #expect(relative(site, report.warnings) == [
            "content/about.md: warning: file is not read by any rule\n  hint: ltrain reads \(reads): a station goes in stations/ as NN-name.md, a checklist in checklists/".replacingOccurrences(of: site.root + "/", with: ""),
            "content/notes.txt: warning: file is not read by any rule\n  hint: ltrain reads \(reads): files linked from pages go in assets/, files for the site's root in static/".replacingOccurrences(of: site.root + "/", with: ""),
            "content/station: warning: folder is not read by any rule (did you mean 'stations'?)\n  hint: ltrain reads \(reads); rename or move the folder".replacingOccurrences(of: site.root + "/", with: ""),
        ])
        #expect(report.stationCount == 6, "the misplaced station is not built")
    }
}
