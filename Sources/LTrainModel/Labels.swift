import LTrainSupport
import LTrainMarkdown
import LTrainLoad

/// The fixed words of the theme, which an author may put in their own words in `content/index.md`:
///
///     labels:
///       next: Seguinte
///       more_information: Mais informações
///       position: "Paragem {position} de {count}"
///
/// Templates read them as `{{site.labels.next}}`; a label the author leaves out keeps its default.
public struct Labels: Sendable, Equatable {
    /// Every label: its key, its default, and where the default theme shows it (for the README and
    /// for the hint on an unknown key).
    public static let all: [(key: String, text: String, shownAs: String)] = [
        ("next", "Go East", "the button to the next station (also `next_label`)"),
        ("back", "Back", "the back button when the previous title does not fit"),
        ("more_information", "More Information", "the station's button to its info page"),
        ("done", "Done", "the info page's button back to its station"),
        ("position", "Stop {position} of {count}", "a station's place on the line"),
        ("map_heading", "Map", "the index's strip map"),
        ("line_heading", "The Line, West to East", "the index's list of stations"),
        ("checklists_heading", "Checklists", "the index's list of checklists"),
        ("not_found_title", "Not Found", "the title of the 404 page"),
        ("not_found", "This stop is not on the line.", "the 404 page's text"),
        ("whole_line", "See the whole line", "the 404 page's link to the index"),
        ("start_at", "or start at", "the 404 page's words before the first station"),
        ("update_available", "A new version of this guide is available.", "the notice after a redeploy (offline sites)"),
        ("reload", "Reload", "the notice's button that shows the new version"),
        ("search", "Search", "the search field's name and the bar's search button"),
        ("no_results", "No results", "what the search field says when nothing matches"),
        ("one_result", "1 result", "the number of results, when there is one"),
        ("result_count", "{count} results", "the number of results, when there are several"),
    ]

    /// The placeholders each label that fills some may hold; the others take none.
    static let placeholdersByLabel: [String: [String]] = [
        "position": ["position", "count"], "result_count": ["count"],
    ]

    public private(set) var texts: [String: String]

    public init(_ overrides: [String: String] = [:]) {
        var texts: [String: String] = [:]
        for label in Self.all { texts[label.key] = overrides[label.key] ?? label.text }
        self.texts = texts
    }

    public subscript(key: String) -> String { texts[key] ?? "" }

    /// "Stop 3 of 6": the `position` label with its placeholders filled in.
    public func position(_ position: Int, of count: Int) -> String {
        PositionLabel(self, count: count).text(at: position)
    }

    /// The `position` label on a line of `count` stations: `{count}` filled in once, `{position}`
    /// for each station page, so a build does not read the label again for every one.
    public struct PositionLabel: Sendable {
        /// The label's text between its `{position}` placeholders, with `{count}` filled in.
        private let parts: [String]

        public init(_ labels: Labels, count: Int) {
            // In one pass over the UTF-8 bytes (`{` is never part of another character's bytes):
            // Foundation's `replacingOccurrences` or a walk by Characters showed in profiles.
            var text = labels["position"]
            parts = text.withUTF8 { label in
                var parts: [String] = []
                var part: [UInt8] = []
                part.reserveCapacity(label.count + 8)
                var index = 0
                while index < label.count {
                    if label[index] == UInt8(ascii: "{") {
                        if Labels.hasPlaceholder("{position}", in: label, at: index) {
                            parts.append(String(decoding: part, as: UTF8.self))
                            part.removeAll(keepingCapacity: true)
                            index += "{position}".utf8.count
                            continue
                        }
                        if Labels.hasPlaceholder("{count}", in: label, at: index) {
                            part += String(count).utf8
                            index += "{count}".utf8.count
                            continue
                        }
                    }
                    part.append(label[index])
                    index += 1
                }
                parts.append(String(decoding: part, as: UTF8.self))
                return parts
            }
        }

        /// The label of the station at `position` (from 1).
        public func text(at position: Int) -> String {
            guard parts.count > 1 else { return parts[0] }
            // Appended in a loop: `joined(separator:)` is not specialized here and cost more
            // than the rest of filling it in.
            let number = String(position)
            var text = parts[0]
            for part in parts.dropFirst() {
                text += number
                text += part
            }
            return text
        }
    }

    fileprivate static func hasPlaceholder(_ placeholder: StaticString, in label: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let count = placeholder.utf8CodeUnitCount
        guard index + count <= label.count else { return false }
        let bytes = UnsafeBufferPointer(start: placeholder.utf8Start, count: count)
        return label[index..<index + count].elementsEqual(bytes)
    }

    /// A placeholder as written in a label: `{count}`, or `{{count}}` in Mustache's spelling.
    struct Placeholder: Equatable {
        var name: String
        var isDoubled: Bool
        var written: String { isDoubled ? "{{\(name)}}" : "{\(name)}" }
    }

    /// The placeholders written in `text`: a name of letters, digits and `_` in braces, one or two.
    static func placeholders(in text: String) -> [Placeholder] {
        var found: [Placeholder] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            var name = rest[rest.index(after: open)..<close]
            var after = rest.index(after: close)
            let isDoubled = name.first == "{" && rest[after...].first == "}"
            if isDoubled {
                name = name.dropFirst()
                after = rest.index(after: after)
            }
            if !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") }) {
                found.append(Placeholder(name: String(name), isDoubled: isDoubled))
            }
            rest = rest[after...]
        }
        return found
    }
}
