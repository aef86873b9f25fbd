#if canImport(Glibc)
    import Glibc
#endif

extension UnsafeRawBufferPointer {
    /// Whether both hold the same bytes (memcmp).
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }

    /// The offset of the first `byte` at or after `start`, found with memchr; nil when there is none.
    /// The scans that run over every page and every source file jump from one byte to the next so.
    package func firstOffset(of byte: UInt8, from start: Int) -> Int? {
        guard start < count, let base = baseAddress, let found = memchr(base + start, Int32(byte), count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}

extension Array {
    /// Whether both arrays are the very same storage (so the same elements, as arrays are copied
    /// before they change): a comparison of one address, for values kept from one version of a
    /// site to the next. Empty arrays are never the same.
    package func sharesStorage(with other: [Element]) -> Bool {
        guard count == other.count, !isEmpty else { return false }
        let mine = withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        return mine == other.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}

extension String {
    /// Calls `body` with the text's UTF-8 bytes, read in place: a native string (as nearly every
    /// one is) needs neither the copy of itself nor the release that `withUTF8` on a `var` costs,
    /// on paths that run for every append of a page and every link (docs/benchmarks.md,
    /// "Optimisations"). Others go through `withUTF8`. Inlinable: a generic call across modules
    /// costs more than the copy it saves.
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return try text.withUTF8(body)
    }

    /// The offset in the text's UTF-8 of the first `byte` (an ASCII byte, so never part of a
    /// longer character), or nil. With memchr on the contiguous bytes: `utf8.firstIndex(of:)` steps
    /// through String indices, several times slower, and it runs for every link of every page.
    package func firstUTF8Offset(of byte: UInt8) -> Int? {
        withUTF8Bytes { UnsafeRawBufferPointer($0).firstOffset(of: byte, from: 0) }
    }
}
