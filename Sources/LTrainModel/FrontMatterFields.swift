import LTrainSupport
import LTrainMarkdown
import LTrainLoad

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
    package func location(of key: String) -> SourceLocation? { pair(key)?.value.location }

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
        if value.isNull {
            // `summary:` with nothing after it: the same as leaving the key out.
            if required {
                log.report(.error("'\(key)' is empty", path: path, at: value.location, hint: "give the \(noun) a \(key)"))
            }
            return nil
        }
        // Null was told above: a string or a number is taken, a boolean is not.
        guard case .scalar(let text, _, let location) = value, !value.isBoolean else {
            log.report(
                .error(
                    "'\(key)' must be a string, found \(value.kindDescription)", path: path, at: value.location,
                    hint: "put the value in quotes: \(key): \"…\""))
            return nil
        }
        let trimmed = text.trimmingWhitespace
        if required && trimmed.isEmpty {
            log.report(.error("'\(key)' is empty", path: path, at: location, hint: "give the \(noun) a \(key)"))
            return nil
        }
        guard !reportsControlCharacter(in: trimmed, named: key, at: location, log: &log) else { return nil }
        return trimmed
    }

    /// Reports a control character in a value shown on the pages (a title, a summary, a label),
    /// which HTML does not allow in text: C0 but tab, line feed, form feed and carriage return;
    /// DEL; C1. A double-quoted YAML value writes one with an escape (`\a`, `\e`, `\x1b`).
    func reportsControlCharacter(in text: String, named key: String, at location: SourceLocation, log: inout DiagnosticLog) -> Bool {
        // Every such character has a byte below 0x20, or 0x7F, or (C1, two bytes) the lead 0xC2.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return false }
        guard let control = text.unicodeScalars.first(where: { scalar in
            (scalar.value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(scalar.value)) || (scalar.value >= 0x7F && scalar.value <= 0x9F)
        }) else { return false }
        let code = String(control.value, radix: 16, uppercase: true)
        log.report(
            .error(
                "'\(key)' holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code), which a page cannot show",
                path: path, at: location, hint: "remove it (in a double-quoted value, an escape such as \\a, \\e or \\x1b writes one)"))
        return true
    }

    /// The `key: value` lines of a mapping under `key` (`labels:` and its indented lines), each
    /// value a string; other values are errors at the value. Nil when the key is absent.
    func stringMapping(_ key: String, log: inout DiagnosticLog) -> [(key: String, keyLocation: SourceLocation, text: String)]? {
        guard let (_, value) = pair(key) else { return nil }
        if value.isNull { return [] }
        guard case .mapping(let pairs, _) = value else {
            log.report(
                .error(
                    "'\(key)' must be a list of 'name: text' lines, found \(value.kindDescription)", path: path,
                    at: value.location, hint: "write it as '\(key):' and, indented below it, lines like '  done: Fertig'"))
            return nil
        }
        var result: [(key: String, keyLocation: SourceLocation, text: String)] = []
        for pair in pairs {
            guard case .scalar(let text, _, _) = pair.value, !pair.value.isNull else {
                log.report(
                    .error(
                        "'\(key).\(pair.key)' must be a string, found \(pair.value.kindDescription)", path: path,
                        at: pair.value.location, hint: "put the text in quotes: \(pair.key): \"…\""))
                continue
            }
            let trimmed = text.trimmingWhitespace
            guard !reportsControlCharacter(in: trimmed, named: "\(key).\(pair.key)", at: pair.value.location, log: &log) else {
                continue
            }
            result.append((pair.key, pair.keyLocation, trimmed))
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
        // Most values start and end with a visible ASCII character: nothing to trim (a last
        // character ending in such a byte cannot start with white space either).
        let visibleASCII: ClosedRange<UInt8> = 0x21...0x7E
        if let first = utf8.first, let last = utf8.last, visibleASCII.contains(first), visibleASCII.contains(last) {
            return self
        }
        var characters = Substring(self)
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }
}
