import LTrainSupport
import LTrainMarkdown
import LTrainTemplates
import LTrainPNG

/// Checks raw file bytes before anything parses them: NUL bytes and invalid UTF-8 are reported
/// with the line and column of the first bad byte.
enum SourceText {
    enum Problem: Equatable {
        case nulByte(SourceLocation)
        case invalidUTF8(SourceLocation)
    }

    /// Decodes UTF-8 text, dropping a leading byte-order mark.
    static func decode(_ bytes: [UInt8]) -> Result<String, SourceTextError> {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        // The common case in two fast passes (the standard library's validation, memchr for NUL);
        // only a file with a problem is walked byte by byte to say where.
        let hasNUL = bytes.withUnsafeBytes { $0.firstOffset(of: 0, from: start) != nil }
        if !hasNUL, let text = String(validating: bytes[start...], as: UTF8.self) { return .success(text) }
        if let problem = firstProblem(in: bytes, from: start) {
            return .failure(SourceTextError(problem: problem))
        }
        return .success(String(decoding: bytes[start...], as: UTF8.self))
    }

    private static func location(of offset: Int, in bytes: [UInt8], from start: Int) -> SourceLocation {
        var location = SourceLocation(line: 1, column: 1)
        for index in start..<offset { location.advance(past: bytes[index]) }
        return location
    }

    static func firstProblem(in bytes: [UInt8], from start: Int = 0) -> Problem? {
        var index = start
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead == 0 { return .nulByte(location(of: index, in: bytes, from: start)) }
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; minimum = 0x80
            case 0xE0...0xEF: length = 3; minimum = 0x800
            case 0xF0...0xF4: length = 4; minimum = 0x10000
            default: return .invalidUTF8(location(of: index, in: bytes, from: start))
            }
            guard index + length <= count else { return .invalidUTF8(location(of: index, in: bytes, from: start)) }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return .invalidUTF8(location(of: index, in: bytes, from: start)) }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                return .invalidUTF8(location(of: index, in: bytes, from: start))
            }
            index += length
        }
        return nil
    }
}

struct SourceTextError: Error {
    let problem: SourceText.Problem
}

/// A Markdown file split into its YAML front matter and its body.
public struct FrontMatterDocument: Sendable {
    /// The parsed front matter (nil when the file has none); positions are of the whole file.
    public var frontMatter: YAMLNode?
    public var body: String
    /// Lines before the body: add to a body line number to get the file's line number.
    public var bodyLineOffset: Int

    /// Splits `---` fenced front matter from the body and parses it with libyaml.
    /// Errors carry positions in the whole file.
    public static func parse(_ text: String) throws(YAMLError) -> FrontMatterDocument {
        enum Split {
            case none
            case unclosed
            case fenced(yaml: String, body: String, bodyLine: Int)
        }
        // Lines found on the text's bytes with memchr: this runs for every file of the site.
        var source = text
        let split = source.withUTF8 { bytes -> Split in
            let count = bytes.count
            func lineEnd(from start: Int) -> Int {
                UnsafeRawBufferPointer(bytes).firstOffset(of: UInt8(ascii: "\n"), from: start) ?? count
            }
            func isFence(_ start: Int, _ end: Int, allowingDots: Bool) -> Bool {
                var end = end
                while end > start
                    && (bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: " ")
                        || bytes[end - 1] == UInt8(ascii: "\t"))
                {
                    end -= 1
                }
                guard end - start == 3 else { return false }
                let first = bytes[start]
                guard first == UInt8(ascii: "-") || (allowingDots && first == UInt8(ascii: ".")) else { return false }
                return bytes[start + 1] == first && bytes[start + 2] == first
            }
            // A slice of the text, which is valid UTF-8 already and split only after a '\n':
            // copied as it is, not decoded and validated again (docs/benchmarks.md has the figure).
            func slice(_ range: Range<Int>) -> String {
                let utf8 = text.utf8
                let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
                let end = utf8.index(start, offsetBy: range.count)
                return String(Substring(utf8[start..<end]))
            }
            let openingEnd = lineEnd(from: 0)
            guard isFence(0, openingEnd, allowingDots: false), openingEnd < count else { return .none }
            let yamlStart = openingEnd + 1
            var lineNumber = 2
            var start = yamlStart
            while true {
                let end = lineEnd(from: start)
                if isFence(start, end, allowingDots: true) {
                    let bodyStart = min(end + 1, count)
                    return .fenced(yaml: slice(yamlStart..<start), body: slice(bodyStart..<count), bodyLine: lineNumber)
                }
                guard end < count else { return .unclosed }
                lineNumber += 1
                start = end + 1
            }
        }
        switch split {
        case .none:
            return FrontMatterDocument(frontMatter: nil, body: text, bodyLineOffset: 0)
        case .fenced(let yaml, let body, let bodyLine):
            let node = try YAML.parse(yaml, lineOffset: 1)
            return FrontMatterDocument(frontMatter: node, body: body, bodyLineOffset: bodyLine)
        case .unclosed:
            throw YAMLError(
                message: "front matter opened with '---' is never closed", location: SourceLocation(line: 1, column: 1),
                hint: "add a line '---' after the last front-matter key")
        }
    }
}
