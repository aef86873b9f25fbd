import Synchronization

/// A built site held in memory for the preview server: every file's bytes with its ETag.
public struct ServedFile: Sendable, Equatable {
    public var bytes: [UInt8]
    public var etag: String
    var key: ContentHash?
    var ids: [String]
    var links: [String] = []
}

/// The preview server's `PageSink`: it starts as the last version of the site, so a page the plan
/// leaves alone, or rendered from the same inputs, is kept as it is; new pages replace old ones.
public final class MemorySite: PageSink {
    private let previous: [String: ServedFile]
    private struct State {
        var files: [String: ServedFile]
        /// Set by `createFolders`: the new version's files, when it lists them.
        var paths: Set<String>?
        /// Files written with bytes the last version did not have there.
        var changed = 0
    }
    private let state: Mutex<State>

    public init(previous: [String: ServedFile] = [:]) {
        self.previous = previous
        self.state = Mutex(State(files: previous))
    }

    /// The new version: every file written or kept, and none the new version no longer has.
    public var files: [String: ServedFile] {
        state.withLock { state in
            guard let paths = state.paths else { return state.files }
            return state.files.filter { paths.contains($0.key) }
        }
    }

    /// How many files differ from the last version: written with other bytes, new, or gone.
    public var changedFiles: Int {
        state.withLock { state in
            state.changed + (state.paths.map { paths in previous.keys.count { !paths.contains($0) } } ?? 0)
        }
    }

    public var keepsUntouchedFiles: Bool { true }

    public func createFolders(for outputPaths: [String]) throws(BuildFailure) {
        state.withLock { $0.paths = Set(outputPaths) }
    }

    public func reuse(_ outputPath: String, key: ContentHash) -> [String]? {
        guard let old = previous[outputPath], old.key == key else { return nil }
        return old.ids
    }

    public func previousIDs(_ outputPath: String) -> [String]? {
        previous[outputPath]?.ids
    }

    public func previousLinks(_ outputPath: String) -> [String]? {
        previous[outputPath]?.links
    }

    public func write(
        _ bytes: [UInt8], to outputPath: String, key: ContentHash?, ids: [String], links: [String]
    ) throws(Diagnostic) {
        let file = ServedFile(bytes: bytes, etag: "\"\(ContentHash(bytes))\"", key: key, ids: ids, links: links)
        let isNew = previous[outputPath]?.etag != file.etag
        state.withLock { state in
            state.files[outputPath] = file
            if isNew { state.changed += 1 }
        }
    }
}
