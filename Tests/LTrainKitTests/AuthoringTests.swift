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

@Suite struct AuthoringTests {
    @Test func newStationNumbersRenumberNothing() {
        #expect(Scaffold.number(after: [6], before: nil) == [7], "at the east end: the next number")
        #expect(Scaffold.number(after: [3], before: [5]) == [4], "a gap: the whole number in it")
        #expect(Scaffold.number(after: [3], before: [4]) == [3, 1], "no gap: a dotted number")
        #expect(Scaffold.number(after: [3, 1], before: [4]) == [3, 2])
        #expect(Scaffold.number(after: [3], before: [3, 1]) == [3, 0, 1])
        #expect(Scaffold.number(after: nil, before: nil) == [1])
        #expect(Scaffold.fileNumber([3, 1], width: 2) == "03.1")
        #expect(Scaffold.fileNumber([120], width: 2) == "120")
    }

    @Test func newStationAfterAnotherSitsBetweenThem() throws {
        let site = try TestSite.defaultSite()
        let (path, placement) = try Scaffold.newStation(title: "Bedford & \"Nassau\"", after: "union-square", content: site.content)
        #expect(path == site.content + "/stations/03.1-bedford-nassau.md")
        #expect(placement == "between Union Square and Third Avenue")
        let (east, _) = try Scaffold.newStation(title: "Lorimer Street", after: nil, content: site.content)
        #expect(east == site.content + "/stations/07-lorimer-street.md")
        let before = try String(contentsOfFile: site.content + "/stations/04-third-avenue.md", encoding: .utf8)
        try site.build()
        let union = try site.page("stations/union-square.html")
        #expect(HTML.anchors(with: #"rel="next""#, in: union).first?.href == "bedford-nassau.html")
        #expect(try site.page("stations/bedford-nassau.html").contains("<h1>Bedford &amp; &quot;Nassau&quot;</h1>"))
        #expect(try String(contentsOfFile: site.content + "/stations/04-third-avenue.md", encoding: .utf8) == before)
        #expect(throws: BuildFailure.self) { try Scaffold.newStation(title: "Lorimer Street", after: nil, content: site.content) }
        #expect(throws: BuildFailure.self) { try Scaffold.newStation(title: "X", after: "nowhere", content: site.content) }
    }

    /// `new` writes only what `build` reads: a title of 150 characters gives a slug cut at a word
    /// to the longest a build accepts, and the site builds with the page.
    @Test func aLongTitleGivesASlugTheBuildAccepts() throws {
        let site = try TestSite.defaultSite()
        let title = Array(repeating: "Very long title word", count: 8).joined(separator: " ")
        let (station, _) = try Scaffold.newStation(title: title, after: nil, content: site.content)
        let checklist = try Scaffold.newChecklist(title: title, choose: .one, content: site.content)
        let slug = "very-long-title-word-very-long-title-word-very-long-title-word-very-long-title-word-very-long-title"
        #expect(slug.count == 99 && slugify(title).count > SiteBuilder.longestSlug)
        #expect(station.hasSuffix("-\(slug).md"))
        #expect(checklist.hasSuffix("/\(slug).md"))
        try site.build()
        #expect(try site.page("stations/\(slug).html").contains("<h1>\(title)</h1>"))
        #expect(FileSystem.kind(of: site.output + "/checklists/\(slug).html") == .file)
    }

    @Test func aSlugIsShortenedAtAWord() {
        #expect(shortened(slug: "very-long-title", to: 9) == "very-long")
        #expect(shortened(slug: "very-long-title", to: 10) == "very-long")
        #expect(shortened(slug: "very-long-title", to: 15) == "very-long-title")
        #expect(shortened(slug: "verylongtitle", to: 4) == "very", "one word longer than the limit is cut in it")
        #expect(shortened(slug: "ab-cdefgh", to: 4) == "ab")
    }

    /// A slug over the limit says so, and its hint names one that fits (not the same slug again).
    @Test func aLongSlugSaysHowLongItIs() throws {
        let site = try TestSite.defaultSite()
        let long = String(repeating: "word-", count: 30) + "end"
        try site.write("content/stations/09-\(long).md", "---\ntitle: Long\n---\n")
        let failures = site.failures()
        #expect(failures.count == 1)
        #expect(failures.first?.contains("error: station slug '\(long)' is 153 characters long; a slug has at most 100") == true, "\(failures)")
        #expect(failures.first?.contains("e.g. '\(shortened(slug: long, to: 100))'") == true, "\(failures)")
        #expect(shortened(slug: long, to: 100).count == 99)
    }

    @Test func afterNamesAStationBySlugOrTitle() throws {
        let site = try TestSite.defaultSite()
        let (path, placement) = try Scaffold.newStation(title: "Graham Avenue", after: "third avenue", content: site.content)
        #expect(path == site.content + "/stations/04.1-graham-avenue.md")
        #expect(placement == "between Third Avenue and First Avenue")
        do {
            _ = try Scaffold.newStation(title: "Y", after: "Thrid Avenue", content: site.content)
            Issue.record("an unknown station was accepted")
        } catch {
            #expect(error.diagnostics.first?.message == "no station has the slug or title 'Thrid Avenue' (did you mean 'Third Avenue'?)")
        }
    }

    @Test func newRefusesAFolderThatIsNotASite() throws {
        let site = try TestSite()
        #expect(throws: BuildFailure.self) { try Scaffold.newChecklist(title: "Pack", content: site.root + "/content") }
        #expect(throws: BuildFailure.self) { try Scaffold.newStation(title: "A", after: nil, content: site.root + "/content") }
        #expect(FileSystem.kind(of: site.root + "/content") == .missing, "nothing was invented")
    }

    @Test func nearestNameSuggestsOnlyLikelyTypos() {
        #expect(NearestName.suggestion(for: "biuld", among: ["build", "serve", "check", "new", "init"]) == "build")
        #expect(NearestName.suggestion(for: "titel", among: ["title", "summary", "slug"]) == "title")
        #expect(NearestName.suggestion(for: "--ouput", among: ["--output", "--content"]) == "--output")
        #expect(NearestName.suggestion(for: "TITLE", among: ["title"]) == "title", "case is ignored")
        #expect(NearestName.suggestion(for: "colour", among: ["title", "summary", "slug", "draft"]) == nil)
        #expect(NearestName.suggestion(for: "x", among: ["title"]) == nil)
        #expect(NearestName.suggestion(for: "title", among: ["title"]) == nil, "a known name needs no suggestion")
        #expect(NearestName.hint(for: "nxet", among: ["next", "back"]) == " (did you mean 'next'?)")
        #expect(NearestName.editDistance(Array("abc".unicodeScalars), Array("acb".unicodeScalars), limit: 5) == 1)
        #expect(NearestName.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), limit: 5) == 3)
    }

    @Test func newChecklistAndInit() throws {
        let site = try TestSite()
        try Scaffold.initSite(at: site.root + "/line")
        let path = try Scaffold.newChecklist(title: "Pack One", content: site.root + "/line/content")
        #expect(path.hasSuffix("/line/content/checklists/pack-one.md"))
        let report = try SiteBuild.run(
            BuildOptions(
                contentDirectory: site.root + "/line/content", templatesDirectory: site.root + "/line/templates",
                outputDirectory: site.root + "/line/_site"))
        #expect(report.stationCount == 2)
        #expect(report.checklistCount == 2)
        #expect(report.warnings.isEmpty)
        #expect(try site.page("stations/first-stop.html", in: site.root + "/line/_site").contains(">Next Stop</a>"))
        #expect(throws: BuildFailure.self) { try Scaffold.initSite(at: site.root + "/line") }
    }

    @Test func checkingABuiltFolderFindsDamage() throws {
        let site = try TestSite.defaultSite()
        try site.build()
        #expect(LinkChecker.checkFolder(site.output).diagnostics.isEmpty)
        try site.remove("_site/stations/third-avenue.html")
        try site.write("_site/info/union-square.html", try site.page("info/union-square.html").replacingOccurrences(of: "<h2 id=\"connections\">", with: "<h2>"))
        try site.write("_site/extra.html", "<a href=\"info/union-square.html#connections\">x</a><a href=\"https://example.org/\">out</a>")
        let (diagnostics, external) = LinkChecker.checkFolder(site.output)
        let messages = diagnostics.map { $0.description.replacingOccurrences(of: site.root + "/", with: "") }
        #expect(messages.contains("_site/stations/union-square.html: error: link 'third-avenue.html' points to stations/third-avenue.html, which is not in the site\n  hint: check the path; it is relative to the page it appears on"))
        #expect(messages.contains("_site/extra.html: error: link 'info/union-square.html#connections' points to no id 'connections' on info/union-square.html\n  hint: check the spelling of the id it should point to"))
        #expect(external == ["https://example.org/"])
    }
}
