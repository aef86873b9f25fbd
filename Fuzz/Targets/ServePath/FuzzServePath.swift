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

/// `ltrain serve`'s request paths, decoded as the server decodes them: whatever comes in, a file
/// it names stays inside the site.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServePath(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let raw = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    guard let path = SitePath.percentDecoded(raw) else { return 0 }
    if case .file(let relative) = PreviewSession.sitePath(forRequest: path) {
        precondition(!relative.isEmpty && !relative.hasPrefix("/"), "'\(relative)' is not relative")
        precondition(!relative.utf8.contains(0) && !relative.contains("\\"), "'\(relative)' has a NUL or backslash")
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        precondition(!segments.contains { $0 == ".." || $0 == "." }, "'\(relative)' climbs")
    }
    _ = MediaType.of(path)
    return 0
}

@_cdecl("FuzzServePath_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzServePath)
}
