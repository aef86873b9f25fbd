import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainWrite

/// Writes each shard of the search index as soon as the last info page of its stations is done
/// (rendered, or kept from the last build), while the other pages render, from the sections each
/// render handed it (`RenderedPage.searchSections`), which it then lets go of: a build holds the
/// texts of the few shards in progress, not the whole site's. Used when every page is rendered in
/// one go (a build); a preview renders some pages and keeps every section for the next version
/// (`PartMemory`), so it writes the shards after the pages.
final class SearchShardWriter: Sendable {
    /// Where each page's text goes in the index, by the page's position: its shard and its
    /// station's place in the shard; nil for a page with none.
    private let placeOfPage: [(shard: Int, offset: Int)?]
    /// Each shard's path and key, by number.
    private let shards: [(path: String, key: ContentHash)]
    /// Each shard's progress: how many info pages are not done yet (a shard the sink kept starts
    /// done), and the sections handed in so far, by station.
    private let progress: Mutex<[(remaining: Int, sections: [[MarkdownSection]?])]>

    /// Nil without search. `files`: `PageRenderer.searchFiles()`, the root's then each shard's.
    init?(renderer: PageRenderer, files: [(path: String, key: ContentHash)], pages: [Page], output: some PageSink) {
        guard files.count > 1 else { return nil }
        let stations = renderer.site.line.stations
        let ranges = Routes.searchShards(stationCount: stations.count)
        var shardOfStation: [Int] = []
        shardOfStation.reserveCapacity(stations.count)
        for (number, range) in ranges.enumerated() {
            shardOfStation += repeatElement(number, count: range.count)
        }
        // The info pages come in line order (`Routes.everyPage`): each is the next station's,
        // as its slug confirms; the stations are looked up by slug only if one is not.
        var nextStation = 0
        var positionOfSlug: [String: Int]?
        placeOfPage = pages.map { page -> (shard: Int, offset: Int)? in
            guard case .info(let slug) = page else { return nil }
            let position: Int?
            if positionOfSlug == nil, nextStation < stations.count, stations[nextStation].slug == slug {
                position = nextStation
                nextStation += 1
            } else {
                if positionOfSlug == nil {
                    positionOfSlug = Dictionary(
                        stations.indices.map { (stations[$0].slug, $0) }, uniquingKeysWith: { first, _ in first })
                }
                position = positionOfSlug?[slug]
            }
            guard let position else { return nil }
            let shard = shardOfStation[position]
            return (shard, position - ranges[shard].lowerBound)
        }
        shards = Array(files.dropFirst())
        var progress = ranges.map { (remaining: $0.count, sections: [[MarkdownSection]?](repeating: nil, count: $0.count)) }
        for (number, shard) in shards.enumerated() where output.reuse(shard.path, key: shard.key) != nil {
            progress[number] = (0, [])
        }
        self.progress = Mutex(progress)
    }

    /// The shards written or kept so far (`writeSearchIndex` makes the rest).
    var done: Set<String> {
        let remaining = progress.withLock { $0.map(\.remaining) }
        return Set(remaining.indices.filter { remaining[$0] == 0 }.map { shards[$0].path })
    }

    /// Page `index` is done, with the sections its render cut (nil: kept from the last build, so
    /// its text is parsed if its shard is written): when it was the last info page of its shard,
    /// writes the shard.
    func pageDone(
        _ index: Int, sections: [MarkdownSection]?, renderer: PageRenderer, into output: some PageSink
    ) throws(Diagnostic) {
        guard let place = placeOfPage[index] else { return }
        let finished = progress.withLock { progress -> [[MarkdownSection]?]? in
            guard progress[place.shard].remaining > 0 else { return nil }
            progress[place.shard].remaining -= 1
            progress[place.shard].sections[place.offset] = sections
            guard progress[place.shard].remaining == 0 else { return nil }
            defer { progress[place.shard].sections = [] }
            return progress[place.shard].sections
        }
        guard let finished else { return }
        guard let bytes = renderer.searchShard(place.shard, sections: finished) else {
            throw Diagnostic.error("could not make \(shards[place.shard].path)", hint: "this is a bug in ltrain; please report it")
        }
        try output.write(bytes, to: shards[place.shard].path, key: shards[place.shard].key, ids: [], links: [])
    }
}
