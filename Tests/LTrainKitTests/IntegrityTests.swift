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

/// Bad input that cannot live in a fixture folder (bytes, sizes, links, folders), the atomic and
/// minimal writes, and determinism.
@Suite struct IntegrityTests {
    func goodOutput(_ site: TestSite) throws -> [String: Data] {
        try site.build()
        return TestSite.snapshot(site.output)
    }

    @Test func nulBytesAndInvalidUTF8AreErrorsWithPositions() throws {
        let site = try TestSite.defaultSite()
        let before = try goodOutput(site)
        try site.write("content/stations/07-nul.md", Data("---\ntitle: A\n---\nab\u{0}c\n".utf8))
        try site.write("content/stations/08-latin1.md", Data([0x2D, 0x2D, 0x2D, 0x0A, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x3A, 0x20, 0x43, 0x61, 0x66, 0xE9, 0x0A]))
        #expect(
            site.failures() == [
                "content/stations/07-nul.md:4:3: error: file contains a NUL byte\n  hint: this looks like a binary file; content files must be UTF-8 text",
                "content/stations/08-latin1.md:2:11: error: file is not valid UTF-8\n  hint: save the file as UTF-8 (most editors offer 'Save with encoding')",
            ])
        #expect(TestSite.snapshot(site.output) == before)
    }

    @Test func aFileTooLargeToBeSaneIsRefused() throws {
        let site = try TestSite.defaultSite()
        let huge = Data(repeating: UInt8(ascii: "a"), count: ContentLoader.markdownSizeLimit + 1)
        try site.write("content/stations/09-huge.md", huge)
        #expect(
            site.failures() == [
                "content/stations/09-huge.md: error: file is 33554433 bytes, more than the limit of 32 MiB\n  hint: split it into smaller files"
            ])
    }

    @Test func aTenMegabyteStationBuilds() throws {
        let site = try TestSite.defaultSite()
        let paragraph = "The *L* runs under 14th Street; this line repeats to make a large file.\n\n"
        let body = String(repeating: paragraph, count: 10 * 1_048_576 / paragraph.utf8.count)
        try site.write("content/stations/07-big.md", "---\ntitle: Big\n---\n" + body)
        try site.build()
        let info = try site.page("info/big.html")
        #expect(info.utf8.count > 10_000_000)
    }

    @Test func strayFilesAreIgnored() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/.DS_Store", Data([0, 1, 2, 0xFF]))
        try site.write("content/stations/notes.txt", "not a station")
        try site.write("content/checklists/draft.markdown", "ignored")
        let report = try site.build()
        #expect(report.stationCount == 6)
        #expect(!FileManager.default.fileExists(atPath: site.output + "/stations/notes.html"))
    }

    @Test func missingContentFolder() throws {
        let site = try TestSite.defaultSite()
        try site.remove("content")
        #expect(
            site.failures() == [
                "content: error: the content folder does not exist\n  hint: run ltrain from your site's folder, or name the folder with --content DIR"
            ])
    }

    @Test func outputMayNotBeOrHoldTheSources() throws {
        let site = try TestSite.defaultSite()
        #expect(
            site.failures(output: site.content).first?.hasPrefix(
                "content: error: the output folder is the source folder") == true)
        #expect(
            site.failures(output: site.root).first?.hasPrefix(
                "\(site.root): error: the output folder contains the source folder") == true)
        #expect(
            site.failures(output: site.templates + "/out").first?.hasPrefix(
                "templates/out: error: the output folder is inside the source folder") == true)
        try site.write("file.txt", "x")
        #expect(
            site.failures(output: site.root + "/file.txt") == [
                "file.txt: error: the output folder is a file, not a folder\n  hint: name a folder with --output DIR"
            ])
        #expect(FileManager.default.fileExists(atPath: site.content + "/index.md"), "sources untouched")
    }

    @Test func symlinksOutOfTheContentFolderAreRefused() throws {
        let site = try TestSite.defaultSite()
        let outside = try TestSite()
        try outside.write("secret.md", "---\ntitle: Secret\n---\nshh\n")
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/stations/07-secret.md", withDestinationPath: outside.root + "/secret.md")
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/assets", withDestinationPath: outside.root)
        let failures = site.failures()
        #expect(failures.count == 2)
        #expect(failures.first?.hasPrefix("content/stations/07-secret.md: error: symbolic link points outside its folder") == true)
        #expect(failures.last?.hasPrefix("content/assets: error: symbolic link points outside its folder") == true)
    }

    @Test func symlinksInsideTheContentFolderAreFollowed() throws {
        let site = try TestSite.defaultSite()
        try FileManager.default.createSymbolicLink(
            atPath: site.content + "/stations/07-again.md", withDestinationPath: site.content + "/stations/03-union-square.md")
        // Same title, different slug: a legitimate alias of one file.
        let report = try site.build()
        #expect(report.stationCount == 7)
    }

    // MARK: Nothing lost, nothing rewritten needlessly

    @Test func unchangedPagesKeepTheirFileAndChangedOnesAreReplaced() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        func identity(_ relative: String) throws -> (inode: UInt64, modified: Date) {
            let attributes = try FileManager.default.attributesOfItem(atPath: site.output + "/" + relative)
            return ((attributes[.systemFileNumber] as? UInt64) ?? 0, (attributes[.modificationDate] as? Date) ?? .distantPast)
        }
        let union = try identity("stations/union-square.html")
        let third = try identity("info/third-avenue.html")

        let again = try site.build()
        #expect(again.written == 0, "a rebuild with nothing changed writes no file")
        #expect(again.unchanged == again.fileCount)
        #expect(try identity("stations/union-square.html") == union)

        let path = "content/stations/04-third-avenue.md"
        try site.write(path, try String(contentsOfFile: site.root + "/" + path, encoding: .utf8) + "\nOne more line.\n")
        let edited = try site.build()
        #expect(
            edited.written == 4,
            "only the edited station's info page changed, the search index and the index page that hold its text (a small line's index page carries the index), and the offline list")
        #expect(try identity("info/third-avenue.html").inode != third.inode)
        #expect(try identity("stations/union-square.html") == union)
        #expect(try site.page("info/third-avenue.html").contains("One more line."))
    }

    @Test func pagesRenderedFromUnchangedInputsAreNotRenderedAgain() throws {
        let site = try TestSite.defaultSite()
        let first = try site.build()
        #expect(first.rendered == 15)
        #expect(try site.build().rendered == 0, "a no-op rebuild renders nothing")

        let path = "content/stations/04-third-avenue.md"
        let original = try String(contentsOfFile: site.root + "/" + path, encoding: .utf8)
        try site.write(path, original + "\nA new paragraph.\n")
        let bodyEdit = try site.build()
        #expect(
            bodyEdit.rendered == 2,
            "only the station's info page depends on its body, and the index page, which carries a small line's search index")
        #expect(try site.page("info/third-avenue.html").contains("A new paragraph."))

        try site.write(path, original.replacingOccurrences(of: "title: Third Avenue", with: "title: 3rd Avenue"))
        let titleEdit = try site.build()
        #expect(
            titleEdit.rendered == 5,
            "a title shows on its station and info pages, its two neighbours, and the index; 404 lists only the first")
        #expect(try site.page("stations/first-avenue.html").contains(">3rd Avenue</span>"))

        try site.write("templates/info.mustache", try String(contentsOfFile: site.templates + "/info.mustache", encoding: .utf8) + "\n")
        #expect(try site.build().rendered == 6, "a page template's change renders the pages it renders: six info pages")
        try site.write("templates/layout.mustache", try String(contentsOfFile: site.templates + "/layout.mustache", encoding: .utf8) + "\n")
        #expect(try site.build().rendered == 15, "the layout's change renders every page that includes it: all")
    }

    @Test func fragmentLinksIntoOtherPagesAreCheckedEvenWhenThePageIsKept() throws {
        let site = try TestSite.defaultSite()
        let first = "content/stations/01-eighth-avenue.md"
        try site.write(first, try String(contentsOfFile: site.root + "/" + first, encoding: .utf8) + "\nSee [connections](02-sixth-avenue.md#connections).\n")
        try site.build()
        // Sixth Avenue's info page loses the heading; Eighth Avenue's page is unchanged but its link broke.
        let second = "content/stations/02-sixth-avenue.md"
        try site.write(second, try String(contentsOfFile: site.root + "/" + second, encoding: .utf8).replacingOccurrences(of: "## Connections", with: "## Transfers"))
        let failures = site.failures()
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("content/stations/01-eighth-avenue.md:28:5: error: link '02-sixth-avenue.md#connections' points to no id 'connections' on info/sixth-avenue.html") == true)
    }

    @Test func pagesOfRemovedStationsAreRemoved() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        try site.remove("content/stations/06-bedford-avenue.md")
        let report = try site.build()
        #expect(report.removed == 2)
        #expect(!FileManager.default.fileExists(atPath: site.output + "/stations/bedford-avenue.html"))
        #expect(!FileManager.default.fileExists(atPath: site.output + "/info/bedford-avenue.html"))
        #expect(!(try site.page("stations/first-avenue.html")).contains("rel=\"next\""))
    }

    @Test func filesLtrainDidNotWriteAreNeverDeletedSilently() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        try site.write("_site/CNAME", "example.org")
        let before = TestSite.snapshot(site.output)
        #expect(
            site.failures() == [
                "_site: error: the output folder holds 1 file(s) that ltrain did not write: CNAME\n  hint: move them out of the way, or build with --force to replace the folder and delete them"
            ])
        #expect(TestSite.snapshot(site.output) == before)
        try site.build(force: true)
        #expect(!FileManager.default.fileExists(atPath: site.output + "/CNAME"))
    }

    @Test func aFolderWithoutManifestIsNotOverwritten() throws {
        let site = try TestSite.defaultSite()
        try site.write("_site/index.html", "my own page")
        #expect(site.failures().first?.contains("1 file(s) that ltrain did not write: index.html") == true)
        #expect(try site.page("index.html") == "my own page")
    }

    @Test func aFailedBuildLeavesThePreviousOutputByteForByte() throws {
        let site = try TestSite.defaultSite()
        let before = try goodOutput(site)
        try site.write("templates/info.mustache", "{{<layout}}{{$content}}{{#body}}{{/layout}}")
        #expect(site.failures().count == 1)
        #expect(TestSite.snapshot(site.output) == before)
        #expect(!FileManager.default.fileExists(atPath: site.root + "/._site.ltrain-staging"))
    }

    @Test func buildsAreDeterministicWhateverTheNumberOfJobs() throws {
        let site = try TestSite.fixture("tram")
        try site.build(output: site.root + "/one", jobs: 1)
        try site.build(output: site.root + "/two", jobs: 4)
        var one = TestSite.snapshot(site.root + "/one")
        var two = TestSite.snapshot(site.root + "/two")
        // The manifest records modification times; every page must match byte for byte.
        one[".ltrain-manifest"] = nil
        two[".ltrain-manifest"] = nil
        #expect(!one.isEmpty)
        #expect(one == two)
    }

    @Test func theOutputFolderCreatesEveryFolderItsFilesNeed() throws {
        let site = try TestSite()
        let output = try OutputFolder(path: site.output, protecting: [], force: false)
        let paths = ["index.html", "a/b/c.html", "a/d.html", "x/y/z/w.txt", "a/b/e.html"]
        try output.prepare(for: paths)
        for path in paths { try output.write("<p>\(path)</p>", to: path) }
        let summary = try output.commit()
        #expect(summary.written == paths.count)
        var folders: [String] = []
        for path in FileManager.default.enumerator(atPath: site.output)?.allObjects as? [String] ?? []
        where FileSystem.kind(of: site.output + "/" + path) == .directory {
            folders.append(path)
        }
        #expect(folders.sorted() == ["a", "a/b", "x", "x/y", "x/y/z"])
        for path in paths { #expect(try String(contentsOfFile: site.output + "/" + path, encoding: .utf8) == "<p>\(path)</p>") }
    }

    /// A manifest of a few thousand files is written on every core: its lines come out in the
    /// order given, each once, and read back as the same entries.
    @Test func aLargeManifestIsWrittenInTheOrderGiven() throws {
        var entries: [String: Manifest.Entry] = [:]
        var order: [String] = []
        for index in 0..<3_001 {
            // An order no sort gives: every seventh index of the range, wrapping.
            let path = "stations/p\((index * 7) % 3_001).html"
            order.append(path)
            entries[path] = Manifest.Entry(
                hash: ContentHash(value: UInt64(index)), size: index, modified: Int64(index), ids: ["id\(index)"])
        }
        let manifest = Manifest(entries: entries)
        let text = String(decoding: manifest.bytes(listing: order), as: UTF8.self)
        let paths = text.split(separator: "\n").dropFirst().map { String($0.split(separator: " ").last ?? "") }
        #expect(paths == order)
        #expect(Manifest(text: text) == manifest)
    }

    @Test func manifestRoundTrips() throws {
        let manifest = Manifest(entries: [
            "a b/c.html": Manifest.Entry(hash: ContentHash(Array("x".utf8)), size: 1, modified: 1_700_000_000_123_456_789)
        ])
        #expect(Manifest(text: manifest.text) == manifest)
        #expect(Manifest(text: "not a manifest") == nil)
        // A path the site could not hold (SiteFileName) is damage: the manifest is not read.
        for path in ["../outside.html", "a/./b.html", "/etc/passwd"] {
            #expect(Manifest(text: "ltrain manifest 5\n000000000000000f 1 1 - - - \(path)\n") == nil, "\(path)")
        }
        #expect(Manifest(text: "ltrain manifest 5\n000000000000000f 1 1 - - - inside.html\n") != nil)

        let full = Manifest(entries: [
            "stations/b.html": Manifest.Entry(
                hash: ContentHash(value: 0x00ab_cdef_0123_4567), size: 0, modified: 0,
                key: ContentHash(value: 0xffff_0000_0000_0001), ids: ["when-it-opened", "a b"]),
            "index.html": Manifest.Entry(
                hash: ContentHash(value: 15), size: 1234, modified: 987_654_321, links: ["02-a b.md#x,y", "-"]),
        ])
        #expect(
            full.text == """
                ltrain manifest 5
                000000000000000f 1234 987654321 - - 02-a%20b.md%23x%2Cy,%2D index.html
                00abcdef01234567 0 0 ffff000000000001 a%20b,when-it-opened - stations/b.html

                """)
        var sorted = full
        sorted.entries["stations/b.html"]?.ids = ["a b", "when-it-opened"]
        #expect(Manifest(text: full.text) == sorted)

        // The snapshot of the sources goes on its own line after the header.
        var withSources = sorted
        withSources.sources = Manifest.Sources(
            snapshot: ContentHash(value: 0x0123_4567_89ab_cdef), stations: 10_000, infoPages: 9_999, checklists: 0)
        #expect(withSources.text.hasPrefix("ltrain manifest 5\nsources 0123456789abcdef 10000 9999 0\n000000000000000f "))
        #expect(Manifest(text: withSources.text) == withSources)
        // Where the site is published, %-encoded on a line of its own before the sources.
        var withSite = withSources
        withSite.siteURL = "https://example.org/a b/"
        #expect(withSite.text.hasPrefix("ltrain manifest 5\nsite https%3A%2F%2Fexample.org%2Fa%20b%2F\nsources 0123456789abcdef "))
        #expect(Manifest(text: withSite.text) == withSite)
        #expect(Manifest.siteURL(inHead: Array(withSite.text.utf8)) == "https://example.org/a b/")
        #expect(Manifest.siteURL(inHead: Array(withSources.text.utf8)) == nil)
        // A manifest of version 4 reads, but its output is never taken as up to date: the next
        // build writes the site line.
        let version4 = try #require(Manifest(text: "ltrain manifest 4\n0a 12 34 - a - index.html\n"))
        #expect(!version4.recordsSiteURL && version4.recordsLinks)
        // A manifest of version 3 has no links field: it reads, and says its links are unknown.
        let version3 = try #require(Manifest(text: "ltrain manifest 3\n0a 12 34 - a,b index.html\n"))
        #expect(version3.entries["index.html"]?.ids == ["a", "b"] && !version3.recordsLinks)
        #expect(Manifest(text: full.text)?.recordsLinks == true)
        #expect(Manifest(text: "ltrain manifest 3\nsources 12 1 x 0\n") == nil)
        // A manifest large enough to be formatted in chunks on several cores reads back the same,
        // its lines sorted by path.
        var large = Manifest()
        for number in 0..<5_000 {
            large.entries["p/\(number).html"] = Manifest.Entry(
                hash: ContentHash(value: UInt64(number)), size: number, modified: Int64(number) * 7,
                key: number % 3 == 0 ? nil : ContentHash(value: UInt64(number) << 8), ids: number % 2 == 0 ? [] : ["h\(number)"])
        }
        #expect(Manifest(text: large.text) == large)
        let paths = large.text.split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(paths.count == 5_000 && paths == paths.sorted())
        // A build lists its files in its own order: named paths first as named (a path with no
        // entry skipped), then any entry the order leaves out, sorted by path.
        let listed = String(decoding: large.bytes(listing: ["p/7.html", "nowhere.html", "p/3.html"]), as: UTF8.self)
        let listedPaths = listed.split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
        let rest = large.entries.keys.filter { $0 != "p/7.html" && $0 != "p/3.html" }.sorted()
        #expect(listedPaths == ["p/7.html", "p/3.html"] + rest)
        #expect(Manifest(text: listed) == large)
        // The widest numbers and ids that are all escapes still fit their line.
        let widest = Manifest(entries: [
            String(repeating: "w", count: 300): Manifest.Entry(
                hash: ContentHash(value: .max), size: .max, modified: .max, key: ContentHash(value: .max),
                ids: ["%,", String(repeating: "é", count: 40)])
        ])
        #expect(Manifest(text: widest.text) == widest)
        #expect(widest.text.contains(" \(Int.max) \(Int64.max) ffffffffffffffff %25%2C,"))
        // Version 2 (before the sources line) is still read, so upgrading keeps the output folder.
        // Versions 2 and 3 have no links field; their links read as unknown.
        let version2 = """
            ltrain manifest 2
            000000000000000f 1234 987654321 - - index.html
            00abcdef01234567 0 0 ffff000000000001 a%20b,when-it-opened stations/b.html

            """
        var withoutLinks = sorted
        withoutLinks.entries["index.html"]?.links = []
        withoutLinks.recordsLinks = false
        withoutLinks.recordsSiteURL = false
        #expect(Manifest(text: version2) == withoutLinks)
        #expect(ContentHash(Array("abc".utf8)) != ContentHash(Array("abd".utf8)))
        #expect(ContentHash(Array("abcdefghijk".utf8)) == ContentHash(Array("abcdefghijk".utf8)))
        // Every length from empty to past several 32-byte rounds hashes differently, and so does
        // any one changed byte, and two rounds swapped.
        let text = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var seen: Set<UInt64> = []
        for length in 0...text.count { seen.insert(ContentHash(Array(text.prefix(length))).value) }
        #expect(seen.count == text.count + 1)
        let whole = ContentHash(text)
        for position in stride(from: 0, to: text.count, by: 7) {
            var changed = text
            changed[position] ^= 0x20
            #expect(ContentHash(changed) != whole, "changing byte \(position)")
        }
        let swapped = Array(text[32..<64] + text[0..<32] + text[64...])
        #expect(ContentHash(swapped) != whole)
    }

    @Test func contentHasherDelimitsAndOrdersItsValues() {
        func hash(_ values: [String]) -> ContentHash {
            var hasher = ContentHasher()
            for value in values { hasher.add(value) }
            return hasher.hash
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash(["a", "b"]) != hash(["b", "a"]))
        #expect(hash(["", "x"]) != hash(["x", ""]))
        #expect(hash(["x"]) != hash(["x", ""]))
        #expect(hash(["same", "values"]) == hash(["same", "values"]))
    }
}
