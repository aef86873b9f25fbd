/// The one rule for the name of every file ltrain writes into a site, from its name on disk to
/// its URL and its line in `.ltrain-manifest`:
///
/// - **Which names a site may hold.** A path relative to the site's root, components joined by
///   `/`, each one neither empty nor `.` nor `..`, valid UTF-8 with no control character
///   (U+0000–U+001F, U+007F). The loader refuses any other name of a static or asset file, at
///   the file (`problem(inName:)`), as it refuses a path the system cannot open (`PATH_MAX`).
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
    /// Why `name` (one component of a path) cannot name a file of the site; nil when it can.
    package static func problem(inName name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." { return "a file name may not be empty, '.' or '..'" }
        if name.utf8.contains(UInt8(ascii: "/")) { return "a file name may not hold '/'" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "file name holds a control character"
        }
        return nil
    }

    /// Whether every component of `path` is a name the site may hold.
    package static func isAccepted(_ path: String) -> Bool {
        var path = path
        return path.withUTF8(isAccepted)
    }

    /// `isAccepted` over a path's UTF-8 bytes (`.ltrain-manifest` holds a path for every file);
    /// bytes that are not UTF-8 are judged by whoever decodes them.
    package static func isAccepted(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var componentLength = 0
        var dots = 0
        for byte in path {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || (componentLength == dots && dots <= 2) { return false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return componentLength > 0 && !(componentLength == dots && dots <= 2)
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
