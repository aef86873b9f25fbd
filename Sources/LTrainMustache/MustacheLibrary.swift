import Synchronization
import LTrainSupport

/// A named set of parsed templates that can include each other as partials and parents.
/// Parsed once; rendering is a walk over the nodes, safe to run from many threads at once.
public struct MustacheLibrary: Sendable {
    /// How deep partials and parents may nest before rendering stops with an error
    /// (partials that include each other without end).
    public static let maximumDepth = 64
    /// How deep rendering may go in all: sections, blocks, partials and parents inside each other,
    /// across templates. Each template nests at most `MustacheParser.maximumNesting` levels, but
    /// partials multiply that; this bound keeps a render inside a rendering thread's stack.
    public static let maximumRenderDepth = 1_000
    /// How many partials and parents one render may include in all: a few templates that each
    /// include the next several times multiply (ten levels of sixteen: 2^40), which would never
    /// end. Ten a row for an index of 100,000 stations is a million; a template whose includes
    /// are all fixed includes none when rendered (see `MustacheProgram`).
    public static let maximumIncludes = 1 << 21

    private let templates: [String: [MustacheNode]]
    /// The source of every template that parsed, for `privateCopy`.
    private let sources: [String: String]
    /// Each template that a `MustacheProgram` can stand for, compiled.
    private var programs: [String: MustacheProgram] = [:]

    /// Parses every template; throws the first syntax error with its template name, line and column.
    public init(sources: [String: String]) throws(MustacheError) {
        var parsed: [String: [MustacheNode]] = [:]
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            parsed[name] = try MustacheParser.parse(source, name: name)
        }
        self.templates = parsed
        self.sources = sources
        compilePrograms()
    }

    /// Parses every template and collects every syntax error, instead of stopping at the first.
    public static func parseAll(_ sources: [String: String]) -> (library: MustacheLibrary, errors: [MustacheError]) {
        var parsed: [String: [MustacheNode]] = [:]
        var parsedSources: [String: String] = [:]
        var errors: [MustacheError] = []
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                parsed[name] = try MustacheParser.parse(source, name: name)
                parsedSources[name] = source
            } catch {
                errors.append(error)
            }
        }
        return (MustacheLibrary(parsed: parsed, sources: parsedSources), errors)
    }

    private init(parsed: [String: [MustacheNode]], sources: [String: String]) {
        self.templates = parsed
        self.sources = sources
        compilePrograms()
    }

    private mutating func compilePrograms() {
        let library = self
        for name in templates.keys {
            if let program = MustacheProgram.compile(name, in: library) { programs[name] = program }
        }
    }

    /// Whether `name` renders through a compiled program (see `MustacheProgram`), for tests.
    package func isCompiled(_ name: String) -> Bool { programs[name] != nil }

    /// The same templates parsed again into nodes and strings of their own. Rendering retains and
    /// releases the nodes it walks; threads that render from one shared tree keep taking the same
    /// reference counts from each other's caches, so each rendering thread gets its own copy.
    package func privateCopy() -> MustacheLibrary {
        // These sources parsed once already, so they parse again.
        (try? MustacheLibrary(sources: sources)) ?? self
    }

    public var names: [String] { templates.keys.sorted() }

    public func contains(_ name: String) -> Bool { templates[name] != nil }

    /// A template's parsed nodes, for checks that walk it (see `TemplateNames`).
    package func nodes(of name: String) -> [MustacheNode]? { templates[name] }

    /// Every fixed partial or parent name a template refers to, with where it is written.
    public func references(in name: String) -> [(name: String, location: SourceLocation)] {
        references(in: name, insideSections: true)
    }

    /// Partials and parents a template always includes (outside any section), by name. A cycle
    /// among these can never end, whatever the data.
    public func unconditionalReferences(in name: String) -> [(name: String, location: SourceLocation)] {
        references(in: name, insideSections: false)
    }

    /// A template and every template it can include through partials and parents (named ones:
    /// see `hasDynamicReferences`), nearest first; names the library lacks are listed too.
    package func includedTemplates(from name: String) -> [String] {
        var seen: Set<String> = [name]
        var queue = [name]
        var index = 0
        while index < queue.count {
            for reference in references(in: queue[index]) where seen.insert(reference.name).inserted {
                queue.append(reference.name)
            }
            index += 1
        }
        return queue
    }

    /// Whether a template names a partial or parent by a value (`{{>*name}}`), which may be any template.
    public func hasDynamicReferences(in name: String) -> Bool {
        var found = false
        _ = references(in: name, insideSections: true) { _ in found = true }
        return found
    }

    private func references(
        in name: String, insideSections: Bool, dynamic: (TemplateReference) -> Void = { _ in }
    ) -> [(name: String, location: SourceLocation)] {
        var found: [(String, SourceLocation)] = []
        func visit(_ nodes: [MustacheNode]) {
            for node in nodes {
                switch node {
                case .partial(let reference, _, _):
                    if reference.isDynamic { dynamic(reference) } else { found.append((reference.name.text, reference.location)) }
                case .parent(let reference, let blocks, _, _):
                    if reference.isDynamic { dynamic(reference) } else { found.append((reference.name.text, reference.location)) }
                    for block in blocks { visit(block.nodes) }
                case .section(_, let children, _):
                    if insideSections { visit(children) }
                case .block(let block):
                    visit(block.nodes)
                case .text, .variable:
                    break
                }
            }
        }
        visit(templates[name] ?? [])
        return found
    }

    /// A chain of templates that include each other unconditionally, such as `a → b → a`, if any.
    /// A depth-first walk with a stack of its own (a chain of thousands of templates neither
    /// overflows the stack nor copies the path at every step); each cycle is reported once.
    public func unconditionalCycles() -> [[(name: String, location: SourceLocation)]] {
        struct Frame {
            let name: String
            let references: [(name: String, location: SourceLocation)]
            var next = 0
        }
        enum Visit { case onPath, finished }
        var cycles: [[(String, SourceLocation)]] = []
        var visits: [String: Visit] = [:]
        var reported: Set<Set<String>> = []
        for start in names where visits[start] == nil {
            var path = [Frame(name: start, references: unconditionalReferences(in: start))]
            visits[start] = .onPath
            while let top = path.indices.last {
                guard path[top].next < path[top].references.count else {
                    visits[path[top].name] = .finished
                    path.removeLast()
                    continue
                }
                let reference = path[top].references[path[top].next]
                path[top].next += 1
                guard contains(reference.name) else { continue }
                switch visits[reference.name] {
                case .onPath?:
                    // Each template on the cycle, with the include it follows (the one just taken).
                    let first = path.firstIndex { $0.name == reference.name } ?? 0
                    let cycle = path[first...].map { ($0.name, $0.references[$0.next - 1].location) }
                    if reported.insert(Set(cycle.map(\.0))).inserted { cycles.append(cycle) }
                case .finished?:
                    continue
                case nil:
                    visits[reference.name] = .onPath
                    path.append(Frame(name: reference.name, references: unconditionalReferences(in: reference.name)))
                }
            }
        }
        return cycles
    }

    /// Renders the named template. A missing partial renders as empty text (as the Mustache spec asks);
    /// callers that want missing partials to be errors check `references(in:)` first.
    public func render(_ name: String, _ context: MustacheValue) throws(MustacheError) -> String {
        String(decoding: try renderBytes(name, context), as: UTF8.self)
    }

    /// `render` as UTF-8 bytes, which is what pages are written and checked as: appending to a
    /// byte buffer costs a fraction of appending to a String, and a page is dozens of appends.
    /// `itemMemory`: bytes of list items the caller keeps from its last render of this page
    /// (see `MustacheItemMemory`), used where it has them, and given what this render wrote.
    /// `capacity`: the bytes expected, when known (a larger page than most), or 0.
    package func renderBytes(
        _ name: String, _ context: MustacheValue, itemMemory: (any MustacheItemMemory)? = nil, capacity: Int = 0
    ) throws(MustacheError) -> [UInt8] {
        try renderTemplate(name, context, itemMemory: itemMemory, capacity: capacity).bytes
    }

    /// `render` by a walk of the template's nodes even where a compiled program stands for them,
    /// for tests that hold the two to the same output.
    package func renderByWalk(_ name: String, _ context: MustacheValue) throws(MustacheError) -> String {
        String(decoding: try renderTemplate(name, context, walksNodes: true).bytes, as: UTF8.self)
    }

    /// `renderBytes`, with where each `.utf8` value was written unescaped.
    package func renderTemplate(
        _ name: String, _ context: MustacheValue, itemMemory: (any MustacheItemMemory)? = nil, capacity: Int = 0
    ) throws(MustacheError) -> RenderedTemplate {
        try renderTemplate(name, context, itemMemory: itemMemory, capacity: capacity, walksNodes: false)
    }

    private func renderTemplate(
        _ name: String, _ context: MustacheValue, itemMemory: (any MustacheItemMemory)? = nil, capacity: Int = 0,
        walksNodes: Bool
    ) throws(MustacheError) -> RenderedTemplate {
        guard let nodes = templates[name] else {
            throw MustacheError(templateName: name, location: nil, message: "no template named '\(name)'")
        }
        var renderer = MustacheRenderer(library: self, chain: [name])
        renderer.itemMemory = itemMemory
        var stack = [context]
        // A sixty-fourth more than expected: an edit that lengthens the page a little still fits.
        var output = RenderedBytes(capacity: max(8192, capacity + capacity / 64))
        // The program, unless the caller keeps list items (which the walk tells apart by their nodes).
        if itemMemory == nil, !walksNodes, let program = programs[name] {
            renderer.run(program, stack: &stack, into: &output)
        } else {
            try renderer.render(nodes, stack: &stack, overrides: [], into: &output)
        }
        return RenderedTemplate(bytes: output.bytes, rawUTF8Ranges: output.rawUTF8Ranges)
    }
}

/// A template's output, and where in it each `.utf8` value was written as it is (unescaped, by
/// `{{{name}}}` or `{{&name}}`), in order: a caller that knows what such a value holds (HTML it
/// made) need not read those bytes again.
package struct RenderedTemplate: Sendable {
    package var bytes: [UInt8]
    package var rawUTF8Ranges: [Range<Int>]
}

/// A section over a list, as a caller that keeps its items' bytes tells one from another: its
/// name and the nodes (and replaced blocks) each item is rendered with.
package struct MustacheListSection: Equatable, Sendable {
    package let name: MustacheName
    package let children: [MustacheNode]
    package let overrides: [MustacheBlock]
}

/// Bytes of list items that a caller keeps from one render of a page to the next (the index page
/// in `ltrain serve`: 10,000 rows and 10,000 map stops, of which a title edit changes one each).
/// The engine says which items' bytes depend on the item and the section alone (rendering them
/// read nothing outside the item); whether kept bytes still stand for an item is the caller's to
/// say, by what the item is made from, and so are the templates the section can include.
package protocol MustacheItemMemory: AnyObject, Sendable {
    /// The bytes kept for each of `items`, which `section` is about to render, by position (nil
    /// for an item to render); nil when none are kept.
    func keptItems(of section: MustacheListSection, items: [MustacheValue]) -> [[UInt8]?]?
    /// What this render wrote for each of `items` of `section` (nil where one read outside itself).
    func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue])
}

private struct MustacheRenderer {
    let library: MustacheLibrary
    var chain: [String]
    /// How many `render` calls are under way, one inside the other.
    private var depth = 0
    /// How many partials and parents this render has included so far.
    private var includes = 0
    /// The caller's bytes of list items (see `MustacheItemMemory`), or nil.
    var itemMemory: (any MustacheItemMemory)?
    /// The outermost stack frame a lookup has read since this was last reset (`Int.max`: none;
    /// -1: a name found nowhere, which depends on every frame).
    private var outermostFrameRead = Int.max

    init(library: MustacheLibrary, chain: [String]) {
        self.library = library
        self.chain = chain
    }

    /// The value a name stands for: its first part looked up from the innermost frame out, the
    /// others inside what that found. Frames are read in place (by index), not copied.
    mutating func lookup(_ name: MustacheName, in stack: [MustacheValue]) -> MustacheValue? {
        let parts = name.parts
        let fingerprints = name.fingerprints
        guard !parts.isEmpty else {
            outermostFrameRead = min(outermostFrameRead, stack.count - 1)
            return stack.last
        }
        var value: MustacheValue?
        var frame = stack.count - 1
        while frame >= 0 {
            if let found = stack[frame][parts[0], fingerprints[0]] {
                value = found
                break
            }
            frame -= 1
        }
        outermostFrameRead = min(outermostFrameRead, frame)
        var part = 1
        while part < parts.count, let current = value {
            value = current[parts[part], fingerprints[part]]
            part += 1
        }
        return value
    }

    mutating func templateName(_ reference: TemplateReference, in stack: [MustacheValue]) -> String? {
        guard reference.isDynamic else { return reference.name.text }
        switch lookup(reference.name, in: stack) {
        case .string(let name)?: return name
        case .utf8(let bytes)?: return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    /// Writes a `.utf8` value, noting where when unescaped (a function of its own, as the tags
    /// after `render` are: see there).
    private static func appendUTF8(_ bytes: [UInt8], isEscaped: Bool, into output: inout RenderedBytes) {
        let start = output.count
        bytes.withUnsafeBufferPointer { if isEscaped { output.appendEscapingHTML($0) } else { output.append($0) } }
        if !isEscaped && !bytes.isEmpty { output.rawUTF8Ranges.append(start..<output.count) }
    }

    /// Writes what a variable tag writes for `value`.
    @inline(__always)
    private static func append(_ value: MustacheValue, isEscaped: Bool, into output: inout RenderedBytes) {
        if case .utf8(let bytes) = value {
            appendUTF8(bytes, isEscaped: isEscaped, into: &output)
            return
        }
        let text = value.interpolatedText
        if isEscaped { output.appendEscapingHTML(text) } else { output.append(text) }
    }

    /// Renders a compiled template (see `MustacheProgram`): what `render` writes for the nodes it
    /// stands for, which hold no tag that can fail.
    mutating func run(_ program: MustacheProgram, stack: inout [MustacheValue], into output: inout RenderedBytes) {
        program.steps.withUnsafeBufferPointer { steps in
            program.text.withUnsafeBufferPointer { text in
                program.names.withUnsafeBufferPointer { names in
                    run(steps, 0..<steps.count, text: text, names: names, stack: &stack, into: &output)
                }
            }
        }
    }

    private mutating func run(
        _ steps: UnsafeBufferPointer<MustacheProgram.Step>, _ range: Range<Int>, text: UnsafeBufferPointer<UInt8>,
        names: UnsafeBufferPointer<MustacheName>, stack: inout [MustacheValue], into output: inout RenderedBytes
    ) {
        var index = range.lowerBound
        while index < range.upperBound {
            let step = steps[index]
            index += 1
            switch step.kind {
            case .text:
                output.append(UnsafeBufferPointer(rebasing: text[Int(step.first)..<Int(step.second)]))
            case .escaped, .raw:
                guard let value = lookup(names[Int(step.first)], in: stack) else { continue }
                Self.append(value, isEscaped: step.kind == .escaped, into: &output)
            case .section, .invertedSection:
                let end = Int(step.second)
                let value = lookup(names[Int(step.first)], in: stack) ?? .null
                if step.kind == .invertedSection {
                    if value.isFalsey { run(steps, index..<end, text: text, names: names, stack: &stack, into: &output) }
                } else if !value.isFalsey {
                    if case .array(let items) = value {
                        for item in items {
                            stack.append(item)
                            run(steps, index..<end, text: text, names: names, stack: &stack, into: &output)
                            stack.removeLast()
                        }
                    } else {
                        stack.append(value)
                        run(steps, index..<end, text: text, names: names, stack: &stack, into: &output)
                        stack.removeLast()
                    }
                }
                index = end
            }
        }
    }

    /// Renders `nodes`. `overrides` are the blocks that replace same-named `{{$block}}`s, the first
    /// of a name winning: a page has a handful, so a search by name beats hashing each one.
    mutating func render(
        _ nodes: [MustacheNode], stack: inout [MustacheValue], overrides: [MustacheBlock],
        into output: inout RenderedBytes
    ) throws(MustacheError) {
        guard depth < MustacheLibrary.maximumRenderDepth else { throw nestedTooDeeply() }
        depth += 1
        defer { depth -= 1 }
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(text)
            case .variable(let name, let isEscaped):
                guard let value = lookup(name, in: stack) else { continue }
                Self.append(value, isEscaped: isEscaped, into: &output)
            case .section(let name, let children, let isInverted):
                let value = lookup(name, in: stack) ?? .null
                if isInverted {
                    if value.isFalsey { try render(children, stack: &stack, overrides: overrides, into: &output) }
                    continue
                }
                if value.isFalsey { continue }
                if case .array(let items) = value {
                    if let itemMemory {
                        try renderRemembering(
                            itemMemory, name, items, children, stack: &stack, overrides: overrides, into: &output)
                        continue
                    }
                    for item in items {
                        stack.append(item)
                        try render(children, stack: &stack, overrides: overrides, into: &output)
                        stack.removeLast()
                    }
                } else {
                    stack.append(value)
                    try render(children, stack: &stack, overrides: overrides, into: &output)
                    stack.removeLast()
                }
            case .partial(let reference, let indentation, _):
                try renderPartial(reference, indentation: indentation, stack: &stack, overrides: overrides, into: &output)
            case .parent(let reference, let blocks, let indentation, _):
                try renderParent(
                    reference, blocks: blocks, indentation: indentation, stack: &stack, overrides: overrides, into: &output)
            case .block(let block):
                try renderBlock(block, stack: &stack, overrides: overrides, into: &output)
            }
        }
    }

    // The tags below are rendered by functions of their own, not inside `render`: `render` recurses
    // once a level of nesting, so what its frame holds is paid up to `maximumRenderDepth` times
    // over on one thread's stack, and an unoptimised build (which does not inline) under
    // AddressSanitizer ran out. Optimised builds inline them, as their frames are small.

    private func nestedTooDeeply() -> MustacheError {
        MustacheError(
            templateName: chain.last ?? "", location: nil,
            message:
                "templates nest deeper than \(MustacheLibrary.maximumRenderDepth) levels when rendered (through \(chain.suffix(6).joined(separator: " → ")))",
            hint: "include fewer partials inside sections inside partials")
    }

    @inline(__always)
    private mutating func renderPartial(
        _ reference: TemplateReference, indentation: String, stack: inout [MustacheValue], overrides: [MustacheBlock],
        into output: inout RenderedBytes
    ) throws(MustacheError) {
        guard let name = templateName(reference, in: stack), let partial = library.nodes(of: name) else { return }
        let indented = Reindentation.apply(to: partial, strip: "", add: indentation, indentFirstLine: true)
        try include(name, indented, at: reference, stack: &stack, overrides: overrides, into: &output)
    }

    @inline(__always)
    private mutating func renderParent(
        _ reference: TemplateReference, blocks: [MustacheBlock], indentation: String, stack: inout [MustacheValue],
        overrides: [MustacheBlock], into output: inout RenderedBytes
    ) throws(MustacheError) {
        guard let name = templateName(reference, in: stack), let parent = library.nodes(of: name) else { return }
        let indented = Reindentation.apply(to: parent, strip: "", add: indentation, indentFirstLine: true)
        try include(
            name, indented, at: reference, stack: &stack, overrides: MustacheBlock.merging(overrides, with: blocks),
            into: &output)
    }

    @inline(__always)
    private mutating func renderBlock(
        _ block: MustacheBlock, stack: inout [MustacheValue], overrides: [MustacheBlock], into output: inout RenderedBytes
    ) throws(MustacheError) {
        try render(block.content(under: overrides), stack: &stack, overrides: overrides, into: &output)
    }

    /// A section over a list, with the caller's memory of its items: each item it has bytes for
    /// gets them; the others are rendered, and the bytes of each that read nothing outside itself
    /// are handed back.
    private mutating func renderRemembering(
        _ memory: any MustacheItemMemory, _ name: MustacheName, _ items: [MustacheValue], _ children: [MustacheNode],
        stack: inout [MustacheValue], overrides: [MustacheBlock], into output: inout RenderedBytes
    ) throws(MustacheError) {
        let section = MustacheListSection(name: name, children: children, overrides: overrides)
        let kept = memory.keptItems(of: section, items: items)
        var fragments: [[UInt8]?] = []
        fragments.reserveCapacity(items.count)
        let itemFrame = stack.count
        for index in items.indices {
            if let kept, index < kept.count, let bytes = kept[index] {
                output.append(bytes)
                fragments.append(bytes)
                continue
            }
            let start = output.count
            let outerRead = outermostFrameRead
            outermostFrameRead = Int.max
            stack.append(items[index])
            try render(children, stack: &stack, overrides: overrides, into: &output)
            stack.removeLast()
            fragments.append(outermostFrameRead >= itemFrame ? output.bytes(from: start) : nil)
            outermostFrameRead = min(outerRead, outermostFrameRead)
        }
        memory.keep(fragments, of: section, items: items)
    }

    mutating func include(
        _ name: String, _ nodes: [MustacheNode], at reference: TemplateReference, stack: inout [MustacheValue],
        overrides: [MustacheBlock], into output: inout RenderedBytes
    ) throws(MustacheError) {
        guard chain.count < MustacheLibrary.maximumDepth else {
            let cycle = Array(chain.suffix(6)) + [name]
            throw MustacheError(
                templateName: chain.last ?? name, location: reference.location,
                message:
                    "partials include each other without end (\(cycle.joined(separator: " → ")) …, deeper than \(MustacheLibrary.maximumDepth) levels)",
                hint: "put the recursive {{>\(name)}} inside a section that ends, or remove the cycle")
        }
        includes += 1
        guard includes <= MustacheLibrary.maximumIncludes else {
            throw MustacheError(
                templateName: chain.last ?? name, location: reference.location,
                message:
                    "templates include each other more than \(MustacheLibrary.maximumIncludes) times for one page (through \((chain.suffix(5) + [name]).joined(separator: " → ")) …)",
                hint: "include {{>\(name)}} fewer times, or put what it writes in this template")
        }
        chain.append(name)
        try render(nodes, stack: &stack, overrides: overrides, into: &output)
        chain.removeLast()
    }
}

/// The UTF-8 bytes of a template being rendered, in a buffer of its own: a page is a few hundred
/// appends of a few bytes each, and copying straight into owned memory costs a fraction of an
/// array append each time. Not copyable, so the buffer has exactly one owner that frees it.
package struct RenderedBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var written = 0
    private var capacity: Int
    /// Where `.utf8` values were written unescaped (see `RenderedTemplate`).
    var rawUTF8Ranges: [Range<Int>] = []

    package init(capacity: Int = 8192) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far.
    package var bytes: [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: written))
    }

    /// How many bytes have been written.
    package var count: Int { written }

    /// The bytes written since `start` bytes had been.
    package func bytes(from start: Int) -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base + start, count: written - start))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: written)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
        guard let source = part.baseAddress, !part.isEmpty else { return }
        if written + part.count > capacity { grow(toHold: written + part.count) }
        (base + written).initialize(from: source, count: part.count)
        written += part.count
    }

    package mutating func append(_ text: String) {
        text.withUTF8Bytes { append($0) }
    }

    /// Appends `text` with `&`, `<`, `>`, `"` and `'` written as HTML character references; the
    /// runs between them are copied whole.
    package mutating func appendEscapingHTML(_ text: String) {
        text.withUTF8Bytes { appendEscapingHTML($0) }
    }

    mutating func appendEscapingHTML(_ source: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for offset in source.indices {
            let reference: StaticString
            switch source[offset] {
            case UInt8(ascii: "&"): reference = "&amp;"
            case UInt8(ascii: "<"): reference = "&lt;"
            case UInt8(ascii: ">"): reference = "&gt;"
            case UInt8(ascii: "\""): reference = "&quot;"
            case UInt8(ascii: "'"): reference = "&#39;"
            default: continue
            }
            append(UnsafeBufferPointer(rebasing: source[runStart..<offset]))
            append(UnsafeBufferPointer(start: reference.utf8Start, count: reference.utf8CodeUnitCount))
            runStart = offset + 1
        }
        append(UnsafeBufferPointer(rebasing: source[runStart...]))
    }
}
