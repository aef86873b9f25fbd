import FuzzDriver
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

/// The link check's HTML scanner and judge over any bytes as a page of a small site.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLScanner(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let files: Set<String> = ["index.html", "stations/union-square.html", "info/union-square.html", "style.css"]
    let check = LinkChecker.checkPage(
        outputPath: "stations/union-square.html", bytes: bytes, templatePath: "templates/station.mustache",
        templateSources: [TemplateSource(path: "templates/station.mustache", text: String(decoding: bytes, as: UTF8.self))],
        sourceLinks: [], files: files)
    var log = DiagnosticLog()
    LinkChecker.checkFragments([check], log: &log)
    _ = LinkChecker.externalLinks(of: [check])
    return 0
}

@_cdecl("FuzzHTMLScanner_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzHTMLScanner)
}
