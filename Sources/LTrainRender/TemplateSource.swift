import LTrainSupport
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG
import LTrainMustache

/// A template's text with the path it is shown by, so that a broken link that came from a
/// template is reported at the line where it is written, in whichever template that is.
public struct TemplateSource: Sendable {
    public var path: String
    public var text: String
    /// Where each attribute value (`href="…"`, `src='…'`, `href=…`) first stands in the text,
    /// found in one pass when the source is made: a page with thousands of broken links looks
    /// each up at once instead of searching the text for every one.
    private let attributeValues: [String: SourceLocation]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        self.attributeValues = Self.attributeValues(in: text)
    }

    /// Where `link` is written as an attribute value, if it is written whole in this template.
    package func location(of link: String) -> SourceLocation? {
        attributeValues[link]
    }

    private static func attributeValues(in text: String) -> [String: SourceLocation] {
        var values: [String: SourceLocation] = [:]
        let bytes = Array(text.utf8)
        var location = SourceLocation(line: 1, column: 1)
        var index = 0
        /// Steps past one byte, keeping the location.
        func step() {
            location.advance(past: bytes[index])
            index += 1
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "="), index + 1 < bytes.count else {
                step()
                continue
            }
            step()
            let quote = bytes[index]
            let isQuoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
            if isQuoted { step() }
            let start = index
            let valueLocation = location
            while index < bytes.count {
                let byte = bytes[index]
                if isQuoted ? byte == quote : (byte <= 0x20 || byte == UInt8(ascii: ">")) { break }
                step()
            }
            if index > start {
                let value = String(decoding: bytes[start..<index], as: UTF8.self)
                if values[value] == nil { values[value] = valueLocation }
            }
        }
        return values
    }
}
