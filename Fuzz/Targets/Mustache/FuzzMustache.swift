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

/// The Mustache parser and renderer: any bytes as a template (and as a partial it includes),
/// rendered with a context that has sections, lists and partial names to follow. Parsing either
/// succeeds or fails at a position inside the template; rendering either finishes or fails, and
/// through a compiled program as through the walk of the nodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    // The first line, if short, also serves as a partial's text.
    let partial = String(text.prefix { $0 != "\n" }.prefix(64))
    let context: MustacheValue = [
        "title": "<Union & Square>", "x": true, "list": [["a": 1], ["a": 2]], "name": "p",
        "nested": ["x": ["y": "deep"]],
    ]
    do throws(MustacheError) {
        let library = try MustacheLibrary(sources: ["main": text, "p": partial, "parent": "{{$x}}default{{/x}}"])
        let rendered = try? library.render("main", context)
        // A compiled program writes what the walk of the nodes writes, and fails where it fails.
        if library.isCompiled("main") {
            precondition(rendered == (try? library.renderByWalk("main", context)), "the program and the walk differ")
        }
        _ = library.unconditionalCycles()
    } catch {
        if let location = error.location {
            let lines = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            precondition(location.line >= 1 && location.line <= lines, "error line \(location.line) outside the template")
            precondition(location.column >= 1, "error column \(location.column)")
        }
    }
    return 0
}

@_cdecl("FuzzMustache_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzMustache)
}
