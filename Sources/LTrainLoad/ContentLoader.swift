import Dispatch
import Foundation
import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainTemplates
import LTrainPNG

/// A Markdown file of the content folder, read and split into front matter and body.
public struct ContentFile: Sendable {
    /// The path as the author sees it, e.g. `content/stations/01-eighth-avenue.md`.
    public var displayPath: String
    /// The path inside the content folder, e.g. `stations/01-eighth-avenue.md`.
    public var relativePath: String
    public var document: FrontMatterDocument
    /// The file's canonical path once symbolic links are followed, so that one file read in two
    /// roles (a station linked to `index.md`) is noticed; empty when not known.
    var identity = ""

    public var fileName: String { lastPathComponent(relativePath) }
}

extension ContentFile {
    /// A file that is not on disk (its identity unknown), such as the Render stage's specimen site.
    package init(displayPath: String, relativePath: String, document: FrontMatterDocument) {
        self.init(displayPath: displayPath, relativePath: relativePath, document: document, identity: "")
    }
}

/// A file copied into the output as it is.
public struct AssetFile: Sendable, Equatable {
    /// Where it goes, relative to the output folder.
    public var outputPath: String
    /// Where it is read from.
    public var sourcePath: String
    public var displayPath: String
    /// The contents of a built-in theme file, which has no source path.
    public var builtIn: String?
    /// The width and height of a PNG the site names in its web app manifest (the author's icon),
    /// read from its header as it is loaded.
    public var pixelSize: PixelSize?

    public init(outputPath: String, sourcePath: String, displayPath: String, builtIn: String? = nil) {
        self.outputPath = outputPath
        self.sourcePath = sourcePath
        self.displayPath = displayPath
        self.builtIn = builtIn
    }
}

/// Everything read from `content/`, before any meaning is given to it.
public struct LoadedContent: Sendable {
    public var index: ContentFile?
    public var stations: [ContentFile] = []
    public var checklists: [ContentFile] = []
    public var assets: [AssetFile] = []
    /// `static/**`, copied as they are to the output's root (`CNAME`, `.nojekyll`, `.well-known/…`).
    public var staticFiles: [AssetFile] = []
}

extension LoadedContent {
    /// Content made in memory rather than loaded (the Render stage's specimen site).
    package static func made(index: ContentFile, stations: [ContentFile], checklists: [ContentFile]) -> LoadedContent {
        LoadedContent(index: index, stations: stations, checklists: checklists)
    }
}

/// Everything read from `templates/`: Mustache sources by name, and static files (CSS, JS, images).
public struct LoadedTemplates: Sendable {
    public var sources: [String: String] = [:]
    public var displayPaths: [String: String] = [:]
    public var staticFiles: [AssetFile] = []
}

/// What a changed path of the content folder (relative to it) is to a build: the one place that
/// says which files are sources, for every caller that reacts to changes. Decided by the name
/// alone, as the loader reads names.
public enum ContentChange: Equatable, Sendable {
    /// Nothing the build reads: hidden files (editors' swap files), backups (`x.md~`), and files
    /// that are not `.md` in `stations/` and `checklists/` (`x.md.tmp`, `#x.md#`, `4913`).
    case ignored
    case index
    case station
    case checklist
    case asset
    case staticFile
    /// Anything else (a folder itself, a file beside `index.md`): read the whole folder again.
    case unknown

    public init(_ relative: String) {
        let parts = relative.split(separator: "/")
        let name = parts.last.map(String.init) ?? ""
        if parts.first == "static" && parts.count > 1 && !ContentLoader.isEditorLeftover(name) {
            // Hidden files are files to publish here (`.nojekyll`, `.well-known/`).
            self = .staticFile
        } else if parts.contains(where: { $0.hasPrefix(".") }) || name.hasSuffix("~") {
            self = .ignored
        } else if relative == "index.md" {
            self = .index
        } else if parts.first == "assets" && parts.count > 1 {
            self = .asset
        } else if parts.count == 2 && (parts[0] == "stations" || parts[0] == "checklists") {
            guard name.hasSuffix(".md") else {
                self = .ignored
                return
            }
            self = parts[0] == "stations" ? .station : .checklist
        } else {
            self = .unknown
        }
    }
}

/// A burst of changed paths (as the file watcher reports them), sorted by what each is to a build:
/// the one place where `ltrain serve` decides what an edit touched.
public struct SourceChanges: Sendable, Equatable {
    /// A changed path inside the content folder that the build reads (or may read: a new
    /// folder), relative to the folder, with what it is.
    public struct ContentPath: Sendable, Equatable {
        public var relative: String
        public var kind: ContentChange
    }

    /// The changed content paths, sorted; editors' leftovers are left out.
    public var content: [ContentPath] = []
    /// The content folder itself changed (removed, renamed), or a path outside both folders:
    /// everything is read again.
    public var contentFolderChanged = false
    public var templates = false
    /// A file copied as it is (a content asset or static file, a theme file that is not a
    /// template) may have new bytes, which no model shows: one changed, or a folder that holds
    /// such files (the content or templates folder, `assets/`, `static/`) was renamed or swapped.
    public var copiedFiles = false

    public init(_ paths: Set<String>, contentDirectory: String, templatesDirectory: String) {
        let contentPrefix = contentDirectory.hasSuffix("/") ? contentDirectory : contentDirectory + "/"
        let templatesPrefix = templatesDirectory.hasSuffix("/") ? templatesDirectory : templatesDirectory + "/"
        for path in paths.sorted() {
            if path == templatesDirectory || path.hasPrefix(templatesPrefix) {
                templates = true
                let relative = path.dropFirst(templatesPrefix.count)
                let name = relative.split(separator: "/").last ?? ""
                // The folder itself (renamed or swapped whole) holds the theme's files as well.
                if relative.isEmpty { copiedFiles = true }
                let isSource = relative.hasSuffix(".mustache") || relative.isEmpty
                if !isSource && !name.hasPrefix(".") && !ContentLoader.isEditorLeftover(String(name)) { copiedFiles = true }
                continue
            }
            let relative = String(path.dropFirst(contentPrefix.count))
            // Outside it, or the folder itself (named `content/` on the command line, the watcher
            // reports it so).
            guard path.hasPrefix(contentPrefix), !relative.isEmpty else {
                contentFolderChanged = true
                copiedFiles = true
                continue
            }
            let kind = ContentChange(relative)
            switch kind {
            // An editor's save through `x.md.tmp` renamed over `x.md`: the temporary file is
            // nothing the build reads. A new folder may hold files the build reads.
            case .ignored where FileSystem.kind(of: path) != .directory: continue
            case .asset, .staticFile: copiedFiles = true
            // A folder of copied files renamed or swapped whole is reported alone.
            case .unknown where relative == "assets" || relative == "static": copiedFiles = true
            default: break
            }
            content.append(ContentPath(relative: relative, kind: kind))
        }
    }

    public var touchesContent: Bool { contentFolderChanged || !content.isEmpty }

    /// The stations edited or saved in place (relative to the content folder), when every
    /// content change is one; nil when any other content file or folder changed.
    public var editedStations: [String]? {
        guard !contentFolderChanged, content.allSatisfy({ $0.kind == .station }) else { return nil }
        return content.map(\.relative)
    }

    /// The changed content files by their path inside the content folder (`stations/03-a.md`).
    public var contentPaths: Set<String> { Set(content.map(\.relative)) }
}

/// The Load stage: reads the content and templates folders. The only stage, with Write, that reads the disk.
public enum ContentLoader {
    /// Markdown files larger than this are refused as not sane (the largest real station is a few KiB).
    public static let markdownSizeLimit = 32 * 1_048_576
    /// Template files larger than this are refused.
    public static let templateSizeLimit = 4 * 1_048_576
    public static let assetSizeLimit = 256 * 1_048_576

    public static func loadContent(from directory: String, log: inout DiagnosticLog) -> LoadedContent? {
        guard let root = checkedRoot(directory, role: "content", log: &log) else { return nil }
        var content = LoadedContent()
        content.index = readIndex(root: root, display: directory, log: &log)
        content.stations = markdownFiles(in: "stations", root: root, display: directory, log: &log)
        content.checklists = markdownFiles(in: "checklists", root: root, display: directory, log: &log)
        content.assets = assets(root: root, display: directory, log: &log)
        content.staticFiles = staticFiles(root: root, display: directory, log: &log)
        checkOneRolePerFile(content, log: &log)
        reportUnreadEntries(root: root, display: directory, log: &log)
        return content
    }

    /// What the content folder holds at its top level that ltrain reads.
    static let contentEntries = ["index.md", "stations", "checklists", "assets", "static"]
    static let contentEntriesText = "index.md, stations/, checklists/, assets/ and static/"

    /// An editor's temporary or backup file (`x.md~`, `.x.md.swp`, `#x.md#`, `.DS_Store`): never
    /// content, never published, never warned about.
    static func isEditorLeftover(_ name: String) -> Bool {
        name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".tmp")
            || (name.hasPrefix("#") && name.hasSuffix("#")) || name == ".DS_Store" || name == "Thumbs.db"
    }

    /// Warns about every file or folder at the top of the content folder that no rule reads (a
    /// page the author wrote that would silently not be built), with the nearest name ltrain reads.
    private static func reportUnreadEntries(root: String, display: String, log: inout DiagnosticLog) {
        guard let entries = try? FileSystem.typedEntries(of: root) else { return }
        for entry in entries
        where !entry.name.hasPrefix(".") && !isEditorLeftover(entry.name) && !contentEntries.contains(entry.name)
            && entry.kind != .invalidName
        {
            let path = joinPath(display, entry.name)
            let isFolder = FileSystem.kind(of: joinPath(root, entry.name), followingLinks: true) == .directory
            let suggestion = NearestName.suggestion(for: entry.name, among: contentEntries)
            let meant = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            let hint: String
            if isFolder {
                hint = "ltrain reads \(contentEntriesText) in \(display)/; rename or move the folder"
            } else if entry.name.hasSuffix(".md") {
                hint = "ltrain reads \(contentEntriesText) in \(display)/: a station goes in stations/ as NN-name.md, a checklist in checklists/"
            } else {
                hint = "ltrain reads \(contentEntriesText) in \(display)/: files linked from pages go in assets/, files for the site's root in static/"
            }
            log.report(.warning("\(isFolder ? "folder" : "file") is not read by any rule\(meant)", path: path, hint: hint))
        }
    }

    /// `index.md`: a regular file, or a symbolic link to one inside the content folder.
    private static func readIndex(root: String, display: String, log: inout DiagnosticLog) -> ContentFile? {
        let indexPath = joinPath(display, "index.md")
        let path = joinPath(root, "index.md")
        let resolved = resolved(path, root: root, display: indexPath, log: &log)
        switch resolved.kind {
        case .file:
            var index = readMarkdown("index.md", root: root, display: display, log: &log)
            index?.identity = resolved.identity
            return index
        case .missing where FileSystem.kind(of: path) == .missing:
            log.report(
                .error(
                    "the content folder has no index.md", path: indexPath,
                    hint: "create \(indexPath) with front matter 'title: Your Site' between '---' lines"))
        case .directory:
            log.report(.error("index.md is a folder", path: indexPath, hint: "index.md must be a Markdown file"))
        default:
            // A link that leads nowhere or out of the folder was reported where it was resolved.
            reportUnreadable(resolved.kind, display: indexPath, log: &log)
        }
        return nil
    }

    /// One file plays one role: a symbolic link that makes a file both the index and a station,
    /// or a station and a checklist, is an error (its front matter means different things in
    /// each). Two stations linked to one file stay allowed: an alias with a slug of its own.
    static func checkOneRolePerFile(_ content: LoadedContent, log: inout DiagnosticLog) {
        // Stations never clash with stations (one role), so only the index and the checklists,
        // a handful, go into a table; each station is looked up in it, since every edit in
        // `serve` runs this check and a table of every station showed in a body edit. Files are
        // read in place, by index: copying each costs more than the check.
        var roles: [String: (role: String, path: String)] = [:]
        func claim(_ file: ContentFile, as role: String) {
            guard !file.identity.isEmpty else { return }
            guard let first = roles[file.identity] else {
                roles[file.identity] = (role, file.displayPath)
                return
            }
            if first.role != role { report(file.displayPath, sameAs: first.path, roles: first.role, role) }
        }
        func report(_ path: String, sameAs firstPath: String, roles first: String, _ second: String) {
            log.report(
                .error(
                    "is the same file as \(firstPath) (through a symbolic link): one file cannot be both \(first) and \(second)",
                    path: path, hint: "copy the file instead of linking to it"))
        }
        if let index = content.index { claim(index, as: "the index") }
        let checklistIdentities = Set(content.checklists.lazy.map(\.identity).filter { !$0.isEmpty })
        // The first station with a checklist's identity, which that checklist is reported against.
        var stationOfChecklist: [String: String] = [:]
        let stations = content.stations
        for index in stations.indices where !stations[index].identity.isEmpty {
            let identity = stations[index].identity
            if let first = roles[identity] {
                report(stations[index].displayPath, sameAs: first.path, roles: first.role, "a station")
            } else if checklistIdentities.contains(identity), stationOfChecklist[identity] == nil {
                stationOfChecklist[identity] = stations[index].displayPath
            }
        }
        for index in content.checklists.indices {
            let checklist = content.checklists[index]
            if let station = stationOfChecklist[checklist.identity], roles[checklist.identity] == nil {
                report(checklist.displayPath, sameAs: station, roles: "a station", "a checklist")
            } else {
                claim(checklist, as: "a checklist")
            }
        }
    }

    /// Reports a directory entry that cannot be read as a file: a special file, or a name that is not UTF-8.
    private static func reportUnreadable(_ kind: FileSystem.Kind, display: String, log: inout DiagnosticLog) {
        switch kind {
        case .other:
            log.report(
                .error(
                    "is not a regular file or folder (a FIFO, socket or device)", path: display,
                    hint: "remove it, or replace it with an ordinary file"))
        case .invalidName:
            log.report(
                .error(
                    "file name is not valid UTF-8", path: display,
                    hint: "rename it: file names become page names and links, which are UTF-8 text"))
        default:
            break
        }
    }

    /// The built-in templates and theme files (see `DefaultTemplates`), as loaded templates.
    public static var defaultTemplates: LoadedTemplates {
        var templates = LoadedTemplates()
        for (path, text) in DefaultTemplates.files.sorted(by: { $0.key < $1.key }) {
            if path.hasSuffix(".mustache") {
                let name = String(path.dropLast(".mustache".count))
                templates.sources[name] = text
                templates.displayPaths[name] = "(built-in) \(path)"
            } else {
                templates.staticFiles.append(
                    AssetFile(outputPath: path, sourcePath: "", displayPath: "(built-in) \(path)", builtIn: text))
            }
        }
        return templates
    }

    /// Loads `directory` over the built-in templates: each of its files replaces the built-in file
    /// of the same name. When `directory` does not exist and `required` is false, the built-in
    /// templates alone are used.
    public static func loadTemplates(
        from directory: String, required: Bool = true, log: inout DiagnosticLog
    ) -> LoadedTemplates? {
        var templates = defaultTemplates
        if !required && FileSystem.kind(of: directory, followingLinks: true) == .missing { return templates }
        guard let root = checkedRoot(directory, role: "templates", log: &log) else { return nil }
        for file in files(under: "", root: root, display: directory, log: &log) {
            let display = joinPath(directory, file.relative)
            if file.relative.hasSuffix(".mustache") {
                let name = String(file.relative.dropLast(".mustache".count))
                do {
                    let bytes = try FileSystem.read(file.source, limit: templateSizeLimit)
                    switch SourceText.decode(bytes) {
                    case .success(let text):
                        templates.sources[name] = text
                        templates.displayPaths[name] = display
                    case .failure(let error):
                        log.report(diagnostic(for: error.problem, path: display))
                    }
                } catch {
                    log.report(.error(error.message, path: display, hint: error.hint))
                }
            } else {
                templates.staticFiles.removeAll { $0.outputPath == file.relative }
                templates.staticFiles.append(
                    AssetFile(outputPath: file.relative, sourcePath: file.source, displayPath: display))
            }
        }
        templates.staticFiles.sort { $0.outputPath < $1.outputPath }
        return templates
    }

    /// Brings `content` up to date with the changed files of the content folder `directory`,
    /// re-reading only those. Returns false when a change needs the whole folder read again (the
    /// folder moved, a new folder, an unknown kind of change).
    public static func refresh(
        _ content: inout LoadedContent, from directory: String, changes: SourceChanges, log: inout DiagnosticLog
    ) -> Bool {
        guard !changes.contentFolderChanged, let root = FileSystem.realPath(directory) else { return false }
        var assetsChanged = false
        var staticChanged = false
        for change in changes.content {
            let relative = change.relative
            let path = joinPath(directory, relative)
            let isStation: Bool
            switch change.kind {
            case .ignored:
                // Only new folders come here (editors' leftovers are not changes): one where only
                // files are read needs everything read again.
                if !relative.hasPrefix("assets/") && !relative.hasPrefix("static/") { return false }
                continue
            case .asset:
                assetsChanged = true
                continue
            case .staticFile:
                staticChanged = true
                continue
            case .index:
                content.index = readIndex(root: root, display: directory, log: &log)
                continue
            case .station: isStation = true
            case .checklist: isStation = false
            case .unknown: return false
            }
            var file: ContentFile?
            let resolved = resolved(path, root: root, display: joinPath(directory, relative), log: &log)
            if resolved.kind == .file {
                file = readMarkdown(relative, root: root, display: directory, log: &log)
                file?.identity = resolved.identity
            } else {
                reportUnreadable(resolved.kind, display: joinPath(directory, relative), log: &log)
            }
            /// Replaces the file in place, or inserts it where the sorted order puts it.
            func update(_ files: inout [ContentFile]) {
                // Binary search: the files are sorted by path (as the folder listing sorts names).
                var low = 0
                var high = files.count
                while low < high {
                    let middle = (low + high) / 2
                    if files[middle].relativePath < relative { low = middle + 1 } else { high = middle }
                }
                let position = low
                let exists = position < files.count && files[position].relativePath == relative
                switch (file, exists) {
                case (let file?, true): files[position] = file
                case (let file?, false): files.insert(file, at: position)
                case (nil, true): files.remove(at: position)
                case (nil, false): break
                }
            }
            if isStation { update(&content.stations) } else { update(&content.checklists) }
        }
        if assetsChanged {
            content.assets = assets(root: root, display: directory, log: &log)
        }
        if staticChanged {
            content.staticFiles = staticFiles(root: root, display: directory, log: &log)
        }
        checkOneRolePerFile(content, log: &log)
        return true
    }

    // MARK: Folders

    /// Every file of `static/` (hidden ones too, editors' leftovers not), copied to the output's root.
    private static func staticFiles(root: String, display: String, log: inout DiagnosticLog) -> [AssetFile] {
        files(under: "static", root: root, display: display, includingHidden: true, log: &log).compactMap { file in
            let outputPath = String(file.relative.dropFirst("static/".count))
            let displayPath = joinPath(display, file.relative)
            guard outputPath.split(separator: "/").first != ".ltrain-manifest" else {
                log.report(
                    .error(
                        "a static file cannot be named .ltrain-manifest", path: displayPath,
                        hint: "that name is ltrain's record of what it wrote; remove the file"))
                return nil
            }
            return AssetFile(outputPath: outputPath, sourcePath: file.source, displayPath: displayPath)
        }
    }

    /// Every file of `assets/`, copied to the same path in the output.
    private static func assets(root: String, display: String, log: inout DiagnosticLog) -> [AssetFile] {
        files(under: "assets", root: root, display: display, log: &log).map {
            var asset = AssetFile(outputPath: $0.relative, sourcePath: $0.source, displayPath: joinPath(display, $0.relative))
            // The author's home-screen icon: the web app manifest gives its size, and a file
            // phones cannot show (text, truncated, empty) fails here rather than as a blank icon.
            if asset.outputPath == "assets/icon.png" {
                asset.pixelSize = iconSize(of: asset, log: &log)
            }
            return asset
        }
    }

    /// The largest icon file read: a 1024-pixel PNG is well under a megabyte.
    static let iconByteLimit = 16 << 20

    /// The pixel size of the author's `assets/icon.png`, read to its end by libpng; an error
    /// when it cannot be read, a warning when phones would show it poorly.
    static func iconSize(of icon: AssetFile, log: inout DiagnosticLog) -> PixelSize? {
        let hint = "save it as a square PNG of 512×512 pixels, or remove it to use the built-in icon"
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(icon.sourcePath, limit: iconByteLimit)
        } catch {
            log.report(.error("the icon cannot be read: \(error)", path: icon.displayPath, hint: hint))
            return nil
        }
        switch PNG.decodedSize(of: bytes) {
        case .failure(.unreadable(let reason)):
            let what = bytes.isEmpty ? "is empty" : "is not a PNG image libpng can read (\(reason))"
            log.report(.error("the icon \(what)", path: icon.displayPath, hint: hint))
            return nil
        case .failure(.tooLarge(let size)):
            log.report(
                .error(
                    "the icon is \(size.width)×\(size.height) pixels; at most \(PNG.largestSide) on a side is read",
                    path: icon.displayPath, hint: hint))
            return nil
        case .success(let size):
            if size.width != size.height || size.width < 192 {
                log.report(
                    .warning(
                        "the icon is \(size.width)×\(size.height) pixels; phones want a square icon of at least 192×192, and show this one cropped or blurred",
                        path: icon.displayPath, hint: hint))
            }
            return size
        }
    }

    /// The error for a symbolic link that cannot be followed, at the link.
    static func brokenLink(_ display: String, reason: FileSystem.BrokenLink) -> Diagnostic {
        switch reason {
        case .missingTarget:
            .error(
                "symbolic link points to a file that does not exist", path: display,
                hint: "remove the link or make it point to a file inside the folder")
        case .loop:
            .error(
                "symbolic link loop: following it leads back to a link it passed", path: display,
                hint: "make the link point to a file, not to a link that leads back to it")
        case .other(let reason):
            .error("symbolic link cannot be followed: \(reason)", path: display, hint: "remove the link or fix what it points to")
        }
    }

    private static func checkedRoot(_ directory: String, role: String, log: inout DiagnosticLog) -> String? {
        switch FileSystem.kind(of: directory, followingLinks: true) {
        case .directory:
            guard let real = FileSystem.realPath(directory) else {
                log.report(.error("the \(role) folder cannot be opened", path: directory))
                return nil
            }
            return real
        case .missing where FileSystem.brokenLinkReason(directory) == .loop:
            log.report(
                .error(
                    "the \(role) folder is a symbolic link loop: following it leads back to a link it passed",
                    path: directory, hint: "name the real folder with --\(role) DIR"))
        case .missing:
            log.report(
                .error(
                    "the \(role) folder does not exist", path: directory,
                    hint: "run ltrain from your site's folder, or name the folder with --\(role) DIR"))
        default:
            log.report(
                .error(
                    "the \(role) folder is not a folder", path: directory,
                    hint: "name a folder with --\(role) DIR"))
        }
        return nil
    }

    /// Every regular file below `folder` (recursively), sorted by path; hidden files are skipped.
    /// A symbolic link is followed only when it stays inside the root folder.
    private static func files(
        under folder: String, root: String, display: String, includingHidden: Bool = false, log: inout DiagnosticLog
    ) -> [(relative: String, source: String)] {
        var found: [(String, String)] = []
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? root : joinPath(root, relative)
            let entries: [(name: String, kind: FileSystem.Kind?)]
            do {
                entries = try FileSystem.typedEntries(of: absolute)
            } catch {
                log.report(.error(error.message, path: joinPath(display, relative)))
                return
            }
            for entry in entries
            where includingHidden ? !isEditorLeftover(entry.name) && entry.name != ".git" : !entry.name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? entry.name : joinPath(relative, entry.name)
                let childAbsolute = joinPath(root, childRelative)
                let childDisplay = joinPath(display, childRelative)
                // The names a site may hold are `SiteFileName`'s rule (a newline would break the
                // lines of .ltrain-manifest); a path past PATH_MAX cannot be opened.
                if let problem = SiteFileName.problem(inName: entry.name) {
                    log.report(.error(problem.message, path: childDisplay, hint: problem.hint))
                    continue
                }
                if childAbsolute.utf8.count >= Int(PATH_MAX) {
                    log.report(
                        .error(
                            "path is \(childAbsolute.utf8.count) bytes long, more than the system can open (\(PATH_MAX - 1))",
                            path: childDisplay, hint: "shorten its folder or file names"))
                    continue
                }
                let kind =
                    entry.kind == .invalidName
                    ? .invalidName : resolved(childAbsolute, root: root, display: childDisplay, log: &log).kind
                switch kind {
                case .file: found.append((childRelative, childAbsolute))
                case .directory: walk(childRelative)
                default: reportUnreadable(kind, display: childDisplay, log: &log)
                }
            }
        }
        if folder.isEmpty {
            walk("")
        } else if folderInside(folder, root: root, display: display, log: &log) {
            walk(folder)
        }
        return found
    }

    /// The kind of a path after following a symbolic link, which must stay inside the root folder,
    /// and the canonical path of what it leads to (empty when there is nothing to read).
    private static func resolved(
        _ path: String, root: String, display: String, log: inout DiagnosticLog
    ) -> (kind: FileSystem.Kind, identity: String) {
        let kind = FileSystem.kind(of: path)
        guard kind == .symbolicLink else { return (kind, kind == .missing ? "" : path) }
        guard let target = FileSystem.realPath(path) else {
            log.report(brokenLink(display, reason: FileSystem.brokenLinkReason(path) ?? .missingTarget))
            return (.missing, "")
        }
        guard FileSystem.isInside(target, root) else {
            log.report(
                .error(
                    "symbolic link points outside its folder (to \(target))", path: display,
                    hint: "copy the file into the folder instead of linking to it"))
            return (.missing, "")
        }
        let targetKind = FileSystem.kind(of: target)
        if targetKind == .directory {
            log.report(
                .warning(
                    "symbolic link to a folder is not followed", path: display,
                    hint: "move the folder here, or link the files one by one"))
            return (.missing, "")
        }
        return (targetKind, target)
    }

    /// Whether `folder` (of the root) is a folder to read: a real folder, or a link to one inside the root.
    private static func folderInside(_ folder: String, root: String, display: String, log: inout DiagnosticLog) -> Bool {
        let absolute = joinPath(root, folder)
        switch FileSystem.kind(of: absolute) {
        case .directory:
            return true
        case .symbolicLink:
            guard let target = FileSystem.realPath(absolute) else {
                log.report(brokenLink(joinPath(display, folder), reason: FileSystem.brokenLinkReason(absolute) ?? .missingTarget))
                return false
            }
            guard FileSystem.kind(of: target) == .directory else { return false }
            guard FileSystem.isInside(target, root) else {
                log.report(
                    .error(
                        "symbolic link points outside its folder (to \(target))", path: joinPath(display, folder),
                        hint: "copy the folder into the site instead of linking to it"))
                return false
            }
            return true
        default:
            return false
        }
    }

    private static func markdownFiles(
        in folder: String, root: String, display: String, log: inout DiagnosticLog
    ) -> [ContentFile] {
        let absolute = joinPath(root, folder)
        guard folderInside(folder, root: root, display: display, log: &log) else { return [] }
        let entries: [(name: String, kind: FileSystem.Kind?)]
        do {
            entries = try FileSystem.typedEntries(of: absolute)
        } catch {
            log.report(.error(error.message, path: joinPath(display, folder)))
            return []
        }
        // Each file's canonical path: the folder's own (it may be a link inside the root), then the name.
        let folderIdentity = FileSystem.realPath(absolute) ?? absolute
        var relatives: [String] = []
        relatives.reserveCapacity(entries.count)
        // A file's identity where it is not the folder's and its name (a link elsewhere); the
        // others' are made on every core, by the worker that reads the file.
        var identities: [Int: String] = [:]
        for entry in entries where entry.name.hasSuffix(".md") && !entry.name.hasPrefix(".") {
            let relative = joinPath(folder, entry.name)
            // A regular file as listed needs no stat; links and unknown kinds are looked at closely.
            if entry.kind == .file {
                relatives.append(relative)
                continue
            }
            let entryDisplay = joinPath(display, relative)
            var resolved: (kind: FileSystem.Kind, identity: String) = (.invalidName, "")
            if entry.kind != .invalidName {
                resolved = Self.resolved(joinPath(root, relative), root: root, display: entryDisplay, log: &log)
                if resolved.identity == joinPath(root, relative) { resolved.identity = joinPath(folderIdentity, entry.name) }
            }
            switch resolved.kind {
            case .file:
                identities[relatives.count] = resolved.identity
                relatives.append(relative)
            case .directory, .missing:
                continue
            default:
                reportUnreadable(resolved.kind, display: entryDisplay, log: &log)
            }
        }
        // Reading and parsing front matter is independent per file: do it on every core, then
        // keep files and problems in name order so the outcome does not depend on scheduling.
        let paths = relatives
        let linkedIdentities = identities
        // Files are opened relative to their folder's descriptor: one name to look up, not a path.
        let directory = FileSystem.openFolder(absolute)
        defer { if let directory { close(directory) } }
        var results = concurrentMap(paths.count) { index -> (ContentFile?, [Diagnostic]) in
            // Unlimited: merged into the build's log, which applies the limit.
            var fileLog = DiagnosticLog(limit: .max)
            var file = readMarkdown(paths[index], root: root, display: display, in: directory, log: &fileLog)
            file?.identity = linkedIdentities[index] ?? joinPath(folderIdentity, lastPathComponent(paths[index]))
            return (file, fileLog.diagnostics)
        }
        var files: [ContentFile] = []
        files.reserveCapacity(results.count)
        // Each file moved out of the results, not copied (and the copy freed later), on one core.
        for index in results.indices {
            if !results[index].1.isEmpty { log.report(contentsOf: results[index].1) }
            if let file = results[index].0.take() { files.append(file) }
        }
        return files
    }

    /// Reads and splits one Markdown file; with `directory`, the descriptor of the folder that holds
    /// it, the file is opened by its name in that folder.
    private static func readMarkdown(
        _ relative: String, root: String, display: String, in directory: Int32? = nil, log: inout DiagnosticLog
    ) -> ContentFile? {
        let displayPath = joinPath(display, relative)
        let bytes: [UInt8]
        do {
            if let directory {
                bytes = try FileSystem.read(lastPathComponent(relative), in: directory, limit: markdownSizeLimit)
            } else {
                bytes = try FileSystem.read(joinPath(root, relative), limit: markdownSizeLimit)
            }
        } catch {
            let hint = error.isPermissionDenied ? error.hint.map { "\($0) \(displayPath)" } : error.hint
            log.report(.error(error.message, path: displayPath, hint: hint))
            return nil
        }
        let text: String
        switch SourceText.decode(bytes) {
        case .success(let decoded): text = decoded
        case .failure(let error):
            log.report(diagnostic(for: error.problem, path: displayPath))
            return nil
        }
        do {
            let document = try FrontMatterDocument.parse(text)
            return ContentFile(displayPath: displayPath, relativePath: relative, document: document)
        } catch {
            log.report(.error(error.message, path: displayPath, at: error.location, hint: error.hint))
            return nil
        }
    }

    static func diagnostic(for problem: SourceText.Problem, path: String) -> Diagnostic {
        switch problem {
        case .nulByte(let location):
            return .error(
                "file contains a NUL byte", path: path, at: location,
                hint: "this looks like a binary file; content files must be UTF-8 text")
        case .invalidUTF8(let location):
            return .error(
                "file is not valid UTF-8", path: path, at: location,
                hint: "save the file as UTF-8 (most editors offer 'Save with encoding')")
        }
    }
}
