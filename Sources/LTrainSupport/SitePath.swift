/// Paths and links inside a site, as plain functions of their text: folders, resolving, relative
/// links and percent-encoding. Routes lays the site out with them; Check and Write read links and
/// record paths with the same ones.
public enum SitePath {
    /// Whether a link starts with a URL scheme such as `https:` or `mailto:`.
    public static func hasScheme(_ link: String) -> Bool {
        link.withUTF8Bytes { hasScheme($0) }
    }

    /// `hasScheme` of a link's UTF-8 bytes.
    public static func hasScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ":"):
                return !first
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                first = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if first { return false }
            default:
                return false
            }
        }
        return false
    }

    /// The non-empty components of a path, split at each '/' scalar. Not `split(separator: "/")`
    /// on the String, which splits at Characters: a combining mark after a '/' makes one
    /// Character of them, and that '/' would not separate anything.
    package static func components(of path: String) -> [Substring] {
        path.unicodeScalars.split(separator: "/").map(Substring.init)
    }

    /// The folder part of a path, with its '/' (`stations/` of `stations/a.html`), or "" at the root.
    /// Links from any two files in one folder are the same.
    public static func folder(of path: String) -> String {
        path.withUTF8Bytes { bytes in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[...slash]), as: UTF8.self)
        }
    }

    /// Resolves `relative` against the folder of the file `base` (both relative to one root).
    /// Returns nil when it would climb out of the root.
    public static func resolve(_ relative: String, against base: String) -> String? {
        resolve(relative, inFolder: folder(of: base))
    }

    /// Resolves `relative` against a folder as `folder(of:)` gives it (`stations/`, or "" for the
    /// root), for callers that resolve many links from one page.
    package static func resolve(_ relative: String, inFolder baseFolder: String) -> String? {
        let simple = relative.withUTF8Bytes { relativeBytes in
            baseFolder.withUTF8Bytes { folderBytes in resolveSimple(relativeBytes, inFolder: folderBytes) }
        }
        if let simple { return simple }
        var parts = components(of: baseFolder).map(String.init)
        for component in components(of: relative) {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }

    /// `../../name/…` with no other `.` or `..` segments and no empty ones: climb, then append.
    /// Byte-level, since the link check resolves every link of every page. Nil for anything else
    /// (including climbing out of the root), which the general way then judges.
    private static func resolveSimple(
        _ relative: UnsafeBufferPointer<UInt8>, inFolder folder: UnsafeBufferPointer<UInt8>
    ) -> String? {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var rest = 0
        // The folder's length in bytes, ending with its '/' (0 for the root).
        var folderLength = folder.count
        while relative.count - rest >= 3 && relative[rest] == dot && relative[rest + 1] == dot
            && relative[rest + 2] == slash
        {
            rest += 3
            guard folderLength > 0 else { return nil }
            // Drop the folder's last segment: back to the '/' before it, or to the root.
            var end = folderLength - 1
            while end > 0 && folder[end - 1] != slash { end -= 1 }
            folderLength = end
        }
        // Anything unusual left (an empty, `.` or `..` segment) goes the general way.
        var segmentLength = 0
        var dots = 0
        for byte in UnsafeBufferPointer(rebasing: relative[rest...]) {
            if byte == slash {
                if segmentLength == 0 || segmentLength == dots { return nil }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == dot { dots += 1 }
            }
        }
        if segmentLength == 0 || (segmentLength == dots && dots <= 2) { return nil }
        let tail = UnsafeBufferPointer(rebasing: relative[rest...])
        return String(unsafeUninitializedCapacity: folderLength + tail.count) { output in
            _ = output.initialize(from: UnsafeBufferPointer(rebasing: folder[..<folderLength]))
            _ = UnsafeMutableBufferPointer(rebasing: output[folderLength...]).initialize(from: tail)
            return folderLength + tail.count
        }
    }

    /// The relative URL from the file at `source` to the file at `target`, both relative to the
    /// site root: `stations/a.html` → `style.css` is `../style.css`.
    public static func relativePath(from source: String, to target: String) -> String {
        // On the paths' contiguous bytes, written once into the result: this runs for every link
        // of every page.
        let slash = UInt8(ascii: "/")
        return source.withUTF8Bytes { sourceBytes in
            target.withUTF8Bytes { targetBytes in
                // The common folder prefix: up to and including the last '/' both share at the same place.
                var common = 0
                var index = 0
                while index < sourceBytes.count && index < targetBytes.count && sourceBytes[index] == targetBytes[index] {
                    index += 1
                    if sourceBytes[index - 1] == slash { common = index }
                }
                var ups = 0
                for byte in UnsafeBufferPointer(rebasing: sourceBytes[common...]) where byte == slash { ups += 1 }
                let rest = UnsafeBufferPointer(rebasing: targetBytes[common...])
                var escapes = 0
                for byte in rest where !isUnreserved(byte) && byte != slash { escapes += 1 }
                return String(unsafeUninitializedCapacity: ups * 3 + rest.count + escapes * 2) { output in
                    var written = 0
                    for _ in 0..<ups {
                        output[written] = UInt8(ascii: ".")
                        output[written + 1] = UInt8(ascii: ".")
                        output[written + 2] = slash
                        written += 3
                    }
                    // Most paths need no escape: copied whole.
                    if escapes == 0 {
                        _ = UnsafeMutableBufferPointer(rebasing: output[written...]).initialize(from: rest)
                        return written + rest.count
                    }
                    for byte in rest { written += writePercentEncoded(byte, keeping: slash, into: output, at: written) }
                    return written
                }
            }
        }
    }

    /// One bit for each unreserved ASCII byte (letters, digits, `-`, `.`, `_`, `~`), in two words:
    /// one load and a shift, not a chain of range comparisons, for every byte of every link.
    private static let unreservedLow: UInt64 = 0x03FF_6000_0000_0000  // '-' '.' '0'…'9'
    private static let unreservedHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE  // 'A'…'Z' '_' 'a'…'z' '~'

    @inline(__always)
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        byte < 64 ? (unreservedLow >> UInt64(byte)) & 1 != 0
            : byte < 128 && (unreservedHigh >> UInt64(byte - 64)) & 1 != 0
    }

    /// Percent-encodes a path component for use in an `href`: everything but unreserved characters.
    public static func percentEncoded(_ component: String) -> String {
        if component.utf8.allSatisfy(isUnreserved) { return component }
        return String(unsafeUninitializedCapacity: component.utf8.count * 3) { output in
            var written = 0
            for byte in component.utf8 { written += writePercentEncoded(byte, into: output, at: written) }
            return written
        }
    }

    /// Writes `byte` at `offset` of `output`: itself when it is unreserved (or `kept`, such as the
    /// '/' between path components), `%XX` with uppercase hex digits otherwise. Returns how many
    /// bytes it wrote (1 or 3); `output` must have room for 3. The one encoder for links, paths and
    /// the manifest's ids.
    @inline(__always)
    package static func writePercentEncoded(
        _ byte: UInt8, keeping kept: UInt8? = nil, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        if isUnreserved(byte) || byte == kept {
            output[offset] = byte
            return 1
        }
        let hex: StaticString = "0123456789ABCDEF"
        output[offset] = UInt8(ascii: "%")
        output[offset + 1] = hex.utf8Start[Int(byte >> 4)]
        output[offset + 2] = hex.utf8Start[Int(byte & 0x0F)]
        return 3
    }

    /// Reverses `percentEncoded` (and any other `%XX` escapes); nil for malformed escapes.
    public static func percentDecoded(_ text: String) -> String? {
        var probe = text
        guard probe.withUTF8({ $0.contains(UInt8(ascii: "%")) }) else { return text }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
