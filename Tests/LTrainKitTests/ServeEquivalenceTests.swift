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

/// `ltrain serve` rebuilds from what changed, by several paths (a body edit, a full rebuild that
/// keeps pages whose inputs did not change). Long random sequences of mixed edits must leave it
/// serving exactly what a fresh `ltrain build` of the same sources writes, byte for byte.
@Suite struct ServeEquivalenceTests {
    /// A small deterministic generator (SplitMix64), so a failing sequence can be replayed by its seed.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// Every file a fresh build of the site writes, by path (the manifest left out).
    static func freshBuild(_ site: TestSite) throws(BuildFailure) -> [String: [UInt8]] {
        let output = site.root + "/fresh-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try SiteBuild.run(site.options(output: output))
        var files: [String: [UInt8]] = [:]
        // The offline list is the build's alone: the preview never registers the service worker.
        for path in FileSystem.filesBelow(output) where path != Manifest.fileName && path != Routes.offlineListPath {
            files[path] = (try? FileSystem.read(joinPath(output, path), limit: 1 << 26)) ?? []
        }
        return files
    }

    /// Records each file of `fresh` (a fresh build's) that `preview` does not serve as it is, and
    /// a difference in the files each has; `context` says when.
    static func expectServes(_ fresh: [String: [UInt8]], by preview: PreviewSession, _ context: String) {
        let served = preview.servedFiles
        #expect(Set(served.keys) == Set(fresh.keys), "\(context): files differ")
        for (path, bytes) in fresh where served[path] != bytes {
            Issue.record("\(context): \(path) differs from a fresh build")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func servedSiteEqualsAFreshBuildAfterEveryEdit(seed: Int) throws {
        let site = try TestSite.defaultSite()
        var options = ServeOptions()
        options.contentDirectory = site.content
        options.templatesDirectory = site.templates
        let preview = PreviewSession(options: options)
        #expect(preview.rebuild().problems.isEmpty)
        var random = Random(state: UInt64(seed))
        var added = 0
        var log: [String] = []
        var plans: Set<String> = []
        for step in 0..<60 {
            let stations = try FileManager.default.contentsOfDirectory(atPath: site.content + "/stations")
                .filter { $0.hasSuffix(".md") }.sorted()
            let station = stations[random.next(stations.count)]
            let stationPath = site.content + "/stations/" + station
            var changed: [String] = []
            var undo: (() throws -> Void)?
            let text = try String(contentsOfFile: stationPath, encoding: .utf8)
            switch random.next(17) {
            case 0:
                try site.write("content/stations/\(station)", text + "\nEdit \(step), with **emphasis**.\n")
                changed = [stationPath]
                log.append("body of \(station)")
            case 1:
                // Saved as many editors do: a temporary file renamed over the original.
                try site.write("content/stations/\(station).tmp", text + "\nSaved at step \(step).\n")
                #expect(rename(stationPath + ".tmp", stationPath) == 0)
                changed = [stationPath + ".tmp", stationPath]
                log.append("body of \(station) through a temporary file")
            case 2:
                let edited = text.replacingOccurrences(
                    of: #"title: ([^\n]*)"#, with: "title: $1 \(step)", options: .regularExpression)
                try site.write("content/stations/\(station)", edited)
                changed = [stationPath]
                log.append("title of \(station)")
            case 3:
                added += 1
                let name = String(format: "%02d.%d-added-%d.md", random.next(8), added, added)
                try site.write("content/stations/\(name)", "---\ntitle: Added \(added)\n---\nNew stop \(added).\n\n## Details\n")
                changed = [site.content + "/stations/" + name]
                log.append("new station \(name)")
            case 4 where stations.count > 3:
                try site.remove("content/stations/\(station)")
                changed = [stationPath]
                undo = { try site.write("content/stations/\(station)", text) }
                log.append("deleted \(station)")
            case 5:
                let template = ["info", "station", "layout", "checklist", "index", "back-chevron", "404", "style.css"][random.next(8)]
                let file = template.contains(".") ? template : template + ".mustache"
                let path = site.templates + "/" + file
                let comment = file.hasSuffix(".css") ? "/* \(step) */\n" : "<!-- \(step) -->\n"
                try site.write("templates/" + file, try String(contentsOfFile: path, encoding: .utf8) + comment)
                changed = [path]
                log.append("template \(file)")
            case 6:
                // A link to another station's heading, on its info page.
                let target = stations[random.next(stations.count)]
                try site.write("content/stations/\(station)", text + "\nSee [the stop](\(target)).\n")
                changed = [stationPath]
                // A link to a draft breaks the site.
                undo = { try site.write("content/stations/\(station)", text) }
                log.append("link from \(station) to \(target)")
            case 7:
                let index = site.content + "/index.md"
                try site.write("content/index.md", try String(contentsOfFile: index, encoding: .utf8) + "\nIndex edit \(step).\n")
                changed = [index]
                log.append("index body")
            case 9:
                // Its own slug: the station's pages move, and links to its file follow them.
                let edited = text.replacingOccurrences(of: "---\ntitle:", with: "---\nslug: moved-\(step)\ntitle:")
                try site.write("content/stations/\(station)", edited)
                changed = [stationPath]
                undo = { try site.write("content/stations/\(station)", text) }
                log.append("slug of \(station)")
            case 10:
                let edited = text.replacingOccurrences(
                    of: #"summary: ([^\n]*)"#, with: "summary: $1 \(step)", options: .regularExpression)
                try site.write("content/stations/\(station)", edited.contains("summary:") ? edited : text.replacingOccurrences(of: "---\ntitle:", with: "---\nsummary: Added \(step).\ntitle:"))
                changed = [stationPath]
                log.append("summary of \(station)")
            case 11 where stations.count > 3:
                // A draft leaves the line; its pages go, and links to it break (the build says so).
                try site.write("content/stations/\(station)", text.replacingOccurrences(of: "---\ntitle:", with: "---\ndraft: true\ntitle:"))
                changed = [stationPath]
                undo = { try site.write("content/stations/\(station)", text) }
                log.append("draft \(station)")
            case 12:
                // Renumbered: the same station in another place of the line (its slug stays).
                let slug = station.drop { $0 != "-" }.dropFirst()
                let renamed = String(format: "%02d.%d-", random.next(8), step) + slug
                #expect(rename(stationPath, site.content + "/stations/" + renamed) == 0)
                changed = [stationPath, site.content + "/stations/" + renamed]
                undo = { #expect(rename(site.content + "/stations/" + renamed, stationPath) == 0) }
                log.append("renumbered \(station) to \(renamed)")
            case 13:
                let index = site.content + "/index.md"
                let text = try String(contentsOfFile: index, encoding: .utf8)
                let edited = random.next(2) == 0
                    ? text.replacingOccurrences(of: #"title: ([^\n]*)"#, with: "title: $1 \(step)", options: .regularExpression)
                    : text.replacingOccurrences(of: "---\ntitle:", with: "---\nlabels:\n  done: Done \(step)\ntitle:")
                try site.write("content/index.md", edited)
                changed = [index]
                log.append("index title or labels")
            case 14:
                let name = "note-\(random.next(3)).txt"
                try site.write("content/assets/\(name)", "Note \(step)\n")
                changed = [site.content + "/assets", site.content + "/assets/" + name]
                log.append("asset")
            case 15:
                let checklist = site.content + "/checklists/check-one.md"
                let text = try String(contentsOfFile: checklist, encoding: .utf8)
                try site.write("content/checklists/check-one.md", text.replacingOccurrences(
                    of: #"title: ([^\n]*)"#, with: "title: $1 \(step)", options: .regularExpression))
                changed = [checklist]
                log.append("checklist title")
            default:
                let checklist = site.content + "/checklists/check-one.md"
                try site.write("content/checklists/check-one.md", try String(contentsOfFile: checklist, encoding: .utf8) + "- Row \(step)\n")
                changed = [checklist]
                log.append("checklist row")
            }
            let outcome = preview.rebuild(changed: Set(changed))
            switch outcome.plan.scope {
            case .everyPage: plans.insert("every page")
            case .pages: plans.insert(outcome.plan.pagesAddedOrRemoved ? "pages added or removed" : "some pages")
            }
            let fresh: [String: [UInt8]]
            do throws(BuildFailure) {
                fresh = try Self.freshBuild(site)
            } catch {
                // The edit broke the site (a deleted station that others link to): serve says so
                // and keeps the last good site; put the file back and go on.
                #expect(!outcome.problems.isEmpty, "step \(step) (\(log.last ?? "")): the build failed, serve did not")
                try undo?()
                let restored = preview.rebuild(changed: Set(changed))
                #expect(restored.problems.isEmpty, "seed \(seed), step \(step): undoing \(log.suffix(3)) left \(restored.problems.map(\.message))")
                continue
            }
            #expect(outcome.problems.isEmpty, "step \(step) (\(log.last ?? "")): \(outcome.problems)")
            Self.expectServes(fresh, by: preview, "seed \(seed), step \(step) after \(log.suffix(3))")
        }
        // Every kind of plan was made, so each was held to a fresh build.
        #expect(plans == ["every page", "some pages", "pages added or removed"], "seed \(seed): \(plans)")
    }
}
