import LTrainSupport
import LTrainModel
import LTrainLoad

/// A page of the built site.
public enum Page: Hashable, Sendable {
    case index
    case station(slug: String)
    case info(slug: String)
    case checklist(slug: String)
    /// The page hosts serve for a missing URL, at any depth.
    case notFound

    /// Each kind of page, named as the template that renders it is.
    public enum Kind: String, CaseIterable, Sendable {
        case index, station, info, checklist
        case notFound = "404"

        /// The template's name (`station` for `station.mustache`).
        public var template: String { rawValue }
        /// Every site has each page template but the 404 page's, which a theme may leave out.
        public var isRequired: Bool { self != .notFound }
    }

    public var kind: Kind {
        switch self {
        case .index: .index
        case .station: .station
        case .info: .info
        case .checklist: .checklist
        case .notFound: .notFound
        }
    }
}

/// The Route stage: the one place that decides every output path and the relative link between
/// any two. Every link is page-relative and names a file, so the site works from `file://` and
/// under any sub-path of a host.
public struct Routes: Sendable {
    public private(set) var pagePaths: [Page: String] = [:]
    /// Every page of the site in its one order (the order pages are rendered, listed and written
    /// in): the index, each station followed by its info page, the checklists, the 404 page.
    public private(set) var everyPage: [Page] = []
    /// The output path of each of `everyPage`, by position: no look-up.
    public private(set) var everyPagePath: [String] = []
    /// Each station's page and info page, in line order: `path(of:)` of `.station` and `.info` for
    /// the station at that position, read by position where the renderer knows it, with no look-up.
    public private(set) var stationPagePaths: [String] = []
    public private(set) var infoPagePaths: [String] = []
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
    /// The folders the pages are written in, as `SitePath.folder(of:)` gives them (`stations/`; `""`
    /// for the site's root).
    public private(set) var pageFolders: Set<String> = []

    public static func outputPath(of page: Page) -> String {
        switch page {
        case .index: return "index.html"
        case .station(let slug): return "stations/\(slug).html"
        case .info(let slug): return "info/\(slug).html"
        case .checklist(let slug): return "checklists/\(slug).html"
        case .notFound: return "404.html"
        }
    }

    /// The icons drawn from the theme (`AppIcon`) when the content brings none, with their sizes.
    public static let drawnIcons: [(path: String, size: Int)] = [
        ("icons/icon-192.png", 192), ("icons/icon-512.png", 512), ("icons/apple-touch-icon.png", 180),
    ]

    /// The offline list (see `OfflineSite`): written by a build last, from every other file's hash.
    public static let offlineListPath = "offline-files.js"
    public static let webManifestPath = "manifest.webmanifest"
    /// What the search field searches (see `SearchIndex`), unless index.md says `search: false`:
    /// this file, which names the shards, and the shards, each a run of stations.
    public static let searchIndexPath = "search-index.js"

    /// The stations of each shard of the search index, in line order: runs of 40 (small enough
    /// that the first shard, and with it the first results, arrives soon), longer on a line of more
    /// than 10,000 stations so that there are never more than 250 shards.
    public static func searchShards(stationCount: Int) -> [Range<Int>] {
        let size = max(40, (stationCount + 249) / 250)
        return stride(from: 0, to: stationCount, by: size).map { $0..<min($0 + size, stationCount) }
    }

    /// The search index's files: `search-index.js`, then each shard's; none with `search: false`.
    public static func searchFiles(for site: Site) -> [String] {
        guard site.search else { return [] }
        return [searchIndexPath] + searchShards(stationCount: site.line.stations.count).indices.map(searchShardPath)
    }

    /// The path of the search index's shard `number` (from 0).
    public static func searchShardPath(_ number: Int) -> String { "search/\(number + 1).js" }

    /// Generated files that are not pages: the sitemap and robots.txt, when the site has a base
    /// URL; the default icons, which every page links (unless the content has `assets/icon.png`
    /// or `assets/icon.svg`); for an offline site, the web app manifest (unless the theme
    /// brings its own); and the search index, unless search is off.
    public static func generatedFiles(for site: Site, themeFiles: [AssetFile]) -> [String] {
        var paths = site.baseURL == nil ? [] : ["sitemap.xml", "robots.txt"]
        if site.offline && !themeFiles.contains(where: { $0.outputPath == webManifestPath }) { paths.append(webManifestPath) }
        if site.authorIcon == nil { paths += drawnIcons.map(\.path) }
        paths += searchFiles(for: site)
        return paths
    }

    /// Lays out the site; two things claiming one output path is an error naming both.
    public init(site: Site, staticFiles: [AssetFile], hasNotFoundPage: Bool = false, log: inout DiagnosticLog) {
        // Pages cannot collide with each other (slugs are unique per kind, kinds have their own
        // folders); only files can collide with pages or with each other. Paths are compared
        // ignoring case, as case-insensitive file systems would.
        // Every page's owner, by its position in `everyPage`, for files that could take a page's
        // place: kept as a list and made a table by folded path only if some file is HTML (a page
        // is an `.html` file), which few sites have, since serve routes the whole site on a new station.
        var pageOwnerList: [String] = []
        var linkTargets = ContentHasher()
        func addTarget(_ contentPath: String, _ path: String, isInfo: Bool = false) {
            if isInfo { infoTargets[contentPath] = path } else { contentTargets[contentPath] = path }
            linkTargets.add(isInfo ? "info" : "content")
            linkTargets.add(contentPath)
            linkTargets.add(path)
        }
        // A page's folder follows from its kind: worked out for the first page of each.
        var kindsSeen: [Page.Kind] = []
        @discardableResult
        func addPage(_ page: Page, owner: String, contentPath: String?) -> String {
            let path = Self.outputPath(of: page)
            pagePaths[page] = path
            everyPage.append(page)
            everyPagePath.append(path)
            if !kindsSeen.contains(page.kind) {
                kindsSeen.append(page.kind)
                pageFolders.insert(SitePath.folder(of: path))
            }
            pageOwnerList.append(owner)
            if let contentPath { addTarget(contentPath, path) }
            return path
        }
        addPage(.index, owner: site.index.body.displayPath, contentPath: site.index.body.contentPath)
        let pageCount = site.line.stations.count * 2 + site.checklists.count + 2
        pagePaths.reserveCapacity(pageCount)
        pageOwnerList.reserveCapacity(pageCount)
        everyPage.reserveCapacity(pageCount)
        everyPagePath.reserveCapacity(pageCount)
        contentTargets.reserveCapacity(site.line.stations.count + site.checklists.count + site.assets.count + 1)
        infoTargets.reserveCapacity(site.line.stations.count)
        stationPagePaths.reserveCapacity(site.line.stations.count)
        infoPagePaths.reserveCapacity(site.line.stations.count)
        // By index, not `for station in`: that would copy every station, field by field.
        let stations = site.line.stations
        for index in stations.indices {
            let slug = stations[index].slug
            let contentPath = stations[index].info.body.contentPath
            stationPagePaths.append(
                addPage(.station(slug: slug), owner: stations[index].sourcePath, contentPath: contentPath))
            // Named after the station's file: a file colliding with it is told which station.
            let infoPath = addPage(.info(slug: slug), owner: stations[index].sourcePath, contentPath: nil)
            infoPagePaths.append(infoPath)
            addTarget(contentPath, infoPath, isInfo: true)
        }
        for checklist in site.checklists {
            addPage(.checklist(slug: checklist.slug), owner: checklist.body.displayPath, contentPath: checklist.body.contentPath)
        }
        if hasNotFoundPage { addPage(.notFound, owner: "the 404.mustache template", contentPath: nil) }
        var fileOwners: [String: String] = [:]
        var pageOwners: [String: String]?
        func pageOwner(_ folded: String) -> String? {
            guard folded.hasSuffix(".html") else { return nil }
            if pageOwners == nil {
                pageOwners = Dictionary(
                    zip(everyPagePath.map(Self.folded), pageOwnerList), uniquingKeysWith: { first, _ in first })
            }
            return pageOwners?[folded]
        }
        func claim(_ path: String, by owner: String) -> Bool {
            let key = Self.folded(path)
            if let previous = fileOwners[key] ?? pageOwner(key) {
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
        // A file where another path needs a folder of the same name (a static folder
        // `stations/a.html/`, a static file `stations`): the file system cannot hold both. Files
        // need the folders of their paths; pages only the folders of their kinds, so the pages are
        // looked through (and the lazy table of them made) only when a file stands in such a place.
        var folderClashes: [String: Diagnostic] = [:]
        // One error per folder, at the file in the way, naming the least of the paths that need it.
        func clash(at folder: String, file fileOwner: String, neededBy owner: String) {
            let clash = Diagnostic.error(
                "is written as the file \(folder), but \(owner) needs a folder of that name", path: fileOwner,
                hint: "rename one of them")
            if let other = folderClashes[folder], other.description < clash.description { return }
            folderClashes[folder] = clash
        }
        for (key, owner) in fileOwners {
            var folder = Substring(key)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if let fileOwner = fileOwners[String(folder)] ?? pageOwner(String(folder)) {
                    clash(at: String(folder), file: fileOwner, neededBy: owner)
                    break
                }
            }
        }
        for kind in [Page.station(slug: "x"), .info(slug: "x"), .checklist(slug: "x")] {
            let folder = SitePath.folder(of: Self.outputPath(of: kind))
            guard let fileOwner = fileOwners[String(folder.dropLast())] else { continue }
            for (path, owner) in zip(everyPagePath, pageOwnerList) where SitePath.folder(of: Self.folded(path)) == folder {
                clash(at: String(folder.dropLast()), file: fileOwner, neededBy: owner)
            }
        }
        for folder in folderClashes.keys.sorted() { if let clash = folderClashes[folder] { log.report(clash) } }
        contentLinksKey = linkTargets.hash
        outputPaths.reserveCapacity(pagePaths.count + filePaths.count)
        for path in pagePaths.values { outputPaths.insert(path) }
        outputPaths.formUnion(filePaths)
        // `contentLinksKey` has every page made from content (index, stations, info pages,
        // checklists), in the site's order, with its path; the 404 page and the files are the rest.
        var layout = ContentHasher()
        layout.add(contentLinksKey)
        layout.add(hasNotFoundPage ? 1 : 0)
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
        return baseURL + SiteFileName.url(of: path)
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
        SitePath.relativePath(from: path(of: source), to: path(of: target))
    }

    /// Rewrites a link written in Markdown at `contentPath` to another content file. A station's
    /// file leads to its station page, or with a `#fragment` to that heading on its info page
    /// (`../stations/03-union-square.md#history`, `../assets/map.png`) into a link from `page`
    /// to that file's output. Returns nil for links that are not to content files (external, or unknown).
    public func rewriteContentLink(_ destination: String, writtenIn contentPath: String, on page: Page) -> String? {
        contentLinkRewriter(writtenIn: contentPath, on: page)(destination)
    }

    /// `rewriteContentLink(_:writtenIn:on:)` for every link of one text on one page: the text's
    /// folder and the page's path are found once, not once a link.
    public func contentLinkRewriter(writtenIn contentPath: String, on page: Page) -> @Sendable (String) -> String? {
        let folder = SitePath.folder(of: contentPath)
        let pagePath = path(of: page)
        let contentTargets = self.contentTargets
        let infoTargets = self.infoTargets
        return { destination in
            guard Self.mayLeadToContent(destination) else { return nil }
            let (target, fragment) = Self.splitFragment(destination)
            guard let resolved = SitePath.resolve(target, inFolder: folder), var output = contentTargets[resolved] else {
                return nil
            }
            // A station's headings are on its info page, so a link to one of them goes there.
            if fragment.utf8.count > 1, let info = infoTargets[resolved] { output = info }
            let link = SitePath.relativePath(from: pagePath, to: output)
            return fragment.isEmpty ? link : link + fragment
        }
    }

    /// A link's destination split before its first `#`: the path, and the fragment with its `#`
    /// ("" when there is none). A link to a content file names the file `resolve`s the path to.
    package static func splitFragment(_ destination: String) -> (target: String, fragment: String) {
        // '#' found on the bytes: searching Characters would walk grapheme clusters.
        guard let offset = destination.firstUTF8Offset(of: UInt8(ascii: "#")) else { return (destination, "") }
        let hash = destination.utf8.index(destination.utf8.startIndex, offsetBy: offset)
        return (String(destination[..<hash]), String(destination[hash...]))
    }

    /// Whether `rewriteContentLink` may rewrite this destination: a relative path (not empty, not
    /// a bare `#fragment`, not from the root, no scheme). Others lead where they say, whatever the site.
    public static func mayLeadToContent(_ destination: String) -> Bool {
        // The first byte, not hasPrefix: this runs for every link of every page.
        guard let first = destination.utf8.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "/") else { return false }
        return !SitePath.hasScheme(destination)
    }

}
