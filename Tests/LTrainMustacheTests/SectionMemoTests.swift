import Testing

@testable import LTrainMustache

/// A render with a memo copies the bytes of list items that are the very same values as last
/// time and read nothing outside themselves, and renders everything else: always the bytes a
/// render without a memo gives.
@Suite struct SectionMemoTests {
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

    @Test func theSameItemsAreCopiedAndAChangedOneIsRenderedAgain() throws {
        let memo = SectionMemo()
        let first = try library.renderBytes("page", page(rows), memo: memo)
        #expect(first == (try library.renderBytes("page", page(rows))))
        #expect(memo.reusedItems == 0)

        // The same values, and a new title outside the list: every row copied, the title new.
        let second = try library.renderBytes("page", page(rows, title: "New"), memo: memo)
        #expect(memo.reusedItems == 5)
        #expect(second == (try library.renderBytes("page", page(rows, title: "New"))))

        // One row changed (a new value at its place): that one rendered, the four others copied.
        var edited = rows
        edited[2] = ["name": "Renamed", "n": 3]
        let third = try library.renderBytes("page", page(edited), memo: memo)
        #expect(memo.reusedItems == 4)
        #expect(String(decoding: third, as: UTF8.self).contains("<li>3. Renamed</li>"))
        #expect(third == (try library.renderBytes("page", page(edited))))
    }

    @Test func anEqualButNewValueIsRenderedAgain() throws {
        let memo = SectionMemo()
        _ = try library.renderBytes("page", page(rows), memo: memo)
        // Equal fields, new storage: identity is what is compared, never a stale guess.
        let copies: [MustacheValue] = (1...5).map { ["name": .string("Stop \($0)"), "n": .int($0)] }
        _ = try library.renderBytes("page", page(copies), memo: memo)
        #expect(memo.reusedItems == 0)
    }

    @Test func anItemThatReadsOutsideItselfIsNeverCopied() throws {
        let memo = SectionMemo()
        _ = try library.renderBytes("outer", page(rows), memo: memo)
        let renamed = try library.renderBytes("outer", page(rows, title: "Canarsie"), memo: memo)
        #expect(memo.reusedItems == 0)
        #expect(String(decoding: renamed, as: UTF8.self).contains("<li>Stop 1 of Canarsie</li>"))
    }

    @Test func anotherLibraryFindsTheMemoEmpty() throws {
        let memo = SectionMemo()
        _ = try library.renderBytes("partial", page(rows), memo: memo)
        // The same section text, but the partial it includes has changed.
        let edited = try MustacheLibrary(sources: [
            "partial": "<ul>{{#rows}}{{>row}}{{/rows}}</ul>", "row": "<li class=\"stop\">{{name}}</li>",
        ])
        let html = try edited.renderBytes("partial", page(rows), memo: memo)
        #expect(memo.reusedItems == 0)
        #expect(html == (try edited.renderBytes("partial", page(rows))))
        // And the memo now holds that library's render.
        _ = try edited.renderBytes("partial", page(rows), memo: memo)
        #expect(memo.reusedItems == 5)
        // A template the rendered one cannot include changes nothing for it.
        let unrelated = try MustacheLibrary(sources: [
            "partial": "<ul>{{#rows}}{{>row}}{{/rows}}</ul>", "row": "<li class=\"stop\">{{name}}</li>",
            "other": "changed",
        ])
        _ = try unrelated.renderBytes("partial", page(rows), memo: memo)
        #expect(memo.reusedItems == 5)
    }

    @Test func itemsRenderedThroughAPartialAreCopiedAndAnotherSectionsAreNot() throws {
        let memo = SectionMemo()
        _ = try library.renderBytes("partial", page(rows), memo: memo)
        let again = try library.renderBytes("partial", page(rows), memo: memo)
        #expect(memo.reusedItems == 5)
        #expect(again == (try library.renderBytes("partial", page(rows))))
        // The same items under a section of other text: nothing of the partial's is copied there.
        let other = try library.renderBytes("page", page(rows), memo: memo)
        #expect(memo.reusedItems == 0)
        #expect(other == (try library.renderBytes("page", page(rows))))
    }
}
