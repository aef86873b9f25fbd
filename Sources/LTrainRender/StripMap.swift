import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG

/// The geometry of the index page's strip map: the line drawn west to east, one stop per
/// station, with room for the labels that slant away from each stop. Templates draw it as SVG
/// from these numbers: the line is a nested `<svg>` from `line_x`, `line_length` wide, and each
/// stop sits at a percentage of it (`offset`), so a stop's values depend on its position and the
/// station count only (and the index can keep them from one version of the site to the next).
/// Right to left, the labels' room is on the left (`line_x`); the theme mirrors the line itself.
struct StripMap {
    /// The least distance between two stops.
    static let spacing = 52
    static let margin = 22
    static let lineY = 28
    static let labelY = 52
    /// Characters of a stop's label at most.
    static let longestLabel = 40
    /// The least width of the map: its card's at desktop sizes (the 44rem app column less the
    /// grouped list's 1rem sides), so a short line spans the card rather than half of it.
    static let cardWidth = 672

    let value: MustacheValue

    /// The map of `stops` (see `stop(at:of:title:href:)`), whose longest title has
    /// `longestTitle` characters, read in `direction`.
    init(stops: [MustacheValue], longestTitle: Int, direction: TextDirection = .leftToRight) {
        // Labels are drawn at 40° from each stop: at most 7.5 px a character of the 13 px system
        // font (6.5 cut "Bedford Avenue" off by 5 px in Chromium), cos 40° ≈ 0.77, sin 40° ≈ 0.64.
        let labelLength = Double(min(longestTitle, Self.longestLabel)) * 7.5
        let labelRoom = Int(labelLength * 0.77) + 12
        let width = max(Self.margin + max(0, stops.count - 1) * Self.spacing + labelRoom, Self.cardWidth)
        let lineLength = width - Self.margin - labelRoom
        let height = Self.labelY + Int(labelLength * 0.64) + 16
        let rightToLeft = direction == .rightToLeft
        value = [
            "width": .int(width), "height": .int(height), "line_y": .int(Self.lineY),
            "line_x": .int(rightToLeft ? labelRoom : Self.margin), "line_length": .int(lineLength),
            "stops": .array(stops), "has_stops": .bool(!stops.isEmpty),
        ]
    }

    /// The stop of the station at `position` of `count`, titled `title`, whose page is at `href`.
    static func stop(at position: Int, of count: Int, title: String, href: String) -> MustacheValue {
        // A label longer than the map leaves room for is shortened, never cut off mid-letter.
        let label = title.count > longestLabel ? String(title.prefix(longestLabel - 1)) + "…" : title
        let last = max(1, count - 1)
        return [
            "offset": .string(percent(position, of: last)),
            "y": .int(lineY), "label_y": .int(labelY), "title": .string(title),
            "label": .string(label), "href": .string(href),
            "position": .int(position + 1), "is_terminal": .bool(position == 0 || position == count - 1),
        ]
    }

    /// `part` of `whole` as a CSS percentage to five decimals (a twentieth of a pixel on a
    /// line of 10,000 stops), without trailing zeros: "0%", "20%", "33.33333%".
    static func percent(_ part: Int, of whole: Int) -> String {
        let scaled = (part * 10_000_000 + whole / 2) / whole
        // The five decimals as digits, without trailing zeros: written as bytes, since the index
        // has one a station.
        var fraction = scaled % 100_000
        var decimals = 5
        while decimals > 0 && fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        var text = String(scaled / 100_000)
        if decimals > 0 {
            text += String(unsafeUninitializedCapacity: decimals + 1) { output in
                output[0] = UInt8(ascii: ".")
                for place in stride(from: decimals, to: 0, by: -1) {
                    output[place] = UInt8(ascii: "0") + UInt8(fraction % 10)
                    fraction /= 10
                }
                return decimals + 1
            }
        }
        return text + "%"
    }
}
