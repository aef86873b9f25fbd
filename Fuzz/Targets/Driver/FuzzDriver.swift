/// libFuzzer's driver, started from each target's entry point. SwiftPM links an executable's
/// `main` to a function named after its module (`FuzzMustache_main`), so each target defines that
/// function and hands its `LLVMFuzzerTestOneInput` to libFuzzer here.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: FuzzTest
) -> Int32

/// Runs libFuzzer with the process's arguments over `test`.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: FuzzTest
) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, test)
}
