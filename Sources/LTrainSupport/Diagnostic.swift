/// A position in a source file: 1-based line and column (column counts Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// Moves past one byte of UTF-8 text: a newline starts the next line, and each byte that
    /// begins a Unicode scalar is one column.
    package mutating func advance(past byte: UInt8) {
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }
}

/// One problem found by a stage: where it is, what is wrong and how to fix it.
/// Stages never print or exit; they collect diagnostics and the CLI reports them.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public var severity: Severity
    /// Path as the user should see it (relative to the current directory where possible).
    public var path: String?
    public var location: SourceLocation?
    public var message: String
    public var hint: String?

    public init(
        _ severity: Severity = .error,
        path: String? = nil,
        location: SourceLocation? = nil,
        message: String,
        hint: String? = nil
    ) {
        self.severity = severity
        self.path = path
        self.location = location
        self.message = message
        self.hint = hint
    }

    public static func error(
        _ message: String, path: String? = nil, at location: SourceLocation? = nil, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, path: path, location: location, message: message, hint: hint)
    }

    public static func warning(
        _ message: String, path: String? = nil, at location: SourceLocation? = nil, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, path: path, location: location, message: message, hint: hint)
    }

    /// `path:line:column: error: message`, then `  hint: …` on its own line. Control characters
    /// in any part are escaped, so a file named `x\nfake.md:1:1: error: …` cannot print a line of
    /// its own.
    public var description: String {
        var prefix = ""
        if let path {
            prefix = Self.printable(path)
            if let location {
                prefix += ":\(location.line):\(location.column)"
            }
            prefix += ": "
        }
        var text = "\(prefix)\(severity.rawValue): \(Self.printable(message))"
        if let hint {
            text += "\n  hint: \(Self.printable(hint))"
        }
        return text
    }

    /// `text` with every control character (C0, DEL, C1) and every bidirectional-text control
    /// written as an escape (`\n`, `\t`, `\u{1B}`), so what is printed is what the text is.
    public static func printable(_ text: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }
}

/// All the problems of one build, thrown when any of them is an error.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    /// What to print: errors first, then warnings (each list possibly cut short, with a line that says so).
    public var diagnostics: [Diagnostic]
    /// How many errors there were, including any not in `diagnostics`.
    public var errorCount: Int

    public init(_ diagnostics: [Diagnostic], errorCount: Int? = nil) {
        self.diagnostics = diagnostics
        self.errorCount = errorCount ?? diagnostics.filter { $0.severity == .error }.count
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// This failure with `warnings` said after its own warnings: a stage that fails late still
    /// reports what the earlier stages found.
    public func adding(warnings: [Diagnostic]) -> BuildFailure {
        adding(BuildFailure(warnings, errorCount: 0))
    }

    /// This failure and `other`: every error first (this one's, then the other's), then every
    /// warning, each said once.
    public func adding(_ other: BuildFailure) -> BuildFailure {
        var seen: Set<String> = []
        let all = (diagnostics + other.diagnostics).filter { seen.insert($0.description).inserted }
        let errors = all.filter { $0.severity == .error }
        let warnings = all.filter { $0.severity == .warning }
        return BuildFailure(errors + warnings, errorCount: errorCount + other.errorCount)
    }
}

/// Collects diagnostics, so one broken build reports every problem at once. At most `limit`
/// errors and `limit` warnings are kept for printing, so a flood does not bury the terminal; the
/// counts stay exact, and only errors decide whether a build fails, however many warnings came
/// first. The same problem reported twice (same place, same words) is kept once.
public struct DiagnosticLog: Sendable {
    public static let defaultLimit = 50

    public let limit: Int
    /// The first `limit` errors and warnings, in the order reported.
    private var keptErrors: [Diagnostic] = []
    private var keptWarnings: [Diagnostic] = []
    public private(set) var errorCount = 0
    public private(set) var warningCount = 0
    private var seen: Set<String> = []

    public init(limit: Int = DiagnosticLog.defaultLimit) {
        self.limit = limit
    }

    public var hasErrors: Bool { errorCount > 0 }

    /// The errors to print, then a line saying how many more there were, if any.
    public var errors: [Diagnostic] {
        keptErrors + omitted(errorCount - keptErrors.count, .error, noun: "error")
    }

    /// The warnings to print, then a line saying how many more there were, if any.
    public var warnings: [Diagnostic] {
        keptWarnings + omitted(warningCount - keptWarnings.count, .warning, noun: "warning")
    }

    /// Everything to print: errors first, then warnings.
    public var diagnostics: [Diagnostic] { errors + warnings }

    private func omitted(_ count: Int, _ severity: Diagnostic.Severity, noun: String) -> [Diagnostic] {
        guard count > 0 else { return [] }
        return [
            Diagnostic(
                severity, message: "\(count) more \(noun)\(count == 1 ? "" : "s") not shown (only the first \(limit) are)",
                hint: severity == .error ? "fix these and build again to see the rest" : nil)
        ]
    }

    public mutating func report(_ diagnostic: Diagnostic) {
        // Printed once each, however often the cause repeats.
        guard seen.insert(diagnostic.description).inserted else { return }
        switch diagnostic.severity {
        case .error:
            errorCount += 1
            if keptErrors.count < limit { keptErrors.append(diagnostic) }
        case .warning:
            warningCount += 1
            if keptWarnings.count < limit { keptWarnings.append(diagnostic) }
        }
    }

    public mutating func report(contentsOf other: [Diagnostic]) {
        for diagnostic in other { report(diagnostic) }
    }

    /// How many more diagnostics of `severity` would be kept for printing.
    public func room(for severity: Diagnostic.Severity) -> Int {
        limit - (severity == .error ? keptErrors.count : keptWarnings.count)
    }

    /// Reports warnings known to differ from each other and from every one reported so far (each
    /// of a kind no other stage reports, at a place of its own), and counts `more` of the same
    /// that were not made: nothing is compared, since comparing formats each one, and a large
    /// site has tens of thousands.
    public mutating func report(distinct warnings: [Diagnostic], more: Int) {
        for warning in warnings {
            warningCount += 1
            if keptWarnings.count < limit { keptWarnings.append(warning) }
        }
        warningCount += more
    }

    /// Throws every collected diagnostic when any is an error.
    public func throwIfErrors() throws(BuildFailure) {
        guard hasErrors else { return }
        throw BuildFailure(diagnostics, errorCount: errorCount)
    }
}
