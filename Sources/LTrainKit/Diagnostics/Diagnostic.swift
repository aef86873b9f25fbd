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

    /// `path:line:column: error: message`, then `  hint: …` on its own line.
    public var description: String {
        var prefix = ""
        if let path {
            prefix = path
            if let location {
                prefix += ":\(location.line):\(location.column)"
            }
            prefix += ": "
        }
        var text = "\(prefix)\(severity.rawValue): \(message)"
        if let hint {
            text += "\n  hint: \(hint)"
        }
        return text
    }
}

/// All the problems of one build, thrown when any of them is an error.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

/// Collects diagnostics up to a limit, so one broken build reports every problem at once
/// without flooding the terminal.
public struct DiagnosticLog: Sendable {
    public static let defaultLimit = 50

    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var droppedCount = 0
    private var seenWarnings: Set<String> = []
    public let limit: Int

    public init(limit: Int = DiagnosticLog.defaultLimit) {
        self.limit = limit
    }

    public var hasErrors: Bool {
        droppedCount > 0 || diagnostics.contains { $0.severity == .error }
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    public mutating func report(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .warning {
            // Warnings are printed once each, however often the cause repeats.
            guard seenWarnings.insert(diagnostic.description).inserted else { return }
        }
        if diagnostics.count >= limit {
            droppedCount += 1
        } else {
            diagnostics.append(diagnostic)
        }
    }

    public mutating func report(contentsOf other: [Diagnostic]) {
        for diagnostic in other { report(diagnostic) }
    }

    /// Throws every collected diagnostic when any is an error.
    public func throwIfErrors() throws(BuildFailure) {
        guard hasErrors else { return }
        var all = diagnostics
        if droppedCount > 0 {
            all.append(.error("\(droppedCount) more problems not shown (limit \(limit))"))
        }
        throw BuildFailure(all)
    }
}
