/// The links and ids of one page, read from its HTML.
public struct PageLinks: Sendable {
    public var outputPath: String
    /// `href` and `src` values, with entities decoded, in document order.
    public var links: [String]
    public var ids: Set<String>
    public var templatePath: String
    public var sourceLinks: [SourceLink]

    public init(outputPath: String, html: String, templatePath: String, sourceLinks: [SourceLink]) {
        self.outputPath = outputPath
        let scanned = HTMLScanner.scan(html)
        self.links = scanned.links
        self.ids = scanned.ids
        self.templatePath = templatePath
        self.sourceLinks = sourceLinks
    }
}

/// The Check stage: every `href` and `src` in every page must resolve to a file of the output
/// (and to an `id` on it when it has a `#fragment`). A broken link is an error naming the Markdown
/// file and line where it was written, or the template it came from.
public enum LinkChecker {
    public enum Verdict: Equatable {
        case fine
        case external
        case broken(String, hint: String)
    }

    /// Judges one link found on the page at `source`.
    public static func judge(
        _ link: String, on source: String, files: Set<String>, ids: (String) -> Set<String>?, ownIDs: Set<String>
    ) -> Verdict {
        if link.isEmpty { return .fine }
        if link.hasPrefix("//") || Routes.hasScheme(link) { return .external }
        if link.hasPrefix("/") {
            return .broken(
                "starts at the root of the host, which breaks the site offline and under a sub-path",
                hint: "write the link relative to the page, e.g. '../stations/union-square.html'")
        }
        var target = link
        var fragment: String?
        if let hash = target.firstIndex(of: "#") {
            fragment = String(target[target.index(after: hash)...])
            target = String(target[..<hash])
        }
        if let query = target.firstIndex(of: "?") { target = String(target[..<query]) }
        if target.isEmpty {
            guard let fragment, !fragment.isEmpty else { return .fine }
            let decoded = Routes.percentDecoded(fragment) ?? fragment
            return ownIDs.contains(decoded)
                ? .fine
                : .broken(
                    "points to no id '\(decoded)' on this page",
                    hint: "check the spelling of the heading or id it should point to")
        }
        guard let decoded = Routes.percentDecoded(target) else {
            return .broken("has a malformed %-escape", hint: "write '%' as '%25'")
        }
        guard let resolved = Routes.resolve(decoded, against: source) else {
            return .broken("climbs out of the site", hint: "remove the extra '../'")
        }
        guard files.contains(resolved) else {
            let hint: String
            if target.hasSuffix("/") || files.contains(joinPath(resolved, "index.html")) {
                hint = "link to the file itself (…/index.html): folder links do not work offline"
            } else {
                hint = "check the path; it is relative to the page it appears on"
            }
            return .broken("points to \(resolved), which is not in the site", hint: hint)
        }
        if let fragment, !fragment.isEmpty, let targetIDs = ids(resolved) {
            let decodedFragment = Routes.percentDecoded(fragment) ?? fragment
            if !targetIDs.contains(decodedFragment) {
                return .broken(
                    "points to no id '\(decodedFragment)' on \(resolved)",
                    hint: "check the spelling of the id it should point to")
            }
        }
        return .fine
    }

    /// Checks every page; `files` holds every output path (pages and other files).
    public static func check(_ pages: [PageLinks], files: Set<String>, log: inout DiagnosticLog) -> [String] {
        var idsByPath: [String: Set<String>] = [:]
        for page in pages { idsByPath[page.outputPath] = page.ids }
        var external: Set<String> = []
        for page in pages {
            var reported: Set<String> = []
            for link in page.links {
                switch judge(link, on: page.outputPath, files: files, ids: { idsByPath[$0] }, ownIDs: page.ids) {
                case .fine:
                    continue
                case .external:
                    external.insert(link)
                case .broken(let reason, let hint):
                    guard reported.insert(link).inserted else { continue }
                    if let source = page.sourceLinks.first(where: { $0.destination == link }) {
                        // Name the link as the author wrote it, before it was rewritten to a page.
                        let written = "link '\(source.writtenDestination)'"
                        if let missing = source.missingContentFile {
                            log.report(
                                .error(
                                    "\(written) names the content file \(missing), which does not exist",
                                    path: source.displayPath, at: source.location,
                                    hint: "check the file name; links to content files are relative to the file they are written in"))
                            continue
                        }
                        log.report(.error("\(written) \(reason)", path: source.displayPath, at: source.location, hint: hint))
                    } else {
                        log.report(
                            .error(
                                "link '\(link)' on \(page.outputPath) \(reason)", path: page.templatePath,
                                hint: "the link comes from this template or one of its partials; \(hint)"))
                    }
                }
            }
        }
        return external.sorted()
    }
}

/// Reads `href`, `src` and `id` attributes out of HTML. Enough for the regular HTML of templates and
/// cmark: tags, quoted and unquoted attributes, comments, and script/style bodies skipped.
enum HTMLScanner {
    static func scan(_ html: String) -> (links: [String], ids: Set<String>) {
        var links: [String] = []
        var ids: Set<String> = []
        let bytes = Array(html.utf8)
        var index = 0
        let count = bytes.count
        func isNameByte(_ byte: UInt8) -> Bool {
            byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n")
                && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "=") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
        }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "/")
        }
        func skip(past marker: String) {
            let needle = Array(marker.utf8)
            while index < count {
                if bytes[index] == needle[0] && index + needle.count <= count
                    && bytes[index..<index + needle.count].elementsEqual(needle)
                {
                    index += needle.count
                    return
                }
                index += 1
            }
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: "<!--".utf8) {
                skip(past: "-->")
                continue
            }
            index += 1
            let nameStart = index
            while index < count && isNameByte(bytes[index]) { index += 1 }
            let tagName = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            // Attributes.
            while index < count && bytes[index] != UInt8(ascii: ">") {
                if isSpace(bytes[index]) {
                    index += 1
                    continue
                }
                let attributeStart = index
                while index < count && isNameByte(bytes[index]) { index += 1 }
                if index == attributeStart {
                    index += 1
                    continue
                }
                let name = String(decoding: bytes[attributeStart..<index], as: UTF8.self).lowercased()
                while index < count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n")) { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
                index += 1
                while index < count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n")) { index += 1 }
                guard index < count else { break }
                var value: String
                if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    index += 1
                    let valueStart = index
                    while index < count && bytes[index] != quote { index += 1 }
                    value = String(decoding: bytes[valueStart..<min(index, count)], as: UTF8.self)
                    index += 1
                } else {
                    let valueStart = index
                    while index < count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
                value = decodeEntities(value)
                switch name {
                case "href", "src": links.append(value)
                case "id": ids.insert(value)
                case "name" where tagName == "a": ids.insert(value)
                default: break
                }
            }
            index += 1
            if tagName == "script" { skip(past: "</script") } else if tagName == "style" { skip(past: "</style") }
        }
        return (links, ids)
    }

    /// Decodes the character references templates and cmark write in attributes.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let entities: [(String, String)] = [("&amp;", "&"), ("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">")]
        var result = ""
        var rest = Substring(text)
        outer: while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let tail = rest[ampersand...]
            for (entity, character) in entities where tail.hasPrefix(entity) {
                result += character
                rest = tail.dropFirst(entity.count)
                continue outer
            }
            result += "&"
            rest = tail.dropFirst()
        }
        result += rest
        return result
    }
}
