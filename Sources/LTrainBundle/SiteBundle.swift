import Foundation
import LTrainKit
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

/// `ltrain bundle`: the whole site as one self-contained HTML file, for a phone that cannot open
/// a folder of files (a download, a mail attachment). Every page becomes a `<section>` shown by
/// `:target` (the index when nothing is targeted), links between pages become in-file fragments,
/// ids are made unique per page, and the style sheet and every image are inlined. It works with
/// JavaScript off; with it on, a small script adds the arrow keys and Escape (Done).
public enum SiteBundle {
    public struct Report: Sendable {
        public var path: String
        public var bytes: Int
        public var stationCount: Int
        public var infoPageCount: Int
        public var checklistCount: Int
        public var seconds: Double
        /// The site's warnings (Markdown notices among them), as a build would print them.
        public var warnings: [Diagnostic] = []
    }

    /// The file name a bundle gets by default: the site title's slug (`l-train.html`).
    public static func defaultFileName(for title: String) -> String {
        let slug = slugify(title)
        return (slug.isEmpty ? "site" : slug) + ".html"
    }

    /// Builds the bundle of the site in `content` (with `templates`) into `output`, atomically: a
    /// failure leaves any previous file as it was. `output` nil: the default name, in `folder`
    /// (a prefix such as `"../"`; the current folder when empty).
    public static func write(
        content: String, templates: String, templatesRequired: Bool = false, output: String? = nil, folder: String = ""
    ) throws(BuildFailure) -> Report {
        let started = Date()
        let prepared = try PreparedSite.prepare(content: content, templates: templates, templatesRequired: templatesRequired)
        // Its search index is made after its pages, from the sections their render cut.
        let renderer = prepared.renderer.keepingParts(after: nil, keepsRenders: false)
        let site = prepared.site
        let path = output ?? folder + defaultFileName(for: site.title)
        let files = InlinedFiles(
            Dictionary(prepared.copiedFiles.map { ($0.outputPath, $0) }, uniquingKeysWith: { first, _ in first }))

        var writer = try BundleWriter(path: path, protecting: [content, templates])
        defer { writer.discard() }
        var log = DiagnosticLog()
        let style = files["style.css"].flatMap { read($0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        writer.append(
            head(
                title: site.title, language: site.language, direction: site.direction, style: inlineURLs(in: style, of: "style.css", files: files),
                icon: iconURL(of: site, files: files)))
        var ids: Set<String> = []
        var links: [(page: String, link: String)] = []
        // The index first: it is the first screen.
        let pages = renderer.pages.filter { $0 == .index } + renderer.pages.filter { $0 != .index && $0 != .notFound }
        let pagePaths = Set(pages.map(renderer.routes.path(of:)))
        // The site's own link check first, as a build runs it: a broken link is reported where it
        // was written (the Markdown file and line, or the template line), not as the bundle has it.
        var siteChecks: [PageCheck] = []
        for page in pages {
            let outputPath = renderer.routes.path(of: page)
            let rendered: RenderedPage
            do throws(Diagnostic) {
                rendered = try renderer.render(page)
            } catch {
                log.report(error)
                continue
            }
            let check = LinkChecker.checkPage(
                outputPath: outputPath, bytes: rendered.bytes, templatePath: rendered.templatePath,
                templateSources: rendered.templateSources, sourceLinks: rendered.sourceLinks,
                files: renderer.routes.outputPaths, siteURL: site.baseURL, knownParts: rendered.knownParts)
            log.report(contentsOf: check.problems)
            siteChecks.append(check)
            let section = BundlePage(outputPath: outputPath, html: String(decoding: rendered.bytes, as: UTF8.self))
                .section(pages: pagePaths, files: files)
            let scanned = HTMLScanner.scan(section)
            ids.formUnion(scanned.ids)
            links += scanned.links.map { (outputPath, $0) }
            writer.append(section)
        }
        writer.append(searchScripts(renderer, files: files))
        writer.append(tail)
        LinkChecker.checkFragments(siteChecks, log: &log)
        // A failure says the site's warnings too, after its errors.
        if log.hasErrors { throw BuildFailure(log.diagnostics, errorCount: log.errorCount).adding(warnings: prepared.warningLog.warnings) }
        // Then the bundle's own: every in-file fragment resolves, and nothing refers to a file
        // outside the bundle.
        var reported: Set<String> = []
        for (page, link) in links where reported.insert(link).inserted {
            if link.hasPrefix("#") {
                let id = SitePath.percentDecoded(String(link.dropFirst())) ?? String(link.dropFirst())
                if !id.isEmpty && !ids.contains(id) {
                    log.report(.error("link '\(link)' from \(page) points to no id in the bundle", path: path, hint: "check the link in the page it comes from"))
                }
            } else if !(link.hasPrefix("data:") || link.hasPrefix("https://") || link.hasPrefix("http://")
                || link.hasPrefix("mailto:") || link.hasPrefix("tel:") || link.isEmpty)
            {
                log.report(.error("link '\(link)' from \(page) refers to a file outside the bundle", path: path, hint: "link to a page or an asset of the site"))
            }
        }
        if log.hasErrors { throw BuildFailure(log.diagnostics, errorCount: log.errorCount).adding(warnings: prepared.warningLog.warnings) }
        let bytes = try writer.commit()
        return Report(
            path: path, bytes: bytes, stationCount: site.line.stations.count, infoPageCount: site.line.stations.count,
            checklistCount: site.checklists.count, seconds: Date().timeIntervalSince(started),
            warnings: prepared.warningLog.warnings)
    }

    /// The search index, its links made the bundle's fragments, and the theme's search script,
    /// inline; nothing when the site has no search or the theme no `search.js`.
    static func searchScripts(_ renderer: PageRenderer, files: InlinedFiles) -> String {
        guard let script = files["search.js"].flatMap({ read($0) }),
            let index = renderer.searchIndexScript(
                links: SearchIndex.Links(page: { "#" + BundlePage.id(of: $0) }, fragmentJoin: BundlePage.separator))
        else { return "" }
        return "<script>\n" + closingTagsEscaped(String(decoding: index, as: UTF8.self), element: "script") + "</script>\n"
            + "<script>\n" + closingTagsEscaped(String(decoding: script, as: UTF8.self), element: "script") + "</script>\n"
    }

    static func read(_ file: AssetFile) -> [UInt8]? {
        if let text = file.builtIn { return Array(text.utf8) }
        return try? FileSystem.read(file.sourcePath, limit: ContentLoader.assetSizeLimit)
    }

    /// The files of a site a bundle may inline, each read and encoded once however many pages
    /// show it (an image on every page was read and base64-encoded for each page).
    final class InlinedFiles {
        private let files: [String: AssetFile]
        private var dataURLs: [String: String?] = [:]
        /// How many files were read and encoded.
        private(set) var encoded = 0

        init(_ files: [String: AssetFile]) {
            self.files = files
        }

        subscript(path: String) -> AssetFile? { files[path] }

        /// The file at `path` (an output path) as a `data:` URL; nil when the site has no such
        /// file or it cannot be read.
        func dataURL(of path: String) -> String? {
            if let known = dataURLs[path] { return known }
            guard let file = files[path] else { return nil }
            let url = SiteBundle.dataURL(file)
            encoded += 1
            dataURLs[path] = .some(url)
            return url
        }
    }

    /// A file of the site as a `data:` URL.
    static func dataURL(_ file: AssetFile) -> String? {
        guard let bytes = read(file) else { return nil }
        let type = MediaType.of(file.outputPath).replacingOccurrences(of: " ", with: "")
        return "data:\(type);base64,\(Data(bytes).base64EncodedString())"
    }

    /// `url(…)` in a style sheet at `path`, pointing to a file of the site, as a `data:` URL.
    static func inlineURLs(in css: String, of path: String, files: InlinedFiles) -> String {
        var result = ""
        var rest = Substring(css)
        while let open = rest.range(of: "url(") {
            result += rest[..<open.upperBound]
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let raw = rest[..<close].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if !raw.hasPrefix("data:"), !raw.hasPrefix("#"), let resolved = SitePath.resolve(raw, against: path),
                let url = files.dataURL(of: resolved)
            {
                result += "\"\(url)\""
            } else {
                result += rest[..<close]
            }
            rest = rest[close...]
        }
        return result + rest
    }

    /// The bundle's icon, as the site's pages link it: the author's `assets/icon.png` or
    /// `icon.svg`, else the drawn one, as a `data:` URL.
    static func iconURL(of site: Site, files: InlinedFiles) -> String? {
        if let icon = site.authorIcon { return files.dataURL(of: icon.outputPath) }
        return AppIcon.png(size: 192).map { "data:image/png;base64,\(Data($0).base64EncodedString())" }
    }

    static func head(
        title: String, language: String, direction: TextDirection = .leftToRight, style: String, icon: String? = nil
    ) -> String {
        """
        <!doctype html>
        <html lang="\(escape(language))" dir="\(direction.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        \(icon.map { "<link rel=\"icon\" href=\"\(escape($0))\">" } ?? "")
        <style>
        \(closingTagsEscaped(style, element: "style"))
        /* The bundle: one page at a time, the one targeted (or holding the target); the index first. */
        .bundle-page { display: none; }
        .bundle-page:target, .bundle-page:has(:target) { display: block; }
        :where(.bundle-page main[hidden]) { display: block; }
        body:not(:has(.bundle-page:target, .bundle-page :target)) #index { display: block; }
        </style>
        </head>
        <body class="bundle">

        """
    }

    static let tail = """
        <script>
        // Progressive enhancement, as on the site: ← and → walk the line (mirrored right to left),
        // Escape is Done, on the page shown; Back and Done go back in history when they lead to
        // the previous entry (so the phone's Back never reopens a sheet); the tab's title follows
        // the page shown.
        (function () {
          "use strict";
          function shown() {
            var target = document.querySelector(".bundle-page:target") ||
              (document.querySelector(":target") && document.querySelector(":target").closest(".bundle-page"));
            return target || document.getElementById("index");
          }
          function page(hash) {
            return !hash || hash === "#" ? "#index" : hash;
          }
          // The hashes walked, for browsers without the Navigation API.
          var trail = [page(window.location.hash)];
          function previousHash() {
            var navigation = window.navigation;
            if (navigation && navigation.currentEntry && typeof navigation.entries === "function") {
              var entries = navigation.entries();
              var index = navigation.currentEntry.index;
              if (index > 0 && entries[index - 1]) return page(new URL(entries[index - 1].url).hash);
              if (entries.length > 1) return null;
            }
            return trail.length > 1 ? trail[trail.length - 2] : null;
          }
          // The page shown is the one not hidden (its main too), so assistive technology finds one
          // banner and one main, and the tab's title is its title.
          function showTitle() {
            var current = shown();
            var pages = document.querySelectorAll(".bundle-page");
            for (var i = 0; i < pages.length; i++) {
              var main = pages[i].querySelector("main");
              pages[i].hidden = pages[i] !== current;
              if (main) main.hidden = pages[i] !== current;
            }
            document.title = current.getAttribute("data-title") || document.title;
          }
          window.addEventListener("hashchange", function () {
            var hash = page(window.location.hash);
            if (trail.length > 1 && trail[trail.length - 2] === hash) trail.pop(); else trail.push(hash);
            showTitle();
          });
          // The fragment a file is opened with is targeted once the document has loaded.
          window.addEventListener("load", showTitle);
          showTitle();
          function go(link) {
            var target = page(link.getAttribute("href"));
            if (link.hasAttribute("data-back") && previousHash() === target) window.history.back();
            else window.location.hash = target;
          }
          document.addEventListener("click", function (event) {
            if (event.defaultPrevented || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
            var link = event.target && event.target.closest ? event.target.closest("a[data-back]") : null;
            if (!link || previousHash() !== page(link.getAttribute("href"))) return;
            event.preventDefault();
            window.history.back();
          });
          document.addEventListener("keydown", function (event) {
            if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
            var tag = event.target && event.target.tagName ? event.target.tagName.toLowerCase() : "";
            if (tag === "input" || tag === "textarea" || tag === "select") return;
            var page = shown();
            var kind = page.getAttribute("data-page");
            var link = null;
            var rightToLeft = document.documentElement.getAttribute("dir") === "rtl";
            if (kind === "station" && event.key === (rightToLeft ? "ArrowRight" : "ArrowLeft")) link = page.querySelector("a[rel=prev]");
            if (kind === "station" && event.key === (rightToLeft ? "ArrowLeft" : "ArrowRight")) link = page.querySelector("a[rel=next]");
            if (kind === "info" && event.key === "Escape") link = page.querySelector("a.done");
            if (link) {
              event.preventDefault();
              go(link);
            }
          });
        })();
        </script>
        </body>
        </html>

        """

    /// `text` made safe inside a raw-text element (`<style>`, `<script>`): the HTML parser ends
    /// the element at `</` and its name in any case (`</STYLE >`), so each such `</` becomes
    /// `<\/`, which CSS and JavaScript read as the same two characters in a string or comment.
    static func closingTagsEscaped(_ text: String, element: String) -> String {
        let name = Array(element.lowercased().utf8)
        var bytes = Array(text.utf8)
        var index = bytes.count - name.count - 2
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/"),
                name.indices.allSatisfy({ bytes[index + 2 + $0] | 0x20 == name[$0] })
            {
                bytes.insert(UInt8(ascii: "\\"), at: index + 1)
            }
            index -= 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// The bundle's file, written beside its final path and renamed over it only when complete;
/// what it may replace is `ReplaceRule`'s.
struct BundleWriter {
    let path: String
    let temporary: String
    private var descriptor: Int32
    private var written = 0
    /// The first write that failed (a full disk, a file size limit), reported at `commit`.
    private var failure: Int32?

    init(path: String, protecting sources: [String]) throws(BuildFailure) {
        self.path = path
        func refuse(_ message: String, hint: String) -> BuildFailure {
            BuildFailure([.error(message, path: path, hint: hint)])
        }
        switch FileSystem.kind(of: path, followingLinks: true) {
        case .missing, .file:
            break
        case .directory:
            throw refuse("the bundle's path is a folder", hint: "name the file to write, e.g. --output l-train.html")
        default:
            throw refuse(
                "the bundle's path is not a regular file (a device, a FIFO or a socket): ltrain only replaces regular files",
                hint: "name another file, e.g. --output l-train.html")
        }
        let name = lastPathComponent(path)
        let folder = name.utf8.count < path.utf8.count ? String(path.dropLast(name.count)) : "."
        guard !name.isEmpty, name != ".", name != "..", let realFolder = FileSystem.realPath(folder),
            FileSystem.kind(of: realFolder) == .directory
        else {
            throw refuse("cannot write the bundle: its folder does not exist", hint: "name a file in an existing folder")
        }
        if let (source, _) = ReplaceRule.clash(of: joinPath(realFolder, name), with: sources) {
            throw refuse(
                "the bundle would be written inside the source folder \(source), over your sources",
                hint: "write it outside \(source), e.g. --output l-train.html")
        }
        temporary = joinPath(folder, ".\(name).ltrain-\(UUID().uuidString)")
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw refuse(
                "cannot write the bundle: \(FileSystem.describe(errno: errno))", hint: "check that its folder is writable")
        }
    }

    mutating func append(_ text: String) {
        guard failure == nil else { return }
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += count
            }
        }
        written += text.utf8.count
    }

    /// Moves the finished file into place; returns its size.
    mutating func commit() throws(BuildFailure) -> Int {
        if let failure {
            throw BuildFailure([.error("cannot write the bundle: \(FileSystem.describe(errno: failure))", path: path)])
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let code = errno
            descriptor = -1
            throw BuildFailure([.error("cannot write the bundle: \(FileSystem.describe(errno: code))", path: path)])
        }
        descriptor = -1
        // Checked again: something may have taken the path's place while the bundle was made.
        let kind = FileSystem.kind(of: path, followingLinks: true)
        guard kind == .missing || kind == .file else {
            throw BuildFailure([.error("the bundle's path is no longer a regular file", path: path)])
        }
        guard rename(temporary, path) == 0 else {
            throw BuildFailure([.error("cannot write the bundle: \(FileSystem.describe(errno: errno))", path: path)])
        }
        return written
    }

    /// Removes the temporary file unless it was committed.
    mutating func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if FileSystem.kind(of: temporary) != .missing { unlink(temporary) }
    }
}
