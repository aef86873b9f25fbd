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

/// A name no page ever has is a warning at its tag, with the nearest name that is there.
@Suite struct TemplateNamesTests {
    func warnings(_ sources: [String: String]) throws -> [String] {
        let library = try MustacheLibrary(sources: sources)
        return TemplateNames.check(library, pageTemplates: PageRenderer.pageTemplates + ["404"], paths: [:])
            .map(\.description)
    }

    @Test func theDefaultTemplatesUseOnlyNamesPagesHave() throws {
        for site in [try TestSite.defaultSite(), try TestSite.fixture("tram"), try TestSite.fixture("passeio")] {
            let report = try site.build()
            #expect(!report.warnings.contains { $0.message.contains("no page has a value named") })
        }
    }

    @Test func aMisspeltNameIsFoundAtItsTagWithTheNearestName() throws {
        let site = try TestSite.defaultSite()
        let station = try String(contentsOfFile: site.templates + "/station.mustache", encoding: .utf8)
        try site.write("templates/station.mustache", station.replacingOccurrences(of: "<h1>{{title}}</h1>", with: "<h1>{{titel}}</h1>"))
        let report = try site.build()
        let lines = station.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("<h1>{{title}}</h1>") })
        #expect(report.warnings.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") } == [
            "templates/station.mustache:\(line + 1):5: warning: no page has a value named 'titel'; it renders as nothing (did you mean 'title'?)\n  hint: ltrain help templates lists the names each page kind has"
        ])
    }

    /// The check runs beside routing: a build that routing stops still reports the names.
    @Test func aMisspeltNameIsReportedBesideARoutingError() throws {
        let site = try TestSite.defaultSite()
        let station = try String(contentsOfFile: site.templates + "/station.mustache", encoding: .utf8)
        try site.write("templates/station.mustache", station.replacingOccurrences(of: "<h1>{{title}}</h1>", with: "<h1>{{titel}}</h1>"))
        try site.write("templates/index.html", "<!doctype html><title>in the way</title>")
        let failures = site.failures()
        #expect(failures.contains { $0.contains("would both be written to index.html") }, "\(failures)")
        #expect(failures.contains { $0.contains("no page has a value named 'titel'") }, "\(failures)")
    }

    @Test func namesResolveThroughSectionsPartialsAndLayouts() throws {
        let layout = "<title>{{document_title}}</title>{{$content}}{{/content}}{{site.labels.done}}{{site.labels.dne}}"
        let found = try warnings([
            "layout": layout,
            // A list's items have their own names; outer names stay visible inside.
            "index": "{{<layout}}{{$content}}{{#stations}}{{title}} {{href}} {{position}} {{site.title}} {{hreff}}{{/stations}}{{/content}}{{/layout}}",
            // An object's names inside its section; an inverted section pushes nothing.
            "station": "{{<layout}}{{$content}}{{#next}}{{label}}{{/next}}{{^previous}}{{label}}{{/previous}}{{>row}}{{/content}}{{/layout}}",
            // A partial shared by two page kinds: a name one of them has is fine.
            "row": "{{info_href}}{{back.href}}{{nowhere}}",
            "info": "{{<layout}}{{$content}}{{done_href}}{{#body}}{{.}}{{/body}}{{>row}}{{/content}}{{/layout}}",
            "checklist": "{{<layout}}{{$content}}{{#rows}}{{label}}{{lable}}{{/rows}}{{>row}}{{/content}}{{/layout}}",
        ])
        #expect(found == [
            "checklist:1:42: warning: no page has a value named 'lable'; it renders as nothing (did you mean 'label'?)\n  hint: ltrain help templates lists the names each page kind has",
            "index:1:84: warning: no page has a value named 'hreff'; it renders as nothing (did you mean 'href'?)\n  hint: ltrain help templates lists the names each page kind has",
            "layout:1:78: warning: no page has a value named 'site.labels.dne'; it renders as nothing (did you mean 'done'?)\n  hint: ltrain help templates lists the names each page kind has",
            "row:1:27: warning: no page has a value named 'nowhere'; it renders as nothing\n  hint: ltrain help templates lists the names each page kind has",
            "station:1:64: warning: no page has a value named 'label'; it renders as nothing\n  hint: ltrain help templates lists the names each page kind has",
        ].map { $0.replacingOccurrences(of: "checklist:", with: "checklist.mustache:").replacingOccurrences(of: "index:", with: "index.mustache:").replacingOccurrences(of: "layout:", with: "layout.mustache:").replacingOccurrences(of: "row:", with: "row.mustache:").replacingOccurrences(of: "station:", with: "station.mustache:") })
    }

    /// The schema is read off what pages are given (`PageSpecimen`), not listed by hand: for the
    /// default site, the names its pages of each kind are given are exactly the schema's, so a
    /// value added to `PageRenderer.inputs(for:at:)` is a name templates may use, and a name no
    /// page is given any more is not.
    @Test func theSchemaIsWhatThePagesAreGiven() throws {
        let site = try TestSite.defaultSite()
        let renderer = try PreparedSite.prepare(content: site.content, templates: site.templates).renderer
        var given: [String: Set<String>] = [:]
        for page in renderer.pages + [.notFound] {
            let inputs = renderer.inputs(for: page, at: renderer.routes.path(of: page))
            var links = SourceLinks()
            var notices: [TextNotices] = []
            let values = renderer.context(from: inputs, sourceLinks: &links, notices: &notices)
            given[inputs.template, default: []].formUnion(TemplateReference.paths(of: TemplateNames.Shape(declaring: .object(values))))
        }
        for template in PageRenderer.everyPageTemplate {
            let schema = try #require(TemplateNames.schema(of: template))
            // `files.NAME` are the site's own files, which the schema leaves open.
            let named = Set(TemplateReference.paths(of: schema)).filter { !$0.hasPrefix("files") }
            #expect(named == given[template, default: []].filter { !$0.hasPrefix("files") }, "\(template)")
        }
    }

    /// The schema is the one list of names each page kind has: every page's actual context must
    /// fit it, so a value added to a context and not to the schema fails here.
    @Test func everyPagesContextFitsItsSchema() throws {
        for site in [try TestSite.defaultSite(), try TestSite.fixture("tram"), try TestSite.fixture("passeio")] {
            let renderer = try PreparedSite.prepare(content: site.content, templates: site.templates).renderer
            for page in renderer.pages {
                let inputs = renderer.inputs(for: page, at: renderer.routes.path(of: page))
                var links = SourceLinks()
                var notices: [TextNotices] = []
                let values = renderer.context(from: inputs, sourceLinks: &links, notices: &notices)
                let schema = try #require(TemplateNames.schema(of: inputs.template))
                #expect(schema.admits(TemplateNames.Shape(of: .object(values))) == [], "\(page)")
            }
        }
    }
}
