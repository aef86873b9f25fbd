import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
        var paths: [(display: String, absolute: String)] = []
        for folder in folders {
            hasher.add(folder)
            guard FileSystem.kind(of: folder, followingLinks: true) != .missing else {
                hasher.add("\u{0}missing")
                continue
            }
            guard let root = FileSystem.realPath(folder) else { return nil }
            paths.append((folder, root))
            guard collect(below: root, relative: folder, into: &paths) else { return nil }
        }
        let found = paths
        let stamps =
            workers == 1
            ? found.map { FileSystem.stamp(of: $0.absolute) }
            : concurrentMap(found.count) { FileSystem.stamp(of: found[$0].absolute) }
        var isSettled = true
        for (path, stamp) in zip(found, stamps) {
            guard let stamp, stamp.kind == .file || stamp.kind == .directory else { return nil }
            hasher.add(path.display)
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

    /// Adds every entry below `absolute` (named under `relative`), folders before what they hold,
    /// in name order. False when a folder cannot be listed or holds a symbolic link.
    private static func collect(
        below absolute: String, relative: String, into paths: inout [(display: String, absolute: String)]
    ) -> Bool {
        guard let entries = try? FileSystem.typedEntries(of: absolute) else { return false }
        for entry in entries {
            let child = (display: joinPath(relative, entry.name), absolute: joinPath(absolute, entry.name))
            let kind = entry.kind ?? FileSystem.kind(of: child.absolute)
            switch kind {
            case .file:
                paths.append(child)
            case .directory:
                paths.append(child)
                guard collect(below: child.absolute, relative: child.display, into: &paths) else { return false }
            default:
                return false
            }
        }
        return true
    }
}
