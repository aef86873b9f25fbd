/// Lowercase ASCII words joined by `-`: "Bubba Gump Shrimp Étouffée" → "bubba-gump-shrimp-etouffee".
/// A letter with marks counts as its letter (as in the text's canonical decomposition, whose marks
/// are dropped); any other character beyond ASCII separates words.
package func slugify(_ text: String) -> String {
    var bytes = text
    if let slug = bytes.withUTF8(slugifyASCII) { return slug }
    var slug = ""
    var pendingDash = false
    for scalar in text.unicodeScalars {
        let kept: UInt8
        if scalar.isASCII {
            guard let letter = lowercasedLetterOrDigit(UInt8(scalar.value)) else {
                pendingDash = true
                continue
            }
            kept = letter
        } else if let base = asciiBase(of: scalar.value) {
            kept = base
        } else if scalar.properties.generalCategory == .nonspacingMark {
            continue
        } else {
            pendingDash = true
            continue
        }
        if pendingDash && !slug.isEmpty { slug += "-" }
        pendingDash = false
        slug.unicodeScalars.append(Unicode.Scalar(kept))
    }
    return slug
}

/// The byte a slug keeps for an ASCII byte (a letter lowercased, or a digit); nil for the rest.
@inline(__always)
private func lowercasedLetterOrDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return byte
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
    default: return nil
    }
}

/// The byte a slug keeps for a character beyond ASCII that decomposes to an ASCII letter or digit
/// and marks ("É" → "e"); nil for every other character.
private func asciiBase(of value: UInt32) -> UInt8? {
    for block in asciiBaseBlocks where value >= block.first && value - block.first < UInt32(block.bases.count) {
        let base = block.bases[Int(value - block.first)]
        return base == UInt8(ascii: ".") ? nil : base
    }
    return nil
}

/// The blocks that hold every character whose canonical decomposition begins with an ASCII letter
/// or digit (Latin-1 Supplement to Latin Extended-B, Latin Extended Additional, the Kelvin and
/// Ångström signs), each from its first character on: one byte a character, the lowercased letter
/// or digit it decomposes to, or `.` for none. Written out here, not worked out on first use with
/// Foundation's decomposition of each of these characters (hundreds of Foundation strings in every
/// build whose headings go beyond ASCII); SupportTests checks every character against it.
private let asciiBaseBlocks: [(first: UInt32, bases: [UInt8])] = [
    // 0xC0…, 0x100…, 0x140…, 0x180…, 0x1C0…, 0x200…, 0x240…0x24F
    (
        0xC0,
        bases([
            "aaaaaa.ceeeeiiii.nooooo..uuuuy..aaaaaa.ceeeeiiii.nooooo..uuuuy.y",
            "aaaaaaccccccccdd..eeeeeeeeeegggggggghh..iiiiiiiii...jjkk.llllll.",
            "...nnnnnn...oooooo..rrrrrrsssssssstttt..uuuuuuuuuuuuwwyyyzzzzzz.",
            "................................oo.............uu...............",
            ".............aaiioouuuuuuuuuu.aaaa....ggkkoooo..j...gg..nnaa....",
            "aaaaeeeeiiiioooorrrruuuusstt..hh......aaeeooooooooyy............",
            "................",
        ])
    ),
    // 0x1E00…, 0x1E40…, 0x1E80…, 0x1EC0…0x1EFF
    (
        0x1E00,
        bases([
            "aabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmm",
            "mmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvv",
            "wwwwwwwwwwxxxxyyzzzzzzhtwy......aaaaaaaaaaaaaaaaaaaaaaaaeeeeeeee",
            "eeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy......",
        ])
    ),
    // Of 0x2100…0x214F, only the Kelvin sign (U+212A) and the Ångström sign (U+212B).
    (0x212A, bases(["ka"])),
]

/// The bytes of a block's lines, one after the other.
private func bases(_ lines: [String]) -> [UInt8] {
    Array(lines.joined().utf8)
}

/// A slug (ASCII, words joined by `-`) cut to at most `limit` characters at the end of a word,
/// or mid-word when its first word alone is longer: "very-long-title" to 9 is "very-long".
package func shortened(slug: String, to limit: Int) -> String {
    guard slug.utf8.count > limit else { return slug }
    let kept = slug.utf8.prefix(limit + 1)
    if let dash = kept.lastIndex(of: UInt8(ascii: "-")), dash > kept.startIndex {
        return String(decoding: slug.utf8[..<dash], as: UTF8.self)
    }
    return String(decoding: slug.utf8.prefix(limit), as: UTF8.self)
}

/// `slugify` for ASCII text, byte by byte over the text's UTF-8 in place, since headings are
/// slugged on every page; nil when the text is not all ASCII.
private func slugifyASCII(_ text: UnsafeBufferPointer<UInt8>) -> String? {
    guard text.allSatisfy({ $0 < 0x80 }) else { return nil }
    // A slug is never longer than its text: each byte kept is one byte of the text, and a dash
    // stands for at least one byte dropped before it.
    return String(unsafeUninitializedCapacity: text.count) { slug in
        var count = 0
        var pendingDash = false
        for byte in text {
            guard let lowered = lowercasedLetterOrDigit(byte) else {
                pendingDash = true
                continue
            }
            if pendingDash && count > 0 {
                slug[count] = UInt8(ascii: "-")
                count += 1
            }
            pendingDash = false
            slug[count] = lowered
            count += 1
        }
        return count
    }
}

/// Slugs made unique within one document: `base`, or `base-2`, `base-3`, … , the first not
/// taken yet. Each base remembers the next suffix to try, so N equal headings cost O(N), not the
/// O(N²) of probing `-2`, `-3`, … from the start every time.
package struct UniqueSlugs {
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]
    /// Slugs tried so far, taken or not: the work claiming did, for tests that hold it linear.
    package private(set) var tries = 0

    package init() {}

    /// Slugs that `reserved` already holds (ids the page's template writes) are never given out.
    package init<Names: Sequence<String>>(reserving reserved: Names) {
        used = Set(reserved)
    }

    package mutating func claim(_ base: String) -> String {
        tries += 1
        if used.insert(base).inserted { return base }
        var suffix = nextSuffix[base] ?? 2
        var candidate = "\(base)-\(suffix)"
        tries += 1
        while !used.insert(candidate).inserted {
            suffix += 1
            candidate = "\(base)-\(suffix)"
            tries += 1
        }
        nextSuffix[base] = suffix + 1
        return candidate
    }
}
