import Foundation

/// A set of links held as their UTF-8 bytes, found by the bytes a page holds without making a
/// String of them: the link check's memory of links judged fine and of external links listed,
/// which every link of every page is looked up in. A `Set<String>` asked a String made for each
/// link (its bytes validated, most of them allocated), hashed it with SipHash and compared it
/// through the string's storage.
///
/// Open addressing over one array of slots, each holding a tag of the link's hash and where its
/// entry is; the links' bytes sit end to end in one buffer. The hash is seeded once a process,
/// and a search gives up after `maximumProbes` slots: the set is a memory of work done, so a link
/// it does not find or keep is only judged again, and no run of colliding links, however it was
/// made, can make a lookup cost more than that (the table grows past such a run while it is more
/// than an eighth full, so links that merely happen to collide are kept).
package struct LinkSet: Sendable {
    /// For each slot, 0 when empty; else the top 32 bits of the link's hash and, below them, its
    /// entry's index plus one.
    private var slots: [UInt64] = []
    /// For each link: where its bytes start in `bytes`, and their count.
    private var entries: [(start: UInt32, count: UInt32, hash: UInt64)] = []
    private var bytes: [UInt8] = []

    /// Slots a lookup or an insertion reads at most.
    static let maximumProbes = 32

    package init() {}

    package var count: Int { entries.count }

    /// The process's seed: a site's links cannot be chosen to collide without knowing it.
    private static let seed = UInt64.random(in: .min ... .max)

    /// A hash of `link`, eight bytes a round (links are short: a few rounds).
    static func hash(_ link: UnsafeRawBufferPointer) -> UInt64 {
        @inline(__always) func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let product = a.multipliedFullWidth(by: b)
            return product.high ^ product.low
        }
        let count = link.count
        var hash = seed ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= count {
            hash = mix(hash ^ link.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0xA076_1D64_78BD_642F)
            offset += 8
        }
        if offset < count {
            var last: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                last |= UInt64(link[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = mix(hash ^ last, 0xE703_7ED1_A0B4_28DB)
        }
        return mix(hash, 0x8EBC_6AF0_9C88_C6E3)
    }

    package func contains(_ link: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(link, hash: Self.hash(UnsafeRawBufferPointer(link)))
    }

    /// `contains(link)` with the link's `hash(_:)` worked out already (one for several sets).
    package func contains(_ link: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        find(UnsafeRawBufferPointer(link), hash: hash) != nil
    }

    package func contains(_ link: String) -> Bool {
        link.withUTF8Bytes { contains($0) }
    }

    /// Adds `link` unless it is there (or its search met `maximumProbes` slots taken by others).
    package mutating func insert(_ link: UnsafeBufferPointer<UInt8>) {
        insert(link, hash: Self.hash(UnsafeRawBufferPointer(link)))
    }

    /// `insert(link)` with the link's hash given: tests give colliding ones.
    package mutating func insert(_ link: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        let raw = UnsafeRawBufferPointer(link)
        guard find(raw, hash: hash) == nil else { return }
        if (entries.count + 1) * 2 > slots.count { grow() }
        // A long run of taken slots is chance while the table is fuller than an eighth (it grows
        // then); in a sparser one it is links made to collide, and the link is not kept.
        var free = freeSlot(for: hash)
        while free == nil && entries.count * 8 > slots.count {
            grow()
            free = freeSlot(for: hash)
        }
        guard let slot = free else { return }
        slots[slot] = tag(hash) | UInt64(entries.count + 1)
        entries.append((UInt32(bytes.count), UInt32(link.count), hash))
        bytes.append(contentsOf: link)
    }

    package mutating func insert(_ link: String) {
        link.withUTF8Bytes { insert($0) }
    }

    @inline(__always)
    private func tag(_ hash: UInt64) -> UInt64 { hash & 0xFFFF_FFFF_0000_0000 }

    /// The slot of `link`, or nil.
    private func find(_ link: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = tag(hash)
        for _ in 0..<Self.maximumProbes {
            let value = slots[slot]
            if value == 0 { return nil }
            if value & 0xFFFF_FFFF_0000_0000 == tag {
                let entry = entries[Int(value & 0xFFFF_FFFF) - 1]
                if entry.count == link.count && equals(link, at: Int(entry.start)) { return slot }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Whether the kept bytes from `start` are `link`'s.
    private func equals(_ link: UnsafeRawBufferPointer, at start: Int) -> Bool {
        bytes.withUnsafeBytes { kept in
            // Both are there unless the link is empty, and an empty one matches.
            guard let kept = kept.baseAddress, let wanted = link.baseAddress else { return true }
            return memcmp(kept + start, wanted, link.count) == 0
        }
    }

    /// The first empty slot of `hash`'s search, or nil past `maximumProbes`.
    private func freeSlot(for hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<Self.maximumProbes {
            if slots[slot] == 0 { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Twice the slots (at least 64), every entry placed again by its kept hash; an entry whose
    /// search finds no slot is dropped, with its bytes left unused.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: max(64, slots.count * 2))
        let old = entries
        entries.removeAll(keepingCapacity: true)
        for entry in old {
            guard let slot = freeSlot(for: entry.hash) else { continue }
            slots[slot] = tag(entry.hash) | UInt64(entries.count + 1)
            entries.append(entry)
        }
    }
}
