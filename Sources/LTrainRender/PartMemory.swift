import Synchronization
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainModel

/// What is kept of the parts of pages from one version of a site to the next: the one memory
/// below the page. A page is made of two kinds of part that outlast a version:
///
/// - **a Markdown text's render** (`RenderedMarkdown`: its HTML, links and notices) and its
///   sections for the search index, kept under the file the text came from;
/// - **a station's row on the index page** (its list item and its stop on the strip map, with
///   their hashes, and the bytes the index's template rendered from each), kept under the
///   station's position on the line.
///
/// One rule decides for both: a kept part is used again only when it was made from what it would
/// be made from now, and each kind of part says what that is (`KeptText.isMade(from:key:)`,
/// `isRowMade(from:at:)`), so no caller decides it:
///
/// - a text's render is made from the text, the Markdown options and the ids its page's template
///   holds (`key`, see `PageRenderer.markdownKey`), and from where its links lead, which only
///   rewriting each link again against the current routes shows (`MarkdownLink.leadsTheSame`);
///   its sections from the text and the key alone, so they outlive any change of layout;
/// - a row is made from its station (all of it but the info text: `Station.showsTheSame`), its
///   position, the number of stations and the routes' layout (`Routes.layoutKey`: where each
///   station's page is); a row's bytes from the row, the section that rendered them and the
///   templates the index can include (`IndexRenderMemory`).
///
/// `ltrain serve` keeps everything. The single file keeps sections alone (`keepsRenders: false`),
/// for the index it makes after its pages: keeping every render would hold each page's HTML until
/// the end as well. A build keeps nothing: it renders each page once.
package final class PartMemory: Sendable {
    /// A Markdown text's render and sections, with what they were made from.
    struct KeptText {
        var text: String
        var key: ContentHash
        var render: Render?
        var sections: [MarkdownSection]?

        /// Whether it was made from `source`'s very text (the same storage compares at once)
        /// with `key`.
        func isMade(from source: MarkdownSource, key: ContentHash) -> Bool {
            self.key == key && text == source.text
        }
    }

    struct Render {
        var rendered: RenderedMarkdown
        var foundNotices: Bool
    }

    /// Bytes the index's template rendered from one value of a row, with what they were made
    /// from besides the templates: the section (by its number in `State.sections`) and the
    /// value's hash.
    struct ItemBytes {
        var section: Int
        var itemHash: ContentHash
        var bytes: [UInt8]
    }

    fileprivate struct State {
        var texts: [String: KeptText] = [:]
        /// Each station's row, by position.
        var rows: [IndexRow] = []
        /// What the rows were made from besides their own station: the stations, in order (the
        /// line's array as given), and the routes' layout.
        var rowStations: [Station] = []
        var rowLayout = ContentHash(value: 0)
        /// The key of the templates the rows' bytes were rendered with, and the sections that
        /// rendered them; another key drops every row's bytes.
        var templateKey: ContentHash?
        var sections: [MustacheListSection] = []
        /// How many bytes the index's last render wrote: room to render the next into at once.
        var indexSize = 0
    }

    /// Whether whole renders (and rows) are kept, or the texts' sections alone.
    let keepsRenders: Bool
    private let state = Mutex(State())
    /// How many texts were parsed for the search index alone (their page was not rendered).
    private let parsed = Atomic<Int>(0)
    /// How many renders were used again instead of rendering their text.
    private let reusedRenders = Atomic<Int>(0)
    /// How many of the index's list items the last render of it copied instead of rendering.
    private let reusedItems = Atomic<Int>(0)
    package var textsParsed: Int { parsed.load(ordering: .relaxed) }
    package var rendersReused: Int { reusedRenders.load(ordering: .relaxed) }
    package var itemsReused: Int { reusedItems.load(ordering: .relaxed) }
    /// How many texts it holds something of.
    package var textCount: Int { state.withLock { $0.texts.count } }

    package init(keepsRenders: Bool) {
        self.keepsRenders = keepsRenders
    }

    // MARK: Markdown texts

    /// The render kept for `source`, when it was made from this very text with the same `key`
    /// (`KeptText.isMade(from:key:)`), found notices if asked to, cut sections if asked to
    /// (they are then in it), and each of its links leads where `rewriteLink` now takes it.
    func render(
        of source: MarkdownSource, key: ContentHash, options: MarkdownOptions, findsNotices: Bool,
        collectsSections: Bool, rewriteLink: @escaping Markdown.LinkRewriter
    ) -> RenderedMarkdown? {
        guard keepsRenders else { return nil }
        let kept: (Render, [MarkdownSection]?)? = state.withLock { state in
            guard let entry = state.texts[source.contentPath], let render = entry.render, entry.isMade(from: source, key: key)
            else { return nil }
            return (render, entry.sections)
        }
        guard let (render, sections) = kept, render.foundNotices || !findsNotices, sections != nil || !collectsSections,
            render.rendered.links.allSatisfy({ $0.leadsTheSame(options: options, rewriteLink: rewriteLink) })
        else { return nil }
        reusedRenders.wrappingAdd(1, ordering: .relaxed)
        var rendered = render.rendered
        rendered.sections = collectsSections ? sections ?? [] : []
        return rendered
    }

    /// Keeps what rendering `source` gave (its sections as well when `collectedSections`).
    func keep(_ rendered: RenderedMarkdown, of source: MarkdownSource, key: ContentHash, foundNotices: Bool, collectedSections: Bool) {
        guard keepsRenders || collectedSections else { return }
        var render: Render?
        if keepsRenders {
            var withoutSections = rendered
            withoutSections.sections = []
            render = Render(rendered: withoutSections, foundNotices: foundNotices)
        }
        let sections = collectedSections ? rendered.sections : nil
        state.withLock { state in
            // Sections cut earlier from the same text stay with a render that did not cut them.
            let earlier = state.texts[source.contentPath].flatMap { $0.isMade(from: source, key: key) ? $0.sections : nil }
            state.texts[source.contentPath] = KeptText(text: source.text, key: key, render: render, sections: sections ?? earlier)
        }
    }

    /// The sections of `source` for the search index: kept, when cut from this very text with the
    /// same `key`, or parsed now (and kept).
    func sections(of source: MarkdownSource, key: ContentHash, options: MarkdownOptions, reservedIDs: Set<String>) -> [MarkdownSection] {
        let kept = state.withLock { state -> [MarkdownSection]? in
            state.texts[source.contentPath].flatMap { $0.isMade(from: source, key: key) ? $0.sections : nil }
        }
        if let kept { return kept }
        let found = Markdown.sections(of: source.text, options: options, reservedIDs: reservedIDs)
        parsed.wrappingAdd(1, ordering: .relaxed)
        state.withLock { state in
            if var entry = state.texts[source.contentPath], entry.isMade(from: source, key: key) {
                entry.sections = found
                state.texts[source.contentPath] = entry
            } else {
                state.texts[source.contentPath] = KeptText(text: source.text, key: key, render: nil, sections: found)
            }
        }
        return found
    }

    /// The sections kept for `source`, when they were cut from this very text.
    package func keptSections(of source: MarkdownSource) -> [MarkdownSection]? {
        state.withLock { state in
            state.texts[source.contentPath].flatMap { $0.text == source.text ? $0.sections : nil }
        }
    }

    /// Keeps only the texts at `contentPaths` (those of the version just rendered). With no more
    /// texts than `count`, none is left over, and the paths are not gathered. (Rows need no
    /// such step: they are kept by position and made again when the number of stations changes.)
    func keepOnlyTexts(count: Int, contentPaths: () -> [String]) {
        state.withLock { state in
            guard state.texts.count > count else { return }
            let paths = Set(contentPaths())
            state.texts = state.texts.filter { paths.contains($0.key) }
        }
    }

    // MARK: The index page's rows

    /// The rows of `stations` under routes laid out as `layout`: each kept row that was made from
    /// what it would be made from now (`isRowMade(from:at:)`), the others made with `make` (given
    /// the station's position). Without `keepsRenders`, every row is made and none kept.
    func rows(of stations: [Station], layout: ContentHash, make: (Int) -> IndexRow) -> IndexRows {
        guard keepsRenders else { return IndexRows(stations.indices.map(make)) }
        return state.withLock { state in
            if state.rows.count == stations.count, state.rowStations.count == stations.count, state.rowLayout == layout {
                // Only the stations that are not the very values the rows were made from are
                // asked (`positionsChanged`): asking every one copied it, and its row, whole.
                for position in Line(stations: stations).positionsChanged(from: Line(stations: state.rowStations))
                where !state.isRowMade(from: stations[position], at: position) {
                    state.rows[position] = make(position)
                }
            } else {
                state.rows = []
                state.rows.reserveCapacity(stations.count)
                for position in stations.indices { state.rows.append(make(position)) }
            }
            state.rowStations = stations
            state.rowLayout = layout
            return IndexRows(state.rows)
        }
    }

    /// How many bytes the index's last render with this memory wrote (0 before the first).
    var lastIndexSize: Int {
        get { state.withLock { $0.indexSize } }
        set { state.withLock { $0.indexSize = newValue } }
    }

    /// Before a render of the index: the key of the templates it can include (another key drops
    /// every row's bytes). The rows it renders are those `rows(of:layout:make:)` last gave.
    func startIndexRender(templateKey: ContentHash?) {
        reusedItems.store(0, ordering: .relaxed)
        state.withLock { state in
            guard state.templateKey != templateKey else { return }
            state.templateKey = templateKey
            state.sections = []
            for position in state.rows.indices { state.rows[position].bytes = [] }
        }
    }

    /// The bytes kept for each of `items` of `list` (by position: the station's) that `section`
    /// renders, each where its row has bytes from that section and that very item. (The rows are
    /// those `rows(of:layout:make:)` last gave, which may be a later version's than `list`: the
    /// item's hash says whether the bytes are this item's.)
    func keptItems(of section: MustacheListSection, items: [MustacheValue], list: PageInputs.KnownList) -> [[UInt8]?]? {
        state.withLock { state in
            guard state.holdsBytes(for: items, of: list), let number = state.sections.firstIndex(of: section)
            else { return nil }
            var kept = [[UInt8]?](repeating: nil, count: items.count)
            var reused = 0
            for index in items.indices {
                if let found = state.rows[index].bytes.first(where: { $0.section == number && $0.itemHash == list.itemHashes[index] }) {
                    kept[index] = found.bytes
                    reused += 1
                }
            }
            reusedItems.wrappingAdd(reused, ordering: .relaxed)
            return kept
        }
    }

    /// Keeps what `section` wrote for each of `items` of `list` in the row at its position (nil
    /// where an item read outside itself).
    func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue], list: PageInputs.KnownList) {
        state.withLock { state in
            guard state.holdsBytes(for: items, of: list) else { return }
            let number: Int
            if let known = state.sections.firstIndex(of: section) {
                number = known
            } else {
                number = state.sections.count
                state.sections.append(section)
            }
            for index in items.indices {
                let hash = list.itemHashes[index]
                if let kept = state.rows[index].bytes.firstIndex(where: { $0.section == number }) {
                    if let made = bytes[index] {
                        if state.rows[index].bytes[kept].itemHash != hash {
                            state.rows[index].bytes[kept] = ItemBytes(section: number, itemHash: hash, bytes: made)
                        }
                    } else {
                        state.rows[index].bytes.remove(at: kept)
                    }
                } else if let made = bytes[index] {
                    state.rows[index].bytes.append(ItemBytes(section: number, itemHash: hash, bytes: made))
                }
            }
        }
    }
}

extension PartMemory.State {
    /// Whether the row at `position` was made from `station`: its row reads all of it but the
    /// info text. (The number of stations and the layout, the rows' other inputs, are the
    /// state's, which `rows(of:layout:make:)` compares first.)
    fileprivate func isRowMade(from station: Station, at position: Int) -> Bool {
        rowStations[position].showsTheSame(as: station)
    }

    /// Whether the rows can hold the bytes of `list`'s items (`items`, by position): bytes are
    /// kept under the key of the templates, and there is one row, and one hash, for each item.
    fileprivate func holdsBytes(for items: [MustacheValue], of list: PageInputs.KnownList) -> Bool {
        templateKey != nil && list.itemHashes.count == items.count && items.count == rows.count
    }
}

/// One station's values on the index page: its row in the list (`stations`) and its stop on the
/// strip map (`map.stops`), with their hashes, and the bytes rendered from them (kept by
/// `PartMemory`).
struct IndexRow: Sendable {
    var listItem: MustacheValue
    var stop: MustacheValue
    var listItemHash: ContentHash
    var stopHash: ContentHash
    /// The title's length in characters (for the strip map's size).
    var titleLength: Int
    var bytes: [PartMemory.ItemBytes] = []

    init(station: Station, listItem: MustacheValue, stop: MustacheValue) {
        self.listItem = listItem
        self.stop = stop
        listItemHash = PageInputs.hash(of: listItem)
        stopHash = PageInputs.hash(of: stop)
        titleLength = station.title.count
    }
}

/// The rows of every station, in order, as the index page's inputs take them.
struct IndexRows: Sendable {
    var listItems: [MustacheValue] = []
    var stops: [MustacheValue] = []
    var listItemsHash = ContentHash(value: 0)
    var stopsHash = ContentHash(value: 0)
    var listItemHashes: [ContentHash] = []
    var stopHashes: [ContentHash] = []
    var longestTitle = 0

    init(_ rows: [IndexRow]) {
        listItems.reserveCapacity(rows.count)
        stops.reserveCapacity(rows.count)
        listItemHashes.reserveCapacity(rows.count)
        stopHashes.reserveCapacity(rows.count)
        // One pass, each field read in place through the buffer: a map over the rows, once a
        // field, copied each row whole every time.
        rows.withUnsafeBufferPointer { rows in
            for row in rows.indices {
                listItems.append(rows[row].listItem)
                stops.append(rows[row].stop)
                listItemHashes.append(rows[row].listItemHash)
                stopHashes.append(rows[row].stopHash)
                longestTitle = max(longestTitle, rows[row].titleLength)
            }
        }
        listItemsHash = PageInputs.listHash(listItemHashes)
        stopsHash = PageInputs.listHash(stopHashes)
    }
}

/// The index page's render, as the Mustache engine sees the memory of its list items
/// (`MustacheItemMemory`): the lists of this render (`PageInputs.knownLists`, the rows' values)
/// told apart by their storage, each item's bytes kept in its row of `PartMemory`.
final class IndexRenderMemory: MustacheItemMemory {
    let parts: PartMemory
    let lists: [PageInputs.KnownList]

    init(parts: PartMemory, templateKey: ContentHash?, lists: [PageInputs.KnownList]) {
        self.parts = parts
        self.lists = lists
        parts.startIndexRender(templateKey: templateKey)
    }

    func keptItems(of section: MustacheListSection, items: [MustacheValue]) -> [[UInt8]?]? {
        guard let list = lists.known(items) else { return nil }
        return parts.keptItems(of: section, items: items, list: list)
    }

    func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue]) {
        guard let list = lists.known(items) else { return }
        parts.keep(bytes, of: section, items: items, list: list)
    }
}
