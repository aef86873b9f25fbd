// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ltrain",
    products: [
        .executable(name: "ltrain", targets: ["ltrain"]),
        .library(name: "LTrainKit", targets: ["LTrainKit"]),
        .library(name: "LTrainServe", targets: ["LTrainServe"]),
        .library(name: "LTrainSupport", targets: ["LTrainSupport"]),
        .library(name: "LTrainMustache", targets: ["LTrainMustache"]),
        .library(name: "LTrainMarkdown", targets: ["LTrainMarkdown"]),
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
        // The stages, each a target of its own so that a stage reaching across the layers fails
        // to build (see the README's architecture section). From the bottom up:
        // paths, hashing, diagnostics, the parallel loop and the file system calls.
        .target(name: "LTrainSupport", dependencies: ["CLTrainSystem"]),
        // The Mustache engine (the whole spec): parse, check includes, render to bytes.
        .target(name: "LTrainMustache", dependencies: ["LTrainSupport"]),
        // libcmark behind a small wrapper: render, link rewriting, heading ids, notices.
        .target(name: "LTrainMarkdown", dependencies: ["LTrainSupport", "CCmark", "CMarkdownArena"]),
        // The pipeline: load → model → route → render → check → write, the plan and its executor,
        // the one-file bundle and the scaffolding of new sites.
        .target(
            name: "LTrainKit",
            dependencies: ["LTrainSupport", "LTrainMustache", "LTrainMarkdown", "CYAML", "CPNG"]
        ),
        // `ltrain serve`: the site built into memory through the same executor, the HTTP server,
        // the file watcher and live reload.
        .target(name: "LTrainServe", dependencies: ["LTrainKit", "LTrainSupport", "LTrainMustache", "CMicroHTTPD"]),
        .executableTarget(
            name: "ltrain",
            dependencies: ["LTrainKit", "LTrainServe", "LTrainSupport"]
        ),
        // Each stage's tests build against that stage alone.
        .testTarget(name: "LTrainSupportTests", dependencies: ["LTrainSupport"]),
        .testTarget(name: "LTrainMustacheTests", dependencies: ["LTrainMustache", "LTrainSupport"]),
        .testTarget(name: "LTrainMarkdownTests", dependencies: ["LTrainMarkdown", "LTrainSupport"]),
        .testTarget(
            name: "LTrainKitTests",
            dependencies: ["LTrainKit", "LTrainServe", "LTrainSupport", "LTrainMustache", "LTrainMarkdown"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
