/// A template with its fixed partials, parents and blocks put in place once, as one flat list of
/// steps over one buffer of text. Rendering a page walks the steps: it resolves no include, looks
/// up no block and copies no node (a step holds no reference, so walking one retains nothing).
/// Made only where that gives exactly what the walk of the nodes gives (`compile` says when).
struct MustacheProgram: Sendable {
    enum Kind: UInt8, Sendable {
        /// `text[first..<second]`.
        case text
        /// `names[first]`, HTML-escaped.
        case escaped
        /// `names[first]`, as it is.
        case raw
        /// `names[first]`; its content is the steps up to `second`.
        case section
        /// `section`, rendered when the value is falsey.
        case invertedSection
    }

    struct Step: Sendable {
        var kind: Kind
        var first: Int32
        var second: Int32
    }

    let steps: [Step]
    let text: [UInt8]
    let names: [MustacheName]

    /// Bounds past which a template is left to the walk: its steps, its text, and the nodes
    /// compiling it visits (partials that each include the next twice multiply all three, and a
    /// chain of them that writes nothing would multiply the visits alone).
    static let maximumSteps = 1 << 16
    static let maximumText = 1 << 24
    static let maximumVisits = 1 << 17

    /// The program of `template`, or nil when one cannot stand for it: it names a partial or
    /// parent by a value (known only when rendering), or it includes templates or nests deeper
    /// than rendering allows (where the walk reports an error, or includes a template in itself
    /// inside a section whose data ends it).
    static func compile(_ template: String, in library: MustacheLibrary) -> MustacheProgram? {
        guard let nodes = library.nodes(of: template) else { return nil }
        var compiler = Compiler(library: library)
        // As `MustacheLibrary.renderTemplate` starts the walk: the template alone on the chain.
        guard compiler.emit(nodes, overrides: [], chain: 1, depth: 0) else { return nil }
        compiler.flushText()
        return MustacheProgram(steps: compiler.steps, text: compiler.text, names: compiler.names)
    }

    /// Emits steps by the walk's own rules (`MustacheRenderer.render` and the functions it calls),
    /// with `chain` and `depth` counted as the walk counts them.
    private struct Compiler {
        let library: MustacheLibrary
        var steps: [Step] = []
        var text: [UInt8] = []
        var names: [MustacheName] = []
        /// Where the text since the last other step starts in `text`.
        private var pendingText: Int = 0
        private var visits = 0

        init(library: MustacheLibrary) {
            self.library = library
        }

        /// Ends the current run of text with a step (neighbouring text nodes make one).
        mutating func flushText() {
            guard text.count > pendingText else { return }
            steps.append(Step(kind: .text, first: Int32(pendingText), second: Int32(text.count)))
            pendingText = text.count
        }

        private mutating func add(_ kind: Kind, _ name: MustacheName) -> Int {
            flushText()
            names.append(name)
            steps.append(Step(kind: kind, first: Int32(names.count - 1), second: 0))
            return steps.count - 1
        }

        private var isTooLarge: Bool {
            steps.count >= MustacheProgram.maximumSteps || text.count >= MustacheProgram.maximumText
                || visits >= MustacheProgram.maximumVisits
        }

        mutating func emit(_ nodes: [MustacheNode], overrides: [MustacheBlock], chain: Int, depth: Int) -> Bool {
            guard depth < MustacheLibrary.maximumRenderDepth, !isTooLarge else { return false }
            for node in nodes {
                visits += 1
                switch node {
                case .text(let string):
                    text.append(contentsOf: string.utf8)
                case .variable(let name, let isEscaped):
                    _ = add(isEscaped ? .escaped : .raw, name)
                case .section(let name, let children, let isInverted):
                    let start = add(isInverted ? .invertedSection : .section, name)
                    guard emit(children, overrides: overrides, chain: chain, depth: depth + 1) else { return false }
                    flushText()
                    steps[start].second = Int32(steps.count)
                case .partial(let reference, let indentation, _):
                    guard !reference.isDynamic else { return false }
                    // A partial the library lacks renders as nothing.
                    guard let partial = library.nodes(of: reference.name.text) else { continue }
                    guard chain < MustacheLibrary.maximumDepth else { return false }
                    let indented = Reindentation.apply(to: partial, strip: "", add: indentation, indentFirstLine: true)
                    guard emit(indented, overrides: overrides, chain: chain + 1, depth: depth + 1) else { return false }
                case .parent(let reference, let blocks, let indentation, _):
                    guard !reference.isDynamic else { return false }
                    guard let parent = library.nodes(of: reference.name.text) else { continue }
                    guard chain < MustacheLibrary.maximumDepth else { return false }
                    let indented = Reindentation.apply(to: parent, strip: "", add: indentation, indentFirstLine: true)
                    let merged = MustacheBlock.merging(overrides, with: blocks)
                    guard emit(indented, overrides: merged, chain: chain + 1, depth: depth + 1) else { return false }
                case .block(let block):
                    let content = block.content(under: overrides)
                    guard emit(content, overrides: overrides, chain: chain, depth: depth + 1) else { return false }
                }
            }
            return !isTooLarge
        }
    }
}
