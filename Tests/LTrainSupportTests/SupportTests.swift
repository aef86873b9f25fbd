import Dispatch
import Foundation
import Synchronization
import Testing

@testable import LTrainSupport

/// The support target on its own: paths and links, slugs, hashing, media types.
@Suite struct SupportTests {
    /// Every index in exactly one run, the runs in order, none empty, at most one a worker:
    /// a listing cut this way comes out whole and in order whatever the number of cores.
    @Test func concurrentRunsCoverEveryIndexOnceInOrder() {
        for workers in [1, 2, 3, 4, 8] {
            for count in [0, 1, 2, 3, 5, 7, 8, 9, 100, 1001] {
                let runs = concurrentRuns(count, workers: workers) { $0 }
                #expect(runs.flatMap { Array($0) } == Array(0..<count), "\(count) items, \(workers) workers")
                #expect(runs.allSatisfy { !$0.isEmpty }, "\(count) items, \(workers) workers: an empty run")
                #expect(runs.count <= workers, "\(count) items, \(workers) workers: \(runs.count) runs")
                #expect(Set(runs.dropLast().map(\.count)).count <= 1, "\(count) items, \(workers) workers: uneven runs")
            }
        }
    }

    /// Guided runs hand out every index once, in order; long runs while much is left (never over
    /// the maximum), single items at the end, where a long run would leave the other cores idle.
    @Test func guidedRunsCoverEveryIndexOnceAndEndShort() {
        for workers in [1, 2, 4] {
            for count in [0, 1, 2, 7, 100, 2003, 20003] {
                let runs = GuidedRuns(count: count, workers: workers, maximum: 64)
                var taken: [Range<Int>] = []
                while let run = runs.take() { taken.append(run) }
                let label = "\(count) items, \(workers) workers"
                #expect(taken.flatMap { Array($0) } == Array(0..<count), "\(label)")
                #expect(taken.allSatisfy { !$0.isEmpty && $0.count <= 64 }, "\(label)")
                // Never longer than a share of what was left: the last `workers × 4` are one each.
                #expect(taken.allSatisfy { $0.count == 1 || $0.count <= (count - $0.lowerBound) / (workers * 4) }, "\(label)")
                #expect(taken.suffix(min(count, workers * 4)).allSatisfy { $0.count == 1 }, "\(label)")
                #expect(runs.take() == nil, "\(label): a run after the last")
            }
        }
        // Large counts are cut into full runs while much is left.
        let runs = GuidedRuns(count: 20003, workers: 2, maximum: 64)
        #expect(runs.take() == 0..<64)
    }

    /// Taken by many threads at once, each index is still handed out exactly once.
    @Test func guidedRunsTakenConcurrentlyHandOutEachIndexOnce() {
        let count = 50_000
        let runs = GuidedRuns(count: count, workers: 4, maximum: 64)
        let seen = Mutex([Int](repeating: 0, count: count))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var mine: [Range<Int>] = []
            while let run = runs.take() { mine.append(run) }
            seen.withLock { seen in for run in mine { for index in run { seen[index] += 1 } } }
        }
        #expect(seen.withLock { $0.allSatisfy { $0 == 1 } })
    }

    @Test func relativePathsBetweenAnyTwoDepths() {
        #expect(SitePath.relativePath(from: "index.html", to: "style.css") == "style.css")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "style.css") == "../style.css")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "stations/b.html") == "b.html")
        #expect(SitePath.relativePath(from: "stations/a.html", to: "info/a.html") == "../info/a.html")
        #expect(SitePath.relativePath(from: "index.html", to: "stations/a.html") == "stations/a.html")
        #expect(SitePath.relativePath(from: "a/b/c.html", to: "a/d/e.html") == "../d/e.html")
        #expect(SitePath.relativePath(from: "a/b/c.html", to: "x.html") == "../../x.html")
        #expect(SitePath.relativePath(from: "x.html", to: "a/b/c.html") == "a/b/c.html")
        #expect(SitePath.relativePath(from: "assets/a b.html", to: "assets/café.png") == "caf%C3%A9.png")
    }

    /// A text's bytes read in place are its UTF-8, whether it is stored inline (up to 15 bytes) or
    /// not, ASCII or not, or a slice's copy.
    @Test func aTextsBytesReadInPlaceAreItsUTF8() {
        let long = String(repeating: "Ünïcödé and ASCII, ", count: 40)
        for text in ["", "a", "fifteen bytes!!", "sixteen bytes!!!", "été", long, String(long.dropFirst(3).prefix(100))] {
            #expect(text.withUTF8Bytes { Array($0) } == Array(text.utf8), "\(text.prefix(20))")
            #expect(text.firstUTF8Offset(of: UInt8(ascii: ",")) == text.utf8.firstIndex(of: UInt8(ascii: ",")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
        }
    }

    /// The unreserved bytes of RFC 3986, every one of the 256 checked against its definition.
    @Test func theUnreservedBytesAreLettersDigitsAndFourMarks() {
        for value in 0...255 {
            let byte = UInt8(value)
            let expected =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
            #expect(SitePath.isUnreserved(byte) == expected, "\(value)")
        }
        #expect(SitePath.relativePath(from: "info/a.html", to: "stations/x y/é~_.-.html") == "../stations/x%20y/%C3%A9~_.-.html")
    }

    @Test func percentEncodingKeepsUnreservedBytesAndEscapesTheRest() {
        #expect(SitePath.percentEncoded("stop-1_a.b~c") == "stop-1_a.b~c")
        #expect(SitePath.percentEncoded("") == "")
        #expect(SitePath.percentEncoded("café au lait/é%,") == "caf%C3%A9%20au%20lait%2F%C3%A9%25%2C")
        for text in ["", "plain", "a b", "ü/%#?,", "100% sure"] {
            #expect(SitePath.percentDecoded(SitePath.percentEncoded(text)) == text)
        }
    }

    @Test func resolveIsTheInverseOfRelativePath() {
        let paths = ["index.html", "stations/a.html", "info/b.html", "a/b/c.html", "style.css", "assets/x/y.png"]
        for source in paths {
            for target in paths {
                let link = SitePath.relativePath(from: source, to: target)
                #expect(SitePath.resolve(link, against: source) == target, "\(source) → \(target) via \(link)")
            }
        }
        #expect(SitePath.resolve("../../x", against: "a.html") == nil)
        #expect(SitePath.resolve("../../x", against: "stations/a.html") == nil)
        #expect(SitePath.resolve("../x/../y.html", against: "stations/a.html") == "y.html")
        #expect(SitePath.resolve("./b.html", against: "stations/a.html") == "stations/b.html")
        #expect(SitePath.resolve("../info//b.html", against: "stations/a.html") == "info/b.html")
        #expect(SitePath.resolve("../...", against: "stations/a.html") == "...")
        #expect(SitePath.resolve("../../x.html", against: "a/b/c.html") == "x.html")
        #expect(SitePath.resolve("../x/y.html", against: "a/b/c.html") == "a/x/y.html")
        #expect(SitePath.resolve("../../../x.html", against: "a/b/c.html") == nil)
        #expect(SitePath.resolve("../é/ü.html", against: "ä/b.html") == "é/ü.html")
    }

    @Test func slugsAreLowercaseASCIIWords() {
        #expect(slugify("Bubba Gump Shrimp Étouffée") == "bubba-gump-shrimp-etouffee")
        #expect(slugify("  Q & A <Street> ") == "q-a-street")
        #expect(slugify("東京") == "")
        #expect(slugify("--Line 3: Tunnel_Works--") == "line-3-tunnel-works")
        #expect(slugify("Line 3: Café") == "line-3-cafe")
        #expect(slugify("Ångström Őz Ḫa ǅ") == "angstrom-oz-ha")
        #expect(slugify("e\u{301}te\u{301}") == "ete")
        #expect(slugify("Straße 42 — 東京 Ünter") == "stra-e-42-unter")
    }

    /// Every character beyond ASCII slugs as in its canonical decomposition (Foundation's), marks
    /// dropped: the table of letters with marks covers every block where one decomposes to ASCII.
    @Test func slugsBeyondASCIIMatchTheCanonicalDecomposition() {
        func decomposedSlug(_ text: String) -> String {
            var slug = ""
            var pendingDash = false
            for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    if pendingDash && !slug.isEmpty { slug += "-" }
                    pendingDash = false
                    slug += String(scalar).lowercased()
                } else if scalar.properties.generalCategory == .nonspacingMark {
                    continue
                } else {
                    pendingDash = true
                }
            }
            return slug
        }
        var checked = 0
        var differing: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate: continue
            default: break
            }
            // Between letters, so that a character taken for a separator shows as a dash.
            let text = "a\(scalar)b"
            checked += 1
            if slugify(text) != decomposedSlug(text) { differing.append(String(value, radix: 16)) }
        }
        #expect(differing.isEmpty, "U+\(differing.prefix(20).joined(separator: ", U+"))")
        #expect(checked > 100_000)
    }

    @Test func uniqueSlugsCountOnFromTwo() {
        var slugs = UniqueSlugs()
        #expect(["a", "a", "b", "a", "a-2"].map { slugs.claim($0) } == ["a", "a-2", "b", "a-3", "a-2-2"])
    }

    /// 40,000 equal headings (or checklist rows) try at most 4.5 times the slugs 10,000 do,
    /// also when some headings already read like the suffixed ones (`Same 2`).
    @Test func claimingEqualSlugsGrowsLinearly() {
        func tries(_ count: Int) -> Int {
            var slugs = UniqueSlugs()
            var seen: Set<String> = []
            for index in 0..<count {
                let slug = slugs.claim(index % 3 == 0 ? "same-\(index / 3 + 2)" : "same")
                #expect(seen.insert(slug).inserted)
            }
            return slugs.tries
        }
        let small = tries(10_000)
        let large = tries(40_000)
        #expect(small >= 10_000 && Double(large) / Double(small) <= 4.5, "\(small) → \(large) slugs tried")
    }

    @Test func contentHashesDifferWithEveryByteAndDelimitValues() {
        let text = Array("The L runs under 14th Street, from Eighth Avenue to Canarsie.".utf8)
        var seen: Set<ContentHash> = [ContentHash(text)]
        for index in text.indices {
            var changed = text
            changed[index] ^= 1
            #expect(seen.insert(ContentHash(changed)).inserted, "flipping byte \(index) gave a hash seen before")
        }
        #expect(ContentHash(text) == ContentHash(text))
        var ab = ContentHasher()
        ab.add("ab")
        ab.add("c")
        var abc = ContentHasher()
        abc.add("a")
        abc.add("bc")
        #expect(ab.hash != abc.hash, "values are delimited")
        #expect(ContentHash(value: 0xab).description == "00000000000000ab")
    }

    @Test func mediaTypesByExtension() {
        #expect(MediaType.of("index.html") == "text/html; charset=utf-8")
        #expect(MediaType.of("icons/ICON.PNG") == "image/png")
        #expect(MediaType.of("manifest.webmanifest") == "application/manifest+json")
        #expect(MediaType.of("CNAME") == "application/octet-stream")
        #expect(MediaType.of("sw.js") == "text/javascript; charset=utf-8")
    }

    @Test func theStartOfAFileIsReadAloneAndAShortFileWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ltrain-start-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try FileSystem.readStart(of: path, count: 24) == Array(bytes.prefix(24)))
        #expect(try FileSystem.readStart(of: path, count: 200_000) == bytes)
        // A limit applies to a whole read, not to the start of a file.
        #expect(throws: FileSystemError.self) { try FileSystem.read(path, limit: 1_000) }
        #expect(throws: FileSystemError.self) { try FileSystem.readStart(of: FileManager.default.temporaryDirectory.path, count: 24) }
    }
}

/// `SiteFileName`: the one rule for the names a site holds, their URLs and manifest lines.
@Suite struct SiteFileNameTests {
    @Test func namesASiteMayHold() {
        for path in ["style.css", "assets/a b#c%25?.png", "ü/€.txt", "a\\b", "...", "x/.hidden", "\u{85}name"] {
            #expect(SiteFileName.isAccepted(path), "\(path)")
        }
        for path in ["", "/abs", "a//b", "trailing/", ".", "..", "../etc/passwd", "a/./b", "a/../b", "a\nb", "tab\there", "del\u{7F}"] {
            #expect(!SiteFileName.isAccepted(path), "\(path.debugDescription)")
        }
        #expect(SiteFileName.problem(inName: "a\nb")?.message == "file name holds a control character")
        #expect(SiteFileName.problem(inName: "..") != nil && SiteFileName.problem(inName: "a b") == nil)
    }

    /// Found by the FileName fuzzer: a name that begins with a combining mark joins the '/' before
    /// it into one Character, so `a/\u{301}b` split by Character is one name holding a '/'. Such a
    /// name (and one ending in a prefixed mark, U+0600, which joins the '/' after it) is refused,
    /// by name and in a manifest's path alike; marks inside a name are fine.
    @Test func namesThatJoinTheirSlashesAreRefused() {
        for name in ["\u{301}b", "\u{600}", "x\u{600}", "\u{200D}x"] {
            #expect(SiteFileName.problem(inName: name)?.message.contains("joins the '/'") == true, "\(name.debugDescription)")
            #expect(!SiteFileName.isAccepted("a/" + name), "\(name.debugDescription)")
            #expect(!SiteFileName.isAccepted(name + "/a"), "\(name.debugDescription)")
        }
        for name in ["e\u{301}", "caf\u{E9}", "\u{05E9}\u{05DC}\u{05D5}\u{05DD}", "\u{1F1FA}\u{1F1F8}"] {
            #expect(SiteFileName.problem(inName: name) == nil, "\(name.debugDescription)")
            #expect(SiteFileName.isAccepted("a/" + name + "/b"), "\(name.debugDescription)")
        }
        let fuzzed = "a/\u{301}b"
        #expect(!SiteFileName.isAccepted(fuzzed))
        // Links that hold such a name still resolve by '/', whatever joins it.
        #expect(SitePath.resolve("../\u{301}b", against: "stations/a.html") == "\u{301}b")
    }

    /// Encoded once: a '%' in a name is '%25' in its URL, and decoding the URL once gives the name.
    @Test func aNameIsEncodedOnceInItsURL() {
        #expect(SiteFileName.url(of: "assets/a b#c%25?.png") == "assets/a%20b%23c%2525%3F.png")
        #expect(SiteFileName.url(of: "ü.txt") == "%C3%BC.txt")
        for path in ["assets/a b#c%25?.png", "ü/€.txt", "a\\b", "plain/path.html"] {
            #expect(SiteFileName.path(ofURL: SiteFileName.url(of: path)) == path)
        }
    }
}
