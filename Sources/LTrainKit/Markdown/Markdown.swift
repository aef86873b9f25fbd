import CCmark
import CMarkdownArena
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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

/// Markdown rendered to HTML, with the links it contains.
public struct RenderedMarkdown: Sendable, Equatable {
    public var html: String
    public var links: [MarkdownLink]
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
}

/// The one place that talks to libcmark. Every node and buffer it gets from cmark is freed here.
public enum Markdown {
    /// Rewrites a link destination before rendering (for example `03-union-square.md` to its page);
    /// returning nil keeps it.
    public typealias LinkRewriter = @Sendable (String) -> String?

    public static func render(
        _ text: String, options: MarkdownOptions = MarkdownOptions(), rewriteLink: LinkRewriter? = nil
    ) -> RenderedMarkdown {
        withDocument(text, options: options) { document in
            let links = prepareLinks(in: document, options: options, rewriteLink: rewriteLink)
            demoteHeadingsBelowTitle(in: document)
            let headings = headingIDs(in: document)
            return RenderedMarkdown(html: addingHeadingIDs(headings, to: html(of: document, options: options)), links: links)
        }
    }

    /// Splits off the first list of the document (at any depth of the top level), for checklists.
    /// Returns nil when the document has no list.
    public static func splitFirstList(
        _ text: String, options: MarkdownOptions = MarkdownOptions(), rewriteLink: LinkRewriter? = nil
    ) -> MarkdownListDocument? {
        withDocument(text, options: options) { document -> MarkdownListDocument? in
            let links = prepareLinks(in: document, options: options, rewriteLink: rewriteLink)
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
            demoteHeadingsBelowTitle(in: document)
            let headings = headingIDs(in: document)
            return MarkdownListDocument(
                introductionHTML: addingHeadingIDs(headings, to: html(of: document, options: options)), items: items,
                links: links)
        }
    }

    // MARK: cmark plumbing

    /// Parses `text` and hands the document to `body`. Every node and buffer of the document,
    /// and everything rendered from it, lives in this thread's Markdown arena and is released
    /// when `body` returns: `body` must copy out what it keeps (Swift strings do).
    private static func withDocument<Result>(
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

    private static func html(of node: OpaquePointer, options: MarkdownOptions) -> String {
        // Source positions are for diagnostics only: never written into the HTML.
        let renderOptions = options.cmarkOptions & ~CMARK_OPT_SOURCEPOS
        // The buffer is the arena's (the document's allocator): released with the document.
        guard let buffer = cmark_render_html(node, renderOptions) else { return "" }
        return String(cString: buffer)
    }

    /// The page's title is its one `<h1>`: when the Markdown has level-1 headings, every heading
    /// moves down one level (`#` → `<h2>`, `##` → `<h3>`, at most `<h6>`).
    private static func demoteHeadingsBelowTitle(in document: OpaquePointer) {
        var headings: [OpaquePointer] = []
        forEachHeading(in: document) { headings.append($0) }
        guard headings.contains(where: { cmark_node_get_heading_level($0) == 1 }) else { return }
        for heading in headings {
            cmark_node_set_heading_level(heading, min(6, cmark_node_get_heading_level(heading) + 1))
        }
    }

    /// Visits headings in document order, inside block quotes and list items too.
    private static func forEachHeading(in document: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        var node = cmark_node_first_child(document)
        var stack: [OpaquePointer] = []
        while let current = node {
            if cmark_node_get_type(current) == CMARK_NODE_HEADING {
                body(current)
                node = cmark_node_next(current)
            } else if let child = cmark_node_first_child(current),
                cmark_node_get_type(child).rawValue < CMARK_NODE_FIRST_INLINE.rawValue
            {
                if let next = cmark_node_next(current) { stack.append(next) }
                node = child
            } else {
                node = cmark_node_next(current)
            }
            if node == nil { node = stack.popLast() }
        }
    }

    /// An id for every heading, from its text (`## When it opened` → `when-it-opened`), unique in the
    /// document, so `#fragment` links to headings work.
    private static func headingIDs(in document: OpaquePointer) -> [(level: Int, id: String)] {
        var headings: [(Int, String)] = []
        var used: Set<String> = []
        forEachHeading(in: document) { heading in
            let text = slugify(plainText(of: heading))
            let id = uniqueSlug(text.isEmpty ? "section" : text, among: &used)
            headings.append((Int(cmark_node_get_heading_level(heading)), id))
        }
        return headings
    }

    /// cmark writes headings as a bare `<hN>`; give each its id, in document order. When raw HTML
    /// makes the count differ, the HTML is left as it is rather than guess.
    private static func addingHeadingIDs(_ headings: [(level: Int, id: String)], to html: String) -> String {
        guard !headings.isEmpty else { return html }
        var result = ""
        result.reserveCapacity(html.utf8.count + headings.count * 24)
        var rest = html.utf8[...]
        for heading in headings {
            let tag = Array("<h\(heading.level)>".utf8)
            guard let start = firstRange(of: tag, in: rest) else { return html }
            result += String(decoding: rest[..<start], as: UTF8.self)
            result += "<h\(heading.level) id=\"\(heading.id)\">"
            rest = rest[rest.index(start, offsetBy: tag.count)...]
        }
        result += String(decoding: rest, as: UTF8.self)
        return result
    }

    private static func firstRange(of needle: [UInt8], in haystack: Substring.UTF8View) -> String.Index? {
        var index = haystack.startIndex
        while let candidate = haystack[index...].firstIndex(of: needle[0]) {
            if haystack[candidate...].starts(with: needle) { return candidate }
            index = haystack.index(after: candidate)
        }
        return nil
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
            switch cmark_node_get_type(current) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(current) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        return text
    }

    /// Collects every link and image, rewrites destinations, and in safe mode empties dangerous ones.
    private static func prepareLinks(
        in document: OpaquePointer, options: MarkdownOptions, rewriteLink: LinkRewriter?
    ) -> [MarkdownLink] {
        var links: [MarkdownLink] = []
        guard let iterator = cmark_iter_new(document) else { return links }
        defer { cmark_iter_free(iterator) }
        var blockLine = 1
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator), cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER
            else { continue }
            let type = cmark_node_get_type(node)
            let line = Int(cmark_node_get_start_line(node))
            if line > 0 && type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue { blockLine = line }
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let written = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            var destination = written
            if let rewritten = rewriteLink?(destination) {
                destination = rewritten
                cmark_node_set_url(node, rewritten)
            }
            if !options.allowsUnsafeHTML && isDangerous(destination) {
                destination = ""
                cmark_node_set_url(node, "")
            }
            links.append(
                MarkdownLink(
                    destination: destination, writtenDestination: written, line: line > 0 ? line : blockLine,
                    column: max(1, Int(cmark_node_get_start_column(node))), isImage: type == CMARK_NODE_IMAGE))
        }
        return links
    }

    /// A scheme that runs code or smuggles content: checked after removing whitespace and control
    /// characters, the way browsers read URLs.
    static func isDangerous(_ destination: String) -> Bool {
        let folded = String(
            destination.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init)
        ).lowercased()
        return ["javascript:", "vbscript:", "data:", "file:"].contains { folded.hasPrefix($0) }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var result = self
        while result.last == "\n" { result.removeLast() }
        return result
    }
}
