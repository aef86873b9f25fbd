import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainLoad
@testable import LTrainModel
@testable import LTrainRoute
@testable import LTrainRender
@testable import LTrainCheck
@testable import LTrainWrite
@testable import LTrainScaffold
@testable import LTrainTemplates
@testable import LTrainPNG

/// The lists the README and docs/reference.md print are generated from the code that decides
/// them (the template-name schema, the labels), between `<!-- generated: NAME -->` and
/// `<!-- end generated -->`. `LTRAIN_RECORD_DOCS=1 swift test --filter DocsTests` writes them.
@Suite(.serialized) struct DocsTests {
    static let sections: [(file: String, name: String, text: @Sendable () -> String)] = [
        ("README.md", "template names", TemplateReference.compact),
        ("README.md", "labels", Labels.markdownTable),
        ("docs/reference.md", "template values", TemplateReference.markdown),
        ("docs/reference.md", "labels", Labels.markdownTable),
    ]

    /// The text between a section's markers, and where it stands.
    static func generated(_ name: String, in document: String) -> Range<String.Index>? {
        guard let start = document.range(of: "<!-- generated: \(name) -->\n"),
            let end = document.range(of: "<!-- end generated -->", range: start.upperBound..<document.endIndex)
        else { return nil }
        return start.upperBound..<end.lowerBound
    }

    @Test(arguments: 0..<sections.count)
    func generatedSectionMatchesTheCode(_ index: Int) throws {
        let section = Self.sections[index]
        let path = Repository.root + "/" + section.file
        var document = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(Self.generated(section.name, in: document), "\(section.file) has no '\(section.name)' section")
        if ProcessInfo.processInfo.environment["LTRAIN_RECORD_DOCS"] != nil {
            document.replaceSubrange(range, with: section.text())
            try document.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(document[range]) == section.text(), "run LTRAIN_RECORD_DOCS=1 swift test --filter DocsTests")
    }

    /// Every name a page is given has its words in the reference, and no words outlive their name.
    @Test func everyNameHasAMeaningAndEveryMeaningAName() {
        let entries = TemplateReference.entries()
        let unexplained = entries.filter { TemplateReference.meaning(of: $0.path, on: $0.page) == nil }.map(\.path)
        #expect(unexplained == [])
        let used = Set(entries.map(\.path) + entries.compactMap { entry in entry.page.map { "\($0):\(entry.path)" } })
        #expect(Set(TemplateReference.meanings.keys).subtracting(used).sorted() == [])
        #expect(entries.contains { $0.page == "station" && $0.path == "next.label" })
        #expect(entries.contains { $0.page == "index" && $0.path == "map.stops[].offset" })
        #expect(entries.contains { $0.page == nil && $0.path == "site.labels.*" })
    }
}
