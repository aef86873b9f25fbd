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

    /// `quoted(text)` appended to `bytes`, byte by byte (for long texts such as the search index).
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = pending.isEmpty ? utf8.next() : pending.removeFirst() {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "<"): bytes += Array("\\u003c".utf8)
            case 0x00..<0x20:
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                guard let second = utf8.next() else {
                    bytes.append(byte)
                    continue
                }
                guard second == 0x80, let third = utf8.next() else {
                    bytes.append(byte)
                    pending.append(second)
                    continue
                }
                if third == 0xA8 || third == 0xA9 {
                    bytes += Array((third == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                } else {
                    bytes += [byte, second]
                    pending.append(third)
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
