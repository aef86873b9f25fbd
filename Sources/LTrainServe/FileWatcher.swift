import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif
import LTrainKit
import LTrainSupport
import LTrainMustache

/// Watches folders (recursively) with inotify and reports each burst of changes once: events
/// are gathered until the folders have been quiet for `quiet` seconds, so an editor's save dance
/// (write a temporary file, rename it over, touch a swap file) becomes one change.
public final class FileWatcher: @unchecked Sendable {
    public typealias Changes = @Sendable (_ paths: Set<String>) -> Void

    // `descriptor` is set in init; `folders` is used only on the watcher's own thread once started.
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let stopping = Atomic<Bool>(false)
    private let quiet: Double
    private var thread: Thread?

    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

    public init(folders roots: [String], quiet: Double = 0.03) throws(Diagnostic) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw Diagnostic.error("cannot watch files: inotify: \(String(cString: strerror(errno)))")
        }
        self.quiet = quiet
        for root in roots where FileSystem.kind(of: root, followingLinks: true) == .directory { watch(root) }
    }

    deinit { close(descriptor) }

    private func watch(_ folder: String) {
        let handle = inotify_add_watch(descriptor, folder, Self.mask)
        if handle >= 0 { folders[handle] = folder }
        for name in (try? FileSystem.entries(of: folder)) ?? [] {
            let child = joinPath(folder, name)
            if FileSystem.kind(of: child) == .directory { watch(child) }
        }
    }

    /// Starts the watching thread; `changes` is called on it with the paths of each burst.
    public func start(_ changes: @escaping Changes) {
        let thread = Thread { [self] in self.run(changes) }
        thread.name = "ltrain watcher"
        self.thread = thread
        thread.start()
    }

    /// Stops within one poll interval (0.2 s).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    private func run(_ changes: Changes) {
        var pending: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let timeout = pending.isEmpty ? 200 : Int32(quiet * 1000)
            let ready = poll(&poller, 1, timeout)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { pending.formUnion(parse(buffer, count: count)) }
            } else if ready == 0 && !pending.isEmpty {
                // Quiet for a moment after some changes: report them as one.
                changes(pending)
                pending = []
            }
        }
    }

    /// Reads `struct inotify_event` records: wd (4 bytes), mask (4), cookie (4), len (4), name.
    private func parse(_ buffer: [UInt8], count: Int) -> Set<String> {
        var paths: Set<String> = []
        var offset = 0
        func integer(_ at: Int) -> UInt32 {
            UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16 | UInt32(buffer[at + 3]) << 24
        }
        while offset + 16 <= count {
            let handle = Int32(bitPattern: integer(offset))
            let mask = integer(offset + 4)
            let length = Int(integer(offset + 12))
            let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
            offset += 16 + length
            guard let folder = folders[handle] else { continue }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let path = name.isEmpty ? folder : joinPath(folder, name)
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watch(path) }
            if mask & UInt32(IN_IGNORED) != 0 { folders[handle] = nil }
            paths.insert(path)
        }
        return paths
    }
}
