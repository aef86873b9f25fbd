import Dispatch
import Foundation
import Synchronization
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainLoad
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainCheck
import LTrainWrite
import LTrainScaffold
import LTrainTemplates
import LTrainPNG

/// What to build, from where, into where.
public struct BuildOptions: Sendable {
    public var contentDirectory: String
    public var templatesDirectory: String
    public var outputDirectory: String
    /// Whether the templates folder must exist; when false and it is missing, the built-in
    /// templates are used alone.
    public var templatesRequired: Bool
    /// Replace an output folder that holds files ltrain did not write.
    public var force: Bool
    /// Build drafts too.
    public var includeDrafts = false
    /// Overrides index.md's `base_url`.
    public var baseURL: String?
    /// Called from the rendering threads as pages finish: (pages done, pages in all).
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Print each phase's time on standard error (also when LTRAIN_TIMINGS is set).
    public var reportsTimings = environmentValue("LTRAIN_TIMINGS") != nil
    /// How many pages render at once; defaults to the number of cores.
    public var jobs: Int
    /// How long every source must have been left alone before its file stamps (size, times,
    /// inode) are trusted to tell that nothing changed since the last build, which then reads no
    /// source at all. A file written twice within one tick of the file system's clock keeps its
    /// stamp; two seconds is far longer than any tick.
    public var sourceSettleSeconds = 2.0
    /// Whether the build frees the site's data when it ends. A command that exits right after
    /// building sets this to false: the data (tens of thousands of small values for a large site)
    /// is then left for the process's exit to reclaim at once instead of being freed one by one.
    public var releasesMemory = true
    /// Whether the report lists the external links the pages hold (`ltrain build --verbose`).
    /// Off, they are not gathered: a site's pages hold tens of thousands.
    public var listsExternalLinks = false

    public init(
        contentDirectory: String = "content", templatesDirectory: String = "templates",
        outputDirectory: String = "_site", templatesRequired: Bool = true, force: Bool = false,
        jobs: Int? = nil
    ) {
        self.contentDirectory = contentDirectory
        self.templatesDirectory = templatesDirectory
        self.outputDirectory = outputDirectory
        self.templatesRequired = templatesRequired
        self.force = force
        self.jobs = max(1, jobs ?? availableCores)
    }
}

/// What a finished build did.
public struct BuildReport: Sendable {
    public var stationCount: Int
    public var infoPageCount: Int
    public var checklistCount: Int
    public var fileCount: Int
    /// Pages rendered; the others were kept from the previous build, rendered from the same inputs.
    public var rendered: Int
    public var written: Int
    public var unchanged: Int
    public var removed: Int
    public var warnings: [Diagnostic]
    /// External links found in the pages, listed, never fetched; empty unless
    /// `BuildOptions.listsExternalLinks`.
    public var externalLinks: [String]
    public var seconds: Double
    /// True when every source's file stamps matched those the output was built from, so nothing
    /// was read, rendered or written.
    public var sourcesUnchanged = false
}

/// The loaded, checked site with its templates and routes: everything needed to render any page.
public struct PreparedSite: Sendable {
    public var site: Site
    public var routes: Routes
    public var renderer: PageRenderer
    public var staticFiles: [AssetFile]
    /// What preparing it found that is no error (with the exact count, for the notices a render adds).
    package var warningLog: DiagnosticLog
    /// The warnings to print: at most the log's limit, then a line saying how many more there were.
    public var warnings: [Diagnostic] { warningLog.warnings }
    /// The links judged fine by the last render, for the next (`ltrain serve`; see
    /// `LinkChecker.LinkMemory`); nil for a build, which renders each page once.
    package var linkMemory: LinkChecker.LinkMemory?

    /// The same site, whose renderer keeps parts of its pages for the versions that follow
    /// (`PageRenderer.keepingParts`: the Markdown texts' renders and the index's rows), going on
    /// from what `last` kept, so that an edit after this version renders only what it changed.
    /// That renderer is the preview's, which looks for Markdown notices in the model, in the
    /// changed files alone, so its pages' Markdown is not scanned for them again.
    package func keepingParts(after last: PreparedSite?) -> PreparedSite {
        var copy = self
        copy.renderer = renderer.keepingParts(after: last?.renderer, keepsRenders: true)
        copy.renderer.findsNotices = false
        copy.linkMemory = last?.linkMemory ?? LinkChecker.LinkMemory()
        return copy
    }

    /// The same site with its stations edited in place (see `Line.keepsPlaces`): the routes and
    /// everything the renderer computed from them stay.
    package func replacingStations(with site: Site, warningLog: DiagnosticLog) -> PreparedSite {
        var copy = self
        copy.site = site
        copy.renderer = renderer.replacingStations(with: site)
        copy.warningLog = warningLog
        return copy
    }

    /// Every file that is not a page: template static files, content assets, and the content's
    /// static files for the site's root.
    public var copiedFiles: [AssetFile] { staticFiles + site.assets + site.rootFiles }

    /// Load → Model → Route, and the templates parsed and checked. Collects every problem.
    /// `releasesMemory`: see `BuildOptions.releasesMemory`; false keeps the files as loaded (the
    /// model shares their texts) to the process's exit, which freed them one by one on one core.
    public static func prepare(
        content: String, templates: String, templatesRequired: Bool = true,
        settings: SiteBuilder.Settings = SiteBuilder.Settings(), releasesMemory: Bool = true
    ) throws(BuildFailure) -> PreparedSite {
        var log = DiagnosticLog()
        var clock = PhaseClock()
        let loadedContent = ContentLoader.loadContent(from: content, log: &log)
        let loadedTemplates = ContentLoader.loadTemplates(from: templates, required: templatesRequired, log: &log)
        defer { if !releasesMemory { ProcessLifetime.keep(loadedContent as Any, loadedTemplates as Any) } }
        clock.lap("load")
        let library = loadedTemplates.map { checkedLibrary($0, templatesDirectory: templates, log: &log) }
        return try assemble(
            content: loadedContent, templates: loadedTemplates, library: library, settings: settings, log: &log,
            clock: &clock)
    }

    /// Model → Route over content and templates already loaded (the preview server keeps them).
    package static func assemble(
        content loadedContent: LoadedContent?, templates loadedTemplates: LoadedTemplates?, library: MustacheLibrary?,
        settings: SiteBuilder.Settings, after last: SiteBuilder.LastVersion? = nil, log: inout DiagnosticLog,
        clock: inout PhaseClock
    ) throws(BuildFailure) -> PreparedSite {
        let site = loadedContent.flatMap { SiteBuilder.build($0, settings: settings, after: last, log: &log) }
        clock.lap("model and templates")
        try log.throwIfErrors()
        guard let site else { throw BuildFailure(log.diagnostics) }
        do throws(BuildFailure) {
            return try assemble(site: site, templates: loadedTemplates, library: library, log: &log, clock: &clock)
        } catch {
            // The model left the notices to a render that will not happen: they are looked for now.
            guard !settings.findsNotices else { throw error }
            log.report(contentsOf: SiteBuilder.noticeWarnings(of: site, found: []))
            try log.throwIfErrors()
            throw error
        }
    }

    /// Route over a site already modelled (the preview server keeps it when only templates changed).
    package static func assemble(
        site: Site, templates loadedTemplates: LoadedTemplates?, library: MustacheLibrary?,
        log: inout DiagnosticLog, clock: inout PhaseClock
    ) throws(BuildFailure) -> PreparedSite {
        try log.throwIfErrors()
        guard let library, let loadedTemplates else { throw BuildFailure(log.diagnostics) }
        // The template-name check reads only the templates (and a specimen site of its own,
        // `PageSpecimen`): it runs on a core of its own while routing and the renderer's set-up
        // keep another busy. It reports only warnings, and routing only errors, which the log
        // keeps apart, so the diagnostics come out in the same order as one after the other.
        let nameWarnings = Mutex<[Diagnostic]>([])
        let routed = Mutex<(routes: Routes, renderer: PageRenderer?, log: DiagnosticLog)?>(nil)
        let displayPaths = loadedTemplates.displayPaths
        let logSoFar = log
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                let warnings = TemplateNames.check(library, pageTemplates: PageRenderer.everyPageTemplate, paths: displayPaths)
                nameWarnings.withLock { $0 = warnings }
                return
            }
            var routeLog = logSoFar
            let routes = Routes(
                site: site, staticFiles: loadedTemplates.staticFiles, hasNotFoundPage: library.contains("404"),
                log: &routeLog)
            let renderer =
                routeLog.hasErrors
                ? nil
                : PageRenderer(
                    site: site, routes: routes, library: library, templatePaths: displayPaths,
                    templateSources: loadedTemplates.sources)
            routed.withLock { $0 = (routes, renderer, routeLog) }
        }
        clock.lap("template names, route, renderer")
        guard let (routes, renderer, routeLog) = routed.withLock({ $0 }) else { throw BuildFailure(log.diagnostics) }
        log = routeLog
        log.report(contentsOf: nameWarnings.withLock { $0 })
        try log.throwIfErrors()
        guard let renderer else { throw BuildFailure(log.diagnostics) }
        return PreparedSite(
            site: site, routes: routes, renderer: renderer, staticFiles: loadedTemplates.staticFiles,
            warningLog: log)
    }

    /// Parses every template and checks that the page templates and every partial or parent they
    /// name exist, so a typo is an error with its line rather than silently empty output.
    package static func checkedLibrary(
        _ templates: LoadedTemplates, templatesDirectory: String, log: inout DiagnosticLog
    ) -> MustacheLibrary {
        let (library, errors) = MustacheLibrary.parseAll(templates.sources)
        for error in errors {
            log.report(
                .error(
                    error.message, path: templates.displayPaths[error.templateName] ?? error.templateName,
                    at: error.location, hint: error.hint))
        }
        for name in PageRenderer.pageTemplates where templates.sources[name] == nil {
            log.report(
                .error(
                    "the templates folder has no \(name).mustache", path: joinPath(templatesDirectory, "\(name).mustache"),
                    hint: "every site needs the page templates \(PageRenderer.pageTemplates.map { "\($0).mustache" }.joined(separator: ", "))"))
        }
        for name in library.names {
            for reference in library.references(in: name) where !library.contains(reference.name) {
                let nearest = NearestName.hint(for: reference.name, among: library.names)
                log.report(
                    .error(
                        "template '\(reference.name)' is included here but does not exist\(nearest)",
                        path: templates.displayPaths[name] ?? name, at: reference.location,
                        hint: "create \(joinPath(templatesDirectory, "\(reference.name).mustache")) or fix the name"))
            }
        }
        // A template no page reaches (through partials and parents) is a misspelt page template or
        // a partial nobody includes: silent otherwise. Unknowable when a template names one by a value.
        let pages = PageRenderer.everyPageTemplate
        let reached = Set(pages.flatMap { library.includedTemplates(from: $0) })
        if !reached.contains(where: { library.contains($0) && library.hasDynamicReferences(in: $0) }) {
            for name in library.names.sorted() where !reached.contains(name) && templates.displayPaths[name] != nil {
                let nearest = NearestName.hint(for: name, among: reached)
                log.report(
                    .warning(
                        "no page uses the template '\(name)'\(nearest)", path: templates.displayPaths[name],
                        hint: "pages are made from \(pages.map { "\($0).mustache" }.joined(separator: ", ")) and what they "
                            + "include with {{>name}} or {{<name}}; rename this file, include it, or remove it"))
            }
        }
        for cycle in library.unconditionalCycles() {
            guard let first = cycle.first else { continue }
            let names = (cycle.map(\.name) + [first.name]).joined(separator: " → ")
            log.report(
                .error(
                    "templates include each other without end: \(names)",
                    path: templates.displayPaths[first.name] ?? first.name, at: first.location,
                    hint: "remove one of the includes, or put it inside a section that can end"))
        }
        return library
    }
}

/// Phase timings on standard error when `LTRAIN_TIMINGS` is set, for profiling.
package struct PhaseClock {
    private let enabled: Bool
    private var last = DispatchTime.now()
    private var lastCPU = PhaseClock.cpuMilliseconds()

    package init(enabled: Bool = environmentValue("LTRAIN_TIMINGS") != nil) {
        self.enabled = enabled
    }

    /// User and system time of every thread of the process so far.
    private static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
        let microseconds = usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
        return Double(seconds) * 1e3 + Double(microseconds) / 1e3
    }

    /// Prints the wall time since the last lap and, in brackets, the CPU time all threads spent in it.
    package mutating func lap(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now()
        let cpu = PhaseClock.cpuMilliseconds()
        let milliseconds = Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e6
        let line = "ltrain: \(phase) \(String(format: "%.1f", milliseconds)) ms (cpu \(String(format: "%.1f", cpu - lastCPU)) ms)\n"
        FileHandle.standardError.write(Data(line.utf8))
        last = now
        lastCPU = cpu
    }
}

/// Values a command keeps until its process exits (see `BuildOptions.releasesMemory`).
private enum ProcessLifetime {
    private final class Kept {
        let values: Any
        init(_ values: Any) { self.values = values }
    }

    /// Retains the values and never releases them: deliberately, so that they are reclaimed with
    /// the process rather than freed value by value.
    static func keep(_ values: Any...) {
        _ = Unmanaged.passRetained(Kept(values))
    }
}

/// The whole pipeline: load → model → route → render → check → write.
public enum SiteBuild {
    /// Shortcut (no source changed)? → prepare (load, model, route) → up to date? → execute
    /// (render, check, write into the staging folder) → commit. One clean-up path: unless the new
    /// site was committed, the staging folder is removed and the output is left as it was.
    @discardableResult
    public static func run(_ options: BuildOptions) throws(BuildFailure) -> BuildReport {
        let start = DispatchTime.now()
        var clock = PhaseClock(enabled: options.reportsTimings)
        let startedAt = SourceSnapshot.now()
        let output: OutputFolder
        do throws(BuildFailure) {
            output = try OutputFolder(
                path: options.outputDirectory, protecting: [options.contentDirectory, options.templatesDirectory],
                force: options.force)
        } catch {
            // Nothing can be written, but the site is still read: every other problem is said too.
            throw failure(error, withProblemsOf: options)
        }
        // This build's snapshot of its sources, for the next build; when the output records none
        // to compare with, it is taken once the build is done, and only if it will be recorded: a
        // build with warnings is never skipped on stamps alone, so for such a site it is not taken.
        var snapshot: SourceSnapshot?
        var committed = false
        defer {
            if !committed { output.abandon() }
        }
        /// What the build did, as counted at its end.
        func report(
            _ counts: (stations: Int, infoPages: Int, checklists: Int), files: Int, rendered: Int = 0,
            summary: OutputFolder.Summary, warnings: [Diagnostic] = [], externalLinks: [String] = [],
            sourcesUnchanged: Bool = false
        ) -> BuildReport {
            BuildReport(
                stationCount: counts.stations, infoPageCount: counts.infoPages, checklistCount: counts.checklists,
                fileCount: files, rendered: rendered, written: summary.written, unchanged: summary.unchanged,
                removed: summary.removed, warnings: warnings, externalLinks: externalLinks,
                seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
                sourcesUnchanged: sourcesUnchanged)
        }

        // Shortcut: sources whose stamps match the ones the output was built from need not be read.
        let snapshotsLater = !output.recordsSources
        if !snapshotsLater {
            snapshot = sourceSnapshot(options, startedAt: startedAt)
            if let snapshot, snapshot.isSettled, let unchanged = output.unchangedSince(snapshot.hash) {
                clock.lap("check that no source changed")
                let sources = unchanged.sources
                return report(
                    (sources.stations, sources.infoPages, sources.checklists), files: unchanged.summary.unchanged,
                    summary: unchanged.summary, sourcesUnchanged: true)
            }
        }

        // Prepare: load, model, route, templates.
        let prepared = try PreparedSite.prepare(
            content: options.contentDirectory, templates: options.templatesDirectory,
            templatesRequired: options.templatesRequired,
            settings: buildSettings(options), releasesMemory: options.releasesMemory)
        clock.lap("load, model, route")
        defer { if !options.releasesMemory { ProcessLifetime.keep(prepared, output) } }
        let counts = (
            stations: prepared.site.line.stations.count, infoPages: prepared.site.line.stations.count,
            checklists: prepared.site.checklists.count
        )

        // Up to date: the output already is this site; leave it untouched.
        if let unchanged = upToDate(prepared, output) {
            clock.lap("check that nothing changed")
            let warnings = noticesAdded(to: prepared)
            clock.lap("look for Markdown notices")
            return report(counts, files: unchanged.unchanged, summary: unchanged, warnings: warnings)
        }

        // Execute, then commit.
        let result: RenderResult
        do throws(BuildFailure) {
            result = try render(
                prepared, into: output, jobs: options.jobs, keepsSearchSections: false,
                listsExternalLinks: options.listsExternalLinks, progress: options.progress, clock: &clock)
        } catch {
            // The render stopped (a broken link, a template error): its notices are looked for now.
            throw error.adding(warnings: noticesAdded(to: prepared))
        }
        // The notices each rendered text held, and those of the texts of kept pages.
        let warnings = noticesAdded(to: prepared, found: result.notices)
        clock.lap("Markdown notices")
        do throws(BuildFailure) {
            if prepared.site.offline { try writeOfflineList(prepared, into: output) }
        } catch {
            throw error.adding(warnings: warnings)
        }
        clock.lap("offline list")
        output.record(siteURL: prepared.renderer.site.baseURL)
        // A build with warnings is never skipped on stamps alone: its warnings are shown every time.
        if warnings.isEmpty && snapshotsLater { snapshot = sourceSnapshot(options, startedAt: startedAt) }
        if let snapshot, snapshot.isSettled, warnings.isEmpty {
            output.record(
                Manifest.Sources(
                    snapshot: snapshot.hash, stations: counts.stations, infoPages: counts.infoPages,
                    checklists: counts.checklists))
        }
        let summary: OutputFolder.Summary
        do throws(BuildFailure) {
            summary = try output.commit()
        } catch {
            throw error.adding(warnings: warnings)
        }
        committed = true
        clock.lap("commit")
        if !options.releasesMemory { ProcessLifetime.keep(result) }
        return report(
            counts, files: result.fileCount + (prepared.site.offline ? 1 : 0), rendered: result.rendered, summary: summary, warnings: warnings,
            externalLinks: result.externalLinks)
    }

    /// `failure` (the output folder refused) with every problem of the site itself: its errors
    /// after the folder's, then its warnings.
    static func failure(_ failure: BuildFailure, withProblemsOf options: BuildOptions) -> BuildFailure {
        do throws(BuildFailure) {
            let prepared = try PreparedSite.prepare(
                content: options.contentDirectory, templates: options.templatesDirectory,
                templatesRequired: options.templatesRequired, settings: buildSettings(options))
            return failure.adding(warnings: noticesAdded(to: prepared))
        } catch {
            return failure.adding(error)
        }
    }

    /// The site's warnings with the notice warnings of its texts (`found` by a render, the others
    /// looked for now), under the log's limit.
    static func noticesAdded(to prepared: PreparedSite, found: [[TextNotices]] = []) -> [Diagnostic] {
        var log = prepared.warningLog
        let notices = SiteBuilder.noticeWarnings(of: prepared.site, found: found, first: log.room(for: .warning))
        // Each names its own file, line and column: none repeats another.
        log.report(distinct: notices.first, more: notices.count - notices.first.count)
        return log.warnings
    }

    /// What the command line sets over the content's settings. The model leaves Markdown notices
    /// to the render, which parses every text it renders anyway, so no text is parsed twice.
    static func buildSettings(_ options: BuildOptions) -> SiteBuilder.Settings {
        var settings = SiteBuilder.Settings(includeDrafts: options.includeDrafts, baseURL: options.baseURL)
        settings.findsNotices = false
        return settings
    }

    /// The snapshot of everything a build reads and every setting that shapes its output.
    static func sourceSnapshot(_ options: BuildOptions, startedAt: Int64, workers: Int = 0) -> SourceSnapshot? {
        let builtIn = DefaultTemplates.files.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let settings =
            [
                ltrainVersion, options.templatesRequired ? "templates required" : "templates optional",
                options.includeDrafts ? "drafts" : "no drafts", options.baseURL ?? "\u{0}",
            ] + builtIn
        return SourceSnapshot.take(
            folders: [options.contentDirectory, options.templatesDirectory], settings: settings,
            settleSeconds: options.sourceSettleSeconds, startedAt: startedAt, workers: workers)
    }

    /// The summary of an output that already is exactly this site, or nil when anything must be
    /// rendered or written (a page's inputs, a file's bytes, a file removed or added).
    static func upToDate(_ prepared: PreparedSite, _ output: OutputFolder) -> OutputFolder.Summary? {
        let renderer = prepared.renderer
        let allPages = renderer.pages
        let fileCount =
            allPages.count + prepared.copiedFiles.count
            + Routes.generatedFiles(for: prepared.site, themeFiles: prepared.staticFiles).count
            + (prepared.site.offline ? 1 : 0)
        // A first build, or one that adds or removes a file, cannot be up to date: no need to hash every page.
        guard output.mayBeUpToDate(fileCount: fileCount) else { return nil }
        let allPaths = prepared.routes.everyPagePath
        let pages = concurrentMap(allPages.count) { index in
            let path = allPaths[index]
            return (path: path, key: renderer.inputKey(for: allPages[index], links: output.previousLinks(path)))
        }
        var files: [(path: String, bytes: [UInt8])] = []
        var keyed = pages
        let searchKeys = Dictionary(renderer.searchFiles().map { ($0.path, $0.key) }, uniquingKeysWith: { first, _ in first })
        for path in Routes.generatedFiles(for: prepared.site, themeFiles: prepared.staticFiles) {
            if let key = AppIcon.key(for: path) {
                keyed.append((path, key))
                continue
            }
            if let key = searchKeys[path] {
                keyed.append((path, key))
                continue
            }
            guard let bytes = renderer.generatedFile(path) else { return nil }
            files.append((path, bytes))
        }
        // The offline list is made from the other files' hashes: unchanged when they all are.
        let derived = prepared.site.offline ? [Routes.offlineListPath] : []
        return output.isUpToDate(pages: keyed, files: files, copied: prepared.copiedFiles, derived: derived)
            ? output.unchangedSummary : nil
    }

    /// Writes the offline list from the hashes of every file the build wrote or kept (see `OfflineSite`).
    static func writeOfflineList(_ prepared: PreparedSite, into output: OutputFolder) throws(BuildFailure) {
        let site = prepared.site
        let pages = prepared.routes.everyPagePath
        // Every page is kept offline; of the other files, those `keptOffline` says (no page can be
        // one it leaves out: a file of the same path as a page is an error of the routes).
        let others = prepared.copiedFiles.map(\.outputPath) + Routes.generatedFiles(for: site, themeFiles: prepared.staticFiles)
        let files = output.contentHashes(of: pages + OfflineSite.keptOffline(others, site: site))
        do throws(Diagnostic) {
            try output.write(OfflineSite.list(files), to: Routes.offlineListPath)
        } catch {
            throw BuildFailure([error])
        }
    }

    package struct RenderResult {
        var fileCount: Int
        package var rendered: Int
        var externalLinks: [String]
        /// What the check found on every page (kept only so that it can outlive the build).
        var pageChecks: [PageCheck]
        /// The Markdown notices of every text a rendered page held (none of a kept page's), by page.
        package var notices: [[TextNotices]] = []
    }

    /// Writes each of `files` (`PageRenderer.searchFiles()`: the root's, then each shard's) whose
    /// inputs changed since the sink's last (see `SearchIndex`), but those `done`, on every core,
    /// one shard at a time.
    private static func writeSearchIndex(
        _ renderer: PageRenderer, files: [(path: String, key: ContentHash)], into output: some PageSink,
        except done: Set<String> = []
    ) throws(Diagnostic) {
        let problems = concurrentMap(files.count) { position -> Diagnostic? in
            let (path, key) = files[position]
            guard !done.contains(path), output.reuse(path, key: key) == nil else { return nil }
            do throws(Diagnostic) {
                guard let bytes = position == 0 ? renderer.searchRoot() : renderer.searchShard(position - 1) else {
                    throw Diagnostic.error("could not make \(path)", hint: "this is a bug in ltrain; please report it")
                }
                try output.write(bytes, to: path, key: key, ids: [], links: [])
                return nil
            } catch {
                return error
            }
        }
        if let problem = problems.compactMap({ $0 }).first { throw problem }
    }

    /// Makes a generated file (see `Routes.generatedFiles`) and writes it; an icon drawn from the
    /// same inputs last time is kept as it is.
    private static func make(_ path: String, with renderer: PageRenderer, into output: some PageSink) throws(Diagnostic) {
        let key = AppIcon.key(for: path)
        if let key, output.reuse(path, key: key) != nil { return }
        guard let bytes = renderer.generatedFile(path) else {
            throw Diagnostic.error("could not make \(path)", hint: "this is a bug in ltrain; please report it")
        }
        try output.write(bytes, to: path, key: key, ids: [], links: [])
    }

    /// The executor: takes each page in the plan's scope to its key, then keeps it (rendered from
    /// the same inputs last time) or renders, checks and writes it, in parallel, streaming each
    /// into the sink as it is done and keeping only its links for the check, with the generated
    /// files (sitemap, manifest, icons) made alongside; then copies the other files and checks
    /// every link into another page's fragment. Pages outside the scope (and,
    /// with a plan of some pages, every other file) are left as the sink has them.
    /// `keepsSearchSections: false` (a build, which has no next version): each shard of the search
    /// index is written as soon as its info pages are, and their sections let go of.
    package static func render(
        _ prepared: PreparedSite, plan: SitePlan = .everyPage, into output: some PageSink, jobs: Int,
        keepsSearchSections: Bool = true, listsExternalLinks: Bool = false,
        progress: (@Sendable (Int, Int) -> Void)? = nil, clock: inout PhaseClock
    ) throws(BuildFailure) -> RenderResult {
        let renderer = prepared.renderer
        let routes = prepared.routes
        // A sink that starts empty (the build's staging folder) needs every page and file.
        let scope = output.keepsUntouchedFiles ? plan.scope : .everyPage
        // The pages with each one's output path, by position.
        let pages: [Page]
        let pagePaths: [String]
        switch scope {
        case .everyPage: (pages, pagePaths) = (routes.everyPage, routes.everyPagePath)
        case .pages(let some):
            // Ordered by output path, looked up once a page, so that problems come in a fixed order.
            let ordered = some.compactMap { page in routes.pagePaths[page].map { (page, $0) } }.sorted { $0.1 < $1.1 }
            (pages, pagePaths) = (ordered.map(\.0), ordered.map(\.1))
        }
        let copied = scope == .everyPage ? prepared.copiedFiles : []
        let listsFiles = scope == .everyPage || plan.pagesAddedOrRemoved
        let listed = listsFiles ? Routes.generatedFiles(for: prepared.site, themeFiles: prepared.staticFiles) : []
        if listsFiles {
            // The offline list too, written last (it lists the others' hashes) but in the order.
            let offlineList = prepared.site.offline ? [Routes.offlineListPath] : []
            try output.prepare(
                for: routes.everyPagePath
                    + prepared.copiedFiles.map(\.outputPath) + listed + offlineList)
        }
        // The search index is made from the pages' render, which cuts their texts for it: each shard
        // once its info pages are done (`SearchShardWriter`), or all after the pages.
        let searchPaths = Set(Routes.searchFiles(for: prepared.site))
        let generated = listed.filter { !searchPaths.contains($0) }
        let searchFiles = renderer.searchFiles()
        let searchShards = !keepsSearchSections && scope == .everyPage
            ? SearchShardWriter(renderer: renderer, files: searchFiles, pages: pages, output: output) : nil

        let files = routes.outputPaths
        let results = Mutex([PageCheck?](repeating: nil, count: pages.count))
        let notices = Mutex([[TextNotices]](repeating: [], count: pages.count))
        let problems = Mutex(DiagnosticLog())
        // Workers take the next run of pages (shorter as fewer are left) from a shared counter, so
        // the load stays even however long each page takes; results land at their page's index, so
        // the outcome does not depend on the scheduling.
        let workers = min(jobs, max(1, pages.count))
        let runs = GuidedRuns(count: pages.count, workers: workers, maximum: 64)
        let renderedCount = Atomic<Int>(0)
        let finishedCount = Atomic<Int>(0)
        let nextGenerated = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let renderer = workers > 1 ? renderer.privateCopy() : renderer
            let fineLinks =
                prepared.linkMemory?.take(files: files, siteURL: renderer.site.baseURL)
                ?? LinkChecker.FineLinks(listsExternal: listsExternalLinks)
            defer { prepared.linkMemory?.giveBack(fineLinks) }
            // The generated files first, each by one worker while the others start on the pages,
            // since drawing the icons after the pages left a core idle.
            while true {
                let index = nextGenerated.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < generated.count else { break }
                do throws(Diagnostic) {
                    try Self.make(generated[index], with: renderer, into: output)
                } catch {
                    problems.withLock { $0.report(error) }
                }
            }
            while let run = runs.take() {
                var checks: [(Int, PageCheck)] = []
                var found: [(Int, [TextNotices])] = []
                var failures: [Diagnostic] = []
                var rendered = 0
                for index in run {
                    do throws(Diagnostic) {
                        let outputPath = pagePaths[index]
                        let inputs = renderer.inputs(for: pages[index], at: outputPath)
                        // A page with Markdown is written with the key of the links its render
                        // finds (below): its key from before serves only to keep its previous
                        // version, so without one (a first build) it is not worked out.
                        let key =
                            inputs.markdown.isEmpty || output.previousIDs(outputPath) != nil
                            ? renderer.key(of: inputs, links: output.previousLinks(outputPath)) : nil
                        if let key, let ids = output.reuse(outputPath, key: key) {
                            // Rendered from the same inputs last time, and all its links were fine then.
                            checks.append((index, PageCheck(outputPath: outputPath, ids: Set(ids))))
                            try searchShards?.pageDone(index, sections: nil, renderer: renderer, into: output)
                            continue
                        }
                        let page = try renderer.render(inputs)
                        if !page.notices.isEmpty { found.append((index, page.notices)) }
                        let links = PageRenderer.contentLinks(of: page)
                        // A page with Markdown is recorded with the key of the links this rendering
                        // found, for the next build to compare with; any other page's key is the same.
                        let writtenKey = inputs.markdown.isEmpty ? key : renderer.key(of: inputs, rendered: page)
                        rendered += 1
                        let check = LinkChecker.checkPage(
                            outputPath: page.outputPath, bytes: page.bytes, templatePath: page.templatePath,
                            templateSources: page.templateSources,
                            sourceLinks: page.sourceLinks, files: files, siteURL: renderer.site.baseURL,
                            fineLinks: fineLinks, knownParts: page.knownParts)
                        // A page that links into another page's #fragment is always checked again,
                        // since the other page may have changed.
                        try output.write(
                            page.bytes, to: page.outputPath,
                            key: check.fragmentLinks.isEmpty ? writtenKey : nil,
                            ids: check.ids.sorted(), links: links)
                        checks.append((index, check))
                        try searchShards?.pageDone(index, sections: page.searchSections, renderer: renderer, into: output)
                    } catch {
                        failures.append(error)
                    }
                }
                results.withLock { results in
                    for (index, check) in checks { results[index] = check }
                }
                if !found.isEmpty {
                    notices.withLock { notices in
                        for (index, texts) in found { notices[index] = texts }
                    }
                }
                renderedCount.wrappingAdd(rendered, ordering: .relaxed)
                if !failures.isEmpty { problems.withLock { $0.report(contentsOf: failures) } }
                if let progress {
                    let done = finishedCount.wrappingAdd(run.count, ordering: .relaxed).newValue
                    progress(done, pages.count)
                }
            }
        }
        clock.lap("render and write \(pages.count) pages")
        var log = problems.withLock { $0 }
        do throws(Diagnostic) {
            try writeSearchIndex(renderer, files: searchFiles, into: output, except: searchShards?.done ?? [])
        } catch {
            log.report(error)
        }
        renderer.forgetRemovedTexts()
        clock.lap("search index")
        // On every core: a site's static folder can hold tens of thousands of files.
        let copyProblems = concurrentMap(copied.count) { index -> Diagnostic? in
            do throws(Diagnostic) {
                try output.copy(copied[index])
                return nil
            } catch {
                return error
            }
        }
        log.report(contentsOf: copyProblems.compactMap { $0 })
        try log.throwIfErrors()
        var checks = results.withLock { $0.compactMap { $0 } }
        if case .pages = scope {
            // The pages that rendered pages link into, when kept: their ids as the sink has them.
            let checked = Set(checks.map(\.outputPath))
            let targets = Set(checks.flatMap { $0.fragmentLinks.map(\.target) }).subtracting(checked)
            for target in targets.sorted() {
                if let ids = output.previousIDs(target) { checks.append(PageCheck(outputPath: target, ids: Set(ids))) }
            }
        }
        LinkChecker.checkFragments(checks, log: &log)
        let external = listsExternalLinks ? LinkChecker.externalLinks(of: checks) : []
        clock.lap("copy files, check fragments")
        try log.throwIfErrors()
        return RenderResult(
            fileCount: files.count, rendered: renderedCount.load(ordering: .relaxed), externalLinks: external,
            pageChecks: checks, notices: notices.withLock { $0 })
    }
}
