import Synchronization
import LTrainSupport
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainWrite

/// Writes each shard of the search index as soon as the last info page of its stations is done
/// (rendered, or kept from the last build), while the other pages render, and then lets go of
/// those stations' sections: a build holds the texts of the few shards in progress, not the whole
/// site's. Used when every page is rendered in one go (a build); a preview renders some pages and
/// keeps every section for the next version, so it writes the shards after the pages.
final class SearchShardWriter: Sendable {
    /// The shard each page's text goes into, by the page's position; nil for a page with none.
    private let shardOfPage: [Int?]
    /// Each shard's path and key, by number.
    private let shards: [(path: String, key: ContentHash)]
    /// How many info pages of each shard are not done yet; a shard the sink kept starts done.
    private let remaining: Mutex<[Int]>

    /// Nil without search. `files`: `PageRenderer.searchFiles()`, the root's then each shard's.
    init?(renderer: PageRenderer, files: [(path: String, key: ContentHash)], pages: [Page], output: some PageSink) {
        guard files.count > 1 else { return nil }
        let stations = renderer.site.line.stations
        let ranges = Routes.searchShards(stationCount: stations.count)
        var shardOfStation: [String: Int] = [:]
        shardOfStation.reserveCapacity(stations.count)
        for (number, range) in ranges.enumerated() {
            for index in range { shardOfStation[stations[index].slug] = number }
        }
        shardOfPage = pages.map { page in
            if case .info(let slug) = page { return shardOfStation[slug] }
            return nil
        }
        shards = Array(files.dropFirst())
        var counts = ranges.map(\.count)
        for (number, shard) in shards.enumerated() where output.reuse(shard.path, key: shard.key) != nil {
            counts[number] = 0
        }
        remaining = Mutex(counts)
    }

    /// The shards written or kept so far (`writeSearchIndex` makes the rest).
    var done: Set<String> {
        let counts = remaining.withLock { $0 }
        return Set(counts.indices.filter { counts[$0] == 0 }.map { shards[$0].path })
    }

    /// Page `index` is done: when it was the last info page of its shard, writes the shard.
    func pageDone(_ index: Int, renderer: PageRenderer, into output: some PageSink) throws(Diagnostic) {
        guard let number = shardOfPage[index] else { return }
        let isLast = remaining.withLock { counts -> Bool in
            guard counts[number] > 0 else { return false }
            counts[number] -= 1
            return counts[number] == 0
        }
        guard isLast else { return }
        guard let bytes = renderer.searchShard(number) else {
            throw Diagnostic.error("could not make \(shards[number].path)", hint: "this is a bug in ltrain; please report it")
        }
        try output.write(bytes, to: shards[number].path, key: shards[number].key, ids: [], links: [])
        renderer.forgetSearchSections(ofShard: number)
    }
}
