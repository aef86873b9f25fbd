// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ltrain",
    products: [
        .executable(name: "ltrain", targets: ["ltrain"]),
        .library(name: "LTrainKit", targets: ["LTrainKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Thin C shim for Linux calls the Swift Glibc module does not expose (renameat2).
        .target(name: "CLTrainSystem"),
        // A per-thread bump allocator for libcmark's nodes and buffers (see markdown_arena.h).
        .target(name: "CMarkdownArena", dependencies: ["CCmark"]),
        .target(
            name: "LTrainKit",
            dependencies: ["CCmark", "CMarkdownArena", "CYAML", "CMicroHTTPD", "CPNG", "CLTrainSystem"]
        ),
        .executableTarget(
            name: "ltrain",
            dependencies: ["LTrainKit"]
        ),
        .testTarget(
            name: "LTrainKitTests",
            dependencies: ["LTrainKit"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
