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

@Suite struct DefaultTemplateTests {
    @Test func builtInTemplatesAreTheTemplatesFolder() throws {
        var onDisk: [String: String] = [:]
        for relative in FileSystem.filesBelow(Repository.templates) where !relative.hasPrefix(".") {
            onDisk[relative] = try String(contentsOfFile: Repository.templates + "/" + relative, encoding: .utf8)
        }
        #expect(!onDisk.isEmpty)
        #expect(
            DefaultTemplates.files == onDisk,
            "templates/ changed: run scripts/embed-templates to compile the new version in")
    }

    @Test func aSiteWithoutTemplatesUsesTheBuiltInOnes() throws {
        let withFolder = try TestSite.defaultSite()
        try withFolder.build()
        let without = try TestSite.defaultSite()
        try without.remove("templates")
        try SiteBuild.run(
            BuildOptions(
                contentDirectory: without.content, templatesDirectory: without.templates, outputDirectory: without.output,
                templatesRequired: false))
        var a = TestSite.snapshot(withFolder.output)
        var b = TestSite.snapshot(without.output)
        a[".ltrain-manifest"] = nil
        b[".ltrain-manifest"] = nil
        #expect(a == b, "the built-in templates give the same site")
    }

    @Test func aTemplatesFolderOverridesSingleFiles() throws {
        let site = try TestSite.defaultSite()
        try site.remove("templates")
        try site.write("templates/style.css", "body { color: rebeccapurple; }\n")
        try site.write("templates/info.mustache", "{{<layout}}{{$content}}<main><h1>{{title}}</h1><a class=\"done\" href=\"{{done_href}}\">Done</a></main>{{/content}}{{/layout}}")
        try site.build()
        #expect(try site.page("style.css") == "body { color: rebeccapurple; }\n")
        #expect(try site.page("info/union-square.html").contains("<main><h1>Union Square</h1>"))
        #expect(try site.page("stations/union-square.html").contains("More Information"), "other templates built in")
        #expect(FileManager.default.fileExists(atPath: site.output + "/ltrain.js"))
    }

    @Test func anExplicitTemplatesFolderMustExist() throws {
        let site = try TestSite.defaultSite()
        try site.remove("templates")
        #expect(site.failures().first?.hasPrefix("templates: error: the templates folder does not exist") == true)
    }
}
