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
@testable import LTrainSupport

/// Every fixture site builds to exactly the pages in its `expected/` folder, byte for byte: each
/// page and generated file (`*.html`, `sitemap.xml`, `robots.txt`, `manifest.webmanifest`), so
/// that any change to what a page says shows as a diff to review, not only what a regular
/// expression looks for. Theme files are copied as they are and are not kept here.
/// `LTRAIN_RECORD_PAGES=1 swift test --filter ExpectedPagesTests` rewrites the folders.
@Suite struct ExpectedPagesTests {
    static let sites: [String] = {
        let folder = Repository.fixtures + "/sites"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }()

    static func isKept(_ path: String) -> Bool {
        path.hasSuffix(".html") || ["sitemap.xml", "robots.txt", "manifest.webmanifest", "search-index.js"].contains(path)
            || (path.hasPrefix("search/") && path.hasSuffix(".js"))
    }

    @Test func everyFixtureSiteIsCompared() {
        #expect(Self.sites.count >= 4)
    }

    @Test(arguments: sites)
    func aFixtureSiteBuildsToItsExpectedPages(_ name: String) throws {
        let site = try TestSite.fixture(name)
        try site.build()
        let built = TestSite.snapshot(site.output).filter { Self.isKept($0.key) }
        let expectedFolder = Repository.fixtures + "/sites/\(name)/expected"
        if ProcessInfo.processInfo.environment["LTRAIN_RECORD_PAGES"] != nil {
            try? FileManager.default.removeItem(atPath: expectedFolder)
            for (path, bytes) in built {
                let target = expectedFolder + "/" + path
                try FileManager.default.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try bytes.write(to: URL(fileURLWithPath: target))
            }
        }
        let expected = TestSite.snapshot(expectedFolder)
        #expect(!expected.isEmpty, "no expected pages: record them with LTRAIN_RECORD_PAGES=1")
        #expect(built.keys.sorted() == expected.keys.sorted(), "the site's pages and the expected ones differ")
        for (path, bytes) in built.sorted(by: { $0.key < $1.key }) {
            guard let want = expected[path] else { continue }
            if bytes != want {
                let builtLines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let wantLines = String(decoding: want, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(builtLines, wantLines)).firstIndex { $0.0 != $0.1 } ?? min(builtLines.count, wantLines.count)
                let shown = line < builtLines.count ? String(builtLines[line]) : "(end of file)"
                let wanted = line < wantLines.count ? String(wantLines[line]) : "(end of file)"
                Issue.record("\(name)/\(path) differs at line \(line + 1):\n  built:    \(shown)\n  expected: \(wanted)")
            }
        }
    }
}
