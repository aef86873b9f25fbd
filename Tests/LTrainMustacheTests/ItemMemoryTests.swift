import Synchronization
import Testing

@testable import LTrainMustache

/// A render with the caller's memory of list items (`MustacheItemMemory`) copies the bytes the
/// memory has for an item instead of rendering it, hands back the bytes of each item that read
/// nothing outside itself (nil for the others), and always gives the bytes a plain render gives.
@Suite struct ItemMemoryTests {
    /// Keeps each section's items' bytes by the item's value: what a caller keying by what each
    /// item is made from (`PartMemory`, by the row they were rendered from) does.
    final class ByValue: MustacheItemMemory {
        struct Entry {
            var section: MustacheListSection
            var items: [MustacheValue]
            var bytes: [[UInt8]?]
        }
        private let state = Mutex<(entries: [Entry], copied: Int, handedBack: [[UInt8]?])>(([], 0, []))
        var copied: Int { state.withLock { $0.copied } }
        var handedBack: [[UInt8]?] { state.withLock { $0.handedBack } }

        func keptItems(of section: MustacheListSection, items: [MustacheValue]) -> [[UInt8]?]? {
            state.withLock { state in
                state.copied = 0
                guard let entry = state.entries.first(where: { $0.section == section }) else { return nil }
                return items.indices.map { index in
                    guard index < entry.items.count, entry.items[index] == items[index], let bytes = entry.bytes[index] else { return nil }
                    state.copied += 1
                    return bytes
                }
            }
        }

        func keep(_ bytes: [[UInt8]?], of section: MustacheListSection, items: [MustacheValue]) {
            state.withLock { state in
                state.entries.removeAll { $0.section == section }
                state.entries.append(Entry(section: section, items: items, bytes: bytes))
                state.handedBack = bytes
            }
        }
    }

    let library: MustacheLibrary
    let rows: [MustacheValue] = (1...5).map { ["name": .string("Stop \($0)"), "n": .int($0)] }

    init() throws {
        library = try MustacheLibrary(sources: [
            "page": "<h1>{{title}}</h1><ol>{{#rows}}<li>{{n}}. {{name}}</li>{{/rows}}</ol>",
            "outer": "<ol>{{#rows}}<li>{{name}} of {{title}}</li>{{/rows}}</ol>",
            "partial": "<ul>{{#rows}}{{>row}}{{/rows}}</ul>",
            "row": "<li>{{name}}</li>",
        ])
    }

    func page(_ rows: [MustacheValue], title: String = "Line") -> MustacheValue {
        ["title": .string(title), "rows": .array(rows)]
    }

    @Test func keptItemsAreCopiedAndAChangedOneIsRenderedAgain() throws {
        let memory = ByValue()
        let first = try library.renderBytes("page", page(rows), itemMemory: memory)
        #expect(first == (try library.renderBytes("page", page(rows))))
        #expect(memory.copied == 0)
        #expect(memory.handedBack.map { $0.map { String(decoding: $0, as: UTF8.self) } } == (1...5).map { "<li>\($0). Stop \($0)</li>" })

        // The same items, a new title outside the list: every row copied, the title new.
        let second = try library.renderBytes("page", page(rows, title: "New"), itemMemory: memory)
        #expect(memory.copied == 5)
        #expect(second == (try library.renderBytes("page", page(rows, title: "New"))))

        // One row changed: that one rendered, the four others copied.
        var edited = rows
        edited[2] = ["name": "Renamed", "n": 3]
        let third = try library.renderBytes("page", page(edited), itemMemory: memory)
        #expect(memory.copied == 4)
        #expect(String(decoding: third, as: UTF8.self).contains("<li>3. Renamed</li>"))
        #expect(third == (try library.renderBytes("page", page(edited))))
    }

    @Test func anItemThatReadsOutsideItselfIsHandedBackAsNothing() throws {
        let memory = ByValue()
        _ = try library.renderBytes("outer", page(rows), itemMemory: memory)
        #expect(memory.handedBack.count == 5 && memory.handedBack.allSatisfy { $0 == nil })
        let renamed = try library.renderBytes("outer", page(rows, title: "Canarsie"), itemMemory: memory)
        #expect(memory.copied == 0)
        #expect(String(decoding: renamed, as: UTF8.self).contains("<li>Stop 1 of Canarsie</li>"))
    }

    @Test func itemsRenderedThroughAPartialAreKeptAndAnotherSectionIsTold() throws {
        let memory = ByValue()
        _ = try library.renderBytes("partial", page(rows), itemMemory: memory)
        let again = try library.renderBytes("partial", page(rows), itemMemory: memory)
        #expect(memory.copied == 5)
        #expect(again == (try library.renderBytes("partial", page(rows))))
        // The same items under a section of other text: a section the memory does not know.
        let other = try library.renderBytes("page", page(rows), itemMemory: memory)
        #expect(memory.copied == 0)
        #expect(other == (try library.renderBytes("page", page(rows))))
    }
}
