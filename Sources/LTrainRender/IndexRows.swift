import Synchronization
import LTrainSupport
import LTrainMustache
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG
import LTrainMarkdown

/// The index page's values of each station, its row in the list (`stations`) and its stop on the
/// strip map (`map.stops`), with their hashes, kept from one version of a site to the next while
/// the line keeps the same stations in the same order (`PageRenderer.RenderMemory`): a title
/// edit makes one station's values again and keeps the others with their hashes, since making
/// and hashing every row was most of a title edit in serve.
final class IndexRows: Sendable {
    /// One station's values. A row reads its station (all of it but the info text:
    /// `Station.showsTheSame(as:)`), its position and the number of stations; rows are made again
    /// when the number changes, and each where its station does.
    struct Row: Sendable {
        var listItem: MustacheValue
        var stop: MustacheValue
        var listItemHash: ContentHash
        var stopHash: ContentHash
        /// The title's length in characters (for the strip map's size).
        var titleLength: Int

        init(station: Station, listItem: MustacheValue, stop: MustacheValue) {
            self.listItem = listItem
            self.stop = stop
            listItemHash = PageInputs.hash(of: listItem)
            stopHash = PageInputs.hash(of: stop)
            titleLength = station.title.count
        }
    }

    /// The rows of every station, in order, as the index page's inputs take them.
    struct Rows: Sendable {
        var listItems: [MustacheValue] = []
        var stops: [MustacheValue] = []
        var listItemsHash = ContentHash(value: 0)
        var stopsHash = ContentHash(value: 0)
        var listItemHashes: [ContentHash] = []
        var stopHashes: [ContentHash] = []
        var longestTitle = 0
    }

    /// The rows last made, and the stations they were made from (the line's array as given).
    private struct Kept {
        var rows: [Row] = []
        var stations: [Station] = []
    }

    private let kept = Mutex(Kept())

    /// The rows of `stations`: each kept one that was made from a station that shows the same as
    /// it does now, the others made with `make` (given the station's position).
    func rows(of stations: [Station], make: (Int) -> Row) -> Rows {
        kept.withLock { kept in
            if kept.rows.count != stations.count {
                kept.rows = []
                kept.rows.reserveCapacity(stations.count)
                for position in stations.indices { kept.rows.append(make(position)) }
            } else {
                // Only the stations that are not the very values the rows were made from are
                // compared (`positionsChanged`): asking every one copied it, and its row, whole.
                for position in Line(stations: stations).positionsChanged(from: Line(stations: kept.stations))
                where !kept.stations[position].showsTheSame(as: stations[position]) {
                    kept.rows[position] = make(position)
                }
            }
            kept.stations = stations
            // One pass, each field read in place through the buffer: a map over the rows, once a
            // field, copied each row whole every time.
            var result = Rows()
            result.listItems.reserveCapacity(stations.count)
            result.stops.reserveCapacity(stations.count)
            result.listItemHashes.reserveCapacity(stations.count)
            result.stopHashes.reserveCapacity(stations.count)
            kept.rows.withUnsafeBufferPointer { rows in
                for row in rows.indices {
                    result.listItems.append(rows[row].listItem)
                    result.stops.append(rows[row].stop)
                    result.listItemHashes.append(rows[row].listItemHash)
                    result.stopHashes.append(rows[row].stopHash)
                    result.longestTitle = max(result.longestTitle, rows[row].titleLength)
                }
            }
            result.listItemsHash = PageInputs.listHash(result.listItemHashes)
            result.stopsHash = PageInputs.listHash(result.stopHashes)
            return result
        }
    }
}

/// The bytes of the index page's list items (its rows and map stops) from its last render in
/// `ltrain serve`, each with the hash of the values it was rendered from (`IndexRows`), so that a
/// title edit renders one row and one stop of 10,000 each: the one reuse of part of a page, kept
/// here in the pipeline, by what each item is made from. The Mustache engine asks it for an item's
/// bytes (`MustacheItemMemory`) and says which items read nothing outside themselves; bytes stand
/// for an item while its hash and the templates the index can include (`templateKey`) are the same.
package final class IndexItemBytes: MustacheItemMemory {
    private struct Entry {
        var section: MustacheListSection
        var hashes: [ContentHash]
        var bytes: [[UInt8]?]
    }

    private struct State {
        var templateKey: ContentHash?
        /// The lists of the render under way, with their items' hashes.
        var lists: [PageInputs.KnownList] = []
        var entries: [Entry] = []
        var reused = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many items the last render of the index copied instead of rendering.
    package var reusedItems: Int { state.withLock { $0.reused } }

    /// Before a render of the index: its lists with their items' hashes, and the key of the
    /// templates it can include (another key drops every kept byte).
    func prepare(templateKey: ContentHash?, lists: [PageInputs.KnownList]) {
        state.withLock { state in
            if state.templateKey != templateKey || templateKey == nil { state.entries = [] }
            state.templateKey = templateKey
            state.lists = lists
            state.reused = 0
        }
    }

    package func keptItems(of section: MustacheListSection, items: [MustacheValue]) -> [[UInt8]?]? {
        state.withLock { state in
            guard let list = state.lists.first(where: { $0.isSame(as: items) }), list.itemHashes.count == items.count,
                let entry = state.entries.first(where: { $0.section == section })
            else { return nil }
            var kept = [[UInt8]?](repeating: nil, count: items.count)
            for index in items.indices where index < entry.hashes.count && entry.hashes[index] == list.itemHashes[index] {
                kept[index] = entry.bytes[index]
                if kept[index] != nil { state.reused += 1 }
            }
            return kept
        }
    }

    package func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue]) {
        state.withLock { state in
            guard let list = state.lists.first(where: { $0.isSame(as: items) }) else { return }
            state.entries.removeAll { $0.section == section }
            state.entries.append(Entry(section: section, hashes: list.itemHashes, bytes: bytes))
        }
    }
}
