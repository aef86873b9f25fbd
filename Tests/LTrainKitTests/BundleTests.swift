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

/// `ltrain bundle`'s own parts; the bundle as a reader uses it is tested in Tests/site/test_bundle.py.
@Suite struct BundleTests {
    @Test func aFileIsReadAndEncodedOnceHoweverManyPagesShowIt() throws {
        let site = try TestSite()
        try site.write("a.png", Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        let files = SiteBundle.InlinedFiles([
            "assets/a.png": AssetFile(outputPath: "assets/a.png", sourcePath: site.root + "/a.png", displayPath: "a.png"),
            "assets/gone.png": AssetFile(outputPath: "assets/gone.png", sourcePath: site.root + "/gone.png", displayPath: "gone.png"),
        ])
        let url = "data:image/png;base64,iVBORwECAw=="
        #expect(files.dataURL(of: "assets/a.png") == url)
        #expect(files.dataURL(of: "assets/a.png") == url)
        #expect(files.encoded == 1)
        #expect(files.dataURL(of: "assets/gone.png") == nil)
        #expect(files.dataURL(of: "assets/gone.png") == nil)
        #expect(files.dataURL(of: "nothing.png") == nil)
        #expect(files.encoded == 2)
    }

    /// The theme's style sheet cannot end the bundle's <style> early, however `</style` is written:
    /// the HTML parser ends a raw-text element at its closing tag in any case.
    @Test func theStyleSheetCannotCloseItsElement() throws {
        let site = try TestSite.defaultSite()
        let style = try String(contentsOfFile: site.templates + "/style.css", encoding: .utf8)
        try site.write(
            "templates/style.css",
            style + "\n/* </STYLE > </Style/ </style>x */ .q::after { content: \"</sTyLe>\"; }\n")
        let output = site.root + "/bundle.html"
        _ = try SiteBundle.write(content: site.content, templates: site.templates, output: output)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let closings = html.lowercased().components(separatedBy: "</style").count - 1
        #expect(closings == 1, "only the bundle's own closing tag")
        #expect(html.contains("/* <\\/STYLE > <\\/Style/ <\\/style>x */ .q::after { content: \"<\\/sTyLe>\"; }"))
        #expect(SiteBundle.closingTagsEscaped("a</b></styl</style", element: "style") == "a</b></styl<\\/style")
    }

    /// What a bundle may replace: nothing, or a regular file outside the sources. Every refusal
    /// is an error naming the path, and leaves what was there as it was, with no file left behind.
    @Test func aBundleReplacesOnlyARegularFileOutsideTheSources() throws {
        let site = try TestSite.defaultSite()
        func bundle(_ output: String) -> [String] {
            do {
                _ = try SiteBundle.write(content: site.content, templates: site.templates, output: output)
                return []
            } catch {
                return error.diagnostics.map(\.message)
            }
        }
        let index = site.content + "/index.md"
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        for output in [index, site.content + "/stations/new.html", site.templates + "/style.css",
            site.content + "/../templates/x.html"]
        {
            #expect(bundle(output).first?.hasPrefix("the bundle would be written inside the source folder") == true, "\(output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before)
        #expect(bundle(site.root).first == "the bundle's path is a folder")
        #expect(bundle(site.root + "/no/such/folder/x.html").first == "cannot write the bundle: its folder does not exist")
        // A FIFO and a device stay what they are (never /dev/null: a test must not risk it).
        let fifo = site.root + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(bundle(fifo).first?.hasPrefix("the bundle's path is not a regular file") == true)
        #expect(bundle("/dev/full").first?.hasPrefix("the bundle's path is not a regular file") == true)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root).filter { $0.contains(".ltrain-") }.isEmpty)
        // A regular file is replaced (a one-letter name in the current folder: Tests/site/test_bundle.py).
        #expect(bundle(site.root + "/x") == [])
        #expect(bundle(site.root + "/x") == [])
        #expect(try String(contentsOfFile: site.root + "/x", encoding: .utf8).hasPrefix("<!doctype html>"))
    }

    @Test func anImageOnTwoPagesIsInlinedInBoth() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/assets/dot.png", Data([0x89, 0x50, 0x4E, 0x47, 9, 9]))
        let stations = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations").sorted()
        for name in stations.prefix(2) {
            let path = site.content + "/stations/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try (text + "\n![A dot](../assets/dot.png)\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let output = site.root + "/bundle.html"
        _ = try SiteBundle.write(content: site.content, templates: site.templates, output: output)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,iVBORwkJ\"").count - 1 == 2)
    }
}
