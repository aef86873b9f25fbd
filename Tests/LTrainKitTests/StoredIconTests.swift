import Foundation
import Testing

@testable import LTrainPNG
@testable import LTrainRender

/// A site's drawn icons are stored in the source (`AppIcon.stored`) rather than drawn by every
/// build. Stored for every size a site writes, each exactly the pixels drawn now: when the drawing
/// changes, `LTRAIN_WRITE_STORED_ICONS=1 swift test --filter StoredIconTests` writes them again.
@Suite struct StoredIconTests {
    static let writeAgain = "run LTRAIN_WRITE_STORED_ICONS=1 swift test --filter StoredIconTests"

    @Test func theStoredIconsAreTheDrawing() throws {
        let sizes = AppIcon.files.map(\.size)
        if ProcessInfo.processInfo.environment["LTRAIN_WRITE_STORED_ICONS"] != nil {
            try Self.write(sizes)
            Issue.record("StoredIcons.swift written: build and run the tests again")
            return
        }
        #expect(Set(AppIcon.stored.keys) == Set(sizes), "one stored PNG for each size a site writes: \(Self.writeAgain)")
        for size in sizes {
            let stored = try #require(AppIcon.stored[size])
            let decoded = try PNG.decoded(stored).get()
            #expect(decoded.size == PixelSize(width: size, height: size))
            #expect(decoded.rgb == AppIcon.pixels(size: size), "the stored \(size) icon is not the drawing: \(Self.writeAgain)")
            #expect(AppIcon.png(size: size) == stored)
        }
        // Any other size is drawn.
        let drawn = try PNG.decoded(try #require(AppIcon.png(size: 64))).get()
        #expect(drawn.rgb == AppIcon.pixels(size: 64))
    }

    static func write(_ sizes: [Int]) throws {
        var lines = [
            "// Written by `LTRAIN_WRITE_STORED_ICONS=1 swift test --filter StoredIconTests` from",
            "// `AppIcon.drawnPNG(size:)`: the PNG of each drawn icon, base64. Do not edit; see `AppIcon.stored`.",
            "extension AppIcon {",
            "    static let storedBase64: [Int: String] = [",
        ]
        for size in sizes.sorted() {
            let png = try #require(AppIcon.drawnPNG(size: size))
            lines.append("        \(size): \"\(Data(png).base64EncodedString())\",")
        }
        lines += ["    ]", "}", ""]
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LTrainRender/StoredIcons.swift")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    }
}
