import Dispatch
import Foundation
import Synchronization

/// A Markdown file of the content folder, read and split into front matter and body.
public struct ContentFile: Sendable {
    /// The path as the author sees it, e.g. `content/stations/01-eighth-avenue.md`.
    public var displayPath: String
    /// The path inside the content folder, e.g. `stations/01-eighth-avenue.md`.
    public var relativePath: String
    public var document: FrontMatterDocument

    public var fileName: String { lastPathComponent(relativePath) }
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
}

/// Everything read from `templates/`: Mustache sources by name, and static files (CSS, JS, images).
public struct LoadedTemplates: Sendable {
    public var sources: [String: String] = [:]
    public var displayPaths: [String: String] = [:]
    public var staticFiles: [AssetFile] = []
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
        let indexPath = joinPath(directory, "index.md")
        switch FileSystem.kind(of: joinPath(root, "index.md")) {
        case .missing:
            log.report(
                .error(
                    "the content folder has no index.md", path: indexPath,
                    hint: "create \(indexPath) with front matter 'title: Your Site' between '---' lines"))
        default:
            content.index = readMarkdown("index.md", root: root, display: directory, log: &log)
        }
        content.stations = markdownFiles(in: "stations", root: root, display: directory, log: &log)
        content.checklists = markdownFiles(in: "checklists", root: root, display: directory, log: &log)
        content.assets = assets(root: root, display: directory, log: &log)
        return content
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

    /// Brings `content` up to date with changed files of the content folder (paths as the
    /// watcher reports them, under `directory`), re-reading only those. Returns false when a
    /// change needs the whole folder read again (a folder moved, an unknown kind of change).
    public static func refresh(
        _ content: inout LoadedContent, from directory: String, changed: Set<String>, log: inout DiagnosticLog
    ) -> Bool {
        guard let root = FileSystem.realPath(directory) else { return false }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var assetsChanged = false
        for path in changed.sorted() {
            guard path.hasPrefix(prefix) else { return false }
            let relative = String(path.dropFirst(prefix.count))
            let parts = relative.split(separator: "/")
            let name = parts.last.map(String.init) ?? ""
            if name.hasPrefix(".") || name.hasSuffix("~") { continue }  // editors' swap and backup files
            if parts.first == "assets" {
                assetsChanged = true
                continue
            }
            if relative == "index.md" {
                content.index = readMarkdown(relative, root: root, display: directory, log: &log)
                continue
            }
            guard parts.count == 2, parts[0] == "stations" || parts[0] == "checklists" else { return false }
            guard name.hasSuffix(".md") else {
                if FileSystem.kind(of: path) == .directory { return false }
                continue
            }
            let kind = FileSystem.kind(of: path)
            var file: ContentFile?
            if kind == .file || kind == .symbolicLink,
                resolvedKind(path, root: root, display: joinPath(directory, relative), log: &log) == .file
            {
                file = readMarkdown(relative, root: root, display: directory, log: &log)
            }
            func update(_ files: inout [ContentFile]) {
                files.removeAll { $0.relativePath == relative }
                if let file {
                    files.append(file)
                    files.sort { $0.relativePath < $1.relativePath }
                }
            }
            if parts[0] == "stations" { update(&content.stations) } else { update(&content.checklists) }
        }
        if assetsChanged {
            content.assets = assets(root: root, display: directory, log: &log)
        }
        return true
    }

    // MARK: Folders

    /// Every file of `assets/`, copied to the same path in the output.
    private static func assets(root: String, display: String, log: inout DiagnosticLog) -> [AssetFile] {
        files(under: "assets", root: root, display: display, log: &log).map {
            AssetFile(outputPath: $0.relative, sourcePath: $0.source, displayPath: joinPath(display, $0.relative))
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
        under folder: String, root: String, display: String, log: inout DiagnosticLog
    ) -> [(relative: String, source: String)] {
        var found: [(String, String)] = []
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? root : joinPath(root, relative)
            let names: [String]
            do {
                names = try FileSystem.entries(of: absolute)
            } catch {
                log.report(.error(error.message, path: joinPath(display, relative)))
                return
            }
            for name in names where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : joinPath(relative, name)
                let childAbsolute = joinPath(root, childRelative)
                switch resolvedKind(childAbsolute, root: root, display: joinPath(display, childRelative), log: &log) {
                case .file: found.append((childRelative, childAbsolute))
                case .directory: walk(childRelative)
                default: continue
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

    /// The kind of a path after following a symbolic link, which must stay inside the root folder.
    private static func resolvedKind(
        _ path: String, root: String, display: String, log: inout DiagnosticLog
    ) -> FileSystem.Kind {
        let kind = FileSystem.kind(of: path)
        guard kind == .symbolicLink else { return kind }
        guard let target = FileSystem.realPath(path) else {
            log.report(
                .error(
                    "symbolic link points to a file that does not exist", path: display,
                    hint: "remove the link or make it point to a file inside the folder"))
            return .missing
        }
        guard FileSystem.isInside(target, root) else {
            log.report(
                .error(
                    "symbolic link points outside its folder (to \(target))", path: display,
                    hint: "copy the file into the folder instead of linking to it"))
            return .missing
        }
        let targetKind = FileSystem.kind(of: target)
        if targetKind == .directory {
            log.report(
                .warning(
                    "symbolic link to a folder is not followed", path: display,
                    hint: "move the folder here, or link the files one by one"))
            return .missing
        }
        return targetKind
    }

    /// Whether `folder` (of the root) is a folder to read: a real folder, or a link to one inside the root.
    private static func folderInside(_ folder: String, root: String, display: String, log: inout DiagnosticLog) -> Bool {
        let absolute = joinPath(root, folder)
        switch FileSystem.kind(of: absolute) {
        case .directory:
            return true
        case .symbolicLink:
            guard let target = FileSystem.realPath(absolute), FileSystem.kind(of: target) == .directory else {
                return false
            }
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
        var relatives: [String] = []
        for entry in entries where entry.name.hasSuffix(".md") && !entry.name.hasPrefix(".") {
            let relative = joinPath(folder, entry.name)
            // A regular file as listed needs no stat; links and unknown kinds are looked at closely.
            let kind =
                entry.kind == .file
                ? .file : resolvedKind(joinPath(root, relative), root: root, display: joinPath(display, relative), log: &log)
            if kind == .file { relatives.append(relative) }
        }
        // Reading and parsing front matter is independent per file: do it on every core, then
        // keep files and problems in name order so the outcome does not depend on scheduling.
        let paths = relatives
        // Files are opened relative to their folder's descriptor: one name to look up, not a path.
        let directory = FileSystem.openFolder(absolute)
        defer { if let directory { close(directory) } }
        let results = concurrentMap(paths.count) { index -> (ContentFile?, [Diagnostic]) in
            // Unlimited: merged into the build's log, which applies the limit.
            var fileLog = DiagnosticLog(limit: .max)
            let file = readMarkdown(paths[index], root: root, display: display, in: directory, log: &fileLog)
            return (file, fileLog.diagnostics)
        }
        var files: [ContentFile] = []
        for (file, diagnostics) in results {
            log.report(contentsOf: diagnostics)
            if let file { files.append(file) }
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
