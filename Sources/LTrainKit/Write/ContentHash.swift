/// A fast 64-bit hash of file contents, word at a time (multiply–rotate mixing), for telling
/// whether a file's bytes changed since the last build. Not for security.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(value: UInt64) {
        self.value = value
    }

    public init(_ bytes: UnsafeRawBufferPointer) {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
        let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var hash: UInt64 = 0x27D4_EB2F_1656_67C5 ^ UInt64(bytes.count)
        var offset = 0
        let count = bytes.count
        while offset + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash ^= (word &* prime2).rotatedLeft(31) &* prime1
            hash = hash.rotatedLeft(27) &* prime1 &+ 0x85EB_CA77_C2B2_AE63
            offset += 8
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* 0x1656_67B1_9E37_79F9
            hash = hash.rotatedLeft(11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* 0x1656_67B1_9E37_79F9
        hash ^= hash >> 32
        value = hash
    }

    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ContentHash($0) }
    }

    /// The value as 16 lowercase hex digits, as the manifest and ETags write it.
    public var description: String {
        var bytes: [UInt8] = []
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the 16 hex digits of `description` to a byte buffer (the manifest is built so).
    func appendHex(to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)])
        }
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}

/// Builds the hash of several values in order, each one delimited so that ("ab", "c") and
/// ("a", "bc") differ: every value is hashed on its own (its length is part of its hash) and the
/// hashes are mixed in order, so nothing is copied.
public struct ContentHasher {
    private var state: UInt64 = 0x517C_C1B7_2722_0A95

    public init() {}

    public mutating func add(_ text: String) {
        var text = text
        mix(text.withUTF8 { ContentHash(UnsafeRawBufferPointer($0)) }.value)
    }

    public mutating func add(_ hash: ContentHash) {
        mix(hash.value)
    }

    private mutating func mix(_ value: UInt64) {
        state = (state ^ value).rotatedLeft(29) &* 0x9E37_79B1_85EB_CA87 &+ 0x1656_67B1_9E37_79F9
    }

    public var hash: ContentHash {
        var value = state
        value ^= value >> 33
        value = value &* 0xC2B2_AE3D_27D4_EB4F
        value ^= value >> 29
        return ContentHash(value: value)
    }
}
