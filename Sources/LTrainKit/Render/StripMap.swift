import LTrainSupport
import LTrainMustache
import LTrainMarkdown

/// The geometry of the index page's strip map: the line drawn left (west) to right (east), with
/// one stop per station. Templates draw it as SVG from these numbers.
struct StripMap {
    static let spacing = 52
    static let margin = 22
    static let lineY = 28
    static let labelY = 52
    /// Characters of a stop's label at most.
    static let longestLabel = 40

    let value: MustacheValue

    init(site: Site, routes: Routes, page: Page) {
        // Stations are read in place by index: a `for station in` loop copies each one.
        let stations = site.line.stations
        let lastStop = Self.margin + max(0, stations.count - 1) * Self.spacing
        let lengths = stations.indices.map { stations[$0].title.count }
        let longest = lengths.max() ?? 0
        // Labels are drawn at 40° from each stop: at most 7.5 px a character of the 13 px system
        // font (6.5 cut "Bedford Avenue" off by 5 px in Chromium), cos 40° ≈ 0.77, sin 40° ≈ 0.64.
        let labelLength = Double(min(longest, Self.longestLabel)) * 7.5
        let width = lastStop + Int(labelLength * 0.77) + 12
        let height = Self.labelY + Int(labelLength * 0.64) + 16
        let stops: [MustacheValue] = stations.indices.map { position in
            let x = Self.margin + position * Self.spacing
            let title = stations[position].title
            // A label longer than the map leaves room for is shortened, never cut off mid-letter.
            let label = lengths[position] > Self.longestLabel ? String(title.prefix(Self.longestLabel - 1)) + "…" : title
            return [
                "x": .int(x), "y": .int(Self.lineY), "label_y": .int(Self.labelY), "title": .string(title),
                "label": .string(label),
                "href": .string(routes.link(from: page, to: .station(slug: stations[position].slug))),
                "position": .int(position + 1), "is_terminal": .bool(position == 0 || position == stations.count - 1),
            ]
        }
        value = [
            "width": .int(width), "height": .int(height), "line_y": .int(Self.lineY),
            "line_start": .int(Self.margin), "line_end": .int(lastStop),
            "stops": .array(stops), "has_stops": .bool(!stations.isEmpty),
        ]
    }
}
