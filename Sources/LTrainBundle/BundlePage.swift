import LTrainKit
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainLoad
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainCheck
import LTrainWrite
import LTrainScaffold
import LTrainTemplates
import LTrainPNG

/// One rendered page made into a section of the bundle: its body's content, with every id made
/// unique by the page's own prefix, every link to a page of the site turned into a fragment of
/// the bundle, and every file it refers to (images) inlined.
struct BundlePage {
    let outputPath: String
    let html: String

    /// The section's id: `index`, `stations-union-square`, `info-union-square`, …
    static func id(of outputPath: String) -> String {
        let withoutSuffix = outputPath.hasSuffix(".html") ? String(outputPath.dropLast(5)) : outputPath
        return withoutSuffix.replacingOccurrences(of: "/", with: "-")
    }

    var id: String { Self.id(of: outputPath) }

    /// Between a page's id and the id of an element of it: a character no page id holds (slugs
    /// are letters, digits, `-` and `_`), so `info-a` + `b` can never be the page `info-a--b`.
    static let separator = "."

    /// `pages`: every page's output path; `files`: every other file of the site, by output path.
    func section(pages: Set<String>, files: SiteBundle.InlinedFiles) -> String {
        let (bodyAttributes, content) = body()
        let kind = attribute("data-page", in: bodyAttributes) ?? ""
        let classes = attribute("class", in: bodyAttributes) ?? ""
        // A <div>, not a <section>: the page's own header and main stay its banner and main
        // landmarks. Every page but the index is `hidden`, so one main is visible to a reader
        // without CSS; the bundle's CSS shows the page targeted, hidden or not.
        var section = "<div id=\"\(id)\" class=\"bundle-page \(classes)\" data-page=\"\(kind)\""
        if let title = documentTitle() { section += " data-title=\"\(title)\"" }
        section += id == "index" ? ">\n" : " hidden>\n"
        var body = rewriteTags(in: content) { name, value in rewrite(name, value, pages: pages, files: files) }
        // Its main, too: HTML counts the mains without `hidden` of their own.
        if id != "index", let main = body.range(of: "<main") { body.replaceSubrange(main, with: "<main hidden") }
        section += body
        section += "</div>\n"
        return section
    }

    /// The page's `<title>` as written (already escaped, quotes too), for the tab's title.
    private func documentTitle() -> String? {
        guard let open = html.range(of: "<title>"), let close = html[open.upperBound...].range(of: "</title>") else {
            return nil
        }
        let title = html[open.upperBound..<close.lowerBound]
        return title.contains("\"") ? nil : String(title)
    }

    /// The `<body …>` tag's attributes and what the body holds.
    private func body() -> (attributes: Substring, content: Substring) {
        guard let open = html.range(of: "<body"), let end = html[open.upperBound...].firstIndex(of: ">") else {
            return ("", Substring(html))
        }
        let close = html.range(of: "</body>", options: .backwards)?.lowerBound ?? html.endIndex
        let contentStart = html.index(after: end)
        return (html[open.upperBound..<end], html[contentStart..<max(contentStart, close)])
    }

    private func attribute(_ name: String, in tag: Substring) -> String? {
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The new value of one attribute, or nil to keep it.
    private func rewrite(_ name: String, _ value: String, pages: Set<String>, files: SiteBundle.InlinedFiles) -> String? {
        switch name {
        case "id", "for":
            return id + Self.separator + value
        case "aria-labelledby", "aria-describedby", "aria-controls":
            return value.split(separator: " ").map { id + Self.separator + $0 }.joined(separator: " ")
        case "href", "src", "xlink:href":
            return link(value, pages: pages, files: files)
        default:
            return nil
        }
    }

    /// A link of this page, as the bundle has it.
    private func link(_ value: String, pages: Set<String>, files: SiteBundle.InlinedFiles) -> String? {
        if value.isEmpty || value == "#" { return nil }
        if value.hasPrefix("#") { return "#" + id + Self.separator + value.dropFirst() }
        if value.hasPrefix("//") || SitePath.hasScheme(value) { return nil }
        let decoded = value.replacingOccurrences(of: "&amp;", with: "&")
        let hash = decoded.firstIndex(of: "#")
        let pathPart = String(decoded[..<(hash ?? decoded.endIndex)]).split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let fragment = hash.map { String(decoded[decoded.index(after: $0)...]) }
        guard let path = SitePath.percentDecoded(pathPart), let target = SitePath.resolve(path, against: outputPath) else {
            return nil
        }
        if pages.contains(target) {
            let targetID = Self.id(of: target)
            return fragment.map { $0.isEmpty ? "#\(targetID)" : "#" + targetID + Self.separator + $0 } ?? "#\(targetID)"
        }
        if let url = files.dataURL(of: target) { return url }
        return nil
    }

    /// Calls `rewrite` for every attribute of every tag (outside comments), replacing the values
    /// it returns; everything else is copied as it is. Byte by byte, since a large bundle is tens
    /// of megabytes of HTML and a walk by Characters nearly doubled its time.
    private func rewriteTags(in html: Substring, _ rewrite: (String, String) -> String?) -> String {
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        let count = bytes.count
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C }
        func starts(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= count && Array(bytes[index..<index + pattern.count]) == pattern
        }
        var index = 0
        while index < count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
                output += bytes[index...]
                break
            }
            output += bytes[index..<open]
            if starts("<!--", at: open) {
                var end = open + 4
                while end < count && !starts("-->", at: end) { end += 1 }
                end = min(count, end + 3)
                output += bytes[open..<end]
                index = end
                continue
            }
            guard open + 1 < count, isLetter(bytes[open + 1]) else {
                output.append(UInt8(ascii: "<"))
                index = open + 1
                continue
            }
            // The tag's name, then its attributes up to the closing '>', quotes respected.
            var cursor = open + 1
            while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != UInt8(ascii: "/") {
                cursor += 1
            }
            output += bytes[open..<cursor]
            while cursor < count, bytes[cursor] != UInt8(ascii: ">") {
                guard isLetter(bytes[cursor]) else {
                    output.append(bytes[cursor])
                    cursor += 1
                    continue
                }
                var nameEnd = cursor
                while nameEnd < count, !isSpace(bytes[nameEnd]), ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[nameEnd]) {
                    nameEnd += 1
                }
                let name = String(decoding: bytes[cursor..<nameEnd], as: UTF8.self).lowercased()
                output += bytes[cursor..<nameEnd]
                cursor = nameEnd
                guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { continue }
                output.append(UInt8(ascii: "="))
                cursor += 1
                guard cursor < count else { break }
                let quote = bytes[cursor]
                let isQuoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
                let valueStart = isQuoted ? cursor + 1 : cursor
                var valueEnd = valueStart
                while valueEnd < count,
                    isQuoted ? bytes[valueEnd] != quote : !(isSpace(bytes[valueEnd]) || bytes[valueEnd] == UInt8(ascii: ">"))
                {
                    valueEnd += 1
                }
                let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
                let mark = quote == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: "\"")
                output.append(mark)
                output += Array((rewrite(name, value) ?? value).utf8)
                output.append(mark)
                cursor = isQuoted && valueEnd < count ? valueEnd + 1 : valueEnd
            }
            index = cursor
        }
        return String(decoding: output, as: UTF8.self)
    }
}
