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
@testable import LTrainMarkdown
@testable import LTrainMustache
@testable import LTrainServe
@testable import LTrainSupport

/// The theme's words are the author's: `labels:` in index.md.
@Suite struct LabelsTests {
    func site(index: String) throws -> (Site?, [String]) {
        var content = try loadedContent(stations: [try station("01-a.md", title: "A"), try station("02-b.md", title: "B")])
        content.index = try contentFile("index.md", index)
        var log = DiagnosticLog()
        let site = SiteBuilder.build(content, log: &log)
        return (site, log.diagnostics.map(\.description))
    }

    @Test func labelsReplaceTheDefaultsOneByOne() throws {
        let (built, diagnostics) = try site(index: "---\ntitle: T\nlabels:\n  done: Fertig\n  position: \"Halt {position}/{count}\"\n---\n")
        let site = try #require(built)
        #expect(diagnostics.isEmpty)
        #expect(site.labels["done"] == "Fertig")
        #expect(site.labels["more_information"] == "More Information", "a label left out keeps its default")
        #expect(site.labels.position(2, of: 7) == "Halt 2/7")
        #expect(Labels().position(3, of: 6) == "Stop 3 of 6")
        // Each placeholder wherever it stands, as often as it stands; other braces stay.
        #expect(Labels(["position": "{count}: {position} {position} {x} {"]).position(3, of: 6) == "6: 3 3 {x} {")
        #expect(Labels(["position": "Parada"]).position(3, of: 6) == "Parada")
        #expect(Labels(["position": "{position}/{count}: {position}"]).position(12, of: 40) == "12/40: 12")
        // Made once for a line, filled in for each station.
        let label = Labels.PositionLabel(Labels(["position": "{position} von {count}"]), count: 3)
        #expect((1...3).map(label.text(at:)) == ["1 von 3", "2 von 3", "3 von 3"])
        #expect(Labels(["position": "Arrêt n°{position} sur {count} — 🚇{posi"]).position(3, of: 16) == "Arrêt n°3 sur 16 — 🚇{posi")
        for label in Labels.all { #expect(Labels()[label.key] == label.text) }
    }

    @Test func nextLabelStillWorksAndLabelsNextWins() throws {
        let (old, oldDiagnostics) = try site(index: "---\ntitle: T\nnext_label: Onward\n---\n")
        #expect(old?.labels["next"] == "Onward" && oldDiagnostics.isEmpty)
        let (both, diagnostics) = try site(index: "---\ntitle: T\nnext_label: Onward\nlabels:\n  next: Forth\n---\n")
        #expect(both?.labels["next"] == "Forth")
        #expect(diagnostics == [
            "content/index.md: warning: next_label is ignored: labels.next is set too\n  hint: remove next_label (labels.next is the newer spelling)"
        ])
    }

    @Test func unknownLabelsAndPlaceholdersAreWarnedAboutWhereTheyStand() throws {
        let (built, diagnostics) = try site(
            index: "---\ntitle: T\nlabels:\n  more_informaton: Mehr\n  colour: red\n  position: \"Stop {postion} of {count}\"\n---\n")
        #expect(built != nil, "warnings do not fail the build")
        let known = Labels.all.map(\.key).joined(separator: ", ")
        #expect(diagnostics == [
            "content/index.md:4:3: warning: unknown label 'more_informaton' is ignored (did you mean 'more_information'?)\n  hint: labels are: \(known)",
            "content/index.md:5:3: warning: unknown label 'colour' is ignored\n  hint: labels are: \(known)",
            "content/index.md:6:3: warning: label 'position' has an unknown placeholder '{postion}', shown as written\n  hint: \(placeholderHint)",
        ])
    }

    let placeholderHint =
        "only 'position' ({position} and {count}, e.g. \"Stop {position} of {count}\") and 'result_count' ({count}) fill placeholders"

    /// Mustache's two braces, and a placeholder in a label that fills none, are each named with
    /// the label that holds them; braces around words that are no name are text.
    @Test func misplacedPlaceholdersNameTheirLabel() throws {
        let (built, diagnostics) = try site(
            index: "---\ntitle: T\nlabels:\n  next: \"Go {count}\"\n  position: \"Stop {{position}} of {{count}}\"\n  done: \"Done { }\"\n---\n")
        #expect(built?.labels["done"] == "Done { }")
        #expect(diagnostics == [
            "content/index.md:4:3: warning: label 'next' takes no placeholder; '{count}' is shown as written\n  hint: \(placeholderHint)",
            "content/index.md:5:3: warning: label 'position' writes '{{position}}' with two braces; a label's placeholder takes one, '{position}'\n  hint: \(placeholderHint)",
            "content/index.md:5:3: warning: label 'position' writes '{{count}}' with two braces; a label's placeholder takes one, '{count}'\n  hint: \(placeholderHint)",
        ])
    }

    @Test func anEmptyLabelIsWarnedAboutAndKeepsItsDefault() throws {
        let (built, diagnostics) = try site(index: "---\ntitle: T\nlabels:\n  next: \"\"\n  done: \"  \"\n---\n")
        #expect(built?.labels["next"] == "Go East" && built?.labels["done"] == "Done")
        #expect(diagnostics == [
            "content/index.md:4:3: warning: label 'next' is empty; the default 'Go East' is shown\n  hint: give it words, or remove the line to keep the default",
            "content/index.md:5:3: warning: label 'done' is empty; the default 'Done' is shown\n  hint: give it words, or remove the line to keep the default",
        ])
    }

    @Test func labelsMustBeAMappingOfStrings() throws {
        let (notMapping, diagnostics) = try site(index: "---\ntitle: T\nlabels: Fertig\n---\n")
        #expect(notMapping == nil)
        #expect(diagnostics.first?.hasPrefix("content/index.md:3:9: error: 'labels' must be a list of 'name: text' lines, found a string") == true)
        let (listValue, listDiagnostics) = try site(index: "---\ntitle: T\nlabels:\n  done: [a, b]\n---\n")
        #expect(listValue == nil)
        #expect(listDiagnostics.first?.hasPrefix("content/index.md:4:9: error: 'labels.done' must be a string, found a list") == true)
    }

    /// A Portuguese walking tour with its own word on every button: no English word of the
    /// default theme is left on any page, and each label shows where it belongs.
    @Test func aSiteInAnotherLanguageNeedsNoTemplateEdits() throws {
        let site = try TestSite.fixture("passeio")
        try site.build()
        let english = [
            "Go East", "More Information", ">Done<", "Stop ", "The Line, West to East", ">Checklists<", ">Map<",
            "Not Found", "This stop is not on the line.", "See the whole line", "or start at", "\"Back\"",
        ]
        for path in FileSystem.filesBelow(site.output) where path.hasSuffix(".html") {
            let page = try site.page(path)
            for word in english { #expect(!page.contains(word), "\(path) still says \(word)") }
        }
        let castelo = try site.page("stations/castelo.html")
        #expect(castelo.contains(#"<a class="bar-button next" rel="next" href="miradouro-de-santa-luzia.html">Seguinte</a>"#))
        #expect(castelo.contains(#"<p class="position">Paragem 1 de 3</p>"#))
        #expect(castelo.contains(">Mais informações</a>"))
        let miradouro = try site.page("stations/miradouro-de-santa-luzia.html")
        #expect(miradouro.contains(#"<span class="back-label" data-short-label="Voltar">Castelo de São Jorge</span>"#))
        #expect(try site.page("info/castelo.html").contains(">Concluído</a>"))
        let index = try site.page("index.html")
        #expect(index.contains(">O percurso, de oeste para leste</h2>") && index.contains(">Listas</h2>") && index.contains(">Mapa</h2>"))
        let notFound = try site.page("404.html")
        #expect(notFound.contains("<h1>Não encontrado</h1>") && notFound.contains("<title>Não encontrado — Passeio por Alfama</title>"))
        #expect(notFound.contains("<p>Esta paragem não faz parte do percurso.</p>"))
        #expect(notFound.contains(">Ver o percurso inteiro</a>, ou comece em <a href=\"stations/castelo.html\">"))
    }

    /// A label is an input of every page that shows it: changing one re-renders them.
    @Test func changingALabelRebuildsThePagesThatShowIt() throws {
        let site = try TestSite.fixture("passeio")
        try site.build()
        let index = try String(contentsOfFile: site.content + "/index.md", encoding: .utf8)
        try site.write("content/index.md", index.replacingOccurrences(of: "done: Concluído", with: "done: Feito"))
        try site.build()
        #expect(try site.page("info/se.html").contains(">Feito</a>"))
    }

    @Test func theReadmeListsEveryLabelWithItsDefault() throws {
        let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        for label in Labels.all {
            #expect(readme.contains("| `\(label.key)` | \(label.text) | \(label.shownAs) |"), "README lacks \(label.key)")
        }
    }
}
