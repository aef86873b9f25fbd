import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad

/// A small site that gives every page kind every value it can have (a summary on each station,
/// neighbours on both sides of the middle one, a checklist with rows, a base URL), made through
/// the real Model, Route and Render, once. The names each page template may use are read off
/// its pages' contexts (`TemplateNames.schema(of:)`), so the one declaration of what a page is
/// given stays `PageRenderer.inputs(for:at:)`: a value added there is known to the template-name
/// check and to `ltrain help templates` without a word anywhere else.
enum PageSpecimen {
    /// The shape of the contexts of each page template's pages, merged.
    static let shapes: [String: TemplateNames.Shape] = makeShapes()

    /// The specimen's files: what an author could write, with every optional value set.
    static let files: [(path: String, text: String)] = [
        ("index.md", "---\ntitle: Specimen\nbase_url: https://example.org/line/\n---\nThe line.\n"),
        ("stations/01-west.md", "---\ntitle: West\nsummary: The first stop.\n---\nAbout West.\n"),
        ("stations/02-middle.md", "---\ntitle: Middle\nsummary: A stop between two.\n---\nAbout Middle.\n"),
        ("stations/03-east.md", "---\ntitle: East\nsummary: The last stop.\n---\nAbout East.\n"),
        ("checklists/pack.md", "---\ntitle: Pack\n---\nTake one.\n\n- Water\n- *Bread*\n"),
    ]

    private static func makeShapes() -> [String: TemplateNames.Shape] {
        var index: ContentFile?
        var stations: [ContentFile] = []
        var checklists: [ContentFile] = []
        for file in files {
            // The texts above are valid front matter; a failure leaves that file out, which the
            // tests that hold real pages to the schema would show.
            guard let document = try? FrontMatterDocument.parse(file.text) else { continue }
            let loaded = ContentFile(displayPath: "specimen/\(file.path)", relativePath: file.path, document: document)
            if file.path == "index.md" {
                index = loaded
            } else if file.path.hasPrefix("stations/") {
                stations.append(loaded)
            } else {
                checklists.append(loaded)
            }
        }
        guard let index else { return [:] }
        let content = LoadedContent.made(index: index, stations: stations, checklists: checklists)
        var log = DiagnosticLog()
        guard let site = SiteBuilder.build(content, log: &log), let library = try? MustacheLibrary(sources: [:]) else {
            return [:]
        }
        let routes = Routes(site: site, staticFiles: [], hasNotFoundPage: true, log: &log)
        let renderer = PageRenderer(site: site, routes: routes, library: library, templatePaths: [:])
        var shapes: [String: TemplateNames.Shape] = [:]
        // The routes have a 404 page (`hasNotFoundPage`), so the pages include it.
        for page in renderer.pages {
            let inputs = renderer.inputs(for: page, at: routes.path(of: page))
            var links = SourceLinks()
            var notices: [TextNotices] = []
            let context = renderer.context(from: inputs, sourceLinks: &links, notices: &notices)
            guard case .object(var fields) = TemplateNames.Shape(declaring: .object(context)) else { continue }
            // `files.NAME` is named after each theme file and asset of the author's site: not checked.
            fields["files"] = .any
            let shape = TemplateNames.Shape.object(fields)
            shapes[inputs.template] = shapes[inputs.template].map { $0.merged(with: shape) } ?? shape
        }
        return shapes
    }
}
