import Foundation
import Testing

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

@Suite struct ServeTests {
    func session(_ site: TestSite) -> PreviewSession {
        var options = ServeOptions()
        options.contentDirectory = site.content
        options.templatesDirectory = site.templates
        return PreviewSession(options: options)
    }

    /// Records each file that a fresh build of `site` writes and `preview` does not serve as it
    /// is, and each file served that the build does not write.
    func expectServesAFreshBuild(_ preview: PreviewSession, _ site: TestSite, after step: String) throws {
        ServeEquivalenceTests.expectServes(try ServeEquivalenceTests.freshBuild(site), by: preview, "after \(step)")
    }

    /// Swaps the folder at `path` for a copy of itself that `change` is given to edit, by two
    /// renames (the folder renamed away ends beside the site's folders), as a sync tool does.
    func swapFolder(_ path: String, in site: TestSite, change: (_ copy: String) throws -> Void) throws {
        let copy = path + "-other"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try change(copy)
        #expect(rename(path, site.root + "/" + lastPathComponent(path) + "-old") == 0)
        #expect(rename(copy, path) == 0)
    }

    func status(_ answer: HTTPAnswer) -> Int {
        switch answer {
        case .file(let status, _, _, _), .plain(let status, _): return status
        case .notModified: return 304
        case .redirect: return 301
        case .eventStream: return 200
        case .methodNotAllowed: return 405
        }
    }

    @Test func answersOnlyFilesOfTheBuiltSite() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        #expect(status(preview.answer(method: "GET", path: "/", ifNoneMatch: nil)) == 200)
        #expect(status(preview.answer(method: "GET", path: "/../content/index.md", ifNoneMatch: nil)) == 403)
        #expect(status(preview.answer(method: "GET", path: "/stations/./union-square.html", ifNoneMatch: nil)) == 403)
        #expect(status(preview.answer(method: "GET", path: "/a\0b", ifNoneMatch: nil)) == 400)
        #expect(status(preview.answer(method: "GET", path: "/content/index.md", ifNoneMatch: nil)) == 404)
        #expect(status(preview.answer(method: "POST", path: "/", ifNoneMatch: nil)) == 405)
        #expect(status(preview.answer(method: "GET", path: "/stations", ifNoneMatch: nil)) == 404)
        guard case .file(_, let bytes, let type, let etag?) = preview.answer(method: "GET", path: "/index.html", ifNoneMatch: nil) else {
            Issue.record("index.html not served")
            return
        }
        #expect(type == "text/html; charset=utf-8")
        #expect(String(decoding: bytes, as: UTF8.self).contains("<script src=\"/_ltrain/live.js\"></script>\n</body>"))
        #expect(status(preview.answer(method: "GET", path: "/index.html", ifNoneMatch: etag)) == 304)
        // A list holding it, a weak form of it and `*` are the same condition (RFC 9110 13.1.2).
        for header in ["\"a\", \(etag)", "\"a\",\(etag) ", "W/\(etag)", "*", " \"b\" , W/\(etag), \"c\""] {
            #expect(status(preview.answer(method: "GET", path: "/index.html", ifNoneMatch: header)) == 304, "\(header)")
        }
        for header in ["\"a\", \"b\"", "", "W/", "\(etag.dropLast())", "\"a\" junk \(etag)"] {
            #expect(status(preview.answer(method: "GET", path: "/index.html", ifNoneMatch: header)) == 200, "\(header)")
        }
        guard case .methodNotAllowed(let allowed) = preview.answer(method: "PUT", path: "/", ifNoneMatch: nil) else {
            Issue.record("PUT is not refused with 405")
            return
        }
        #expect(allowed == "GET, HEAD")
    }

    /// The theme's worker script, at the root or at any depth a built copy was opened from, is a
    /// worker that retires itself: a built copy's worker cannot keep the preview's address.
    @Test func aServiceWorkerScriptIsOneThatRetiresItself() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/assets/sw.js", "// the author's own file of that name\n")
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        for path in ["/sw.js", "/guides/ltrain/sw.js", "/_site/sw.js"] {
            guard case .file(200, let bytes, let type, nil) = preview.answer(method: "GET", path: path, ifNoneMatch: nil) else {
                Issue.record("\(path) is not answered")
                continue
            }
            #expect(type == "text/javascript; charset=utf-8")
            #expect(String(decoding: bytes, as: UTF8.self) == LiveReload.retiringWorker, "\(path)")
        }
        guard case .file(200, let own, _, _) = preview.answer(method: "GET", path: "/assets/sw.js", ifNoneMatch: nil) else {
            Issue.record("the author's assets/sw.js is not served")
            return
        }
        #expect(String(decoding: own, as: UTF8.self) == "// the author's own file of that name\n")
    }

    @Test func rebuildsOnlyWhatChangedAndKeepsTheLastGoodSite() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().renderedPages == 15)
        let path = site.content + "/stations/03-union-square.md"
        let good = try String(contentsOfFile: path, encoding: .utf8)
        try site.write("content/stations/03-union-square.md", good + "\nNew.\n")
        let edit = preview.rebuild(changed: [path])
        // The info page, and the search index and the index page, which hold its text (a small
        // line's index page carries the index).
        #expect(edit.renderedPages == 2 && edit.changedFiles == 3)
        try site.write("content/stations/03-union-square.md", "---\ntitle: [broken\n---\n")
        let broken = preview.rebuild(changed: [path])
        #expect(broken.problems.count == 1)
        guard case .file(200, let bytes, _, _) = preview.answer(method: "GET", path: "/info/union-square.html", ifNoneMatch: nil) else {
            Issue.record("the last good page is not served")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains("New."))
        try site.write("content/stations/03-union-square.md", good)
        let fixed = preview.rebuild(changed: [path])
        #expect(fixed.problems.isEmpty && fixed.changedFiles == 3)
        // Broken, then put back exactly as it was: nothing to change, but the pages that show
        // the problem must reload to lose it.
        try site.write("content/stations/03-union-square.md", "---\ntitle: [broken\n---\n")
        #expect(preview.rebuild(changed: [path]).problems.count == 1)
        let events = preview.hub.eventCount
        try site.write("content/stations/03-union-square.md", good)
        #expect(preview.rebuild(changed: [path]).changedFiles == 0)
        #expect(preview.hub.eventCount == events + 1, "no reload after the problem went away")
        let swap = preview.rebuild(changed: [site.content + "/stations/.03-union-square.md.swp"])
        #expect(swap.changedFiles == 0 && swap.renderedPages == 0, "a swap file changes nothing")
    }

    /// The index page is kept in parts (`PartMemory`: its rows, and the bytes rendered from them) across a title edit, and
    /// across a template edit that does not render it, so the title edit after that one still
    /// renders one row and one stop; a template the index uses makes it render whole again.
    @Test func aTitleEditRendersOneRowOfTheIndexEvenAfterATemplateEdit() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        let count = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations").count
        let stationPath = site.content + "/stations/03-union-square.md"
        let original = try String(contentsOfFile: stationPath, encoding: .utf8)
        func retitle(_ title: String) throws -> PreviewSession.Outcome {
            try site.write(
                "content/stations/03-union-square.md",
                original.replacingOccurrences(of: "title: Union Square", with: "title: \(title)"))
            return preview.rebuild(changed: [stationPath])
        }
        #expect(try retitle("Union Sq").problems.isEmpty)
        #expect(preview.partMemory?.itemsReused == 2 * (count - 1))
        // The next index render is given room for the bytes this one wrote.
        #expect(preview.partMemory?.lastIndexSize == preview.servedFiles["index.html"]?.count)

        let template = site.templates + "/station.mustache"
        try site.write("templates/station.mustache", try String(contentsOfFile: template, encoding: .utf8) + "<!-- edited -->\n")
        #expect(preview.rebuild(changed: [template]).problems.isEmpty)
        #expect(try retitle("Union Sq.").problems.isEmpty)
        #expect(preview.partMemory?.itemsReused == 2 * (count - 1))

        let index = site.templates + "/index.mustache"
        try site.write("templates/index.mustache", try String(contentsOfFile: index, encoding: .utf8) + "<!-- edited -->\n")
        #expect(preview.rebuild(changed: [index]).problems.isEmpty)
        #expect(preview.partMemory?.itemsReused == 0, "the index's own template changed: nothing of it is copied")
        #expect(try retitle("Union Square Park").problems.isEmpty)
        #expect(preview.partMemory?.itemsReused == 2 * (count - 1))
        let built = try site.build()
        #expect(built.stationCount == count)
        let served = preview.servedFiles["index.html"].map { String(decoding: $0, as: UTF8.self) }
        #expect(served == (try String(contentsOfFile: site.output + "/index.html", encoding: .utf8)))
    }

    /// The preview keeps each Markdown text's render (`PartMemory`): a template edit renders
    /// no text again, while a text whose links now lead elsewhere, or whose template now holds an
    /// id its headings took, is rendered again. Each step serves what a fresh build writes.
    @Test func aTemplateEditRendersNoMarkdownAndAMovedLinkOrATakenIDRendersItsTextAgain() throws {
        let site = try TestSite.defaultSite()
        let sixth = site.content + "/stations/02-sixth-avenue.md"
        try site.write(
            "content/stations/02-sixth-avenue.md",
            try String(contentsOfFile: sixth, encoding: .utf8)
                + "\nSee [Union Square](03-union-square.md) and [when it opened](03-union-square.md#when-it-opened).\n")
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        let memory = try #require(preview.partMemory)
        #expect(memory.rendersReused == 0)
        let count = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations").count
        func sixthInfo() -> String {
            String(decoding: preview.servedFiles["info/sixth-avenue.html"] ?? [], as: UTF8.self)
        }
        #expect(sixthInfo().contains("href=\"../stations/union-square.html\""))

        let info = site.templates + "/info.mustache"
        let infoTemplate = try String(contentsOfFile: info, encoding: .utf8)
        try site.write("templates/info.mustache", infoTemplate + "<!-- edited -->\n")
        let edit = preview.rebuild(changed: [info])
        #expect(edit.problems.isEmpty)
        #expect(edit.renderedPages == count, "every info page")
        #expect(memory.rendersReused == count, "and none of their texts")
        #expect(sixthInfo().contains("<!-- edited -->"))
        try expectServesAFreshBuild(preview, site, after: "the info template's edit")

        // Union Square moves: the link to it in Sixth Avenue's text, which did not change, leads
        // to its new page. Its own text is rendered, as its page moved with it.
        let union = site.content + "/stations/03-union-square.md"
        let unionText = try String(contentsOfFile: union, encoding: .utf8)
        try site.write("content/stations/03-union-square.md", unionText.replacingOccurrences(of: "---\ntitle:", with: "---\nslug: union-sq\ntitle:"))
        let reusedBefore = memory.rendersReused
        #expect(preview.rebuild(changed: [union]).problems.isEmpty)
        #expect(sixthInfo().contains("href=\"../stations/union-sq.html\""))
        #expect(sixthInfo().contains("href=\"union-sq.html#when-it-opened\""))
        #expect(memory.rendersReused > reusedBefore, "the texts that do not link to it are kept")
        try expectServesAFreshBuild(preview, site, after: "Union Square's new slug")

        // The info template now holds the id the heading "When it opened" took on every info page.
        try site.write("templates/info.mustache", infoTemplate.replacingOccurrences(of: "</main>", with: "</main>\n<p id=\"when-it-opened\"></p>"))
        #expect(try String(contentsOfFile: info, encoding: .utf8).contains("id=\"when-it-opened\""))
        let reusedBeforeID = memory.rendersReused
        let idEdit = preview.rebuild(changed: [info])
        #expect(idEdit.problems.isEmpty)
        // Every info page is rendered, and no text of one is used again (the index page's may be).
        #expect(idEdit.renderedPages > count)
        #expect(memory.rendersReused - reusedBeforeID <= idEdit.renderedPages - count, "no render made with the old ids is used")
        let union2 = String(decoding: preview.servedFiles["info/union-sq.html"] ?? [], as: UTF8.self)
        #expect(union2.contains("<h2 id=\"when-it-opened-"), "the heading gives way to the template's id")
        try expectServesAFreshBuild(preview, site, after: "an id in the info template")
    }

    /// The routes are the last version's exactly when every station kept its place and nothing
    /// else they are made from changed (`SiteVersion`); every step serves what a fresh build writes.
    @Test func theRoutesAreKeptWhileEveryStationKeepsItsPlace() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().keptRoutes == false, "the first version has no last one")
        let union = site.content + "/stations/03-union-square.md"
        let text = try String(contentsOfFile: union, encoding: .utf8)
        func step(_ name: String, changed: Set<String>, keepsRoutes: Bool) throws {
            let outcome = preview.rebuild(changed: changed)
            #expect(outcome.problems.isEmpty, "\(name): \(outcome.problems)")
            #expect(outcome.keptRoutes == keepsRoutes, "\(name)")
            try expectServesAFreshBuild(preview, site, after: name)
        }
        try site.write("content/stations/03-union-square.md", text + "\nA new sentence.\n")
        try step("a body edit", changed: [union], keepsRoutes: true)
        try site.write("content/stations/03-union-square.md", text.replacingOccurrences(of: "title: ", with: "title: The "))
        try step("a title edit", changed: [union], keepsRoutes: true)
        try site.write("content/stations/03-union-square.md", text.replacingOccurrences(of: "---\ntitle:", with: "---\nslug: union-sq\ntitle:"))
        try step("a new slug", changed: [union], keepsRoutes: false)
        try site.write("content/stations/03-union-square.md", text)
        try step("the old slug again", changed: [union], keepsRoutes: false)
        try site.write("content/stations/03-union-square.md", text.replacingOccurrences(of: "---\ntitle:", with: "---\ndraft: true\ntitle:"))
        try step("a station made a draft", changed: [union], keepsRoutes: false)
        try site.write("content/stations/03-union-square.md", text)
        try step("and published again", changed: [union], keepsRoutes: false)
        let index = site.content + "/index.md"
        try site.write("content/index.md", try String(contentsOfFile: index, encoding: .utf8) + "\nMore.\n")
        try step("the index edited", changed: [index], keepsRoutes: false)
        let template = site.templates + "/station.mustache"
        try site.write("templates/station.mustache", try String(contentsOfFile: template, encoding: .utf8) + "<!-- edited -->\n")
        try step("a template edited", changed: [template], keepsRoutes: false)
        let renamed = site.content + "/stations/03-union-sq.md"
        #expect(rename(union, renamed) == 0)
        try step("a station's file renamed", changed: [union, renamed], keepsRoutes: false)
        try site.write("content/stations/03-union-sq.md", text + "\nAgain.\n")
        try step("then its body edited", changed: [renamed], keepsRoutes: true)
    }

    /// A content folder swapped for another (a `git checkout` of another branch, a sync tool's
    /// rename) is reported as the folder itself: nothing of the last version is known to be
    /// unchanged, so no station is kept from it, even one whose file has the same name.
    @Test func aContentFolderSwappedForAnotherKeepsNothingOfTheLastVersion() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/assets/plan.txt", "the old plan\n")
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        try swapFolder(site.content, in: site) { copy in
            let union = copy + "/stations/03-union-square.md"
            let text = try String(contentsOfFile: union, encoding: .utf8)
            try (text + "\nA sentence only the other folder has.\n").write(toFile: union, atomically: true, encoding: .utf8)
            try "the new plan\n".write(toFile: copy + "/assets/plan.txt", atomically: true, encoding: .utf8)
        }
        #expect(preview.rebuild(changed: [site.content]).problems.isEmpty)
        let served = String(decoding: preview.servedFiles["info/union-square.html"] ?? [], as: UTF8.self)
        #expect(served.contains("A sentence only the other folder has."))
        #expect(String(decoding: preview.servedFiles["assets/plan.txt"] ?? [], as: UTF8.self) == "the new plan\n")
        try expectServesAFreshBuild(preview, site, after: "the swap")
    }

    /// The same one folder down: a stations folder swapped for another is reported as the folder
    /// alone, and every station in it is read and modelled again.
    @Test func aStationsFolderSwappedForAnotherKeepsNoneOfItsStations() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        let stations = site.content + "/stations"
        try swapFolder(stations, in: site) { copy in
            let union = copy + "/03-union-square.md"
            let text = try String(contentsOfFile: union, encoding: .utf8)
            try (text + "\nA sentence only the other folder has, with ~~struck~~ words.\n").write(
                toFile: union, atomically: true, encoding: .utf8)
        }
        let swap = preview.rebuild(changed: [stations, stations + "-other"])
        #expect(swap.problems.isEmpty)
        #expect(swap.warnings.map(\.path) == [stations + "/03-union-square.md"], "its files' notices are shown: \(swap.warnings)")
        let served = String(decoding: preview.servedFiles["info/union-square.html"] ?? [], as: UTF8.self)
        #expect(served.contains("A sentence only the other folder has, with"))
        try expectServesAFreshBuild(preview, site, after: "the swap")
    }

    /// The folders of files copied as they are (`assets/`, `static/`, the templates folder),
    /// swapped whole and reported as the folder alone: each file's new bytes are served, though
    /// no model shows them.
    @Test func anAssetsOrStaticFolderSwappedForAnotherServesItsNewBytes() throws {
        let site = try TestSite.defaultSite()
        try site.write("content/assets/plan.txt", "the old plan\n")
        try site.write("content/static/notes.txt", "the old notes\n")
        try site.write("templates/theme-notes.txt", "the old theme notes\n")
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        // The templates folder's theme files are copied too (this one no template names).
        let folders = [
            (site.content + "/assets", "plan.txt", "assets/plan.txt"), (site.content + "/static", "notes.txt", "notes.txt"),
            (site.templates, "theme-notes.txt", "theme-notes.txt"),
        ]
        for (folder, file, served) in folders {
            try swapFolder(folder, in: site) { copy in
                try "the new \(file)\n".write(toFile: copy + "/" + file, atomically: true, encoding: .utf8)
            }
            // Only the folder itself: its copy's old path, outside both folders, would say it alone.
            #expect(preview.rebuild(changed: [folder]).problems.isEmpty)
            #expect(String(decoding: preview.servedFiles[served] ?? [], as: UTF8.self) == "the new \(file)\n", "\(folder)")
        }
        try expectServesAFreshBuild(preview, site, after: "the swaps")
    }

    /// The Markdown memory holds the texts of the version served, no more: a deleted station's
    /// text and a renamed file's old entry are let go of.
    @Test func theMarkdownMemoryLetsGoOfTextsTheSiteNoLongerHas() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        let memory = try #require(preview.partMemory)
        let count = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations").count
        #expect(memory.textCount == count + 1, "each station's info text and the index's")

        let first = site.content + "/stations/06-bedford-avenue.md"
        let renamed = site.content + "/stations/07-bedford-avenue.md"
        #expect(rename(first, renamed) == 0)
        #expect(preview.rebuild(changed: [first, renamed]).problems.isEmpty)
        #expect(preview.partMemory === memory)
        #expect(memory.textCount == count + 1, "the old file's entry is gone")

        try site.remove("content/stations/07-bedford-avenue.md")
        #expect(preview.rebuild(changed: [renamed]).problems.isEmpty)
        #expect(memory.textCount == count, "the deleted station's text is gone")
    }

    @Test func aSaveThroughATemporaryFileStaysABodyEdit() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().renderedPages == 15)
        let path = site.content + "/stations/03-union-square.md"
        let temporary = path + ".tmp"
        try site.write("content/stations/03-union-square.md.tmp", try String(contentsOfFile: path, encoding: .utf8) + "\nSaved.\n")
        #expect(rename(temporary, path) == 0)
        let save = preview.rebuild(changed: [temporary, path])
        #expect(save.plan == SitePlan(scope: .pages([.info(slug: "union-square"), .index])), "the temporary file widened the plan")
        #expect(save.renderedPages == 2 && save.changedFiles == 3, "the info page, the search index and the index page that carries it")
        // A title edit reaches the pages that show the title: its station, its info page, both
        // neighbours (their bar), the index, and the 404 page (which names the first station).
        try site.write("content/stations/03-union-square.md", try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "title: Union Square", with: "title: Union Sq"))
        let title = preview.rebuild(changed: [path])
        #expect(
            title.plan
                == SitePlan(
                    scope: .pages([
                        .station(slug: "union-square"), .info(slug: "union-square"), .station(slug: "sixth-avenue"),
                        .station(slug: "third-avenue"), .index, .notFound,
                    ])))
        #expect(title.renderedPages == 5, "the 404 page does not show the third station: its key is the same")
    }

    @Test func aRebuildWarnsAboutTheFilesItChanged() throws {
        let site = try TestSite.defaultSite()
        let first = site.content + "/stations/01-eighth-avenue.md"
        try site.write("content/stations/01-eighth-avenue.md", try String(contentsOfFile: first, encoding: .utf8) + "\nWas ~~closed~~ open.\n")
        let preview = session(site)
        let start = preview.rebuild()
        #expect(start.warnings.map(\.path) == [first], "the first build warns about every file")
        let third = site.content + "/stations/03-union-square.md"
        try site.write("content/stations/03-union-square.md", try String(contentsOfFile: third, encoding: .utf8) + "\n| a | b |\n|---|---|\n")
        let edit = preview.rebuild(changed: [third])
        #expect(edit.warnings.map(\.path) == [third], "a rebuild warns about the changed file alone: \(edit.warnings)")
        // A change that models the whole site again looks again at the changed files only, too.
        try site.write("content/stations/07-added.md", "---\ntitle: Added\n---\nA ~~new~~ stop.\n")
        let added = preview.rebuild(changed: [site.content + "/stations/07-added.md"])
        #expect(added.plan != .everyPage && added.plan.pagesAddedOrRemoved)
        #expect(added.warnings.map(\.path) == [site.content + "/stations/07-added.md"])
    }

    @Test func changesAreClassifiedByTheRulesTheLoaderReadsBy() {
        #expect(ContentChange("index.md") == .index)
        #expect(ContentChange("stations/03-a.md") == .station)
        #expect(ContentChange("checklists/packing.md") == .checklist)
        #expect(ContentChange("assets/maps/a.png") == .asset)
        #expect(ContentChange("static/CNAME") == .staticFile)
        #expect(ContentChange("static/.nojekyll") == .staticFile, "hidden files are published from static/")
        #expect(ContentChange("static/.well-known/security.txt") == .staticFile)
        #expect(ContentChange("static/CNAME~") == .ignored)
        for ignored in ["stations/03-a.md.tmp", "stations/.03-a.md.swp", "stations/03-a.md~", "stations/#03-a.md#", "stations/4913", ".DS_Store", "checklists/.x.md"] {
            #expect(ContentChange(ignored) == .ignored, "\(ignored)")
        }
        for unknown in ["stations", "about.md", "stations/sub/03-a.md", "station/03-a.md"] {
            #expect(ContentChange(unknown) == .unknown, "\(unknown)")
        }
    }

    /// The content folder itself, however the folder was named on the command line (the watcher
    /// reports it as named): everything is read again, copied files too.
    @Test func theContentFolderItselfChangedIsEverythingReadAgain() {
        for (folder, reported) in [("content", "content"), ("content/", "content/"), ("./content", "./content"), ("/site/content/", "/site/content/")] {
            let changes = SourceChanges([reported], contentDirectory: folder, templatesDirectory: "templates")
            #expect(changes.contentFolderChanged && changes.copiedFiles && changes.content.isEmpty, "\(folder)")
        }
        let folder = SourceChanges(["content/assets"], contentDirectory: "content/", templatesDirectory: "templates")
        #expect(folder.copiedFiles && !folder.contentFolderChanged && folder.contentPaths == ["assets"])
    }

    @Test func aStaticFileIsServedOnceSavedAndGoneOnceRemoved() throws {
        let site = try TestSite.defaultSite()
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        #expect(status(preview.answer(method: "GET", path: "/CNAME", ifNoneMatch: nil)) == 404)
        try site.write("content/static/CNAME", "l.example.org\n")
        #expect(preview.rebuild(changed: [site.content + "/static/CNAME"]).problems.isEmpty)
        guard case .file(200, let bytes, _, _) = preview.answer(method: "GET", path: "/CNAME", ifNoneMatch: nil) else {
            Issue.record("the new static file is not served")
            return
        }
        #expect(bytes == Array("l.example.org\n".utf8))
        try site.remove("content/static/CNAME")
        #expect(preview.rebuild(changed: [site.content + "/static/CNAME"]).problems.isEmpty)
        #expect(status(preview.answer(method: "GET", path: "/CNAME", ifNoneMatch: nil)) == 404)
    }

    /// The links judged fine are kept from one rebuild to the next only while the site's files
    /// are the same: a link written to another station's page is fine through a title edit, and
    /// broken once that station is deleted. One thread, so that one memory sees every page.
    @Test func linksKeptFineAcrossRebuildsAreJudgedAgainWhenAFileGoes() throws {
        let site = try TestSite.defaultSite()
        let first = site.content + "/stations/01-eighth-avenue.md"
        try site.write("content/stations/01-eighth-avenue.md", try String(contentsOfFile: first, encoding: .utf8) + "\nNext: [sixth](sixth-avenue.html).\n")
        var options = ServeOptions()
        options.contentDirectory = site.content
        options.templatesDirectory = site.templates
        options.jobs = 1
        let preview = PreviewSession(options: options)
        #expect(preview.rebuild().problems.isEmpty)
        let third = site.content + "/stations/03-union-square.md"
        let text = try String(contentsOfFile: third, encoding: .utf8)
        try site.write("content/stations/03-union-square.md", text.replacingOccurrences(of: "title: ", with: "title: New "))
        let retitled = preview.rebuild(changed: [third, first])
        #expect(retitled.problems.isEmpty)
        #expect(retitled.keptRoutes)
        try site.remove("content/stations/02-sixth-avenue.md")
        let deleted = preview.rebuild(changed: [site.content + "/stations/02-sixth-avenue.md"])
        #expect(
            deleted.problems.map(\.message)
                .contains("link 'sixth-avenue.html' points to info/sixth-avenue.html, which is not in the site"))
    }

    @Test func bodyOnlyEditsStillCatchBrokenLinksAndFragments() throws {
        let site = try TestSite.defaultSite()
        let first = site.content + "/stations/01-eighth-avenue.md"
        try site.write("content/stations/01-eighth-avenue.md", try String(contentsOfFile: first, encoding: .utf8) + "\nSee [transfers](02-sixth-avenue.md#connections).\n")
        let preview = session(site)
        #expect(preview.rebuild().problems.isEmpty)
        let second = site.content + "/stations/02-sixth-avenue.md"
        let good = try String(contentsOfFile: second, encoding: .utf8)
        try site.write("content/stations/02-sixth-avenue.md", good.replacingOccurrences(of: "## Connections", with: "## Transfers"))
        let fragment = preview.rebuild(changed: [second])
        #expect(fragment.problems.map(\.message) == ["link '02-sixth-avenue.md#connections' points to no id 'connections' on info/sixth-avenue.html"])
        try site.write("content/stations/02-sixth-avenue.md", good + "\n[gone](09-nowhere.md)\n")
        let broken = preview.rebuild(changed: [second])
        #expect(broken.problems.first?.message == "link '09-nowhere.md' names the content file stations/09-nowhere.md, which does not exist")
        try site.write("content/stations/02-sixth-avenue.md", good + "\nFine now.\n")
        let fixed = preview.rebuild(changed: [second])
        #expect(fixed.problems.isEmpty)
        guard case .file(200, let bytes, _, _) = preview.answer(method: "GET", path: "/info/sixth-avenue.html", ifNoneMatch: nil) else {
            Issue.record("page not served")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains("Fine now."))
        let fast = preview.rebuild(changed: [second])
        #expect(fast.renderedPages <= 2, "a body-only edit renders its info page and the fragment-linking page")
    }

    @Test func eventsAreServerSentEventsWithEscapedJSON() {
        #expect(ReloadHub.event("reload", data: "a\nb") == "event: reload\ndata: a\ndata: b\n\n")
        #expect(JSONText.quoted("x\"<y>\n\u{1}\u{2028}") == #""x\"\u003cy>\n\u0001\u2028""#)
        #expect(LiveReload.inject(into: Array("<p>no body".utf8)) == Array("<p>no body".utf8) + LiveReload.tag)
    }

    /// libmicrohttpd is loaded when a server starts, not with the program: a library that is
    /// missing, or lacks a function serve calls, is an error that says which and how to fix it.
    @Test func serveSaysWhenLibmicrohttpdCannotBeLoaded() throws {
        #expect(HTTPServer.loadProblem(of: "libmicrohttpd.so.12") == nil)
        let missing = try #require(HTTPServer.loadProblem(of: "libltrain-absent.so.1"))
        #expect(missing.message.hasPrefix("ltrain serve needs GNU libmicrohttpd, which could not be loaded: "))
        #expect(missing.message.contains("libltrain-absent.so.1: cannot open shared object file"))
        #expect(missing.hint?.contains("apt-get install libmicrohttpd12") == true)
        // A library that loads but is not libmicrohttpd: the first function it lacks is named.
        let other = try #require(HTTPServer.loadProblem(of: "libz.so.1"))
        #expect(other.message.contains("undefined symbol: MHD_start_daemon_va"))
    }
}
