/// A fast 64-bit hash of file contents, word at a time (multiply–rotate mixing), for telling
/// whether a file's bytes changed since the last build. Not for security.
struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    let value: UInt64

    init(value: UInt64) {
        self.value = value
    }

    init(_ bytes: UnsafeRawBufferPointer) {
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

    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ContentHash($0) }
    }

    var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
