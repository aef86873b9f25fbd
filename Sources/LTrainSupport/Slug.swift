/// Lowercase ASCII words joined by `-`: "Bubba Gump Shrimp Étouffée" → "bubba-gump-shrimp-etouffee".
package func slugify(_ text: String) -> String {
    var bytes = text
    if let slug = bytes.withUTF8(slugifyASCII) { return slug }
    var slug = ""
    var pendingDash = false
    // Beyond ASCII: decomposed, so accents become marks to drop.
    let scalars = text.decomposedStringWithCanonicalMapping.unicodeScalars
    for scalar in scalars {
        if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            if pendingDash && !slug.isEmpty { slug += "-" }
            pendingDash = false
            slug.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value)).lowercasedASCII)
        } else if scalar.properties.generalCategory == .nonspacingMark {
            continue
        } else {
            pendingDash = true
        }
    }
    return slug
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
            let lowered: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): lowered = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): lowered = byte + 32
            default:
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

extension Unicode.Scalar {
    fileprivate var lowercasedASCII: Unicode.Scalar {
        ("A"..."Z").contains(self) ? Unicode.Scalar(value + 32) ?? self : self
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
