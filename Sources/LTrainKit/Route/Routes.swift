import LTrainSupport
import LTrainMustache
import LTrainMarkdown

/// A page of the built site.
public enum Page: Hashable, Sendable {
    case index
    case station(slug: String)
    case info(slug: String)
    case checklist(slug: String)
    /// The page hosts serve for a missing URL, at any depth.
    case notFound
}

/// The Route stage: the one place that decides every output path and the relative link between
/// any two. Every link is page-relative and names a file, so the site works from `file://` and
/// under any sub-path of a host.
public struct Routes: Sendable {
    public private(set) var pagePaths: [Page: String] = [:]
    /// Output path of every file that is not a page (template static files, content assets and
    /// the content's static files).
    public private(set) var filePaths: Set<String> = []
    /// Content path (`stations/03-union-square.md`, `assets/map.png`) → output path.
    private var contentTargets: [String: String] = [:]
    /// Station content path → its info page, where the station's Markdown (and its headings) is shown.
    private var infoTargets: [String: String] = [:]
    /// A hash of every entry of `contentTargets` and `infoTargets`, added as they are: all that
    /// `rewriteContentLink` resolves with besides the page it is asked for. A page whose Markdown
    /// links are rewritten depends on it.
    public private(set) var contentLinksKey = ContentHash(value: 0)
    /// A hash of every page's and file's output path and of `contentLinksKey`: two routes with
    /// the same layout key lay out the same pages and files and resolve every link alike.
    public private(set) var layoutKey = ContentHash(value: 0)
    /// Every page's and file's output path: what a link inside the site may name.
    public private(set) var outputPaths: Set<String> = []

    public static func outputPath(of page: Page) -> String {
        switch page {
        case .index: return "index.html"
        case .station(let slug): return "stations/\(slug).html"
        case .info(let slug): return "info/\(slug).html"
        case .checklist(let slug): return "checklists/\(slug).html"
        case .notFound: return "404.html"
        }
    }

    /// The offline list (see `OfflineSite`): written by a build last, from every other file's hash.
    public static let offlineListPath = "offline-files.js"
    public static let webManifestPath = "manifest.webmanifest"

    /// Generated files that are not pages: the sitemap and robots.txt, when the site has a base
    /// URL; for an offline site, the web app manifest (unless the theme brings its own) and the
    /// default icons (unless the content has `assets/icon.png` or `assets/icon.svg`).
    public static func generatedFiles(for site: Site, themeFiles: [AssetFile]) -> [String] {
        var paths = site.baseURL == nil ? [] : ["sitemap.xml", "robots.txt"]
        if site.offline {
            if !themeFiles.contains(where: { $0.outputPath == webManifestPath }) { paths.append(webManifestPath) }
            if OfflineSite.authorIcon(in: site) == nil { paths += AppIcon.files.map(\.path) }
        }
        return paths
    }

    /// Lays out the site; two things claiming one output path is an error naming both.
    public init(site: Site, staticFiles: [AssetFile], hasNotFoundPage: Bool = false, log: inout DiagnosticLog) {
        // Pages cannot collide with each other (slugs are unique per kind, kinds have their own
        // folders); only files can collide with pages or with each other. Paths are compared
        // ignoring case, as case-insensitive file systems would.
        var pageOwners: [String: String] = [:]
        var linkTargets = ContentHasher()
        func addTarget(_ contentPath: String, _ path: String, isInfo: Bool = false) {
            if isInfo { infoTargets[contentPath] = path } else { contentTargets[contentPath] = path }
            linkTargets.add(isInfo ? "info" : "content")
            linkTargets.add(contentPath)
            linkTargets.add(path)
        }
        @discardableResult
        func addPage(_ page: Page, owner: String, contentPath: String?) -> String {
            let path = Self.outputPath(of: page)
            pagePaths[page] = path
            pageOwners[Self.folded(path)] = owner
            if let contentPath { addTarget(contentPath, path) }
            return path
        }
        addPage(.index, owner: site.index.body.displayPath, contentPath: site.index.body.contentPath)
        pagePaths.reserveCapacity(site.line.stations.count * 2 + site.checklists.count + 2)
        pageOwners.reserveCapacity(site.line.stations.count * 2 + site.checklists.count + 2)
        contentTargets.reserveCapacity(site.line.stations.count + site.checklists.count + site.assets.count + 1)
        infoTargets.reserveCapacity(site.line.stations.count)
        // By index, not `for station in`: that would copy every station, field by field.
        let stations = site.line.stations
        for index in stations.indices {
            let slug = stations[index].slug
            let contentPath = stations[index].info.body.contentPath
            addPage(.station(slug: slug), owner: stations[index].sourcePath, contentPath: contentPath)
            // Named after the station's file: a file colliding with it is told which station.
            let infoPath = addPage(.info(slug: slug), owner: stations[index].sourcePath, contentPath: nil)
            addTarget(contentPath, infoPath, isInfo: true)
        }
        for checklist in site.checklists {
            addPage(.checklist(slug: checklist.slug), owner: checklist.body.displayPath, contentPath: checklist.body.contentPath)
        }
        if hasNotFoundPage { addPage(.notFound, owner: "the 404.mustache template", contentPath: nil) }
        var fileOwners: [String: String] = [:]
        func claim(_ path: String, by owner: String) -> Bool {
            let key = Self.folded(path)
            if let previous = fileOwners[key] ?? pageOwners[key] {
                log.report(
                    .error(
                        "\(owner) and \(previous) would both be written to \(path)", path: owner,
                        hint: "rename one of them"))
                return false
            }
            fileOwners[key] = owner
            return true
        }
        for path in Self.generatedFiles(for: site, themeFiles: staticFiles) where claim(path, by: "the generated \(path)") {
            filePaths.insert(path)
        }
        // Written last, from the other files' hashes; linked from no page.
        if site.offline { _ = claim(Self.offlineListPath, by: "the generated \(Self.offlineListPath)") }
        for file in staticFiles where claim(file.outputPath, by: file.displayPath) {
            filePaths.insert(file.outputPath)
        }
        for file in site.rootFiles where claim(file.outputPath, by: file.displayPath) {
            filePaths.insert(file.outputPath)
        }
        for asset in site.assets where claim(asset.outputPath, by: asset.displayPath) {
            filePaths.insert(asset.outputPath)
            addTarget(asset.outputPath, asset.outputPath)
        }
        contentLinksKey = linkTargets.hash
        outputPaths.reserveCapacity(pagePaths.count + filePaths.count)
        for path in pagePaths.values { outputPaths.insert(path) }
        outputPaths.formUnion(filePaths)
        var layout = ContentHasher()
        layout.add(contentLinksKey)
        layout.add(hasNotFoundPage ? 1 : 0)
        // Pages come in the site's order: their paths hash alike whenever the pages are alike.
        layout.add(pagePaths.count)
        for index in stations.indices { layout.add(stations[index].slug) }
        for checklist in site.checklists { layout.add(checklist.slug) }
        for path in filePaths.sorted() { layout.add(path) }
        layoutKey = layout.hash
    }

    /// A path with its case folded, without allocating when it has no capitals.
    private static func folded(_ path: String) -> String {
        var text = path
        let isLowercaseASCII = text.withUTF8 { bytes in
            !bytes.contains { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 }
        }
        return isLowercaseASCII ? path : path.lowercased()
    }


    /// The page's absolute URL on the published site, when the site has a base URL.
    public func absoluteURL(of page: Page, baseURL: String?) -> String? {
        guard let baseURL else { return nil }
        let path = self.path(of: page)
        return baseURL + Self.relativePath(from: "index.html", to: path)
    }

    /// The page written at `outputPath`, if it is one of the site's pages.
    public func page(at outputPath: String) -> Page? {
        let parts = outputPath.split(separator: "/")
        var candidate: Page?
        if outputPath == "index.html" {
            candidate = .index
        } else if outputPath == "404.html" {
            candidate = .notFound
        } else if parts.count == 2, parts[1].hasSuffix(".html") {
            let slug = String(parts[1].dropLast(5))
            switch parts[0] {
            case "stations": candidate = .station(slug: slug)
            case "info": candidate = .info(slug: slug)
            case "checklists": candidate = .checklist(slug: slug)
            default: break
            }
        }
        guard let candidate, pagePaths[candidate] == outputPath else { return nil }
        return candidate
    }

    public func path(of page: Page) -> String {
        pagePaths[page] ?? Self.outputPath(of: page)
    }

    public func link(from source: Page, to target: Page) -> String {
        Self.relativePath(from: path(of: source), to: path(of: target))
    }

    /// Rewrites a link written in Markdown at `contentPath` to another content file. A station's
    /// file leads to its station page, or with a `#fragment` to that heading on its info page
    /// (`../stations/03-union-square.md#history`, `../assets/map.png`) into a link from `page`
    /// to that file's output. Returns nil for links that are not to content files (external, or unknown).
    public func rewriteContentLink(_ destination: String, writtenIn contentPath: String, on page: Page) -> String? {
        guard Self.mayLeadToContent(destination) else { return nil }
        var target = destination
        var fragment = ""
        // '#' found on the bytes: searching Characters would walk grapheme clusters.
        var text = destination
        if let hashOffset = text.withUTF8({ $0.firstIndex(of: UInt8(ascii: "#")) }) {
            let hash = destination.utf8.index(destination.utf8.startIndex, offsetBy: hashOffset)
            fragment = String(destination[hash...])
            target = String(destination[..<hash])
        }
        guard let resolved = Self.resolve(target, against: contentPath), var output = contentTargets[resolved] else {
            return nil
        }
        // A station's headings are on its info page, so a link to one of them goes there.
        if fragment.utf8.count > 1, let info = infoTargets[resolved] { output = info }
        return Self.relativePath(from: path(of: page), to: output) + fragment
    }

    /// Whether `rewriteContentLink` may rewrite this destination: a relative path (not empty, not
    /// a bare `#fragment`, not from the root, no scheme). Others lead where they say, whatever the site.
    public static func mayLeadToContent(_ destination: String) -> Bool {
        !destination.isEmpty && !destination.hasPrefix("#") && !destination.hasPrefix("/") && !hasScheme(destination)
    }

    /// Whether a link starts with a URL scheme such as `https:` or `mailto:`.
    public static func hasScheme(_ link: String) -> Bool {
        var link = link
        return link.withUTF8 { bytes in
            var first = true
            for byte in bytes {
                switch byte {
                case UInt8(ascii: ":"):
                    return !first
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    first = false
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    if first { return false }
                default:
                    return false
                }
            }
            return false
        }
    }

    /// The folder part of a path, with its '/' (`stations/` of `stations/a.html`), or "" at the root.
    /// Links from any two files in one folder are the same.
    public static func folder(of path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[...slash]), as: UTF8.self)
        }
    }

    /// Resolves `relative` against the folder of the file `base` (both relative to one root).
    /// Returns nil when it would climb out of the root.
    public static func resolve(_ relative: String, against base: String) -> String? {
        resolve(relative, inFolder: folder(of: base))
    }

    /// Resolves `relative` against a folder as `folder(of:)` gives it (`stations/`, or "" for the
    /// root), for callers that resolve many links from one page.
    static func resolve(_ relative: String, inFolder baseFolder: String) -> String? {
        var relativeText = relative
        var folderText = baseFolder
        let simple = relativeText.withUTF8 { relativeBytes in
            folderText.withUTF8 { folderBytes in resolveSimple(relativeBytes, inFolder: folderBytes) }
        }
        if let simple { return simple }
        var parts = baseFolder.split(separator: "/").map(String.init)
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }

    /// `../../name/…` with no other `.` or `..` segments and no empty ones: climb, then append.
    /// Byte-level: the link check resolves every link of every page. Nil for anything else
    /// (including climbing out of the root), which the general way then judges. Measured
    /// (callgrind, 1,000 generated stations, one job, 2026-12-03): resolving costs 11 M
    /// instructions with it and 236 M (23% of the build) by the general way alone.
    private static func resolveSimple(
        _ relative: UnsafeBufferPointer<UInt8>, inFolder folder: UnsafeBufferPointer<UInt8>
    ) -> String? {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var rest = 0
        // The folder's length in bytes, ending with its '/' (0 for the root).
        var folderLength = folder.count
        while relative.count - rest >= 3 && relative[rest] == dot && relative[rest + 1] == dot
            && relative[rest + 2] == slash
        {
            rest += 3
            guard folderLength > 0 else { return nil }
            // Drop the folder's last segment: back to the '/' before it, or to the root.
            var end = folderLength - 1
            while end > 0 && folder[end - 1] != slash { end -= 1 }
            folderLength = end
        }
        // Anything unusual left (an empty, `.` or `..` segment) goes the general way.
        var segmentLength = 0
        var dots = 0
        for byte in UnsafeBufferPointer(rebasing: relative[rest...]) {
            if byte == slash {
                if segmentLength == 0 || segmentLength == dots { return nil }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == dot { dots += 1 }
            }
        }
        if segmentLength == 0 || (segmentLength == dots && dots <= 2) { return nil }
        let tail = UnsafeBufferPointer(rebasing: relative[rest...])
        return String(unsafeUninitializedCapacity: folderLength + tail.count) { output in
            _ = output.initialize(from: UnsafeBufferPointer(rebasing: folder[..<folderLength]))
            _ = UnsafeMutableBufferPointer(rebasing: output[folderLength...]).initialize(from: tail)
            return folderLength + tail.count
        }
    }

    /// The relative URL from the file at `source` to the file at `target`, both relative to the
    /// site root: `stations/a.html` → `style.css` is `../style.css`.
    public static func relativePath(from source: String, to target: String) -> String {
        // On the paths' contiguous bytes, written once into the result: this runs for every link
        // of every page.
        let slash = UInt8(ascii: "/")
        var sourceText = source
        var targetText = target
        return sourceText.withUTF8 { sourceBytes in
            targetText.withUTF8 { targetBytes in
                // The common folder prefix: up to and including the last '/' both share at the same place.
                var common = 0
                var index = 0
                while index < sourceBytes.count && index < targetBytes.count && sourceBytes[index] == targetBytes[index] {
                    index += 1
                    if sourceBytes[index - 1] == slash { common = index }
                }
                var ups = 0
                for byte in UnsafeBufferPointer(rebasing: sourceBytes[common...]) where byte == slash { ups += 1 }
                let rest = UnsafeBufferPointer(rebasing: targetBytes[common...])
                var escapes = 0
                for byte in rest where !isUnreserved(byte) && byte != slash { escapes += 1 }
                return String(unsafeUninitializedCapacity: ups * 3 + rest.count + escapes * 2) { output in
                    var written = 0
                    for _ in 0..<ups {
                        output[written] = UInt8(ascii: ".")
                        output[written + 1] = UInt8(ascii: ".")
                        output[written + 2] = slash
                        written += 3
                    }
                    for byte in rest { written += writePercentEncoded(byte, keeping: slash, into: output, at: written) }
                    return written
                }
            }
        }
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Percent-encodes a path component for use in an `href`: everything but unreserved characters.
    public static func percentEncoded(_ component: String) -> String {
        if component.utf8.allSatisfy(isUnreserved) { return component }
        return String(unsafeUninitializedCapacity: component.utf8.count * 3) { output in
            var written = 0
            for byte in component.utf8 { written += writePercentEncoded(byte, into: output, at: written) }
            return written
        }
    }

    /// Writes `byte` at `offset` of `output`: itself when it is unreserved (or `kept`, such as the
    /// '/' between path components), `%XX` with uppercase hex digits otherwise. Returns how many
    /// bytes it wrote (1 or 3); `output` must have room for 3. The one encoder for links, paths and
    /// the manifest's ids.
    @inline(__always)
    static func writePercentEncoded(
        _ byte: UInt8, keeping kept: UInt8? = nil, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        if isUnreserved(byte) || byte == kept {
            output[offset] = byte
            return 1
        }
        let hex: StaticString = "0123456789ABCDEF"
        output[offset] = UInt8(ascii: "%")
        output[offset + 1] = hex.utf8Start[Int(byte >> 4)]
        output[offset + 2] = hex.utf8Start[Int(byte & 0x0F)]
        return 3
    }

    /// Reverses `percentEncoded` (and any other `%XX` escapes); nil for malformed escapes.
    public static func percentDecoded(_ text: String) -> String? {
        var probe = text
        guard probe.withUTF8({ $0.contains(UInt8(ascii: "%")) }) else { return text }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
