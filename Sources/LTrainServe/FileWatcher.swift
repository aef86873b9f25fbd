import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif
import LTrainKit
import LTrainSupport
import LTrainMustache

/// Watches folders (recursively) with inotify and reports each burst of changes once, so an
/// editor's save dance (write a temporary file, rename it over, touch a swap file) becomes one
/// change: events are gathered until the folders have been quiet for `settle` seconds when the
/// burst looks finished (see `Burst.isSettled`), or for `quiet` seconds when a file is still
/// being written or one that was there has gone (it may be coming back).
public final class FileWatcher: @unchecked Sendable {
    public typealias Changes = @Sendable (_ paths: Set<String>) -> Void

    // `descriptor` and `roots` are set in init; `folders` and `parents` are used only on the
    // watcher's own thread once started.
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    /// Each root's parent folder (by its watch), with the roots in it by name: a root's own watch
    /// follows its folder wherever it is renamed to, and ends when it is deleted, so a root
    /// renamed, swapped for another or made again is seen from its parent.
    private var parents: [Int32: [String: String]] = [:]
    /// The folders watched, as they were named.
    private let roots: [String]
    private let stopping = Atomic<Bool>(false)
    private let quiet: Double
    private let settle: Double
    private let patience: Double
    private var thread: Thread?

    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)
    /// A parent's events that can concern a root; added to any watch the folder already has.
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MASK_ADD)

    /// `settle`: how long the folders stay quiet before a finished burst is reported; the events
    /// of one save come within a few milliseconds of each other (docs/benchmarks.md, "Optimisations").
    /// `quiet`: how long a burst with a deleted file is waited on (an editor that deletes the
    /// file renames the new one over it at once; a reader's `rm` should show soon).
    /// `patience`: how long a burst that is half a save (a file renamed away, as a backup, or
    /// still open from its creation) is waited on before it is reported as it stands: long
    /// enough for a slow save on a loaded machine, so the preview never builds half a save.
    public init(
        folders roots: [String], quiet: Double = 0.015, settle: Double = 0.005, patience: Double = 0.5
    ) throws(Diagnostic) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw Diagnostic.error("cannot watch files: inotify: \(String(cString: strerror(errno)))")
        }
        self.roots = roots
        self.quiet = quiet
        self.settle = settle
        self.patience = patience
        for root in roots {
            let url = URL(fileURLWithPath: root)
            let handle = inotify_add_watch(descriptor, url.deletingLastPathComponent().path, Self.parentMask)
            if handle >= 0 { parents[handle, default: [:]][url.lastPathComponent] = root }
            if FileSystem.kind(of: root, followingLinks: true) == .directory { watch(root) }
        }
    }

    deinit { close(descriptor) }

    /// Stops watching `root` and every folder in it: what it was renamed to is not the site's.
    private func forget(_ root: String) {
        for (handle, folder) in folders where folder == root || folder.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            inotify_rm_watch(descriptor, handle)
            folders[handle] = nil
        }
    }

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
        var burst = Burst()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait: Double =
                switch burst.progress {
                case .settled: settle
                case .deleted: quiet
                case .halfSaved: patience
                }
            let timeout = burst.isEmpty ? 200 : Int32((wait * 1000).rounded(.up))
            let ready = poll(&poller, 1, timeout)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    for (path, event) in parse(buffer, count: count) { burst.add(event, at: path) }
                }
            } else if ready == 0 && !burst.isEmpty {
                // Quiet for a moment after some changes: report them as one.
                changes(burst.paths)
                burst = Burst()
            }
        }
    }

    /// Reads `struct inotify_event` records: wd (4 bytes), mask (4), cookie (4), len (4), name.
    private func parse(_ buffer: [UInt8], count: Int) -> [(path: String, event: Burst.Event)] {
        var events: [(path: String, event: Burst.Event)] = []
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
            let name = String(decoding: nameBytes, as: UTF8.self)
            let isFolder = mask & UInt32(IN_ISDIR) != 0
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // The kernel's queue of events overflowed (a branch switched over thousands of
                // files): what changed is unknown, so every root is reported, and read again whole.
                for root in roots { events.append((root, .written)) }
                continue
            }
            if mask & UInt32(IN_IGNORED) != 0 { parents[handle] = nil }
            // A root itself renamed away or deleted (its watches go with it), or a folder renamed or
            // made in its place (watched from now on): reported as the root's own path.
            if let root = parents[handle]?[name] {
                if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 {
                    forget(root)
                    events.append((root, mask & UInt32(IN_MOVED_FROM) != 0 ? .renamedAway : .removed))
                } else if isFolder && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    watch(root)
                    events.append((root, .arrived))
                }
                continue
            }
            guard let folder = folders[handle] else { continue }
            let path = name.isEmpty ? folder : joinPath(folder, name)
            // A folder's watches follow it when it is renamed: its old path's are let go of, and the
            // folder now at a path is watched there.
            if isFolder && mask & UInt32(IN_MOVED_FROM) != 0 { forget(path) }
            if isFolder && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watch(path) }
            if mask & UInt32(IN_IGNORED) != 0 { folders[handle] = nil }
            let event: Burst.Event
            if mask & UInt32(IN_MOVED_FROM) != 0 {
                event = .renamedAway
            } else if mask & UInt32(IN_DELETE | IN_DELETE_SELF) != 0 {
                event = .removed
            } else if mask & UInt32(IN_CREATE) != 0 && !isFolder {
                // A new file, open for writing until its IN_CLOSE_WRITE.
                event = .created
            } else if mask & UInt32(IN_MOVED_TO) != 0 {
                event = .arrived
            } else {
                event = .written
            }
            events.append((path, event))
        }
        return events
    }
}

/// The paths of one burst of changes, and whether it looks finished.
struct Burst: Equatable {
    enum Event: Equatable {
        /// A file created and not yet closed.
        case created
        /// A file or folder renamed into place.
        case arrived
        /// A file closed after writing, changed attributes, a new folder.
        case written
        /// Renamed away (an editor keeping a backup writes the file again next).
        case renamedAway
        /// Deleted.
        case removed
    }

    /// How finished a burst looks, which sets how long the watcher waits for more.
    enum Progress: Equatable {
        /// Nothing is half done.
        case settled
        /// A file that was there is deleted: usually for good.
        case deleted
        /// A file that was there is renamed away, or a new file is still open: the rest of the
        /// save is coming.
        case halfSaved
    }

    private struct PathState: Equatable {
        /// The path appeared during the burst (created or renamed into place first).
        var isNew: Bool
        var last: Event
    }

    private var states: [String: PathState] = [:]

    var isEmpty: Bool { states.isEmpty }
    var paths: Set<String> { Set(states.keys) }

    mutating func add(_ event: Event, at path: String) {
        // The first event of a path says whether it is new; every event replaces the last.
        states[path, default: PathState(isNew: event == .created || event == .arrived, last: event)].last = event
    }

    /// A file that came and went within the burst (a temporary file renamed over the real one,
    /// vim's `4913` probe) is done with; one still open from its creation, or one that was there
    /// before the burst and is renamed away, is half a save; one deleted is a deletion.
    var progress: Progress {
        var progress = Progress.settled
        for state in states.values {
            switch state.last {
            case .created: return .halfSaved
            case .renamedAway where !state.isNew: return .halfSaved
            case .removed where !state.isNew: progress = .deleted
            case .arrived, .written, .renamedAway, .removed: continue
            }
        }
        return progress
    }

    var isSettled: Bool { progress == .settled }
}
