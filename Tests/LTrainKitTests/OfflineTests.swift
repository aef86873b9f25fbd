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

/// What a build writes so that the site works offline once visited (the browser side is in
/// Tests/site/test_offline.py).
@Suite struct OfflineTests {
    struct WebManifest: Decodable {
        struct Icon: Decodable { let src: String; let sizes: String; let type: String; let purpose: String }
        let name: String
        let short_name: String
        let start_url: String
        let scope: String
        let display: String
        let theme_color: String
        let background_color: String
        let icons: [Icon]
    }

    func manifest(_ site: TestSite) throws -> WebManifest {
        try JSONDecoder().decode(WebManifest.self, from: Data(contentsOf: URL(fileURLWithPath: site.output + "/manifest.webmanifest")))
    }

    @Test func theManifestIsRelativeToTheSiteAndItsIconsAreRealPNGsOfTheirSizes() throws {
        let site = try TestSite.fixture("tram")
        try site.build()
        let manifest = try manifest(site)
        #expect(manifest.name == "Tram 28 & Friends" && manifest.short_name == "Tram 28 & F…")
        #expect(manifest.start_url == "index.html" && manifest.scope == "./" && manifest.display == "standalone")
        #expect(manifest.theme_color.hasPrefix("#") && manifest.background_color.hasPrefix("#"))
        #expect(manifest.icons.map(\.src) == ["icons/icon-192.png", "icons/icon-512.png"])
        for icon in manifest.icons + [.init(src: "icons/apple-touch-icon.png", sizes: "180x180", type: "image/png", purpose: "any")] {
            let bytes = try FileSystem.read(site.output + "/" + icon.src, limit: 1 << 20)
            let size = try PNG.decodedSize(of: bytes).get()
            #expect("\(size.width)x\(size.height)" == icon.sizes)
        }
        let page = try site.page("stations/graca.html")
        #expect(page.contains(#"<link rel="manifest" href="../manifest.webmanifest">"#))
        #expect(page.contains(#"<link rel="apple-touch-icon" href="../icons/apple-touch-icon.png">"#))
        #expect(page.contains(#"data-service-worker="../sw.js""#))
    }

    @Test func theIconIsDrawnInTheThemesColours() throws {
        let pixels = AppIcon.pixels(size: 192)
        #expect(pixels.count == 192 * 192 * 3, "opaque RGB")
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 192 + x) * 3..<(y * 192 + x) * 3 + 3]) }
        #expect(at(5, 5) == [255, 255, 255], "the tile")
        #expect(at(96 - 30, 96) == [0xA7, 0xA9, 0xAC], "the line in the L's grey, between the stops")
        #expect(at(96, 96) == [255, 255, 255], "the middle stop's white")
        #expect(at(96 + 21, 96) == [0x1C, 0x1C, 0x1E], "its ring")
    }

    /// Each drawn icon's PNG holds exactly the pixels drawn, at every size the site writes.
    @Test func theIconsPNGsHoldThePixelsDrawn() throws {
        for size in [180, 192, 512] {
            let png = try #require(AppIcon.png(size: size))
            let decoded = try PNG.decoded(png).get()
            #expect(decoded.size == PixelSize(width: size, height: size))
            #expect(decoded.rgb == AppIcon.pixels(size: size), "\(size)")
        }
    }

    @Test func anAuthorsIconReplacesTheDrawnOnes() throws {
        let site = try TestSite.defaultSite()
        let icon = try #require(AppIcon.png(size: 256))
        try site.write("content/assets/icon.png", Data(icon))
        try site.build()
        #expect(FileSystem.kind(of: site.output + "/icons") == .missing)
        #expect(try manifest(site).icons.map { "\($0.src) \($0.sizes)" } == ["assets/icon.png 256x256"])
        try site.remove("content/assets/icon.png")
        try site.write("content/assets/icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        try site.build()
        #expect(try manifest(site).icons.map { "\($0.src) \($0.sizes) \($0.type)" } == ["assets/icon.svg any image/svg+xml"])
    }

    /// `png` with the width and height of its header replaced, and the header's checksum made
    /// right again, so libpng reads the header and judges the size.
    func withHeaderSize(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = png
        for (offset, value) in [(16, width), (20, height)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return bytes
    }

    /// An icon phones cannot show fails the build at the file, and the last output stays; a PNG
    /// phones show poorly is a warning.
    @Test func anIconThatIsNotAWholePNGIsAnError() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        let before = TestSite.snapshot(site.output)
        let png = try #require(AppIcon.png(size: 256))
        let broken: [(bytes: [UInt8], says: String)] = [
            (Array("not an image\n".utf8), "is not a PNG image libpng can read"),
            ([], "is empty"),
            (Array(png.prefix(24)), "is not a PNG image libpng can read"),
            (Array(png.prefix(png.count - 20)), "is not a PNG image libpng can read"),
            (withHeaderSize(png, width: 0, height: 256), "is not a PNG image libpng can read"),
            (withHeaderSize(png, width: 32_768, height: 32_768), "is 32768×32768 pixels; at most 4096 on a side"),
        ]
        for (bytes, says) in broken {
            try site.write("content/assets/icon.png", Data(bytes))
            let failures = site.failures()
            #expect(failures.count == 1, "\(failures)")
            #expect(failures.first?.hasPrefix("content/assets/icon.png: error: the icon ") == true, "\(failures)")
            #expect(failures.first?.contains(says) == true, "\(failures)")
            #expect(TestSite.snapshot(site.output) == before)
        }
        try site.write("content/assets/icon.png", Data(try #require(AppIcon.png(size: 64))))
        let report = try site.build()
        #expect(report.warnings.map(\.message).contains { $0.hasPrefix("the icon is 64×64 pixels; phones want a square icon") })
    }

    /// The list is a script whose object is JSON: every file once, in order, whatever the
    /// number of files (made in runs on every core), names that need escapes included; none for
    /// no files.
    @Test func theOfflineListIsEveryFileInOrderAsJSON() throws {
        for count in [0, 1, 2, 3, 1_001] {
            let files = (0..<count).map { number -> (path: String, hash: ContentHash) in
                let name = number % 3 == 0 ? "static/a b#\(number)?\"é\".png" : "stations/stop-\(number).html"
                return (name, ContentHash(value: UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
            }
            let text = String(decoding: OfflineSite.list(files), as: UTF8.self)
            let start = try #require(text.range(of: "self.ltrainOffline = "))
            #expect(text.hasPrefix("// Written by ltrain build"))
            #expect(text.hasSuffix("};\n"))
            let json = try #require(text[start.upperBound...].dropLast(2).data(using: .utf8))
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let entries = try #require(object["files"] as? [[String]])
            #expect(entries.map { $0[0] } == files.map { SiteFileName.url(of: $0.path) }, "\(count) files")
            #expect(entries.map { $0[1] } == files.map { "\($0.hash)" })
            var hasher = ContentHasher()
            for file in files {
                hasher.add(file.path)
                hasher.add(file.hash)
            }
            #expect(object["version"] as? String == "\(hasher.hash)")
        }
    }

    /// Every file of the guide, each with the hash of its bytes; a redeploy changes exactly the
    /// entries whose bytes changed.
    @Test func theOfflineListNamesEveryFileWithItsHash() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/static/CNAME", "l.example.org\n")
        try site.build()
        func list() throws -> [String: String] {
            let text = try site.page("offline-files.js")
            var entries: [String: String] = [:]
            for match in HTML.matches(#"\["([^"]+)", "([0-9a-f]{16})"\]"#, in: text) { entries[match[1]] = match[2] }
            return entries
        }
        let before = try list()
        let written = Set(FileSystem.filesBelow(site.output))
        #expect(Set(before.keys) == written.subtracting([".ltrain-manifest", "sw.js", "offline-files.js", "CNAME"]))
        for (path, hash) in before {
            #expect("\(ContentHash(try FileSystem.read(site.output + "/" + path, limit: 1 << 24)))" == hash, "\(path)")
        }
        let path = "content/stations/04-third-avenue.md"
        try site.write(path, try String(contentsOfFile: site.root + "/" + path, encoding: .utf8) + "\nMore.\n")
        try site.build()
        let after = try list()
        #expect(Set(after.keys) == Set(before.keys))
        #expect(Set(after.filter { before[$0.key] != $0.value }.keys) == ["info/third-avenue.html", "search/1.js", "index.html"])
        #expect(try site.page("offline-files.js") != "", "written")
    }

    @Test func theDefaultThemesWorkerImportsTheListAndNeverSkipsWaitingUnasked() throws {
        let worker = try #require(DefaultTemplates.files["sw.js"])
        #expect(worker.contains(#"importScripts("offline-files.js")"#))
        #expect(worker.components(separatedBy: "skipWaiting()").count == 2, "skipWaiting only on the reader's message")
        #expect(worker.contains(#"event.data === "ltrain:skip-waiting""#))
    }

    @Test func aStaticFileCannotTakeTheOfflineListsName() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/static/offline-files.js", "x")
        #expect(site.failures().contains { $0.contains("would both be written to offline-files.js") })
    }
}
