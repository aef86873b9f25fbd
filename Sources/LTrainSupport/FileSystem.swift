import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The small set of disk operations the Load stage needs, with errors an author can act on.
package enum FileSystem {
    package enum Kind {
        case file
        case directory
        case symbolicLink
        /// A FIFO, socket or device: never opened for reading, since opening one can block.
        case other
        /// A name that is not valid UTF-8 (listings give it with its bytes escaped, `\xFF`): it
        /// cannot be named in a page or a message as it is.
        case invalidName
        case missing

        /// The kind `stat` gives in `st_mode`.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            default: self = .other
            }
        }
    }

    package static func kind(of path: String, followingLinks: Bool = false) -> Kind {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return .missing }
        return Kind(mode: info.st_mode)
    }

    /// What `lstat` says of a path: enough to notice any change to a file or folder.
    package struct Stamp: Equatable {
        package var kind: Kind
        package var size: Int
        /// Modification and status-change times, in nanoseconds.
        package var modified: Int64
        package var changed: Int64
        package var inode: UInt64
        package var device: UInt64
        package var mode: UInt32
    }

    package static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return stamp(info)
    }

    /// The stamp of `name` in the folder open as `directory` (see `openFolder`), not following a
    /// last symbolic link: one name to look up instead of a whole path.
    package static func stamp(of name: String, in directory: Int32) -> Stamp? {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return stamp(info)
    }

    private static func stamp(_ info: stat) -> Stamp {
        Stamp(
            kind: Kind(mode: info.st_mode), size: Int(info.st_size),
            modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev), mode: UInt32(info.st_mode))
    }

    /// A file time (`st_mtim`, `st_ctim`) in nanoseconds, as the manifest and snapshots keep it.
    package static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The canonical absolute path with every symbolic link resolved, or nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Why a symbolic link at `path` cannot be followed, in a reader's words; nil when it can.
    package static func brokenLinkReason(_ path: String) -> BrokenLink? {
        var info = stat()
        guard stat(path, &info) != 0 else { return nil }
        switch errno {
        case ENOENT, ENOTDIR: return .missingTarget
        case ELOOP: return .loop
        case let code: return .other(describe(errno: code))
        }
    }

    package enum BrokenLink: Equatable, Sendable {
        /// What the link names does not exist.
        case missingTarget
        /// Following it leads back through a link already followed (or through more than 40 links).
        case loop
        case other(String)
    }

    /// Whether `path` is `folder` or lies inside it (both canonical).
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Names in a folder, sorted, without `.` and `..` (names that are not UTF-8 escaped, see `escapedName`).
    package static func entries(of directory: String) throws(FileSystemError) -> [String] {
        try typedEntries(of: directory).map(\.name)
    }

    /// Names in a folder, sorted, without `.` and `..`, each with its kind as the folder lists it
    /// (no stat per name); nil where the file system does not say.
    package static func typedEntries(of directory: String) throws(FileSystemError) -> [(name: String, kind: Kind?)] {
        guard let entries = listing(of: directory) else {
            throw FileSystemError(message: "cannot list the folder: \(describe(errno: errno))")
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The one readdir loop: names in a folder in the order the file system gives them, without
    /// `.` and `..`, each with its kind from the entry (nil for DT_UNKNOWN); nil, with errno set,
    /// when the folder cannot be opened.
    private static func listing(of directory: String) -> [(name: String, kind: Kind?)]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var entries: [(name: String, kind: Kind?)] = []
        // A directory entry is only as long as its name (d_reclen): its fields are read in place
        // through the pointer, never by copying the whole `dirent` (256 bytes of name), which
        // reads past the end of the last entry in readdir's buffer. (`offset(of:)` is nil only
        // for computed properties; these are C fields. The fallbacks are glibc's layout.)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type) ?? 18
        while let entry = readdir(handle) {
            let record = UnsafeRawPointer(entry)
            // The name read in place, not copied: the stations' folder is listed before anything
            // else can start.
            let nameStart = record.advanced(by: nameOffset)
            let bytes = UnsafeBufferPointer(
                start: nameStart.assumingMemoryBound(to: UInt8.self),
                count: strlen(nameStart.assumingMemoryBound(to: CChar.self)))
            if bytes.first == UInt8(ascii: "."), bytes.count <= 2, bytes.last == UInt8(ascii: ".") { continue }
            let type = record.load(fromByteOffset: typeOffset, as: UInt8.self)
            guard let name = String(validating: bytes, as: UTF8.self) else {
                entries.append((escapedName(Array(bytes)), .invalidName))
                continue
            }
            let kind: Kind?
            switch Int32(type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            entries.append((name, kind))
        }
        return entries
    }

    /// A file name that is not valid UTF-8, readable: valid runs as they are, other bytes as `\xFF`.
    static func escapedName(_ bytes: [UInt8]) -> String {
        var name = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest valid prefix, then one invalid byte.
            var end = rest.endIndex
            while end > rest.startIndex, String(validating: rest[rest.startIndex..<end], as: UTF8.self) == nil {
                end -= 1
            }
            name += String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
            guard end < rest.endIndex else { break }
            name += "\\x" + String(rest[end], radix: 16, uppercase: true)
            rest = rest[(end + 1)...]
        }
        return name
    }

    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Reads a whole file, refusing one larger than `limit` bytes, and anything that is not a
    /// regular file. Opened without blocking: opening a FIFO for reading would otherwise wait for
    /// a writer forever (O_NONBLOCK changes nothing for regular files).
    package static func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        try read(opening: open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), limit: limit)
    }

    /// Reads the file `name` of the folder open as `directory` (see `openFolder`): one path
    /// component to look up instead of the whole path, for folders of thousands of files.
    package static func read(_ name: String, in directory: Int32, limit: Int) throws(FileSystemError) -> [UInt8] {
        try read(opening: openat(directory, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK), limit: limit)
    }

    /// A folder's descriptor for `read(_:in:limit:)`, or nil when it cannot be opened; close it after.
    package static func openFolder(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// The first `count` bytes of the file at `path` (all of it when it is shorter), for a
    /// header: the rest is never read.
    package static func readStart(of path: String, count: Int) throws(FileSystemError) -> [UInt8] {
        try read(opening: open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), limit: .max, first: count)
    }

    private static func read(opening descriptor: Int32, limit: Int, first: Int = .max) throws(FileSystemError) -> [UInt8] {
        guard descriptor >= 0 else {
            let code = errno
            throw FileSystemError(
                message: "cannot read the file: \(describe(errno: code))",
                hint: code == EACCES ? "make the file readable, e.g. with chmod a+r" : nil,
                isPermissionDenied: code == EACCES)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw FileSystemError(message: "cannot read the file: \(describe(errno: errno))")
        }
        guard Kind(mode: info.st_mode) == .file else {
            throw FileSystemError.notARegularFile
        }
        let size = min(Int(info.st_size), first)
        guard size <= limit else {
            throw FileSystemError(
                message: "file is \(size) bytes, more than the limit of \(limit / 1_048_576) MiB",
                hint: "split it into smaller files")
        }
        var failure: Int32 = 0
        // Filled straight from read(2), without zeroing first; only the bytes read are kept.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size, let base = buffer.baseAddress {
                let count = Glibc.read(descriptor, base + filled, size - filled)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                filled += count
            }
            initialized = filled
        }
        if failure != 0 { throw FileSystemError(message: "cannot read the file: \(describe(errno: failure))") }
        return bytes
    }
}

extension FileSystem {
    /// Every file (anything that is not a folder) below `folder`, as sorted relative paths, read with
    /// readdir and the entries' own types: no stat per file.
    package static func filesBelow(_ folder: String) -> [String] {
        var files: [String] = []
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? folder : joinPath(folder, relative)
            for entry in listing(of: absolute) ?? [] {
                let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                if (entry.kind ?? kind(of: joinPath(folder, child))) == .directory { walk(child) } else { files.append(child) }
            }
        }
        walk("")
        return files.sorted()
    }

    /// Removes a folder and everything in it, its top-level folders on all cores at once.
    package static func removeTreeInParallel(_ path: String) {
        let folders = (listing(of: path) ?? []).filter { ($0.kind ?? kind(of: joinPath(path, $0.name))) == .directory }
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            removeTree(joinPath(path, folders[index].name))
        }
        removeTree(path)
    }

    /// Removes a folder and everything in it, without following symbolic links.
    package static func removeTree(_ path: String) {
        guard let entries = listing(of: path) else {
            unlink(path)
            return
        }
        for entry in entries {
            let child = joinPath(path, entry.name)
            if (entry.kind ?? kind(of: child)) == .directory { removeTree(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}

package struct FileSystemError: Error {
    package var message: String
    package var hint: String?
    /// The hint then ends with the command to run, and the caller adds the file's name.
    package var isPermissionDenied = false

    static let notARegularFile = FileSystemError(
        message: "is not a regular file (a FIFO, socket or device)", hint: "replace it with an ordinary file")
}

/// Joins path components with `/`, dropping a leading `./` so paths read as the user typed them.
package func joinPath(_ base: String, _ component: String) -> String {
    if base.isEmpty || base == "." { return component }
    return base.hasSuffix("/") ? base + component : base + "/" + component
}

/// The last component of a `/`-separated path (`01-a.md` of `stations/01-a.md`), or the whole
/// path when it has no `/`.
package func lastPathComponent(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
}
