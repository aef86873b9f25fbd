import Foundation
import LTrainSupport
import LTrainMarkdown
import LTrainLoad

/// What ltrain wrote into an output folder last time, kept in the folder as `.ltrain-manifest`:
/// one line per file, `hash size mtime key ids links path`. It tells which files are ltrain's own (so no
/// other file is ever removed silently), which bytes are unchanged (so they keep their file), and,
/// through each page's input key, which pages need not be rendered again at all.
package struct Manifest: Sendable, Equatable {
    package static let fileName = ".ltrain-manifest"
    static let header = "ltrain manifest 5"
    /// Earlier headers this version still reads (version 2 had no `sources` line, versions 2 and 3
    /// no `links` field: their pages' links are unknown, so pages with Markdown are rendered again;
    /// versions before 5 no `site` line).
    static let readableHeaders = ["ltrain manifest 2", "ltrain manifest 3", "ltrain manifest 4", header]

    /// The snapshot of the sources the output was built from (see `SourceSnapshot`), with what
    /// the build reported, so that a build from an equal snapshot can say so without reading
    /// anything. Written as the line `sources hash stations info-pages checklists` after the header.
    package struct Sources: Sendable, Equatable {
        package var snapshot: ContentHash
        package var stations: Int
        package var infoPages: Int
        package var checklists: Int

        package init(snapshot: ContentHash, stations: Int, infoPages: Int, checklists: Int) {
            self.snapshot = snapshot
            self.stations = stations
            self.infoPages = infoPages
            self.checklists = checklists
        }
    }

    struct Entry: Sendable, Equatable {
        var hash: ContentHash
        var size: Int
        /// Modification time in nanoseconds, to notice a file edited by hand since.
        var modified: Int64
        /// A hash of everything the page was rendered from; nil when it must always be rendered.
        package var key: ContentHash?
        /// The page's `id`s, for checking `#fragment` links into it without reading it.
        var ids: [String] = []
        /// The link destinations its Markdown was written with (see `PageRenderer.key`).
        var links: [String] = []
    }

    /// Whether the entries' `links` were recorded (false for a manifest of an earlier version).
    var recordsLinks = true

    var entries: [String: Entry] = [:]
    var sources: Sources?
    /// Where the site is published (its base URL), written as the line `site URL` after the header,
    /// so that `ltrain check` knows the site's own canonical links from external ones.
    package var siteURL: String?
    /// Whether the manifest could record a `site` line (false before version 5: an output built
    /// then is never taken as up to date, so that its manifest gains the line).
    var recordsSiteURL = true

    init(entries: [String: Entry] = [:], sources: Sources? = nil) {
        self.entries = entries
        self.sources = sources
    }

    init?(text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        (entries, sources, recordsLinks, siteURL) = parsed
        recordsSiteURL = text.hasPrefix(Self.header + "\n")
    }

    /// Parses the manifest's bytes directly: it has a line for every file of the site.
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (entries: [String: Entry], sources: Sources?, recordsLinks: Bool, siteURL: String?)? {
        guard
            let header = readableHeaders.lazy.map({ Array(($0 + "\n").utf8) }).first(where: {
                bytes.count >= $0.count && bytes.prefix($0.count).elementsEqual($0)
            })
        else { return nil }
        let recordsLinks = !header.elementsEqual("ltrain manifest 2\n".utf8) && !header.elementsEqual("ltrain manifest 3\n".utf8)
        var entries: [String: Entry] = [:]
        var sources: Sources?
        var index = header.count
        let count = bytes.count
        func field() -> Range<Int>? {
            let start = index
            while index < count && bytes[index] != 0x20 && bytes[index] != 0x0A { index += 1 }
            guard index < count, bytes[index] == 0x20 else { return nil }
            defer { index += 1 }
            return start..<index
        }
        /// The line's last field: everything up to the newline (or the end), which it steps past.
        func lastField() -> Range<Int> {
            let start = index
            while index < count && bytes[index] != 0x0A { index += 1 }
            defer { index += 1 }
            return start..<index
        }
        func number(_ range: Range<Int>, radix: UInt64) -> UInt64? {
            guard !range.isEmpty, range.count <= 20 else { return nil }
            var value: UInt64 = 0
            for position in range {
                let byte = bytes[position]
                let digit: UInt64
                switch byte {
                case 0x30...0x39: digit = UInt64(byte - 0x30)
                case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
                default: return nil
                }
                // A number too large for 64 bits is damage, not a value to wrap around.
                let (shifted, overflowShifting) = value.multipliedReportingOverflow(by: radix)
                let (sum, overflowAdding) = shifted.addingReportingOverflow(digit)
                guard !overflowShifting && !overflowAdding else { return nil }
                value = sum
            }
            return value
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        entries.reserveCapacity(count / 80)
        var siteURL: String?
        let siteLabel = Array("site ".utf8)
        if count - index >= siteLabel.count
            && UnsafeBufferPointer(rebasing: bytes[index..<index + siteLabel.count]).elementsEqual(siteLabel)
        {
            index += siteLabel.count
            guard let url = SitePath.percentDecoded(text(lastField())) else { return nil }
            siteURL = url
        }
        let sourcesLabel = Array("sources ".utf8)
        if count - index >= sourcesLabel.count
            && UnsafeBufferPointer(rebasing: bytes[index..<index + sourcesLabel.count]).elementsEqual(sourcesLabel)
        {
            index += sourcesLabel.count
            guard let hashField = field(), let stationsField = field(), let infoField = field(),
                let hash = number(hashField, radix: 16), let stations = number(stationsField, radix: 10).flatMap(Int.init(exactly:)),
                let info = number(infoField, radix: 10).flatMap(Int.init(exactly:))
            else { return nil }
            guard let checklists = number(lastField(), radix: 10).flatMap(Int.init(exactly:)) else { return nil }
            sources = Sources(
                snapshot: ContentHash(value: hash), stations: stations, infoPages: info, checklists: checklists)
        }
        while index < count {
            guard let hashField = field(), let sizeField = field(), let modifiedField = field(),
                let keyField = field(), let idsField = field(),
                let linksField = recordsLinks ? field() : idsField.upperBound..<idsField.upperBound,
                let hash = number(hashField, radix: 16),
                // Numbers too large for the fields are damage, as any other unreadable line.
                let size = number(sizeField, radix: 10).flatMap(Int.init(exactly:)),
                let modified = number(modifiedField, radix: 10).flatMap(Int64.init(exactly:))
            else { return nil }
            // A path the site could not hold (`SiteFileName`: `..`, a control character) is damage.
            let pathField = lastField()
            guard SiteFileName.isAccepted(UnsafeBufferPointer(rebasing: bytes[pathField])) else { return nil }
            let path = text(pathField)
            let isDash: (Range<Int>) -> Bool = { $0.count == 1 && bytes[$0.lowerBound] == UInt8(ascii: "-") }
            let key = isDash(keyField) ? nil : number(keyField, radix: 16).map(ContentHash.init(value:))
            /// Comma-separated, each %-encoded (so never holding a comma, nor a lone `-`, itself).
            func list(_ field: Range<Int>) -> [String]? {
                guard !field.isEmpty, !isDash(field) else { return [] }
                var items: [String] = []
                var itemStart = field.lowerBound
                for position in field.lowerBound...field.upperBound
                where position == field.upperBound || bytes[position] == UInt8(ascii: ",") {
                    guard position > itemStart, let item = SitePath.percentDecoded(text(itemStart..<position)) else {
                        return nil
                    }
                    items.append(item)
                    itemStart = position + 1
                }
                return items
            }
            guard let ids = list(idsField), let links = list(linksField) else { return nil }
            entries[path] = Entry(
                hash: ContentHash(value: hash), size: size, modified: modified, key: key, ids: ids, links: links)
        }
        return (entries, sources, recordsLinks, siteURL)
    }

    /// The `site` line of a manifest's bytes, without reading its entries (for `ltrain check`).
    package static func siteURL(inHead bytes: [UInt8]) -> String? {
        guard let firstNewline = bytes.firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<firstNewline], as: UTF8.self)
        guard readableHeaders.contains(header) else { return nil }
        let rest = bytes[(firstNewline + 1)...]
        guard rest.starts(with: "site ".utf8) else { return nil }
        let line = rest.dropFirst(5).prefix { $0 != 0x0A }
        return SitePath.percentDecoded(String(decoding: line, as: UTF8.self))
    }

    /// The manifest's text, built byte by byte: it has a line for every file of the site.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The manifest's bytes with the entries sorted by path.
    var bytes: [UInt8] { bytes(listing: entries.keys.sorted()) }

    /// The manifest's bytes, as written: the entries in the order `order` names them (each path
    /// once; a build passes its own fixed order of pages and files, so 20,000 paths need no sort),
    /// then any entry `order` leaves out, sorted by path. Lines are formatted on every core.
    func bytes(listing order: [String]) -> [UInt8] {
        var head: [UInt8] = []
        head.append(contentsOf: Self.header.utf8)
        head.append(0x0A)
        if let siteURL {
            // %-encoded like the entries' lists, so a space or newline cannot end the line early.
            head.append(contentsOf: "site \(SitePath.percentEncoded(siteURL))\n".utf8)
        }
        if let sources {
            // "sources ", the hash, three counts each after a space, a newline.
            LineWriter.append(capacity: 8 + 16 + 3 * 21 + 1, to: &head) { line in
                for byte in "sources ".utf8 { line.byte(byte) }
                line.hex(sources.snapshot)
                for count in [sources.stations, sources.infoPages, sources.checklists] {
                    line.byte(0x20)
                    line.decimal(Int64(count))
                }
                line.byte(0x0A)
            }
        }
        let entries = self.entries
        let workers = order.count < 256 ? 1 : availableCores
        let chunks = concurrentRuns(order.count, workers: workers) { range -> (lines: [UInt8], count: Int) in
            var lines: [UInt8] = []
            var count = 0
            lines.reserveCapacity(range.count * 96)
            for path in order[range] {
                guard let entry = entries[path] else { continue }
                Self.appendLine(path, entry, to: &lines)
                count += 1
            }
            return (lines, count)
        }
        var bytes = chunks.reduce(into: head) { $0.append(contentsOf: $1.lines) }
        if chunks.reduce(0, { $0 + $1.count }) < entries.count {
            let listed = Set(order)
            for (path, entry) in entries.filter({ !listed.contains($0.key) }).sorted(by: { $0.key < $1.key }) {
                Self.appendLine(path, entry, to: &bytes)
            }
        }
        return bytes
    }

    /// `hash size mtime key ids path`, and a newline, written in place into room reserved for
    /// the longest such line (a manifest has a line for every file of the site).
    private static func appendLine(_ path: String, _ entry: Entry, to bytes: inout [UInt8]) {
        // Ids come sorted from the build and from the previous manifest; sorted here otherwise.
        let ids =
            zip(entry.ids, entry.ids.dropFirst()).allSatisfy({ $0 < $1 }) ? entry.ids : entry.ids.sorted()
        var path = path
        path.withUTF8 { pathBytes in
            // hash, size, mtime, key: at most 16 + 20 + 20 + 16 bytes and a space after each; then
            // '-' or the ids (each byte at most 3 when %-encoded, a comma between), a space, the
            // path and a newline.
            var capacity = 76 + 4 + pathBytes.count + 1
            for id in ids { capacity += id.utf8.count * 3 + 1 }
            for link in entry.links { capacity += link.utf8.count * 3 + 1 }
            LineWriter.append(capacity: capacity, to: &bytes) { line in
                line.hex(entry.hash)
                line.byte(0x20)
                line.decimal(Int64(entry.size))
                line.byte(0x20)
                line.decimal(entry.modified)
                line.byte(0x20)
                if let key = entry.key { line.hex(key) } else { line.byte(UInt8(ascii: "-")) }
                line.byte(0x20)
                line.list(ids)
                line.byte(0x20)
                line.list(entry.links)
                line.byte(0x20)
                for byte in pathBytes { line.byte(byte) }
                line.byte(0x0A)
            }
        }
    }
}

/// Writes a manifest line byte by byte into a buffer its caller sized for the whole line.
private struct LineWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// Writes one line with `write` into a temporary buffer of `capacity` bytes (enough for the
    /// longest such line) and appends it to `bytes`.
    static func append(capacity: Int, to bytes: inout [UInt8], _ write: (inout LineWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = LineWriter(buffer: buffer)
            write(&line)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<line.count]))
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// A hash's 16 lowercase hex digits.
    mutating func hex(_ hash: ContentHash) {
        hash.writeHex(into: buffer, at: count)
        count += 16
    }

    /// One byte of an id, %-encoded as links are.
    mutating func percentEncoded(_ byte: UInt8) {
        count += SitePath.writePercentEncoded(byte, into: buffer, at: count)
    }

    /// `-` for no items, else the items %-encoded, with commas between. An item that is `-`
    /// alone is written `%2D`, so that it cannot read as no items.
    /// Empty items are left out (none is ever recorded: an empty link leads nowhere to resolve).
    mutating func list(_ items: [String]) {
        var written = 0
        for item in items {
            item.withUTF8Bytes { itemBytes in
                guard !itemBytes.isEmpty else { return }
                if written > 0 { byte(UInt8(ascii: ",")) }
                written += 1
                if itemBytes.count == 1 && itemBytes[0] == UInt8(ascii: "-") {
                    for byte in "%2D".utf8 { self.byte(byte) }
                    return
                }
                for byte in itemBytes { percentEncoded(byte) }
            }
        }
        if written == 0 { byte(UInt8(ascii: "-")) }
    }

    /// The decimal digits of a value that is not negative (at most 19).
    mutating func decimal(_ value: Int64) {
        guard value > 0 else {
            byte(UInt8(ascii: "0"))
            return
        }
        var length = 0
        var rest = value
        while rest > 0 {
            length += 1
            rest /= 10
        }
        rest = value
        for position in stride(from: count + length - 1, through: count, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
