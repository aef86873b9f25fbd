import Dispatch
import Foundation
import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainRender
import LTrainRoute
import LTrainModel
import LTrainLoad

/// What checking one page found: its ids, its problems, and the links whose `#fragment` points
/// into another page (checked once every page is known).
public struct PageCheck: Sendable {
    public var outputPath: String
    public var ids: Set<String>
    public var problems: [Diagnostic]
    /// Its external links, to be listed; checked with `FineLinks`, only those no page checked
    /// before with the same `FineLinks` had.
    public var external: [String]
    /// Links to `target#fragment` on other pages, with the diagnostic to report if it is missing.
    package var fragmentLinks: [(target: String, fragment: String, problem: Diagnostic)]

    package init(
        outputPath: String, ids: Set<String>, problems: [Diagnostic] = [], external: [String] = [],
        fragmentLinks: [(target: String, fragment: String, problem: Diagnostic)] = []
    ) {
        self.outputPath = outputPath
        self.ids = ids
        self.problems = problems
        self.external = external
        self.fragmentLinks = fragmentLinks
    }
}

/// The Check stage: every `href` and `src` in every page must resolve to a file of the output
/// (and to an `id` on it when it has a `#fragment`). A broken link is an error naming the Markdown
/// file and line where it was written, or the template it came from.
public enum LinkChecker {
    public enum Verdict: Equatable {
        case fine
        case external
        case broken(String, hint: String)
        /// A `#fragment` on another page whose ids are not known yet (see `checkFragments`).
        case fragmentElsewhere(target: String, fragment: String)
    }

    /// Judges one link found on the page at `source`.
    /// `siteURL`: where the site is published (its base URL), if known: a link under it is one of
    /// the site's own pages (a canonical link), checked as such and never listed as external.
    public static func judge(
        _ link: String, on source: String, files: Set<String>, ids: (String) -> Set<String>?, ownIDs: Set<String>,
        siteURL: String? = nil
    ) -> Verdict {
        judge(
            link, on: source, inFolder: SitePath.folder(of: source), files: files, ids: ids, ownIDs: ownIDs,
            siteURL: siteURL)
    }

    /// `judge` with the page's folder (`SitePath.folder(of: source)`) worked out once per page.
    static func judge(
        _ link: String, on source: String, inFolder sourceFolder: String, files: Set<String>,
        ids: (String) -> Set<String>?, ownIDs: Set<String>, siteURL: String? = nil
    ) -> Verdict {
        // A `data:` URL holds what it refers to: nothing to find, and nothing external to list.
        if link.isEmpty || isDataURL(link) { return .fine }
        if let siteURL, !siteURL.isEmpty, link.hasPrefix(siteURL) {
            // The site's own address: the rest is a path from the site's root.
            let rest = String(link.dropFirst(siteURL.count))
            let path = rest.isEmpty || rest.hasPrefix("#") ? "index.html" + rest : rest
            return judge(path, on: source, inFolder: "", files: files, ids: ids, ownIDs: ownIDs)
        }
        if link.hasPrefix("//") || SitePath.hasScheme(link) { return .external }
        if link.hasPrefix("/") {
            return .broken(
                "starts at the root of the host, which breaks the site offline and under a sub-path",
                hint: "write the link relative to the page, e.g. '../stations/union-square.html'")
        }
        // The path before any `?query` and the `#fragment`, cut on the link's bytes.
        var linkText = link
        let (target, fragment) = linkText.withUTF8 { bytes -> (String, String?) in
            let hash = bytes.firstIndex(of: UInt8(ascii: "#"))
            let pathEnd = hash ?? bytes.count
            let targetEnd = bytes[..<pathEnd].firstIndex(of: UInt8(ascii: "?")) ?? pathEnd
            // Most links are a bare path: the link itself, no new string.
            if targetEnd == bytes.count { return (link, nil) }
            let target = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<targetEnd]), as: UTF8.self)
            let fragment = hash.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[($0 + 1)...]), as: UTF8.self) }
            return (target, fragment)
        }
        if target.isEmpty {
            guard let fragment, !fragment.isEmpty else { return .fine }
            let decoded = SitePath.percentDecoded(fragment) ?? fragment
            return ownIDs.contains(decoded)
                ? .fine
                : .broken(
                    "points to no id '\(decoded)' on this page",
                    hint: "check the spelling of the heading or id it should point to")
        }
        guard let decoded = SitePath.percentDecoded(target) else {
            return .broken("has a malformed %-escape", hint: "write '%' as '%25'")
        }
        guard let resolved = SitePath.resolve(decoded, inFolder: sourceFolder) else {
            return .broken("climbs out of the site", hint: "remove the extra '../'")
        }
        guard files.contains(resolved) else {
            let hint: String
            if target.hasSuffix("/") || files.contains(joinPath(resolved, "index.html")) {
                hint = "link to the file itself (…/index.html): folder links do not work offline"
            } else {
                hint = "check the path; it is relative to the page it appears on"
            }
            return .broken("points to \(resolved), which is not in the site", hint: hint)
        }
        if let fragment, !fragment.isEmpty {
            let decodedFragment = SitePath.percentDecoded(fragment) ?? fragment
            guard let targetIDs = resolved == source ? ownIDs : ids(resolved) else {
                return .fragmentElsewhere(target: resolved, fragment: decodedFragment)
            }
            if !targetIDs.contains(decodedFragment) {
                return .broken(
                    "points to no id '\(decodedFragment)' on \(resolved)",
                    hint: "check the spelling of the id it should point to")
            }
        }
        return .fine
    }

    /// Whether `judge` calls `link` external, told on its bytes (see `ExternalLinks`).
    static func isExternal(_ link: UnsafeBufferPointer<UInt8>, siteURL: String?) -> Bool {
        ExternalLinks(siteURL: siteURL).contains(link)
    }

    /// The links `judge` calls external, told on their bytes against one site URL, whose bytes are
    /// read once: a link that starts with `//` or a scheme, and not with the site's URL. For links
    /// as written with no character reference. A site URL beyond ASCII is never told apart on
    /// bytes, so with one it holds no link (and `judge` decides).
    struct ExternalLinks {
        /// The site URL's bytes; empty when the site has none.
        private let siteURL: [UInt8]
        private let decidesOnBytes: Bool

        init(siteURL: String?) {
            self.siteURL = Array((siteURL ?? "").utf8)
            decidesOnBytes = self.siteURL.allSatisfy { $0 < 0x80 }
        }

        func contains(_ link: UnsafeBufferPointer<UInt8>) -> Bool {
            guard decidesOnBytes, link.count >= 2,
                (link[0] == UInt8(ascii: "/") && link[1] == UInt8(ascii: "/")) || SitePath.hasScheme(link)
            else { return false }
            return siteURL.isEmpty || !link.starts(with: siteURL)
        }
    }

    /// Whether `link` starts with `data:`, in any case: told on its bytes, as a URL's scheme is
    /// read on its code points (a mark after the colon does not make it another scheme).
    static func isDataURL(_ link: String) -> Bool {
        link.withUTF8Bytes { bytes in
            bytes.count >= 5 && HTMLScanner.equalsIgnoringCase(bytes, 0..<4, "data") && bytes[4] == UInt8(ascii: ":")
        }
    }

    /// Checks one rendered page against the set of every output path: safe to run on many pages
    /// at once. Links into other pages' fragments are left for `checkFragments`.
    public static func checkPage(
        outputPath: String, html: String, templatePath: String, templateSources: [TemplateSource] = [],
        sourceLinks: SourceLinks, files: Set<String>, siteURL: String? = nil
    ) -> PageCheck {
        var fine = LinkSet()
        return check(
            outputPath, HTMLScanner.scan(html), templatePath: templatePath, templateSources: templateSources,
            sourceLinks: sourceLinks, files: files, siteURL: siteURL, folder: SitePath.folder(of: outputPath),
            fine: &fine)
    }

    /// `checkPage` over the page's UTF-8 bytes, as rendered.
    /// `templateSources`: the page's template and every template it can include, in that order.
    /// `fineLinks`: the links already judged fine on other pages checked against the same `files`
    /// (one per rendering thread, see `FineLinks`).
    /// `knownParts`: parts of the page whose links and ids are known (its Markdown's HTML), taken
    /// as known where the scan finds one starting outside any tag, and read like the rest elsewhere.
    public static func checkPage(
        outputPath: String, bytes: [UInt8], templatePath: String, templateSources: [TemplateSource] = [],
        sourceLinks: SourceLinks, files: Set<String>, siteURL: String? = nil, fineLinks: FineLinks? = nil,
        knownParts: [KnownHTMLPart] = []
    ) -> PageCheck {
        let folder = SitePath.folder(of: outputPath)
        guard let fineLinks else {
            var fine = LinkSet()
            return check(
                outputPath, HTMLScanner.scan(bytes, knownParts: knownParts), templatePath: templatePath,
                templateSources: templateSources, sourceLinks: sourceLinks, files: files, siteURL: siteURL,
                folder: folder, fine: &fine)
        }
        // Only the links neither memory holds are made text and judged; the memories are moved
        // into the scan and back, so that adding to them copies nothing.
        var unknown = UnknownLinks(
            fine: fineLinks.take(folder), listed: fineLinks.listedExternal,
            passedOver: fineLinks.listsExternal ? nil : ExternalLinks(siteURL: siteURL))
        fineLinks.listedExternal = LinkSet()
        let ids = bytes.withUnsafeBufferPointer { HTMLScanner.scan(bytes: $0, knownParts: knownParts, links: &unknown) }
        fineLinks.listedExternal = unknown.listed
        unknown.listed = LinkSet()
        var fine = unknown.fine
        unknown.fine = LinkSet()
        defer { fineLinks.keep(fine, in: folder) }
        return check(
            outputPath, (unknown.links, ids), templatePath: templatePath, templateSources: templateSources,
            sourceLinks: sourceLinks, files: files, siteURL: siteURL, fineLinks: fineLinks, folder: folder, fine: &fine)
    }

    /// A scan's links that neither the links judged fine in the page's folder nor the external
    /// links listed hold, looked up by their bytes: most links of a page are in one or the other.
    /// When nothing lists them, the external links are passed over by their bytes too.
    private struct UnknownLinks: HTMLScanner.LinkVisitor {
        var fine: LinkSet
        var listed: LinkSet
        var links: [String] = []
        /// The external links passed over; nil when they are listed.
        private let passedOver: ExternalLinks?

        init(fine: LinkSet, listed: LinkSet, passedOver: ExternalLinks? = nil) {
            self.fine = fine
            self.listed = listed
            self.passedOver = passedOver
        }

        private func isSkipped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            passedOver?.contains(bytes) ?? false
        }

        // Mutating, so that the closures below reach the sets in place rather than copying them.
        private mutating func isKnown(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let hash = LinkSet.hash(UnsafeRawBufferPointer(bytes))
            return fine.contains(bytes, hash: hash) || listed.contains(bytes, hash: hash)
        }

        private mutating func isKnown(_ link: String) -> Bool {
            link.withUTF8Bytes { isKnown($0) }
        }

        mutating func visit(linkBytes: UnsafeBufferPointer<UInt8>) {
            if linkBytes.contains(UInt8(ascii: "&")) {
                let link = HTMLScanner.link(linkBytes)
                if !isKnown(link) { links.append(link) }
            } else if !isSkipped(linkBytes) && !isKnown(linkBytes) {
                links.append(String(decoding: linkBytes, as: UTF8.self))
            }
        }

        mutating func visit(knownLinks: [String]) {
            for link in knownLinks where !link.withUTF8Bytes({ isSkipped($0) }) && !isKnown(link) { links.append(link) }
        }
    }

    /// The links without a `#fragment` judged fine, by the folder of the page they are on: such a
    /// link is fine on every page of that folder while the site's files are the same. Station
    /// pages share most of their links (the style sheet, the script, the manifest, the icons, the
    /// index), so each is judged (decoded, resolved and looked up) once a folder rather than once
    /// a page. It also remembers the external links its pages listed (external on any page, and
    /// repeated on many): each is judged and listed once. Not thread-safe: one per thread.
    ///
    /// Handed from one thread to the next only through a `LinkMemory`'s lock, and used by one
    /// thread at a time in between: hence `@unchecked Sendable`.
    public final class FineLinks: @unchecked Sendable {
        private var byFolder: [String: LinkSet] = [:]
        fileprivate var listedExternal = LinkSet()
        /// The `LinkMemory` generation (files and site URL) its links were judged against.
        fileprivate var generation = 0
        /// With a `LinkMemory`: the links found fine since it was taken, by folder, for the memory
        /// to add when it is given back.
        fileprivate var added: [String: [String]]?
        /// How many links it has seen judged (none it knew to be fine): for tests of the memory.
        package fileprivate(set) var judged = 0
        /// Whether its pages' checks list their external links. When nothing reads that list (a
        /// build without `--verbose`), an external link is known by its bytes and passed over:
        /// no look-up, no list.
        public let listsExternal: Bool

        public init(listsExternal: Bool = true) {
            self.listsExternal = listsExternal
        }

        fileprivate init(knowing byFolder: [String: LinkSet], generation: Int) {
            self.byFolder = byFolder
            self.generation = generation
            self.added = [:]
            listsExternal = true
        }

        fileprivate func take(_ folder: String) -> LinkSet {
            byFolder.removeValue(forKey: folder) ?? LinkSet()
        }

        fileprivate func keep(_ links: LinkSet, in folder: String) {
            byFolder[folder] = links
        }

        fileprivate func found(_ link: String, fineIn folder: String) {
            added?[folder, default: []].append(link)
        }
    }

    /// Links judged fine, kept from one render of a site to the next (`ltrain serve`): a link
    /// without a `#fragment` judged fine on a page of a folder stays fine on every page of that
    /// folder while the site's files and its URL are the same, whatever else changed. Each
    /// rendering thread takes a `FineLinks` that knows every link the memory holds, and gives it
    /// back after with those it found; a render against other files or another URL starts afresh.
    /// External links are listed again by every render (each render's list is its own), from the
    /// first page that has each.
    public final class LinkMemory: Sendable {
        private struct State {
            var files: Set<String> = []
            var siteURL: String?
            var generation = 0
            var byFolder: [String: LinkSet] = [:]
        }
        private let state = Mutex(State())

        public init() {}

        /// A `FineLinks` for one thread of a render against `files` and `siteURL`, knowing every
        /// link judged fine against the same (the sets are shared until one is added to).
        public func take(files: Set<String>, siteURL: String?) -> FineLinks {
            state.withLock { state in
                // The same routes hand over the same set, which compares at once.
                if state.generation == 0 || state.files != files || state.siteURL != siteURL {
                    state.files = files
                    state.siteURL = siteURL
                    state.generation += 1
                    state.byFolder = [:]
                }
                return FineLinks(knowing: state.byFolder, generation: state.generation)
            }
        }

        /// Adds what a `FineLinks` from `take` found, once its thread is done with it; nothing
        /// when the files changed in the meantime.
        public func giveBack(_ fineLinks: FineLinks) {
            guard let added = fineLinks.added else { return }
            state.withLock { state in
                guard fineLinks.generation == state.generation else { return }
                for (folder, links) in added {
                    var kept = state.byFolder.removeValue(forKey: folder) ?? LinkSet()
                    for link in links { kept.insert(link) }
                    state.byFolder[folder] = kept
                }
            }
        }
    }

    private static func check(
        _ outputPath: String, _ scanned: (links: [String], ids: Set<String>), templatePath: String,
        templateSources: [TemplateSource], sourceLinks: SourceLinks, files: Set<String>, siteURL: String?,
        fineLinks: FineLinks? = nil, folder: String, fine: inout LinkSet
    ) -> PageCheck {
        var check = PageCheck(outputPath: outputPath, ids: scanned.ids, problems: [], external: [], fragmentLinks: [])
        var reported: Set<String> = []
        for link in scanned.links {
            if fine.contains(link) || fineLinks?.listedExternal.contains(link) == true { continue }
            fineLinks?.judged += 1
            switch judge(
                link, on: outputPath, inFolder: folder, files: files, ids: { _ in nil }, ownIDs: scanned.ids,
                siteURL: siteURL)
            {
            case .fine:
                // A link to a fragment depends on the page it points into (this one, perhaps).
                if let fineLinks, !link.utf8.contains(UInt8(ascii: "#")) {
                    fine.insert(link)
                    fineLinks.found(link, fineIn: folder)
                }
                continue
            case .fragmentElsewhere(let target, let fragment):
                let problem = diagnostic(
                    for: link, reason: "points to no id '\(fragment)' on \(target)",
                    hint: "check the spelling of the id it should point to", outputPath: outputPath,
                    templatePath: templatePath, templateSources: templateSources, sourceLinks: sourceLinks)
                check.fragmentLinks.append((target, fragment, problem))
            case .external:
                check.external.append(link)
                fineLinks?.listedExternal.insert(link)
            case .broken(let reason, let hint):
                guard reported.insert(link).inserted else { continue }
                check.problems.append(
                    diagnostic(
                        for: link, reason: reason, hint: hint, outputPath: outputPath, templatePath: templatePath,
                        templateSources: templateSources, sourceLinks: sourceLinks))
            }
        }
        return check
    }

    /// The second pass: reports every problem found, and every `#fragment` that is not on its page.
    public static func checkFragments(_ pages: [PageCheck], log: inout DiagnosticLog) {
        // Only pages that some link points into need their ids at hand.
        var targets: Set<String> = []
        for page in pages { for link in page.fragmentLinks { targets.insert(link.target) } }
        var idsByPath: [String: Set<String>] = [:]
        if !targets.isEmpty {
            for page in pages where targets.contains(page.outputPath) { idsByPath[page.outputPath] = page.ids }
        }
        // A link written once in a template shared by many pages (a layout, a partial) is one
        // problem: reported at its place once, for the first page it breaks on.
        var reportedPlaces: Set<String> = []
        func report(_ problem: Diagnostic) {
            if let path = problem.path, let location = problem.location {
                guard reportedPlaces.insert("\(path):\(location.line):\(location.column)").inserted else { return }
            }
            log.report(problem)
        }
        for page in pages {
            for problem in page.problems { report(problem) }
            var reported: Set<String> = []
            for link in page.fragmentLinks {
                guard let ids = idsByPath[link.target], !ids.contains(link.fragment) else { continue }
                if reported.insert(link.problem.description).inserted { report(link.problem) }
            }
        }
    }

    /// Every page's external links, distinct and sorted.
    public static func externalLinks(of pages: [PageCheck]) -> [String] {
        // In a build each rendering thread lists a link once (`FineLinks`), so there are a few
        // times as many as distinct ones at most, and a set made large enough at once takes them
        // without growing.
        var external = Set<String>(minimumCapacity: pages.reduce(0) { $0 + $1.external.count })
        for page in pages { for link in page.external { external.insert(link) } }
        return external.sorted()
    }

    /// `ltrain check`: every link of every page of an existing output folder, without rebuilding,
    /// given its files and the base URL it was built for (the Pipeline reads them from the
    /// folder's manifest: `LinkChecker.checkFolder(_:)`). Returns the problems (naming each page
    /// file) and the external links, which are listed, not fetched.
    public static func checkFolder(
        _ folder: String, files: [String], siteURL: String?
    ) -> (diagnostics: [Diagnostic], external: [String]) {
        let all = Set(files)
        let pages = files.filter { $0.hasSuffix(".html") || $0.hasSuffix(".htm") }
        let results = concurrentMap(pages.count) { index -> Result<PageCheck, Diagnostic> in
            let display = joinPath(folder, pages[index])
            guard let bytes = try? FileSystem.read(display, limit: 256 * 1_048_576) else {
                return .failure(.error("cannot read the page", path: display))
            }
            return .success(
                checkPage(
                    outputPath: pages[index], bytes: bytes, templatePath: display, sourceLinks: [], files: all,
                    siteURL: siteURL))
        }
        var log = DiagnosticLog(limit: 500)
        var checks: [PageCheck] = []
        for result in results {
            switch result {
            case .success(let check): checks.append(check)
            case .failure(let problem): log.report(problem)
            }
        }
        checkFragments(checks, log: &log)
        let external = externalLinks(of: checks)
        return (log.diagnostics, external)
    }

    /// A broken link's diagnostic: at the Markdown line where it was written, or at the template.
    private static func diagnostic(
        for link: String, reason: String, hint: String, outputPath: String, templatePath: String,
        templateSources: [TemplateSource] = [], sourceLinks: SourceLinks
    ) -> Diagnostic {
        // cmark %-escapes what a URL may not hold (`a b.html` is written `a%20b.html`): a link
        // matches its Markdown source as written or, failing that, once both are %-decoded.
        let decodedLink = SitePath.percentDecoded(link) ?? link
        guard
            let source = sourceLinks.first(whereDestination: { $0 == link })
                ?? sourceLinks.first(whereDestination: { (SitePath.percentDecoded($0) ?? $0) == decodedLink })
        else {
            if templatePath == outputPath || templatePath.hasSuffix("/" + outputPath) {
                // Checking a built folder: the page itself is all there is to name.
                return .error("link '\(link)' \(reason)", path: templatePath, hint: hint)
            }
            for template in templateSources {
                if let location = template.location(of: link) {
                    return .error("link '\(link)' on \(outputPath) \(reason)", path: template.path, at: location, hint: hint)
                }
            }
            return .error(
                "link '\(link)' on \(outputPath) \(reason)", path: templatePath,
                hint: "the link comes from this template or one of its partials; \(hint)")
        }
        // Name the link as the author wrote it, before it was rewritten to a page.
        let written = "link '\(source.writtenDestination)'"
        if let missing = source.missingContentFile {
            return .error(
                "\(written) names the content file \(missing), which does not exist", path: source.displayPath,
                at: source.location,
                hint: "check the file name; links to content files are relative to the file they are written in")
        }
        return .error("\(written) \(reason)", path: source.displayPath, at: source.location, hint: hint)
    }
}

/// Reads `href`, `src` and `id` attributes out of HTML. Enough for the regular HTML of templates and
/// cmark: tags, quoted and unquoted attributes, comments, and script/style bodies skipped.
package enum HTMLScanner {
    package static func scan(_ html: String) -> (links: [String], ids: Set<String>) {
        var html = html
        return html.withUTF8 { bytes in
            var links = LinkList()
            let ids = scan(bytes: bytes, knownParts: [], links: &links)
            return (links.links, ids)
        }
    }

    /// `knownParts` (in order, not overlapping): parts whose links and ids are known, so not read
    /// again where the scan comes to one outside any tag (see `RenderedPage.knownParts`).
    package static func scan(_ html: [UInt8], knownParts: [KnownHTMLPart] = []) -> (links: [String], ids: Set<String>) {
        html.withUnsafeBufferPointer { bytes in
            var links = LinkList()
            let ids = scan(bytes: bytes, knownParts: knownParts, links: &links)
            return (links.links, ids)
        }
    }

    /// What a scan hands each link it finds to, in the page's order: a link it read, as its bytes
    /// in the page (with any character references still in them), or the links of a known part.
    package protocol LinkVisitor {
        mutating func visit(linkBytes: UnsafeBufferPointer<UInt8>)
        mutating func visit(knownLinks: [String])
    }

    /// The links as text, their character references decoded.
    struct LinkList: LinkVisitor {
        var links: [String] = []

        init() {
            links.reserveCapacity(16)
        }

        mutating func visit(linkBytes: UnsafeBufferPointer<UInt8>) {
            links.append(HTMLScanner.link(linkBytes))
        }

        mutating func visit(knownLinks: [String]) {
            links += knownLinks
        }
    }

    /// The link an attribute value's bytes spell: its character references decoded.
    static func link(_ value: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: value, as: UTF8.self)
        return value.contains(UInt8(ascii: "&")) ? decodeEntities(text) : text
    }

    /// Whether `bytes[range]` spells `name` (lowercase ASCII letters), ignoring case.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] | 0x20 != expected[offset] {
            return false
        }
        return true
    }

    /// What each byte is inside a tag: 1 for a separator (white space and '/'), 2 for a byte that
    /// ends a name ('=', '>', quotes), 0 for a byte of a name.
    private static let byteClasses: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: "/"): return 1
        case UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): return 2
        default: return 0
        }
    }

    /// Reads `bytes`, handing each link to `links`; returns the ids.
    static func scan<Visitor: LinkVisitor>(
        bytes: UnsafeBufferPointer<UInt8>, knownParts: [KnownHTMLPart], links: inout Visitor
    ) -> Set<String> {
        byteClasses.withUnsafeBufferPointer { scan(bytes: bytes, classes: $0, knownParts: knownParts, links: &links) }
    }

    private static func scan<Visitor: LinkVisitor>(
        bytes: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>, knownParts: [KnownHTMLPart],
        links: inout Visitor
    ) -> Set<String> {
        var ids: Set<String> = []
        var index = 0
        let count = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { classes[Int(byte)] == 1 }
        @inline(__always) func isNameByte(_ byte: UInt8) -> Bool { classes[Int(byte)] == 0 }
        /// The offset of the next `byte` at or after `start`, or `count`. The first bytes are
        /// looked at here: most spans between tags and most attribute values are short, and a
        /// call to memchr for each cost a quarter of the scan.
        @inline(__always) func next(_ byte: UInt8, from start: Int) -> Int {
            var offset = start
            if let base = raw.baseAddress {
                // Eight bytes at a time, the first in the lowest byte: a byte of `word` is zero
                // where `byte` is, and the lowest byte the mask flags is the first zero (its
                // borrow can only flag bytes above it).
                let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
                let near = min(count, start + 32)
                while offset + 8 <= near {
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ pattern
                    let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                    if zeros != 0 { return offset + zeros.trailingZeroBitCount >> 3 }
                    offset += 8
                }
            }
            return raw.firstOffset(of: byte, from: offset) ?? count
        }
        func skip(past marker: StaticString) {
            let needle = marker.utf8Start
            let length = marker.utf8CodeUnitCount
            while true {
                index = next(needle[0], from: index)
                guard index + length <= count else {
                    index = count
                    return
                }
                var matched = true
                for offset in 1..<length where bytes[index + offset] | (offset > 1 ? 0x20 : 0) != needle[offset] {
                    matched = false
                    break
                }
                index += matched ? length : 1
                if matched { return }
            }
        }
        var nextKnownPart = 0
        while index < count {
            // Text between tags: jump to the next '<'.
            index = next(UInt8(ascii: "<"), from: index)
            guard index < count else { break }
            // A known part that starts here, outside any tag, is taken as known; one that started
            // inside a tag, or at a byte passed over, has been read as the rest is.
            while nextKnownPart < knownParts.count && knownParts[nextKnownPart].range.lowerBound < index {
                nextKnownPart += 1
            }
            if nextKnownPart < knownParts.count && knownParts[nextKnownPart].range.lowerBound == index {
                let part = knownParts[nextKnownPart]
                if !part.scan.links.isEmpty { links.visit(knownLinks: part.scan.links) }
                if !part.scan.ids.isEmpty { ids.formUnion(part.scan.ids) }
                index = part.range.upperBound
                nextKnownPart += 1
                continue
            }
            if index + 3 < count && bytes[index + 1] == UInt8(ascii: "!") && bytes[index + 2] == UInt8(ascii: "-")
                && bytes[index + 3] == UInt8(ascii: "-")
            {
                skip(past: "-->")
                continue
            }
            index += 1
            if index < count && bytes[index] == UInt8(ascii: "/") {
                // A closing tag has no attributes worth reading.
                index = next(UInt8(ascii: ">"), from: index) + 1
                continue
            }
            let nameStart = index
            while index < count && isNameByte(bytes[index]) { index += 1 }
            let tagName = nameStart..<index
            let isAnchor = equalsIgnoringCase(bytes, tagName, "a")
            while index < count && bytes[index] != UInt8(ascii: ">") {
                if isSpace(bytes[index]) {
                    index += 1
                    continue
                }
                let attributeStart = index
                while index < count && isNameByte(bytes[index]) { index += 1 }
                if index == attributeStart {
                    index += 1
                    continue
                }
                let attribute = attributeStart..<index
                while index < count && (bytes[index] == 0x20 || bytes[index] == 0x0A) { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
                index += 1
                while index < count && (bytes[index] == 0x20 || bytes[index] == 0x0A) { index += 1 }
                guard index < count else { break }
                let valueRange: Range<Int>
                if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let valueStart = index + 1
                    index = next(bytes[index], from: valueStart)
                    valueRange = valueStart..<index
                    index += 1
                } else {
                    let valueStart = index
                    while index < count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: ">") { index += 1 }
                    valueRange = valueStart..<index
                }
                let isLink = equalsIgnoringCase(bytes, attribute, "href") || equalsIgnoringCase(bytes, attribute, "src")
                let isID =
                    equalsIgnoringCase(bytes, attribute, "id") || (isAnchor && equalsIgnoringCase(bytes, attribute, "name"))
                guard isLink || isID else { continue }
                let valueBytes = UnsafeBufferPointer(rebasing: bytes[valueRange])
                if isLink {
                    links.visit(linkBytes: valueBytes)
                } else {
                    if ids.isEmpty { ids.reserveCapacity(8) }
                    ids.insert(link(valueBytes))
                }
            }
            index += 1
            if equalsIgnoringCase(bytes, tagName, "script") {
                skip(past: "</script")
            } else if equalsIgnoringCase(bytes, tagName, "style") {
                skip(past: "</style")
            }
        }
        return ids
    }

    /// Decodes the character references an attribute value may hold: `&amp;`, `&lt;`, `&gt;`,
    /// `&quot;`, `&apos;` and numeric ones (`&#39;`, `&#x27;`, which cmark writes for `'` in a
    /// link). Anything else, a lone `&` included, is left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let named: [(name: String, character: Character)] = [
            ("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("apos", "'"),
        ]
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            // A reference is at most a few characters up to its ';'.
            if let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") {
                let body = rest[afterAmpersand..<semicolon]
                var decoded: Character?
                if let entry = named.first(where: { $0.name == body }) {
                    decoded = entry.character
                } else if body.first == "#" {
                    let digits = body.dropFirst()
                    let isHex = digits.first == "x" || digits.first == "X"
                    let number = isHex ? digits.dropFirst() : digits
                    let value =
                        number.allSatisfy({ $0.isASCII && (isHex ? $0.isHexDigit : $0.isNumber) })
                        ? UInt32(number, radix: isHex ? 16 : 10) : nil
                    // A code point that is not a character (a surrogate, or past U+10FFFF) stays as written.
                    decoded = value.flatMap(Unicode.Scalar.init).map(Character.init)
                }
                if let decoded {
                    result.append(decoded)
                    rest = rest[rest.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = rest[afterAmpersand...]
        }
        result += rest
        return result
    }
}
