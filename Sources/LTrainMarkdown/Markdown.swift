import CCmark
import CMarkdownArena
import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import LTrainSupport

/// How Markdown is turned into HTML.
public struct MarkdownOptions: Sendable, Equatable {
    /// Keep raw HTML and every link scheme. Off by default: raw HTML is omitted and
    /// `javascript:`, `vbscript:`, `file:` and `data:` links are emptied.
    public var allowsUnsafeHTML: Bool
    /// Curly quotes and dashes.
    public var usesSmartPunctuation: Bool

    public init(allowsUnsafeHTML: Bool = false, usesSmartPunctuation: Bool = true) {
        self.allowsUnsafeHTML = allowsUnsafeHTML
        self.usesSmartPunctuation = usesSmartPunctuation
    }

    var cmarkOptions: Int32 {
        // No CMARK_OPT_VALIDATE_UTF8: the text comes from a Swift String, which is always valid UTF-8.
        var options = CMARK_OPT_DEFAULT | CMARK_OPT_SOURCEPOS
        if allowsUnsafeHTML { options |= CMARK_OPT_UNSAFE }
        if usesSmartPunctuation { options |= CMARK_OPT_SMART }
        return options
    }
}

/// A link or image written in Markdown, with the line where it stands (of the Markdown text given).
public struct MarkdownLink: Sendable, Equatable {
    /// The destination in the HTML (after rewriting).
    public var destination: String
    /// The destination as the author wrote it.
    public var writtenDestination: String
    public var line: Int
    public var column: Int
    public var isImage: Bool
}

extension MarkdownLink {
    /// Whether rendering its text again with `rewriteLink` gives this link the same destination
    /// (`Markdown.destination(ofWritten:options:rewriteLink:)`): when every link of a render does,
    /// rendering the same text with the same options and ids gives the same HTML.
    public func leadsTheSame(options: MarkdownOptions, rewriteLink: Markdown.LinkRewriter?) -> Bool {
        (Markdown.destination(ofWritten: writtenDestination, options: options, rewriteLink: rewriteLink)
            ?? writtenDestination) == destination
    }
}

/// Markdown rendered to HTML, with the links it contains and what in it is not CommonMark.
public struct RenderedMarkdown: Sendable, Equatable {
    /// The HTML as cmark wrote it, in UTF-8: kept as bytes, since a page writes them as they are
    /// and making a String of them would check every byte again.
    public var htmlBytes: [UInt8]
    /// The HTML as text (made from `htmlBytes` on each call).
    public var html: String { String(decoding: htmlBytes, as: UTF8.self) }
    public var links: [MarkdownLink]
    /// Found in the same parse (see `Markdown.notices(in:options:)`).
    public var notices: [MarkdownNotice] = []
    /// The text without markup, cut at each heading (only when asked for: `collectsSections`).
    public var sections: [MarkdownSection] = []
    /// What a scan of `htmlBytes` for links and ids finds, worked out from the document as it was
    /// rendered; nil when the HTML holds raw HTML (which only a scan can read).
    public var htmlScan: MarkdownHTMLScan?
}

/// The links (`href` and `src` values, as a browser reads them: with cmark's character
/// references decoded) and ids in HTML cmark wrote for a document, in the order it wrote them:
/// what a scan of the HTML from outside any tag finds, known without scanning it.
public struct MarkdownHTMLScan: Sendable, Equatable {
    public var links: [String]
    public var ids: [String]
}

/// A part of a document's text without markup: what comes before its first heading, or one
/// heading and what follows it up to the next, for search.
public struct MarkdownSection: Sendable, Equatable {
    /// The heading's plain text; empty for the part before the first heading.
    public var heading: String
    /// The heading's id, as the rendered HTML has it (nil for the part before the first heading).
    public var id: String?
    /// The words of the part (code included, raw HTML not), with runs of white space made one
    /// space, as UTF-8: the index copies them as they are.
    public var utf8: [UInt8]
    /// `utf8` as text.
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    public init(heading: String, id: String?, utf8: [UInt8]) {
        self.heading = heading
        self.id = id
        self.utf8 = utf8
    }

    public init(heading: String, id: String?, text: String) {
        self.init(heading: heading, id: id, utf8: Array(text.utf8))
    }
}

/// A document's first list split off: the rest of the document, and each item of the list.
public struct MarkdownListDocument: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        /// The item's inline content as HTML (no `<li>`, no `<p>`).
        public var html: String
        /// The item's text without markup.
        public var text: String
        public var line: Int
    }
    /// Everything but the first list, as HTML.
    public var introductionHTML: String
    public var items: [Item]
    public var links: [MarkdownLink]
    /// Found in the same parse (see `Markdown.notices(in:options:)`).
    public var notices: [MarkdownNotice] = []
}

/// The one place that talks to libcmark. Every node and buffer it gets from cmark is freed here.
public enum Markdown {
    /// Rewrites a link destination before rendering (for example `03-union-square.md` to its page);
    /// returning nil keeps it.
    public typealias LinkRewriter = @Sendable (String) -> String?

    /// `findsNotices: false` leaves `notices` empty (for a caller that looks for them itself).
    /// `reservedIDs`: ids the page holds besides the Markdown's (its template's, its checklist
    /// rows'), which no heading is given: a heading that would take one gets the next free one.
    /// `collectsSections`: also cut the text without markup at its headings (`sections`), in the
    /// same walk of the tree.
    public static func render(
        _ text: String, options: MarkdownOptions = MarkdownOptions(), findsNotices: Bool = true,
        reservedIDs: Set<String> = [], collectsSections: Bool = false, rewriteLink: LinkRewriter? = nil
    ) -> RenderedMarkdown {
        withScannedText(text, options: options, findsNotices: findsNotices) { scan in
            withDocument(text, options: options) { document in
                let walk = DocumentWalk(
                    document, options: options, rewriteLink: rewriteLink, collectsHeadings: true,
                    collectsText: collectsSections, footnoteLabels: footnoteLabels(in: text).labels, noticeScan: &scan)
                let headings = walk.headingIDs(reserving: reservedIDs)
                let html = htmlBytes(of: document, options: options, headings: headings)
                return RenderedMarkdown(
                    htmlBytes: html.bytes,
                    links: walk.links,
                    notices: scan?.finished() ?? [],
                    sections: collectsSections ? walk.sections(ids: headings.map(\.id)) : [],
                    htmlScan: walk.holdsRawHTML || !html.wroteIDs
                        ? nil : MarkdownHTMLScan(links: walk.htmlLinks, ids: headings.map(\.id)))
            }
        }
    }

    /// The sections `render(_:collectsSections: true)` gives, without rendering: for a text whose
    /// page was kept from the last build.
    public static func sections(
        of text: String, options: MarkdownOptions = MarkdownOptions(), reservedIDs: Set<String> = []
    ) -> [MarkdownSection] {
        withDocument(text, options: options) { document in
            var noScan: NoticeScan?
            let walk = DocumentWalk(
                document, options: options, rewriteLink: nil, collectsHeadings: true, collectsText: true,
                footnoteLabels: footnoteLabels(in: text).labels, noticeScan: &noScan)
            return walk.sections(ids: walk.headingIDs(reserving: reservedIDs).map(\.id))
        }
    }

    /// Splits off the first list of the document (at any depth of the top level), for checklists.
    /// Returns nil when the document has no list.
    public static func splitFirstList(
        _ text: String, options: MarkdownOptions = MarkdownOptions(), findsNotices: Bool = true,
        reservedIDs: Set<String> = [], rewriteLink: LinkRewriter? = nil
    ) -> MarkdownListDocument? {
        withScannedText(text, options: options, findsNotices: findsNotices) { scan in
            withDocument(text, options: options) { document -> MarkdownListDocument? in
                let links = DocumentWalk(
                    document, options: options, rewriteLink: rewriteLink, collectsHeadings: false, collectsText: false,
                    footnoteLabels: footnoteLabels(in: text).labels, noticeScan: &scan
                ).links
                let notices = scan?.finished() ?? []
                var child = cmark_node_first_child(document)
                while let node = child, cmark_node_get_type(node) != CMARK_NODE_LIST {
                    child = cmark_node_next(node)
                }
                guard let list = child else { return nil }
                var items: [MarkdownListDocument.Item] = []
                var item = cmark_node_first_child(list)
                while let current = item {
                    items.append(listItem(current, options: options))
                    item = cmark_node_next(current)
                }
                cmark_node_unlink(list)
                cmark_node_free(list)
                var noScan: NoticeScan?
                let headings = DocumentWalk(
                    document, options: options, rewriteLink: nil, collectsHeadings: true, collectsText: false, footnoteLabels: [],
                    noticeScan: &noScan)
                    .headingIDs(reserving: reservedIDs)
                return MarkdownListDocument(
                    introductionHTML: html(of: document, options: options, headings: headings), items: items, links: links,
                    notices: notices)
            }
        }
    }

    /// Calls `body` with a scan for the notices of `text` (see `NoticeScan`), to be walked with
    /// the document, or nil when the text holds none of the bytes any notice needs.
    static func withScannedText<Result>(
        _ text: String, options: MarkdownOptions, findsNotices: Bool, _ body: (inout NoticeScan?) -> Result
    ) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            var scan = findsNotices && mayHoldNotices(bytes, options: options) ? NoticeScan(bytes: bytes, options: options) : nil
            return body(&scan)
        }
    }

    /// The work of the footnote pass over `text` (see `DocumentWalk.footnoteLabels`): the bytes
    /// and nodes it read, for tests that hold it to linear growth.
    static func footnotePassWork(_ text: String) -> Int {
        withDocument(text, options: MarkdownOptions()) { document in
            let labels = footnoteLabels(in: text)
            var noScan: NoticeScan?
            let walk = DocumentWalk(
                document, options: MarkdownOptions(), rewriteLink: nil, collectsHeadings: false, collectsText: false,
                footnoteLabels: labels.labels, noticeScan: &noScan)
            return labels.work + walk.footnoteWork
        }
    }

    /// Every `X` of a `[^X]:` in the text (the labels footnote definitions give): the label runs
    /// from a `^` just after a `[` to the next `]`, with no bracket between, and a `:` after it.
    /// memchr finds each `^`, which prose rarely holds (a `]` search met every link); each look
    /// forward stops at the next bracket, so no byte is read twice. Returns the labels and the
    /// bytes read.
    static func footnoteLabels(in text: String) -> (labels: Set<String>, work: Int) {
        var text = text
        return text.withUTF8 { bytes in
            // Gathered in an array and made a set once: a set grown one label at a time cost more
            // than the labels' search.
            var labels: [String] = []
            guard let base = bytes.baseAddress else { return ([], 0) }
            var work = 0
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "^")), bytes.count - from) {
                let caret = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                work += caret + 1 - from
                from = caret + 1
                guard caret > 0, bytes[caret - 1] == UInt8(ascii: "[") else { continue }
                var close = caret + 1
                while close < bytes.count, bytes[close] != UInt8(ascii: "]"), bytes[close] != UInt8(ascii: "[") { close += 1 }
                work += close - caret
                from = max(from, close)
                if close + 1 < bytes.count, bytes[close] == UInt8(ascii: "]"), bytes[close + 1] == UInt8(ascii: ":") {
                    labels.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[caret..<close]), as: UTF8.self))
                }
            }
            return (Set(labels), work)
        }
    }

    // MARK: cmark plumbing

    /// A node's literal, as cmark keeps it (valid until the document is released).
    static func literal(of node: OpaquePointer) -> UnsafeBufferPointer<UInt8> {
        guard let literal = cmark_node_get_literal(node) else { return UnsafeBufferPointer(start: nil, count: 0) }
        let count = strlen(literal)
        return UnsafeRawPointer(literal).withMemoryRebound(to: UInt8.self, capacity: count) {
            UnsafeBufferPointer(start: $0, count: count)
        }
    }

    /// Parses `text` and hands the document to `body`. Every node and buffer of the document,
    /// and everything rendered from it, lives in this thread's Markdown arena and is released
    /// when `body` returns: `body` must copy out what it keeps (Swift strings do).
    static func withDocument<Result>(
        _ text: String, options: MarkdownOptions, _ body: (OpaquePointer) -> Result
    ) -> Result {
        ltrain_markdown_arena_begin()
        defer { ltrain_markdown_arena_end() }
        let allocator = ltrain_markdown_arena_allocator().assumingMemoryBound(to: cmark_mem.self)
        // The arena aborts rather than fail an allocation, so a parser is always made.
        guard let parser = cmark_parser_new_with_mem(options.cmarkOptions, allocator) else {
            fatalError("libcmark could not allocate memory for a parser")
        }
        var source = text
        source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                cmark_parser_feed(parser, characters.baseAddress, characters.count)
            }
        }
        let document = cmark_parser_finish(parser)
        cmark_parser_free(parser)
        // cmark_parser_finish returns NULL only when it cannot allocate memory.
        guard let document else { fatalError("libcmark could not allocate memory for a document") }
        // No cmark_node_free: walking the tree to free each node one by one is what the arena saves;
        // ltrain_markdown_arena_end releases the whole document at once.
        return body(document)
    }

    /// The node's HTML, with each heading's id written into its tag: cmark writes headings as a
    /// bare `<hN>`, found here in document order in cmark's own buffer, so the page's HTML is copied
    /// once. When raw HTML makes the headings differ, the HTML is left as it is rather than guess.
    private static func html(
        of node: OpaquePointer, options: MarkdownOptions, headings: [(level: Int, id: String)] = []
    ) -> String {
        String(decoding: htmlBytes(of: node, options: options, headings: headings).bytes, as: UTF8.self)
    }

    /// cmark's HTML of `node`, with each of `headings`' ids written into its heading's tag, in
    /// order (`wroteIDs`: false when a heading's tag was not found, and none was written). Valid
    /// UTF-8: cmark writes what it was given, and it was given a String's bytes.
    private static func htmlBytes(
        of node: OpaquePointer, options: MarkdownOptions, headings: [(level: Int, id: String)] = []
    ) -> (bytes: [UInt8], wroteIDs: Bool) {
        // Source positions are for diagnostics only: never written into the HTML.
        let renderOptions = options.cmarkOptions & ~CMARK_OPT_SOURCEPOS
        // The buffer is the arena's (the document's allocator): released with the document.
        guard let buffer = cmark_render_html(node, renderOptions) else { return ([], headings.isEmpty) }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: strlen(buffer))
        guard !headings.isEmpty else { return ([UInt8](bytes), true) }
        // Where each heading's tag ends (just before its `>`), in order.
        var insertions: [Int] = []
        insertions.reserveCapacity(headings.count)
        var searchFrom = 0
        for heading in headings {
            guard let found = firstHeadingTag(level: heading.level, in: bytes, from: searchFrom) else {
                return ([UInt8](bytes), false)
            }
            insertions.append(found + 3)
            searchFrom = found + 4
        }
        let extra = headings.reduce(0) { $0 + $1.id.utf8.count + 6 }
        let written = [UInt8](unsafeUninitializedCapacity: bytes.count + extra) { output, initialized in
            var written = 0
            var copied = 0
            func append(_ part: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[written..<written + part.count]))
                    .copyMemory(from: part)
                written += part.count
            }
            for (heading, insertion) in zip(headings, insertions) {
                append(UnsafeRawBufferPointer(rebasing: bytes[copied..<insertion]))
                append(UnsafeRawBufferPointer(start: StaticString(" id=\"").utf8Start, count: 5))
                heading.id.withUTF8Bytes { append(UnsafeRawBufferPointer($0)) }
                append(UnsafeRawBufferPointer(start: StaticString("\"").utf8Start, count: 1))
                copied = insertion
            }
            append(UnsafeRawBufferPointer(rebasing: bytes[copied...]))
            initialized = written
        }
        return (written, true)
    }

    /// The offset of the next `<hN>` (N = level) at or after `start`.
    private static func firstHeadingTag(level: Int, in html: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let digit = UInt8(ascii: "0") + UInt8(level)
        var offset = start
        while offset + 4 <= html.count {
            guard let at = html.firstOffset(of: UInt8(ascii: "<"), from: offset) else { return nil }
            if at + 4 <= html.count && html[at + 1] == UInt8(ascii: "h") && html[at + 2] == digit
                && html[at + 3] == UInt8(ascii: ">")
            {
                return at
            }
            offset = at + 1
        }
        return nil
    }

    /// One pass over a document: every link and image collected (destinations rewritten, and in
    /// safe mode dangerous ones emptied), and every heading with its plain text, in document order,
    /// inside block quotes and list items too.
    struct DocumentWalk {
        var links: [MarkdownLink] = []
        /// The `href` and `src` values the HTML will hold, as a scan reads them (`hrefAsScanned`),
        /// in order: a link or image inside an image's description is not one, as cmark writes
        /// the description as the image's `alt` text.
        var htmlLinks: [String] = []
        /// Whether the HTML will hold raw HTML from the text (raw HTML is on, and the text has some).
        private(set) var holdsRawHTML = false
        var headings: [(node: OpaquePointer, text: String)] = []
        /// With `collectsText`: the words before the first heading, then those after each heading.
        private var sectionTexts: [[UInt8]] = []
        /// Link nodes the footnote pass looked at, and references it put back as text.
        private(set) var footnoteWork = 0

        /// `footnoteLabels`: the labels of the text's `[^X]:` definitions (`footnoteLabels(in:)`).
        /// A footnote written GitHub's way (`[^1]` with a line `[^1]: note`) is read by CommonMark
        /// as a link to `note`: a link nobody meant, which the link check would report as broken.
        /// The walk puts each such reference back as the text it was written as (`[^1]`) once it is
        /// done (cmark's iterator may not see a container replaced under it); the notice scan has
        /// noted it as a footnote on the way (see `MarkdownNotice.Kind.footnote`).
        init(
            _ document: OpaquePointer, options: MarkdownOptions, rewriteLink: LinkRewriter?, collectsHeadings: Bool,
            collectsText: Bool, footnoteLabels: Set<String>, noticeScan: inout NoticeScan?
        ) {
            guard let iterator = cmark_iter_new(document) else { return }
            // Room for the links of a page of documentation, so most texts' lists never grow.
            links.reserveCapacity(32)
            htmlLinks.reserveCapacity(32)
            var footnoteReferences: [(link: OpaquePointer, label: String)] = []
            defer {
                cmark_iter_free(iterator)
                footnoteWork += footnoteReferences.count
                Self.unlink(footnoteReferences)
            }
            var blockLine = 1
            var headingText: String?
            /// How many images the walk is inside.
            var imageDepth = 0
            var sectionText = WordRun(capacity: collectsText ? 4096 : 16)
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                // A text's literal is measured once, for the notice scan and the section text.
                let literal =
                    type == CMARK_NODE_TEXT && event == CMARK_EVENT_ENTER && (collectsText || noticeScan != nil)
                    ? Markdown.literal(of: node) : nil
                noticeScan?.visit(node, type: type, entering: event == CMARK_EVENT_ENTER, literal: literal)
                if event == CMARK_EVENT_EXIT {
                    if type == CMARK_NODE_IMAGE { imageDepth -= 1 }
                    if type == CMARK_NODE_HEADING, let text = headingText {
                        headings.append((node, text))
                        headingText = nil
                    } else if collectsText && type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue {
                        // A block ends: its last word is not run together with the next block's first.
                        sectionText.appendSpace()
                    }
                    continue
                }
                switch type {
                case CMARK_NODE_HEADING where collectsHeadings:
                    headingText = ""
                    if collectsText { sectionTexts.append(sectionText.take()) }
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    if headingText != nil {
                        headingText? += Markdown.plainText(ofInline: node, type: type)
                    } else if let literal, collectsText {
                        sectionText.append(literal)
                    } else if collectsText {
                        sectionText.append(inline: node, type: type)
                    }
                case CMARK_NODE_CODE_BLOCK where collectsText:
                    sectionText.append(Markdown.literal(of: node))
                    sectionText.appendSpace()
                case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                    if type == CMARK_NODE_LINK, !footnoteLabels.isEmpty {
                        footnoteWork += 1
                        if let label = Self.footnoteLabel(ofLink: node), footnoteLabels.contains(label) {
                            footnoteReferences.append((node, label))
                            continue
                        }
                    }
                    let line = Int(cmark_node_get_start_line(node))
                    let link = Self.link(node, type: type, line: line > 0 ? line : blockLine, options: options, rewriteLink: rewriteLink)
                    if imageDepth == 0 { htmlLinks.append(Markdown.hrefAsScanned(link.destination)) }
                    if type == CMARK_NODE_IMAGE { imageDepth += 1 }
                    links.append(link)
                case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                    if options.allowsUnsafeHTML { holdsRawHTML = true }
                default:
                    if type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue {
                        let line = Int(cmark_node_get_start_line(node))
                        if line > 0 { blockLine = line }
                    }
                }
            }
            if collectsText { sectionTexts.append(sectionText.take()) }
        }

        /// `^1` for a link whose whole text is the one text `^1`: what `[^1]` is when a line
        /// `[^1]: …` defines it.
        private static func footnoteLabel(ofLink node: OpaquePointer) -> String? {
            guard let child = cmark_node_first_child(node), cmark_node_next(child) == nil,
                cmark_node_get_type(child) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(child),
                literal.pointee == CChar(UInt8(ascii: "^"))
            else { return nil }
            return String(cString: literal)
        }

        /// Puts each footnote reference back as the text it was written as.
        private static func unlink(_ references: [(link: OpaquePointer, label: String)]) {
            guard !references.isEmpty else { return }
            let allocator = ltrain_markdown_arena_allocator().assumingMemoryBound(to: cmark_mem.self)
            for reference in references {
                guard let replacement = cmark_node_new_with_mem(CMARK_NODE_TEXT, allocator) else { continue }
                cmark_node_set_literal(replacement, "[\(reference.label)]")
                cmark_node_insert_before(reference.link, replacement)
                // Not freed: the arena releases the whole document at once (see withDocument).
                cmark_node_unlink(reference.link)
            }
        }

        private static func link(
            _ node: OpaquePointer, type: cmark_node_type, line: Int, options: MarkdownOptions, rewriteLink: LinkRewriter?
        ) -> MarkdownLink {
            let written = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            var destination = written
            if let changed = Markdown.destination(ofWritten: written, options: options, rewriteLink: rewriteLink) {
                destination = changed
                cmark_node_set_url(node, changed)
            }
            return MarkdownLink(
                destination: destination, writtenDestination: written, line: line,
                column: max(1, Int(cmark_node_get_start_column(node))), isImage: type == CMARK_NODE_IMAGE)
        }

        /// The collected text as sections, the headings' `ids` (`headingIDs`) in order.
        func sections(ids: [String]) -> [MarkdownSection] {
            var sections: [MarkdownSection] = []
            for (index, words) in sectionTexts.enumerated() {
                if index == 0 {
                    if !words.isEmpty { sections.append(MarkdownSection(heading: "", id: nil, utf8: words)) }
                    continue
                }
                let heading = index - 1 < headings.count ? Markdown.collapsingWhiteSpace(headings[index - 1].text) : ""
                sections.append(MarkdownSection(heading: heading, id: index - 1 < ids.count ? ids[index - 1] : nil, utf8: words))
            }
            return sections
        }

        /// Moves every heading one level down when there is a level-1 heading (the page's title is
        /// its one `<h1>`), then gives each an id from its text (`## When it opened` →
        /// `when-it-opened`), unique in the document, so `#fragment` links to headings work.
        func headingIDs(reserving reserved: Set<String> = []) -> [(level: Int, id: String)] {
            if headings.contains(where: { cmark_node_get_heading_level($0.node) == 1 }) {
                for heading in headings {
                    cmark_node_set_heading_level(heading.node, min(6, cmark_node_get_heading_level(heading.node) + 1))
                }
            }
            var ids = UniqueSlugs(reserving: reserved)
            return headings.map { heading in
                let slug = slugify(heading.text)
                return (Int(cmark_node_get_heading_level(heading.node)), ids.claim(slug.isEmpty ? "section" : slug))
            }
        }
    }

    private static func listItem(_ item: OpaquePointer, options: MarkdownOptions) -> MarkdownListDocument.Item {
        var html = ""
        var text = ""
        let line = Int(cmark_node_get_start_line(item))
        // The item's first paragraph (or heading) supplies the label; nested blocks are ignored.
        var block = cmark_node_first_child(item)
        while let current = block {
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING {
                var inline = cmark_node_first_child(current)
                while let node = inline {
                    html += Self.html(of: node, options: options)
                    inline = cmark_node_next(node)
                }
                text = plainText(of: current)
                break
            }
            block = cmark_node_next(current)
        }
        return MarkdownListDocument.Item(
            html: html.trimmingTrailingNewlines(), text: text, line: line)
    }

    private static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        guard let iterator = cmark_iter_new(node) else { return text }
        defer { cmark_iter_free(iterator) }
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard let current = cmark_iter_get_node(iterator),
                cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER
            else { continue }
            text += plainText(ofInline: current, type: cmark_node_get_type(current))
        }
        return text
    }

    /// What one node adds to a text without markup: its literal for text and code, a space for a
    /// line break, nothing for anything else (its children add theirs).
    private static func plainText(ofInline node: OpaquePointer, type: cmark_node_type) -> String {
        switch type {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE:
            return cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
            return " "
        default:
            return ""
        }
    }

    /// `text` with each run of ASCII white space made one space and none at either end.
    static func collapsingWhiteSpace(_ text: String) -> String {
        var run = WordRun(capacity: text.utf8.count)
        var text = text
        text.withUTF8 { run.append($0) }
        return run.text
    }

    /// Words gathered from cmark's literals straight into UTF-8 bytes, each run of ASCII white
    /// space made one space and none at either end: a section's text for search, built without a
    /// String per node, in a buffer of its own that each section reuses (`take()`), appended to
    /// with a copy (an Array's append, once per cmark text node, and its growth cost a build more
    /// than the copying).
    struct WordRun: ~Copyable {
        private var base: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var count = 0
        private var pendingSpace = false

        init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        mutating func appendSpace() {
            pendingSpace = count > 0
        }

        /// The words so far; the run starts again, empty, in the same buffer.
        mutating func take() -> [UInt8] {
            let words = utf8
            count = 0
            pendingSpace = false
            return words
        }

        @inline(__always)
        private mutating func append(_ start: UnsafePointer<UInt8>, count added: Int) {
            if count + added > capacity { grow(to: count + added) }
            (base + count).initialize(from: start, count: added)
            count += added
        }

        @inline(__always)
        private mutating func appendPendingSpace() {
            if count == capacity { grow(to: count + 1) }
            (base + count).initialize(to: 0x20)
            count += 1
        }

        private mutating func grow(to needed: Int) {
            let larger = max(capacity * 2, needed)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            moved.initialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = larger
        }

        @inline(__always)
        mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
            func isSpace(_ byte: UInt8) -> Bool {
                byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
            }
            // Copied a run at a time, a run going on over single spaces between words (most of a
            // literal is one run): a section's text is most of a site's text.
            var index = 0
            while index < text.count {
                if isSpace(text[index]) {
                    pendingSpace = count > 0
                    index += 1
                    continue
                }
                var end = index + 1
                while end < text.count {
                    // Eight bytes at a time up to the first that may end the run (the lowest a
                    // mask flags: its borrows only flag bytes above it), which is then looked at.
                    if let base = text.baseAddress, text.count >= 9 {
                        let mask =
                            end + 9 <= text.count
                            ? Self.runEnds(base + end) : Self.runEnds(lastBytesOf: base, count: text.count, from: end)
                        if mask == 0 {
                            end += 8
                            continue
                        }
                        end += mask.trailingZeroBitCount >> 3
                        if end >= text.count { break }
                    }
                    if !isSpace(text[end]) {
                        end += 1
                    } else if text[end] == 0x20 && end + 1 < text.count && !isSpace(text[end + 1]) {
                        end += 2
                    } else {
                        break
                    }
                }
                if pendingSpace {
                    appendPendingSpace()
                    pendingSpace = false
                }
                if let start = text.baseAddress { append(start + index, count: end - index) }
                index = end
            }
        }

        /// What `Markdown.plainText(ofInline:type:)` gives for the node.
        mutating func append(inline node: OpaquePointer, type: cmark_node_type) {
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: append(Markdown.literal(of: node))
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: appendSpace()
            default: break
            }
        }

        var utf8: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

        /// The high bit of each of the eight bytes at `start` where a run may end: one below 0x20
        /// (all white space but the space is), or a space followed by a byte up to 0x20; zero when
        /// none. Tested on all eight at once, with the byte after them: `(x - n…) & ~x & 0x80…`
        /// flags every byte of `x` below `n` (and may flag more above one it flags, which only
        /// sends those bytes the slow way).
        @inline(__always)
        private static func runEnds(_ start: UnsafePointer<UInt8>) -> UInt64 {
            runEnds(
                word: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self),
                next: UnsafeRawPointer(start + 1).loadUnaligned(as: UInt64.self))
        }

        /// `runEnds` for the last 1 to 8 bytes of a text of at least 9, from `start`: the eight
        /// bytes that end the text, shifted down so that the byte at `start` comes first and zeros
        /// follow the text's end, which the mask flags (the run ends there at the latest), so that
        /// the last bytes of cmark's many short literals are not judged one at a time.
        @inline(__always)
        private static func runEnds(lastBytesOf base: UnsafePointer<UInt8>, count: Int, from start: Int) -> UInt64 {
            let last = UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
            let shift = UInt64(8 * (8 - (count - start)))
            return runEnds(word: last >> shift, next: last >> (shift + 8))
        }

        /// The mask of `runEnds` for eight bytes (`word`, the first in its lowest byte) and the
        /// eight that start one byte later (`next`).
        @inline(__always)
        private static func runEnds(word: UInt64, next: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func below(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highs }
            let spaces = below(word ^ (ones &* 0x20), 1)
            return below(word, 0x20) | spaces & below(next, 0x21)
        }

        /// cmark's literals are UTF-8 from a Swift String, so nothing is repaired.
        var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }
    }

    /// Whether a scan reads `byte` of a link's destination as it is in cmark's HTML: cmark writes
    /// the bytes of its `HREF_SAFE` table as they are (letters, digits, `!#$%()*+,-./:;=?@_~`), `&`
    /// and `'` as character references the scan decodes, and any other as `%XX`. Two bit masks,
    /// bytes 0–63 and 64–127 (none from 128 up); `MarkdownHTMLScanTests` holds them to cmark's
    /// output for every byte.
    @inline(__always)
    private static func readsAsWritten(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0xAFFF_FFFA_0000_0000
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFF
        return byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 ? (high >> UInt64(byte - 64)) & 1 == 1 : false
    }

    /// The value a scan of cmark's HTML reads for a link to `destination` (see `readsAsWritten`).
    /// The destination itself, not a copy, when every byte reads as written (most do).
    static func hrefAsScanned(_ destination: String) -> String {
        let escapes = destination.withUTF8Bytes { bytes in
            for byte in bytes where !readsAsWritten(byte) { return true }
            return false
        }
        guard escapes else { return destination }
        return destination.withUTF8Bytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 3) { scanned in
                var count = 0
                for byte in bytes {
                    if readsAsWritten(byte) {
                        scanned[count] = byte
                        count += 1
                    } else {
                        // A byte cmark escapes is never unreserved, so this writes its `%XX`.
                        count += SitePath.writePercentEncoded(byte, into: scanned, at: count)
                    }
                }
                return count
            }
        }
    }

    /// Schemes that run code or smuggle content, in lowercase.
    private static let dangerousSchemes: [[UInt8]] = ["javascript:", "vbscript:", "data:", "file:"].map { Array($0.utf8) }
    private static let longestDangerousScheme = dangerousSchemes.map(\.count).max() ?? 0
    /// The first byte of each, in lowercase.
    private static let dangerousFirstBytes: [UInt8] = dangerousSchemes.compactMap(\.first)

    /// The destination a link written to `written` has in the HTML, or nil when it keeps it:
    /// rewritten by `rewriteLink`, then emptied when it is dangerous and raw HTML is off.
    package static func destination(ofWritten written: String, options: MarkdownOptions, rewriteLink: LinkRewriter?) -> String? {
        let rewritten = rewriteLink?(written)
        if !options.allowsUnsafeHTML && isDangerous(rewritten ?? written) { return "" }
        return rewritten
    }

    /// A scheme that runs code or smuggles content: checked after removing whitespace and control
    /// characters, the way browsers read URLs, and ignoring ASCII case. Byte by byte, without
    /// allocating: it runs for every link of every page.
    static func isDangerous(_ destination: String) -> Bool {
        // Most links start with a byte no dangerous scheme does (`h` of `https:`, a digit, `.`,
        // `#`): those are told at their first byte.
        if let first = destination.utf8.first, first > 0x20, first != 0x7F,
            !dangerousFirstBytes.contains(first | (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") ? 0x20 : 0))
        {
            return false
        }
        let longest = longestDangerousScheme
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longest) { prefix in
            var count = 0
            for byte in destination.utf8 where byte > 0x20 && byte != 0x7F {
                prefix[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                count += 1
                if byte == UInt8(ascii: ":") || count == longest { break }
            }
            let folded = UnsafeBufferPointer(rebasing: prefix[..<count])
            return dangerousSchemes.contains { folded.starts(with: $0) }
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var result = self
        while result.last == "\n" { result.removeLast() }
        return result
    }
}
