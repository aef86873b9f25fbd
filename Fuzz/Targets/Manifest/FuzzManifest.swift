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

/// The reader of `.ltrain-manifest`, which an output folder may hold in any state. What it reads,
/// written again and read back, is the same manifest (ids are written sorted: a page's ids are a set).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    if var manifest = Manifest(text: text) {
        let again = Manifest(text: String(decoding: manifest.bytes, as: UTF8.self))
        for path in manifest.entries.keys { manifest.entries[path]?.ids.sort() }
        // Written in the current version, which records links (an earlier version's read as none)
        // and the site's URL (version 5 on).
        manifest.recordsLinks = true
        manifest.recordsSiteURL = true
        precondition(again == manifest, "the manifest does not read back as written")
    }
    return 0
}

@_cdecl("FuzzManifest_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzManifest)
}
