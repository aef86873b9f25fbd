import Foundation

#if canImport(Glibc)
    import Glibc
#endif
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

/// A build's sources as the file system stamps them: every file and
/// folder under the content and templates folders with its size, modification and change times,
/// inode and mode, together with the build's settings, hashed into one value. An equal snapshot
/// means the same bytes are there to read (as make and git trust stat data), so when the previous
/// output came from an equal snapshot and is as ltrain left it, a build has nothing to do and need
/// not read a single source.
struct SourceSnapshot: Sendable, Equatable {
    var hash: ContentHash
    /// Whether every file had been left alone for the settle time when the snapshot was taken. A
    /// file written twice within one tick of the file system's clock, keeping its size, keeps its
    /// stamp; so a snapshot counts only once its files are older than any such tick ("racy git").
    var isSettled: Bool

    /// The snapshot of `folders` (a missing one counts as missing) and `settings`; nil when a
    /// folder holds something stamps cannot vouch for (a symbolic link, a device) or cannot be
    /// read, in which case the build reads its sources as usual.
    ///
    /// The snapshot may be taken at any moment of a build that started at `startedAt` (see `now`):
    /// a file changed since then has a change time after it, which leaves the snapshot unsettled,
    /// so a snapshot taken while the build reads its sources never vouches for bytes it did not read.
    /// `workers: 1` stamps the files on the calling thread alone (for a snapshot taken beside a
    /// build); otherwise on every core.
    static func take(
        folders: [String], settings: [String], settleSeconds: Double, startedAt: Int64 = now(), workers: Int = 0
    ) -> SourceSnapshot? {
        let settledBefore = startedAt - Int64(settleSeconds * 1e9)
        var hasher = ContentHasher()
        for setting in settings { hasher.add(setting) }
        var entries: [Entry] = []
        var directories: [String] = []
        for folder in folders {
            hasher.add(folder)
            guard FileSystem.kind(of: folder, followingLinks: true) != .missing else {
                hasher.add("\u{0}missing")
                continue
            }
            guard let root = FileSystem.realPath(folder) else { return nil }
            entries.append(Entry(display: folder, folder: nil, name: root))
            guard collect(below: root, relative: folder, into: &entries, directories: &directories) else { return nil }
        }
        // Each entry is stamped relative to its folder's descriptor: one name to look up, not a path.
        let descriptors = directories.map(FileSystem.openFolder)
        defer { for descriptor in descriptors { if let descriptor { close(descriptor) } } }
        let found = entries
        @Sendable func stamp(_ entry: Entry) -> FileSystem.Stamp? {
            guard let folder = entry.folder else { return FileSystem.stamp(of: entry.name) }
            guard let descriptor = descriptors[folder] else { return nil }
            return FileSystem.stamp(of: entry.name, in: descriptor)
        }
        let stamps =
            workers == 1
            ? found.map(stamp)
            : concurrentMap(found.count) { stamp(found[$0]) }
        var isSettled = true
        for (entry, stamp) in zip(found, stamps) {
            guard let stamp, stamp.kind == .file || stamp.kind == .directory else { return nil }
            hasher.add(entry.display)
            for value in [
                UInt64(bitPattern: Int64(stamp.size)), UInt64(bitPattern: stamp.modified),
                UInt64(bitPattern: stamp.changed), stamp.inode, stamp.device, UInt64(stamp.mode),
            ] {
                hasher.add(ContentHash(value: value))
            }
            if max(stamp.modified, stamp.changed) > settledBefore { isSettled = false }
        }
        return SourceSnapshot(hash: hasher.hash, isSettled: isSettled)
    }

    /// The wall-clock time in nanoseconds, as file times are kept.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return FileSystem.nanoseconds(time)
    }

    /// A file or folder to stamp: `name` inside `directories[folder]`, or, for a snapshot's root
    /// folder (no `folder`), the absolute path `name`.
    private struct Entry: Sendable {
        var display: String
        var folder: Int?
        var name: String
    }

    /// Adds every entry below `absolute` (named under `relative`), folders before what they hold,
    /// in name order, and each folder listed to `directories`. False when a folder cannot be
    /// listed or holds a symbolic link.
    private static func collect(
        below absolute: String, relative: String, into entries: inout [Entry], directories: inout [String]
    ) -> Bool {
        guard let listed = try? FileSystem.typedEntries(of: absolute) else { return false }
        let folder = directories.count
        directories.append(absolute)
        for item in listed {
            let display = joinPath(relative, item.name)
            let path = joinPath(absolute, item.name)
            let kind = item.kind ?? FileSystem.kind(of: path)
            guard kind == .file || kind == .directory else { return false }
            entries.append(Entry(display: display, folder: folder, name: item.name))
            if kind == .directory {
                guard collect(below: path, relative: display, into: &entries, directories: &directories) else {
                    return false
                }
            }
        }
        return true
    }
}
