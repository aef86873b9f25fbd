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

/// Every broken fixture under Fixtures/broken fails its build with exactly the messages in its
/// `expected.txt` (paths relative to the fixture), and leaves the previous output untouched.
@Suite struct BrokenSiteTests {
    static let cases: [String] = {
        let folder = Repository.fixtures + "/broken"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }()

    @Test func thereIsAFixtureForEveryCase() {
        #expect(Self.cases.count >= 16)
    }

    @Test(arguments: cases)
    func brokenFixtureReportsExactlyItsExpectedMessages(_ name: String) throws {
        let site = try TestSite.fixture(name, in: "broken")
        // A previous good build sits in the output; the failing build must leave it byte for byte.
        let goodSite = try TestSite.defaultSite()
        try goodSite.build(output: site.output)
        let before = TestSite.snapshot(site.output)

        let actual = site.failures().joined(separator: "\n")
        let expectedPath = Repository.fixtures + "/broken/\(name)/expected.txt"
        // LTRAIN_RECORD_DIAGNOSTICS=1 writes what the build said next to each fixture, for review.
        if ProcessInfo.processInfo.environment["LTRAIN_RECORD_DIAGNOSTICS"] != nil {
            try (actual + "\n").write(toFile: expectedPath + ".actual", atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(actual == expected)
        #expect(TestSite.snapshot(site.output) == before, "the previous output is untouched")
        #expect(!FileManager.default.fileExists(atPath: site.root + "/._site.ltrain-staging"), "no staging left")
    }
}
