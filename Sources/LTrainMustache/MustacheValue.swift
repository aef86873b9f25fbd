import LTrainSupport

/// The data a Mustache template renders: the JSON-like values of the Mustache spec.
public enum MustacheValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// Text held as its UTF-8 bytes, which must be valid UTF-8 (HTML that cmark wrote, say): it
    /// renders as the same text as a `.string` would, without being made a String first.
    case utf8([UInt8])
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
        case .utf8(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .array, .object: return ""
        }
    }

    subscript(key: String) -> MustacheValue? {
        self[key, MustacheObject.fingerprint(of: key)]
    }

    /// The field `key` of an object, found by its precomputed fingerprint.
    subscript(key: String, fingerprint: UInt64) -> MustacheValue? {
        if case .object(let fields) = self { return fields[key, fingerprint] }
        return nil
    }
}

/// The named fields of a Mustache object, in the order they were set. A page's context has about
/// a dozen fields, and a template looks a few dozen names up: each name carries a fingerprint (a
/// hash of its bytes, worked out once), so a lookup compares integers and reads a name's text
/// only where the fingerprints match. One array holds everything, so copying an object out of a
/// value costs a single retain. An object of more than `indexedAbove` fields (one per file of a
/// site's static folder, say) also keeps a table from name to position, so setting and finding
/// a field costs the same however many there are.
public struct MustacheObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private struct Field: Sendable {
        var fingerprint: UInt64
        var name: String
        var value: MustacheValue
    }

    private var fields: [Field] = []
    /// Each name's position in `fields`, kept only while there are more than `indexedAbove`.
    private var positions: [String: Int]?

    /// Below this many fields a search of the array is cheaper than hashing the name.
    static let indexedAbove = 32

    public init() {}

    public init(minimumCapacity: Int) {
        fields.reserveCapacity(minimumCapacity)
    }

    public init(_ fields: [String: MustacheValue]) {
        self.init(minimumCapacity: fields.count)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(fields: elements)
    }

    /// The fields in the order given; a name given twice keeps its last value.
    package init(fields: [(String, MustacheValue)]) {
        self.init(minimumCapacity: fields.count)
        for (name, value) in fields { self[name] = value }
    }

    public var count: Int { fields.count }

    /// Calls `body` with each field's name and value, in the order they were set.
    public func forEachField(_ body: (String, MustacheValue) -> Void) {
        for field in fields { body(field.name, field.value) }
    }

    /// Set in the fingerprint of a name that is not all ASCII.
    private static let notASCII: UInt64 = 1 << 63

    /// FNV-1a over the name's UTF-8 bytes, its top bit telling whether the name is all ASCII.
    /// ASCII names are equal exactly when their bytes are, so equal ones have equal fingerprints;
    /// other names may be equal as Strings (canonically equivalent) with different bytes.
    static func fingerprint(of name: String) -> UInt64 {
        name.withUTF8Bytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var bytesOr: UInt8 = 0
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                bytesOr |= byte
            }
            return bytesOr < 0x80 ? hash & ~notASCII : hash | notASCII
        }
    }

    private func position(of name: String, _ fingerprint: UInt64) -> Int? {
        if let positions { return positions[name] }
        if let found = fields.firstIndex(where: { $0.fingerprint == fingerprint && $0.name == name }) { return found }
        guard fingerprint & Self.notASCII != 0 else { return nil }
        return fields.firstIndex { $0.fingerprint & Self.notASCII != 0 && $0.name == name }
    }

    /// How many fields finding `name` reads (its fingerprint compared, or its text): the work a
    /// lookup does, for tests that hold it constant as objects grow.
    package func fieldsRead(findingName name: String) -> Int {
        if let positions { return positions[name] == nil ? 0 : 1 }
        let fingerprint = Self.fingerprint(of: name)
        let found = fields.firstIndex { $0.fingerprint == fingerprint && $0.name == name }
        return found.map { $0 + 1 } ?? fields.count * (fingerprint & Self.notASCII != 0 ? 2 : 1)
    }

    /// Starts or ends the table of positions as the object grows past `indexedAbove` or shrinks.
    private mutating func updatePositions() {
        if fields.count > Self.indexedAbove {
            guard positions == nil else { return }
            var table = [String: Int](minimumCapacity: fields.count)
            for (position, field) in fields.enumerated() { table[field.name] = position }
            positions = table
        } else {
            positions = nil
        }
    }

    /// The value of a field whose fingerprint is already known.
    subscript(name: String, fingerprint: UInt64) -> MustacheValue? {
        position(of: name, fingerprint).map { fields[$0].value }
    }

    /// The value of a field; setting nil removes it, setting an existing name replaces its value.
    public subscript(name: String) -> MustacheValue? {
        get { self[name, Self.fingerprint(of: name)] }
        set {
            let fingerprint = Self.fingerprint(of: name)
            if let position = position(of: name, fingerprint) {
                if let newValue {
                    fields[position].value = newValue
                } else {
                    fields.remove(at: position)
                    // The positions after it moved: the table is made again (or dropped).
                    positions = nil
                    updatePositions()
                }
            } else if let newValue {
                positions?[name] = fields.count
                fields.append(Field(fingerprint: fingerprint, name: name, value: newValue))
                updatePositions()
            }
        }
    }

    /// Objects are equal when they have the same names with equal values, in any order.
    public static func == (lhs: MustacheObject, rhs: MustacheObject) -> Bool {
        lhs.count == rhs.count && lhs.fields.allSatisfy { rhs[$0.name, $0.fingerprint] == $0.value }
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
