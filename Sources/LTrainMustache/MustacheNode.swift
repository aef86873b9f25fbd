import LTrainSupport

/// A dotted name such as `station.title`, split once at parse time. `.` is the implicit iterator.
package struct MustacheName: Sendable, Equatable {
    package let text: String
    /// Empty for the implicit iterator `.`.
    package let parts: [String]
    /// Each part's `MustacheObject.fingerprint`, worked out once here rather than at every lookup.
    let fingerprints: [UInt64]
    /// Where its tag is written, for warnings about names no page has.
    package let location: SourceLocation

    init(_ text: String, at location: SourceLocation = SourceLocation(line: 0, column: 0)) {
        self.text = text
        self.location = location
        self.parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.fingerprints = parts.map(MustacheObject.fingerprint(of:))
    }
}

/// The name in a partial or parent tag: fixed (`{{>bar}}`) or looked up in the context (`{{>*name}}`).
package struct TemplateReference: Sendable, Equatable {
    package let name: MustacheName
    package let isDynamic: Bool
    let location: SourceLocation
}

/// A `{{$name}}…{{/name}}` block: default content that a parent's caller may replace.
package struct MustacheBlock: Sendable, Equatable {
    package let name: String
    package var nodes: [MustacheNode]
    /// Whether the opening tag stood alone on its line (its content then starts on the next line).
    let isStandalone: Bool
    /// Indentation of the content where it was written, removed when it replaces a block elsewhere.
    var contentIndentation: String
    /// Indentation added to replacement content at this block's site.
    var siteIndentation: String
}

extension MustacheBlock {
    /// The blocks that replace others inside a parent tag: the caller's own first, as they win,
    /// then those of the tag with other names.
    static func merging(_ overrides: [MustacheBlock], with blocks: [MustacheBlock]) -> [MustacheBlock] {
        guard !overrides.isEmpty else { return blocks }
        var merged = overrides
        for block in blocks where !merged.contains(where: { $0.name == block.name }) { merged.append(block) }
        return merged
    }

    /// What this block writes under `overrides`: the first of its name, re-indented to the block's
    /// place, or else its own nodes.
    func content(under overrides: [MustacheBlock]) -> [MustacheNode] {
        guard let replacement = overrides.first(where: { $0.name == name }) else { return nodes }
        return Reindentation.apply(
            to: replacement.nodes, strip: replacement.contentIndentation, add: siteIndentation,
            indentFirstLine: isStandalone)
    }
}

/// One node of a parsed template. Standalone lines are resolved at parse time, so rendering is a walk.
package indirect enum MustacheNode: Sendable, Equatable {
    case text(String)
    case variable(MustacheName, isEscaped: Bool)
    case section(MustacheName, [MustacheNode], isInverted: Bool)
    case partial(TemplateReference, indentation: String, isStandalone: Bool)
    case parent(TemplateReference, blocks: [MustacheBlock], indentation: String, isStandalone: Bool)
    case block(MustacheBlock)
}

/// Re-indents template nodes line by line: removes `strip` at the start of every line and adds `add`.
/// Partials and blocks are indented as template source, so values with newlines are left alone.
struct Reindentation {
    let strip: String
    let add: String
    private var atLineStart: Bool
    private var addOnThisLine: Bool

    static func apply(
        to nodes: [MustacheNode], strip: String, add: String, indentFirstLine: Bool
    ) -> [MustacheNode] {
        if strip.isEmpty && add.isEmpty { return nodes }
        var reindentation = Reindentation(strip: strip, add: add, atLineStart: true, addOnThisLine: indentFirstLine)
        return reindentation.transform(nodes)
    }

    private init(strip: String, add: String, atLineStart: Bool, addOnThisLine: Bool) {
        self.strip = strip
        self.add = add
        self.atLineStart = atLineStart
        self.addOnThisLine = addOnThisLine
    }

    private func reindented(_ indentation: String) -> String {
        let kept =
            indentation.utf8.starts(with: strip.utf8)
            ? String(decoding: indentation.utf8.dropFirst(strip.utf8.count), as: UTF8.self) : indentation
        return addOnThisLine ? add + kept : kept
    }

    /// Emits the indentation owed at the start of a line before a node that writes output.
    private mutating func beginLine(into output: inout [MustacheNode]) {
        guard atLineStart else { return }
        if addOnThisLine && !add.isEmpty { output.append(.text(add)) }
        atLineStart = false
    }

    private mutating func transform(_ nodes: [MustacheNode]) -> [MustacheNode] {
        var output: [MustacheNode] = []
        output.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text(let text):
                transformText(text, into: &output)
            case .variable:
                beginLine(into: &output)
                output.append(node)
            case .section(let name, let children, let isInverted):
                output.append(.section(name, transform(children), isInverted: isInverted))
            case .partial(let reference, let indentation, let isStandalone):
                if isStandalone && atLineStart {
                    output.append(.partial(reference, indentation: reindented(indentation), isStandalone: true))
                    addOnThisLine = true
                } else {
                    beginLine(into: &output)
                    output.append(node)
                }
            case .parent(let reference, let blocks, let indentation, let isStandalone):
                let newBlocks = blocks.map { transformBlock($0) }
                if isStandalone && atLineStart {
                    output.append(
                        .parent(reference, blocks: newBlocks, indentation: reindented(indentation), isStandalone: true))
                    addOnThisLine = true
                } else {
                    beginLine(into: &output)
                    output.append(.parent(reference, blocks: newBlocks, indentation: indentation, isStandalone: false))
                }
            case .block(let block):
                if block.isStandalone && atLineStart {
                    output.append(.block(transformBlock(block)))
                } else {
                    beginLine(into: &output)
                    output.append(.block(transformBlock(block)))
                }
            }
        }
        return output
    }

    private mutating func transformBlock(_ block: MustacheBlock) -> MustacheBlock {
        var result = block
        result.siteIndentation = reindented(block.siteIndentation)
        result.contentIndentation = reindented(block.contentIndentation)
        result.nodes = transform(block.nodes)
        return result
    }

    private mutating func transformText(_ text: String, into output: inout [MustacheNode]) {
        var result = ""
        var rest = text.utf8[...]
        let newline = UInt8(ascii: "\n")
        while !rest.isEmpty {
            let end = rest.firstIndex(of: newline).map { rest.index(after: $0) } ?? rest.endIndex
            var segment = rest[rest.startIndex..<end]
            if atLineStart {
                if segment.starts(with: strip.utf8) { segment = segment.dropFirst(strip.utf8.count) }
                if addOnThisLine { result += add }
                atLineStart = false
            }
            result += String(decoding: segment, as: UTF8.self)
            if segment.last == newline {
                atLineStart = true
                addOnThisLine = true
            }
            rest = rest[end...]
        }
        if !result.isEmpty { output.append(.text(result)) }
    }
}
