/// What ltrain wrote into an output folder last time, kept in the folder as `.ltrain-manifest`:
/// one line per file, `hash size mtime key ids path`. It tells which files are ltrain's own (so no
/// other file is ever removed silently), which bytes are unchanged (so they keep their file), and,
/// through each page's input key, which pages need not be rendered again at all.
struct Manifest: Sendable, Equatable {
    static let fileName = ".ltrain-manifest"
    static let header = "ltrain manifest 2"

    struct Entry: Sendable, Equatable {
        var hash: ContentHash
        var size: Int
        /// Modification time in nanoseconds, to notice a file edited by hand since.
        var modified: Int64
        /// A hash of everything the page was rendered from; nil when it must always be rendered.
        var key: ContentHash?
        /// The page's `id`s, for checking `#fragment` links into it without reading it.
        var ids: [String] = []
    }

    var entries: [String: Entry] = [:]

    init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.first == Substring(Self.header) else { return nil }
        lines = lines.dropFirst()
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6, let hash = UInt64(fields[0], radix: 16), let size = Int(fields[1]),
                let modified = Int64(fields[2])
            else { return nil }
            let key = fields[3] == "-" ? nil : UInt64(fields[3], radix: 16).map(ContentHash.init(value:))
            let ids =
                fields[4] == "-"
                ? [] : fields[4].split(separator: ",").compactMap { Routes.percentDecoded(String($0)) }
            entries[String(fields[5])] = Entry(
                hash: ContentHash(value: hash), size: size, modified: modified, key: key, ids: ids)
        }
    }

    var text: String {
        var text = Self.header + "\n"
        for path in entries.keys.sorted() {
            guard let entry = entries[path] else { continue }
            let key = entry.key.map(\.description) ?? "-"
            let ids = entry.ids.isEmpty ? "-" : entry.ids.sorted().map(Routes.percentEncoded).joined(separator: ",")
            text += "\(entry.hash) \(entry.size) \(entry.modified) \(key) \(ids) \(path)\n"
        }
        return text
    }
}
