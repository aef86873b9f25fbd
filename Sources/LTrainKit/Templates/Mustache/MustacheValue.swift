/// The data a Mustache template renders: the JSON-like values of the Mustache spec.
public enum MustacheValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MustacheValue])
    case object(MustacheObject)

    /// Falsey values skip sections and render inverted sections (Mustache spec: false, null, empty list).
    var isFalsey: Bool {
        switch self {
        case .null: return true
        case .bool(let value): return !value
        case .array(let items): return items.isEmpty
        default: return false
        }
    }

    /// The text an interpolation tag writes for this value.
    var interpolatedText: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .array, .object: return ""
        }
    }

    subscript(key: String) -> MustacheValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}

/// The named fields of a Mustache object, in the order they were set. A page's context has about
/// a dozen fields, and a template looks a few dozen names up: comparing short names one by one is
/// cheaper than hashing each name to build and to search a dictionary, for every page. Objects
/// that grow large also keep an index by name, so lookups stay fast whatever their size.
public struct MustacheObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var names: [String] = []
    private var values: [MustacheValue] = []
    /// Position of each name, kept once there are more than `indexThreshold` fields.
    private var positions: [String: Int]?
    private static let indexThreshold = 16

    public init() {}

    public init(minimumCapacity: Int) {
        names.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    public init(_ fields: [String: MustacheValue]) {
        self.init(minimumCapacity: fields.count)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(fields: elements)
    }

    /// The fields in the order given; a name given twice keeps its last value.
    init(fields: [(String, MustacheValue)]) {
        self.init(minimumCapacity: fields.count)
        for (name, value) in fields { self[name] = value }
    }

    public var count: Int { names.count }

    /// The value of a field; setting nil removes it, setting an existing name replaces its value.
    public subscript(name: String) -> MustacheValue? {
        get { position(of: name).map { values[$0] } }
        set {
            if let position = position(of: name) {
                if let newValue {
                    values[position] = newValue
                } else {
                    names.remove(at: position)
                    values.remove(at: position)
                    if positions != nil { reindex() }
                }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
                if positions != nil {
                    positions?[name] = names.count - 1
                } else if names.count > Self.indexThreshold {
                    reindex()
                }
            }
        }
    }

    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return names.firstIndex(of: name)
    }

    private mutating func reindex() {
        guard names.count > Self.indexThreshold else {
            positions = nil
            return
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(names.count)
        for (position, name) in names.enumerated() { index[name] = position }
        positions = index
    }

    /// Objects are equal when they have the same names with equal values, in any order.
    public static func == (lhs: MustacheObject, rhs: MustacheObject) -> Bool {
        lhs.count == rhs.count && zip(lhs.names, lhs.values).allSatisfy { rhs[$0] == $1 }
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(MustacheObject(fields: elements))
    }
}

extension MustacheValue {
    /// `.string`, or `.null` when the text is absent.
    public static func optional(_ text: String?) -> MustacheValue {
        text.map(MustacheValue.string) ?? .null
    }
}
