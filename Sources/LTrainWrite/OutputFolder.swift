import CLTrainSystem
import Foundation
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif
import LTrainSupport
import LTrainMarkdown
import LTrainLoad

/// Where rendered pages go, the Write stage's one interface: the staging folder of an output
/// folder on disk (`OutputFolder`), or the memory of the preview server (`MemorySite`). Both keep
/// pages rendered from unchanged inputs (`reuse`).
public protocol PageSink: Sendable {
    /// Prepares for the files of the new version, before writing from several threads: it has
    /// exactly these files (folders on disk; a list in memory). The paths come in the build's
    /// fixed order, each once; the manifest lists its files so.
    func prepare(for outputPaths: [String]) throws(BuildFailure)
    /// Whether a file the executor does not touch stays as the last version has it (the preview's
    /// memory), so that a plan of some pages (`SitePlan`) may leave the others alone. The output
    /// folder stages a whole new site: every file must be kept or written.
    var keepsUntouchedFiles: Bool { get }
    /// The ids of the last version of a page, for checking links into it without rendering it.
    func previousIDs(_ outputPath: String) -> [String]?
    /// Keeps the previous version of a page rendered from the same inputs; returns its ids, or
    /// nil when it must be rendered.
    func reuse(_ outputPath: String, key: ContentHash) -> [String]?
    /// The link destinations the previous version of a page was written with (its Markdown's), for
    /// its key; nil when not known.
    func previousLinks(_ outputPath: String) -> [String]?
    /// Writes a page (or any file, with no key, ids or links); `key`, `ids` and `links` are
    /// remembered for the next build (see `reuse`, `previousLinks`).
    func write(_ bytes: [UInt8], to outputPath: String, key: ContentHash?, ids: [String], links: [String]) throws(Diagnostic)
}

extension PageSink {
    /// Copies a file that is not a page (a content asset or static file, a theme file) into the
    /// site: the Write stage reads its source, so that no stage before it touches the disk.
    public func copy(_ file: AssetFile) throws(Diagnostic) {
        try write(Self.bytes(of: file), to: file.outputPath)
    }

    /// The bytes of a file to copy: the built-in theme's text, or the source file's.
    static func bytes(of file: AssetFile) throws(Diagnostic) -> [UInt8] {
        if let text = file.builtIn { return Array(text.utf8) }
        do {
            return try FileSystem.read(file.sourcePath, limit: ContentLoader.assetSizeLimit)
        } catch {
            throw Diagnostic.error(error.message, path: file.displayPath, hint: error.hint)
        }
    }

    public func write(_ bytes: [UInt8], to outputPath: String) throws(Diagnostic) {
        try write(bytes, to: outputPath, key: nil, ids: [], links: [])
    }

    public func write(_ text: String, to outputPath: String) throws(Diagnostic) {
        try write(Array(text.utf8), to: outputPath, key: nil, ids: [], links: [])
    }
}

/// The Write stage's folder on disk. A build writes into a staging folder beside the output;
/// unchanged files are hard links to the previous output's files (same inode and mtime), changed
/// ones are new files. Only when everything succeeded are the two folders swapped in one atomic
/// `renameat2` exchange, so the output is always the complete old site or the complete new one.
public final class OutputFolder: PageSink {
    public let path: String
    let stagingPath: String
    private let previous: Manifest
    /// Files in the output that ltrain did not write (only with --force): the output then must be replaced.
    private let holdsForeignFiles: Bool
    private let state = Mutex(WriteState())
    /// Open descriptors of the staging folder ("") and each folder in it (`stations/`), so each
    /// file is created with `openat` relative to its folder instead of walking its whole path.
    private let folderDescriptors = Mutex<[String: Int32]>([:])

    struct WriteState {
        var manifest = Manifest()
        /// Every path the build will write, in its order: the manifest lists them so.
        var order: [String] = []
        var written = 0
        var unchanged = 0
    }

    public struct Summary: Sendable, Equatable {
        public var written: Int
        public var unchanged: Int
        public var removed: Int
    }

    /// Validates the output folder by `ReplaceRule` and prepares an empty staging folder beside it.
    /// `protected` are folders the output may not be, contain or lie inside (content, templates).
    public init(path: String, protecting protected: [String], force: Bool) throws(BuildFailure) {
        self.path = path
        var log = DiagnosticLog()
        let absolute = Self.absolute(path)
        let name = (absolute as NSString).lastPathComponent
        let parent = (absolute as NSString).deletingLastPathComponent
        self.stagingPath = joinPath(parent, ".\(name).ltrain-staging")

        let kind = FileSystem.kind(of: path, followingLinks: true)
        if kind != .directory && kind != .missing {
            throw BuildFailure([
                .error("the output folder is a file, not a folder", path: path, hint: "name a folder with --output DIR")
            ])
        }
        if FileSystem.kind(of: path) == .symbolicLink {
            throw BuildFailure([
                .error(
                    "the output folder is a symbolic link; ltrain replaces the folder itself and will not follow it",
                    path: path, hint: "name the real folder with --output DIR")
            ])
        }
        let resolvedOutput = Self.canonical(absolute)
        if let (folder, relation) = ReplaceRule.clash(of: resolvedOutput, with: protected) {
            throw BuildFailure([
                .error(
                    "the output folder \(relation == "holds" ? "contains" : relation) the source folder \(folder); building would overwrite your sources",
                    path: path, hint: "choose another output folder, e.g. --output _site")
            ])
        }
        if resolvedOutput == "/" || resolvedOutput == Self.canonical(NSHomeDirectory()) {
            throw BuildFailure([
                .error("refusing to replace \(resolvedOutput) with the site", path: path, hint: "choose --output _site")
            ])
        }

        // The previous build's manifest says which files are ltrain's; any other file blocks the build.
        var previous = Manifest()
        var holdsForeignFiles = false
        if kind == .directory {
            let manifestPath = joinPath(path, Manifest.fileName)
            if let bytes = try? FileSystem.read(manifestPath, limit: 256 * 1_048_576),
                let manifest = Manifest(text: String(decoding: bytes, as: UTF8.self))
            {
                previous = manifest
            }
            let foreign = FileSystem.filesBelow(path).filter { $0 != Manifest.fileName && previous.entries[$0] == nil }
            holdsForeignFiles = !foreign.isEmpty
            if !foreign.isEmpty && !force {
                let shown = foreign.prefix(8).joined(separator: ", ")
                let more = foreign.count > 8 ? " and \(foreign.count - 8) more" : ""
                log.report(
                    .error(
                        "the output folder holds \(foreign.count) file(s) that ltrain did not write: \(shown)\(more)",
                        path: path,
                        hint:
                            "move them out of the way, or build with --force to replace the folder and delete them"))
                throw BuildFailure(log.diagnostics)
            }
        }
        self.previous = previous
        self.holdsForeignFiles = holdsForeignFiles

        // A staging folder left by a build that was killed is ltrain's own leftover: remove it.
        FileSystem.removeTree(stagingPath)
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: stagingPath, withIntermediateDirectories: false)
        } catch {
            throw BuildFailure([
                .error(
                    "cannot create the staging folder \(stagingPath): \(error.localizedDescription)", path: path,
                    hint: "check that the folder containing the output is writable")
            ])
        }
    }

    private static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : joinPath(FileManager.default.currentDirectoryPath, path)
        return (joined as NSString).standardizingPath
    }

    /// The canonical path of a folder that may not exist yet (its nearest existing parent resolved).
    private static func canonical(_ absolute: String) -> String {
        if let real = FileSystem.realPath(absolute) { return real }
        let parent = (absolute as NSString).deletingLastPathComponent
        guard parent != absolute else { return absolute }
        return joinPath(canonical(parent), (absolute as NSString).lastPathComponent)
    }

    /// Creates the folders the given output paths need inside the staging folder, once, before
    /// files are written from several threads, and keeps the paths' order for the manifest.
    public func prepare(for outputPaths: [String]) throws(BuildFailure) {
        state.withLock { state in
            state.order = outputPaths
            state.manifest.entries.reserveCapacity(outputPaths.count + 1)
        }
        // Each path's folder and the folders above it (`a/b/` → `a/b/`, `a/`), each once: most
        // paths share a folder, so the climb usually stops at the first step.
        var folders: Set<String> = []
        for outputPath in outputPaths {
            var folder = SitePath.folder(of: outputPath)
            while !folder.isEmpty, folders.insert(folder).inserted {
                folder = SitePath.folder(of: String(folder.utf8.dropLast()) ?? "")
            }
        }
        var descriptors: [String: Int32] = [:]
        defer {
            folderDescriptors.withLock {
                $0.merge(descriptors) { old, new in
                    close(old)
                    return new
                }
            }
        }
        for folder in [""] + folders.sorted() {
            let target = folder.isEmpty ? stagingPath : joinPath(stagingPath, String(folder.utf8.dropLast()) ?? folder)
            if !folder.isEmpty && mkdir(target, 0o755) != 0 && errno != EEXIST {
                throw BuildFailure([.error("cannot create \(target): \(FileSystem.describe(errno: errno))")])
            }
            // Without a descriptor, files in this folder are opened by their whole path.
            if let descriptor = FileSystem.openFolder(target) { descriptors[folder] = descriptor }
        }
    }

    /// Closes the folders' descriptors (before the staging folder is swapped in or dropped).
    private func closeFolders() {
        let descriptors = folderDescriptors.withLock { descriptors in
            defer { descriptors = [:] }
            return descriptors
        }
        for descriptor in descriptors.values { close(descriptor) }
    }

    deinit {
        closeFolders()
    }

    /// Writes one file of the new site: a hard link to the previous file when the bytes are the
    /// same, a new file otherwise. Safe to call from several threads for different paths.
    /// Whether the output already is exactly the site described: every page rendered from the
    /// same inputs, every other file with the same bytes, each file as ltrain left it, and
    /// nothing else in the manifest. Then nothing needs to be written at all.
    /// `derived`: files made from the others alone (the offline list), kept when all the others
    /// are, as long as they are intact.
    public func isUpToDate(
        pages: [(path: String, key: ContentHash)], files: [(path: String, bytes: [UInt8])], copied: [AssetFile] = [],
        derived: [String] = []
    ) -> Bool {
        guard mayBeUpToDate(fileCount: pages.count + files.count + copied.count + derived.count) else { return false }
        for path in derived {
            guard let entry = previous.entries[path], isIntact(path, entry) else { return false }
        }
        // One stat per page: split across the cores.
        let allKept = allSatisfyOnEveryCore(pages.count) { index in
            keptEntry(pages[index].path, .key(pages[index].key)) != nil
        }
        guard allKept else { return false }
        var files = files
        for file in copied {
            guard let bytes = try? Self.bytes(of: file) else { return false }
            files.append((file.outputPath, bytes))
        }
        return files.allSatisfy { file in
            keptEntry(file.path, .bytes(hash: ContentHash(file.bytes), size: file.bytes.count)) != nil
        }
    }

    /// The previous build's summary and report, when it was built from sources with this snapshot
    /// and every file it wrote is still as it left it (and nothing foreign lies among them): then
    /// the output already is the site those sources make, and nothing needs to be read or written.
    package func unchangedSince(_ snapshot: ContentHash) -> (summary: Summary, sources: Manifest.Sources)? {
        guard !holdsForeignFiles, previous.recordsSiteURL, let sources = previous.sources, sources.snapshot == snapshot
        else { return nil }
        let entries = Array(previous.entries)
        let allIntact = allSatisfyOnEveryCore(entries.count) { isIntact(entries[$0].key, entries[$0].value) }
        return allIntact ? (unchangedSummary, sources) : nil
    }

    /// Whether the previous build recorded a snapshot of its sources that this build could match.
    package var recordsSources: Bool { !holdsForeignFiles && previous.sources != nil }

    /// The content hash of each of `outputPaths` written or kept by this build, in their order,
    /// for the offline list; a path with none is left out.
    package func contentHashes(of outputPaths: [String]) -> [(path: String, hash: ContentHash)] {
        // Looked up on every core in the entries as they are now (a site's files are all written);
        // the copy is let go of before the next write, so that write does not copy every entry.
        let entries = state.withLock { $0.manifest.entries }
        return concurrentRuns(outputPaths.count) { run in
            outputPaths[run].compactMap { path in entries[path].map { (path, $0.hash) } }
        }.flatMap { $0 }
    }

    /// Remembers where the site is published, for `ltrain check` to tell its own links from others.
    package func record(siteURL: String?) {
        state.withLock { $0.manifest.siteURL = siteURL }
    }

    /// Remembers, for the next build, the snapshot of the sources this output is built from.
    package func record(_ sources: Manifest.Sources) {
        state.withLock { $0.manifest.sources = sources }
    }

    /// Whether the previous output's file is as ltrain left it: same size and modification time.
    private func isIntact(_ outputPath: String, _ entry: Manifest.Entry) -> Bool {
        var info = stat()
        return lstat(joinPath(path, outputPath), &info) == 0 && Int(info.st_size) == entry.size
            && FileSystem.nanoseconds(info.st_mtim) == entry.modified
    }

    /// Whether `test` holds for every index below `count`, tested on all cores (one stat each is
    /// the usual test), stopping early once one fails.
    private func allSatisfyOnEveryCore(_ count: Int, _ test: @Sendable (Int) -> Bool) -> Bool {
        let failed = Atomic<Bool>(false)
        let workers = max(1, min(availableCores, count / 256))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < count && !failed.load(ordering: .relaxed) {
                if !test(index) { failed.store(true, ordering: .relaxed) }
                index += workers
            }
        }
        return !failed.load(ordering: .relaxed)
    }

    /// Whether an output of `fileCount` files could already be up to date: the previous build wrote
    /// exactly that many, and nothing foreign is in the way. A cheap test before `isUpToDate`.
    public func mayBeUpToDate(fileCount: Int) -> Bool {
        !holdsForeignFiles && previous.recordsSiteURL && previous.entries.count == fileCount
    }

    /// The previous build's summary of a site that needed no change: every file kept.
    public var unchangedSummary: Summary {
        Summary(written: 0, unchanged: previous.entries.count, removed: 0)
    }

    /// Keeps the previous build's page without rendering it again, when it was rendered from the
    /// same inputs (`key`) and its file is as ltrain left it. Returns the page's ids, or nil when
    /// the page must be rendered.
    public func reuse(_ outputPath: String, key: ContentHash) -> [String]? {
        guard let old = keptEntry(outputPath, .key(key)), linkPrevious(outputPath) else { return nil }
        state.withLock { state in
            state.manifest.entries[outputPath] = old
            state.unchanged += 1
        }
        return old.ids
    }

    public var keepsUntouchedFiles: Bool { false }

    public func previousIDs(_ outputPath: String) -> [String]? {
        previousEntry(outputPath)?.ids
    }

    public func previousLinks(_ outputPath: String) -> [String]? {
        guard previous.recordsLinks else { return nil }
        return previousEntry(outputPath)?.links
    }

    /// What the previous build recorded for `outputPath`. A first build has no previous files: no
    /// path to look up (this runs for every file written).
    private func previousEntry(_ outputPath: String) -> Manifest.Entry? {
        previous.entries.isEmpty ? nil : previous.entries[outputPath]
    }

    /// What a file of the new site is known by, to keep the previous build's: the key of the
    /// inputs it is made from (a page, the icons), or, once made, its bytes' hash and size.
    private enum Record {
        case key(ContentHash)
        case bytes(hash: ContentHash, size: Int)
    }

    /// The previous build's entry for `outputPath` when it records what `record` says and its file
    /// is as ltrain left it. The one rule by which a file is kept: asked one file at a time by
    /// `reuse` (before rendering) and `write` (after), which then hard-link it, and for every
    /// file at once by `isUpToDate`, which then stages nothing.
    private func keptEntry(_ outputPath: String, _ record: Record) -> Manifest.Entry? {
        guard let old = previousEntry(outputPath) else { return nil }
        switch record {
        case .key(let key):
            guard old.key == key else { return nil }
        case .bytes(let hash, let size):
            guard old.hash == hash, old.size == size else { return nil }
        }
        return isIntact(outputPath, old) ? old : nil
    }

    /// Hard-links the previous output's file into the staging folder.
    private func linkPrevious(_ outputPath: String) -> Bool {
        link(joinPath(path, outputPath), joinPath(stagingPath, outputPath)) == 0
    }

    /// Writes one file of the new site: a hard link to the previous file when the bytes are the
    /// same, a new file otherwise. Safe to call from several threads for different paths.
    /// `key`, `ids` and `links` are remembered for the next build (see `reuse`).
    public func write(
        _ bytes: UnsafeRawBufferPointer, to outputPath: String, key: ContentHash? = nil, ids: [String] = [],
        links: [String] = []
    ) throws(Diagnostic) {
        let hash = ContentHash(bytes)
        var target: String { joinPath(stagingPath, outputPath) }
        if var old = keptEntry(outputPath, .bytes(hash: hash, size: bytes.count)), linkPrevious(outputPath) {
            old.key = key
            old.ids = ids
            old.links = links
            state.withLock { [old] state in
                state.manifest.entries[outputPath] = old
                state.unchanged += 1
            }
            return
        }
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        let descriptor: Int32
        if let directory = folderDescriptors.withLock({ $0[SitePath.folder(of: outputPath)] }) {
            descriptor = openat(directory, lastPathComponent(outputPath), flags, 0o644)
        } else {
            descriptor = open(target, flags, 0o644)
        }
        guard descriptor >= 0 else {
            throw Diagnostic.error("cannot write \(target): \(FileSystem.describe(errno: errno))")
        }
        var offset = 0
        while offset < bytes.count {
            // `offset < bytes.count` keeps the pointer inside the buffer; an empty buffer never enters.
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                throw Diagnostic.error("cannot write \(target): \(FileSystem.describe(errno: code))")
            }
            offset += count
        }
        var info = stat()
        let statResult = fstat(descriptor, &info)
        close(descriptor)
        guard statResult == 0 else {
            throw Diagnostic.error("cannot write \(target): \(FileSystem.describe(errno: errno))")
        }
        let entry = Manifest.Entry(
            hash: hash, size: bytes.count, modified: FileSystem.nanoseconds(info.st_mtim), key: key, ids: ids,
            links: links)
        state.withLock { state in
            state.manifest.entries[outputPath] = entry
            state.written += 1
        }
    }

    public func write(
        _ bytes: [UInt8], to outputPath: String, key: ContentHash?, ids: [String], links: [String]
    ) throws(Diagnostic) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Diagnostic) in try write(buffer, to: outputPath, key: key, ids: ids, links: links) }
        }
        try result.get()
    }

    /// Puts the new site in place of the old one atomically, then removes the old one.
    public func commit() throws(BuildFailure) -> Summary {
        // Taken out of the state, not copied: writing the manifest file below records it in the
        // state, which would otherwise copy a dictionary of 20,000 entries to add one.
        let (manifest, order, written, unchanged) = state.withLock { state in
            defer {
                state.manifest = Manifest()
                state.order = []
            }
            return (state.manifest, state.order, state.written, state.unchanged)
        }
        defer { closeFolders() }
        do {
            try write(manifest.bytes(listing: order), to: Manifest.fileName)
        } catch {
            abandon()
            throw BuildFailure([error])
        }
        let removed = previous.entries.keys.filter { manifest.entries[$0] == nil }.count
        // Back into the state: a build keeps its output folder to its exit, so the entries are then
        // reclaimed with the process rather than freed one by one before the site is put in place.
        state.withLock { $0.manifest = manifest }
        if FileSystem.kind(of: path) == .directory {
            if ltrain_exchange_paths(stagingPath, path) != 0 {
                let code = errno
                // Filesystems without RENAME_EXCHANGE: two renames, the shortest window we can get.
                guard code == EINVAL || code == ENOSYS else {
                    abandon()
                    throw BuildFailure([
                        .error("cannot put the new site in place: \(FileSystem.describe(errno: code))", path: path)
                    ])
                }
                let aside = stagingPath + "-old"
                try? FileManager.default.removeItem(atPath: aside)
                guard rename(path, aside) == 0, rename(stagingPath, path) == 0 else {
                    throw BuildFailure([
                        .error("cannot put the new site in place: \(FileSystem.describe(errno: errno))", path: path)
                    ])
                }
                try? FileManager.default.removeItem(atPath: aside)
                return Summary(written: written, unchanged: unchanged, removed: removed)
            }
            // The staging path now holds the previous site.
            FileSystem.removeTreeInParallel(stagingPath)
        } else if rename(stagingPath, path) != 0 {
            let code = errno
            abandon()
            throw BuildFailure([
                .error("cannot put the new site in place: \(FileSystem.describe(errno: code))", path: path)
            ])
        }
        return Summary(written: written, unchanged: unchanged, removed: removed)
    }

    /// Drops the staging folder; the previous output stays exactly as it was.
    public func abandon() {
        closeFolders()
        try? FileManager.default.removeItem(atPath: stagingPath)
    }
}
