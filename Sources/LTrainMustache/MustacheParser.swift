import LTrainSupport

/// Turns Mustache source into nodes: tokenizes (following `{{=| |=}}` delimiter changes),
/// resolves standalone lines, then nests sections, blocks and parents.
struct MustacheParser {
    private enum TagKind: Equatable {
        case variable(isEscaped: Bool)
        case sectionOpen
        case invertedOpen
        case close
        case comment
        case partial
        case parentOpen
        case blockOpen
        case delimiters

        var canStandAlone: Bool {
            if case .variable = self { return false }
            return true
        }

        var opens: Bool { self == .sectionOpen || self == .invertedOpen || self == .parentOpen || self == .blockOpen }
    }

    private struct Token {
        enum Kind {
            case text(String)
            case tag(TagKind, content: String)
        }
        var kind: Kind
        var location: SourceLocation
        var isStandalone = false
        var indentation = ""

        var isText: Bool {
            if case .text = kind { return true }
            return false
        }
    }

    /// How deeply sections, inverted sections, blocks and parents may nest in one template. Real
    /// templates nest a handful of levels; the bound keeps every walk over the nodes (rendering,
    /// re-indenting, comparing, freeing) well inside any thread's stack.
    static let maximumNesting = 100

    let templateName: String
    private let bytes: [UInt8]
    private var position = 0
    /// The line and column of `position`, kept as `advance` moves.
    private var currentLocation = SourceLocation(line: 1, column: 1)

    init(templateName: String, source: String) {
        self.templateName = templateName
        self.bytes = Array(source.utf8)
    }

    static func parse(_ source: String, name: String) throws(MustacheError) -> [MustacheNode] {
        var parser = MustacheParser(templateName: name, source: source)
        let tokens = try parser.tokenize()
        let resolved = resolveStandaloneLines(tokens)
        return try parser.nest(resolved)
    }

    // MARK: Tokens

    private func error(_ message: String, at location: SourceLocation, hint: String? = nil) -> MustacheError {
        MustacheError(templateName: templateName, location: location, message: message, hint: hint)
    }

    /// Moves to `end`, keeping line and column up to date: every byte is passed over once, so
    /// locating a tag costs nothing however many share its line.
    private mutating func advance(to end: Int) {
        while position < end {
            currentLocation.advance(past: bytes[position])
            position += 1
        }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    /// The first newline or opening delimiter inside a tag's content, if any.
    private func firstRunOn(in range: Range<Int>, open: [UInt8]) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "\n") { return index }
            if bytes[index] == open[0] && index + open.count <= range.upperBound
                && bytes[index..<index + open.count].elementsEqual(open)
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private mutating func tokenize() throws(MustacheError) -> [Token] {
        var tokens: [Token] = []
        var open = Array("{{".utf8)
        var close = Array("}}".utf8)
        while position < bytes.count {
            let tagStart = find(open, from: position) ?? bytes.count
            // Text, one token per line, so standalone detection can work line by line.
            while position < tagStart {
                let location = currentLocation
                var end = position
                while end < tagStart && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if end < tagStart { end += 1 }
                tokens.append(Token(kind: .text(text(position..<end)), location: location))
                advance(to: end)
            }
            guard tagStart < bytes.count else { break }
            let location = currentLocation
            var contentStart = tagStart + open.count
            var closing = close
            var kind: TagKind?
            if open == Array("{{".utf8), contentStart < bytes.count, bytes[contentStart] == UInt8(ascii: "{") {
                contentStart += 1
                closing = Array("}".utf8) + close
                kind = .variable(isEscaped: false)
            }
            guard let contentEnd = find(closing, from: contentStart) else {
                throw error(
                    "tag opened with '\(String(decoding: open, as: UTF8.self))' is never closed",
                    at: location, hint: "add '\(String(decoding: closing, as: UTF8.self))' to end the tag")
            }
            // A tag left open (`{{info_href}` on one line) would end at the next tag's close and
            // swallow it, to be reported far away as a section never closed: a tag other than a
            // comment must close before the end of its line and before the next tag opens.
            let isComment = kind == nil && contentStart < contentEnd && bytes[contentStart] == UInt8(ascii: "!")
            if !isComment, let runOn = firstRunOn(in: contentStart..<contentEnd, open: open) {
                // Quote the tag as written: up to a half-written close (`{{info_href}`), if any.
                let halfClose = (contentStart..<runOn).first { bytes[$0] == closing[0] }
                let written = text(tagStart..<(halfClose.map { $0 + 1 } ?? runOn)).trimmingMustacheWhitespace()
                throw error(
                    "tag '\(written)' is not closed before the \(bytes[runOn] == UInt8(ascii: "\n") ? "end of its line" : "next tag")",
                    at: location, hint: "end it with '\(String(decoding: closing, as: UTF8.self))'")
            }
            var content = text(contentStart..<contentEnd).trimmingMustacheWhitespace()
            if kind == nil {
                let sigil = content.first
                switch sigil {
                case "#": kind = .sectionOpen
                case "^": kind = .invertedOpen
                case "/": kind = .close
                case "!": kind = .comment
                case ">": kind = .partial
                case "<": kind = .parentOpen
                case "$": kind = .blockOpen
                case "&": kind = .variable(isEscaped: false)
                case "=": kind = .delimiters
                default: kind = .variable(isEscaped: true)
                }
                if let sigil, "#^/!><$&=".contains(sigil) {
                    content = String(content.dropFirst()).trimmingMustacheWhitespace()
                }
            }
            advance(to: contentEnd + closing.count)
            guard let kind else { continue }
            if kind == .delimiters {
                guard content.hasSuffix("=") else {
                    throw error(
                        "set-delimiter tag must end with '='", at: location, hint: "write it as {{=<% %>=}}")
                }
                let parts = content.dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                    throw error(
                        "set-delimiter tag needs exactly two delimiters without '='", at: location,
                        hint: "write it as {{=<% %>=}}")
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            } else if kind != .comment && content.isEmpty {
                throw error("tag has no name", at: location, hint: "name a value, e.g. {{title}}")
            }
            tokens.append(Token(kind: .tag(kind, content: content), location: location))
        }
        return tokens
    }

    // MARK: Standalone lines

    /// A line holding only whitespace and non-output tags is removed from the output, its indentation
    /// recorded on partials, parents and blocks. Several tags may share such a line when one of them
    /// opens or closes a parent (`{{<layout}}{{$body}}`), since text inside a parent is ignored anyway.
    private static func resolveStandaloneLines(_ tokens: [Token]) -> [Token] {
        var result: [Token] = []
        result.reserveCapacity(tokens.count)
        var openKinds: [TagKind] = []
        var lineStart = 0
        while lineStart < tokens.count {
            var lineEnd = lineStart
            while lineEnd < tokens.count {
                let token = tokens[lineEnd]
                lineEnd += 1
                if case .text(let text) = token.kind, text.utf8.last == UInt8(ascii: "\n") { break }
            }
            var line = Array(tokens[lineStart..<lineEnd])
            var tagCount = 0
            var touchesParent = false
            var onlyWhitespaceAndQuietTags = true
            for token in line {
                switch token.kind {
                case .text(let text):
                    if !text.isMustacheLineWhitespace { onlyWhitespaceAndQuietTags = false }
                case .tag(let kind, _):
                    tagCount += 1
                    if !kind.canStandAlone { onlyWhitespaceAndQuietTags = false }
                    if kind == .parentOpen {
                        touchesParent = true
                        openKinds.append(kind)
                    } else if kind.opens {
                        openKinds.append(kind)
                    } else if kind == .close, let opened = openKinds.popLast(), opened == .parentOpen {
                        touchesParent = true
                    }
                }
            }
            let isStandalone = onlyWhitespaceAndQuietTags && (tagCount == 1 || (tagCount > 1 && touchesParent))
            if isStandalone {
                var indentation = ""
                if case .text(let text) = line[0].kind { indentation = text }
                for var token in line where !token.isText {
                    token.isStandalone = true
                    token.indentation = indentation
                    result.append(token)
                }
            } else {
                // An inline block is indented by the whitespace before it, when only whitespace precedes it.
                var leading = ""
                var onlyWhitespaceSoFar = true
                for index in line.indices {
                    switch line[index].kind {
                    case .text(let text):
                        if onlyWhitespaceSoFar && text.isMustacheLineWhitespace && text.utf8.last != UInt8(ascii: "\n") {
                            leading += text
                        } else {
                            onlyWhitespaceSoFar = false
                        }
                    case .tag(let kind, _):
                        if kind == .blockOpen && onlyWhitespaceSoFar { line[index].indentation = leading }
                        onlyWhitespaceSoFar = false
                    }
                }
                result.append(contentsOf: line)
            }
            lineStart = lineEnd
        }
        return result
    }

    // MARK: Nesting

    private func reference(_ content: String, at location: SourceLocation) -> TemplateReference {
        if content.hasPrefix("*") {
            let name = String(content.dropFirst()).trimmingMustacheWhitespace()
            return TemplateReference(name: MustacheName(name), isDynamic: true, location: location)
        }
        return TemplateReference(name: MustacheName(content), isDynamic: false, location: location)
    }

    /// One section, block or parent being filled while nesting: its opening tag and the nodes so far.
    private struct OpenSection {
        let name: String
        let token: Token
        var nodes: [MustacheNode] = []
    }

    /// Nests the tokens into nodes with an explicit stack of open sections (no recursion), so the
    /// time is linear in the tokens and a deep template is an error, not a stack overflow.
    private func nest(_ tokens: [Token]) throws(MustacheError) -> [MustacheNode] {
        var root: [MustacheNode] = []
        var open: [OpenSection] = []
        // Adjacent text (one token per line, and around comments) becomes one node.
        var pendingText = ""
        func append(_ node: MustacheNode) {
            if open.isEmpty { root.append(node) } else { open[open.count - 1].nodes.append(node) }
        }
        func flushText() {
            guard !pendingText.isEmpty else { return }
            append(.text(pendingText))
            pendingText = ""
        }
        for token in tokens {
            switch token.kind {
            case .text(let text):
                pendingText += text
            case .tag(let kind, let content):
                if kind != .comment && kind != .delimiters { flushText() }
                switch kind {
                case .variable(let isEscaped):
                    append(.variable(MustacheName(content, at: token.location), isEscaped: isEscaped))
                case .comment, .delimiters:
                    break
                case .partial:
                    append(
                        .partial(
                            reference(content, at: token.location), indentation: token.indentation,
                            isStandalone: token.isStandalone))
                case .sectionOpen, .invertedOpen, .blockOpen, .parentOpen:
                    guard open.count < Self.maximumNesting else {
                        throw error(
                            "sections nested deeper than \(Self.maximumNesting) levels", at: token.location,
                            hint: "close some sections before opening more; a template needs only a few levels")
                    }
                    open.append(OpenSection(name: content, token: token))
                case .close:
                    guard let opener = open.last else {
                        throw error(
                            "closing tag {{/\(content)}} has no matching opening tag", at: token.location,
                            hint: "remove it, or open the section with {{#\(content)}}")
                    }
                    if opener.name != content, open.dropLast().contains(where: { $0.name == content }) {
                        // Closing an outer section: the inner one was never closed.
                        throw error(
                            "section {{\(Self.sigil(of: opener.token))\(opener.name)}} is never closed (found {{/\(content)}} at line \(token.location.line), column \(token.location.column) first)",
                            at: opener.token.location, hint: "add {{/\(opener.name)}} where the section ends")
                    }
                    guard opener.name == content else {
                        let start = opener.token.location
                        throw error(
                            "closing tag {{/\(content)}} does not match {{\(Self.sigil(of: opener.token))\(opener.name)}} opened at line \(start.line), column \(start.column)",
                            at: token.location, hint: "close it with {{/\(opener.name)}} first")
                    }
                    open.removeLast()
                    append(node(closing: opener))
                }
            }
        }
        if let opener = open.last {
            throw error(
                "section {{\(Self.sigil(of: opener.token))\(opener.name)}} is never closed", at: opener.token.location,
                hint: "add {{/\(opener.name)}} where the section ends")
        }
        flushText()
        return root
    }

    /// The node a closed section, block or parent becomes.
    private func node(closing section: OpenSection) -> MustacheNode {
        guard case .tag(let kind, _) = section.token.kind else { return .text("") }
        switch kind {
        case .blockOpen:
            return .block(Self.block(named: section.name, children: section.nodes, opener: section.token))
        case .parentOpen:
            let blocks = section.nodes.compactMap { node -> MustacheBlock? in
                if case .block(let block) = node { return block }
                return nil
            }
            return .parent(
                reference(section.name, at: section.token.location), blocks: blocks,
                indentation: section.token.indentation, isStandalone: section.token.isStandalone)
        default:
            return .section(
                MustacheName(section.name, at: section.token.location), section.nodes, isInverted: kind == .invertedOpen)
        }
    }

    private static func sigil(of token: Token) -> String {
        guard case .tag(let kind, _) = token.kind else { return "" }
        switch kind {
        case .invertedOpen: return "^"
        case .parentOpen: return "<"
        case .blockOpen: return "$"
        default: return "#"
        }
    }

    private static func block(named name: String, children: [MustacheNode], opener: Token) -> MustacheBlock {
        guard opener.isStandalone else {
            return MustacheBlock(
                name: name, nodes: children, isStandalone: false, contentIndentation: "",
                siteIndentation: opener.indentation)
        }
        var contentIndentation = ""
        switch children.first {
        case .text(let text)?:
            contentIndentation = String(text.prefix { $0 == " " || $0 == "\t" })
        case .partial(_, let indentation, true)?, .parent(_, _, let indentation, true)?:
            contentIndentation = indentation
        case .block(let inner)? where inner.isStandalone:
            contentIndentation = inner.siteIndentation
        default:
            break
        }
        return MustacheBlock(
            name: name, nodes: children, isStandalone: true, contentIndentation: contentIndentation,
            siteIndentation: children.isEmpty ? opener.indentation : contentIndentation)
    }
}

extension String {
    fileprivate func trimmingMustacheWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// Spaces and tabs, optionally ending in `\n` or `\r\n`.
    fileprivate var isMustacheLineWhitespace: Bool {
        var bytes = utf8[...]
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        return bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
