import LTrainSupport

/// A problem in a Mustache template: which template, where, and what is wrong.
public struct MustacheError: Error, Sendable, Equatable, CustomStringConvertible {
    public var templateName: String
    public var location: SourceLocation?
    public var message: String
    public var hint: String?

    public init(templateName: String, location: SourceLocation?, message: String, hint: String? = nil) {
        self.templateName = templateName
        self.location = location
        self.message = message
        self.hint = hint
    }

    public var description: String {
        let position = location.map { ":\($0.line):\($0.column)" } ?? ""
        return "\(templateName)\(position): \(message)"
    }
}
