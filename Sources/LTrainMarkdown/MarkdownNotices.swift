import CCmark
import LTrainSupport

/// Markdown that is not CommonMark: what a writer used to GitHub or another flavour expects, and
/// what libcmark (CommonMark without extensions) does with it instead. Found so the author is
/// told, never left with a silently garbled page.
public struct MarkdownNotice: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case table
        case footnote
        case strikethrough
        case taskListItem
        case bareURL
        case omittedHTML
    }

    public var kind: Kind
    /// 1-based, in the Markdown text given (add the front matter's lines for the file's).
    public var line: Int
    /// 1-based, in Unicode scalars.
    public var column: Int
    /// How many more of the same kind the text holds after this one.
    public var more: Int = 0

    /// What is wrong, for a warning.
    public var message: String {
        let what: String
        switch kind {
        case .table:
            what = "tables are not CommonMark: this one shows as a paragraph of text with its '|' and '---'"
        case .footnote:
            what = "footnotes are not CommonMark: '[^…]: …' is read as a link definition, and each '[^…]' as a link to it"
        case .strikethrough:
            what = "'~~strikethrough~~' is not CommonMark: the tildes show as they are"
        case .taskListItem:
            what = "task-list items are not CommonMark: '[ ]' and '[x]' show as text, with no check box"
        case .bareURL:
            what = "a bare URL is not a link in CommonMark: it shows as plain text"
        case .omittedHTML:
            what = "raw HTML is omitted: unsafe_html is off"
        }
        return more > 0 ? "\(what) (\(more) more in this file)" : what
    }

    /// How to write it instead, for the warning's hint.
    public var hint: String {
        switch kind {
        case .table:
            return "write the rows as a list, or (with unsafe_html: true in index.md) as an HTML <table>"
        case .footnote:
            return "write the note in the text, in parentheses, or link to a heading: [see below](#notes)"
        case .strikethrough:
            return "write <del>…</del> with unsafe_html: true in index.md, or reword it"
        case .taskListItem:
            return "make it a checklist page (content/checklists/NAME.md), or write the item without '[ ]'"
        case .bareURL:
            return "put it in angle brackets, <https://example.org/>, or write [a label](https://example.org/)"
        case .omittedHTML:
            return "write it in Markdown, or set unsafe_html: true in index.md if the HTML is yours and trusted"
        }
    }
}

extension Markdown {
    /// The places in `text` that are not CommonMark (see `MarkdownNotice`), the first of each kind
    /// with how many more there are. Most texts have none of the characters any of them needs and
    /// are not parsed at all; the others are parsed once with libcmark, so nothing inside code
    /// (spans or blocks) or inside a link is ever taken for one.
    public static func notices(in text: String, options: MarkdownOptions = MarkdownOptions()) -> [MarkdownNotice] {
        guard mayHoldNotices(text, options: options) else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [MarkdownNotice.Kind: MarkdownNotice] = [:]
        /// Counts one more of `kind`. The tree is walked in document order, so only the first of
        /// each kind is located: `location` runs once per kind, never once per occurrence (locating
        /// each of 100,000 tags in one paragraph, each searched from the paragraph's start, was quadratic).
        func note(_ kind: MarkdownNotice.Kind, at location: () -> (line: Int, column: Int)) {
            guard found[kind] == nil else {
                found[kind]?.more += 1
                return
            }
            let (line, column) = location()
            found[kind] = MarkdownNotice(kind: kind, line: line, column: max(1, column))
        }
        /// The column (in scalars) of `needle` in line `line` (1-based).
        func column(of needle: String, line: Int) -> Int? {
            guard line >= 1, line <= lines.count else { return nil }
            let text = lines[line - 1]
            guard let range = text.range(of: needle) else { return nil }
            return text.unicodeScalars.distance(from: text.startIndex, to: range.lowerBound) + 1
        }
        withDocument(text, options: options) { document in
            guard let iterator = cmark_iter_new(document) else { return }
            defer { cmark_iter_free(iterator) }
            var linkDepth = 0
            var block: (start: Int, end: Int, column: Int) = (1, 1, 1)
            /// Where `needle` first stands in the current block (its start when it is not found).
            func located(_ needle: String) -> (line: Int, column: Int) {
                for line in block.start...block.end {
                    if let column = column(of: needle, line: line) { return (line, column) }
                }
                return (block.start, block.column)
            }
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                    linkDepth += event == CMARK_EVENT_ENTER ? 1 : -1
                    // `[^1]` with a definition `[^1]: …` is a link whose text starts with '^'.
                    if event == CMARK_EVENT_ENTER, let first = cmark_node_first_child(node),
                        cmark_node_get_type(first) == CMARK_NODE_TEXT,
                        cmark_node_get_literal(first).map({ String(cString: $0).hasPrefix("^") }) == true
                    {
                        note(.footnote) { located("[^") }
                    }
                    continue
                }
                guard event == CMARK_EVENT_ENTER else { continue }
                if type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue {
                    let start = Int(cmark_node_get_start_line(node))
                    if start > 0 {
                        block = (start, max(start, Int(cmark_node_get_end_line(node))), Int(cmark_node_get_start_column(node)))
                    }
                }
                switch type {
                case CMARK_NODE_PARAGRAPH:
                    if block.end > block.start, isTableDelimiterRow(lines[block.start]),
                        lines[block.start - 1].contains("|")
                    {
                        note(.table) { (block.start, block.column) }
                    }
                case CMARK_NODE_ITEM:
                    // The item's own text starts after its marker: `- [ ] Milk`.
                    let line = lines[block.start - 1]
                    let rest = line.drop { $0 == " " }.dropFirst().drop { $0 == "." || $0 == ")" || $0.isNumber }
                    let text = rest.drop { $0 == " " }
                    if ["[ ] ", "[x] ", "[X] "].contains(where: { text.hasPrefix($0) }) || ["[ ]", "[x]", "[X]"].contains(String(text)) {
                        note(.taskListItem) { (block.start, column(of: "[", line: block.start) ?? block.column) }
                    }
                case CMARK_NODE_HTML_BLOCK where !options.allowsUnsafeHTML:
                    note(.omittedHTML) { (block.start, block.column) }
                case CMARK_NODE_HTML_INLINE where !options.allowsUnsafeHTML:
                    note(.omittedHTML) { located(cmark_node_get_literal(node).map { String(cString: $0) } ?? "<") }
                case CMARK_NODE_TEXT where linkDepth == 0:
                    guard let literal = cmark_node_get_literal(node).map({ String(cString: $0) }) else { break }
                    if literal.contains("~~") { note(.strikethrough) { located("~~") } }
                    // `[^1]` that is no link: text, its bracket sometimes a text node of its own.
                    if literal.contains("[^")
                        || (literal.hasSuffix("[") && cmark_node_next(node).map { next in
                            cmark_node_get_type(next) == CMARK_NODE_TEXT
                                && cmark_node_get_literal(next).map { String(cString: $0).hasPrefix("^") } == true
                        } == true)
                    {
                        note(.footnote) { located("[^") }
                    }
                    if let url = bareURL(in: literal) { note(.bareURL) { located(url) } }
                default:
                    break
                }
            }
        }
        // Footnote definitions never reach the tree (they are link definitions): found by line,
        // outside fenced code blocks, after the walk; the earliest footnote stands for them all.
        var fence: Substring?
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                continue
            }
            if line.count - trimmed.count <= 3, trimmed.hasPrefix("[^"), let close = trimmed.firstIndex(of: "]"),
                trimmed[close...].hasPrefix("]:")
            {
                let at = (line: index + 1, column: line.count - trimmed.count + 1)
                if let earlier = found[.footnote], (earlier.line, earlier.column) < at {
                    found[.footnote]?.more += 1
                } else {
                    found[.footnote] = MarkdownNotice(
                        kind: .footnote, line: at.line, column: at.column, more: found[.footnote].map { $0.more + 1 } ?? 0)
                }
            }
        }
        return found.values.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// Whether `text` holds any character sequence a notice needs: most texts do not, and are
    /// then not parsed a second time. A `scheme://` right after `(` or `<` is a link's destination
    /// (`[the MTA](https://mta.info/)`, `<https://mta.info/>`), not a bare URL. One look-up a byte,
    /// and a closer look only at the few bytes that can start one: it runs for every text of every
    /// build (a Character-free loop that tested each byte against every pattern took 13 µs for a
    /// 3 KB station, 130 ms for 10,000; this takes about 2 µs).
    static func mayHoldNotices(_ text: String, options: MarkdownOptions) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            for index in 0..<count where noticeStarts[Int(bytes[index])] {
                let next = index + 1 < count ? bytes[index + 1] : 0
                switch bytes[index] {
                case UInt8(ascii: "|"):
                    return true
                case UInt8(ascii: "~") where next == UInt8(ascii: "~"):
                    return true
                case UInt8(ascii: "[") where [UInt8(ascii: "^"), UInt8(ascii: " "), UInt8(ascii: "x"), UInt8(ascii: "X")].contains(next):
                    return true
                case UInt8(ascii: "<") where !options.allowsUnsafeHTML:
                    return true
                case UInt8(ascii: ":") where next == UInt8(ascii: "/"):
                    // The byte before the scheme (`https`) it ends.
                    var start = index
                    while start > 0 && isLetter(bytes[start - 1]) { start -= 1 }
                    let before = start > 0 ? bytes[start - 1] : 0
                    if start < index && before != UInt8(ascii: "(") && before != UInt8(ascii: "<") { return true }
                case UInt8(ascii: ".") where index >= 3:
                    // `www.`, not right after `/` or `(` (a link's `http://www.` or `(www.`).
                    if bytes[index - 1] == UInt8(ascii: "w") && bytes[index - 2] == UInt8(ascii: "w")
                        && bytes[index - 3] == UInt8(ascii: "w")
                    {
                        let before = index >= 4 ? bytes[index - 4] : 0
                        if !isLetter(before) && before != UInt8(ascii: "/") && before != UInt8(ascii: "(") { return true }
                    }
                default:
                    break
                }
            }
            return false
        }
    }

    /// The bytes that may start a notice's character sequence.
    private static let noticeStarts: [Bool] = (0..<256).map { byte in
        "|~[<:.".utf8.contains(UInt8(byte))
    }

    /// A delimiter row of a GitHub-style table: `|---|:--:|`, `--- | ---`.
    static func isTableDelimiterRow(_ line: Substring) -> Bool {
        let cells = line.trimmingCharacters(in: " \t").split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: " \t") }
        let filled = cells.enumerated().filter { !($0.element.isEmpty && ($0.offset == 0 || $0.offset == cells.count - 1)) }
            .map(\.element)
        guard line.contains("|") || filled.count > 1, !filled.isEmpty else { return false }
        return filled.allSatisfy { cell in
            var body = Substring(cell)
            if body.first == ":" { body = body.dropFirst() }
            if body.last == ":" { body = body.dropLast() }
            return !body.isEmpty && body.allSatisfy { $0 == "-" }
        }
    }

    /// The first `http://`, `https://` or `www.` address in a text node (not in a link).
    static func bareURL(in text: String) -> String? {
        for prefix in ["https://", "http://", "www."] {
            guard let range = text.range(of: prefix) else { continue }
            if range.lowerBound > text.startIndex {
                let before = text[text.index(before: range.lowerBound)]
                if before.isLetter || before.isNumber { continue }
            }
            let url = text[range.lowerBound...].prefix { !$0.isWhitespace }
            if url.count > prefix.count { return String(url) }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result = result.dropFirst() }
        while let last = result.last, characters.contains(last) { result = result.dropLast() }
        return result
    }
}

extension String {
    fileprivate func trimmingCharacters(in characters: String) -> Substring {
        Substring(self).trimmingCharacters(in: characters)
    }
}
