/// What ltrain wrote into an output folder last time, kept in the folder as `.ltrain-manifest`:
/// one line per file, `hash size mtime path`. It tells which files are ltrain's own (so no other
/// file is ever removed silently) and which bytes are unchanged (so they keep their file).
struct Manifest: Sendable, Equatable {
    static let fileName = ".ltrain-manifest"
    static let header = "ltrain manifest 1"

    struct Entry: Sendable, Equatable {
        var hash: ContentHash
        var size: Int
        /// Modification time in nanoseconds, to notice a file edited by hand since.
        var modified: Int64
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
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let hash = UInt64(fields[0], radix: 16), let size = Int(fields[1]),
                let modified = Int64(fields[2])
            else { return nil }
            entries[String(fields[3])] = Entry(hash: ContentHash(value: hash), size: size, modified: modified)
        }
    }

    var text: String {
        var text = Self.header + "\n"
        for path in entries.keys.sorted() {
            guard let entry = entries[path] else { continue }
            text += "\(entry.hash) \(entry.size) \(entry.modified) \(path)\n"
        }
        return text
    }
}
