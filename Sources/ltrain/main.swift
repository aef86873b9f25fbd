import Foundation
import LTrainKit
import LTrainBundle
import Synchronization
import LTrainServe
import LTrainSupport

/// The ltrain command line: parses arguments, runs the pipeline, prints what happened, and exits
/// 0 on success, 1 when the site has problems, 2 when the command itself is wrong.
enum Command {
    static let version = "ltrain \(ltrainVersion)"

    static let usage = """
        ltrain builds a site of stations, info pages and checklists from Markdown.

        Usage:
          ltrain build [--content DIR] [--templates DIR] [--output DIR] [--base-url URL] [--drafts]
                       [--force] [--jobs N] [--quiet | --verbose]
          ltrain serve [--content DIR] [--templates DIR] [--port 8000] [--host 127.0.0.1] [--open] [--drafts]
          ltrain check [DIR | --output DIR] [--verbose]
          ltrain bundle [--content DIR] [--templates DIR] [--output FILE]
          ltrain new station TITLE [--after STATION] [--content DIR]
          ltrain new checklist TITLE [--choose one|many] [--content DIR]
          ltrain init DIR
          ltrain help [COMMAND | templates | labels] | --help | --version

        Commands:
          build   build the site into a folder (default: _site)
          serve   preview the site with live reload
          check   check every link of a built site
          bundle  write the whole site as one HTML file, to read offline anywhere
          new     write a new station or checklist file
          init    write a starter site into a new folder

        'ltrain help COMMAND' or 'ltrain COMMAND --help' prints a command's options. Options take
        their value as '--output DIR' or '--output=DIR'; -o, -c, -t, -p, -q and -v are short for
        --output, --content, --templates, --port, --quiet and --verbose. Every command finds the
        site from any folder inside it.
        """

    /// One command's own help: `ltrain help build` and `ltrain build --help` print it.
    struct Help {
        let name: String
        let text: String
    }

    static let commands: [Help] = [
        Help(name: "build", text: """
            ltrain build: builds the site into a folder, atomically (a failed build leaves it as it was).

            Usage: ltrain build [--content DIR] [--templates DIR] [--output DIR] [--base-url URL] [--drafts]
                                [--force] [--jobs N] [--quiet | --verbose]

              -c, --content DIR     the site's Markdown (default: content)
              -t, --templates DIR   Mustache templates and theme files over the built-in ones
                                    (default: templates, when that folder exists)
              -o, --output DIR      where the site is written (default: _site)
              --base-url URL        where the site is published: adds sitemap.xml, robots.txt and
                                    canonical links (default: base_url in content/index.md, if any)
              --drafts              include stations and checklists marked draft: true
              --force               replace an output folder that holds files ltrain did not write
              --jobs N              pages rendered at once (default: number of cores)
              -q, --quiet           print only problems
              -v, --verbose         also print phase timings and the external links found
            """),
        Help(name: "serve", text: """
            ltrain serve: previews the site from memory, rebuilding and reloading the page on every save.

            Usage: ltrain serve [--content DIR] [--templates DIR] [--port 8000] [--host 127.0.0.1] [--open] [--drafts]

              -c, --content DIR     the site's Markdown (default: content)
              -t, --templates DIR   Mustache templates and theme files (default: templates, when it exists)
              -p, --port N          the port to listen on; 0 picks a free one (default: 8000)
              --host ADDRESS        the address to listen on (default: 127.0.0.1, this machine only)
              --open                open the site in the default browser
              --drafts              include stations and checklists marked draft: true
            """),
        Help(name: "check", text: """
            ltrain check: checks that every link and fragment in a built site resolves.

            Usage: ltrain check [DIR | --output DIR] [--verbose]

              DIR, -o, --output DIR
                                    the built site (default: _site)
              -v, --verbose         list the external links found (they are counted, never fetched)
            """),
        Help(name: "bundle", text: """
            ltrain bundle: writes the whole site as one self-contained HTML file (pages, style,
            images inlined), which opens from a phone's downloads or a mail attachment, offline.

            Usage: ltrain bundle [--content DIR] [--templates DIR] [--output FILE]

              -c, --content DIR     the site's Markdown (default: content)
              -t, --templates DIR   Mustache templates and theme files (default: templates, when it exists)
              -o, --output FILE     the file to write (default: the site title's slug, e.g. l-train.html,
                                    in the site's folder)
            """),
        Help(name: "new", text: """
            ltrain new: writes a new station or checklist file, from any folder inside the site.

            Usage: ltrain new station TITLE [--after STATION] [--content DIR]
                   ltrain new checklist TITLE [--choose one|many] [--content DIR]

              --after STATION       place the station after this one (its slug or its title) instead of
                                    at the east end
              --choose one|many     a checklist whose readers check one row at most (the default)
                                    or any number of rows; the file's choose: line says which
              -c, --content DIR     the site's Markdown (default: the content/ folder of the site this
                                    folder is in: the nearest folder up that holds content/index.md)
            """),
        Help(name: "init", text: """
            ltrain init: writes a starter site (two stations, a checklist, the default templates).

            Usage: ltrain init DIR
            """),
        Help(name: "help", text: """
            ltrain help: prints the help of ltrain or of one command, or a reference.

            Usage: ltrain help [COMMAND | templates | labels]

              templates         the values each page template receives, as a Markdown table
              labels            the labels (the theme's fixed words), their defaults and where they show
            """),
    ]

    /// The help of one command, by name.
    static func help(of name: String) -> String? {
        commands.first { $0.name == name }?.text
    }

    struct UsageError: Error {
        let message: String
        /// The command whose help the reader should see, if the mistake was in one.
        var command: String?
    }

    /// Terminal colours on standard error, unless NO_COLOR is set or it is not a terminal.
    static let colours = isatty(2) == 1 && (environmentValue("NO_COLOR") ?? "").isEmpty

    /// Writes a line to standard output at once (the preview server's log is read as it happens).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func report(_ diagnostic: Diagnostic) {
        var text = diagnostic.description
        if colours {
            let label = "\(diagnostic.severity.rawValue):"
            let colour = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
            if let range = text.range(of: label) { text.replaceSubrange(range, with: "\(colour)\(label)\u{1B}[0m") }
        }
        standardError(text)
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            if commands.contains(where: { $0.name == command }), rest.contains("--help") || rest.contains("-h") {
                print(help(of: command) ?? usage)
                return 0
            }
            switch command {
            case "--help", "-h":
                print(usage)
                return 0
            case "help":
                return try helpCommand(rest)
            case "--version", "-V":
                print(version)
                return 0
            case "build": return try build(rest)
            case "check": return try check(rest)
            case "bundle": return try bundle(rest)
            case "serve": return try serve(rest)
            case "new": return try new(rest)
            case "init": return try initialise(rest)
            default:
                let known = commands.map(\.name) + ["--help", "--version"]
                let what = command.hasPrefix("-") ? "option" : "command"
                throw UsageError(message: "unknown \(what) '\(command)'\(NearestName.hint(for: command, among: known))")
            }
        } catch {
            // One line saying what is wrong, and where to read more: never the whole help.
            standardError("ltrain: \(error.message)")
            standardError("See 'ltrain \(error.command.map { "\($0) " } ?? "")--help'.")
            return 2
        }
    }

    static func helpCommand(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let name = arguments.first else {
            print(usage)
            return 0
        }
        guard arguments.count == 1 else { throw UsageError(message: "write ltrain help COMMAND", command: "help") }
        // Two topics beside the commands: what templates are given, and the labels.
        switch name {
        case "templates":
            print(TemplateReference.markdown(), terminator: "")
            return 0
        case "labels":
            print(Labels.markdownTable(), terminator: "")
            return 0
        default:
            break
        }
        guard let text = help(of: name) else {
            let hint = NearestName.hint(for: name, among: commands.map(\.name) + ["templates", "labels"])
            throw UsageError(message: "no command is called '\(name)'\(hint)")
        }
        print(text)
        return 0
    }

    /// The options (taking a value) and flags of each command, by their long names.
    static let optionsOf: [String: (options: Set<String>, flags: Set<String>)] = [
        "build": (["--content", "--templates", "--output", "--jobs", "--base-url"], ["--force", "--quiet", "--verbose", "--drafts"]),
        "serve": (["--content", "--templates", "--port", "--host"], ["--open", "--drafts"]),
        "check": (["--output"], ["--verbose"]),
        "bundle": (["--content", "--templates", "--output"], []),
        "new": (["--after", "--content", "--choose"], []),
        "init": ([], []),
    ]

    /// The short options, each the same as its long one.
    static let shortOptions = [
        "-o": "--output", "-c": "--content", "-t": "--templates", "-p": "--port", "-q": "--quiet", "-v": "--verbose",
    ]

    /// Splits options and flags from positional words, for one command, as git and cargo do:
    /// `--option value`, `--option=value`, the short options, and `--` before words that start with '-'.
    struct Arguments {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var words: [String] = []

        init(_ arguments: [String], command: String) throws(UsageError) {
            let (options, allowedFlags) = Command.optionsOf[command] ?? ([], [])
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                if argument == "--" {
                    words += rest
                    break
                }
                guard argument.hasPrefix("-"), argument != "-" else {
                    words.append(argument)
                    continue
                }
                var name = argument
                var attached: String?
                if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    attached = String(argument[argument.index(after: equals)...])
                }
                name = Command.shortOptions[name] ?? name
                if options.contains(name) {
                    if let attached {
                        values[name] = attached
                    } else if let value = rest.popFirst(), !value.hasPrefix("-") || value == "-" {
                        values[name] = value
                    } else {
                        throw UsageError(message: "\(argument) needs a value", command: command)
                    }
                } else if allowedFlags.contains(name) {
                    guard attached == nil else { throw UsageError(message: "\(name) takes no value", command: command) }
                    flags.insert(name)
                } else {
                    throw UsageError(message: Command.unknownOption(argument, name: name, command: command), command: command)
                }
            }
        }
    }

    /// What to say of an option `command` does not have: which commands have it, or the nearest
    /// option it does have.
    static func unknownOption(_ argument: String, name: String, command: String) -> String {
        let owners = optionsOf.filter { $0.value.options.contains(name) || $0.value.flags.contains(name) }.keys.sorted()
        if !owners.isEmpty {
            let list = owners.map { "ltrain \($0)" }.joined(separator: ", ")
            return "'\(argument)' is an option of \(list), not of ltrain \(command)"
        }
        let own = optionsOf[command].map { $0.options.union($0.flags) } ?? []
        let shorts = shortOptions.filter { own.contains($0.value) }.keys
        return "unknown option '\(argument)' for ltrain \(command)\(NearestName.hint(for: name, among: own.union(shorts)))"
    }

    /// The site's root when no --content names the site: the nearest folder up that holds
    /// content/index.md (so every command works from any folder inside a site), else this folder.
    static func siteRoot(_ parsed: Arguments) -> String {
        parsed.values["--content"] == nil ? Scaffold.siteRoot() ?? "" : ""
    }

    /// What a failed command says of its output: left as it was, or nothing written when there was none.
    static func leftAsItWas(_ path: String) -> String {
        FileSystem.kind(of: path) == .missing ? "nothing was written" : "\(path) was left as it was"
    }

    static func failed(_ failure: BuildFailure, what: String, then note: String = "") -> Int32 {
        for diagnostic in failure.diagnostics { report(diagnostic) }
        let errors = failure.errorCount
        standardError("ltrain: \(what) failed with \(errors) error\(errors == 1 ? "" : "s")\(note)")
        return 1
    }

    static func build(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "build")
        guard parsed.words.isEmpty else { throw UsageError(message: "unexpected '\(parsed.words[0])'", command: "build") }
        // Without --templates, the site's templates/ is used if it exists, else the built-in templates.
        let root = siteRoot(parsed)
        var options = BuildOptions(
            contentDirectory: root + "content", templatesDirectory: root + "templates", outputDirectory: root + "_site",
            templatesRequired: false)
        if let content = parsed.values["--content"] { options.contentDirectory = content }
        if let templates = parsed.values["--templates"] {
            options.templatesDirectory = templates
            options.templatesRequired = true
        }
        if let output = parsed.values["--output"] { options.outputDirectory = output }
        if let jobs = parsed.values["--jobs"] {
            guard let count = Int(jobs), count > 0 else { throw UsageError(message: "--jobs needs a whole number above 0", command: "build") }
            options.jobs = count
        }
        options.baseURL = parsed.values["--base-url"]
        options.force = parsed.flags.contains("--force")
        options.includeDrafts = parsed.flags.contains("--drafts")
        let quiet = parsed.flags.contains("--quiet")
        let verbose = parsed.flags.contains("--verbose")
        if verbose {
            options.reportsTimings = true
            options.listsExternalLinks = true
        }
        let bar = ProgressBar(enabled: !quiet && isatty(1) == 1)
        options.progress = { done, total in bar.update(done, total) }
        do {
            // The process exits right after the build: its memory goes back in one piece.
            options.releasesMemory = false
            let report = try SiteBuild.run(options)
            bar.finish()
            for warning in report.warnings { self.report(warning) }
            if verbose {
                for link in report.externalLinks { print("external link (not fetched): \(Diagnostic.printable(link))") }
            }
            if !quiet { print(summary(report, output: options.outputDirectory)) }
            return 0
        } catch {
            bar.finish()
            return failed(error, what: "build", then: "; \(leftAsItWas(options.outputDirectory))")
        }
    }

    static func serve(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "serve")
        guard parsed.words.isEmpty else { throw UsageError(message: "unexpected '\(parsed.words[0])'", command: "serve") }
        var options = ServeOptions()
        let root = siteRoot(parsed)
        options.contentDirectory = root + "content"
        options.templatesDirectory = root + "templates"
        if let content = parsed.values["--content"] { options.contentDirectory = content }
        if let templates = parsed.values["--templates"] {
            options.templatesDirectory = templates
            options.templatesRequired = true
        }
        options.includeDrafts = parsed.flags.contains("--drafts")
        let host = parsed.values["--host"] ?? "127.0.0.1"
        guard let port = Int(parsed.values["--port"] ?? "8000"), (0...65535).contains(port) else {
            throw UsageError(message: "--port needs a number from 0 to 65535", command: "serve")
        }
        // Ctrl-C and SIGTERM are blocked in every thread from here on (threads inherit the mask),
        // and the main thread waits for them with sigwait: a signal that comes at any moment
        // stays pending until it is taken, never ignored or lost.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let session = PreviewSession(options: options)
        let first = session.rebuild()
        for warning in first.warnings { report(warning) }
        for problem in first.problems { report(problem) }
        let server: HTTPServer
        let watcher: FileWatcher
        do throws(Diagnostic) {
            server = try HTTPServer(host: host, port: port) { method, path, ifNoneMatch in
                session.answer(method: method, path: path, ifNoneMatch: ifNoneMatch)
            }
            watcher = try FileWatcher(folders: [options.contentDirectory, options.templatesDirectory])
        } catch {
            report(error)
            return 1
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let url = "http://\(shownHost):\(server.port)/"
        say("Serving \(options.contentDirectory)/ on \(url) (live reload on; Ctrl-C stops)")
        if first.problems.isEmpty { say("Built in \(Int(first.milliseconds.rounded())) ms") }
        watcher.start { paths in
            let outcome = session.rebuild(changed: paths)
            // Warnings of what the change touched (Markdown notices are looked for in the changed files only).
            for warning in outcome.warnings { report(warning) }
            if outcome.problems.isEmpty {
                say("Rebuilt in \(String(format: "%.1f", outcome.milliseconds)) ms: \(plural(outcome.renderedPages, "page")) rendered, \(plural(outcome.changedFiles, "file")) changed")
            } else {
                for problem in outcome.problems { report(problem) }
                say("Build failed; still serving the last good version")
            }
            }
        if parsed.flags.contains("--open") {
            let opener = ["/usr/bin/xdg-open", "/usr/bin/open"].first { FileManager.default.isExecutableFile(atPath: $0) }
            if let opener {
                _ = try? Process.run(URL(fileURLWithPath: opener), arguments: [url])
            } else {
                standardError("ltrain: no browser opener (xdg-open) found; open \(url) yourself")
            }
        }
        // Ctrl-C and SIGTERM: end the event streams, stop watching, close the port, exit.
        var received: Int32 = 0
        while sigwait(&stopSignals, &received) != 0 {}
        watcher.stop()
        session.hub.close()
        server.stop()
        say("Stopped")
        return 0
    }

    static func check(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "check")
        // The folder as a word (`ltrain check _site`) or with --output, as build names it.
        guard parsed.words.count <= 1 else { throw UsageError(message: "unexpected '\(parsed.words[1])'", command: "check") }
        if let word = parsed.words.first, let option = parsed.values["--output"], word != option {
            throw UsageError(message: "name the folder once: '\(word)' or --output \(option)", command: "check")
        }
        let folder = parsed.words.first ?? parsed.values["--output"] ?? (siteRoot(parsed) + "_site")
        let verbose = parsed.flags.contains("--verbose")
        let (diagnostics, external) = LinkChecker.checkFolder(folder)
        if verbose {
            for link in external { print("external link (not fetched): \(Diagnostic.printable(link))") }
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            return failed(BuildFailure(diagnostics), what: "check of \(folder)")
        }
        print("Checked \(folder)/: every link resolves (\(external.count) external link\(external.count == 1 ? "" : "s") found, not fetched)")
        return 0
    }

    static func bundle(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "bundle")
        guard parsed.words.isEmpty else { throw UsageError(message: "unexpected '\(parsed.words[0])'", command: "bundle") }
        let root = siteRoot(parsed)
        let templates = parsed.values["--templates"] ?? root + "templates"
        do {
            let report = try SiteBundle.write(
                content: parsed.values["--content"] ?? root + "content", templates: templates,
                templatesRequired: parsed.values["--templates"] != nil, output: parsed.values["--output"], folder: root)
            for warning in report.warnings { self.report(warning) }
            let size = ByteCountFormatter.string(fromByteCount: Int64(report.bytes), countStyle: .file)
            print(
                "Bundled \(plural(report.stationCount, "station")), \(plural(report.infoPageCount, "info page")), "
                    + "\(plural(report.checklistCount, "checklist")) in \(Int((report.seconds * 1000).rounded())) ms → \(report.path) (\(size))")
            return 0
        } catch {
            return failed(error, what: "bundle", then: "; \(parsed.values["--output"].map(leftAsItWas) ?? "nothing was written")")
        }
    }

    static func new(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "new")
        guard parsed.words.count == 2 else {
            throw UsageError(message: "write ltrain new station \"Title\" or ltrain new checklist \"Title\"", command: "new")
        }
        // Without --content, the site this folder is in: new works from any folder inside it.
        guard let content = parsed.values["--content"] ?? Scaffold.contentFolder() else {
            standardError(
                Diagnostic.error(
                    "not inside an ltrain site: no content/index.md here or in any folder above",
                    hint: "run it inside a site, name one with --content DIR, or start one with ltrain init DIR"
                ).description)
            return 1
        }
        let title = parsed.words[1]
        do {
            switch parsed.words[0] {
            case "station":
                guard parsed.values["--choose"] == nil else { throw UsageError(message: "--choose is for checklists", command: "new") }
                let (path, placement) = try Scaffold.newStation(title: title, after: parsed.values["--after"], content: content)
                print("Created \(path) \(placement)")
            case "checklist":
                guard parsed.values["--after"] == nil else { throw UsageError(message: "--after is for stations", command: "new") }
                var choose = Checklist.Choice.one
                if let written = parsed.values["--choose"] {
                    guard let choice = Checklist.Choice(rawValue: written) else {
                        throw UsageError(message: "--choose takes 'one' or 'many', not '\(written)'", command: "new")
                    }
                    choose = choice
                }
                print("Created \(try Scaffold.newChecklist(title: title, choose: choose, content: content))")
            default:
                throw UsageError(message: "ltrain new makes a 'station' or a 'checklist', not '\(parsed.words[0])'", command: "new")
            }
        } catch let error as BuildFailure {
            return failed(error, what: "new")
        } catch let error as UsageError {
            throw error
        } catch {
            standardError("ltrain: \(error)")
            return 1
        }
        return 0
    }

    static func initialise(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, command: "init")
        guard parsed.words.count == 1 else {
            throw UsageError(
                message: parsed.words.isEmpty ? "name the folder to create\nUsage: ltrain init DIR" : "unexpected '\(parsed.words[1])'\nUsage: ltrain init DIR",
                command: "init")
        }
        do {
            try Scaffold.initSite(at: parsed.words[0])
        } catch {
            return failed(error, what: "init")
        }
        print("Created a starter site in \(parsed.words[0])/. Build it with: cd \(parsed.words[0]) && ltrain build")
        return 0
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    static func summary(_ report: BuildReport, output: String) -> String {
        let milliseconds = Int((report.seconds * 1000).rounded())
        return "Built \(plural(report.stationCount, "station")), \(plural(report.infoPageCount, "info page")), "
            + "\(plural(report.checklistCount, "checklist")) in \(milliseconds) ms → \(output)/ "
            + "(\(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed)"
    }
}

/// A one-line progress bar on a terminal, shown only once a build has run for about a second
/// (LTRAIN_PROGRESS_AFTER_MS changes that, for tests), redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: UInt64 = 0
        var shown = false
    }

    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private let delay: UInt64
    private let state = Mutex(State())

    init(enabled: Bool) {
        self.enabled = enabled
        let milliseconds = environmentValue("LTRAIN_PROGRESS_AFTER_MS").flatMap(UInt64.init) ?? 1000
        delay = milliseconds * 1_000_000
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - start >= delay else { return }
        state.withLock { state in
            guard state.lastDraw == 0 || now - state.lastDraw >= 100_000_000 || done == total else { return }
            state.lastDraw = now
            state.shown = true
            let width = 30
            let filled = total == 0 ? width : width * done / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardOutput.write(Data("\r\(bar) \(done)/\(total) pages".utf8))
        }
    }

    func finish() {
        state.withLock { state in
            if state.shown { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
            state.shown = false
        }
    }
}

// A build allocates and frees many short-lived buffers from several threads: see BuildTuning.
BuildTuning.tuneAllocator()
// A write past the file size limit (`ulimit -f`) fails with EFBIG and is reported like a full
// disk, instead of the signal ending the process with a temporary file left behind.
signal(SIGXFSZ, SIG_IGN)

exit(Command.run(Array(CommandLine.arguments.dropFirst())))
