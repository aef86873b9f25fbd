import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainModel
@testable import LTrainRoute
@testable import LTrainWrite
@testable import LTrainServe
@testable import LTrainSupport

/// A site under test as a chain of what an author does and what they should then see, in the
/// spirit of mdBook's `BookTest`:
///
///     try SiteTest.fixture("tram")
///         .serve()
///         .editing("content/stations/02-x.md") { $0 + "\nMore.\n" }
///         .served("info/x.html", contains: "More.")
///         .servedAsBuilt()
///
/// Each step records a failed expectation at the caller's line and returns the test, so the
/// chain goes on and shows every difference at once. Edits are written to disk; a preview
/// started with `serve()` rebuilds for the files changed since its last rebuild before anything
/// served is read.
final class SiteTest {
    let site: TestSite
    /// The warnings of the last build, as printed, with the site's folder left out of paths.
    private(set) var warnings: [String] = []
    private var preview: PreviewSession?
    private var changedSinceServed: Set<String> = []

    private init(_ site: TestSite) {
        self.site = site
    }

    static func fixture(_ name: String) throws -> SiteTest { SiteTest(try TestSite.fixture(name)) }
    static func defaultSite() throws -> SiteTest { SiteTest(try TestSite.defaultSite()) }

    private func printed(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") }
    }

    // MARK: What the author does

    /// Writes `text` to `path` (relative to the site's folder: `content/…`, `templates/…`).
    @discardableResult
    func writing(_ path: String, _ text: String) throws -> SiteTest {
        try site.write(path, text)
        changedSinceServed.insert(site.root + "/" + path)
        return self
    }

    /// Changes the text of the file at `path`.
    @discardableResult
    func editing(_ path: String, _ change: (String) -> String) throws -> SiteTest {
        try writing(path, change(try String(contentsOfFile: site.root + "/" + path, encoding: .utf8)))
    }

    @discardableResult
    func removing(_ path: String) throws -> SiteTest {
        try site.remove(path)
        changedSinceServed.insert(site.root + "/" + path)
        return self
    }

    // MARK: Build

    /// Builds into the site's output folder; a failed build is recorded.
    @discardableResult
    func build(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        do throws(BuildFailure) {
            warnings = printed(try SiteBuild.run(site.options()).warnings)
        } catch {
            Issue.record("the build failed: \(printed(error.diagnostics))", sourceLocation: sourceLocation)
        }
        return self
    }

    /// The built page (or file) at `path` holds each of `texts`.
    @discardableResult
    func page(_ path: String, contains texts: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        guard let text = try? site.page(path) else {
            Issue.record("the build wrote no \(path)", sourceLocation: sourceLocation)
            return self
        }
        for expected in texts where !text.contains(expected) {
            Issue.record("\(path) does not hold \(expected.debugDescription)", sourceLocation: sourceLocation)
        }
        return self
    }

    /// Some warning of the last build or rebuild holds `text`.
    @discardableResult
    func warned(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        if !warnings.contains(where: { $0.contains(text) }) {
            Issue.record("no warning holds \(text.debugDescription): \(warnings)", sourceLocation: sourceLocation)
        }
        return self
    }

    /// No warning at all.
    @discardableResult
    func noWarnings(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        if !warnings.isEmpty { Issue.record("warnings: \(warnings)", sourceLocation: sourceLocation) }
        return self
    }

    // MARK: Serve

    /// Starts `ltrain serve`'s session on the site (in memory, no HTTP), or rebuilds it for the
    /// files changed since; a problem is recorded.
    @discardableResult
    func serve(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        let outcome: PreviewSession.Outcome
        if let preview {
            outcome = preview.rebuild(changed: changedSinceServed)
        } else {
            var options = ServeOptions()
            options.contentDirectory = site.content
            options.templatesDirectory = site.templates
            let started = PreviewSession(options: options)
            preview = started
            outcome = started.rebuild()
        }
        changedSinceServed = []
        warnings = printed(outcome.warnings)
        if !outcome.problems.isEmpty {
            Issue.record("serve failed: \(printed(outcome.problems))", sourceLocation: sourceLocation)
        }
        return self
    }

    /// The preview, rebuilt for what changed since it last was.
    private func servedFiles(sourceLocation: Testing.SourceLocation) -> [String: [UInt8]] {
        if preview == nil || !changedSinceServed.isEmpty { serve(sourceLocation: sourceLocation) }
        return preview?.servedFiles ?? [:]
    }

    /// The page (or file) served at `path` holds each of `texts`.
    @discardableResult
    func served(_ path: String, contains texts: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        guard let bytes = servedFiles(sourceLocation: sourceLocation)[path] else {
            Issue.record("serve has no \(path)", sourceLocation: sourceLocation)
            return self
        }
        let text = String(decoding: bytes, as: UTF8.self)
        for expected in texts where !text.contains(expected) {
            Issue.record("served \(path) does not hold \(expected.debugDescription)", sourceLocation: sourceLocation)
        }
        return self
    }

    /// Every file served is byte for byte what a fresh build of the same sources writes (the
    /// offline list, which the preview never registers, and the manifest left out).
    @discardableResult
    func servedAsBuilt(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SiteTest {
        let served = servedFiles(sourceLocation: sourceLocation)
        let output = site.root + "/fresh-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: output) }
        do throws(BuildFailure) {
            try SiteBuild.run(site.options(output: output))
        } catch {
            Issue.record("a fresh build failed: \(printed(error.diagnostics))", sourceLocation: sourceLocation)
            return self
        }
        var built: Set<String> = []
        for path in FileSystem.filesBelow(output) where path != Manifest.fileName && path != Routes.offlineListPath {
            built.insert(path)
            let bytes = try? FileSystem.read(joinPath(output, path), limit: 1 << 26)
            if served[path] != bytes { Issue.record("served \(path) differs from a fresh build", sourceLocation: sourceLocation) }
        }
        for path in Set(served.keys).subtracting(built).sorted() {
            Issue.record("serve has \(path), which a fresh build does not write", sourceLocation: sourceLocation)
        }
        return self
    }
}
