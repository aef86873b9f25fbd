import CCmark
import LTrainSupport

/// Markdown that is not CommonMark: what a writer used to GitHub or another flavour expects, and
/// what libcmark (CommonMark without extensions) does with it instead. Found so the author is
/// told, never left with a silently garbled page.
public struct MarkdownNotice: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case table
        case footnote
        case strikethrough
        case taskListItem
        case bareURL
        case omittedHTML
    }

    public var kind: Kind
    /// 1-based, in the Markdown text given (add the front matter's lines for the file's).
    public var line: Int
    /// 1-based, in Unicode scalars.
    public var column: Int
    /// How many more of the same kind the text holds after this one.
    public var more: Int = 0

    /// What is wrong, for a warning.
    public var message: String {
        let what: String
        switch kind {
        case .table:
            what = "tables are not CommonMark: this one shows as one paragraph, its rows run together with every '|' in them"
        case .footnote:
            what =
                "footnotes are not CommonMark: each '[^…]' shows as typed, and each note as a paragraph of its own "
                + "(a note of one word or URL does not show at all)"
        case .strikethrough:
            what = "'~~strikethrough~~' is not CommonMark: the tildes show as they are"
        case .taskListItem:
            what = "task-list items are not CommonMark: '[ ]' and '[x]' show as text, with no check box"
        case .bareURL:
            what = "a bare URL is not a link in CommonMark: it shows as plain text"
        case .omittedHTML:
            what = "raw HTML is omitted: unsafe_html is off"
        }
        return more > 0 ? "\(what) (\(more) more in this file)" : what
    }

    /// How to write it instead, for the warning's hint.
    public var hint: String {
        switch kind {
        case .table:
            return "write the rows as a list, or (with unsafe_html: true in index.md) as an HTML <table>"
        case .footnote:
            return "write the note in the text, in parentheses, or link to a heading: [see below](#notes)"
        case .strikethrough:
            return "write <del>…</del> with unsafe_html: true in index.md, or reword it"
        case .taskListItem:
            return "make it a checklist page (content/checklists/NAME.md), or write the item without '[ ]'"
        case .bareURL:
            return "put it in angle brackets, <https://example.org/>, or write [a label](https://example.org/)"
        case .omittedHTML:
            return "write it in Markdown, or set unsafe_html: true in index.md if the HTML is yours and trusted"
        }
    }
}

/// The notices of one Markdown text, by the path it is shown with: found as a page rendered the
/// text (so that it is parsed once), and gathered for the build's warnings.
public struct TextNotices: Sendable, Equatable {
    public var displayPath: String
    public var notices: [MarkdownNotice]

    public init(displayPath: String, notices: [MarkdownNotice]) {
        self.displayPath = displayPath
        self.notices = notices
    }
}

extension Markdown {
    /// The places in `text` that are not CommonMark (see `MarkdownNotice`), the first of each kind
    /// with how many more there are. Most texts have none of the characters any of them needs and
    /// are not parsed at all; the others are parsed once with libcmark, so nothing inside code
    /// (spans or blocks) or inside a link is ever taken for one.
    public static func notices(in text: String, options: MarkdownOptions = MarkdownOptions()) -> [MarkdownNotice] {
        var work = 0
        return notices(in: text, options: options, work: &work)
    }

    /// `notices(in:options:)`, adding to `work` the bytes and nodes it read: every byte of the
    /// text is read a bounded number of times, whatever its shape, which tests hold it to.
    package static func notices(in text: String, options: MarkdownOptions, work: inout Int) -> [MarkdownNotice] {
        // The prefilter's read of every byte.
        work += text.utf8.count
        return withScannedText(text, options: options, findsNotices: true) { scan in
            guard scan != nil else { return [] }
            return withDocument(text, options: options) { document in
                scan?.walk(document)
                let notices = scan?.finished() ?? []
                work += scan?.work ?? 0
                return notices
            }
        }
    }

    /// Whether `text` holds any character sequence a notice needs: most texts do not, and are
    /// then not parsed a second time. A `scheme://` right after `(` or `<` is a link's destination
    /// (`[the MTA](https://mta.info/)`, `<https://mta.info/>`), not a bare URL. One look-up a byte,
    /// and a closer look only at the few bytes that can start one, since it runs for every text of
    /// every build (figure in docs/benchmarks.md, "Optimisations").
    static func mayHoldNotices(_ text: String, options: MarkdownOptions) -> Bool {
        var text = text
        return text.withUTF8 { mayHoldNotices($0, options: options) }
    }

    static func mayHoldNotices(_ bytes: UnsafeBufferPointer<UInt8>, options: MarkdownOptions) -> Bool {
        let count = bytes.count
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        for index in 0..<count where noticeStarts[Int(bytes[index])] {
            let next = index + 1 < count ? bytes[index + 1] : 0
            switch bytes[index] {
            case UInt8(ascii: "|"):
                return true
            case UInt8(ascii: "~") where next == UInt8(ascii: "~"):
                return true
            case UInt8(ascii: "[") where [UInt8(ascii: "^"), UInt8(ascii: " "), UInt8(ascii: "x"), UInt8(ascii: "X")].contains(next):
                return true
            case UInt8(ascii: "<") where !options.allowsUnsafeHTML:
                return true
            case UInt8(ascii: ":") where next == UInt8(ascii: "/"):
                // The byte before the scheme (`https`) it ends.
                var start = index
                while start > 0 && isLetter(bytes[start - 1]) { start -= 1 }
                if start < index && !isDestination(bytes, before: start) { return true }
            case UInt8(ascii: ".") where index >= 3:
                // `www.`, not right after `/` or `(` (a link's `http://www.` or `(www.`).
                if bytes[index - 1] == UInt8(ascii: "w") && bytes[index - 2] == UInt8(ascii: "w")
                    && bytes[index - 3] == UInt8(ascii: "w")
                {
                    let before = index >= 4 ? bytes[index - 4] : 0
                    if !isLetter(before) && before != UInt8(ascii: "/") && !isDestination(bytes, before: index - 3) { return true }
                }
            default:
                break
            }
        }
        return false
    }

    /// Whether the address starting at `start` is a link's destination (`](https://…`) or an
    /// autolink (`<https://…>`), not a bare URL in the text: a `(` in prose does not make one.
    private static func isDestination(_ bytes: UnsafeBufferPointer<UInt8>, before start: Int) -> Bool {
        guard start > 0 else { return false }
        if bytes[start - 1] == UInt8(ascii: "<") { return true }
        return start > 1 && bytes[start - 1] == UInt8(ascii: "(") && bytes[start - 2] == UInt8(ascii: "]")
    }

    /// The bytes that may start a notice's character sequence.
    private static let noticeStarts: [Bool] = (0..<256).map { byte in
        "|~[<:.".utf8.contains(UInt8(byte))
    }

}
