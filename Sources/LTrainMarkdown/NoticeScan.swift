import CCmark
import LTrainSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One text's search for Markdown that is not CommonMark, over its UTF-8 bytes and libcmark's tree
/// of it: each node is visited once and each text node's bytes read once; a notice is located
/// from its node's source position (cmark gives one to every node), searching only that node's
/// own bytes. Only the first notice of each kind is located at all; the others are counted.
struct NoticeScan {
    let bytes: UnsafeBufferPointer<UInt8>
    let options: MarkdownOptions
    /// Bytes and nodes read, beyond the text's one read by the prefilter.
    private(set) var work = 0
    /// The first notice of each kind, at the kind's place in `MarkdownNotice.Kind.allCases`.
    private var found = [MarkdownNotice?](repeating: nil, count: MarkdownNotice.Kind.allCases.count)
    /// The byte offset where each line starts, found as far as the scan has needed (see `reach`).
    private var lineStarts: [Int] = [0]
    /// The offset of the next `\r` at or after the last line start (the text's length if none).
    private var nextReturn: Int?
    /// Whether `lineStarts` holds every line.
    private var foundEveryLine = false

    init(bytes: UnsafeBufferPointer<UInt8>, options: MarkdownOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// Once the tree is walked: what was found, with the footnote definitions (found by line).
    mutating func finished() -> [MarkdownNotice] {
        findFootnoteDefinitions()
        return notices
    }

    /// What was found, in the order it stands in the text.
    var notices: [MarkdownNotice] {
        // At most one of each kind: put in place one at a time, in one array (a scan ends with
        // every text, and compactMap and sorted made two and a closure call a comparison).
        var inOrder: [MarkdownNotice] = []
        inOrder.reserveCapacity(found.count)
        for case let notice? in found {
            var index = inOrder.count
            while index > 0, (notice.line, notice.column) < (inOrder[index - 1].line, inOrder[index - 1].column) { index -= 1 }
            inOrder.insert(notice, at: index)
        }
        return inOrder
    }

    // MARK: The tree

    /// The lines of each code block, in order (a `[^1]:` line inside one is code, not a definition).
    private var codeBlockLines: [ClosedRange<Int>] = []
    /// Links and images the walk is inside (bare URLs and footnotes there are a link's text).
    private var linkDepth = 0
    /// The innermost block around the current node: where a notice with no place of its own
    /// stands. Its bytes are worked out only when a notice needs them.
    private var block: OpaquePointer?

    /// Visits every node of `document` once, in document order.
    mutating func walk(_ document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            visit(node, type: cmark_node_get_type(node), entering: event == CMARK_EVENT_ENTER)
        }
    }

    /// One step of a walk in document order (`walk(_:)`, or a walk of the renderer's that visits
    /// each node for its own ends too, so that the tree is walked once). `literal` is a text
    /// node's, when the walk has it already.
    mutating func visit(_ node: OpaquePointer, type: cmark_node_type, entering: Bool, literal: UnsafeBufferPointer<UInt8>? = nil) {
        work += 1
        if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
            linkDepth += entering ? 1 : -1
            // `[^1]` with a definition `[^1]: …` is a link whose text starts with '^'.
            if entering, let first = cmark_node_first_child(node),
                cmark_node_get_type(first) == CMARK_NODE_TEXT,
                cmark_node_get_literal(first)?.pointee == CChar(UInt8(ascii: "^"))
            {
                note(.footnote, at: node, orElse: block) { $0.first(of: "[^") }
            }
            return
        }
        guard entering else { return }
        if type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue, cmark_node_get_start_line(node) > 0 {
            block = node
        }
        switch type {
        case CMARK_NODE_PARAGRAPH:
            // Only a paragraph of more than one line can be a table.
            let line = Int(cmark_node_get_start_line(node))
            if line > 0, cmark_node_get_end_line(node) > line, isTable(startingAtLine: line) {
                note(.table, at: node) { _ in nil }
            }
        case CMARK_NODE_ITEM:
            let line = Int(cmark_node_get_start_line(node))
            if line > 0, Self.mayBeTaskItem(node) {
                let item = offset(line: line, column: Int(cmark_node_get_start_column(node)))
                if let box = taskBox(ofItemAt: item, line: line) { note(.taskListItem, at: node) { _ in box - item } }
            }
        case CMARK_NODE_CODE_BLOCK:
            let first = Int(cmark_node_get_start_line(node))
            codeBlockLines.append(first...max(first, Int(cmark_node_get_end_line(node))))
        case CMARK_NODE_HTML_BLOCK where !options.allowsUnsafeHTML:
            note(.omittedHTML, at: node) { _ in nil }
        case CMARK_NODE_HTML_INLINE where !options.allowsUnsafeHTML:
            note(.omittedHTML, at: node, orElse: block) { _ in nil }
        case CMARK_NODE_TEXT where linkDepth == 0:
            scanText(node, literal: literal ?? Markdown.literal(of: node), block: block)
        default:
            break
        }
    }

    /// A text node outside links: strikethrough, footnote references and bare URLs.
    private mutating func scanText(_ node: OpaquePointer, literal: UnsafeBufferPointer<UInt8>, block: OpaquePointer?) {
        work += literal.count
        // One pass over the text's bytes, looking closer only at the few that can start a notice
        // (most text nodes are a few words between two inlines: a call per kind cost more).
        var struck = false
        var footnote = false
        var bare = false
        if let start = literal.baseAddress {
            // The literal ends with a NUL (cmark keeps it as a C string): strpbrk finds each candidate.
            var at = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
            while let found = strpbrk(at, "~[:.") {
                let index = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self).distance(to: found)
                let next = index + 1 < literal.count ? literal[index + 1] : 0
                switch literal[index] {
                case UInt8(ascii: "~"): struck = struck || next == UInt8(ascii: "~")
                case UInt8(ascii: "["): footnote = footnote || next == UInt8(ascii: "^")
                default: bare = bare || Self.bareURL(in: literal, endingScheme: index) != nil
                }
                at = UnsafePointer(found) + 1
            }
        }
        // `[^1]` that is no link: text, its bracket sometimes the end of a text node of its own.
        let split =
            !footnote && literal.last == UInt8(ascii: "[")
            ? cmark_node_next(node).flatMap { next in
                cmark_node_get_type(next) == CMARK_NODE_TEXT && cmark_node_get_literal(next)?.pointee == CChar(UInt8(ascii: "^"))
                    ? next : nil
            } : nil
        guard struck || footnote || split != nil || bare else { return }
        // Only the first of each kind is located: a text whose kinds are all found already is counted.
        let locates =
            (struck && !isFound(.strikethrough)) || ((footnote || split != nil) && !isFound(.footnote))
            || (bare && !isFound(.bareURL))
        let place = locates ? span(of: node) ?? span(of: block) : nil
        if struck { note(.strikethrough, in: place) { $0.first(of: "~~") } }
        if footnote { note(.footnote, in: place) { $0.first(of: "[^") } }
        if let next = split {
            let both =
                isFound(.footnote) ? nil : place.map { span in Span(start: span.start, end: self.span(of: next)?.end ?? span.end) }
            note(.footnote, in: both) { $0.first(of: "[^") }
        }
        if bare { note(.bareURL, in: place) { Self.firstBareURL(in: $0) } }
    }

    // MARK: Blocks

    /// A paragraph (of more than one line, starting at `line`) whose second line is a delimiter
    /// row (`|---|:--:|`) under a first line with a '|'.
    private mutating func isTable(startingAtLine line: Int) -> Bool {
        guard let first = self.line(line), let second = self.line(line + 1) else { return false }
        work += first.count + second.count
        return Self.firstOffset(of: UInt8(ascii: "|"), in: UnsafeBufferPointer(rebasing: bytes[..<first.upperBound]), from: first.lowerBound) != nil
            && Self.isTableDelimiterRow(UnsafeBufferPointer(rebasing: bytes[second]))
    }

    /// The offset of a task-list item's box (`- [ ] Milk`, `1. [x] Bread`): the item's own text,
    /// after its marker, starts with `[ ]`, `[x]` or `[X]` and a space or the line's end.
    private mutating func taskBox(ofItemAt item: Int, line: Int) -> Int? {
        guard let end = self.line(line)?.upperBound else { return nil }
        var offset = item
        guard offset < end else { return nil }
        if [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(bytes[offset]) {
            offset += 1
        } else {
            while offset < end, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") { offset += 1 }
            guard offset < end, bytes[offset] == UInt8(ascii: ".") || bytes[offset] == UInt8(ascii: ")") else { return nil }
            offset += 1
        }
        while offset < end, bytes[offset] == UInt8(ascii: " ") || bytes[offset] == UInt8(ascii: "\t") { offset += 1 }
        work += offset - item + 4
        guard offset + 3 <= end, bytes[offset] == UInt8(ascii: "["), bytes[offset + 2] == UInt8(ascii: "]"),
            [UInt8(ascii: " "), UInt8(ascii: "x"), UInt8(ascii: "X")].contains(bytes[offset + 1])
        else { return nil }
        let after = offset + 3 < end ? bytes[offset + 3] : UInt8(ascii: " ")
        return after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") || after == UInt8(ascii: "\r") ? offset : nil
    }

    /// Whether the item's text (its first paragraph's first text) starts like a task box: only
    /// then are its bytes looked at.
    private static func mayBeTaskItem(_ item: OpaquePointer) -> Bool {
        guard let paragraph = cmark_node_first_child(item), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
            let text = cmark_node_first_child(paragraph), cmark_node_get_type(text) == CMARK_NODE_TEXT
        else { return false }
        // The literal ends with a NUL, so no byte past it is read.
        guard let literal = cmark_node_get_literal(text) else { return false }
        return literal[0] == CChar(UInt8(ascii: "[")) && literal[1] != 0 && literal[2] == CChar(UInt8(ascii: "]"))
    }

    /// A delimiter row of a GitHub-style table: `|---|:--:|`, `--- | ---`. It has a '|', and every
    /// cell (but an empty first or last one) is dashes with an optional ':' at either end.
    static func isTableDelimiterRow(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.contains(UInt8(ascii: "|")) else { return false }
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        var filled = 0
        var cellStart = line.startIndex
        // Each cell in turn: the bytes up to the next '|' or the line's end.
        while cellStart <= line.endIndex {
            var cellEnd = cellStart
            while cellEnd < line.endIndex, line[cellEnd] != UInt8(ascii: "|") { cellEnd += 1 }
            var lower = cellStart
            var upper = cellEnd
            while lower < upper, isBlank(line[lower]) { lower += 1 }
            while upper > lower, isBlank(line[upper - 1]) { upper -= 1 }
            if lower == upper {
                // Only the cells outside the outer pipes may be empty.
                guard cellStart == line.startIndex || cellEnd == line.endIndex else { return false }
            } else {
                if line[lower] == UInt8(ascii: ":") { lower += 1 }
                if upper > lower, line[upper - 1] == UInt8(ascii: ":") { upper -= 1 }
                guard lower < upper, line[lower..<upper].allSatisfy({ $0 == UInt8(ascii: "-") }) else { return false }
                filled += 1
            }
            cellStart = cellEnd + 1
        }
        return filled > 0
    }

    // MARK: Footnote definitions

    /// Footnote definitions (`[^1]: note`) never reach the tree (cmark reads them as link
    /// definitions, or as text): found by line, outside fenced code blocks; the earliest footnote
    /// stands for them all.
    private mutating func findFootnoteDefinitions() {
        // Each `[^` of the text (most texts have none), found by its `^` with memchr (prose has
        // few, where a `[` starts every link): a definition is one that starts its line (after at
        // most three spaces), outside any code block, and closes with `]:` on that line. No byte
        // is read twice: the look back is at most five bytes, and the look forward stops at the
        // line's end, past which the next search starts.
        var from = 0
        var codeBlock = 0
        while let caret = Self.firstOffset(of: UInt8(ascii: "^"), in: bytes, from: from) {
            from = caret + 1
            guard caret > 0, bytes[caret - 1] == UInt8(ascii: "[") else { continue }
            let open = caret - 1
            var lineStart = open
            while lineStart > 0, open - lineStart < 4, bytes[lineStart - 1] == UInt8(ascii: " ") { lineStart -= 1 }
            work += open - lineStart + 1
            guard open - lineStart <= 3,
                lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n") || bytes[lineStart - 1] == UInt8(ascii: "\r")
            else { continue }
            var close = open + 2
            while close < bytes.count, bytes[close] != UInt8(ascii: "]"), bytes[close] != UInt8(ascii: "\n"),
                bytes[close] != UInt8(ascii: "\r")
            {
                close += 1
            }
            work += close - open
            from = max(from, close)
            guard close + 1 < bytes.count, bytes[close] == UInt8(ascii: "]"), bytes[close + 1] == UInt8(ascii: ":") else { continue }
            let line = lineAndColumn(of: lineStart).line
            // Code blocks come in the order of their lines, as the definitions do.
            while codeBlock < codeBlockLines.count, codeBlockLines[codeBlock].upperBound < line { codeBlock += 1 }
            if codeBlock < codeBlockLines.count, codeBlockLines[codeBlock].contains(line) { continue }
            let at = (line: line, column: open - lineStart + 1)
            let slot = Self.slot(of: .footnote)
            if let earlier = found[slot], (earlier.line, earlier.column) < at {
                found[slot]?.more += 1
            } else {
                found[slot] = MarkdownNotice(
                    kind: .footnote, line: at.line, column: at.column, more: found[slot].map { $0.more + 1 } ?? 0)
            }
        }
    }

    // MARK: Locating

    /// A stretch of the text's bytes: a node's, from its source position.
    struct Span {
        var start: Int
        /// One past the node's last byte.
        var end: Int
    }

    /// Counts one more of `kind`, and locates the first: at the offset `find` gives in the
    /// bytes of `span` (counted from the span's start), or else at the span's start.
    private mutating func note(
        _ kind: MarkdownNotice.Kind, in span: Span?, find: (UnsafeBufferPointer<UInt8>) -> Int?
    ) {
        let slot = Self.slot(of: kind)
        guard found[slot] == nil else {
            found[slot]?.more += 1
            return
        }
        var offset = 0
        if let span {
            let stretch = UnsafeBufferPointer(rebasing: bytes[span.start..<max(span.start, span.end)])
            work += stretch.count
            offset = min(bytes.count, span.start + (find(stretch) ?? 0))
        }
        let (line, column) = lineAndColumn(of: offset)
        found[slot] = MarkdownNotice(kind: kind, line: line, column: column)
    }

    /// Counts one more of `kind`, and locates the first at `node` (or, when cmark gives it no
    /// place, at `fallback`): a node's place is worked out only for the first of its kind.
    private mutating func note(
        _ kind: MarkdownNotice.Kind, at node: OpaquePointer?, orElse fallback: OpaquePointer? = nil,
        find: (UnsafeBufferPointer<UInt8>) -> Int?
    ) {
        note(kind, in: isFound(kind) ? nil : span(of: node) ?? span(of: fallback), find: find)
    }

    private func isFound(_ kind: MarkdownNotice.Kind) -> Bool {
        found[Self.slot(of: kind)] != nil
    }

    private static func slot(of kind: MarkdownNotice.Kind) -> Int {
        switch kind {
        case .table: 0
        case .footnote: 1
        case .strikethrough: 2
        case .taskListItem: 3
        case .bareURL: 4
        case .omittedHTML: 5
        }
    }

    /// The bytes a node was written as, from cmark's source position (line and byte column, both
    /// 1-based); nil when cmark gives none.
    private mutating func span(of node: OpaquePointer?) -> Span? {
        guard let node else { return nil }
        let startLine = Int(cmark_node_get_start_line(node))
        guard startLine > 0 else { return nil }
        let start = offset(line: startLine, column: Int(cmark_node_get_start_column(node)))
        let endLine = Int(cmark_node_get_end_line(node))
        let end = endLine >= startLine ? offset(line: endLine, column: Int(cmark_node_get_end_column(node))) + 1 : start
        return Span(start: start, end: min(bytes.count, max(start, end)))
    }

    /// The offset of a line's column, kept inside that line (cmark writes column 0 for a block
    /// that ends with the line before).
    private mutating func offset(line: Int, column: Int) -> Int {
        reach(lineCount: line + 1)
        let starts = lineStarts
        guard line <= starts.count else { return bytes.count }
        let lineStart = starts[line - 1]
        let lineEnd = line < starts.count ? starts[line] - 1 : bytes.count
        return min(lineEnd, lineStart + max(0, column - 1))
    }

    /// Line `number` (1-based) without its line end; nil past the text's last line.
    private mutating func line(_ number: Int) -> Range<Int>? {
        reach(lineCount: number + 1)
        guard number >= 1, number <= lineStarts.count else { return nil }
        let start = lineStarts[number - 1]
        return start..<(number < lineStarts.count ? lineStarts[number] - 1 : bytes.count)
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    private mutating func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        reach(pastOffset: offset)
        let starts = lineStarts
        let index = Self.lineIndex(of: offset, in: starts)
        var scalars = 0
        for byte in bytes[starts[index]..<offset] where byte & 0xC0 != 0x80 { scalars += 1 }
        work += offset - starts[index]
        return (index + 1, scalars + 1)
    }

    private static func lineIndex(of offset: Int, in starts: [Int]) -> Int {
        // The last line start at or before the offset (a binary search).
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Finds further line starts until there are `lineCount` or every line is found: the walk
    /// goes forward through the text, and most of it needs no place at all once the first notice
    /// of each kind is located.
    private mutating func reach(lineCount: Int) {
        while !foundEveryLine && lineStarts.count < lineCount { findNextLineStart() }
    }

    /// Finds further line starts until one is past `offset` or every line is found.
    private mutating func reach(pastOffset offset: Int) {
        while !foundEveryLine && lineStarts[lineStarts.count - 1] <= offset { findNextLineStart() }
    }

    /// The start of the line after the last one found. Lines end as cmark ends them: at `\n`,
    /// `\r\n` or a lone `\r`.
    private mutating func findNextLineStart() {
        // Room for lines of 40 bytes, once: the array grown a line at a time cost more than it
        // should (figure in docs/benchmarks.md, "Optimisations").
        if lineStarts.count == 1 { lineStarts.reserveCapacity(bytes.count / 40 + 1) }
        let from = lineStarts[lineStarts.count - 1]
        let newline = Self.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: from)
        // The next `\r` is remembered, so a text without one is searched for it once.
        if nextReturn.map({ $0 < from }) ?? true {
            nextReturn = Self.firstOffset(of: UInt8(ascii: "\r"), in: bytes, from: from) ?? bytes.count
        }
        let end = min(newline ?? bytes.count, nextReturn ?? bytes.count)
        guard end < bytes.count else {
            foundEveryLine = true
            work += bytes.count - from
            return
        }
        let next = bytes[end] == UInt8(ascii: "\r") && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\n") ? end + 2 : end + 1
        lineStarts.append(next)
        work += next - from
    }

    // MARK: Bytes

    /// The offset (from the buffer's start) of the first two-byte `pair`.
    static func firstOffset(of pair: StaticString, in text: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        let second = pair.utf8Start[1]
        var from = start
        while let at = firstOffset(of: pair.utf8Start[0], in: text, from: from) {
            if at + 1 < text.count && text[at + 1] == second { return at }
            from = at + 1
        }
        return nil
    }

    /// The offset of the first `byte` at or after `from` (memchr: these scans read every byte of
    /// every page's text).
    static func firstOffset(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard from < text.count, let base = text.baseAddress,
            let found = memchr(base + from, Int32(byte), text.count - from)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The offset (from the buffer's start) of the first `http://`, `https://` or `www.` address
    /// that does not continue a word and has something after its prefix.
    static func firstBareURL(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        // Each address has a ':' (`http://`) or a '.' (`www.`) a few bytes in: those bytes are
        // found with memchr, and only the bytes before them compared (prose has few of either).
        var colon = firstOffset(of: UInt8(ascii: ":"), in: text, from: 0)
        var dot = firstOffset(of: UInt8(ascii: "."), in: text, from: 0)
        while colon != nil || dot != nil {
            let atColon = dot.map { dotOffset in colon.map { $0 < dotOffset } ?? false } ?? true
            let found = (atColon ? colon : dot) ?? 0
            if let start = bareURL(in: text, endingScheme: found) { return start }
            if atColon {
                colon = firstOffset(of: UInt8(ascii: ":"), in: text, from: found + 1)
            } else {
                dot = firstOffset(of: UInt8(ascii: "."), in: text, from: found + 1)
            }
        }
        return nil
    }

    /// The start of the bare URL whose scheme (`https:`, `http:`) or `www.` ends with the byte at
    /// `end`, if there is one.
    private static func bareURL(in text: UnsafeBufferPointer<UInt8>, endingScheme end: Int) -> Int? {
        let isColon = text[end] == UInt8(ascii: ":")
        // Most ':' and '.' of a text end a sentence or a clause: `://` and `www.` are asked first.
        if isColon {
            guard end + 2 < text.count, text[end + 1] == UInt8(ascii: "/"), text[end + 2] == UInt8(ascii: "/") else { return nil }
        } else {
            guard end >= 3, text[end - 1] == UInt8(ascii: "w"), text[end - 2] == UInt8(ascii: "w"), text[end - 3] == UInt8(ascii: "w")
            else { return nil }
        }
        // `https:` and `http:` end 5 and 4 bytes in, `www.` 3.
        for start in stride(from: end - (isColon ? 5 : 3), through: end - (isColon ? 4 : 3), by: 1) where start >= 0 {
            let rest = UnsafeBufferPointer(rebasing: text[start...])
            guard let prefix = urlPrefixes.first(where: { rest.starts(with: $0) })?.count,
                start + prefix < text.count, !isASCIISpace(text[start + prefix]), !continuesWord(text, before: start)
            else { continue }
            return start
        }
        return nil
    }

    private static let urlPrefixes: [[UInt8]] = ["https://", "http://", "www."].map { Array($0.utf8) }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Whether the character before `index` is a letter or a digit (of any script).
    private static func continuesWord(_ text: UnsafeBufferPointer<UInt8>, before index: Int) -> Bool {
        guard index > text.startIndex else { return false }
        let previous = text[index - 1]
        if previous < 0x80 {
            let folded = previous | 0x20
            return (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
                || (previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9"))
        }
        // The scalar that ends there: its lead byte is at most three continuation bytes back.
        var lead = index - 1
        while lead > text.startIndex, index - lead < 4, text[lead] & 0xC0 == 0x80 { lead -= 1 }
        var decoder = UTF8()
        var iterator = text[lead..<index].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The offset (from the buffer's start) of the first `pair`, for a notice's place.
    fileprivate func first(of pair: StaticString) -> Int? {
        NoticeScan.firstOffset(of: pair, in: self)
    }
}
