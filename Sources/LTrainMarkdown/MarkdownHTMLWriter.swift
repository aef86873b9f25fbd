import CCmark

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a cmark document as HTML, byte for byte what libcmark's `cmark_render_html` writes
/// (its `html.c`, without source positions), with two differences a page needs:
/// - each heading's id is written into its tag (`<h2 id="when-it-opened">`), as it is rendered,
///   instead of being looked for in the HTML afterwards;
/// - a link or image whose title is empty (`[a](b "")`) has no `title` attribute: cmark's API
///   tells an empty title from none only by where the pointer it returns points.
///
/// Text is escaped eight bytes at a time, so prose (few `"&<>`) is copied in runs.
struct MarkdownHTMLWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private let allowsUnsafeHTML: Bool

    init(capacity: Int, allowsUnsafeHTML: Bool) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
        self.allowsUnsafeHTML = allowsUnsafeHTML
    }

    deinit { base.deallocate() }

    /// The HTML of `root` and everything under it. `headingIDs`: the id of each heading under
    /// `root`, in document order (a heading past the end of the list gets none).
    static func html(of root: OpaquePointer, allowsUnsafeHTML: Bool, headingIDs: [String], capacity: Int) -> [UInt8] {
        var writer = MarkdownHTMLWriter(capacity: capacity, allowsUnsafeHTML: allowsUnsafeHTML)
        writer.write(root, headingIDs: headingIDs)
        return writer.bytes
    }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    // MARK: The tree

    mutating func write(_ root: OpaquePointer, headingIDs: [String]) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        var headingIndex = 0
        // The image whose description is being written as its `alt` text: inside it, only text
        // is written (cmark's "plain" state).
        var altTextOf: OpaquePointer?
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let entering = event == CMARK_EVENT_ENTER
            let type = cmark_node_get_type(node)
            if altTextOf == node { altTextOf = nil }
            if altTextOf != nil {
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE: appendEscaped(Markdown.literal(of: node))
                case CMARK_NODE_LINEBREAK, CMARK_NODE_SOFTBREAK: append(UInt8(ascii: " "))
                default: break
                }
                continue
            }
            switch type {
            case CMARK_NODE_TEXT:
                appendEscaped(Markdown.literal(of: node))
            case CMARK_NODE_SOFTBREAK:
                append(UInt8(ascii: "\n"))
            case CMARK_NODE_LINEBREAK:
                append("<br />\n")
            case CMARK_NODE_CODE:
                append("<code>")
                appendEscaped(Markdown.literal(of: node))
                append("</code>")
            case CMARK_NODE_EMPH:
                append(entering ? "<em>" : "</em>")
            case CMARK_NODE_STRONG:
                append(entering ? "<strong>" : "</strong>")
            case CMARK_NODE_LINK:
                if entering {
                    append("<a href=\"")
                    appendDestination(of: node)
                    appendTitle(of: node)
                    append("\">")
                } else {
                    append("</a>")
                }
            case CMARK_NODE_IMAGE:
                if entering {
                    append("<img src=\"")
                    appendDestination(of: node)
                    append("\" alt=\"")
                    altTextOf = node
                } else {
                    appendTitle(of: node)
                    append("\" />")
                }
            case CMARK_NODE_HTML_INLINE:
                appendRawHTML(of: node)
            case CMARK_NODE_PARAGRAPH:
                // A paragraph of a tight list's item has no tags.
                if let item = cmark_node_parent(node), let list = cmark_node_parent(item),
                    cmark_node_get_type(list) == CMARK_NODE_LIST, cmark_node_get_list_tight(list) != 0
                {
                    break
                }
                if entering {
                    newLine()
                    append("<p>")
                } else {
                    append("</p>\n")
                }
            case CMARK_NODE_HEADING:
                let level = UInt8(truncatingIfNeeded: cmark_node_get_heading_level(node))
                if entering {
                    newLine()
                    append("<h")
                    append(UInt8(ascii: "0") &+ level)
                    if headingIndex < headingIDs.count {
                        append(" id=\"")
                        var id = headingIDs[headingIndex]
                        id.withUTF8 { append($0) }
                        append(UInt8(ascii: "\""))
                    }
                    headingIndex += 1
                    append(UInt8(ascii: ">"))
                } else {
                    append("</h")
                    append(UInt8(ascii: "0") &+ level)
                    append(">\n")
                }
            case CMARK_NODE_LIST:
                let isBullet = cmark_node_get_list_type(node) == CMARK_BULLET_LIST
                if entering {
                    newLine()
                    let start = cmark_node_get_list_start(node)
                    if isBullet {
                        append("<ul>\n")
                    } else if start == 1 {
                        append("<ol>\n")
                    } else {
                        append("<ol start=\"")
                        append(Array(String(start).utf8))
                        append("\">\n")
                    }
                } else {
                    append(isBullet ? "</ul>\n" : "</ol>\n")
                }
            case CMARK_NODE_ITEM:
                if entering {
                    newLine()
                    append("<li>")
                } else {
                    append("</li>\n")
                }
            case CMARK_NODE_BLOCK_QUOTE:
                newLine()
                append(entering ? "<blockquote>\n" : "</blockquote>\n")
            case CMARK_NODE_CODE_BLOCK:
                newLine()
                let info = Markdown.cString(cmark_node_get_fence_info(node))
                // The info string's first word names the language.
                let language = info.prefix { !Self.isCmarkSpace($0) }
                if info.isEmpty {
                    append("<pre><code>")
                } else {
                    append("<pre><code class=\"language-")
                    appendEscaped(UnsafeBufferPointer(rebasing: language))
                    append("\">")
                }
                appendEscaped(Markdown.literal(of: node))
                append("</code></pre>\n")
            case CMARK_NODE_HTML_BLOCK:
                newLine()
                appendRawHTML(of: node)
                newLine()
            case CMARK_NODE_THEMATIC_BREAK:
                newLine()
                append("<hr />\n")
            case CMARK_NODE_CUSTOM_BLOCK, CMARK_NODE_CUSTOM_INLINE:
                // Never made by the parser; cmark writes what the node was given to write.
                let markup = Markdown.cString(entering ? cmark_node_get_on_enter(node) : cmark_node_get_on_exit(node))
                if type == CMARK_NODE_CUSTOM_BLOCK {
                    newLine()
                    if !markup.isEmpty {
                        append(markup)
                        newLine()
                    }
                } else {
                    append(markup)
                }
            default:
                // The document, and any type a later cmark adds (which writes nothing here).
                break
            }
        }
    }

    /// cmark's white space for info strings: tab, line feed, form feed, carriage return, space.
    private static func isCmarkSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private mutating func appendRawHTML(of node: OpaquePointer) {
        if allowsUnsafeHTML {
            append(Markdown.literal(of: node))
        } else {
            append("<!-- raw HTML omitted -->")
        }
    }

    private mutating func appendDestination(of node: OpaquePointer) {
        let destination = Markdown.cString(cmark_node_get_url(node))
        if allowsUnsafeHTML || !Self.isDangerousToCmark(destination) { appendEscapedHref(destination) }
    }

    private mutating func appendTitle(of node: OpaquePointer) {
        let title = Markdown.cString(cmark_node_get_title(node))
        guard !title.isEmpty else { return }
        append("\" title=\"")
        appendEscaped(title)
    }

    /// cmark's own test for a dangerous destination, which it empties unless raw HTML is on:
    /// `javascript:`, `vbscript:`, `file:` and `data:` (but `data:image/png`, `gif`, `jpeg`
    /// and `webp`) at the start, in any case. ltrain empties a wider set before (see
    /// `Markdown.isDangerous`); this keeps the HTML cmark's for any destination.
    static func isDangerousToCmark(_ destination: UnsafeBufferPointer<UInt8>) -> Bool {
        func startsWith(_ prefix: StaticString, at offset: Int = 0) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard destination.count >= offset + count else { return false }
            let expected = prefix.utf8Start
            for index in 0..<count {
                let byte = destination[offset + index]
                let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if folded != expected[index] { return false }
            }
            return true
        }
        if startsWith("data:image/") {
            if startsWith("png", at: 11) || startsWith("gif", at: 11) || startsWith("jpeg", at: 11)
                || startsWith("webp", at: 11)
            {
                return false
            }
        }
        return startsWith("javascript:") || startsWith("vbscript:") || startsWith("file:") || startsWith("data:")
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func reserve(_ added: Int) {
        if count + added > capacity { grow(to: count + added) }
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
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).initialize(from: text.utf8Start, count: length)
        count += length
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: start, count: bytes.count)
        count += bytes.count
    }

    private mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A line feed unless the HTML is empty or already ends with one (cmark's `cr`).
    @inline(__always)
    private mutating func newLine() {
        if count > 0 && base[count - 1] != UInt8(ascii: "\n") { append(UInt8(ascii: "\n")) }
    }

    /// The high bit of each byte of `word` that is `"`, `&`, `<` or `>`; the lowest one set marks
    /// the first such byte (a borrow can only flag bytes above a true one). Two tests cover the
    /// four: `"` and `&` are the bytes that make `&` when 0x04 is set in them, `<` and `>` the
    /// bytes that make `>` when 0x02 is.
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        @inline(__always) func zeros(_ value: UInt64) -> UInt64 {
            (value &- 0x0101_0101_0101_0101) & ~value & 0x8080_8080_8080_8080
        }
        return zeros((word | 0x0404_0404_0404_0404) ^ 0x2626_2626_2626_2626)
            | zeros((word | 0x0202_0202_0202_0202) ^ 0x3E3E_3E3E_3E3E_3E3E)
    }

    /// `text` with `"`, `&`, `<` and `>` written as character references (cmark's `escape_html`:
    /// `'` and `/` stay as they are).
    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        guard let start = text.baseAddress else { return }
        let length = text.count
        var runStart = 0
        var index = 0
        while index < length {
            if index + 8 <= length {
                let word = UInt64(littleEndian: UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount >> 3
            } else {
                let byte = start[index]
                guard byte == 0x22 || byte == 0x26 || byte == 0x3C || byte == 0x3E else {
                    index += 1
                    continue
                }
            }
            append(UnsafeBufferPointer(start: start + runStart, count: index - runStart))
            switch start[index] {
            case 0x22: append("&quot;")
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            default: append("&gt;")
            }
            index += 1
            runStart = index
        }
        append(UnsafeBufferPointer(start: start + runStart, count: length - runStart))
    }

    /// Which bytes a destination keeps as they are (cmark's `HREF_SAFE`): letters, digits and
    /// `-_.+!*(),%#@?=;:/$`. `&` and `'` become character references, any other byte `%XX`.
    private static let hrefSafe: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-_.+!*(),%#@?=;:/$".utf8.contains(byte)
        }
    }

    private mutating func appendEscapedHref(_ destination: UnsafeBufferPointer<UInt8>) {
        let hexDigits: StaticString = "0123456789ABCDEF"
        Self.hrefSafe.withUnsafeBufferPointer { safe in
            var runStart = 0
            for index in destination.indices {
                let byte = destination[index]
                if safe[Int(byte)] { continue }
                append(UnsafeBufferPointer(rebasing: destination[runStart..<index]))
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "'"): append("&#x27;")
                default:
                    append(UInt8(ascii: "%"))
                    append(hexDigits.utf8Start[Int(byte >> 4)])
                    append(hexDigits.utf8Start[Int(byte & 0x0F)])
                }
                runStart = index + 1
            }
            append(UnsafeBufferPointer(rebasing: destination[runStart...]))
        }
    }
}

extension Markdown {
    /// A C string cmark returned, as its bytes (empty for NULL); valid as long as the node is.
    static func cString(_ pointer: UnsafePointer<CChar>?) -> UnsafeBufferPointer<UInt8> {
        guard let pointer else { return UnsafeBufferPointer(start: nil, count: 0) }
        let count = strlen(pointer)
        return UnsafeRawPointer(pointer).withMemoryRebound(to: UInt8.self, capacity: count) {
            UnsafeBufferPointer(start: $0, count: count)
        }
    }
}
