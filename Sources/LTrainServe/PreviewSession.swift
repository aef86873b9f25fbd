import Dispatch
import Foundation
import Synchronization
import LTrainKit
import LTrainSupport
import LTrainMustache

/// What `ltrain serve` serves from.
public struct ServeOptions: Sendable {
    public var contentDirectory = "content"
    public var templatesDirectory = "templates"
    public var templatesRequired = false
    public var includeDrafts = false
    public var jobs = availableCores

    public init() {}
}

/// `ltrain serve`: the site built into memory, rebuilt on every change from the files that
/// changed, and served with a live-reload script injected into its pages. The last good site is
/// served while the content has problems; open pages show the problems until they are fixed.
public final class PreviewSession: Sendable {
    public let options: ServeOptions
    public let hub = ReloadHub()
    /// The site served: the last good version.
    private let site = MemorySite()
    /// The last version, which the next is made from (see `SiteVersion`).
    private let state = Mutex(SiteVersion())
    /// Rebuilds run one at a time, in order.
    private let rebuilding = Mutex(())

    public init(options: ServeOptions) {
        self.options = options
    }

    /// What one rebuild did.
    public struct Outcome: Sendable {
        public var changedFiles: Int
        public var renderedPages: Int
        public var milliseconds: Double
        public var problems: [Diagnostic]
        public var warnings: [Diagnostic]
        /// The pages the rebuild looked at (see `SitePlan`).
        public var plan = SitePlan.everyPage
        /// Whether the routes were the last version's (see `SiteVersion`).
        public var keptRoutes = false
    }

    /// Rebuilds after `changed` paths changed (nil: read everything again), then tells the open
    /// pages: reload when the site changed or a problem went away, show the problem when it failed.
    @discardableResult
    public func rebuild(changed: Set<String>? = nil) -> Outcome {
        rebuilding.withLock { _ in rebuildNow(changed: changed) }
    }

    /// Load what changed → model, route and plan from the last good version (`SiteVersion`) →
    /// execute into memory → serve and tell the pages.
    private func rebuildNow(changed: Set<String>?) -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        // Taken out while the rebuild runs (rebuilds run one at a time, and nothing else reads
        // it), so that the loaded files are changed in place rather than copied.
        var version = state.withLock { current in
            defer { current = SiteVersion() }
            return current
        }
        var log = DiagnosticLog()
        var clock = PhaseClock()
        let changes = changed.map {
            SourceChanges($0, contentDirectory: options.contentDirectory, templatesDirectory: options.templatesDirectory)
        }
        version.load(
            changes,
            from: SiteVersion.Sources(
                content: options.contentDirectory, templates: options.templatesDirectory,
                templatesRequired: options.templatesRequired), log: &log)
        clock.lap("serve: load changes")

        var rendered = 0
        var preparedSite: PreparedSite?
        var plan = SitePlan.everyPage
        var keptRoutes = false
        let settings = SiteBuilder.Settings(includeDrafts: options.includeDrafts)
        do {
            let prepared: PreparedSite
            (prepared, plan, keptRoutes) = try version.next(
                after: changes, settings: settings, keylessPaths: site.keylessPaths, previousLinks: site.previousLinks,
                log: &log, clock: &clock)
            rendered = try SiteBuild.render(prepared, plan: plan, into: site, jobs: options.jobs, clock: &clock).rendered
            preparedSite = prepared
        } catch {
            // A failure from the model carries the log's own problems again: keep each once.
            let known = Set(log.diagnostics.map(\.description))
            log.report(contentsOf: error.diagnostics.filter { !known.contains($0.description) })
        }
        clock.lap("serve: rendered")
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let problems = log.errors
        let warnings = log.warnings
        if !problems.isEmpty {
            site.abandon()
            // Keep serving the last good site; keep what was read, so fixing one file rereads one file.
            version.problems = problems
            state.withLock { $0 = version }
            hub.problem(problems.map(\.description))
            return Outcome(changedFiles: 0, renderedPages: rendered, milliseconds: milliseconds, problems: problems, warnings: warnings)
        }
        let commit = site.commit()
        let changedFiles = commit.changedFiles
        let hadProblems = !version.problems.isEmpty
        version.problems = []
        let retired = version.prepared
        version.prepared = preparedSite
        state.withLock { $0 = version }
        if changedFiles > 0 || hadProblems {
            hub.reload(summary: "{\"changed\":\(changedFiles),\"milliseconds\":\(Int(milliseconds.rounded()))}")
        }
        // The last version and the files this one replaced are let go of only now, after the
        // open pages were told, so the reload does not wait for them to be freed.
        withExtendedLifetime((retired, commit)) {}
        return Outcome(
            changedFiles: changedFiles, renderedPages: rendered, milliseconds: milliseconds, problems: [], warnings: warnings,
            plan: plan, keptRoutes: keptRoutes)
    }

    /// The parts of pages kept from one version to the next (see `PartMemory`).
    var partMemory: PartMemory? {
        state.withLock { $0.prepared?.renderer.parts }
    }

    /// Every file served now, with its bytes as built (before the live-reload script is added).
    var servedFiles: [String: [UInt8]] {
        site.files.mapValues(\.bytes)
    }

    // MARK: Answering requests

    static let liveReloadPath = "/_ltrain/live.js"
    static let eventsPath = "/_ltrain/events"

    /// The answer to a request for `path` (%-decoded by `HTTPServer`). Only files of the built
    /// site are ever served: nothing is read from disk, and `..`, `.`, NUL and backslashes are refused.
    public func answer(method: String, path: String, ifNoneMatch: String?) -> HTTPAnswer {
        guard method == "GET" || method == "HEAD" else { return .methodNotAllowed(allowed: "GET, HEAD") }
        if path == Self.eventsPath { return .eventStream(hub.stream()) }
        if path == Self.liveReloadPath {
            return .file(status: 200, bytes: Array(LiveReload.script.utf8), contentType: "text/javascript; charset=utf-8", etag: nil)
        }
        let relative: String
        switch Self.sitePath(forRequest: path) {
        case .file(let path): relative = path
        case .refused(let status, let text): return .plain(status: status, text: text)
        }
        // The worker of a built copy once opened on this address (at any depth: a copy served from
        // a folder of its own) answers from its cache first, and would hide the preview; the
        // browser's next check of its script finds one that retires it and reloads its pages.
        if Self.isWorkerScript(relative), relative == OfflineSite.workerPath || site.file(at: relative) == nil {
            return .file(status: 200, bytes: Array(LiveReload.retiringWorker.utf8), contentType: "text/javascript; charset=utf-8", etag: nil)
        }
        guard relative != Manifest.fileName, let file = site.file(at: relative) else {
            if site.file(at: relative + "/index.html") != nil { return .redirect(location: path + "/") }
            let page = site.file(at: "404.html").map { LiveReload.inject(into: $0.bytes) } ?? Array("Not found.\n".utf8)
            return .file(status: 404, bytes: page, contentType: "text/html; charset=utf-8", etag: nil)
        }
        let type = MediaType.of(relative)
        let isHTML = type.hasPrefix("text/html")
        // The injected script is part of what is served, so it is part of the ETag too.
        let etag = isHTML ? "\"live-" + file.etag.dropFirst() : file.etag
        if let ifNoneMatch, Self.matches(ifNoneMatch: ifNoneMatch, etag: etag) { return .notModified(etag: etag) }
        return .file(status: 200, bytes: isHTML ? LiveReload.inject(into: file.bytes) : file.bytes, contentType: type, etag: etag)
    }

    /// Whether a site path names the theme's service worker, in the site's root or below it.
    static func isWorkerScript(_ relative: String) -> Bool {
        relative == OfflineSite.workerPath || relative.hasSuffix("/" + OfflineSite.workerPath)
    }

    /// Whether an `If-None-Match` header names the current entity tag (RFC 9110 13.1.2): `*`, or a
    /// list of tags compared weakly (`W/"x"` matches `"x"`).
    static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        let current = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        var rest = Substring(header)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { return false }
            if rest.hasPrefix("*") { return true }
            if rest.hasPrefix("W/") { rest = rest.dropFirst(2) }
            // An opaque tag is quoted and holds no quote.
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return false }
            if rest[...close] == current { return true }
            rest = rest[rest.index(after: close)...]
        }
    }

    /// What a request's path (already %-decoded) names inside the site.
    enum RequestedPath: Equatable {
        /// A file of the site, relative to its root: never empty, never with a `.` or `..`
        /// segment, a NUL or a backslash.
        case file(String)
        case refused(status: Int, text: String)
    }

    /// The site file a request's path names (`/` and `/a/` name their `index.html`), or why none.
    static func sitePath(forRequest path: String) -> RequestedPath {
        // Byte by byte: Foundation's `contains` on a String stops at a NUL, as C strings do.
        guard path.hasPrefix("/"), !path.utf8.contains(0), !path.utf8.contains(UInt8(ascii: "\\")) else {
            return .refused(status: 400, text: "Bad path.\n")
        }
        // Empty segments (`//`) name nothing: `/a//b.html` is `a/b.html`. Split at each '/'
        // scalar (`SitePath.components`), so a combining mark cannot hide a '..' (`/../\u{301}x`).
        let segments = SitePath.components(of: path)
        if segments.contains(where: { $0 == ".." || $0 == "." }) {
            return .refused(status: 403, text: "Paths may not climb out of the site.\n")
        }
        let relative = segments.joined(separator: "/")
        if relative.isEmpty { return .file("index.html") }
        return .file(path.hasSuffix("/") ? relative + "/index.html" : relative)
    }
}

/// The script `ltrain serve` adds to every page (never to `ltrain build`'s output): it listens for
/// reload and problem events and shows problems over the page until they are fixed.
enum LiveReload {
    static let tag = Array("<script src=\"/_ltrain/live.js\"></script>\n".utf8)

    static func inject(into html: [UInt8]) -> [UInt8] {
        let closing = Array("</body>".utf8)
        guard html.count >= closing.count else { return html + tag }
        var index = html.count - closing.count
        while index >= 0 {
            if html[index] == closing[0] && html[index..<index + closing.count].elementsEqual(closing) {
                return Array(html[..<index]) + tag + Array(html[index...])
            }
            index -= 1
        }
        return html + tag
    }

    /// What the preview answers for a service worker's script: a worker that takes over from a
    /// built copy's, removes itself and reloads the pages it held, so they come from the preview.
    static let retiringWorker = """
        // ltrain serve: a preview is never served from a cache. This worker replaces one that a
        // built copy of the site left on this address, unregisters, and reloads its pages.
        self.addEventListener("install", function () { self.skipWaiting(); });
        self.addEventListener("activate", function (event) {
          event.waitUntil(
            self.registration.unregister()
              .then(function () { return caches.keys(); })
              .then(function (keys) {
                // Only the site's own caches ("ltrain:" and the worker's scope), as the theme names them.
                var prefix = "ltrain:" + self.registration.scope + ":";
                return Promise.all(keys.filter(function (key) { return key.indexOf(prefix) === 0; })
                  .map(function (key) { return caches.delete(key); }));
              })
              .then(function () { return self.clients.matchAll({ type: "window" }); })
              .then(function (windows) { windows.forEach(function (client) { client.navigate(client.url); }); })
          );
        });

        """

    static let script = """
        // ltrain serve: live reload. Not part of built sites.
        (function () {
          "use strict";
          // A preview is never served from a cache: no service worker here, and one left by a
          // built copy of the site on this address is removed.
          window.ltrainPreview = true;
          if ("serviceWorker" in navigator) {
            navigator.serviceWorker.getRegistrations().then(function (all) {
              all.forEach(function (registration) { registration.unregister(); });
            }).catch(function () {});
          }
          var overlay = null;
          function show(messages) {
            if (!overlay) {
              overlay = document.createElement("div");
              overlay.id = "ltrain-problems";
              overlay.setAttribute("role", "alert");
              overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:1.5rem;" +
                "background:rgba(20,20,22,.94);color:#fff;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap";
              document.body.appendChild(overlay);
            }
            overlay.textContent = "ltrain: the last change has problems; this page shows the last good version.\\n\\n" +
              messages.join("\\n\\n");
          }
          var events = new EventSource("/_ltrain/events");
          events.addEventListener("reload", function () { window.location.reload(); });
          events.addEventListener("problem", function (event) { show(JSON.parse(event.data).messages); });
        })();

        """
}
