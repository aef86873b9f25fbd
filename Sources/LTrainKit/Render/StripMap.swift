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

    /// The map of `stops` (see `stop(at:of:title:href:)`), whose longest title has `longestTitle` characters.
    init(stops: [MustacheValue], longestTitle: Int) {
        let lastStop = Self.margin + max(0, stops.count - 1) * Self.spacing
        // Labels are drawn at 40° from each stop: at most 7.5 px a character of the 13 px system
        // font (6.5 cut "Bedford Avenue" off by 5 px in Chromium), cos 40° ≈ 0.77, sin 40° ≈ 0.64.
        let labelLength = Double(min(longestTitle, Self.longestLabel)) * 7.5
        let width = lastStop + Int(labelLength * 0.77) + 12
        let height = Self.labelY + Int(labelLength * 0.64) + 16
        value = [
            "width": .int(width), "height": .int(height), "line_y": .int(Self.lineY),
            "line_start": .int(Self.margin), "line_end": .int(lastStop),
            "stops": .array(stops), "has_stops": .bool(!stops.isEmpty),
        ]
    }

    /// The stop of the station at `position` of `count`, titled `title`, whose page is at `href`.
    static func stop(at position: Int, of count: Int, title: String, href: String) -> MustacheValue {
        let x = margin + position * spacing
        // A label longer than the map leaves room for is shortened, never cut off mid-letter.
        let label = title.count > longestLabel ? String(title.prefix(longestLabel - 1)) + "…" : title
        return [
            "x": .int(x), "y": .int(lineY), "label_y": .int(labelY), "title": .string(title),
            "label": .string(label), "href": .string(href),
            "position": .int(position + 1), "is_terminal": .bool(position == 0 || position == count - 1),
        ]
    }
}
