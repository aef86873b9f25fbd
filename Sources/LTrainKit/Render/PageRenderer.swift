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

    /// Records a link written in a Markdown source (line numbers of the Markdown, shifted to the file's).
    init(_ link: MarkdownLink, in source: MarkdownSource) {
        var missing: String?
        let destination = link.destination.utf8
        let path = destination[..<(destination.firstIndex(of: UInt8(ascii: "#")) ?? destination.endIndex)]
        // A `.md` destination that is still there after rewriting named no content file.
        if path.count >= 3 && path.suffix(3).elementsEqual(".md".utf8) && path.first != UInt8(ascii: "/")
            && !Routes.hasScheme(link.destination)
        {
            let written = String(Substring(path))
            missing = Routes.resolve(written, against: source.contentPath) ?? written
        }
        self.init(
            destination: link.destination, writtenDestination: link.writtenDestination, displayPath: source.displayPath,
            location: SourceLocation(line: link.line + source.lineOffset, column: link.column),
            missingContentFile: missing)
    }
}

/// One finished page: where it goes, its HTML, and what produced it.
public struct RenderedPage: Sendable {
    public var page: Page
    public var outputPath: String
    /// The page's HTML as UTF-8, as it is checked and written.
    public var bytes: [UInt8]
    public var html: String { String(decoding: bytes, as: UTF8.self) }
    /// The template that rendered it (`templates/station.mustache`), for diagnostics.
    public var templatePath: String
    /// That template and every template it can include, for finding where a link was written.
    public var templateSources: [TemplateSource]
    public var sourceLinks: [SourceLink]
}

/// The Render stage: (model, routes, templates) → HTML, one page at a time so pages can be
/// rendered in parallel and streamed to disk. Knows nothing of the file system.
public struct PageRenderer: Sendable {
    /// The page templates a template folder must have.
    public static let pageTemplates = ["index", "station", "info", "checklist"]

    public private(set) var site: Site
    public let routes: Routes
    public private(set) var library: MustacheLibrary
    public private(set) var templatePaths: [String: String]
    /// For each template: itself, then every template it can include (partials, parents), with their text.
    private let includedSources: [String: [TemplateSource]]
    /// What `site` and `files` hold for a page depends only on the page's folder (links are
    /// relative to it): built once per folder, shared by every page in it.
    private var folderValues: [String: (site: MustacheValue, files: MustacheValue)]
    /// Every file that is not a page, with the name templates know it by (`files.style_css`).
    private let fileKeys: [(key: String, path: String)]
    private let stationPositions: [String: Int]
    private let checklistPositions: [String: Int]
    /// A hash of what every page depends on: templates, site settings, and the layout of the site
    /// (every page's and file's path, which content file is which page).
    private let siteKey: ContentHash
    /// A hash of every title and summary, for the index, which lists them all.
    private let listingKey: ContentHash

    public init(
        site: Site, routes: Routes, library: MustacheLibrary, templatePaths: [String: String],
        templateSources: [String: String] = [:]
    ) {
        var hasher = ContentHasher()
        hasher.add(ltrainVersion)
        for (name, source) in templateSources.sorted(by: { $0.key < $1.key }) {
            hasher.add(name)
            hasher.add(source)
        }
        hasher.add(site.title)
        hasher.add(site.nextLabel)
        hasher.add(site.language)
        hasher.add(site.markdownOptions.allowsUnsafeHTML ? "unsafe" : "safe")
        hasher.add(site.baseURL ?? "\u{0}")
        // Stations are read in place by index throughout: a `for station in` loop copies each
        // one, a retain and a release per field, which tens of thousands of stations feel.
        let stations = site.line.stations
        for index in stations.indices {
            hasher.add(stations[index].slug)
            hasher.add(stations[index].info.body.contentPath)
        }
        for checklist in site.checklists {
            hasher.add(checklist.slug)
            hasher.add(checklist.body.contentPath)
        }
        for path in routes.filePaths.sorted() { hasher.add(path) }
        self.siteKey = hasher.hash
        var listing = ContentHasher()
        for index in stations.indices {
            listing.add(stations[index].title)
            listing.add(stations[index].summary ?? "\u{0}")
        }
        for checklist in site.checklists { listing.add(checklist.title) }
        self.listingKey = listing.hash
        self.site = site
        self.routes = routes
        self.library = library
        self.templatePaths = templatePaths
        self.includedSources = Self.includedSources(library: library, paths: templatePaths, sources: templateSources)
        let fileKeys = routes.filePaths.sorted().map { (key: Self.fileKey($0), path: $0) }
        self.fileKeys = fileKeys
        self.folderValues = Self.folderValues(
            for: Set(routes.pagePaths.values.map(Routes.folder(of:))), site: site, routes: routes, fileKeys: fileKeys)
        var stationPositions: [String: Int] = [:]
        stationPositions.reserveCapacity(stations.count)
        for index in stations.indices where stationPositions[stations[index].slug] == nil {
            stationPositions[stations[index].slug] = index
        }
        self.stationPositions = stationPositions
        self.checklistPositions = Dictionary(
            site.checklists.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same renderer with templates and per-folder values of its own, for one rendering
    /// thread: the values every page shares are then counted in that thread's cache alone (see
    /// `MustacheLibrary.privateCopy`). Renders exactly what this renderer renders.
    func privateCopy() -> PageRenderer {
        var copy = self
        copy.library = library.privateCopy()
        copy.folderValues = Self.folderValues(for: folderValues.keys, site: site, routes: routes, fileKeys: fileKeys)
        // Every page names its template's path: strings of this thread's own, too.
        copy.templatePaths = templatePaths.mapValues { String(decoding: Array($0.utf8), as: UTF8.self) }
        return copy
    }

    /// The same renderer over a site whose stations changed only in their Markdown bodies (same
    /// slugs, titles, summaries and order), keeping everything computed from those.
    func replacingStationBodies(with site: Site) -> PageRenderer {
        var copy = self
        copy.site = site
        return copy
    }

    /// Every page of the site, in a fixed order: index, each station and its info page, checklists.
    public var pages: [Page] {
        var pages: [Page] = [.index]
        let stations = site.line.stations
        pages.reserveCapacity(stations.count * 2 + site.checklists.count + 2)
        for index in stations.indices {
            pages.append(.station(slug: stations[index].slug))
            pages.append(.info(slug: stations[index].slug))
        }
        for checklist in site.checklists { pages.append(.checklist(slug: checklist.slug)) }
        if library.contains("404") { pages.append(.notFound) }
        return pages
    }

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

    /// `robots.txt`: allow everything, and say where the sitemap is.
    public func robots() -> String? {
        guard let baseURL = site.baseURL else { return nil }
        return "User-agent: *\nAllow: /\n\nSitemap: \(baseURL)sitemap.xml\n"
    }

    /// A hash of everything `page` is rendered from: when it matches the previous build's, the
    /// previous page can be kept without rendering it.
    public func inputKey(for page: Page) -> ContentHash {
        var hasher = ContentHasher()
        hasher.add(siteKey)
        switch page {
        case .index:
            hasher.add("index")
            hasher.add(listingKey)
            hasher.add(site.index.body.text)
        case .station(let slug):
            // A station page shows its own title and summary and its neighbours' titles.
            hasher.add("station")
            hasher.add(slug)
            if let position = stationPositions[slug] {
                // Fields read in place: copying a whole Station per page costs a retain per field.
                let stations = site.line.stations
                hasher.add(stations[position].title)
                hasher.add(stations[position].summary ?? "\u{0}")
                hasher.add(position > 0 ? stations[position - 1].title : "\u{0}")
                hasher.add(position + 1 < stations.count ? stations[position + 1].title : "\u{0}")
            }
        case .info(let slug):
            hasher.add("info")
            hasher.add(slug)
            if let position = stationPositions[slug] {
                hasher.add(site.line.stations[position].title)
                hasher.add(site.line.stations[position].info.body.text)
            }
        case .checklist(let slug):
            hasher.add("checklist")
            hasher.add(slug)
            if let position = checklistPositions[slug] {
                hasher.add(site.checklists[position].title)
                hasher.add(site.checklists[position].body.text)
            }
        case .notFound:
            hasher.add("404")
            hasher.add(site.line.stations.first?.title ?? "\u{0}")
        }
        return hasher.hash
    }

    /// For each page template, its source and those of every template it includes, nearest first.
    private static func includedSources(
        library: MustacheLibrary, paths: [String: String], sources: [String: String]
    ) -> [String: [TemplateSource]] {
        var result: [String: [TemplateSource]] = [:]
        for name in pageTemplates + ["404"] where library.contains(name) {
            var seen: Set<String> = [name]
            var queue = [name]
            var index = 0
            while index < queue.count {
                for reference in library.references(in: queue[index]) where seen.insert(reference.name).inserted {
                    queue.append(reference.name)
                }
                index += 1
            }
            result[name] = queue.compactMap { included in
                sources[included].map { TemplateSource(path: paths[included] ?? "\(included).mustache", text: $0) }
            }
        }
        return result
    }

    /// The name by which templates refer to a file: every character that is not a letter or digit
    /// becomes `_`, so `style.css` is `{{files.style_css}}`.
    public static func fileKey(_ outputPath: String) -> String {
        String(outputPath.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "_" })
    }

    public func render(_ page: Page) throws(Diagnostic) -> RenderedPage {
        try render(page, at: routes.path(of: page))
    }

    /// `render` for a page whose output path (`routes.path(of: page)`) the caller has at hand.
    func render(_ page: Page, at outputPath: String) throws(Diagnostic) -> RenderedPage {
        var sourceLinks: [SourceLink] = []
        let (templateName, context) = self.context(for: page, at: outputPath, sourceLinks: &sourceLinks)
        let templatePath = templatePaths[templateName] ?? "\(templateName).mustache"
        do {
            let bytes = try library.renderBytes(templateName, context)
            return RenderedPage(
                page: page, outputPath: outputPath, bytes: bytes, templatePath: templatePath,
                templateSources: includedSources[templateName] ?? [], sourceLinks: sourceLinks)
        } catch {
            throw Diagnostic.error(
                error.message, path: templatePaths[error.templateName] ?? error.templateName, at: error.location,
                hint: error.hint)
        }
    }

    // MARK: Contexts

    private func markdownHTML(
        _ source: MarkdownSource, on page: Page, sourceLinks: inout [SourceLink]
    ) -> String {
        let routes = self.routes
        let rendered = Markdown.render(source.text, options: site.markdownOptions) { destination in
            routes.rewriteContentLink(destination, writtenIn: source.contentPath, on: page)
        }
        sourceLinks += rendered.links.map { SourceLink($0, in: source) }
        return rendered.html
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
        for (key, file) in fileKeys { files[key] = .string(Routes.relativePath(from: folder, to: file)) }
        let siteValue: MustacheValue = [
            "title": .string(site.title), "language": .string(site.language),
            "home": .string(Routes.relativePath(from: folder, to: routes.path(of: .index))),
            "base_url": .optional(site.baseURL),
        ]
        return (siteValue, .object(files))
    }

    private func common(_ page: Page, at outputPath: String, title: String?) -> MustacheObject {
        let documentTitle = title.map { "\($0) — \(site.title)" } ?? site.title
        var context = MustacheObject(minimumCapacity: 16)
        context["document_title"] = .string(documentTitle)
        context["canonical_url"] =
            page == .notFound ? .null : .optional(routes.absoluteURL(of: page, baseURL: site.baseURL))
        let folder = Routes.folder(of: outputPath)
        let shared = folderValues[folder] ?? Self.folderValues(folder, site: site, routes: routes, fileKeys: fileKeys)
        context["site"] = shared.site
        context["files"] = shared.files
        return context
    }

    private func context(
        for page: Page, at outputPath: String, sourceLinks: inout [SourceLink]
    ) -> (String, MustacheValue) {
        let routes = self.routes
        /// The link from this page to `target`.
        func link(to target: Page) -> String {
            Routes.relativePath(from: outputPath, to: routes.path(of: target))
        }
        switch page {
        case .index:
            var context = common(page, at: outputPath, title: nil)
            let count = site.line.stations.count
            context["title"] = .string(site.title)
            context["body"] = .string(markdownHTML(site.index.body, on: page, sourceLinks: &sourceLinks))
            context["stations"] = .array(
                site.line.stations.enumerated().map { position, station in
                    [
                        "title": .string(station.title), "summary": .optional(station.summary),
                        "href": .string(link(to: .station(slug: station.slug))),
                        "position": .int(position + 1), "is_first": .bool(position == 0),
                        "is_last": .bool(position == count - 1),
                    ]
                })
            context["station_count"] = .int(count)
            context["checklists"] = .array(
                site.checklists.map { checklist in
                    [
                        "title": .string(checklist.title),
                        "href": .string(link(to: .checklist(slug: checklist.slug))),
                    ]
                })
            context["has_checklists"] = .bool(!site.checklists.isEmpty)
            context["map"] = StripMap(site: site, routes: routes, page: page).value
            return ("index", .object(context))

        case .station(let slug):
            guard let position = stationPositions[slug] else {
                return ("station", .object(common(page, at: outputPath, title: nil)))
            }
            let stations = site.line.stations
            let title = stations[position].title
            var context = common(page, at: outputPath, title: title)
            context["title"] = .string(title)
            context["summary"] = .optional(stations[position].summary)
            context["position"] = .int(position + 1)
            context["station_count"] = .int(stations.count)
            context["info_href"] = .string(link(to: .info(slug: slug)))
            if position > 0 {
                context["previous"] = [
                    "title": .string(stations[position - 1].title),
                    "href": .string(link(to: .station(slug: stations[position - 1].slug))),
                ]
            }
            if position + 1 < stations.count {
                context["next"] = [
                    "title": .string(stations[position + 1].title), "label": .string(site.nextLabel),
                    "href": .string(link(to: .station(slug: stations[position + 1].slug))),
                ]
            }
            return ("station", .object(context))

        case .info(let slug):
            guard let position = stationPositions[slug] else {
                return ("info", .object(common(page, at: outputPath, title: nil)))
            }
            let stations = site.line.stations
            var context = common(page, at: outputPath, title: stations[position].title)
            context["title"] = .string(stations[position].title)
            context["done_href"] = .string(link(to: .station(slug: slug)))
            context["body"] = .string(markdownHTML(stations[position].info.body, on: page, sourceLinks: &sourceLinks))
            return ("info", .object(context))

        case .notFound:
            var context = common(page, at: outputPath, title: "Not Found")
            context["title"] = "Not Found"
            context["stations"] = .array(
                site.line.stations.prefix(1).map { station in
                    ["title": .string(station.title), "href": .string(link(to: .station(slug: station.slug)))]
                })
            return ("404", .object(context))

        case .checklist(let slug):
            guard let position = checklistPositions[slug] else {
                return ("checklist", .object(common(page, at: outputPath, title: nil)))
            }
            let checklist = site.checklists[position]
            var context = common(page, at: outputPath, title: checklist.title)
            context["title"] = .string(checklist.title)
            context["back"] = ["title": .string(site.title), "href": .string(link(to: .index))]
            let source = checklist.body
            let split = Markdown.splitFirstList(source.text, options: site.markdownOptions) { destination in
                routes.rewriteContentLink(destination, writtenIn: source.contentPath, on: page)
            }
            sourceLinks += (split?.links ?? []).map { SourceLink($0, in: source) }
            context["intro"] = .string(split?.introductionHTML ?? "")
            context["group"] = .string("\(checklist.slug)-choice")
            let labels = split?.items.map(\.html) ?? []
            context["rows"] = .array(
                checklist.rows.enumerated().map { position, row in
                    [
                        "id": .string("\(checklist.slug)-\(row.value)"), "value": .string(row.value),
                        "text": .string(row.text),
                        "label": .string(position < labels.count ? labels[position] : row.text),
                        "position": .int(position + 1),
                    ]
                })
            return ("checklist", .object(context))
        }
    }
}
