import Testing

@testable import LTrainModel
@testable import LTrainMustache
@testable import LTrainRender
@testable import LTrainSupport

/// The part memory's rule for the index page's rows, asked directly: a kept row stands for its
/// station only while the row was made from what it would be made from now, and kept bytes only
/// for the very item they were rendered from. (Markdown texts: `ServeTests` and `SearchTests`.)
@Suite struct PartMemoryTests {
    static func stations(_ count: Int) -> [Station] {
        (1...count).map { number in
            Station(
                number: [number], slug: "stop-\(number)", title: "Stop \(number)", summary: nil,
                info: InfoPage(
                    body: MarkdownSource(
                        text: "Info \(number).\n", displayPath: "stations/\(number).md",
                        contentPath: "stations/\(number).md", lineOffset: 3)),
                sourcePath: "stations/\(number).md")
        }
    }

    /// The rows of `stations`, and the positions `make` was asked for.
    static func rows(
        _ memory: PartMemory, _ stations: [Station], layout: Int = 1
    ) -> (rows: IndexRows, made: [Int]) {
        var made: [Int] = []
        let rows = memory.rows(of: stations, layout: ContentHash(value: UInt64(layout))) { position in
            made.append(position)
            return IndexRow(
                station: stations[position],
                listItem: ["title": .string(stations[position].title), "position": .int(position + 1)],
                stop: ["title": .string(stations[position].title)])
        }
        return (rows, made)
    }

    @Test func aRowIsMadeAgainOnlyWhereWhatItIsMadeFromChanged() {
        let memory = PartMemory(keepsRenders: true)
        var stations = Self.stations(6)
        #expect(Self.rows(memory, stations).made == Array(0..<6))
        #expect(Self.rows(memory, stations).made == [], "the same stations: every row is kept")

        stations[2].title = "Renamed"
        let renamed = Self.rows(memory, stations)
        #expect(renamed.made == [2])
        #expect(renamed.rows.listItems[2] == ["title": .string("Renamed"), "position": .int(3)])

        stations[4].info.body.text = "Another info text.\n"
        #expect(Self.rows(memory, stations).made == [], "a row does not read the info text")

        #expect(Self.rows(memory, stations, layout: 2).made == Array(0..<6), "the routes' layout changed")
        #expect(Self.rows(memory, Array(stations.dropLast()), layout: 2).made == Array(0..<5), "the number changed")
    }

    @Test func withoutRendersKeptEveryRowIsMade() {
        let memory = PartMemory(keepsRenders: false)
        let stations = Self.stations(4)
        #expect(Self.rows(memory, stations).made == Array(0..<4))
        #expect(Self.rows(memory, stations).made == Array(0..<4))
    }

    /// The bytes kept in a row are used only for the item they were rendered from and under the
    /// same templates: a render whose lists are another version's (made before the memory's rows
    /// were made again) renders the items whose rows changed.
    @Test func keptBytesStandOnlyForTheItemTheyWereRenderedFrom() throws {
        let library = try MustacheLibrary(sources: ["index": "<ol>{{#stations}}<li>{{title}}</li>{{/stations}}</ol>"])
        let memory = PartMemory(keepsRenders: true)
        func render(_ rows: IndexRows, templateKey: UInt64 = 1) throws -> (html: String, reused: Int) {
            let lists = [
                PageInputs.KnownList(items: rows.listItems, hash: rows.listItemsHash, itemHashes: rows.listItemHashes)
            ]
            let itemMemory = IndexRenderMemory(parts: memory, templateKey: ContentHash(value: templateKey), lists: lists)
            let bytes = try library.renderBytes("index", ["stations": .array(rows.listItems)], itemMemory: itemMemory)
            return (String(decoding: bytes, as: UTF8.self), memory.itemsReused)
        }
        var stations = Self.stations(3)
        let first = Self.rows(memory, stations).rows
        #expect(try render(first).reused == 0)
        #expect(try render(first).reused == 3)

        stations[1].title = "Renamed"
        let second = Self.rows(memory, stations).rows
        let renamed = try render(second)
        #expect(renamed.reused == 2)
        #expect(renamed.html == "<ol><li>Stop 1</li><li>Renamed</li><li>Stop 3</li></ol>")

        // The first version's lists, rendered after the memory's rows became the second's.
        let older = try render(first)
        #expect(older.html == "<ol><li>Stop 1</li><li>Stop 2</li><li>Stop 3</li></ol>")
        #expect(older.reused == 2)

        let otherTemplates = try render(second, templateKey: 2)
        #expect(otherTemplates.reused == 0, "other templates: no kept bytes stand")
        #expect(otherTemplates.html == renamed.html)
    }
}
