// swift-tools-version: 6.0
// Fuzz targets for the parsers that take untrusted bytes, built with libFuzzer and the address
// sanitizer by `scripts/fuzz` (a package of its own, so the product's `swift build` never needs
// the fuzzer's runtime). Each target is one LLVMFuzzerTestOneInput; seeds are in Corpus/<Target>.
import PackageDescription

let targets = ["Mustache", "FrontMatter", "Markdown", "HTMLScanner", "Manifest", "ServePath", "FileName"]

let package = Package(
    name: "ltrain-fuzz",
    dependencies: [.package(name: "ltrain", path: "..")],
    targets: [.target(name: "FuzzDriver", path: "Targets/Driver")]
        + targets.map { name in
            .executableTarget(
                name: "Fuzz\(name)",
                dependencies: ["FuzzDriver"] + ["LTrainKit", "LTrainServe", "LTrainSupport", "LTrainMustache", "LTrainMarkdown"].map {
                    .product(name: $0, package: "ltrain")
                },
                path: "Targets/\(name)")
        },
    swiftLanguageModes: [.v6]
)
