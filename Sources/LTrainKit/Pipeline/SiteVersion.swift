import LTrainSupport
import LTrainMustache
import LTrainLoad
import LTrainModel
import LTrainRoute

/// The preview's memory at the level of the whole site, and its only one there: the last version
/// of the site (the files read, the templates, and the site prepared from them), from which the
/// next version is made after a change. Each stage takes from it what the change did not reach:
/// - Load reads again only the files that changed (`ContentLoader.refresh`);
/// - Model keeps every station whose file did not change, and edits the changed ones in their
///   places when that is all the change did (`SiteBuilder.LastVersion`);
/// - Route keeps the last routes when the stations kept their places and nothing else changed;
/// - the plan lists the pages the change can reach (`SitePlan.between`).
///
/// A build has no version in memory: its last version is what the output records (the sources'
/// stamps, each page's key).
package struct SiteVersion: Sendable {
    package var content: LoadedContent?
    package var templates: LoadedTemplates?
    package var library: MustacheLibrary?
    /// The last good version, prepared: the next is made from it and planned against it.
    package var prepared: PreparedSite?
    /// The problems of the last change; while it has some, the next is made from the files alone
    /// (kept as read, so that fixing one file reads one file) and is not planned against
    /// `prepared`, which is still the version served.
    package var problems: [Diagnostic] = []

    package init() {}

    /// Where the preview reads from.
    package struct Sources: Sendable {
        package var content: String
        package var templates: String
        package var templatesRequired: Bool

        package init(content: String, templates: String, templatesRequired: Bool) {
            self.content = content
            self.templates = templates
            self.templatesRequired = templatesRequired
        }
    }

    /// Reads what `changes` reach (everything when nil, or the first time) into this version.
    package mutating func load(_ changes: SourceChanges?, from sources: Sources, log: inout DiagnosticLog) {
        if changes?.templates ?? true || templates == nil {
            templates = ContentLoader.loadTemplates(from: sources.templates, required: sources.templatesRequired, log: &log)
            library = templates.map { PreparedSite.checkedLibrary($0, templatesDirectory: sources.templates, log: &log) }
        }
        // Taken out, so that it is the only reference and is changed in place rather than copied
        // on every edit.
        if var loaded = content, let changes {
            content = nil
            if changes.touchesContent
                && !ContentLoader.refresh(&loaded, from: sources.content, changes: changes, log: &log)
            {
                content = ContentLoader.loadContent(from: sources.content, log: &log)
            } else {
                content = loaded
            }
        } else {
            content = ContentLoader.loadContent(from: sources.content, log: &log)
        }
    }

    /// The next version: the site prepared from the files as now loaded, from the last good
    /// version where `changes` allow (everything made again when nil), remembering what its
    /// renderer renders for the version after it; and the pages `changes` can reach, against the
    /// last good version as served (`keylessPaths`, `previousLinks`: see `SitePlan.between`);
    /// and whether its routes are the last version's.
    package func next(
        after changes: SourceChanges?, settings: SiteBuilder.Settings, keylessPaths: [String],
        previousLinks: (String) -> [String]?, log: inout DiagnosticLog, clock: inout PhaseClock
    ) throws(BuildFailure) -> (prepared: PreparedSite, plan: SitePlan, keptRoutes: Bool) {
        let last = problems.isEmpty ? prepared : nil
        let (next, keptRoutes) = try prepare(after: changes, last: last, settings: settings, log: &log, clock: &clock)
        guard let last else { return (next, .everyPage, false) }
        let plan = SitePlan.between(
            last, next, alwaysChecked: keylessPaths.compactMap(next.routes.page(at:)),
            filesChanged: changes?.copiedFiles ?? true, previousLinks: previousLinks)
        clock.lap("plan")
        return (next, plan, keptRoutes)
    }

    private func prepare(
        after changes: SourceChanges?, last: PreparedSite?, settings: SiteBuilder.Settings, log: inout DiagnosticLog,
        clock: inout PhaseClock
    ) throws(BuildFailure) -> (prepared: PreparedSite, keptRoutes: Bool) {
        // A content folder swapped whole says nothing of which of its files changed.
        guard let last, let changes, !changes.contentFolderChanged else {
            let prepared = try PreparedSite.assemble(
                content: content, templates: templates, library: library, settings: settings, log: &log, clock: &clock)
            return (prepared.keepingParts(after: last), false)
        }
        guard let content,
            let site = SiteBuilder.build(
                content, settings: settings,
                after: SiteBuilder.LastVersion(site: last.site, changedFiles: changes.contentPaths), log: &log)
        else { throw BuildFailure(log.diagnostics) }
        clock.lap("model")
        // The routes are made from the templates, the copied files and each station's place;
        // when none of these changed, they are the last version's.
        if !changes.templates, !changes.copiedFiles, changes.editedStations != nil,
            site.line.keepsPlaces(of: last.site.line)
        {
            try log.throwIfErrors()
            return (last.replacingStations(with: site, warningLog: log).keepingParts(after: last), true)
        }
        let prepared = try PreparedSite.assemble(site: site, templates: templates, library: library, log: &log, clock: &clock)
        return (prepared.keepingParts(after: last), false)
    }
}
