#if canImport(Glibc)
    import Glibc
#endif
import LTrainSupport
import LTrainMarkdown
import LTrainLoad

/// Markdown text with where it came from, so diagnostics can name the file and line.
public struct MarkdownSource: Sendable, Equatable {
    public var text: String {
        didSet { textHash = ContentHash(text) }
    }
    /// The hash of `text`, made once as the file is loaded (on every core), for each key that
    /// depends on it: the page's, and its search shard's.
    public private(set) var textHash: ContentHash
    public var displayPath: String
    /// The path inside the content folder (`stations/03-union-square.md`), against which its links resolve.
    public var contentPath: String
    /// Lines of the file before this text (the front matter): add to a Markdown line number.
    public var lineOffset: Int

    public init(text: String, displayPath: String, contentPath: String, lineOffset: Int) {
        self.text = text
        self.textHash = ContentHash(text)
        self.displayPath = displayPath
        self.contentPath = contentPath
        self.lineOffset = lineOffset
    }
}

/// The station's information text, shown as a sheet over the station.
public struct InfoPage: Sendable, Equatable {
    public var body: MarkdownSource
}

/// One stop of the line.
public struct Station: Sendable, Equatable {
    /// The number from the file name (`03-union-square.md` → [3], `03.1-x.md` → [3, 1]); the line
    /// is ordered by it.
    public var number: [Int]
    public var slug: String
    public var title: String
    public var summary: String?
    public var info: InfoPage
    public var sourcePath: String
}

extension Station {
    /// Whether `other` shows the same on every page but its own info page: every field but the
    /// info text is equal. The one rule of what other pages read of a station, asked by the
    /// preview's plan (which pages an edit reaches) and by the index's kept rows (`PartMemory`).
    /// It compares copies rather than naming fields, so a field added to `Station` is seen by both.
    public func showsTheSame(as other: Station) -> Bool {
        // A station kept from the last version is the same value, field for field, down to its
        // strings' storage: its bytes say so with no copy of it (figure in docs/benchmarks.md,
        // "Optimisations"). Equal bytes are equal fields; other bytes are compared.
        let identical = withUnsafeBytes(of: self) { mine in
            withUnsafeBytes(of: other) { theirs in
                guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return false }
                return memcmp(mine, theirs, MemoryLayout<Station>.size) == 0
            }
        }
        if identical { return true }
        var swapped = other
        swapped.info = info
        return swapped == self
    }
}

/// The stations in order, west to east.
public struct Line: Sendable, Equatable {
    public var stations: [Station]

    public init(stations: [Station]) {
        self.stations = stations
    }

    public func station(before index: Int) -> Station? {
        index > 0 && index - 1 < stations.count ? stations[index - 1] : nil
    }

    public func station(after index: Int) -> Station? {
        index >= 0 && index + 1 < stations.count ? stations[index + 1] : nil
    }

    /// The positions at which this line's station is not `other`'s (for lines of one length: the
    /// same places, see `keepsPlaces`). A station kept from the last version is the same value
    /// down to its strings' storage, so equal bytes say so with no copy of either; only the
    /// stations whose bytes differ are compared field by field.
    public func positionsChanged(from other: Line) -> [Int] {
        stations.withUnsafeBufferPointer { mine in
            other.stations.withUnsafeBufferPointer { theirs in
                guard let mineStart = mine.baseAddress, let theirsStart = theirs.baseAddress else { return [] }
                var changed: [Int] = []
                for index in 0..<min(mine.count, theirs.count)
                where memcmp(mineStart + index, theirsStart + index, MemoryLayout<Station>.size) != 0
                    && mine[index] != theirs[index]
                {
                    changed.append(index)
                }
                return changed
            }
        }
    }

    /// Whether this line has `other`'s stations in the same places: the same files, numbers and
    /// slugs, in the same order. Everything laid out from the places (each page's path, where a
    /// link to a station's file leads) is then laid out alike; what the stations say may differ.
    public func keepsPlaces(of other: Line) -> Bool {
        // By index, not by pairs of stations: a pair would copy both, field by field.
        stations.count == other.stations.count
            && stations.indices.allSatisfy { index in
                stations[index].info.body.contentPath == other.stations[index].info.body.contentPath
                    && stations[index].sourcePath == other.stations[index].sourcePath
                    && stations[index].number == other.stations[index].number
                    && stations[index].slug == other.stations[index].slug
            }
    }
}

/// A row of a checklist.
public struct ChecklistRow: Sendable, Equatable {
    /// Stable form value and id part, derived from the row's text.
    public var value: String
    public var text: String
    public var line: Int
}

/// A checklist page: "Check One", a list in which one row at most carries the check mark, or a
/// list of many, in which any number of rows do.
public struct Checklist: Sendable, Equatable {
    public enum Choice: String, Sendable {
        /// One row at most (radio buttons): the default.
        case one
        /// Any number of rows (checkboxes).
        case many
    }

    public var slug: String
    public var title: String
    public var body: MarkdownSource
    public var rows: [ChecklistRow]
    public var choice: Choice = .one
}

/// The index page: the navigation root.
public struct IndexPage: Sendable, Equatable {
    public var body: MarkdownSource
}

/// The whole site as authored, independent of how it is laid out on disk.
public struct Site: Sendable, Equatable {
    public var title: String
    /// The theme's fixed words ("Go East", "Done", …), the author's where they set them.
    public var labels: Labels
    /// The pages' `lang` (BCP 47), "en" unless the index says otherwise.
    public var language: String
    /// Which way the pages read: the language's (see `TextDirection.of(language:)`) unless the
    /// index says `direction: rtl` or `ltr`.
    public var direction: TextDirection = .leftToRight
    /// Where the site will be published (`https://example.org/sub/`), for the sitemap, canonical
    /// links and robots.txt; pages stay relative either way.
    public var baseURL: String?
    public var index: IndexPage
    public var line: Line
    public var checklists: [Checklist]
    public var assets: [AssetFile]
    /// `content/static/**`: copied as they are to the output's root.
    public var rootFiles: [AssetFile] = []
    public var markdownOptions: MarkdownOptions
    /// Whether the built site works offline once visited (a web app manifest, icons and a
    /// service worker); `offline: false` in index.md turns it off.
    public var offline: Bool = true
    /// Whether the pages offer a search field over the whole guide (`search-index.js`, read by
    /// the theme's script); `search: false` in index.md turns it off.
    public var search: Bool = true
}

/// Which way a site's text reads, and so which way its bar, its line and its motion go.
public enum TextDirection: String, Sendable, Equatable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"

    /// Languages written right to left, by their primary subtag (ISO 639; `iw` and `ji` are
    /// the old codes of Hebrew and Yiddish).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ji", "khw", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi",
    ]
    /// Scripts written right to left, for a tag that names one (`az-Arab`, `pa-Arab`).
    static let rightToLeftScripts: Set<String> = ["arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand", "samr"]

    /// The direction of the BCP 47 tag `language`: right to left when its script subtag is one
    /// written that way, or, with no script subtag, when its language is.
    public static func of(language: String) -> TextDirection {
        let subtags = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = subtags.first else { return .leftToRight }
        if let script = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(script) ? .rightToLeft : .leftToRight
        }
        return rightToLeftLanguages.contains(primary) ? .rightToLeft : .leftToRight
    }
}

extension Site {
    /// The author's own home-screen icon, `content/assets/icon.png` or `icon.svg`, if there is one.
    public var authorIcon: AssetFile? {
        assets.first { $0.outputPath == "assets/icon.png" } ?? assets.first { $0.outputPath == "assets/icon.svg" }
    }
}
