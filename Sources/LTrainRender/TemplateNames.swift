import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG

/// "A name no page ever has": `{{titel}}` renders as nothing on every page, silently. Every name
/// a template uses is checked against what the pages that template can render for are given
/// (through partials, layouts and sections), and a name found in none of them is a warning at
/// its tag, with the nearest name that is there.
package enum TemplateNames {
    /// What a name can hold, as far as templates can tell: the names of an object, the items of
    /// a list, a plain value, or anything (names under it are not checked).
    indirect enum Shape: Equatable, Sendable {
        case object([String: Shape])
        case list(Shape)
        case scalar
        case any

        /// Whether every name path of `other` is a name path of this shape: a context built for a
        /// page fits the page's schema.
        func admits(_ other: Shape) -> [String] {
            switch (self, other) {
            case (.any, _), (_, .scalar):
                return []
            case (.object(let fields), .object(let otherFields)):
                return otherFields.keys.sorted().flatMap { key -> [String] in
                    guard let field = fields[key] else { return [key] }
                    return field.admits(otherFields[key] ?? .any).map { "\(key).\($0)" }
                }
            case (.list(let item), .list(let otherItem)):
                return item.admits(otherItem).map { "[].\($0)" }
            default:
                return other == .any ? [] : ["(a \(other) where the schema has \(self))"]
            }
        }

        /// The shape of an actual value (for tests that hold the schema to the contexts). `null`:
        /// the shape of an absent value.
        init(of value: MustacheValue, null: Shape = .any) {
            switch value {
            case .object(let object):
                var fields: [String: Shape] = [:]
                object.forEachField { name, field in fields[name] = Shape(of: field, null: null) }
                self = .object(fields)
            case .array(let items):
                self = .list(items.reduce(Shape.any) { $0.merged(with: Shape(of: $1, null: null)) })
            case .null:
                self = null
            default:
                self = .scalar
            }
        }

        /// The shape a value declares for a schema: an absent value (the 404 page's canonical
        /// URL) is a name the page has, holding nothing to name under it.
        init(declaring value: MustacheValue) {
            self.init(of: value, null: .scalar)
        }

        func merged(with other: Shape) -> Shape {
            switch (self, other) {
            case (.any, let shape), (let shape, .any): return shape
            case (.object(let a), .object(let b)): return .object(a.merging(b) { $0.merged(with: $1) })
            case (.list(let a), .list(let b)): return .list(a.merged(with: b))
            default: return self
            }
        }
    }

    /// The schema of each page template's context: the names a page of that kind is given, read
    /// off the pages of a specimen site (`PageSpecimen`) that has every value a page can have. A
    /// test holds every real page's context to it.
    static func schema(of template: String) -> Shape? {
        PageSpecimen.shapes[template]
    }

    /// One use of a name: where, and whether some page has it.
    private struct Use {
        var name: String
        var found = false
        /// Names that were there, for the suggestion.
        var nearby: Set<String> = []
    }

    /// Warnings for every name used in `templates` (as reached from the page templates) that no
    /// page's context has. `paths` gives each template's file for the warning.
    package static func check(_ library: MustacheLibrary, pageTemplates: [String], paths: [String: String]) -> [Diagnostic] {
        var uses: [String: [SourceLocationKey: Use]] = [:]
        for page in pageTemplates {
            guard let schema = schema(of: page), let nodes = library.nodes(of: page) else { continue }
            var walk = Walk(library: library)
            walk.visit(nodes, stack: [schema], overrides: [:], template: page, depth: 0)
            for (template, found) in walk.uses {
                for (key, use) in found {
                    var merged = uses[template, default: [:]][key] ?? Use(name: use.name)
                    merged.found = merged.found || use.found
                    merged.nearby.formUnion(use.nearby)
                    uses[template, default: [:]][key] = merged
                }
            }
        }
        var warnings: [Diagnostic] = []
        for template in uses.keys.sorted() {
            for (key, use) in uses[template, default: [:]].sorted(by: { $0.key < $1.key }) where !use.found {
                let location = SourceLocation(line: key.line, column: key.column)
                warnings.append(
                    .warning(
                        "no page has a value named '\(use.name)'; it renders as nothing\(NearestName.hint(for: use.name.split(separator: ".").last.map(String.init) ?? use.name, among: use.nearby))",
                        path: paths[template] ?? "\(template).mustache", at: location,
                        hint: "ltrain help templates lists the names each page kind has"))
            }
        }
        return warnings
    }

    struct SourceLocationKey: Hashable, Comparable {
        var line: Int
        var column: Int
        static func < (a: Self, b: Self) -> Bool { (a.line, a.column) < (b.line, b.column) }
    }

    /// One walk of a page template and everything it includes, with the stack of shapes that
    /// sections push, as rendering would.
    private struct Walk {
        let library: MustacheLibrary
        var uses: [String: [SourceLocationKey: Use]] = [:]
        /// Partials being walked, to stop at recursion.
        var including: [String] = []

        init(library: MustacheLibrary) {
            self.library = library
        }

        /// The shape `name` resolves to in `stack`, or nil with the names that were there.
        func resolve(_ name: MustacheName, in stack: [Shape]) -> (shape: Shape?, nearby: Set<String>) {
            guard let first = name.parts.first else { return (stack.last ?? .any, []) }
            var nearby: Set<String> = []
            var current: Shape?
            for frame in stack.reversed() {
                switch frame {
                case .any:
                    current = .any
                case .object(let fields):
                    if let field = fields[first] { current = field }
                    nearby.formUnion(fields.keys)
                default:
                    continue
                }
                if current != nil { break }
            }
            guard var shape = current else { return (nil, nearby) }
            for part in name.parts.dropFirst() {
                switch shape {
                case .any:
                    return (.any, [])
                case .object(let fields):
                    guard let field = fields[part] else { return (nil, Set(fields.keys)) }
                    shape = field
                default:
                    return (nil, [])
                }
            }
            return (shape, [])
        }

        package mutating func record(_ name: MustacheName, in stack: [Shape], template: String) -> Shape? {
            let (shape, nearby) = resolve(name, in: stack)
            guard name.location.line > 0 else { return shape }
            let key = SourceLocationKey(line: name.location.line, column: name.location.column)
            var use = uses[template, default: [:]][key] ?? Use(name: name.text)
            use.found = use.found || shape != nil
            use.nearby.formUnion(nearby)
            uses[template, default: [:]][key] = use
            return shape
        }

        /// Walks `nodes` of `template` with the shapes sections have pushed. `overrides`: the
        /// blocks a caller of a parent template replaces, and `owners`, the template each
        /// replacement is written in (names in it are that file's).
        mutating func visit(
            _ nodes: [MustacheNode], stack: [Shape], overrides: [String: [MustacheNode]] = [:],
            owners: [String: String] = [:], template: String, depth: Int
        ) {
            guard depth < 64 else { return }
            for node in nodes {
                switch node {
                case .text:
                    continue
                case .variable(let name, _):
                    _ = record(name, in: stack, template: template)
                case .section(let name, let children, let isInverted):
                    let shape = record(name, in: stack, template: template) ?? .any
                    var pushed = shape
                    if case .list(let item) = shape { pushed = item }
                    visit(
                        children, stack: isInverted ? stack : stack + [pushed], overrides: overrides, owners: owners,
                        template: template, depth: depth + 1)
                case .partial(let reference, _, _):
                    guard !reference.isDynamic, !including.contains(reference.name.text),
                        let partial = library.nodes(of: reference.name.text)
                    else { continue }
                    including.append(reference.name.text)
                    visit(partial, stack: stack, template: reference.name.text, depth: depth + 1)
                    including.removeLast()
                case .parent(let reference, let blocks, _, _):
                    // The outermost caller's replacement wins; each is checked as its own file's.
                    var inherited = overrides
                    var inheritedOwners = owners
                    for block in blocks where inherited[block.name] == nil {
                        inherited[block.name] = block.nodes
                        inheritedOwners[block.name] = template
                    }
                    guard !reference.isDynamic, !including.contains(reference.name.text),
                        let parent = library.nodes(of: reference.name.text)
                    else {
                        for block in blocks {
                            visit(block.nodes, stack: stack, overrides: overrides, owners: owners, template: template, depth: depth + 1)
                        }
                        continue
                    }
                    including.append(reference.name.text)
                    visit(
                        parent, stack: stack, overrides: inherited, owners: inheritedOwners,
                        template: reference.name.text, depth: depth + 1)
                    including.removeLast()
                case .block(let block):
                    if let replacement = overrides[block.name] {
                        visit(
                            replacement, stack: stack, overrides: overrides, owners: owners,
                            template: owners[block.name] ?? template, depth: depth + 1)
                    } else {
                        visit(block.nodes, stack: stack, overrides: overrides, owners: owners, template: template, depth: depth + 1)
                    }
                }
            }
        }
    }
}
