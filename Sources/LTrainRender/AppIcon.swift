import Foundation
import LTrainPNG
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates

/// The site's default app icon, drawn from the theme: the line in the L's grey, across a white
/// tile, with three stops (the middle one larger), like the index's strip map. Full-bleed, with
/// everything inside the central 80% so it also serves as a maskable icon.
package enum AppIcon {
    /// Sizes browsers and iOS ask for: 192 and 512 (the web app manifest), 180 (the home screen on iOS).
    static let files = Routes.drawnIcons

    static let lineGrey: (UInt8, UInt8, UInt8) = (0xA7, 0xA9, 0xAC)
    static let tile: (UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF)
    static let ink: (UInt8, UInt8, UInt8) = (0x1C, 0x1C, 0x1E)

    /// What an icon is made from: this drawing at this size. An icon whose key matches the one
    /// the output has is kept, not drawn again, since encoding is a no-op rebuild's largest cost.
    package static func key(for path: String) -> ContentHash? {
        guard let icon = files.first(where: { $0.path == path }) else { return nil }
        var hasher = ContentHasher()
        hasher.add(ltrainVersion)
        hasher.add("app icon")
        hasher.add(icon.size)
        return hasher.hash
    }

    /// The icon as PNG bytes, `size` pixels square: stored for the sizes a site writes (see
    /// `stored`), drawn and encoded for any other.
    package static func png(size: Int) -> [UInt8]? {
        stored[size] ?? drawnPNG(size: size)
    }

    /// The icon drawn and encoded now, `size` pixels square.
    package static func drawnPNG(size: Int) -> [UInt8]? {
        PNG.encode(rgb: pixels(size: size), width: size, height: size)
    }

    /// The PNG of each size in `files`, as `drawnPNG` gave it when `StoredIcons.swift` was
    /// written: the drawing depends on nothing but ltrain, and drawing and encoding the three on
    /// every build was the whole of a small site's render (docs/benchmarks.md, "Optimisations").
    /// `StoredIconTests` holds each to the pixels drawn now, and writes the file again when asked
    /// (`LTRAIN_WRITE_STORED_ICONS=1`).
    package static let stored: [Int: [UInt8]] = storedBase64.compactMapValues { text in
        Data(base64Encoded: text).map { [UInt8]($0) }
    }

    /// RGB pixels (the icon is opaque: a full-bleed tile). Each shape is drawn by its distance
    /// from the pixel's centre, which gives one pixel of smooth edge without sampling a pixel many
    /// times, and rows clear of every shape are left as they are.
    static func pixels(size: Int) -> [UInt8] {
        let s = Double(size)
        let middle = s / 2
        let lineHalf = s * 0.055
        let lineStart = s * 0.16, lineEnd = s * 0.84
        let stops: [(x: Double, radius: Double)] = [(0.22 * s, 0.085 * s), (0.5 * s, 0.12 * s), (0.78 * s, 0.085 * s)]
        let ring = s * 0.035
        /// How much of a pixel a shape covers, from the signed distance of its centre to the edge.
        func coverage(_ distance: Double) -> Double { min(1, max(0, 0.5 - distance)) }
        func mix(_ a: (Double, Double, Double), _ b: (UInt8, UInt8, UInt8), _ amount: Double) -> (Double, Double, Double) {
            (a.0 + (Double(b.0) - a.0) * amount, a.1 + (Double(b.1) - a.1) * amount, a.2 + (Double(b.2) - a.2) * amount)
        }
        var pixels = [UInt8](repeating: 255, count: size * size * 3)
        // Rows clear of every shape stay the white tile (three quarters of them).
        let reach = (stops.map(\.radius).max() ?? 0) + 1
        for row in 0..<size where abs(Double(row) + 0.5 - middle) <= reach {
            let y = Double(row) + 0.5
            for column in 0..<size {
                let x = Double(column) + 0.5
                var colour = (Double(tile.0), Double(tile.1), Double(tile.2))
                // The line: a rectangle, by the larger of its distances across and along.
                let across = abs(y - middle) - lineHalf
                let along = max(lineStart - x, x - lineEnd)
                colour = mix(colour, lineGrey, coverage(max(across, along)))
                for stop in stops {
                    let distance = ((x - stop.x) * (x - stop.x) + (y - middle) * (y - middle)).squareRoot()
                    colour = mix(colour, ink, coverage(distance - stop.radius))
                    colour = mix(colour, (255, 255, 255), coverage(distance - (stop.radius - ring)))
                }
                let offset = (row * size + column) * 3
                pixels[offset] = UInt8(colour.0.rounded())
                pixels[offset + 1] = UInt8(colour.1.rounded())
                pixels[offset + 2] = UInt8(colour.2.rounded())
            }
        }
        return pixels
    }
}
