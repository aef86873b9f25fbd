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

/// File names through `SiteFileName`'s rule: name → URL → back, and name → manifest line → back.
/// The input is a site's file paths, separated by NUL (which no file name can hold); `/` stays a
/// separator of folders. Every name the rule accepts must come back exactly from its URL (once
/// decoded, from any page's folder) and from `.ltrain-manifest`; a name it refuses must never be
/// read back from a manifest as some other name. Nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFileName(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: count)
    var accepted: [String: Manifest.Entry] = [:]
    for (number, bytes) in input.split(separator: 0, omittingEmptySubsequences: false).enumerated() {
        // The loader lists a name that is not UTF-8 with its bytes escaped; here it is decoded
        // with replacement characters, which the rule must judge like any other text.
        let path = String(decoding: bytes, as: UTF8.self)
        let entry = Manifest.Entry(hash: ContentHash(value: UInt64(number)), size: number, modified: 0, key: nil)
        // Split at each '/' byte, as names come from a folder's listing: not by Character, which
        // would hide a '/' that a combining mark after it joins.
        let components = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
        let byComponents = components.allSatisfy { SiteFileName.problem(inName: String(Substring($0))) == nil }
        precondition(SiteFileName.isAccepted(path) == byComponents, "the rule judges a path and its names differently")
        guard byComponents else {
            // A refused name is never read back from a manifest as another file.
            let written = Manifest(entries: [path: entry])
            if let read = Manifest(text: written.text) { precondition(read.entries == written.entries, "a refused name read back as another") }
            continue
        }
        let url = SiteFileName.url(of: path)
        precondition(url.utf8.allSatisfy { SitePath.isUnreserved($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") })
        precondition(SiteFileName.path(ofURL: url) == path, "the URL does not name the file")
        for page in ["index.html", "stations/a.html", "a/b/c/d.html"] {
            let link = SitePath.relativePath(from: page, to: path)
            precondition(SitePath.percentDecoded(link).flatMap { SitePath.resolve($0, against: page) } == path, "a link from \(page) misses the file")
        }
        accepted[path] = entry
    }
    let manifest = Manifest(entries: accepted)
    precondition(Manifest(text: manifest.text)?.entries == accepted, "the manifest does not read back its names")
    return 0
}

@_cdecl("FuzzFileName_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzFileName)
}
