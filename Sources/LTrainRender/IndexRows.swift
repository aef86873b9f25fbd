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
    /// One station's values, and the station they were made from. A row reads its station (all
    /// of it but the info text: `Station.showsTheSame(as:)`), its position and the number of
    /// stations; rows are made again when the number changes, and each where its station does.
    struct Row: Sendable {
        var station: Station
        var listItem: MustacheValue
        var stop: MustacheValue
        var listItemHash: ContentHash
        var stopHash: ContentHash
        /// The title's length in characters (for the strip map's size).
        var titleLength: Int

        init(station: Station, listItem: MustacheValue, stop: MustacheValue) {
            self.station = station
            self.listItem = listItem
            self.stop = stop
            listItemHash = PageInputs.hash(of: listItem)
            stopHash = PageInputs.hash(of: stop)
            titleLength = station.title.count
        }

        func isMade(from station: Station) -> Bool {
            self.station.showsTheSame(as: station)
        }
    }

    /// The rows of every station, in order, as the index page's inputs take them.
    struct Rows: Sendable {
        var listItems: [MustacheValue] = []
        var stops: [MustacheValue] = []
        var listItemsHash = ContentHash(value: 0)
        var stopsHash = ContentHash(value: 0)
        var longestTitle = 0
    }

    private let kept = Mutex<[Row]>([])

    /// The rows of `stations`: each kept one that was made from the station as it is now, the
    /// others made with `make` (given the station's position).
    func rows(of stations: [Station], make: (Int) -> Row) -> Rows {
        kept.withLock { rows in
            if rows.count != stations.count { rows = [] }
            if rows.isEmpty {
                rows.reserveCapacity(stations.count)
                for position in stations.indices { rows.append(make(position)) }
            } else {
                for position in stations.indices where !rows[position].isMade(from: stations[position]) {
                    rows[position] = make(position)
                }
            }
            var result = Rows()
            result.listItems = rows.map(\.listItem)
            result.stops = rows.map(\.stop)
            result.listItemsHash = PageInputs.listHash(rows.map(\.listItemHash))
            result.stopsHash = PageInputs.listHash(rows.map(\.stopHash))
            result.longestTitle = rows.lazy.map(\.titleLength).max() ?? 0
            return result
        }
    }
}
