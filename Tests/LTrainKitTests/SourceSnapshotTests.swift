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

/// A rebuild whose sources carry the same file stamps as the ones the output was built from reads
/// nothing; any change to a source, a setting or the output makes it read everything again.
@Suite struct SourceSnapshotTests {
    /// Build options that trust stamps at once (the default waits until files are two seconds old).
    func options(_ site: TestSite, change: (inout BuildOptions) -> Void = { _ in }) -> BuildOptions {
        var options = site.options()
        options.sourceSettleSeconds = 0
        change(&options)
        return options
    }

    /// Rewrites a file and moves its modification time a minute ahead, so its stamp differs even
    /// if the file system's clock has not ticked since the last write.
    func rewrite(_ site: TestSite, _ relative: String, _ text: String) throws {
        try site.write(relative, text)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: site.root + "/" + relative)
    }

    @Test func unchangedSourcesAreNotEvenRead() throws {
        let site = try TestSite.defaultSite()
        let first = try SiteBuild.run(options(site))
        #expect(!first.sourcesUnchanged && first.rendered == 15)
        let built = TestSite.snapshot(site.output)

        let second = try SiteBuild.run(options(site))
        #expect(second.sourcesUnchanged)
        #expect(second.rendered == 0 && second.written == 0 && second.removed == 0)
        #expect(second.unchanged == first.fileCount)
        #expect(second.stationCount == first.stationCount && second.infoPageCount == first.infoPageCount)
        #expect(second.checklistCount == first.checklistCount)
        #expect(TestSite.snapshot(site.output) == built, "nothing in the output was touched")
        #expect(!FileManager.default.fileExists(atPath: site.root + "/._site.ltrain-staging"))
    }

    @Test func anEditOfTheSameSizeIsSeen() throws {
        let site = try TestSite.defaultSite()
        try SiteBuild.run(options(site))
        let path = "content/stations/04-third-avenue.md"
        let original = try String(contentsOfFile: site.root + "/" + path, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "title: Third Avenue", with: "title: Third Avenuf")
        #expect(edited.utf8.count == original.utf8.count && edited != original)
        try rewrite(site, path, edited)
        let report = try SiteBuild.run(options(site))
        #expect(!report.sourcesUnchanged)
        #expect(report.rendered > 0)
        #expect(try site.page("stations/third-avenue.html").contains("Third Avenuf"))
    }

    @Test func addedRemovedAndTemplateFilesAreSeen() throws {
        let site = try TestSite.defaultSite()
        try SiteBuild.run(options(site))
        // A file no page uses still changes the snapshot: nothing is ignored on trust.
        try site.write("content/.notes", "to do")
        let added = try SiteBuild.run(options(site))
        #expect(!added.sourcesUnchanged && added.written == 0)
        try site.remove("content/.notes")
        try SiteBuild.run(options(site))
        try rewrite(site, "templates/style.css", "body { color: red }\n")
        let styled = try SiteBuild.run(options(site))
        #expect(!styled.sourcesUnchanged)
        #expect(try site.page("style.css") == "body { color: red }\n")
    }

    @Test func changedSettingsAreSeen() throws {
        let site = try TestSite.defaultSite()
        try SiteBuild.run(options(site))
        #expect(try SiteBuild.run(options(site)).sourcesUnchanged)
        let drafts = try SiteBuild.run(options(site) { $0.includeDrafts = true })
        #expect(!drafts.sourcesUnchanged)
        let published = try SiteBuild.run(options(site) { $0.baseURL = "https://example.org/" })
        #expect(!published.sourcesUnchanged && published.written > 0)
        #expect(FileManager.default.fileExists(atPath: site.output + "/sitemap.xml"))
    }

    @Test func anOutputFileEditedByHandIsRestored() throws {
        let site = try TestSite.defaultSite()
        try SiteBuild.run(options(site))
        let page = try site.page("index.html")
        try site.write("_site/index.html", "edited by hand")
        let report = try SiteBuild.run(options(site))
        #expect(!report.sourcesUnchanged)
        #expect(report.written == 1)
        #expect(try site.page("index.html") == page)
    }

    @Test func buildsWithWarningsAreNeverSkipped() throws {
        let site = try TestSite.defaultSite()
        let path = "content/stations/04-third-avenue.md"
        let original = try String(contentsOfFile: site.root + "/" + path, encoding: .utf8)
        try site.write(path, original.replacingOccurrences(of: "title: Third Avenue", with: "title: Third Avenue\ncolour: grey"))
        let first = try SiteBuild.run(options(site))
        #expect(first.warnings.count == 1)
        let second = try SiteBuild.run(options(site))
        #expect(!second.sourcesUnchanged)
        #expect(second.warnings.map(\.message) == first.warnings.map(\.message), "the warning is shown again")
    }

    @Test func freshFilesAreNotTrustedUntilTheySettle() throws {
        let site = try TestSite.defaultSite()
        var waiting = site.options()
        waiting.sourceSettleSeconds = 3600
        try SiteBuild.run(waiting)
        #expect(!(try SiteBuild.run(waiting)).sourcesUnchanged)
        // Such a build records no snapshot, and a rebuild that finds nothing to write records
        // none either (it writes nothing, not even the manifest): the next real change does.
        #expect(!(try SiteBuild.run(options(site))).sourcesUnchanged)
        try site.write("content/.notes", "to do")
        #expect(!(try SiteBuild.run(options(site))).sourcesUnchanged)
        #expect(!(try SiteBuild.run(options(site))).sourcesUnchanged)
        try site.write("content/stations/04-third-avenue.md", "---\ntitle: Third Avenue\n---\nShorter.\n")
        #expect(try SiteBuild.run(options(site)).written > 0)
        #expect(try SiteBuild.run(options(site)).sourcesUnchanged)
    }

    @Test func snapshotsFollowEveryStampAndRefuseLinks() throws {
        let site = try TestSite.defaultSite()
        func take() -> SourceSnapshot? {
            SourceSnapshot.take(folders: [site.content, site.templates], settings: ["a"], settleSeconds: 0)
        }
        let before = try #require(take())
        #expect(take() == before)
        #expect(SourceSnapshot.take(folders: [site.content, site.templates], settings: ["b"], settleSeconds: 0) != before)
        // A folder that is missing is part of the snapshot, not a reason to give up.
        let missing = SourceSnapshot.take(folders: [site.content, site.root + "/nowhere"], settings: [], settleSeconds: 0)
        #expect(missing != nil)
        try FileManager.default.createDirectory(atPath: site.content + "/assets/empty", withIntermediateDirectories: true)
        #expect(take()?.hash != before.hash, "a new folder changes the snapshot")
        // Settled or not is judged against the build's start, whenever the snapshot is taken: a
        // file written after a build started never counts as settled for that build.
        let started = SourceSnapshot.now()
        try site.write("content/index.md", try String(contentsOfFile: site.content + "/index.md", encoding: .utf8) + "\n")
        let folders = [site.content, site.templates]
        #expect(SourceSnapshot.take(folders: folders, settings: [], settleSeconds: 0.5, startedAt: started)?.isSettled == false)
        let muchLater = started + 10_000_000_000
        #expect(SourceSnapshot.take(folders: folders, settings: [], settleSeconds: 0.5, startedAt: muchLater)?.isSettled == true)
        try FileManager.default.createSymbolicLink(atPath: site.content + "/assets/link.md", withDestinationPath: "../index.md")
        #expect(take() == nil, "stamps of a link say nothing of what it points to")
    }
}
