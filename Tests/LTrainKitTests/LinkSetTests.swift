import Testing

@testable import LTrainCheck

@Suite struct LinkSetTests {
    /// Links of every length around the eight-byte rounds of the hash, the empty one, links one
    /// byte apart and links beyond ASCII: each found once added, by its bytes and as text, and
    /// none that was not added.
    @Test func findsWhatWasAddedAndNothingElse() {
        var links: [String] = [""]
        for length in 1...40 {
            let base = String(repeating: "a", count: length)
            links.append(base)
            links.append(String(base.dropLast()) + "b")
        }
        links += ["../stations/b.html", "../stations/b.htm", "../stations/c.html", "é.html", "e\u{301}.html", "🚇/x.html"]
        var set = LinkSet()
        for (index, link) in links.enumerated() {
            #expect(!set.contains(link), "\(link) before it was added")
            set.insert(link)
            #expect(set.contains(link), "\(link) once added")
            #expect(set.count == index + 1)
        }
        // Added again: no second entry.
        for link in links { set.insert(link) }
        #expect(set.count == links.count)
        for link in links {
            #expect(Array(link.utf8).withUnsafeBufferPointer { set.contains($0) })
        }
        for absent in ["aaaa" + "c", "../stations/d.html", "é.htm", "e.html", String(repeating: "a", count: 41)] {
            #expect(!set.contains(absent), "\(absent)")
        }
    }

    /// Through many growths: every link kept and found, and none made up (a link that merely
    /// happens to meet a long run of taken slots makes the table grow rather than go unkept).
    @Test func keepsEveryLinkAsItGrows() {
        var set = LinkSet()
        let count = 100_000
        for number in 0..<count { set.insert("stop-\(number).html") }
        #expect(set.count == count)
        #expect((0..<count).allSatisfy { set.contains("stop-\($0).html") })
        #expect(!(count..<count + 1_000).contains { set.contains("stop-\($0).html") })
    }

    /// Links whose hashes all fall on one slot: past `maximumProbes` of them the set keeps no
    /// more (they are judged again instead), so no lookup reads more slots than that; those it
    /// kept are still found, and links of other hashes are kept and found as before.
    @Test func collidingLinksCostAtMostTheProbeLimit() {
        var set = LinkSet()
        // Their slot is 40 before the one "style.css" hashes to, whatever the process's seed, so
        // its search starts past their run. (With a fixed slot, about one seed in 256 put
        // "style.css" on the run's first slot, where it met 32 taken slots and was not kept.)
        let styleHash = Array("style.css".utf8).withUnsafeBytes { LinkSet.hash($0) }
        let collidingHash = styleHash &- 40
        let colliding = (0..<(LinkSet.maximumProbes * 3)).map { Array("link-\($0)".utf8) }
        for link in colliding { link.withUnsafeBufferPointer { set.insert($0, hash: collidingHash) } }
        #expect(set.count == LinkSet.maximumProbes)
        for (index, link) in colliding.enumerated() {
            let found = link.withUnsafeBufferPointer { set.contains($0, hash: collidingHash) }
            #expect(found == (index < LinkSet.maximumProbes), "link \(index)")
        }
        set.insert("style.css")
        #expect(set.contains("style.css"))
        #expect(!set.contains("link-0"), "found under its real hash, which it was not kept under")
    }
}
