import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG

/// A link written in Markdown that ended up in a page, so a broken one can be traced to its line.
public struct SourceLink: Sendable, Equatable {
    /// The destination as it stands in the page.
    public var destination: String
    /// The destination as the author wrote it in the Markdown.
    public var writtenDestination: String
    public var displayPath: String
    public var location: SourceLocation
    /// For a link to a `.md` file that is not in the content folder: the content path it names.
    public var missingContentFile: String?

    public init(
        destination: String, writtenDestination: String? = nil, displayPath: String, location: SourceLocation,
        missingContentFile: String? = nil
    ) {
        self.destination = destination
        self.writtenDestination = writtenDestination ?? destination
        self.displayPath = displayPath
        self.location = location
        self.missingContentFile = missingContentFile
    }

    /// The length in bytes of the path of `destination` (what comes before its `#`) when it names
    /// a `.md` file and does not start from the root; nil otherwise. On the bytes: it runs for
    /// every link of every page.
    private static func markdownPathLength(of destination: String) -> Int? {
        destination.withUTF8Bytes { bytes in
            let end = UnsafeRawBufferPointer(bytes).firstOffset(of: UInt8(ascii: "#"), from: 0) ?? bytes.count
            guard end >= 3, bytes[0] != UInt8(ascii: "/"), bytes[end - 3] == UInt8(ascii: "."),
                bytes[end - 2] == UInt8(ascii: "m"), bytes[end - 1] == UInt8(ascii: "d")
            else { return nil }
            return end
        }
    }

    /// Records a link written in a Markdown source (line numbers of the Markdown, shifted to the file's).
    init(_ link: borrowing MarkdownLink, in source: borrowing MarkdownSource) {
        var missing: String?
        // A `.md` destination that is still there after rewriting named no content file.
        if let length = Self.markdownPathLength(of: link.destination), !SitePath.hasScheme(link.destination) {
            let written = String(decoding: link.destination.utf8.prefix(length), as: UTF8.self)
            missing = SitePath.resolve(written, against: source.contentPath) ?? written
        }
        self.init(
            destination: link.destination, writtenDestination: link.writtenDestination, displayPath: source.displayPath,
            location: SourceLocation(line: link.line + source.lineOffset, column: link.column),
            missingContentFile: missing)
    }
}

/// The links written in the Markdown texts a page rendered, each with the text it was written in:
/// kept as the render found them, and made a `SourceLink` (its line in the file, the content file
/// it names) only for a link the check reports, which on most pages is none.
public struct SourceLinks: Sendable, ExpressibleByArrayLiteral {
    /// Links given as they are, not found by a render.
    private var given: [SourceLink] = []
    private var texts: [(links: [MarkdownLink], source: MarkdownSource)] = []

    public init() {}

    public init(_ links: [SourceLink]) {
        given = links
    }

    public init(arrayLiteral links: SourceLink...) {
        given = links
    }

    /// The links a render of `source` found.
    mutating func append(_ links: [MarkdownLink], writtenIn source: MarkdownSource) {
        if !links.isEmpty { texts.append((links, source)) }
    }

    /// Each link's destination as the author wrote it and as it stands in the page, in order.
    public func forEach(_ body: (_ written: String, _ destination: String) -> Void) {
        for link in given { body(link.writtenDestination, link.destination) }
        for text in texts {
            for link in text.links { body(link.writtenDestination, link.destination) }
        }
    }

    /// The first link whose destination in the page `matches`.
    public func first(whereDestination matches: (String) -> Bool) -> SourceLink? {
        if let link = given.first(where: { matches($0.destination) }) { return link }
        for text in texts {
            if let link = text.links.first(where: { matches($0.destination) }) { return SourceLink(link, in: text.source) }
        }
        return nil
    }
}

/// One finished page: where it goes, its HTML, and what produced it.
public struct RenderedPage: Sendable {
    public var page: Page
    public var outputPath: String
    /// The page's HTML as UTF-8, as it is checked and written.
    public var bytes: [UInt8]
    /// The template that rendered it (`templates/station.mustache`), for diagnostics.
    public var templatePath: String
    /// That template and every template it can include, for finding where a link was written.
    public var templateSources: [TemplateSource]
    public var sourceLinks: SourceLinks
    /// The notices of each Markdown text the page rendered.
    public var notices: [TextNotices] = []
    /// An info page's text cut at its headings for the search index (see `SearchIndex`), in the
    /// render's walk; nil for other pages and without search.
    package var searchSections: [MarkdownSection]?
    /// Parts of `bytes` whose links and ids are known without scanning them: the HTML of its
    /// Markdown, where the template wrote it as it is.
    public var knownParts: [KnownHTMLPart] = []
}

/// A part of a page's bytes (`range`) and what a scan of it from outside any tag finds.
public struct KnownHTMLPart: Sendable {
    public var range: Range<Int>
    public var scan: MarkdownHTMLScan

    public init(range: Range<Int>, scan: MarkdownHTMLScan) {
        self.range = range
        self.scan = scan
    }
}

/// The Render stage: (model, routes, templates) → HTML, one page at a time so pages can be
/// rendered in parallel and streamed to disk. Knows nothing of the file system.
public struct PageRenderer: Sendable {
    /// The page templates a template folder must have.
    public static let pageTemplates = Page.Kind.allCases.filter(\.isRequired).map(\.template)
    /// Every page template, the optional 404 page's too.
    public static let everyPageTemplate = Page.Kind.allCases.map(\.template)

    public private(set) var site: Site
    public let routes: Routes
    public private(set) var library: MustacheLibrary
    public private(set) var templatePaths: [String: String]
    /// For each template: itself, then every template it can include (partials, parents), with their text.
    private let includedSources: [String: [TemplateSource]]
    /// The ids each page template writes as they stand (`id="map-heading"`), with those of what it
    /// includes: no heading of the page's Markdown may take one.
    private let templateIDs: [String: Set<String>]
    /// What `site` and `files` hold for a page depends only on the page's folder (links are
    /// relative to it): built once per folder, shared by every page in it.
    private var folderValues: [String: (site: MustacheValue, files: MustacheValue)]
    /// Every file that is not a page, with the name templates know it by (`files.style_css`).
    private let fileKeys: [(key: String, path: String)]
    private let stationPositions: [String: Int]
    private var positionLabel: Labels.PositionLabel
    private let checklistPositions: [String: Int]
    /// For each page template: a hash of the templates it can include (all of them, when it
    /// names one by a value), for the keys of the pages it renders.
    private let templateKeys: [String: ContentHash]
    /// For each folder: a hash of the `site` and `files` values its pages share.
    private let folderKeys: [String: ContentHash]
    /// The Markdown options, which rendering any Markdown depends on.
    private let markdownOptionsKey: ContentHash
    /// Whether rendering a page's Markdown also finds its notices (`RenderedPage.notices`): a
    /// build reports them from there; the preview looks at the changed files in the model.
    package var findsNotices = true
    /// For each page template: what rendering a Markdown text on its pages depends on besides the
    /// text and its links (`markdownKey`).
    private let markdownKeys: [String: ContentHash]
    /// What an info text's sections for the search index depend on besides the text (the info
    /// template's `markdownKeys`); nil when the site has no search.
    private let searchContext: ContentHash?
    /// The parts of pages kept from one version to the next (see `PartMemory`,
    /// `keepingParts(after:keepsRenders:)`): the Markdown texts' renders and sections, and the
    /// index page's rows. Nil in a build, which renders each page once and hands its sections to
    /// its shard (`RenderedPage.searchSections`).
    package private(set) var parts: PartMemory?

    public init(
        site: Site, routes: Routes, library: MustacheLibrary, templatePaths: [String: String],
        templateSources: [String: String] = [:]
    ) {
        // Stations are read in place by index throughout: a `for station in` loop copies each
        // one, a retain and a release per field, which tens of thousands of stations feel.
        let stations = site.line.stations
        var markdown = ContentHasher()
        markdown.add(site.markdownOptions.allowsUnsafeHTML ? "unsafe" : "safe")
        markdown.add(site.markdownOptions.usesSmartPunctuation ? "smart" : "plain")
        self.markdownOptionsKey = markdown.hash
        self.site = site
        self.routes = routes
        self.library = library
        self.templatePaths = templatePaths
        let included = Self.includedTemplates(library: library)
        self.includedSources = included.mapValues { names in
            names.compactMap { name in
                templateSources[name].map { TemplateSource(path: templatePaths[name] ?? "\(name).mustache", text: $0) }
            }
        }
        self.templateIDs = self.includedSources.mapValues { sources in
            sources.reduce(into: Set<String>()) { ids, source in ids.formUnion(Self.literalIDs(in: source.text)) }
        }
        self.templateKeys = Self.templateKeys(library: library, included: included, sources: templateSources)
        // Not the search index's shards: no template links one (search-index.js names them), and
        // their number, which grows with the line, would change every page's key.
        let shards = Set(Routes.searchFiles(for: site).dropFirst())
        let fileKeys = routes.filePaths.subtracting(shards).sorted().map { (key: Self.fileKey($0), path: $0) }
        self.fileKeys = fileKeys
        let folderValues = Self.folderValues(
            for: routes.pageFolders, site: site, routes: routes, fileKeys: fileKeys)
        self.folderValues = folderValues
        self.folderKeys = folderValues.mapValues { shared in
            var hasher = ContentHasher()
            PageInputs.add(shared.site, to: &hasher)
            PageInputs.add(shared.files, to: &hasher)
            return hasher.hash
        }
        var stationPositions: [String: Int] = [:]
        stationPositions.reserveCapacity(stations.count)
        for index in stations.indices where stationPositions[stations[index].slug] == nil {
            stationPositions[stations[index].slug] = index
        }
        self.stationPositions = stationPositions
        self.positionLabel = Labels.PositionLabel(site.labels, count: stations.count)
        self.checklistPositions = Dictionary(
            site.checklists.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let templateIDs = self.templateIDs
        let markdownKeys = Self.everyPageTemplate.reduce(into: [String: ContentHash]()) { keys, template in
            keys[template] = Self.markdownKey(optionsKey: markdown.hash, reservedIDs: templateIDs[template] ?? [])
        }
        self.markdownKeys = markdownKeys
        self.searchContext = site.search ? markdownKeys[Page.Kind.info.template] : nil
    }

    /// The same renderer with templates and per-folder values of its own, for one rendering
    /// thread: the values every page shares are then counted in that thread's cache alone (see
    /// `MustacheLibrary.privateCopy`). Renders exactly what this renderer renders.
    package func privateCopy() -> PageRenderer {
        var copy = self
        copy.library = library.privateCopy()
        copy.folderValues = Self.folderValues(for: folderValues.keys, site: site, routes: routes, fileKeys: fileKeys)
        // Every page names its template's path: strings of this thread's own, too.
        copy.templatePaths = templatePaths.mapValues { String(decoding: Array($0.utf8), as: UTF8.self) }
        return copy
    }

    /// The same renderer over a site whose stations were edited in place (the same slugs, files
    /// and order; see `Line.keepsPlaces`), keeping everything computed from those. It keeps no
    /// parts of pages (`keepingParts(after:keepsRenders:)` is the one way to carry them).
    package func replacingStations(with site: Site) -> PageRenderer {
        var copy = self
        copy.site = site
        copy.positionLabel = Labels.PositionLabel(site.labels, count: site.line.stations.count)
        copy.parts = nil
        return copy
    }

    /// The same renderer, keeping parts of its pages for the versions that follow (`PartMemory`):
    /// `last`'s memory, whose parts each say what they were made from, so it outlives any change,
    /// or a new one. For `ltrain serve` (`keepsRenders: true`), and the single file, which makes
    /// its search index after its pages and keeps their sections alone (`keepsRenders: false`;
    /// without search it keeps nothing).
    package func keepingParts(after last: PageRenderer?, keepsRenders: Bool) -> PageRenderer {
        guard keepsRenders || searchContext != nil else { return self }
        var copy = self
        if let kept = last?.parts, kept.keepsRenders == keepsRenders {
            copy.parts = kept
        } else {
            copy.parts = PartMemory(keepsRenders: keepsRenders)
        }
        return copy
    }

    /// What rendering Markdown on a template's pages depends on besides the text and where its
    /// links lead: the Markdown options, and the ids the template holds (which no heading takes).
    static func markdownKey(optionsKey: ContentHash, reservedIDs: Set<String>) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(optionsKey)
        for id in reservedIDs.sorted() { hasher.add(id) }
        return hasher.hash
    }

    /// The search index's files (`search-index.js` and its shards, see `SearchIndex`), each with
    /// the hash of every value it is made from; empty without search.
    package func searchFiles() -> [(path: String, key: ContentHash)] {
        guard let context = searchContext else { return [] }
        let stations = site.line.stations
        // Each text's hash was made as it was loaded: the rest is three short texts a station.
        let hashes = concurrentMap(stations.count) { SearchIndex.hash(ofStationAt: $0, in: stations) }
        let shards = Routes.searchShards(stationCount: stations.count)
        var files: [(path: String, key: ContentHash)] = []
        var root = ContentHasher()
        root.add(ltrainVersion)
        root.add("search index")
        root.add(shards.count)
        for (number, range) in shards.enumerated() {
            var shard = ContentHasher()
            shard.add(ltrainVersion)
            shard.add("search shard")
            shard.add(context)
            shard.add(range.lowerBound)
            shard.add(range.count)
            for index in range { shard.add(hashes[index]) }
            files.append((Routes.searchShardPath(number), shard.hash))
        }
        root.add(site.checklists.count)
        for checklist in site.checklists {
            root.add(checklist.slug)
            root.add(checklist.title)
            root.add(checklist.rows.count)
            for row in checklist.rows { root.add(row.text) }
        }
        return [(Routes.searchIndexPath, root.hash)] + files
    }

    /// The bytes of `search-index.js`, the first of `searchFiles()`; nil without search.
    package func searchRoot(links: SearchIndex.Links = SearchIndex.Links()) -> [UInt8]? {
        guard searchContext != nil else { return nil }
        let shards = Routes.searchShards(stationCount: site.line.stations.count)
        return SearchIndex.root(site: site, shardPaths: shards.indices.map(Routes.searchShardPath), links: links)
    }

    /// The bytes of shard `number` (from 0) of the search index, the `number + 1`th of
    /// `searchFiles()`; nil without search or past the last. Each info text's sections come from
    /// `sections` (by position in the shard: the build's render of its page), the Markdown memory
    /// (`parts`), or are parsed now.
    package func searchShard(
        _ number: Int, links: SearchIndex.Links = SearchIndex.Links(), sections: [[MarkdownSection]?] = []
    ) -> [UInt8]? {
        guard searchContext != nil else { return nil }
        let shards = Routes.searchShards(stationCount: site.line.stations.count)
        guard shards.indices.contains(number) else { return nil }
        let path = Routes.searchShardPath(number)
        return SearchIndex.shard(
            path: path, of: site.line.stations, in: shards[number],
            infoSections: infoSections(in: shards[number], given: sections), links: links)
    }

    /// The whole index as one script, every shard's entries inside it: for the single file.
    package func searchIndexScript(links: SearchIndex.Links) -> [UInt8]? {
        guard searchContext != nil else { return nil }
        let shards = Routes.searchShards(stationCount: site.line.stations.count)
        let stations = site.line.stations
        let pages = concurrentMap(shards.count) {
            SearchIndex.entries(of: stations, in: shards[$0], infoSections: infoSections(in: shards[$0]), links: links)
        }
        return SearchIndex.root(site: site, shardPaths: [], links: links, pages: pages)
    }

    /// The whole index as one script for the index page to carry inline, its links relative to
    /// the site's root (where the index page is), when the line's texts are small
    /// (`SearchIndex.inlineTextLimit`): the theme's search then loads nothing. The files are
    /// written as well, for a theme whose index page does not carry it. Nil without search or
    /// past the limit.
    package func inlineSearchIndex() -> [UInt8]? {
        guard carriesSearchIndexInline else { return nil }
        return searchIndexScript(links: SearchIndex.Links())
    }

    /// Whether the index page carries the search index: search is on and its texts are small.
    private var carriesSearchIndexInline: Bool { searchContext != nil && SearchIndex.fitsInline(site) }

    /// The hash of everything `inlineSearchIndex()` is made from (the keys of the index's files);
    /// nil when the index page carries no index. When it changes, the index page is rendered again.
    package func inlineSearchKey() -> ContentHash? {
        guard carriesSearchIndexInline else { return nil }
        var hasher = ContentHasher()
        hasher.add("inline search index")
        for file in searchFiles() { hasher.add(file.key) }
        return hasher.hash
    }

    /// The sections of each info text of `range` (by position on the line) for the index: from
    /// `given` (by position in the range: the build's render of its page), the Markdown memory
    /// (`parts`), or parsed now.
    private func infoSections(
        in range: Range<Int>, given: [[MarkdownSection]?] = []
    ) -> (Int) -> [MarkdownSection] {
        let memory = parts
        let stations = site.line.stations
        let reserved = templateIDs[Page.Kind.info.template] ?? []
        let options = site.markdownOptions
        let key = searchContext ?? ContentHash(value: 0)
        return { index in
            let offset = index - range.lowerBound
            if given.indices.contains(offset), let sections = given[offset] { return sections }
            let source = stations[index].info.body
            guard let memory else { return Markdown.sections(of: source.text, options: options, reservedIDs: reserved) }
            return memory.sections(of: source, key: key, options: options, reservedIDs: reserved)
        }
    }

    /// Lets go of what the part memory holds of texts this version no longer has. It holds the
    /// texts `markdownHTML` renders, the `.body` of `inputs(for:at:)`: the index's and each info
    /// page's (a checklist's text is split, and not kept). Each has an entry once rendered, so
    /// with no more entries than those texts, none is stale.
    package func forgetRemovedTexts() {
        let site = self.site
        parts?.keepOnlyTexts(count: 1 + site.line.stations.count) {
            [site.index.body.contentPath] + site.line.stations.map(\.info.body.contentPath)
        }
    }

    /// A hash of what every page shares: the values of each folder's pages (`site`, `files`) and
    /// the Markdown options. Two renderers with the same key give every page the same shared inputs.
    package var sharedValuesKey: ContentHash {
        var hasher = ContentHasher()
        hasher.add(markdownOptionsKey)
        for (folder, key) in folderKeys.sorted(by: { $0.key < $1.key }) {
            hasher.add(folder)
            hasher.add(key)
        }
        return hasher.hash
    }

    /// The hash of a page template and every template it can include (nil: no such template).
    package func templateKey(_ template: String) -> ContentHash? {
        templateKeys[template]
    }

    /// Every page rendered with the page template `template`.
    package func pages(renderedWith template: String) -> [Page] {
        switch template {
        case "index": return [.index]
        case "station": return site.line.stations.map { .station(slug: $0.slug) }
        case "info": return site.line.stations.map { .info(slug: $0.slug) }
        case "checklist": return site.checklists.map { .checklist(slug: $0.slug) }
        case "404": return library.contains("404") ? [.notFound] : []
        default: return []
        }
    }

    /// Every page of the site, in the routes' one order (`Routes.everyPage`): the index, each
    /// station and its info page, the checklists, the 404 page when the templates have one.
    public var pages: [Page] { routes.everyPage }

    /// `sitemap.xml`: every page's absolute URL, when the site has a base URL.
    public func sitemap() -> String? {
        guard let baseURL = site.baseURL else { return nil }
        var xml = RenderedBytes()
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        xml.append("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for page in pages where page != .notFound {
            guard let url = routes.absoluteURL(of: page, baseURL: baseURL) else { continue }
            xml.append("  <url><loc>")
            xml.appendEscapingHTML(url)
            xml.append("</loc></url>\n")
        }
        xml.append("</urlset>\n")
        return String(decoding: xml.bytes, as: UTF8.self)
    }

    /// The bytes of a generated file that is not a page (see `Routes.generatedFiles`).
    public func generatedFile(_ path: String) -> [UInt8]? {
        switch path {
        case "sitemap.xml": return sitemap().map { Array($0.utf8) }
        case "robots.txt": return robots().map { Array($0.utf8) }
        case Routes.webManifestPath: return Array(OfflineSite.webManifest(for: site, files: routes.filePaths).utf8)
        default:
            guard let icon = AppIcon.files.first(where: { $0.path == path }) else { return nil }
            return AppIcon.png(size: icon.size)
        }
    }

    /// `robots.txt`: allow everything, and say where the sitemap is.
    public func robots() -> String? {
        guard let baseURL = site.baseURL else { return nil }
        return "User-agent: *\nAllow: /\n\nSitemap: \(baseURL)sitemap.xml\n"
    }

    /// The cache key of `page`: when it matches the previous build's, the previous page can be
    /// kept without rendering it. It is the hash of the page's inputs (see `PageInputs`); `links`
    /// as for `key(of:links:)`.
    public func inputKey(for page: Page, links: [String]? = nil) -> ContentHash {
        key(of: inputs(for: page, at: routes.path(of: page)), links: links)
    }

    /// The destinations of a rendered page's Markdown links that may lead to content files: what
    /// its key depends on besides its text (see `key(of:links:)`).
    package static func contentLinks(of page: RenderedPage) -> [String] {
        var links: [String] = []
        page.sourceLinks.forEach { written, _ in
            if Routes.mayLeadToContent(written) { links.append(written) }
        }
        return links
    }

    /// The hash of everything a page is made from: its template and every template that can be
    /// included from it, the values its folder shares, its own values, and its Markdown with what
    /// rendering Markdown depends on: the options, and where its links lead. `links` are the
    /// destinations its Markdown was written with when it was last rendered (`contentLinks(of:)`,
    /// the same for the same text, which is in the key too); the key then holds where each of them
    /// leads now. Without them (nil: not known), it holds where every content file's links lead
    /// (`Routes.contentLinksKey`), which any new or removed page changes.
    package func key(of inputs: PageInputs, links: [String]?) -> ContentHash {
        var (hasher, contentPaths) = hasher(of: inputs)
        guard !inputs.markdown.isEmpty else { return hasher.hash }
        guard let links else {
            hasher.add(routes.contentLinksKey)
            return hasher.hash
        }
        if contentPaths.count == 1 {
            // Where each leads now: the destination a render of the text would give it, which is
            // the render's own (`SourceLink.destination`, see `key(of:rendered:)`).
            let rewrite = routes.contentLinkRewriter(writtenIn: contentPaths[0], on: inputs.page)
            var leads = ContentHasher()
            for link in links {
                leads.add(link)
                leads.add(Markdown.destination(ofWritten: link, options: site.markdownOptions, rewriteLink: rewrite) ?? link)
            }
            hasher.add(links.count)
            hasher.add(leads.hash)
            return hasher.hash
        }
        hasher.add(links.count)
        let rewriters = contentPaths.map { routes.contentLinkRewriter(writtenIn: $0, on: inputs.page) }
        for link in links {
            hasher.add(link)
            for rewrite in rewriters { hasher.add(rewrite(link) ?? "\u{0}") }
        }
        return hasher.hash
    }

    /// The key of a page just rendered from `inputs`: `key(of: inputs, links: contentLinks(of: page))`,
    /// with where each link leads taken from the render rather than rewriting every link again.
    package func key(of inputs: PageInputs, rendered page: RenderedPage) -> ContentHash {
        var (hasher, contentPaths) = hasher(of: inputs)
        guard !inputs.markdown.isEmpty else { return hasher.hash }
        // Several texts on one page: a link's text is not recorded, so each is rewritten for every one.
        guard contentPaths.count == 1 else { return key(of: inputs, links: Self.contentLinks(of: page)) }
        var count = 0
        var leads = ContentHasher()
        page.sourceLinks.forEach { written, destination in
            guard Routes.mayLeadToContent(written) else { return }
            leads.add(written)
            leads.add(destination)
            count += 1
        }
        hasher.add(count)
        hasher.add(leads.hash)
        return hasher.hash
    }

    /// The hash of a page's inputs but for where its links lead, and the content paths of its texts.
    private func hasher(of inputs: PageInputs) -> (ContentHasher, contentPaths: [String]) {
        var hasher = ContentHasher()
        hasher.add(ltrainVersion)
        hasher.add(inputs.template)
        hasher.add(templateKeys[inputs.template] ?? ContentHash(value: 0))
        hasher.add(folderKeys[SitePath.folder(of: inputs.outputPath)] ?? ContentHash(value: 0))
        PageInputs.add(.object(inputs.values), to: &hasher, knownLists: inputs.knownLists)
        guard !inputs.markdown.isEmpty else { return (hasher, []) }
        hasher.add(markdownOptionsKey)
        var contentPaths: [String] = []
        for markdown in inputs.markdown {
            switch markdown {
            case .body(let field, let source):
                hasher.add("body")
                hasher.add(field)
                hasher.add(source.contentPath)
                hasher.add(source.textHash)
                contentPaths.append(source.contentPath)
            case .checklist(let source):
                hasher.add("checklist")
                hasher.add(source.contentPath)
                hasher.add(source.textHash)
                contentPaths.append(source.contentPath)
            }
        }
        return (hasher, contentPaths)
    }

    /// For each page template, a hash of its source and of every template it can include.
    private static func templateKeys(
        library: MustacheLibrary, included: [String: [String]], sources: [String: String]
    ) -> [String: ContentHash] {
        var allTemplates = ContentHasher()
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            allTemplates.add(name)
            allTemplates.add(source)
        }
        return included.mapValues { names in
            // A template named by a value (`{{>*name}}`) may be any of them.
            if names.contains(where: library.hasDynamicReferences(in:)) { return allTemplates.hash }
            var hasher = ContentHasher()
            for name in names {
                hasher.add(name)
                hasher.add(sources[name] ?? "\u{0}")
            }
            return hasher.hash
        }
    }

    /// For each page template, itself and every template it can include, nearest first.
    private static func includedTemplates(library: MustacheLibrary) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for name in everyPageTemplate where library.contains(name) {
            result[name] = library.includedTemplates(from: name)
        }
        return result
    }

    /// The name by which templates refer to a file: every character that is not a letter or digit
    /// becomes `_`, so `style.css` is `{{files.style_css}}`.
    public static func fileKey(_ outputPath: String) -> String {
        String(outputPath.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "_" })
    }

    public func render(_ page: Page) throws(Diagnostic) -> RenderedPage {
        try render(inputs(for: page, at: routes.path(of: page)))
    }

    /// Renders a page from its inputs: its Markdown rendered into its values, with the values its
    /// folder shares, through its template.
    package func render(_ inputs: PageInputs) throws(Diagnostic) -> RenderedPage {
        var sourceLinks = SourceLinks()
        var notices: [TextNotices] = []
        var searchSections: [MarkdownSection]?
        var knownHTML: [(bytes: [UInt8], scan: MarkdownHTMLScan)] = []
        let context = self.context(
            from: inputs, sourceLinks: &sourceLinks, notices: &notices, searchSections: &searchSections,
            knownHTML: &knownHTML)
        let templateName = inputs.template
        let templatePath = templatePaths[templateName] ?? "\(templateName).mustache"
        do {
            var itemMemory: IndexRenderMemory?
            if inputs.page == .index, let parts, parts.keepsRenders {
                itemMemory = IndexRenderMemory(parts: parts, templateKey: templateKeys[templateName], lists: inputs.knownLists)
            }
            // The index of a large site is megabytes: written into room for its last size, not
            // into a buffer that doubles a dozen times from a page's size.
            let rendered = try library.renderTemplate(
                templateName, .object(context), itemMemory: itemMemory, capacity: itemMemory?.parts.lastIndexSize ?? 0)
            itemMemory?.parts.lastIndexSize = rendered.bytes.count
            return RenderedPage(
                page: inputs.page, outputPath: inputs.outputPath, bytes: rendered.bytes, templatePath: templatePath,
                templateSources: includedSources[templateName] ?? [], sourceLinks: sourceLinks, notices: notices,
                searchSections: searchSections,
                knownParts: Self.knownParts(of: rendered, markdownHTML: knownHTML))
        } catch {
            throw Diagnostic.error(
                error.message, path: templatePaths[error.templateName] ?? error.templateName, at: error.location,
                hint: error.hint)
        }
    }

    /// The places where the template wrote one of the page's Markdown HTML as it is, each with
    /// what a scan of that HTML finds: told by its bytes, so a place is never taken for another.
    private static func knownParts(
        of rendered: RenderedTemplate, markdownHTML: [(bytes: [UInt8], scan: MarkdownHTMLScan)]
    ) -> [KnownHTMLPart] {
        guard !markdownHTML.isEmpty else { return [] }
        var parts: [KnownHTMLPart] = []
        rendered.bytes.withUnsafeBytes { page in
            for range in rendered.rawUTF8Ranges {
                let written = UnsafeRawBufferPointer(rebasing: page[range])
                guard let html = markdownHTML.first(where: { $0.bytes.withUnsafeBytes { $0.hasSameBytes(as: written) } }) else {
                    continue
                }
                parts.append(KnownHTMLPart(range: range, scan: html.scan))
            }
        }
        return parts
    }

    // MARK: Contexts

    /// The values of `id` attributes written in a template's text with no tag in them.
    /// Read from the text's bytes, from one space to the next with memchr: the renderer's set-up
    /// runs on one core while the other waits (docs/benchmarks.md has the figure).
    static func literalIDs(in text: String) -> Set<String> {
        var ids: Set<String> = []
        Array(text.utf8).withUnsafeBytes { bytes in
            var index = 0
            while let space = bytes.firstOffset(of: UInt8(ascii: " "), from: index) {
                index = space + 1
                // ` id=` and a quote.
                guard space + 4 < bytes.count, bytes[space + 1] == UInt8(ascii: "i"), bytes[space + 2] == UInt8(ascii: "d"),
                    bytes[space + 3] == UInt8(ascii: "=")
                else { continue }
                let quote = bytes[space + 4]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
                let start = space + 5
                guard let end = bytes.firstOffset(of: quote, from: start) else { break }
                let value = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                // A value with a tag in it is no literal.
                let hasTag = value.indices.dropLast().contains { value[$0] == UInt8(ascii: "{") && value[$0 + 1] == UInt8(ascii: "{") }
                if !hasTag { ids.insert(String(decoding: value, as: UTF8.self)) }
                index = end
            }
        }
        return ids
    }

    private func markdownHTML(
        _ source: MarkdownSource, on page: Page, template: String, sourceLinks: inout SourceLinks,
        notices: inout [TextNotices], searchSections: inout [MarkdownSection]?,
        knownHTML: inout [(bytes: [UInt8], scan: MarkdownHTMLScan)]
    ) -> [UInt8] {
        // An info page's text is cut into sections for the search index in the same walk.
        var collectsSections = false
        if case .info = page, searchContext != nil { collectsSections = true }
        let rewriteLink = routes.contentLinkRewriter(writtenIn: source.contentPath, on: page)
        let options = site.markdownOptions
        let reservedIDs = templateIDs[template] ?? []
        let findsNotices = self.findsNotices
        func renderNow() -> RenderedMarkdown {
            Markdown.render(
                source.text, options: options, findsNotices: findsNotices, reservedIDs: reservedIDs,
                collectsSections: collectsSections, rewriteLink: rewriteLink)
        }
        let rendered: RenderedMarkdown
        if let memory = parts {
            let key = markdownKeys[template] ?? ContentHash(value: 0)
            if let kept = memory.render(
                of: source, key: key, options: options, findsNotices: findsNotices, collectsSections: collectsSections,
                rewriteLink: rewriteLink)
            {
                rendered = kept
            } else {
                rendered = renderNow()
                memory.keep(rendered, of: source, key: key, foundNotices: findsNotices, collectedSections: collectsSections)
            }
        } else {
            rendered = renderNow()
        }
        if collectsSections { searchSections = rendered.sections }
        sourceLinks.append(rendered.links, writtenIn: source)
        notices.append(TextNotices(displayPath: source.displayPath, notices: rendered.notices))
        if let scan = rendered.htmlScan { knownHTML.append((rendered.htmlBytes, scan)) }
        return rendered.htmlBytes
    }

    /// `folderValues(_:site:routes:fileKeys:)` of each folder, by folder.
    private static func folderValues(
        for folders: some Sequence<String>, site: Site, routes: Routes, fileKeys: [(key: String, path: String)]
    ) -> [String: (site: MustacheValue, files: MustacheValue)] {
        var values: [String: (site: MustacheValue, files: MustacheValue)] = [:]
        for folder in folders { values[folder] = folderValues(folder, site: site, routes: routes, fileKeys: fileKeys) }
        return values
    }

    private static func folderValues(
        _ folder: String, site: Site, routes: Routes, fileKeys: [(key: String, path: String)]
    ) -> (site: MustacheValue, files: MustacheValue) {
        var files = MustacheObject(minimumCapacity: fileKeys.count)
        for (key, file) in fileKeys { files[key] = .string(SitePath.relativePath(from: folder, to: file)) }
        let siteValue: MustacheValue = [
            "title": .string(site.title), "language": .string(site.language),
            "direction": .string(site.direction.rawValue),
            "home": .string(SitePath.relativePath(from: folder, to: routes.path(of: .index))),
            "base_url": .optional(site.baseURL),
            "offline": .bool(site.offline),
            // In the fixed order of `Labels.all`: the folder's key hashes fields in order.
            "labels": .object(MustacheObject(fields: Labels.all.map { ($0.key, .string(site.labels[$0.key])) })),
        ]
        return (siteValue, .object(files))
    }

    /// The values every page has of its own: its `<title>` and canonical URL.
    private func ownValues(_ page: Page, title: String?) -> MustacheObject {
        let documentTitle = title.map { "\($0) — \(site.title)" } ?? site.title
        var values = MustacheObject(minimumCapacity: 16)
        values["document_title"] = .string(documentTitle)
        values["canonical_url"] =
            page == .notFound ? .null : .optional(routes.absoluteURL(of: page, baseURL: site.baseURL))
        return values
    }

    /// The page's Mustache context, made from its inputs alone: its own values, the values its
    /// folder shares, and its Markdown rendered to HTML.
    func context(from inputs: PageInputs, sourceLinks: inout SourceLinks, notices: inout [TextNotices]) -> MustacheObject {
        var searchSections: [MarkdownSection]?
        var knownHTML: [(bytes: [UInt8], scan: MarkdownHTMLScan)] = []
        return context(
            from: inputs, sourceLinks: &sourceLinks, notices: &notices, searchSections: &searchSections,
            knownHTML: &knownHTML)
    }

    /// `knownHTML`: each Markdown text's HTML, with what a scan of it finds, when that is known.
    private func context(
        from inputs: PageInputs, sourceLinks: inout SourceLinks, notices: inout [TextNotices],
        searchSections: inout [MarkdownSection]?, knownHTML: inout [(bytes: [UInt8], scan: MarkdownHTMLScan)]
    ) -> MustacheObject {
        var context = inputs.values
        let folder = SitePath.folder(of: inputs.outputPath)
        let shared = folderValues[folder] ?? Self.folderValues(folder, site: site, routes: routes, fileKeys: fileKeys)
        context["site"] = shared.site
        context["files"] = shared.files
        for markdown in inputs.markdown {
            switch markdown {
            case .body(let field, let source):
                context[field] = .utf8(
                    markdownHTML(
                        source, on: inputs.page, template: inputs.template,
                        sourceLinks: &sourceLinks, notices: &notices, searchSections: &searchSections,
                        knownHTML: &knownHTML))
            case .checklist(let source):
                // The rows' ids too: a heading "Groceries Milk" above the row "Milk" of the checklist
                // `groceries` would take the row's `groceries-milk`.
                var reserved = templateIDs[inputs.template] ?? []
                if case .array(let rows)? = context["rows"] {
                    for case .object(let row) in rows { if case .string(let id)? = row["id"] { reserved.insert(id) } }
                }
                let split = Markdown.splitFirstList(
                    source.text, options: site.markdownOptions, findsNotices: findsNotices, reservedIDs: reserved,
                    rewriteLink: routes.contentLinkRewriter(writtenIn: source.contentPath, on: inputs.page))
                sourceLinks.append(split?.links ?? [], writtenIn: source)
                notices.append(TextNotices(displayPath: source.displayPath, notices: split?.notices ?? []))
                context["intro"] = .string(split?.introductionHTML ?? "")
                // Each row is labelled with its list item's HTML (its plain text when there is none).
                let labels = split?.items.map(\.html) ?? []
                if case .array(let rows)? = context["rows"] {
                    context["rows"] = .array(
                        rows.enumerated().map { position, row in
                            guard case .object(var fields) = row else { return row }
                            fields["label"] = position < labels.count ? .string(labels[position]) : fields["text"]
                            return .object(fields)
                        })
                }
            }
        }
        return context
    }

    /// Everything `page` is made from (see `PageInputs`), for the page at `outputPath`.
    package func inputs(for page: Page, at outputPath: String) -> PageInputs {
        let routes = self.routes
        /// The link from this page to `target`.
        func link(to target: Page) -> String {
            SitePath.relativePath(from: outputPath, to: routes.path(of: target))
        }
        /// The link from this page to the page at `path`, one of the routes' paths by position.
        func link(toPath path: String) -> String {
            SitePath.relativePath(from: outputPath, to: path)
        }
        switch page {
        case .index:
            var values = ownValues(page, title: nil)
            let count = site.line.stations.count
            values["title"] = .string(site.title)
            let stations = site.line.stations
            let make = { (position: Int) in
                let href = link(toPath: routes.stationPagePaths[position])
                return IndexRow(
                    station: stations[position],
                    listItem: [
                        "title": .string(stations[position].title), "summary": .optional(stations[position].summary),
                        "href": .string(href), "position": .int(position + 1), "is_first": .bool(position == 0),
                        "is_last": .bool(position == count - 1),
                    ],
                    stop: StripMap.stop(at: position, of: count, title: stations[position].title, href: href))
            }
            let rows = parts?.rows(of: stations, layout: routes.layoutKey, make: make) ?? IndexRows(stations.indices.map(make))
            values["stations"] = .array(rows.listItems)
            values["station_count"] = .int(count)
            values["checklists"] = .array(
                site.checklists.map { checklist in
                    [
                        "title": .string(checklist.title),
                        "href": .string(link(to: .checklist(slug: checklist.slug))),
                    ]
                })
            values["has_checklists"] = .bool(!site.checklists.isEmpty)
            values["map"] = StripMap(stops: rows.stops, longestTitle: rows.longestTitle, direction: site.direction).value
            if let index = inlineSearchIndex() { values["search_index"] = .string(String(decoding: index, as: UTF8.self)) }
            var inputs = PageInputs(
                page: page, outputPath: outputPath, template: "index", values: values,
                markdown: [.body(field: "body", site.index.body)])
            inputs.knownLists = [
                PageInputs.KnownList(items: rows.listItems, hash: rows.listItemsHash, itemHashes: rows.listItemHashes),
                PageInputs.KnownList(items: rows.stops, hash: rows.stopsHash, itemHashes: rows.stopHashes),
            ]
            return inputs

        case .station(let slug):
            guard let position = stationPositions[slug] else {
                return PageInputs(page: page, outputPath: outputPath, template: "station", values: ownValues(page, title: nil))
            }
            let stations = site.line.stations
            let title = stations[position].title
            var values = ownValues(page, title: title)
            values["title"] = .string(title)
            values["summary"] = .optional(stations[position].summary)
            values["position"] = .int(position + 1)
            values["station_count"] = .int(stations.count)
            values["position_label"] = .string(positionLabel.text(at: position + 1))
            values["info_href"] = .string(link(toPath: routes.infoPagePaths[position]))
            if position > 0 {
                values["previous"] = [
                    "title": .string(stations[position - 1].title),
                    "href": .string(link(toPath: routes.stationPagePaths[position - 1])),
                ]
            }
            if position + 1 < stations.count {
                values["next"] = [
                    "title": .string(stations[position + 1].title), "label": .string(site.labels["next"]),
                    "href": .string(link(toPath: routes.stationPagePaths[position + 1])),
                ]
            }
            return PageInputs(page: page, outputPath: outputPath, template: "station", values: values)

        case .info(let slug):
            guard let position = stationPositions[slug] else {
                return PageInputs(page: page, outputPath: outputPath, template: "info", values: ownValues(page, title: nil))
            }
            let stations = site.line.stations
            var values = ownValues(page, title: stations[position].title)
            values["title"] = .string(stations[position].title)
            values["done_href"] = .string(link(toPath: routes.stationPagePaths[position]))
            return PageInputs(
                page: page, outputPath: outputPath, template: "info", values: values,
                markdown: [.body(field: "body", stations[position].info.body)])

        case .notFound:
            var values = ownValues(page, title: site.labels["not_found_title"])
            values["title"] = .string(site.labels["not_found_title"])
            values["stations"] = .array(
                site.line.stations.prefix(1).map { station in
                    ["title": .string(station.title), "href": .string(link(to: .station(slug: station.slug)))]
                })
            return PageInputs(page: page, outputPath: outputPath, template: "404", values: values)

        case .checklist(let slug):
            guard let position = checklistPositions[slug] else {
                return PageInputs(
                    page: page, outputPath: outputPath, template: "checklist", values: ownValues(page, title: nil))
            }
            let checklist = site.checklists[position]
            var values = ownValues(page, title: checklist.title)
            values["title"] = .string(checklist.title)
            values["back"] = ["title": .string(site.title), "href": .string(link(to: .index))]
            values["group"] = .string("\(checklist.slug)-choice")
            values["slug"] = .string(checklist.slug)
            values["chooses_many"] = .bool(checklist.choice == .many)
            values["input_type"] = .string(checklist.choice == .many ? "checkbox" : "radio")
            values["rows"] = .array(
                checklist.rows.enumerated().map { position, row in
                    [
                        "id": .string("\(checklist.slug)-\(row.value)"), "value": .string(row.value),
                        "text": .string(row.text), "position": .int(position + 1),
                    ]
                })
            return PageInputs(
                page: page, outputPath: outputPath, template: "checklist", values: values,
                markdown: [.checklist(checklist.body)])
        }
    }
}

/// Everything one page is made from, before its Markdown is rendered: the template it renders
/// with, the page's own values (its context without the values its folder shares), and the
/// Markdown to render into them, still as source. The page's context is built from this value
/// alone (`PageRenderer.render`), and its cache key is this value's hash (`PageRenderer.key`):
/// a value added to a page's context is in its key, with no second list to keep in step.
package struct PageInputs {
    package enum MarkdownInput {
        /// Rendered into the field named `field`.
        case body(field: String, MarkdownSource)
        /// A checklist's text: its first list's items label the `rows`, the rest is the `intro`.
        case checklist(MarkdownSource)
    }

    let page: Page
    let outputPath: String
    let template: String
    var values: MustacheObject
    package var markdown: [MarkdownInput] = []

    /// Lists whose hash is already known (the index's rows, `PartMemory`): found by being the
    /// very same array (the same storage, which this value keeps alive; `known(_:)`), so hashing
    /// the page skips their items.
    var knownLists: [KnownList] = []

    struct KnownList: Sendable {
        let items: [MustacheValue]
        let hash: ContentHash
        /// Each item's hash, by position.
        let itemHashes: [ContentHash]
    }

    /// Adds a Mustache value to a hash: each case with a tag of its own, objects field by field
    /// in order, names and values; a list by the hashes of its items (`listHash`), so the hash
    /// of a list whose items' hashes are kept (`knownLists`) costs a mix per item, not their text.
    static func add(_ value: MustacheValue, to hasher: inout ContentHasher, knownLists: [KnownList] = []) {
        switch value {
        case .null:
            hasher.add(0)
        case .bool(let flag):
            hasher.add(flag ? 1 : 2)
        case .int(let number):
            hasher.add(3)
            hasher.add(number)
        case .double(let number):
            hasher.add(4)
            hasher.add(Int(truncatingIfNeeded: Int64(bitPattern: number.bitPattern)))
        case .string(let text):
            hasher.add(5)
            hasher.add(text)
        case .utf8(let bytes):
            // The same text hashes the same, whichever way it is held.
            hasher.add(5)
            hasher.add(ContentHash(bytes))
        case .array(let items):
            if let known = knownLists.known(items) {
                hasher.add(known.hash)
            } else {
                hasher.add(listHash(items.map { hash(of: $0, knownLists: knownLists) }))
            }
        case .object(let object):
            hasher.add(7)
            hasher.add(object.count)
            object.forEachField { name, field in
                hasher.add(name)
                add(field, to: &hasher, knownLists: knownLists)
            }
        }
    }

    /// The hash of one value (see `add`).
    static func hash(of value: MustacheValue, knownLists: [KnownList] = []) -> ContentHash {
        var hasher = ContentHasher()
        add(value, to: &hasher, knownLists: knownLists)
        return hasher.hash
    }

    /// The hash of a list from its items' hashes.
    static func listHash(_ itemHashes: [ContentHash]) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(6)
        hasher.add(itemHashes.count)
        for item in itemHashes { hasher.add(item) }
        return hasher.hash
    }
}

extension [PageInputs.KnownList] {
    /// The known list that is `items` itself (the same storage), if any.
    func known(_ items: [MustacheValue]) -> PageInputs.KnownList? {
        first { $0.items.sharesStorage(with: items) }
    }
}
