import Foundation

/// JSON string literals, for the few JSON texts ltrain writes (the web app manifest, the offline
/// list, serve's problem events): one escaping rule for all of them.
package enum JSONText {
    /// `text` as a JSON string literal. `<` is escaped too, so the text can never close a script
    /// element it is written into, and U+2028/U+2029, which JavaScript before ES2019 reads as
    /// line ends.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `quoted(text)` appended to `bytes`: runs of bytes that need no escape are copied whole
    /// (the search index quotes a site's every text).
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        text.withUTF8Bytes { appendQuoted($0, to: &bytes) }
    }

    /// The high bit of each of the eight bytes that may be one `appendQuoted` escapes (a control
    /// character, `"`, `\`, `<`) or the lead byte of U+2028/U+2029 (0xE2); zero when none is. A
    /// byte of `word ^ repeated(c)` is zero where the byte is `c`, and `(x - 0x01…) & ~x` has the
    /// high bit of every zero byte of `x` (or, with 0x20…, of every byte below 0x20), and may have
    /// more (those bytes only go the slow way). One mask, no branch: tested sixteen bytes a time.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        let below20 = (word &- ones &* 0x20) & ~word
        return (below20 | zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C)) | zeros(word ^ (ones &* 0x3C))
            | zeros(word ^ (ones &* 0xE2))) & 0x8080_8080_8080_8080
    }

    package static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        let hex = hexDigits
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        func escape(_ replacement: String, length: Int) {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            bytes.append(contentsOf: replacement.utf8)
            index += length
            runStart = index
        }
        let base = UnsafeRawPointer(utf8.baseAddress)
        while index < utf8.count {
            // Most text needs no escape: passed sixteen bytes at a time, then eight, up to the
            // first byte a mask flags (the lowest is one to escape or 0xE2: borrows only flag bytes
            // above it); the last few bytes one by one.
            if let base {
                var mask: UInt64 = 0
                while mask == 0 && index + 8 <= utf8.count {
                    let low = escapeMask(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    if low != 0 {
                        mask = low
                    } else if index + 16 <= utf8.count {
                        let high = escapeMask(base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
                        index += high == 0 ? 16 : 8
                        mask = high
                    } else {
                        index += 8
                    }
                }
                if mask != 0 { index += mask.trailingZeroBitCount >> 3 }
                guard index < utf8.count else { break }
            }
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): escape("\\\"", length: 1)
            case UInt8(ascii: "\\"): escape("\\\\", length: 1)
            case 0x0A: escape("\\n", length: 1)
            case 0x0D: escape("\\r", length: 1)
            case 0x09: escape("\\t", length: 1)
            case UInt8(ascii: "<"): escape("\\u003c", length: 1)
            case 0x00..<0x20:
                escape("\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self), length: 1)
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                escape(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", length: 3)
            default: index += 1
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        bytes.append(UInt8(ascii: "\""))
    }
}
