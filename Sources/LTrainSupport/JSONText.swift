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
        var text = text
        text.withUTF8 { appendQuoted($0, to: &bytes) }
    }

    /// Whether any of the eight bytes is one `appendQuoted` escapes (a control character, `"`, `\`,
    /// `<`) or the lead byte of U+2028/U+2029 (0xE2), tested on all eight at once: a byte of
    /// `word ^ repeated(c)` is zero where the byte is `c`, and `(x - 0x01…) & ~x & 0x80…` is
    /// nonzero exactly when some byte of `x` is zero (or, with 0x20…, below 0x20).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below20 || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || hasZero(word ^ (ones &* 0x3C)) || hasZero(word ^ (ones &* 0xE2))
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
        while index < utf8.count {
            // Most text needs no escape: passed eight bytes at a time.
            if index + 8 <= utf8.count, let base = utf8.baseAddress,
                !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
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
