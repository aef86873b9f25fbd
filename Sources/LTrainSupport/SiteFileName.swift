/// The one rule for the name of every file ltrain writes into a site, from its name on disk to
/// its URL and its line in `.ltrain-manifest`:
///
/// - **Which names a site may hold.** A path relative to the site's root, components joined by
///   `/`, each one neither empty nor `.` nor `..`, valid UTF-8 with no control character
///   (U+0000–U+001F, U+007F), and not beginning or ending with a character that would join the
///   `/` beside it into one Character (a combining mark). The loader refuses any other name of a
///   static or asset file, at the file (`problem(inName:)`), as it refuses a path the system
///   cannot open (`PATH_MAX`).
///   Page paths come from slugs, which hold only ASCII letters, digits, `-` and `_`.
/// - **Its URL.** Every byte but the unreserved ones (letters, digits, `-._~`) and the `/`
///   between components is percent-encoded once, with uppercase hex (`url(of:)`; links between
///   pages go through `SitePath.relativePath`, which encodes the same way). Every `href`, `src`,
///   the sitemap, canonical links and the offline list are written so; `path(ofURL:)` reverses it
///   exactly, and nothing is encoded twice.
/// - **Its manifest line.** The path is the line's last field, written as it is: an accepted name
///   holds no newline, so the line ends where the name does (`Manifest`).
///
/// Which paths ltrain may replace is the other half of the rule; see `ReplaceRule`.
package enum SiteFileName {
    /// What is wrong with a name a site cannot hold, and how to mend it.
    package struct Problem: Equatable, Sendable {
        package var message: String
        package var hint: String
    }

    /// Why `name` (one component of a path) cannot name a file of the site; nil when it can.
    package static func problem(inName name: String) -> Problem? {
        if name.isEmpty || name == "." || name == ".." {
            return Problem(message: "a file name may not be empty, '.' or '..'", hint: "rename it")
        }
        if name.utf8.contains(UInt8(ascii: "/")) { return Problem(message: "a file name may not hold '/'", hint: "rename it") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return Problem(
                message: "file name holds a control character",
                hint: "rename it without line breaks, tabs or other control characters")
        }
        if joinsItsSlashes(name) {
            return Problem(
                message: "file name begins or ends with a character that joins the '/' beside it "
                    + "(a combining mark such as U+0301, or a prefixed mark such as U+0600)",
                hint: "rename it so that it begins and ends with a letter, digit or other mark-free character")
        }
        return nil
    }

    /// Whether `name`, between two `/`, would make one Character with either of them. A path is
    /// text, and text is compared, split and searched by Character (`hasPrefix`, `split`), so a
    /// name that begins with a combining mark would hide the `/` before it: `static/\u{301}x` would
    /// not start with `static/`. Judged by Swift's own grapheme breaking, whatever the mark.
    private static func joinsItsSlashes(_ name: String) -> Bool {
        guard name.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        let probe = "a/" + name + "/a"
        var characters = probe.makeIterator()
        _ = characters.next()
        guard characters.next() == "/" else { return true }
        return probe.last != "a" || probe.dropLast().last != "/"
    }

    /// Whether every component of `path` is a name the site may hold.
    package static func isAccepted(_ path: String) -> Bool {
        var path = path
        return path.withUTF8(isAccepted)
    }

    /// `isAccepted` over a path's UTF-8 bytes (`.ltrain-manifest` holds a path for every file);
    /// bytes that are not UTF-8 are judged as the manifest decodes them, with replacement characters.
    package static func isAccepted(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var componentLength = 0
        var dots = 0
        var ascii = true
        for byte in path {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || (componentLength == dots && dots <= 2) { return false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard componentLength > 0 && !(componentLength == dots && dots <= 2) else { return false }
        if ascii { return true }
        return !SitePath.components(of: String(decoding: path, as: UTF8.self)).contains { joinsItsSlashes(String($0)) }
    }

    /// The URL of the file at `path`, relative to the site's root.
    package static func url(of path: String) -> String {
        SitePath.relativePath(from: "index.html", to: path)
    }

    /// The path a URL relative to the site's root names; nil for a malformed escape.
    package static func path(ofURL url: String) -> String? {
        SitePath.percentDecoded(url)
    }
}
