import Foundation
import LTrainSupport
import LTrainMarkdown
import LTrainLoad

/// The Model stage: gives the loaded files their meaning (the site, its line of stations, its
/// checklists) and checks everything an author can get wrong about them. A function of values only.
public enum SiteBuilder {
    static let indexKeys: Set<String> = [
        "title", "next_label", "labels", "language", "direction", "unsafe_html", "base_url", "offline", "search",
    ]
    static let stationKeys: Set<String> = ["title", "summary", "slug", "draft"]
    static let checklistKeys: Set<String> = ["title", "slug", "draft", "choose"]

    /// What the command line may set over the content's own settings.
    public struct Settings: Sendable {
        /// Build stations and checklists marked `draft: true` too.
        public var includeDrafts = false
        /// Overrides `base_url` in index.md.
        public var baseURL: String?
        /// Whether the model looks for notices at all. A build that renders the pages leaves them
        /// to the render, which parses every text anyway (see `noticeWarnings(of:found:)`); the
        /// model still looks when it finds errors, so that a failed build lists them too.
        public var findsNotices = true

        public init(includeDrafts: Bool = false, baseURL: String? = nil) {
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
        }
    }

    /// A version of the site modelled before (with the same settings), and the content files
    /// changed since (paths inside the content folder): a model made again after a change keeps
    /// the stations whose files did not change as they were, and looks for notices only in the
    /// files that did (the others' were reported when they were read). When the changed files
    /// are all stations that keep their places, only they are modelled, and put back in the last
    /// site (`update`); when none changed, the last site is the model. What changed is a fact
    /// about the content, not a hint from whoever asks: the model decides what it can keep.
    public struct LastVersion: Sendable {
        public var site: Site
        public var changedFiles: Set<String>

        public init(site: Site, changedFiles: Set<String>) {
            self.site = site
            self.changedFiles = changedFiles
        }

        /// The positions in the last version's line of its stations whose files did not change,
        /// by content path: positions, not stations, since a station is a large value and this
        /// table is made on one core, for every station, each time serve models a new station. A
        /// changed folder (one renamed or swapped whole is reported alone) changes every file below it.
        func unchangedStations() -> [String: Int] {
            var unchanged: [String: Int] = [:]
            let stations = site.line.stations
            unchanged.reserveCapacity(stations.count)
            for index in stations.indices where !hasChanged(stations[index].info.body.contentPath) {
                unchanged[stations[index].info.body.contentPath] = index
            }
            return unchanged
        }

        /// Whether the file at `contentPath`, or a folder it is in, changed.
        func hasChanged(_ contentPath: String) -> Bool {
            if changedFiles.contains(contentPath) { return true }
            // Over the UTF-8 bytes: a search by Character walks grapheme breaks, slow for a test
            // run on every station's path (figure in docs/benchmarks.md, "Optimisations").
            let path = contentPath.utf8
            var end = path.endIndex
            while let slash = path[..<end].lastIndex(of: UInt8(ascii: "/")) {
                if changedFiles.contains(String(contentPath[..<slash])) { return true }
                end = slash
            }
            return false
        }
    }

    /// A base URL must be absolute http(s) with a host, and hold nothing that cannot stand in a
    /// link as it is written (robots.txt, the sitemap and canonical links take it whole): no query,
    /// fragment, space, quote, `<`, `>`, backslash or control character. It always ends in `/`.
    static func normalizedBaseURL(_ text: String) -> String? {
        let lowered = text.lowercased()
        let forbidden = Set("?#\"'<>\\`{}|^".unicodeScalars)
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
            !text.unicodeScalars.contains(where: { $0.value <= 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) || forbidden.contains($0) }),
            text.split(separator: "/", omittingEmptySubsequences: true).count >= 2
        else { return nil }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// What a base URL may hold, for the error that refuses one.
    static let baseURLRule = "an absolute http(s) URL with no query, fragment, spaces or quotes"

    /// `last`: the version modelled before and what changed since, when there is one (`LastVersion`).
    public static func build(
        _ content: LoadedContent, settings: Settings = Settings(), after last: LastVersion? = nil, log: inout DiagnosticLog
    ) -> Site? {
        if let last, let site = keptInPlace(last, content: content, settings: settings, log: &log) { return site }
        var baseURL: String?
        var title = ""
        var labels = Labels()
        var offline = true
        var search = true
        var language = "en"
        var direction = TextDirection.leftToRight
        var options = MarkdownOptions()
        var indexBody = MarkdownSource(text: "", displayPath: "index.md", contentPath: "index.md", lineOffset: 0)
        if let index = content.index {
            let fields = FrontMatterFields(
                index.document.frontMatter, path: index.displayPath, knownKeys: indexKeys, noun: "index", log: &log)
            title = fields.string("title", required: true, log: &log) ?? ""
            labels = buildLabels(fields, path: index.displayPath, log: &log)
            language = fields.string("language", required: false, log: &log) ?? language
            direction = TextDirection.of(language: language)
            if let written = fields.string("direction", required: false, log: &log) {
                if let chosen = TextDirection(rawValue: written.lowercased()) {
                    direction = chosen
                } else {
                    log.report(
                        .error(
                            "'direction' must be 'rtl' or 'ltr', found '\(written)'", path: index.displayPath,
                            at: fields.location(of: "direction"),
                            hint: "leave it out to follow 'language' (\(language) reads \(direction.rawValue)), or write direction: rtl"))
                }
            }
            options.allowsUnsafeHTML = fields.bool("unsafe_html", log: &log) ?? false
            offline = fields.bool("offline", log: &log) ?? true
            search = fields.bool("search", log: &log) ?? true
            if let written = fields.string("base_url", required: false, log: &log) {
                baseURL = normalizedBaseURL(written)
                if baseURL == nil {
                    log.report(
                        .error(
                            "base_url '\(written)' is not an absolute http(s) URL: a base URL is \(baseURLRule)",
                            path: index.displayPath,
                            hint: "write it like base_url: https://example.org/sub/"))
                }
            }
            indexBody = MarkdownSource(
                text: index.document.body, displayPath: index.displayPath, contentPath: index.relativePath, lineOffset: index.document.bodyLineOffset)
        }
        if let override = settings.baseURL {
            baseURL = normalizedBaseURL(override)
            if baseURL == nil {
                log.report(
                    .error(
                        "--base-url '\(override)' is not an absolute http(s) URL: a base URL is \(baseURLRule)",
                        hint: "write it like --base-url https://example.org/sub/"))
            }
        }
        let stations = buildStations(content.stations, includeDrafts: settings.includeDrafts, after: last, log: &log)
        let checklists = buildChecklists(
            content.checklists, options: options, includeDrafts: settings.includeDrafts, log: &log)
        if content.stations.isEmpty && content.index != nil {
            log.report(
                .warning(
                    "the line has no stations", path: content.index?.displayPath,
                    hint: "add files such as stations/01-first-stop.md"))
        }
        if settings.findsNotices || log.hasErrors {
            reportNotices(
                in: ([indexBody] + stations.map(\.info.body)).filter { last?.hasChanged($0.contentPath) ?? true },
                checklists: checklists.map(\.body).filter { last?.hasChanged($0.contentPath) ?? true }, options: options,
                log: &log)
        }
        guard !log.hasErrors else { return nil }
        return Site(
            title: title, labels: labels, language: language, direction: direction, baseURL: baseURL, index: IndexPage(body: indexBody), line: Line(stations: stations),
            checklists: checklists, assets: content.assets, rootFiles: content.staticFiles, markdownOptions: options, offline: offline,
            search: search)
    }

    /// The last site when no content file changed, or with its changed stations modelled again
    /// in their places (`update`) when every changed file is one of its stations; nil otherwise.
    private static func keptInPlace(
        _ last: LastVersion, content: LoadedContent, settings: Settings, log: inout DiagnosticLog
    ) -> Site? {
        guard !last.changedFiles.isEmpty else { return last.site }
        var files: [ContentFile] = []
        for path in last.changedFiles.sorted() {
            guard let file = content.stations.first(where: { $0.relativePath == path }) else { return nil }
            files.append(file)
        }
        return update(last.site, stations: files, settings: settings, log: &log)
    }

    /// The site with the stations of `files` modelled again and put back in their places, when
    /// that is all an edit did: each file is a station of the line that keeps its number and slug
    /// and stays in it (not a draft now). Nil when the edit moves, adds or removes a station, or
    /// the file has a problem: then the whole site is modelled again, which reports it.
    private static func update(
        _ site: Site, stations files: [ContentFile], settings: Settings = Settings(), log: inout DiagnosticLog
    ) -> Site? {
        var site = site
        var edited: [MarkdownSource] = []
        // Reported only when the update stands; otherwise the whole site's modelling reports them.
        var fileLog = DiagnosticLog(limit: .max)
        for file in files {
            guard let position = site.line.stations.firstIndex(where: { $0.info.body.contentPath == file.relativePath }),
                let (station, isDraft, _) = station(from: file, log: &fileLog), let station, !fileLog.hasErrors,
                !isDraft || settings.includeDrafts,
                station.slug == site.line.stations[position].slug, station.number == site.line.stations[position].number
            else { return nil }
            site.line.stations[position] = station
            edited.append(station.info.body)
        }
        log.report(contentsOf: fileLog.diagnostics)
        if settings.findsNotices { reportNotices(in: edited, checklists: [], options: site.markdownOptions, log: &log) }
        return site
    }

    // MARK: Markdown that is not CommonMark

    /// Warns about every text's Markdown that CommonMark reads otherwise than its author expects
    /// (see `MarkdownNotice`), each file once even when two stations share it.
    static func reportNotices(
        in texts: [MarkdownSource], checklists: [MarkdownSource], options: MarkdownOptions, log: inout DiagnosticLog
    ) {
        let sources = texts.map { ($0, false) } + checklists.map { ($0, true) }
        log.report(contentsOf: noticeWarnings(
                count: sources.count, text: { sources[$0] }, path: { sources[$0].0.displayPath }, options: options, found: []
            ).first)
    }

    /// The notice warnings of every text of `site`, in the site's order: those a render found
    /// (`found`, by page, each text's by its display path), and the others looked for now (the
    /// texts of pages that were kept as they were, or of a build that stopped before rendering).
    public static func noticeWarnings(of site: Site, found: [[TextNotices]]) -> [Diagnostic] {
        noticeWarnings(of: site, found: found, first: .max).first
    }

    /// The first `first` notice warnings of `site`'s texts (see `noticeWarnings(of:found:)`) and
    /// how many there are in all: only the warnings that will be shown are made (a large site can
    /// have tens of thousands).
    public static func noticeWarnings(
        of site: Site, found: [[TextNotices]], first: Int
    ) -> (first: [Diagnostic], count: Int) {
        let stations = site.line.stations
        let checklists = site.checklists
        return noticeWarnings(
            count: 1 + stations.count + checklists.count,
            text: { position in
                if position == 0 { return (site.index.body, false) }
                if position <= stations.count { return (stations[position - 1].info.body, false) }
                return (checklists[position - 1 - stations.count].body, true)
            },
            path: { position in
                if position == 0 { return site.index.body.displayPath }
                if position <= stations.count { return stations[position - 1].info.body.displayPath }
                return checklists[position - 1 - stations.count].body.displayPath
            }, options: site.markdownOptions, found: found, first: first)
    }

    /// The notice warnings of `count` texts (`text` gives each, with whether it is a checklist's,
    /// and `path` its display path alone), in their order and each file once (even when two texts
    /// come from it): the notices `found` for a display path (the first for each), the others
    /// looked for now on every core; only the first `first` warnings are made, and the count of
    /// all is returned with them.
    private static func noticeWarnings(
        count: Int, text: @Sendable (Int) -> (source: MarkdownSource, isChecklist: Bool), path: (Int) -> String,
        options: MarkdownOptions,
        found: [[TextNotices]], first: Int = .max
    ) -> (first: [Diagnostic], count: Int) {
        // A render finds them in the texts' order, so a text's are nearly always the next found
        // (the path compared, the same string, at once); they are put in a dictionary by path
        // only when one is not. Hashing every path, and copying every source on both cores,
        // cost more than the rest of this. `found` is by page, as the render left them: read in
        // place, not made one list first.
        var notices = [[MarkdownNotice]](repeating: [], count: count)
        var missing: [Int] = []
        var (page, item) = (0, 0)
        var byPath: [String: [MarkdownNotice]]?
        for position in 0..<count {
            let path = path(position)
            while page < found.count && item == found[page].count {
                (page, item) = (page + 1, 0)
            }
            if byPath == nil, page < found.count, found[page][item].displayPath == path {
                notices[position] = found[page][item].notices
                item += 1
                continue
            }
            if byPath == nil {
                byPath = Dictionary(
                    found.joined().map { ($0.displayPath, $0.notices) }, uniquingKeysWith: { first, _ in first })
            }
            if let known = byPath?[path] {
                notices[position] = known
            } else {
                missing.append(position)
            }
        }
        let unknown = missing
        let looked = concurrentMap(unknown.count) { index in
            Markdown.notices(in: text(unknown[index]).source.text, options: options)
        }
        for (index, position) in unknown.enumerated() { notices[position] = looked[index] }
        var seen: Set<String> = []
        seen.reserveCapacity(count)
        var warnings: [Diagnostic] = []
        var total = 0
        for position in 0..<count where !notices[position].isEmpty {
            guard seen.insert(path(position)).inserted else { continue }
            total += notices[position].count
            guard warnings.count < first else { continue }
            let (source, isChecklist) = text(position)
            for notice in notices[position] where warnings.count < first {
                warnings.append(noticeWarning(notice, in: source, isChecklist: isChecklist))
            }
        }
        return (warnings, total)
    }

    /// A notice of a text as a warning at the file's line.
    private static func noticeWarning(_ notice: MarkdownNotice, in source: MarkdownSource, isChecklist: Bool) -> Diagnostic {
        let hint =
            isChecklist && notice.kind == .taskListItem
            ? "write the rows without '[ ]': every row of a checklist can be ticked already" : notice.hint
        return Diagnostic.warning(
            notice.message, path: source.displayPath,
            at: SourceLocation(line: source.lineOffset + notice.line, column: notice.column), hint: hint)
    }

    // MARK: Labels

    /// The theme's words: `labels:` over the defaults, and `next_label` (the older spelling of
    /// `labels.next`, still read). Unknown keys and placeholders are warnings, like unknown keys.
    static func buildLabels(_ fields: FrontMatterFields, path: String, log: inout DiagnosticLog) -> Labels {
        var overrides: [String: String] = [:]
        let nextLabel = fields.string("next_label", required: false, log: &log)
        let known = Labels.all.map(\.key)
        for label in fields.stringMapping("labels", log: &log) ?? [] {
            guard known.contains(label.key) else {
                log.report(
                    .warning(
                        "unknown label '\(label.key)' is ignored\(NearestName.hint(for: label.key, among: known))",
                        path: path, at: label.keyLocation, hint: "labels are: \(known.joined(separator: ", "))"))
                continue
            }
            // An empty label would leave a button or a heading with no words (and no accessible name).
            guard !label.text.isEmpty else {
                let shown = Labels.all.first { $0.key == label.key }?.text ?? ""
                log.report(
                    .warning(
                        "label '\(label.key)' is empty; the default '\(shown)' is shown", path: path, at: label.keyLocation,
                        hint: "give it words, or remove the line to keep the default"))
                continue
            }
            for placeholder in Labels.placeholders(in: label.text) {
                let problem: String
                let allowed = Labels.placeholdersByLabel[label.key]
                if allowed == nil {
                    problem = "label '\(label.key)' takes no placeholder; '\(placeholder.written)' is shown as written"
                } else if !(allowed ?? []).contains(placeholder.name) {
                    problem = "label '\(label.key)' has an unknown placeholder '\(placeholder.written)', shown as written"
                } else if placeholder.isDoubled {
                    problem = "label '\(label.key)' writes '\(placeholder.written)' with two braces; a label's placeholder takes one, '{\(placeholder.name)}'"
                } else {
                    continue
                }
                log.report(
                    .warning(
                        problem, path: path, at: label.keyLocation,
                        hint: "only 'position' ({position} and {count}, e.g. \"Stop {position} of {count}\") and 'result_count' ({count}) fill placeholders"))
            }
            overrides[label.key] = label.text
        }
        if let nextLabel {
            if overrides["next"] != nil {
                log.report(
                    .warning(
                        "next_label is ignored: labels.next is set too", path: path,
                        hint: "remove next_label (labels.next is the newer spelling)"))
            } else {
                overrides["next"] = nextLabel
            }
        }
        return Labels(overrides)
    }

    // MARK: Stations

    /// Digits one part of a station number may have (more would not fit an `Int` for long).
    static let maximumNumberDigits = 9

    /// Whether the file name starts with a station number (digits and dots) one part of which is
    /// longer than `maximumNumberDigits`.
    static func hasOverlongNumber(_ name: String) -> Bool {
        let number = name.utf8.prefix { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return number.split(separator: UInt8(ascii: ".")).contains { $0.count > maximumNumberDigits }
    }

    /// `NN-slug.md` → ([NN], slug); `NN.M-slug.md` → ([NN, M], slug), which sorts between NN and NN+1.
    static func parseStationFileName(_ name: String) -> (number: [Int], slug: String)? {
        // Byte by byte: the number is ASCII digits and dots, and ends at the first '-'.
        let bytes = name.utf8
        guard bytes.count > 3, name.hasSuffix(".md") else { return nil }
        let stemEnd = bytes.index(bytes.endIndex, offsetBy: -3)
        var number: [Int] = []
        var part = 0
        var digits = 0
        var index = bytes.startIndex
        while index < stemEnd {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= maximumNumberDigits else { return nil }
                part = part * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."), UInt8(ascii: "-"):
                guard digits > 0 else { return nil }
                number.append(part)
                part = 0
                digits = 0
                if byte == UInt8(ascii: "-") {
                    let slugStart = bytes.index(after: index)
                    guard slugStart < stemEnd else { return nil }
                    return (number, String(name[slugStart..<stemEnd]))
                }
            default:
                return nil
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// The longest slug, in characters: a page's path (`stations/<slug>.html`, and the number
    /// before it in the source file) stays well inside the 255 bytes a file name may hold.
    public static let longestSlug = 100

    /// Slugs name output files, so they are kept to letters, digits, `-` and `_`: nothing that could
    /// leave its folder or mean something to a shell or a URL.
    static func isValidSlug(_ slug: String) -> Bool {
        guard let first = slug.unicodeScalars.first, first != "-", first != "_", slug.count <= longestSlug else { return false }
        return slug.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_"
        }
    }

    private static func suggestedName(for fileName: String) -> String {
        let slug = slugify(String(fileName.dropLast(3)))
        return slug.isEmpty ? "name" : slug
    }

    /// What is wrong with a slug `isValidSlug` refused, for its error.
    private static func slugProblem(_ slug: String, noun: String) -> String {
        slug.count > longestSlug
            ? "\(noun) slug '\(slug)' is \(slug.count) characters long; a slug has at most \(longestSlug)"
            : "\(noun) slug '\(slug)' may not be used as a file name"
    }

    private static func slugHint(_ slug: String) -> String {
        let suggestion = shortened(slug: slugify(slug), to: longestSlug)
        let rule = slug.count > longestSlug ? "shorten it (the file name, or slug: in its front matter)" : "use only letters, digits, '-' and '_'"
        return rule + (suggestion.isEmpty ? "" : ", e.g. '\(suggestion)'")
    }

    /// One station file read on its own (no check against the other stations): the station, and
    /// whether it is a draft; nil, with the problems logged, when the file is not a valid station.
    static func station(from file: ContentFile, log: inout DiagnosticLog) -> (station: Station?, isDraft: Bool, slugLocation: SourceLocation?)? {
        guard let (number, fileSlug) = parseStationFileName(file.fileName) else {
            if hasOverlongNumber(file.fileName) {
                log.report(
                    .error(
                        "station number is too long: each part of it may have at most \(maximumNumberDigits) digits",
                        path: file.displayPath,
                        hint: "renumber it with fewer digits; numbers only order the stations, like 03 or 03.1"))
                return nil
            }
            log.report(
                .error(
                    "station file name must start with its number, like 03-union-square.md", path: file.displayPath,
                    hint: "rename it to NN-\(suggestedName(for: file.fileName)).md, where NN orders the stations west to east"))
            return nil
        }
        let fields = FrontMatterFields(
            file.document.frontMatter, path: file.displayPath, knownKeys: stationKeys, noun: "station", log: &log)
        let title = fields.string("title", required: true, log: &log)
        let summary = fields.string("summary", required: false, log: &log)
        let isDraft = fields.bool("draft", log: &log) ?? false
        var slug = fileSlug
        var slugLocation: SourceLocation?
        if let custom = fields.string("slug", required: false, log: &log) {
            slug = custom
            slugLocation = slugLocationIn(file)
        }
        guard isValidSlug(slug) else {
            log.report(
                .error(
                    slugProblem(slug, noun: "station"), path: file.displayPath,
                    at: slugLocation, hint: slugHint(slug)))
            return nil
        }
        let station = title.map { title in
            Station(
                number: number, slug: slug, title: title, summary: summary,
                info: InfoPage(
                    body: MarkdownSource(
                        text: file.document.body, displayPath: file.displayPath,
                        contentPath: file.relativePath, lineOffset: file.document.bodyLineOffset)),
                sourcePath: file.displayPath)
        }
        return (station, isDraft, slugLocation)
    }

    /// `last`: the version modelled before, whose stations with unchanged files are taken again.
    private static func buildStations(
        _ files: [ContentFile], includeDrafts: Bool, after last: LastVersion?, log: inout DiagnosticLog
    ) -> [Station] {
        let unchanged = last?.unchangedStations() ?? [:]
        let lastStations = last?.site.line.stations ?? []
        var stations: [Station] = []
        var slugOwners: [String: String] = [:]
        // Each file on its own, on every core; then, in file order, what concerns them all.
        var readings = concurrentMap(files.count) { index in
            // A station of the last version whose file did not change is that station again
            // (`unchanged` gives its place in `lastStations`), copied here, on every core.
            if let position = unchanged[files[index].relativePath] {
                let reading: (station: Station?, isDraft: Bool, slugLocation: SourceLocation?)? = (
                    lastStations[position], false, nil
                )
                return (reading: reading, diagnostics: [Diagnostic]())
            }
            // Unlimited: merged into the build's log, which applies the limit.
            var fileLog = DiagnosticLog(limit: .max)
            let reading = station(from: files[index], log: &fileLog)
            return (reading: reading, diagnostics: fileLog.diagnostics)
        }
        stations.reserveCapacity(files.count)
        slugOwners.reserveCapacity(files.count)
        for index in files.indices {
            log.report(contentsOf: readings[index].diagnostics)
            // Moved out of the readings, not copied: a station is a large value, and each copy
            // would be freed again on this one core.
            guard let (station, isDraft, readLocation) = readings[index].reading.take() else { continue }
            let displayPath = files[index].displayPath
            // A station without a title still claims its slug, so duplicates are reported too.
            let slug = station?.slug ?? parseStationFileName(files[index].fileName)?.slug ?? ""
            let folded = slug.lowercased()
            if let owner = slugOwners[folded] {
                // Looked for only here, since walking every file's front matter for it showed in
                // a new station's rebuild under serve.
                let slugLocation = readLocation ?? slugLocationIn(files[index])
                log.report(
                    .error(
                        "two stations have the slug '\(slug)': \(owner) and \(displayPath)",
                        path: displayPath, at: slugLocation,
                        hint: "give one of them another file name or a 'slug:' in its front matter"))
                continue
            }
            slugOwners[folded] = displayPath
            guard let station, !isDraft || includeDrafts else { continue }
            stations.append(station)
        }
        // Natural order by the file's number (2 before 10, 3 before 3.1 before 4), then by slug.
        stations.sort { a, b in
            a.number == b.number ? a.slug < b.slug : a.number.lexicographicallyPrecedes(b.number)
        }
        return stations
    }

    private static func slugLocationIn(_ file: ContentFile) -> SourceLocation? {
        guard case .mapping(let pairs, _)? = file.document.frontMatter else { return nil }
        return pairs.first { $0.key == "slug" }?.value.location
    }

    // MARK: Checklists

    /// `choose: one` (the default: a single choice) or `choose: many` (any number of rows).
    private static func checklistChoice(
        _ fields: FrontMatterFields, path: String, log: inout DiagnosticLog
    ) -> Checklist.Choice {
        guard let written = fields.string("choose", required: false, log: &log) else { return .one }
        guard let choice = Checklist.Choice(rawValue: written.lowercased()) else {
            log.report(
                .error(
                    "'choose' must be 'one' or 'many', found '\(written)'", path: path, at: fields.location(of: "choose"),
                    hint: "write choose: one (a single choice, the default) or choose: many (any number of rows)"))
            return .one
        }
        return choice
    }

    private static func buildChecklists(
        _ files: [ContentFile], options: MarkdownOptions, includeDrafts: Bool, log: inout DiagnosticLog
    ) -> [Checklist] {
        var checklists: [Checklist] = []
        var slugOwners: [String: String] = [:]
        for file in files {
            let fields = FrontMatterFields(
                file.document.frontMatter, path: file.displayPath, knownKeys: checklistKeys, noun: "checklist",
                log: &log)
            let title = fields.string("title", required: true, log: &log)
            let isDraft = fields.bool("draft", log: &log) ?? false
            let slug = fields.string("slug", required: false, log: &log) ?? String(file.fileName.dropLast(3))
            let choice = checklistChoice(fields, path: file.displayPath, log: &log)
            guard isValidSlug(slug) else {
                log.report(
                    .error(
                        slugProblem(slug, noun: "checklist"), path: file.displayPath,
                        at: slugLocationIn(file), hint: slugHint(slug)))
                continue
            }
            if let owner = slugOwners[slug.lowercased()] {
                log.report(
                    .error(
                        "two checklists have the slug '\(slug)': \(owner) and \(file.displayPath)",
                        path: file.displayPath, hint: "rename one of them"))
                continue
            }
            slugOwners[slug.lowercased()] = file.displayPath
            let body = MarkdownSource(
                text: file.document.body, displayPath: file.displayPath, contentPath: file.relativePath,
                lineOffset: file.document.bodyLineOffset)
            guard let list = Markdown.splitFirstList(body.text, options: options), !list.items.isEmpty else {
                log.report(
                    .error(
                        "checklist has no list", path: file.displayPath,
                        at: SourceLocation(line: body.lineOffset + 1, column: 1),
                        hint: "write its rows as a Markdown list, one '- Row' line each"))
                continue
            }
            var rowSlugs = UniqueSlugs()
            var rows: [ChecklistRow] = []
            for (position, item) in list.items.enumerated() {
                let text = slugify(item.text)
                let candidate = rowSlugs.claim(text.isEmpty ? "row-\(position + 1)" : text)
                if item.text.trimmingWhitespace.isEmpty {
                    log.report(
                        .error(
                            "checklist row \(position + 1) is empty", path: file.displayPath,
                            at: SourceLocation(line: body.lineOffset + item.line, column: 1),
                            hint: "give every row some text, or remove the empty '-' line"))
                }
                rows.append(ChecklistRow(value: candidate, text: item.text, line: body.lineOffset + item.line))
            }
            guard let title, !isDraft || includeDrafts else { continue }
            checklists.append(Checklist(slug: slug, title: title, body: body, rows: rows, choice: choice))
        }
        return checklists.sorted { $0.slug < $1.slug }
    }
}

