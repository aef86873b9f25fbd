import Synchronization
import LTrainKit
import LTrainSupport
import LTrainMustache

/// A built site held in memory for the preview server: every file's bytes with its ETag.
public struct ServedFile: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The hash of `bytes`, which the ETag is written from.
    var hash: ContentHash
    /// Written when a file is served, not for each of the 10,000 pages a rebuild may write.
    public var etag: String { "\"\(hash)\"" }
    var key: ContentHash?
    var ids: [String]
    var links: [String] = []
}

/// The preview server's site and its `PageSink`, as the output folder is the build's: a rebuild
/// stages what it writes and `commit` puts it in place (or `abandon` drops it), so the last good
/// version is served until then. A file the executor leaves alone stays as it is, which lets a
/// plan of some pages (`SitePlan`) touch only those; files are changed in place, never copied.
public final class MemorySite: PageSink {
    private struct State {
        /// The version served.
        var files: [String: ServedFile] = [:]
        /// What the rebuild under way wrote, in the order it was written (each path once).
        var staged: [(path: String, file: ServedFile)] = []
        /// Set by `prepare(for:)`: every file of the version under way, when it lists them.
        var paths: Set<String>?
        /// The served files that have no key, kept up to date by `commit`.
        var keyless: Set<String> = []
    }
    private let state = Mutex(State())

    public init() {}

    /// The file served at `path`, if there is one.
    public func file(at path: String) -> ServedFile? {
        state.withLock { $0.files[path] }
    }

    /// Every file served now.
    public var files: [String: ServedFile] {
        state.withLock { $0.files }
    }

    /// The pages kept without a key (they link into other pages' fragments), which every change checks again.
    var keylessPaths: [String] {
        state.withLock { Array($0.keyless) }
    }

    /// What `commit` did: how many files changed (new bytes, new, or gone), and the files it
    /// replaced or dropped, for the caller to let go of once it has told the open pages (freeing
    /// 10,000 pages' bytes is time the reload would otherwise wait for).
    public struct Commit: Sendable {
        public var changedFiles: Int
        public var replaced: [ServedFile]
    }

    /// Puts what was staged in place and drops the files the new version no longer has.
    public func commit() -> Commit {
        state.withLock { state in
            var changed = 0
            var replaced: [ServedFile] = []
            replaced.reserveCapacity(state.staged.count)
            for (path, file) in state.staged {
                if let old = state.files.updateValue(file, forKey: path) {
                    if old.hash != file.hash { changed += 1 }
                    replaced.append(old)
                } else {
                    changed += 1
                }
                if file.key == nil { state.keyless.insert(path) } else { state.keyless.remove(path) }
            }
            if let paths = state.paths {
                let gone = state.files.keys.filter { !paths.contains($0) }
                for path in gone {
                    if let old = state.files.removeValue(forKey: path) { replaced.append(old) }
                    state.keyless.remove(path)
                }
                changed += gone.count
            }
            state.staged = []
            state.paths = nil
            return Commit(changedFiles: changed, replaced: replaced)
        }
    }

    /// Drops what was staged: the last version stays served as it was.
    public func abandon() {
        state.withLock { state in
            state.staged = []
            state.paths = nil
        }
    }

    // MARK: PageSink

    public var keepsUntouchedFiles: Bool { true }

    public func prepare(for outputPaths: [String]) throws(BuildFailure) {
        let paths = Set(outputPaths)
        state.withLock { $0.paths = paths }
    }

    public func reuse(_ outputPath: String, key: ContentHash) -> [String]? {
        state.withLock { state in
            guard let old = state.files[outputPath], old.key == key else { return nil }
            return old.ids
        }
    }

    public func previousIDs(_ outputPath: String) -> [String]? {
        state.withLock { $0.files[outputPath]?.ids }
    }

    public func previousLinks(_ outputPath: String) -> [String]? {
        state.withLock { $0.files[outputPath]?.links }
    }

    public func write(
        _ bytes: [UInt8], to outputPath: String, key: ContentHash?, ids: [String], links: [String]
    ) throws(Diagnostic) {
        let file = ServedFile(bytes: bytes, hash: ContentHash(bytes), key: key, ids: ids, links: links)
        state.withLock { $0.staged.append((outputPath, file)) }
    }
}
