import Foundation
import LTrainSupport
import LTrainModel
import LTrainLoad
import LTrainTemplates

/// `ltrain new` and `ltrain init`: files an author would otherwise write by hand.
public enum Scaffold {
    /// The number for a station placed after `previous` and before `next`, renumbering nothing:
    /// the next whole number when there is a gap, else a dotted number (`03.1`) between the two.
    static func number(after previous: [Int]?, before next: [Int]?) -> [Int] {
        guard let previous else {
            guard let next else { return [1] }
            // Before the first station: a gap below it, or a number below it with a 0 part.
            return next[0] > 1 ? [next[0] - 1] : [0] + [1]
        }
        guard let next else { return [previous[0] + 1] }
        var sameDepth = previous
        sameDepth[sameDepth.count - 1] += 1
        if sameDepth.lexicographicallyPrecedes(next) { return sameDepth }
        var deeper = previous + [1]
        while !deeper.lexicographicallyPrecedes(next) {
            deeper.insert(0, at: deeper.count - 1)
        }
        return deeper
    }

    static func fileNumber(_ number: [Int], width: Int) -> String {
        let first = String(number[0])
        let padded = String(repeating: "0", count: max(0, width - first.count)) + first
        return ([padded] + number.dropFirst().map(String.init)).joined(separator: ".")
    }

    static func yamlQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The slug a new station or checklist gets from its title, cut at a word to the length a
    /// build accepts (`new` writes only what `build` reads).
    private static func slug(for title: String) throws(BuildFailure) -> String {
        let slug = shortened(slug: slugify(title), to: SiteBuilder.longestSlug)
        guard !slug.isEmpty else {
            throw BuildFailure([.error("the title '\(title)' gives no slug", hint: "use a title with some Latin letters or digits")])
        }
        return slug
    }

    private static func write(_ text: String, to path: String) throws(BuildFailure) {
        guard FileSystem.kind(of: path) == .missing else {
            throw BuildFailure([.error("file already exists", path: path, hint: "choose another title, or edit the file")])
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw BuildFailure([.error("cannot write the file: \(error.localizedDescription)", path: path)])
        }
    }

    /// The content folder of the site that `directory` is in: `content` in the nearest folder at
    /// or above it that holds `content/index.md`, as a path relative to `directory` (`content`,
    /// `../content`, `../../content`), so printed paths stay short. Nil outside any site.
    public static func contentFolder(around directory: String = ".") -> String? {
        siteRoot(around: directory).map { $0 + "content" }
    }

    /// The nearest folder at or above `directory` that holds `content/index.md`, as a prefix
    /// relative to `directory` (`""`, `"../"`, `"../../"`); nil outside any site.
    public static func siteRoot(around directory: String = ".") -> String? {
        var prefix = ""
        var absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        while true {
            let candidate = joinPath(absolute, "content")
            if FileSystem.kind(of: joinPath(candidate, "index.md"), followingLinks: true) == .file {
                return prefix
            }
            guard absolute != "/" else { return nil }
            absolute = (absolute as NSString).deletingLastPathComponent
            prefix += "../"
        }
    }

    /// Refuses a content folder that is not a site's (no `index.md`), before anything is written.
    private static func requireSite(_ content: String) throws(BuildFailure) {
        guard FileSystem.kind(of: joinPath(content, "index.md"), followingLinks: true) == .file else {
            throw BuildFailure([
                .error(
                    "no site here: \(joinPath(content, "index.md")) does not exist", path: content,
                    hint: "run ltrain new inside a site (a folder with content/index.md, or any folder in it), "
                        + "or start one with ltrain init DIR")
            ])
        }
    }

    /// The station `name` names: its slug, or else its title (ignoring case).
    static func station(named name: String, in stations: [Station]) throws(BuildFailure) -> Int {
        if let position = stations.firstIndex(where: { $0.slug == name }) { return position }
        let byTitle = stations.indices.filter { stations[$0].title.lowercased() == name.lowercased() }
        if byTitle.count == 1 { return byTitle[0] }
        if byTitle.count > 1 {
            let slugs = byTitle.map { stations[$0].slug }.joined(separator: ", ")
            throw BuildFailure([.error("\(byTitle.count) stations are called '\(name)'", hint: "name one by its slug: \(slugs)")])
        }
        let titles = stations.map(\.title)
        let suggestion = NearestName.suggestion(for: name, among: titles + stations.map(\.slug))
        let known = stations.map { "\($0.slug) (\($0.title))" }.joined(separator: ", ")
        throw BuildFailure([
            .error(
                "no station has the slug or title '\(name)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""),
                hint: "the stations are: \(known)")
        ])
    }

    /// Writes `stations/NN-slug.md` for a new station, at the east end or after the station `after`
    /// (a slug or a title).
    /// Returns the path written and a description of where the station sits.
    public static func newStation(
        title: String, after: String?, content: String
    ) throws(BuildFailure) -> (path: String, placement: String) {
        try requireSite(content)
        var log = DiagnosticLog()
        guard let loaded = ContentLoader.loadContent(from: content, log: &log),
            let site = SiteBuilder.build(loaded, settings: .init(includeDrafts: true), log: &log)
        else { throw BuildFailure(log.diagnostics) }
        let stations = site.line.stations
        let slug = try slug(for: title)
        if stations.contains(where: { $0.slug == slug }) {
            throw BuildFailure([.error("a station with the slug '\(slug)' exists already", hint: "choose another title")])
        }
        var previous: Station? = stations.last
        var next: Station?
        if let after {
            let position = try station(named: after, in: stations)
            previous = stations[position]
            next = site.line.station(after: position)
        }
        let width = max(2, stations.map { String($0.number[0]).count }.max() ?? 2)
        let number = self.number(after: previous?.number, before: next?.number)
        let path = joinPath(joinPath(content, "stations"), "\(fileNumber(number, width: width))-\(slug).md")
        try write("---\ntitle: \(yamlQuoted(title))\nsummary: \n---\nWrite about \(title) here.\n", to: path)
        let placement: String
        switch (previous, next) {
        case let (previous?, next?): placement = "between \(previous.title) and \(next.title)"
        case let (previous?, nil): placement = "after \(previous.title), at the east end"
        default: placement = "as the first station"
        }
        return (path, placement)
    }

    /// Writes `checklists/<slug>.md`: a checklist whose rows take one choice or `many`; the file says which, in its
    /// `choose:` line, so the author sees how to change it.
    public static func newChecklist(
        title: String, choose: Checklist.Choice = .one, content: String
    ) throws(BuildFailure) -> String {
        try requireSite(content)
        let path = joinPath(joinPath(content, "checklists"), "\(try slug(for: title)).md")
        let (line, prompt) =
            switch choose {
            case .one: ("choose: one   # one row at most; write many to let readers check any number", "Pick one.")
            case .many: ("choose: many  # any number of rows; write one to allow a single row", "Check all that apply.")
            }
        try write(
            "---\ntitle: \(yamlQuoted(title))\n\(line)\n---\n\(prompt)\n\n- First choice\n- Second choice\n- Third choice\n",
            to: path)
        return path
    }

    /// Writes a small starter site into `directory` (which must be empty or missing): content with
    /// two stations and a checklist, and a copy of the default templates to change.
    public static func initSite(at directory: String) throws(BuildFailure) {
        if FileSystem.kind(of: directory, followingLinks: true) == .directory,
            let entries = try? FileSystem.entries(of: directory), !entries.isEmpty
        {
            throw BuildFailure([
                .error("the folder is not empty", path: directory, hint: "name a new folder, e.g. ltrain init my-line")
            ])
        }
        if FileSystem.kind(of: directory, followingLinks: true) != .directory && FileSystem.kind(of: directory) != .missing {
            throw BuildFailure([.error("a file of that name exists", path: directory, hint: "name a new folder")])
        }
        let content = joinPath(directory, "content")
        try write(
            "---\ntitle: My Line\nlabels:\n  next: Next Stop\n---\nA line of stops from west to east. Edit `content/index.md` to change this text.\n",
            to: joinPath(content, "index.md"))
        try write(
            "---\ntitle: First Stop\nsummary: Where the line begins.\n---\n## Where it is\n\nDescribe the first stop here. Link to [the next one](02-second-stop.md).\n",
            to: joinPath(content, "stations/01-first-stop.md"))
        try write(
            "---\ntitle: Second Stop\nsummary: Where the line ends, for now.\n---\n## Where it is\n\nAdd stations with `ltrain new station \"Name\"`.\n",
            to: joinPath(content, "stations/02-second-stop.md"))
        try write(
            "---\ntitle: Check One\n---\nPick one.\n\n- Tea\n- Coffee\n- Water\n",
            to: joinPath(content, "checklists/check-one.md"))
        for (path, text) in DefaultTemplates.files.sorted(by: { $0.key < $1.key }) {
            try write(text, to: joinPath(joinPath(directory, "templates"), path))
        }
    }
}
