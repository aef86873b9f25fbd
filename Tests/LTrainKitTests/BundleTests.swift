import Foundation
import Testing

@testable import LTrainKit

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
