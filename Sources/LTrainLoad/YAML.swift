import CYAML
import LTrainSupport
import LTrainMarkdown
import LTrainTemplates
import LTrainPNG

/// A YAML node with the position where it starts (1-based, of the YAML text given).
public indirect enum YAMLNode: Sendable, Equatable {
    /// `isPlain` is false for quoted and block scalars, which are always strings.
    case scalar(String, isPlain: Bool, SourceLocation)
    case sequence([YAMLNode], SourceLocation)
    case mapping([(key: String, keyLocation: SourceLocation, value: YAMLNode)], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .scalar(_, _, let location), .sequence(_, let location), .mapping(_, let location):
            return location
        }
    }

    /// What an author would call this kind of value, for messages.
    public var kindDescription: String {
        switch self {
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .scalar(let text, let isPlain, _):
            if isNull { return "nothing (null)" }
            if isBoolean { return "a boolean" }
            return isPlain && Double(text) != nil ? "a number" : "a string"
        }
    }

    /// A plain scalar that YAML reads as null: nothing at all, `~`, `null`.
    public var isNull: Bool {
        guard case .scalar(let text, isPlain: true, _) = self else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// A plain scalar that YAML reads as true or false.
    public var isBoolean: Bool {
        guard case .scalar(let text, isPlain: true, _) = self else { return false }
        switch text {
        case "true", "True", "TRUE", "false", "False", "FALSE", "yes", "no", "on", "off": return true
        default: return false
        }
    }

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case let (.scalar(a, ap, al), .scalar(b, bp, bl)): return a == b && ap == bp && al == bl
        case let (.sequence(a, al), .sequence(b, bl)): return a == b && al == bl
        case let (.mapping(a, al), .mapping(b, bl)):
            return al == bl && a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.keyLocation == $1.keyLocation && $0.value == $1.value }
        default: return false
        }
    }
}

/// A YAML problem at a position of the YAML text.
public struct YAMLError: Error, Sendable, Equatable {
    public var message: String
    public var location: SourceLocation
    public var hint: String?
}

/// The one place that talks to libyaml. Parses one document into `YAMLNode`s through the event API.
/// Aliases are refused (so an alias bomb cannot expand), and nesting is bounded.
public enum YAML {
    public static let maximumDepth = 32

    /// Parses `text`; `lineOffset` is added to every line number, for YAML that starts further
    /// down a file (front matter starts on line 2).
    public static func parse(_ text: String, lineOffset: Int = 0) throws(YAMLError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(message: "libyaml could not start", location: SourceLocation(line: 1 + lineOffset, column: 1))
        }
        defer { yaml_parser_delete(&parser) }
        var source = text
        let result = source.withUTF8 { buffer -> Result<YAMLNode?, YAMLError> in
            guard let base = buffer.baseAddress else { return .success(nil) }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var builder = Builder(lineOffset: lineOffset)
            return Result { () throws(YAMLError) in try builder.run(&parser) }
        }
        return try result.get()
    }

    private struct Builder {
        /// A sequence or mapping being filled. Changed in place on the stack (never popped and
        /// pushed back), so adding an item copies nothing, and keys are looked up in a set: a
        /// mapping of N keys costs O(N).
        struct Frame {
            let isMapping: Bool
            let start: SourceLocation
            var items: [YAMLNode] = []
            var pairs: [(key: String, keyLocation: SourceLocation, value: YAMLNode)] = []
            var keys: Set<String> = []
            var pendingKey: (String, SourceLocation)?
        }
        let lineOffset: Int
        var stack: [Frame] = []
        var root: YAMLNode?
        var documents = 0

        mutating func run(_ parser: inout yaml_parser_t) throws(YAMLError) -> YAMLNode? {
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw syntaxError(parser)
                }
                defer { yaml_event_delete(&event) }
                let location = SourceLocation(
                    line: Int(event.start_mark.line) + 1 + lineOffset, column: Int(event.start_mark.column) + 1)
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return root
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    if documents > 1 {
                        throw YAMLError(
                            message: "front matter holds more than one YAML document", location: location,
                            hint: "remove the extra '---' line inside the front matter")
                    }
                case YAML_ALIAS_EVENT:
                    throw YAMLError(
                        message: "YAML aliases (*name) are not allowed in front matter", location: location,
                        hint: "write the value out in full instead of referring to an anchor")
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
                    // The text is free of NUL (checked when read), but an escape such as "\0" makes one.
                    if bytes.contains(0) {
                        throw YAMLError(
                            message: "value contains a NUL character (written as an escape such as \\0 or \\x00)",
                            location: location, hint: "remove the escape; NUL bytes are not allowed in any text")
                    }
                    let value = String(decoding: bytes, as: UTF8.self)
                    let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.plain_implicit == 1
                    try add(.scalar(value, isPlain: isPlain, location))
                case YAML_SEQUENCE_START_EVENT:
                    try push(Frame(isMapping: false, start: location), at: location)
                case YAML_MAPPING_START_EVENT:
                    try push(Frame(isMapping: true, start: location), at: location)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let frame = stack.popLast() else { continue }
                    try add(frame.isMapping ? .mapping(frame.pairs, frame.start) : .sequence(frame.items, frame.start))
                default:
                    continue
                }
            }
        }

        mutating func push(_ frame: Frame, at location: SourceLocation) throws(YAMLError) {
            guard stack.count < YAML.maximumDepth else {
                throw YAMLError(
                    message: "front matter nests deeper than \(YAML.maximumDepth) levels", location: location,
                    hint: "front matter holds a few simple keys such as title and summary")
            }
            stack.append(frame)
        }

        mutating func add(_ node: YAMLNode) throws(YAMLError) {
            guard !stack.isEmpty else {
                root = node
                return
            }
            let top = stack.count - 1
            guard stack[top].isMapping else {
                stack[top].items.append(node)
                return
            }
            if let (key, keyLocation) = stack[top].pendingKey {
                guard stack[top].keys.insert(key).inserted else {
                    throw YAMLError(
                        message: "key '\(key)' appears twice", location: keyLocation,
                        hint: "keep one '\(key):' line")
                }
                stack[top].pairs.append((key, keyLocation, node))
                stack[top].pendingKey = nil
            } else {
                guard case .scalar(let key, _, let keyLocation) = node else {
                    throw YAMLError(
                        message: "a mapping key must be plain text", location: node.location,
                        hint: "write keys as simple words, like 'title:'")
                }
                stack[top].pendingKey = (key, keyLocation)
            }
        }

        func syntaxError(_ parser: yaml_parser_t) -> YAMLError {
            let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
            let context = parser.context.map { String(cString: $0) }
            var mark = parser.problem_mark
            var message = problem
            if let context {
                let start = parser.context_mark
                message += " (\(context) that starts at line \(Int(start.line) + 1 + lineOffset), column \(Int(start.column) + 1))"
                // Running off the end is best shown where the unfinished value began.
                if problem.contains("end of stream") { mark = start }
            }
            return YAMLError(
                message: "YAML syntax error: \(message)",
                location: SourceLocation(line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1),
                hint: "check the indentation and quoting here; values containing ': ' or starting with a special character need quotes")
        }
    }
}
