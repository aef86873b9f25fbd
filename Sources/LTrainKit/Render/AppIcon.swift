import CPNG
import LTrainSupport
import LTrainMustache
import LTrainMarkdown

/// PNG encoding through libpng's simplified API (no `setjmp`: errors come back as a flag).
enum PNG {
    /// Encodes 8-bit RGB pixels (opaque), row by row from the top, as a PNG. Nil if libpng fails.
    static func encode(rgb pixels: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard pixels.count == width * height * 3, width > 0, height > 0 else { return nil }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = ltrain_png_format_rgb
        defer { png_image_free(&image) }
        // Room for the pixels stored uncompressed (a filter byte a row, deflate's few bytes a
        // block) and the PNG's chunks: the write never runs out, so the image is compressed once.
        let raw = height * (width * 3 + 1)
        var size = raw + raw / 16_000 * 5 + 4_096
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { buffer in
            pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
        }
        guard written != 0, size <= output.count else { return nil }
        return Array(output.prefix(size))
    }

    /// The largest side `decodedSize(of:)` reads: a home-screen icon needs at most 1024 pixels,
    /// and a header claiming more than this would ask for a buffer of gigabytes.
    static let largestSide = 4_096

    /// The size of the PNG `bytes` hold, read to its last pixel (a truncated file, a bad
    /// checksum or a header alone fails), or why libpng could not read it.
    static func decodedSize(of bytes: [UInt8]) -> Result<PixelSize, PNGProblem> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        func message() -> String {
            withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { return .failure(.unreadable(message())) }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        guard size.width <= largestSide, size.height <= largestSide else { return .failure(.tooLarge(size)) }
        image.format = ltrain_png_format_rgb
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { return .failure(.unreadable(message())) }
        return .success(size)
    }
}

/// Why an image is not a PNG ltrain can use.
enum PNGProblem: Error, Equatable {
    /// libpng's own words ("Not a PNG file", "Read Error" for a truncated one, a bad CRC).
    case unreadable(String)
    case tooLarge(PixelSize)
}

/// The site's default app icon, drawn from the theme: the line in the L's grey, across a white
/// tile, with three stops (the middle one larger), like the index's strip map. Full-bleed, with
/// everything inside the central 80% so it also serves as a maskable icon.
enum AppIcon {
    /// Sizes browsers and iOS ask for: 192 and 512 (the web app manifest), 180 (the home screen on iOS).
    static let files: [(path: String, size: Int)] = [
        ("icons/icon-192.png", 192), ("icons/icon-512.png", 512), ("icons/apple-touch-icon.png", 180),
    ]

    static let lineGrey: (UInt8, UInt8, UInt8) = (0xA7, 0xA9, 0xAC)
    static let tile: (UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF)
    static let ink: (UInt8, UInt8, UInt8) = (0x1C, 0x1C, 0x1E)

    /// What an icon is made from: this drawing at this size. An icon whose key matches the one
    /// the output has is kept, not drawn again, since encoding is a no-op rebuild's largest cost.
    static func key(for path: String) -> ContentHash? {
        guard let icon = files.first(where: { $0.path == path }) else { return nil }
        var hasher = ContentHasher()
        hasher.add(ltrainVersion)
        hasher.add("app icon")
        hasher.add(icon.size)
        return hasher.hash
    }

    /// The icon as PNG bytes, `size` pixels square.
    static func png(size: Int) -> [UInt8]? {
        PNG.encode(rgb: pixels(size: size), width: size, height: size)
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
