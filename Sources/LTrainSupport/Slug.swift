import Foundation

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
        } else if let base = asciiBases[scalar.value] {
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

/// The blocks that hold every character whose canonical decomposition begins with an ASCII letter
/// or digit (Latin-1 Supplement to Latin Extended-B, Latin Extended Additional, the Kelvin and
/// Ångström signs); SupportTests checks every other character against Foundation's decomposition.
private let asciiBaseBlocks: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x1E00...0x1EFF, 0x2100...0x214F]

/// Each character of `asciiBaseBlocks` that decomposes to an ASCII letter or digit and marks,
/// with the byte a slug keeps for it: "É" → "e". Worked out on first use, with Foundation's
/// decomposition, so that slugging a heading beyond ASCII makes no Foundation string per heading.
private let asciiBases: [UInt32: UInt8] = {
    var bases: [UInt32: UInt8] = [:]
    for block in asciiBaseBlocks {
        for value in block {
            guard let scalar = Unicode.Scalar(value),
                let first = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars.first,
                first.isASCII, let kept = lowercasedLetterOrDigit(UInt8(first.value))
            else { continue }
            bases[value] = kept
        }
    }
    return bases
}()

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
