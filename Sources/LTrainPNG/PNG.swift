import CPNG

/// An image's width and height in pixels.
public struct PixelSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// PNG encoding through libpng's simplified API (no `setjmp`: errors come back as a flag).
package enum PNG {
    /// Encodes 8-bit RGB pixels (opaque), row by row from the top, as a PNG. Nil if libpng fails.
    package static func encode(rgb pixels: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard pixels.count == width * height * 3, width > 0, height > 0 else { return nil }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = ltrain_png_format_rgb
        // libpng's fast write (no row filters, light compression): the drawn icons, flat colours,
        // come out no larger and in a fraction of the time (docs/benchmarks.md, "Optimisations").
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
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
    package static let largestSide = 4_096

    /// The size of the PNG `bytes` hold, read to its last pixel (a truncated file, a bad
    /// checksum or a header alone fails), or why libpng could not read it.
    package static func decodedSize(of bytes: [UInt8]) -> Result<PixelSize, PNGProblem> {
        decoded(bytes).map(\.size)
    }

    /// The size and the 8-bit RGB pixels of the PNG `bytes` hold, as `decodedSize` reads them.
    package static func decoded(_ bytes: [UInt8]) -> Result<(size: PixelSize, rgb: [UInt8]), PNGProblem> {
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
        return .success((size, pixels))
    }
}

/// Why an image is not a PNG ltrain can use.
package enum PNGProblem: Error, Equatable {
    /// libpng's own words ("Not a PNG file", "Read Error" for a truncated one, a bad CRC).
    case unreadable(String)
    case tooLarge(PixelSize)
}

