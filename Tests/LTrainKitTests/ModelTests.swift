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

/// Builds content files in memory, as the Load stage would hand them over.
func contentFile(_ relativePath: String, _ text: String) throws -> ContentFile {
    ContentFile(
        displayPath: "content/\(relativePath)", relativePath: relativePath,
        document: try FrontMatterDocument.parse(text))
}

func station(_ name: String, title: String, extra: String = "") throws -> ContentFile {
    try contentFile("stations/\(name)", "---\ntitle: \(title)\n\(extra)---\nAbout \(title).\n")
}

func loadedContent(stations: [ContentFile], checklists: [ContentFile] = []) throws -> LoadedContent {
    LoadedContent(
        index: try contentFile("index.md", "---\ntitle: Test Line\n---\nHello.\n"), stations: stations,
        checklists: checklists, assets: [])
}

@Suite struct ModelTests {
    /// The notices a render found are matched with their texts whatever order they come in (a
    /// build's come in the site's order, a partial one's not), and a text none was found for is
    /// looked at now.
    @Test func foundNoticesAreMatchedWithTheirTextsInAnyOrder() throws {
        let content = try loadedContent(stations: [
            try contentFile("stations/01-one.md", "---\ntitle: One\n---\nPlain.\n"),
            try contentFile("stations/02-two.md", "---\ntitle: Two\n---\nPlain.\n"),
            try contentFile("stations/03-three.md", "---\ntitle: Three\n---\nWas ~~closed~~.\n"),
        ])
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        let stations = site.line.stations
        // Made-up notices, one line apart, so each warning shows whose it is.
        func found(_ position: Int) -> TextNotices {
            TextNotices(
                displayPath: stations[position].info.body.displayPath,
                notices: [MarkdownNotice(kind: .bareURL, line: position + 1, column: 1)])
        }
        // Found by page, as a render leaves them: a page holds none, one or several texts' notices.
        func warnings(_ found: [[TextNotices]]) -> [String] {
            SiteBuilder.noticeWarnings(of: site, found: found).map { "\($0.path ?? "") \($0.location?.line ?? 0) \($0.message.prefix(12))" }
        }
        let lineOffset = stations[0].info.body.lineOffset
        let expected = (0..<3).map { "\(stations[$0].info.body.displayPath) \(lineOffset + $0 + 1) a bare URL i" }
        let index = TextNotices(displayPath: site.index.body.displayPath, notices: [])
        #expect(warnings([[index, found(0), found(1), found(2)]]) == expected)
        #expect(warnings([[index], [], [found(0)], [], [], [found(1), found(2)], []]) == expected)
        #expect(warnings([[found(2)], [found(0), found(1)]]) == expected)
        // Station 3's text not found: looked at now (its strikethrough), the others as found.
        #expect(
            warnings([[found(1)], [], [found(0)]])
                == Array(expected.prefix(2)) + ["\(stations[2].info.body.displayPath) \(lineOffset + 1) '~~strikethr"])
        #expect(
            warnings([[found(0)], [], [found(1)]])
                == Array(expected.prefix(2)) + ["\(stations[2].info.body.displayPath) \(lineOffset + 1) '~~strikethr"])
    }

    /// A model made again after a change (`LastVersion`) keeps the stations whose files did not
    /// change as the last version had them, and looks for notices only in the changed files.
    @Test func aModelMadeAgainKeepsTheUnchangedStationsAndLooksOnlyAtTheChangedFiles() throws {
        let bare = "\nSee https://example.org/ for more.\n"
        let content = try loadedContent(stations: [
            try station("01-one.md", title: "One", extra: "summary: \(bare.count)\n"),
            try contentFile("stations/02-two.md", "---\ntitle: Two\n---\(bare)"),
            try contentFile("stations/03-three.md", "---\ntitle: Three\n---\(bare)"),
        ])
        var log = DiagnosticLog()
        var last = try #require(SiteBuilder.build(content, log: &log))
        #expect(log.diagnostics.filter { $0.message.contains("bare URL") }.count == 2)
        // The last version's station 3 says "Old three": kept, since its file did not change.
        last.line.stations[2].title = "Old three"
        var again = DiagnosticLog()
        let site = try #require(
            SiteBuilder.build(content, after: SiteBuilder.LastVersion(site: last, changedFiles: ["stations/02-two.md"]), log: &again))
        #expect(site.line.stations.map(\.title) == ["One", "Two", "Old three"])
        #expect(again.diagnostics.map { $0.path ?? "" } == ["content/stations/02-two.md"], "\(again.diagnostics)")
        // A changed folder (renamed or swapped whole, reported alone) changes every file in it.
        var folder = DiagnosticLog()
        let remade = try #require(
            SiteBuilder.build(content, after: SiteBuilder.LastVersion(site: last, changedFiles: ["stations"]), log: &folder))
        #expect(remade.line.stations.map(\.title) == ["One", "Two", "Three"])
    }

    /// When no file changed, the last version is the model; when the changed files are stations
    /// that keep their places, only they are modelled again and put back in the last site; any
    /// other change models the site again. (The last site's title is changed by hand below, so
    /// that which of the three happened shows.)
    @Test func aModelMadeAgainIsTheLastSiteWithItsEditedStationsPutBackWhenTheyKeepTheirPlaces() throws {
        let content = try loadedContent(stations: [
            try station("01-one.md", title: "One"), try station("02-two.md", title: "Two"),
        ])
        var log = DiagnosticLog()
        var last = try #require(SiteBuilder.build(content, log: &log))
        last.title = "Kept from the last version"
        func again(_ content: LoadedContent, changed: Set<String>) throws -> Site {
            var log = DiagnosticLog()
            return try #require(
                SiteBuilder.build(content, after: SiteBuilder.LastVersion(site: last, changedFiles: changed), log: &log))
        }
        #expect(try again(content, changed: []) == last)

        var edited = content
        edited.stations[1] = try station("02-two.md", title: "Deux")
        let inPlace = try again(edited, changed: ["stations/02-two.md"])
        #expect(inPlace.title == "Kept from the last version")
        #expect(inPlace.line.stations.map(\.title) == ["One", "Deux"])

        var moved = content
        moved.stations[1] = try station("02-two.md", title: "Deux", extra: "slug: deux\n")
        let remade = try again(moved, changed: ["stations/02-two.md"])
        #expect(remade.title != "Kept from the last version", "a new slug models the site again")
        #expect(remade.line.stations.map(\.slug) == ["one", "deux"])
        #expect(!remade.line.keepsPlaces(of: last.line) && inPlace.line.keepsPlaces(of: last.line))
    }

    /// The positions whose station changed: none between a line and itself or an equal line made
    /// apart (its strings in storage of their own, so the bytes differ and the fields are
    /// compared), and exactly the edited one, whatever field changed.
    @Test func aLineSaysWhichPositionsChanged() throws {
        let content = try loadedContent(stations: [
            try station("01-one.md", title: "One"), try station("02-two.md", title: "Two"), try station("03-three.md", title: "Three"),
        ])
        var log = DiagnosticLog()
        let line = try #require(SiteBuilder.build(content, log: &log)).line
        let remade = try #require(SiteBuilder.build(content, log: &log)).line
        #expect(line.positionsChanged(from: line).isEmpty)
        #expect(remade.positionsChanged(from: line).isEmpty)
        var edited = line
        edited.stations[1].info.body.text += "More."
        #expect(edited.positionsChanged(from: line) == [1])
        edited = line
        edited.stations[2].summary = "Now with a summary"
        #expect(edited.positionsChanged(from: line) == [2])
    }

    /// What other pages read of a station is all of it but its info text: the preview's plan and
    /// the index's kept rows ask `showsTheSame(as:)`, which sees every other field.
    @Test func aStationShowsTheSameUnlessAFieldOtherThanItsInfoChanged() throws {
        let content = try loadedContent(stations: [try station("01-one.md", title: "One", extra: "summary: First\n")])
        var log = DiagnosticLog()
        let one = try #require(SiteBuilder.build(content, log: &log)?.line.stations.first)
        var edited = one
        edited.info.body.text = "Another info text."
        #expect(one.showsTheSame(as: edited), "only its info page reads the info text")
        let changes: [(String, (inout Station) -> Void)] = [
            ("title", { $0.title = "Uno" }), ("summary", { $0.summary = nil }), ("slug", { $0.slug = "uno" }),
            ("number", { $0.number = [2] }), ("sourcePath", { $0.sourcePath = "stations/02-one.md" }),
        ]
        for (field, change) in changes {
            var changed = one
            change(&changed)
            #expect(!one.showsTheSame(as: changed), "\(field)")
        }
        // The same value (as a station kept from the last version is) and an equal one made
        // apart, its strings in storage of their own, both show the same.
        #expect(one.showsTheSame(as: one))
        var remade = one
        remade.title = String(decoding: Array("One, a title longer than a string kept inline".utf8), as: UTF8.self)
        var again = one
        again.title = String(decoding: Array("One, a title longer than a string kept inline".utf8), as: UTF8.self)
        #expect(remade.showsTheSame(as: again) && !remade.showsTheSame(as: one))
    }

    @Test func stationsAreOrderedByNumberNaturally() throws {
        let content = try loadedContent(stations: [
            try station("10-ten.md", title: "Ten"), try station("2-two.md", title: "Two"),
            try station("01-one.md", title: "One"), try station("2.1-two-and-a-bit.md", title: "Two and a bit"),
            try station("2.10-later.md", title: "Later"), try station("2.2-next.md", title: "Next"),
        ])
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        #expect(site.line.stations.map(\.title) == ["One", "Two", "Two and a bit", "Next", "Later", "Ten"])
        #expect(site.line.stations.map(\.number) == [[1], [2], [2, 1], [2, 2], [2, 10], [10]])
        #expect(site.line.stations.map(\.slug) == ["one", "two", "two-and-a-bit", "next", "later", "ten"])
        #expect(site.line.station(before: 0) == nil)
        #expect(site.line.station(after: 5) == nil)
        #expect(site.line.station(after: 0)?.title == "Two")
    }

    @Test func frontMatterSlugOverridesTheFileName() throws {
        let content = try loadedContent(stations: [try station("01-x.md", title: "Union Sq", extra: "slug: union-square\n")])
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        #expect(site.line.stations.first?.slug == "union-square")
    }

    @Test func siteSettingsComeFromTheIndex() throws {
        var content = try loadedContent(stations: [])
        content.index = try contentFile("index.md", "---\ntitle: Tram\nnext_label: Onward\nlanguage: pt\n---\n")
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        #expect(site.title == "Tram")
        #expect(site.labels["next"] == "Onward")
        #expect(site.language == "pt")
        #expect(site.markdownOptions.allowsUnsafeHTML == false)
    }

    @Test func aChecklistChoosesOneByDefaultOrMany() throws {
        func built(_ front: String) throws -> (Checklist.Choice?, [String]) {
            let checklist = try contentFile("checklists/pack.md", "---\ntitle: Pack\n\(front)---\n- Tea\n- Water\n")
            var log = DiagnosticLog()
            let site = SiteBuilder.build(try loadedContent(stations: [], checklists: [checklist]), log: &log)
            return (site?.checklists.first?.choice, log.diagnostics.filter { $0.severity == .error }.map(\.description))
        }
        #expect(try built("") == (.one, []))
        #expect(try built("choose: one\n") == (.one, []))
        #expect(try built("choose: many\n") == (.many, []))
        #expect(try built("choose: Many\n") == (.many, []))
        let (wrong, errors) = try built("choose: several\n")
        #expect(wrong == nil)
        #expect(errors == [
            "content/checklists/pack.md:3:9: error: 'choose' must be 'one' or 'many', found 'several'\n  hint: write choose: one (a single choice, the default) or choose: many (any number of rows)"
        ])
    }

    @Test func aChecklistOfManyIsCheckboxesInOneFieldset() throws {
        let site = try TestSite.fixture("passeio")
        try site.build()
        let many = try site.page("checklists/o-que-levar.html")
        #expect(many.components(separatedBy: #"<input type="checkbox" name="o-que-levar-choice""#).count - 1 == 4)
        #expect(!many.contains(#"type="radio""#))
        #expect(many.contains(#"<fieldset class="group checklist" data-checklist="o-que-levar" data-site-home="../index.html">"#))
        #expect(many.contains(#"<legend class="group-header">O que levar</legend>"#))
        let one = try site.page("checklists/onde-almocar.html")
        #expect(one.components(separatedBy: #"<input type="radio" name="onde-almocar-choice""#).count - 1 == 3)
    }

    @Test func checklistRowsComeFromTheFirstList() throws {
        let checklist = try contentFile(
            "checklists/check-one.md", "---\ntitle: Check One\n---\nPick.\n\n- Who Hash\n- Bubba Gump Shrimp Étouffée\n- Who Hash\n")
        let content = try loadedContent(stations: [], checklists: [checklist])
        var log = DiagnosticLog()
        let site = try #require(SiteBuilder.build(content, log: &log))
        let rows = try #require(site.checklists.first?.rows)
        #expect(rows.map(\.text) == ["Who Hash", "Bubba Gump Shrimp Étouffée", "Who Hash"])
        #expect(rows.map(\.value) == ["who-hash", "bubba-gump-shrimp-etouffee", "who-hash-2"])
        #expect(rows.map(\.line) == [6, 7, 8])
    }

    @Test func stationFileNames() {
        #expect(SiteBuilder.parseStationFileName("03-union-square.md")! == ([3], "union-square"))
        #expect(SiteBuilder.parseStationFileName("03.5-x.md")! == ([3, 5], "x"))
        #expect(SiteBuilder.parseStationFileName("03.-x.md") == nil)
        #expect(SiteBuilder.parseStationFileName("union-square.md") == nil)
        #expect(SiteBuilder.parseStationFileName("03-.md") == nil)
        #expect(SiteBuilder.parseStationFileName("x3-a.md") == nil)
        #expect(SiteBuilder.parseStationFileName("10.2.3-a-b.md")! == ([10, 2, 3], "a-b"))
        #expect(SiteBuilder.parseStationFileName("123456789-x.md")! == ([123_456_789], "x"))
        #expect(SiteBuilder.parseStationFileName("1234567890-x.md") == nil)
        #expect(SiteBuilder.parseStationFileName("03-x.txt") == nil)
        #expect(SiteBuilder.parseStationFileName("03-é.md")! == ([3], "é"))
    }

    @Test func slugsThatCouldLeaveTheirFolderAreRefused() {
        for bad in ["../up", "a/b", "..", ".hidden", "sp ace", "", "-dash", "a\\b", "%2e%2e"] {
            #expect(!SiteBuilder.isValidSlug(bad), "\(bad) should be refused")
        }
        for good in ["union-square", "a_b", "Stop10"] {
            #expect(SiteBuilder.isValidSlug(good))
        }
    }

    func errors(_ content: LoadedContent) -> [String] {
        var log = DiagnosticLog()
        _ = SiteBuilder.build(content, log: &log)
        return log.diagnostics.map(\.description)
    }

    @Test func missingAndWronglyTypedTitles() throws {
        let messages = errors(
            try loadedContent(stations: [
                try contentFile("stations/01-a.md", "---\nsummary: x\n---\n"),
                try contentFile("stations/02-b.md", "---\ntitle: [Union, Square]\n---\n"),
                try contentFile("stations/03-c.md", "No front matter here.\n"),
            ]))
        #expect(
            messages == [
                "content/stations/01-a.md:2:1: error: missing 'title' in front matter\n  hint: add a line 'title: …' to the front matter",
                "content/stations/02-b.md:2:8: error: 'title' must be a string, found a list\n  hint: put the value in quotes: title: \"…\"",
                "content/stations/03-c.md:1:1: error: missing 'title' in front matter\n  hint: start the file with three lines: '---', 'title: …', '---'",
            ])
    }

    @Test func duplicateSlugsNameBothFiles() throws {
        let messages = errors(
            try loadedContent(stations: [
                try station("01-union-square.md", title: "A"), try station("02-x.md", title: "B", extra: "slug: union-square\n"),
            ]))
        #expect(
            messages == [
                "content/stations/02-x.md:3:7: error: two stations have the slug 'union-square': content/stations/01-union-square.md and content/stations/02-x.md\n  hint: give one of them another file name or a 'slug:' in its front matter"
            ])
    }

    @Test func unknownKeysWarnOnce() throws {
        var log = DiagnosticLog()
        let site = SiteBuilder.build(
            try loadedContent(stations: [try station("01-a.md", title: "A", extra: "colour: grey\n")]), log: &log)
        #expect(site != nil)
        #expect(log.errors.isEmpty)
        #expect(
            log.warnings.map(\.description) == [
                "content/stations/01-a.md:3:1: warning: unknown front-matter key 'colour' is ignored\n  hint: station front matter understands: draft, slug, summary, title"
            ])
    }

    @Test(arguments: [
        ("en", TextDirection.leftToRight), ("he", .rightToLeft), ("he-IL", .rightToLeft), ("ar", .rightToLeft),
        ("ar-EG", .rightToLeft), ("fa", .rightToLeft), ("ur", .rightToLeft), ("yi", .rightToLeft), ("iw", .rightToLeft),
        ("ckb", .rightToLeft), ("AR", .rightToLeft), ("az-Arab", .rightToLeft), ("pa_Arab_PK", .rightToLeft),
        ("az-Latn", .leftToRight), ("ku-Latn", .leftToRight), ("de", .leftToRight), ("pt-PT", .leftToRight),
        ("zh-Hant-TW", .leftToRight), ("hel", .leftToRight), ("", .leftToRight),
    ])
    func theDirectionFollowsTheLanguage(language: String, direction: TextDirection) {
        #expect(TextDirection.of(language: language) == direction)
    }

    @Test func directionInTheIndexOverridesTheLanguage() throws {
        func direction(_ frontMatter: String) throws -> (TextDirection?, [String]) {
            var content = try loadedContent(stations: [])
            content.index = try contentFile("index.md", "---\ntitle: T\n\(frontMatter)---\n")
            var log = DiagnosticLog()
            let site = SiteBuilder.build(content, log: &log)
            return (site?.direction, log.errors.map(\.description))
        }
        #expect(try direction("").0 == .leftToRight)
        #expect(try direction("language: he\n").0 == .rightToLeft)
        #expect(try direction("language: he\ndirection: ltr\n").0 == .leftToRight)
        #expect(try direction("language: en\ndirection: RTL\n").0 == .rightToLeft)
        let (wrong, errors) = try direction("language: ar\ndirection: right\n")
        #expect(wrong == nil)
        #expect(
            errors == [
                "content/index.md:4:12: error: 'direction' must be 'rtl' or 'ltr', found 'right'\n  hint: leave it out to follow 'language' (ar reads rtl), or write direction: rtl"
            ])
    }

    @Test func stripMapStopsArePlacedByPercentagesOfTheLine() {
        #expect(StripMap.percent(0, of: 5) == "0%")
        #expect(StripMap.percent(5, of: 5) == "100%")
        #expect(StripMap.percent(1, of: 3) == "33.33333%")
        #expect(StripMap.percent(2, of: 3) == "66.66667%")
        #expect(StripMap.percent(1, of: 8) == "12.5%")
        #expect(StripMap.percent(1, of: 9_999) == "0.01%")
        #expect(StripMap.percent(1, of: 100_000) == "0.001%")
        #expect(StripMap.percent(1, of: 1_000) == "0.1%")
        #expect(StripMap.percent(7, of: 10_000_000) == "0.00007%")
        #expect(StripMap.percent(3, of: 40) == "7.5%")
        // Every position of lines of many lengths, against the digits worked out as text.
        func written(_ part: Int, of whole: Int) -> String {
            let scaled = (part * 10_000_000 + whole / 2) / whole
            let decimals = String(String(scaled % 100_000 + 100_000).dropFirst()).replacingOccurrences(
                of: "0+$", with: "", options: .regularExpression)
            return "\(scaled / 100_000)" + (decimals.isEmpty ? "" : "." + decimals) + "%"
        }
        for whole in [1, 2, 3, 7, 9, 11, 40, 999, 1_000, 9_999] {
            for part in 0...whole { #expect(StripMap.percent(part, of: whole) == written(part, of: whole), "\(part) of \(whole)") }
        }
        let stop = StripMap.stop(at: 1, of: 5, title: "B", href: "b.html")
        #expect(stop["offset"] == .string("25%"))
        let single = StripMap.stop(at: 0, of: 1, title: "A", href: "a.html")
        #expect(single["offset"] == .string("0%"))
    }
}
