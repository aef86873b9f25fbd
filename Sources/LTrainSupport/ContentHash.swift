/// A fast 64-bit hash of file contents (multiply–rotate mixing, four words at a time), for
/// telling whether a file's bytes changed since the last build. Not for security.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(value: UInt64) {
        self.value = value
    }

    public init(_ bytes: UnsafeRawBufferPointer) {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
        let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let prime3: UInt64 = 0x1656_67B1_9E37_79F9
        @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            (lane &+ word &* prime2).rotatedLeft(31) &* prime1
        }
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            // Four independent lanes, 32 bytes a round: the multiplications of one round do not
            // wait for each other, so long inputs (every page is hashed) go about four times faster.
            var lanes = (prime1 &+ prime2, prime2, UInt64(0), UInt64(0) &- prime1)
            while offset + 32 <= count {
                lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            hash = lanes.0.rotatedLeft(1) &+ lanes.1.rotatedLeft(7) &+ lanes.2.rotatedLeft(12) &+ lanes.3.rotatedLeft(18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
                hash = (hash ^ mix(0, lane)) &* prime1 &+ prime3
            }
        } else {
            hash = 0x27D4_EB2F_1656_67C5
        }
        hash ^= UInt64(count)
        while offset + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash ^= mix(0, word)
            hash = hash.rotatedLeft(27) &* prime1 &+ 0x85EB_CA77_C2B2_AE63
            offset += 8
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* prime3
            hash = hash.rotatedLeft(11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        value = hash
    }

    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ContentHash($0) }
    }

    /// The hash of the text's UTF-8, as `ContentHasher.add(_:)` hashes a text.
    public init(_ text: String) {
        self = text.withUTF8Bytes { ContentHash(UnsafeRawBufferPointer($0)) }
    }

    /// The value as 16 lowercase hex digits, as the manifest and ETags write it.
    public var description: String {
        String(unsafeUninitializedCapacity: 16) { output in
            writeHex(into: output, at: 0)
            return 16
        }
    }

    /// Appends the 16 hex digits of `description` to `bytes`.
    package func appendHex(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            writeHex(into: digits, at: 0)
            bytes.append(contentsOf: digits)
        }
    }

    /// Writes the 16 hex digits of `description` at `offset` of `output` (the manifest is built so).
    package func writeHex(into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let digits: StaticString = "0123456789abcdef"
        for position in 0..<16 {
            output[offset + position] = digits.utf8Start[Int((value >> UInt64(60 - 4 * position)) & 0xF)]
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
        mix(ContentHash(text).value)
    }

    public mutating func add(_ hash: ContentHash) {
        mix(hash.value)
    }

    public mutating func add(_ number: Int) {
        mix(UInt64(bitPattern: Int64(number)))
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
