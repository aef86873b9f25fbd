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

/// The Markdown wrapper: cmark, link rewriting, safe links and heading ids, as a station's info
/// page and as a checklist. Heading ids are unique, and no dangerous link survives in safe mode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    let rewrite: Markdown.LinkRewriter = { $0.hasSuffix(".md") ? String($0.dropLast(3)) + ".html" : nil }
    let rendered = Markdown.render(text, rewriteLink: rewrite)
    for link in rendered.links {
        precondition(!Markdown.isDangerous(link.destination), "a dangerous link survived: \(link.destination)")
        precondition(link.line >= 1, "link line \(link.line)")
    }
    let html = rendered.html
    let scanned = HTMLScanner.scan(rendered.htmlBytes)
    let ids = scanned.ids
    // The links and ids the check takes from the render are what a scan of the HTML reads, with
    // raw HTML off and on (on, a text with raw HTML is left to the scan).
    if let known = rendered.htmlScan {
        precondition(known.links == scanned.links && Set(known.ids) == ids, "known \(known) against scanned \(scanned)")
    } else {
        preconditionFailure("raw HTML is off, yet the links and ids were left to the scan")
    }
    var unsafe = MarkdownOptions()
    unsafe.allowsUnsafeHTML = true
    let withRawHTML = Markdown.render(text, options: unsafe, rewriteLink: rewrite)
    if let known = withRawHTML.htmlScan {
        let scannedRaw = HTMLScanner.scan(withRawHTML.htmlBytes)
        precondition(
            known.links == scannedRaw.links && Set(known.ids) == scannedRaw.ids, "known \(known) against \(scannedRaw)")
    }
    var seen: Set<String> = []
    var offset = html.startIndex
    while let range = html.range(of: "<h", range: offset..<html.endIndex) {
        offset = range.upperBound
        guard let idStart = html.range(of: " id=\"", range: offset..<html.endIndex),
            html.distance(from: offset, to: idStart.lowerBound) == 1,
            let idEnd = html.range(of: "\"", range: idStart.upperBound..<html.endIndex)
        else { continue }
        let id = String(html[idStart.upperBound..<idEnd.lowerBound])
        precondition(seen.insert(id).inserted, "heading id '\(id)' given twice")
        precondition(ids.contains(id))
    }
    // The notices found in the render's walk are the ones a parse of their own finds (kinds and
    // counts; a footnote put back as text may be placed at its block), each inside the text.
    let alone = Markdown.notices(in: text)
    precondition(
        alone.map { "\($0.kind) \($0.more)" }.sorted() == rendered.notices.map { "\($0.kind) \($0.more)" }.sorted(),
        "notices differ: \(alone) against \(rendered.notices)")
    // Lines as cmark counts them: ended by `\n`, `\r\n` or a lone `\r`.
    let bytes = Array(text.utf8)
    let lines = 1 + bytes.indices.filter { bytes[$0] == 0x0A || (bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A)) }.count
    for notice in rendered.notices {
        precondition(notice.line >= 1 && notice.line <= lines && notice.column >= 1, "notice outside the text: \(notice)")
    }
    if let list = Markdown.splitFirstList(text, rewriteLink: rewrite) {
        precondition(list.items.allSatisfy { $0.line >= 1 })
    }
    return 0
}

@_cdecl("FuzzMarkdown_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzMarkdown)
}
