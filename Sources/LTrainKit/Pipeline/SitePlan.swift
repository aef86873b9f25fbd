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

/// Which pages of the next version of a site to look at, found by comparing it with the last
/// version (model, routes and templates). The executor (`SiteBuild.render`) takes each page in
/// the plan's scope to its key, then reuses or renders it; a page outside the scope is left as the
/// last version has it, unread. A build has no last model in memory, so its plan is `everyPage`
/// (each page decided by its key against the manifest); `ltrain serve` keeps the last version and
/// plans every change, so an edit costs what it changes.
///
/// The rules name the pages whose inputs (see `PageInputs`) a change reaches; anything they do not
/// cover is `everyPage`. `ServeEquivalenceTests` holds them to a fresh build after long random
/// sequences of edits.
public struct SitePlan: Sendable, Equatable {
    public enum Scope: Sendable, Equatable {
        /// Every page of the site, each reused or rendered by its key; every other file written.
        case everyPage
        /// Only these pages may differ from the last version; every other page and file is kept.
        case pages(Set<Page>)
    }

    public var scope: Scope
    /// With `pages`: the site gained or lost pages, so the list of files (and the generated files
    /// that list pages, such as the sitemap) is made again; the pages that stay are still kept.
    public var pagesAddedOrRemoved = false

    public static let everyPage = SitePlan(scope: .everyPage)

    /// The pages to look at for `next`, given the `last` version served and the pages that link
    /// into other pages' fragments (`alwaysChecked`, kept without a key, so checked every time).
    /// `filesChanged`: the bytes of a copied file (an asset, a static or theme file) may have
    /// changed, which no model shows.
    public static func between(
        _ last: PreparedSite, _ next: PreparedSite, alwaysChecked: [Page], filesChanged: Bool,
        previousLinks: (String) -> [String]?
    ) -> SitePlan {
        let old = last.site
        let new = next.site
        // What every page shares (the site's values, the list of files, the Markdown options) or
        // a copied file changed: every page is looked at.
        guard !filesChanged, last.renderer.sharedValuesKey == next.renderer.sharedValuesKey,
            last.routes.filePaths == next.routes.filePaths, last.staticFiles == next.staticFiles,
            old.assets == new.assets, old.rootFiles == new.rootFiles,
            old.checklists.count == new.checklists.count,
            zip(old.checklists, new.checklists).allSatisfy({
                $0.slug == $1.slug && $0.body.contentPath == $1.body.contentPath
            }),
            old.index.body.contentPath == new.index.body.contentPath
        else { return .everyPage }
        var pages = Set(alwaysChecked)
        // A template changed: every page it renders (through partials and layouts).
        for template in PageRenderer.everyPageTemplate
        where last.renderer.templateKey(template) != next.renderer.templateKey(template) {
            pages.formUnion(next.renderer.pages(renderedWith: template))
        }
        if old.index != new.index { pages.insert(.index) }
        // The index page carries a small line's search index: any text or checklist in it.
        if last.renderer.inlineSearchKey() != next.renderer.inlineSearchKey() { pages.insert(.index) }
        for (before, after) in zip(old.checklists, new.checklists) where before != after {
            pages.insert(.checklist(slug: after.slug))
            if before.title != after.title { pages.insert(.index) }
        }
        let oldStations = old.line.stations
        let newStations = new.line.stations
        if last.routes.layoutKey == next.routes.layoutKey {
            // The same stations in the same places: each edited one reaches its own pages, and
            // its title the pages that show it.
            for index in new.line.positionsChanged(from: old.line) {
                let slug = newStations[index].slug
                if oldStations[index].info.body != newStations[index].info.body { pages.insert(.info(slug: slug)) }
                guard !oldStations[index].showsTheSame(as: newStations[index]) else { continue }
                pages.formUnion([.station(slug: slug), .info(slug: slug), .index, .notFound])
                if index > 0 { pages.insert(.station(slug: newStations[index - 1].slug)) }
                if index + 1 < newStations.count { pages.insert(.station(slug: newStations[index + 1].slug)) }
            }
            return SitePlan(scope: .pages(pages))
        }
        // Stations added, removed, moved or renamed: every station page (positions, neighbours,
        // "Stop N of M"), the index and the 404 page; the info pages of new or edited stations;
        // and every page whose Markdown links to a station file whose page moved.
        pages.formUnion(newStations.map { .station(slug: $0.slug) })
        pages.formUnion([.index, .notFound])
        var oldByPath: [String: Int] = [:]
        oldByPath.reserveCapacity(oldStations.count)
        for index in oldStations.indices { oldByPath[oldStations[index].info.body.contentPath] = index }
        // Read in place, by index: copying each station costs more than comparing it.
        var moved: Set<String> = []
        var newByPath: Set<String> = []
        newByPath.reserveCapacity(newStations.count)
        for index in newStations.indices {
            let path = newStations[index].info.body.contentPath
            newByPath.insert(path)
            let old = oldByPath[path]
            if let old, oldStations[old] == newStations[index] { continue }
            pages.insert(.info(slug: newStations[index].slug))
            if old.map({ oldStations[$0].slug != newStations[index].slug }) ?? true { moved.insert(path) }
        }
        for index in oldStations.indices where !newByPath.contains(oldStations[index].info.body.contentPath) {
            moved.insert(oldStations[index].info.body.contentPath)
        }
        // A link names a moved file as `Routes.rewriteContentLink` reads it; one that does not end
        // with a moved file's name cannot, which is looked at first, without resolving anything.
        let movedNames = Set(moved.map { lastPathComponent($0) })
        func mayLeadToMovedFile(_ link: String, from contentPath: String) -> Bool {
            let target = Routes.splitFragment(link).target
            guard movedNames.contains(lastPathComponent(target)) else { return false }
            return SitePath.resolve(target, against: contentPath).map(moved.contains) ?? false
        }
        // Only pages with Markdown have links that lead to content files.
        func check(_ page: Page, contentPath: String) {
            guard !pages.contains(page) else { return }
            // A page whose links are not known is looked at.
            guard let links = previousLinks(next.routes.path(of: page)) else {
                pages.insert(page)
                return
            }
            if links.contains(where: { mayLeadToMovedFile($0, from: contentPath) }) { pages.insert(page) }
        }
        check(.index, contentPath: new.index.body.contentPath)
        for index in newStations.indices {
            check(.info(slug: newStations[index].slug), contentPath: newStations[index].info.body.contentPath)
        }
        for checklist in new.checklists { check(.checklist(slug: checklist.slug), contentPath: checklist.body.contentPath) }
        return SitePlan(scope: .pages(pages), pagesAddedOrRemoved: true)
    }
}
