// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ltrain",
    products: [
        .executable(name: "ltrain", targets: ["ltrain"]),
        .library(
            name: "LTrainKit",
            targets: [
                "LTrainKit", "LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite",
                "LTrainScaffold", "LTrainTemplates", "LTrainPNG", "LTrainBundle",
            ]),
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
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Thin C shim for Linux calls the Swift Glibc module does not expose (renameat2).
        .target(name: "CLTrainSystem"),
        // libmicrohttpd's header (libmicrohttpd-dev), and the library loaded only when `ltrain serve`
        // starts a server: not linked, so no other command loads it and GnuTLS behind it
        // (include/ltrain_microhttpd.h).
        .target(name: "CMicroHTTPD"),
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
        // libpng behind a small wrapper: the icon's size on load, the drawn icons on render.
        .target(name: "LTrainPNG", dependencies: ["CPNG"]),
        // The default theme, embedded (scripts/embed-templates writes it from templates/).
        .target(name: "LTrainTemplates"),
        // The stages, a target each, in the order a build runs them; each imports only the ones
        // before it, so an import against the flow fails to build (docs/architecture.md).
        .target(name: "LTrainLoad", dependencies: ["LTrainSupport", "LTrainMarkdown", "LTrainTemplates", "LTrainPNG", "CYAML"]),
        .target(name: "LTrainModel", dependencies: ["LTrainLoad", "LTrainSupport", "LTrainMarkdown"]),
        .target(name: "LTrainRoute", dependencies: ["LTrainModel", "LTrainLoad", "LTrainSupport"]),
        .target(
            name: "LTrainRender",
            dependencies: ["LTrainRoute", "LTrainModel", "LTrainLoad", "LTrainTemplates", "LTrainPNG", "LTrainSupport", "LTrainMustache", "LTrainMarkdown"]
        ),
        .target(
            name: "LTrainCheck",
            dependencies: ["LTrainRender", "LTrainRoute", "LTrainModel", "LTrainLoad", "LTrainSupport", "LTrainMarkdown"]
        ),
        .target(name: "LTrainWrite", dependencies: ["LTrainLoad", "LTrainSupport", "LTrainMarkdown"]),
        // `ltrain new` and `init`: new stations, checklists and sites, as the model reads them.
        .target(name: "LTrainScaffold", dependencies: ["LTrainModel", "LTrainLoad", "LTrainTemplates", "LTrainSupport"]),
        // The pipeline that orders the stages (SiteBuild, SitePlan, SiteVersion, the source
        // snapshot); it re-exports the stages, so `import LTrainKit` is the library.
        .target(
            name: "LTrainKit",
            dependencies: [
                "LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite", "LTrainScaffold",
                "LTrainTemplates", "LTrainPNG", "LTrainSupport", "LTrainMustache", "LTrainMarkdown",
            ]
        ),
        // `ltrain bundle`: the site prepared by the pipeline, rendered into one HTML file.
        .target(
            name: "LTrainBundle",
            dependencies: [
                "LTrainKit", "LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite",
                "LTrainScaffold", "LTrainTemplates", "LTrainPNG", "LTrainSupport", "LTrainMustache", "LTrainMarkdown",
            ]
        ),
        // `ltrain serve`: the site built into memory through the same executor, the HTTP server,
        // the file watcher and live reload.
        .target(name: "LTrainServe", dependencies: ["LTrainKit", "LTrainSupport", "LTrainMustache", "CMicroHTTPD"]),
        .executableTarget(
            name: "ltrain",
            dependencies: ["LTrainKit", "LTrainBundle", "LTrainServe", "LTrainSupport"],
            // mimalloc (libmimalloc-dev) in place of glibc's malloc: a build allocates on every core
            // throughout (figure in docs/benchmarks.md, "Optimisations"). Release only: the
            // sanitizers bring their own allocator.
            linkerSettings: [.linkedLibrary("mimalloc", .when(configuration: .release))]
        ),
        // Each stage's tests build against that stage alone.
        .testTarget(name: "LTrainSupportTests", dependencies: ["LTrainSupport"]),
        .testTarget(name: "LTrainMustacheTests", dependencies: ["LTrainMustache", "LTrainSupport"]),
        .testTarget(name: "LTrainMarkdownTests", dependencies: ["LTrainMarkdown", "LTrainSupport"]),
        .testTarget(
            name: "LTrainKitTests",
            dependencies: [
                "LTrainKit", "LTrainLoad", "LTrainModel", "LTrainRoute", "LTrainRender", "LTrainCheck", "LTrainWrite",
                "LTrainScaffold", "LTrainTemplates", "LTrainPNG", "LTrainBundle", "LTrainServe", "LTrainSupport",
                "LTrainMustache", "LTrainMarkdown",
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
