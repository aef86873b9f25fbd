import Synchronization

/// A built site held in memory for the preview server: every file's bytes with its ETag.
public struct ServedFile: Sendable, Equatable {
    public var bytes: [UInt8]
    public var etag: String
    var key: ContentHash?
    var ids: [String]
    var links: [String] = []
}

/// The preview server's `PageSink`: pages go into memory, and a page rendered from the same
/// inputs as in the previous version is kept from it without rendering.
public final class MemorySite: PageSink {
    private let previous: [String: ServedFile]
    private let state = Mutex([String: ServedFile]())

    public init(previous: [String: ServedFile] = [:]) {
        self.previous = previous
    }

    public var files: [String: ServedFile] { state.withLock { $0 } }

    public func createFolders(for outputPaths: [String]) throws(BuildFailure) {}

    public func reuse(_ outputPath: String, key: ContentHash) -> [String]? {
        guard let old = previous[outputPath], old.key == key else { return nil }
        state.withLock { $0[outputPath] = old }
        return old.ids
    }

    public func previousLinks(_ outputPath: String) -> [String]? {
        previous[outputPath]?.links
    }

    public func write(
        _ bytes: [UInt8], to outputPath: String, key: ContentHash?, ids: [String], links: [String]
    ) throws(Diagnostic) {
        let file = ServedFile(bytes: bytes, etag: "\"\(ContentHash(bytes))\"", key: key, ids: ids, links: links)
        state.withLock { $0[outputPath] = file }
    }
}
