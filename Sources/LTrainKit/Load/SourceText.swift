#if canImport(Glibc)
    import Glibc
#endif

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
        let hasNUL = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > start else { return false }
            return memchr(base + start, 0, raw.count - start) != nil
        }
        if !hasNUL, let text = String(validating: bytes[start...], as: UTF8.self) { return .success(text) }
        if let problem = firstProblem(in: bytes, from: start) {
            return .failure(SourceTextError(problem: problem))
        }
        return .success(String(decoding: bytes[start...], as: UTF8.self))
    }

    private static func location(of offset: Int, in bytes: [UInt8], from start: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = start
        while index < offset {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column)
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
        let utf8 = text.utf8
        /// The line starting at `start`: its content range and where the next line starts.
        func line(at start: String.Index) -> (content: Substring.UTF8View, next: String.Index?) {
            guard let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                return (Substring(text)[start...].utf8, nil)
            }
            return (Substring(text)[start..<newline].utf8, utf8.index(after: newline))
        }
        func isFence(_ content: Substring.UTF8View, allowingDots: Bool) -> Bool {
            var trimmed = content[...]
            while let last = trimmed.last,
                last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t")
            {
                trimmed = trimmed.dropLast()
            }
            return trimmed.elementsEqual("---".utf8) || (allowingDots && trimmed.elementsEqual("...".utf8))
        }
        let opening = line(at: text.startIndex)
        guard isFence(opening.content, allowingDots: false), let yamlStart = opening.next else {
            return FrontMatterDocument(frontMatter: nil, body: text, bodyLineOffset: 0)
        }
        var lineNumber = 2
        var cursor: String.Index? = yamlStart
        while let start = cursor {
            let current = line(at: start)
            if isFence(current.content, allowingDots: true) {
                let yaml = String(text[yamlStart..<start])
                let body = current.next.map { String(text[$0...]) } ?? ""
                let node = try YAML.parse(yaml, lineOffset: 1)
                return FrontMatterDocument(frontMatter: node, body: body, bodyLineOffset: lineNumber)
            }
            lineNumber += 1
            cursor = current.next
        }
        throw YAMLError(
            message: "front matter opened with '---' is never closed", location: SourceLocation(line: 1, column: 1),
            hint: "add a line '---' after the last front-matter key")
    }
}
