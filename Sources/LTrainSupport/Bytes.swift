#if canImport(Glibc)
    import Glibc
#endif

extension UnsafeRawBufferPointer {
    /// The offset of the first `byte` at or after `start`, found with memchr; nil when there is none.
    /// The scans that run over every page and every source file jump from one byte to the next so.
    package func firstOffset(of byte: UInt8, from start: Int) -> Int? {
        guard start < count, let base = baseAddress, let found = memchr(base + start, Int32(byte), count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
