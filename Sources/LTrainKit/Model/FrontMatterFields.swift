import LTrainSupport
import LTrainMustache
import LTrainMarkdown

/// Reads typed fields out of front matter, reporting wrong types and unknown keys where they stand.
struct FrontMatterFields {
    private let pairs: [(key: String, keyLocation: SourceLocation, value: YAMLNode)]
    private let path: String
    private let knownKeys: Set<String>
    private let noun: String

    init(_ node: YAMLNode?, path: String, knownKeys: Set<String>, noun: String, log: inout DiagnosticLog) {
        self.path = path
        self.knownKeys = knownKeys
        self.noun = noun
        switch node {
        case .mapping(let pairs, _)?:
            self.pairs = pairs
        case nil:
            self.pairs = []
        case let other?:
            self.pairs = []
            log.report(
                .error(
                    "front matter must be a list of 'key: value' lines, found \(other.kindDescription)", path: path,
                    at: other.location, hint: "write it as 'title: Union Square'"))
        }
        for pair in pairs where !knownKeys.contains(pair.key) {
            let suggestion = knownKeys.sorted().joined(separator: ", ")
            log.report(
                .warning(
                    "unknown front-matter key '\(pair.key)' is ignored\(NearestName.hint(for: pair.key, among: knownKeys))",
                    path: path, at: pair.keyLocation,
                    hint: "\(noun) front matter understands: \(suggestion)"))
        }
    }

    private func pair(_ key: String) -> (keyLocation: SourceLocation, value: YAMLNode)? {
        pairs.first { $0.key == key }.map { ($0.keyLocation, $0.value) }
    }

    /// Where the value of `key` is written, if it is.
    func location(of key: String) -> SourceLocation? { pair(key)?.value.location }

    /// The location of the front matter as a whole, for 'missing key' errors.
    var startLocation: SourceLocation { pairs.first?.keyLocation ?? SourceLocation(line: 1, column: 1) }

    func string(_ key: String, required: Bool, log: inout DiagnosticLog) -> String? {
        guard let (_, value) = pair(key) else {
            if required {
                log.report(
                    .error(
                        "missing '\(key)' in front matter", path: path,
                        at: pairs.isEmpty ? SourceLocation(line: 1, column: 1) : startLocation,
                        hint: pairs.isEmpty
                            ? "start the file with three lines: '---', '\(key): …', '---'"
                            : "add a line '\(key): …' to the front matter"))
            }
            return nil
        }
        let kind = value.kindDescription
        if kind == "nothing (null)" {
            // `summary:` with nothing after it: the same as leaving the key out.
            if required {
                log.report(.error("'\(key)' is empty", path: path, at: value.location, hint: "give the \(noun) a \(key)"))
            }
            return nil
        }
        guard case .scalar(let text, _, let location) = value, kind == "a string" || kind == "a number" else {
            log.report(
                .error(
                    "'\(key)' must be a string, found \(kind)", path: path, at: value.location,
                    hint: "put the value in quotes: \(key): \"…\""))
            return nil
        }
        let trimmed = text.trimmingWhitespace
        if required && trimmed.isEmpty {
            log.report(.error("'\(key)' is empty", path: path, at: location, hint: "give the \(noun) a \(key)"))
            return nil
        }
        return trimmed
    }

    /// The `key: value` lines of a mapping under `key` (`labels:` and its indented lines), each
    /// value a string; other values are errors at the value. Nil when the key is absent.
    func stringMapping(_ key: String, log: inout DiagnosticLog) -> [(key: String, keyLocation: SourceLocation, text: String)]? {
        guard let (_, value) = pair(key) else { return nil }
        if value.kindDescription == "nothing (null)" { return [] }
        guard case .mapping(let pairs, _) = value else {
            log.report(
                .error(
                    "'\(key)' must be a list of 'name: text' lines, found \(value.kindDescription)", path: path,
                    at: value.location, hint: "write it as '\(key):' and, indented below it, lines like '  done: Fertig'"))
            return nil
        }
        var result: [(key: String, keyLocation: SourceLocation, text: String)] = []
        for pair in pairs {
            guard case .scalar(let text, _, _) = pair.value,
                ["a string", "a number", "a boolean"].contains(pair.value.kindDescription)
            else {
                log.report(
                    .error(
                        "'\(key).\(pair.key)' must be a string, found \(pair.value.kindDescription)", path: path,
                        at: pair.value.location, hint: "put the text in quotes: \(pair.key): \"…\""))
                continue
            }
            result.append((pair.key, pair.keyLocation, text.trimmingWhitespace))
        }
        return result
    }

    func bool(_ key: String, log: inout DiagnosticLog) -> Bool? {
        guard let (_, value) = pair(key) else { return nil }
        if case .scalar(let text, true, _) = value {
            switch text {
            case "true", "True", "TRUE", "yes": return true
            case "false", "False", "FALSE", "no": return false
            default: break
            }
        }
        log.report(
            .error(
                "'\(key)' must be true or false, found \(value.kindDescription)", path: path, at: value.location,
                hint: "write \(key): true or \(key): false"))
        return nil
    }
}

extension String {
    /// The text without leading and trailing white space (including newlines).
    var trimmingWhitespace: String {
        var characters = Substring(self)
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }
}
