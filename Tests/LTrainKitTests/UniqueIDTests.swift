import Foundation
import Testing

@testable import LTrainKit
@testable import LTrainBundle
@testable import LTrainLoad
@testable import LTrainModel
@testable import LTrainRoute
@testable import LTrainRender
@testable import LTrainCheck
@testable import LTrainWrite
@testable import LTrainScaffold
@testable import LTrainTemplates
@testable import LTrainPNG

/// No id is given twice on a page (or in the single file): a heading never takes an id its
/// template writes or a checklist row holds, and the single file's prefixes cannot meet a page's id.
@Suite struct UniqueIDTests {
    /// Every `id="…"` of an HTML text, in order.
    static func ids(in html: String) -> [String] {
        html.components(separatedBy: " id=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    static func repeated(_ ids: [String]) -> [String] {
        Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    }

    func read(_ site: TestSite, _ page: String) throws -> String {
        try String(contentsOfFile: site.output + "/" + page, encoding: .utf8)
    }

    @Test func aHeadingOfTheIndexDoesNotTakeAnIdOfItsTemplate() throws {
        let site = try TestSite.defaultSite()
        let index = try String(contentsOfFile: site.content + "/index.md", encoding: .utf8)
        try site.write("content/index.md", index + "\n## Map heading\n\n## Line Heading\n\n[to the map](#map-heading)\n")
        try site.build()
        let html = try read(site, "index.html")
        #expect(Self.repeated(Self.ids(in: html)) == [])
        #expect(html.contains("<h2 id=\"map-heading-2\">Map heading</h2>"))
        #expect(html.contains("<h2 id=\"line-heading-2\">Line Heading</h2>"))
        #expect(html.contains("id=\"map-heading\">"), "the template's own id stays")
    }

    @Test func aChecklistHeadingDoesNotTakeARowsId() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/checklists/groceries.md", "---\ntitle: Groceries\n---\n## Groceries Milk\n\nPick one.\n\n- Milk\n- Bread\n")
        try site.build()
        let html = try read(site, "checklists/groceries.html")
        #expect(Self.repeated(Self.ids(in: html)) == [])
        #expect(html.contains("id=\"groceries-milk\" value=\"milk\""))
        #expect(html.contains("<h2 id=\"groceries-milk-2\">Groceries Milk</h2>"))
    }

    @Test func theSingleFilesPrefixesCannotMeetAPagesId() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/stations/07-a.md", "---\ntitle: A\n---\n## B\n\nText.\n")
        try site.write("content/stations/08-a-b.md", "---\ntitle: A B\nslug: a--b\n---\nText.\n")
        let output = site.root + "/one.html"
        _ = try SiteBundle.write(content: site.content, templates: site.templates, output: output)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let ids = Self.ids(in: html)
        #expect(Self.repeated(ids) == [])
        #expect(ids.contains("info-a--b") && ids.contains("info-a.b"))
        #expect(ids.count > 40, "every page of the file was read")
    }

    @Test func literalIDsAreReadFromTheTemplateAsWritten() {
        let text = #"<h2 id="map-heading">x</h2><input id="{{id}}"> <a id='top'></a> <p data-id="no"> <p id=bare>"#
        #expect(PageRenderer.literalIDs(in: text) == ["map-heading", "top"])
        // Read as bytes: a value of any script, one built in part from a value left out, one
        // never closed ending the search.
        #expect(PageRenderer.literalIDs(in: #"<p id="café-€"><p id="a-{{b}}"><p id="{x}"><b id="c"#) == ["café-€", "{x}"])
        #expect(PageRenderer.literalIDs(in: " id=") == [] && PageRenderer.literalIDs(in: "") == [])
    }
}
