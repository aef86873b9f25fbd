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

/// Reading a content file: the byte check (NUL, UTF-8), the front-matter split and libyaml.
/// Every failure has a position inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontMatter(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard case .success(let text) = SourceText.decode(bytes) else { return 0 }
    do throws(YAMLError) {
        let document = try FrontMatterDocument.parse(text)
        precondition(document.bodyLineOffset >= 0)
        if let node = document.frontMatter {
            // Every scalar is free of NUL, whatever escapes the YAML used.
            var pending = [node]
            while let next = pending.popLast() {
                switch next {
                case .scalar(let value, _, _): precondition(!value.utf8.contains(0), "NUL in a YAML value")
                case .sequence(let items, _): pending.append(contentsOf: items)
                case .mapping(let pairs, _): pending.append(contentsOf: pairs.map(\.value))
                }
            }
        }
    } catch {
        precondition(error.location.line >= 1 && error.location.column >= 1, "bad error position \(error.location)")
    }
    return 0
}

@_cdecl("FuzzFrontMatter_main")
public func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzFrontMatter)
}
