import Foundation
import LTrainKit

/// The ltrain command line: parses arguments, runs the pipeline, prints what happened, and exits
/// 0 on success, 1 when the site has problems, 2 when the command itself is wrong.
enum Command {
    static let version = "ltrain \(ltrainVersion)"

    static let usage = """
        ltrain builds a site of stations, info pages and checklists from Markdown.

        Usage:
          ltrain build [--content DIR] [--templates DIR] [--output DIR] [--force] [--jobs N] [--quiet]
          ltrain --help | --version

        Options:
          --content DIR     the site's Markdown (default: content)
          --templates DIR   Mustache templates and theme files over the built-in ones
                            (default: templates, when that folder exists)
          --output DIR      where the site is written (default: _site)
          --force           replace an output folder that holds files ltrain did not write
          --jobs N          pages rendered at once (default: number of cores)
          --quiet           print only problems
        """

    struct UsageError: Error {
        let message: String
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 2
        }
        switch command {
        case "--help", "-h", "help":
            print(usage)
            return 0
        case "--version":
            print(version)
            return 0
        case "build":
            do {
                return try build(Array(arguments.dropFirst()))
            } catch {
                standardError("ltrain: \(error.message)\n\n\(usage)")
                return 2
            }
        default:
            standardError("ltrain: unknown command '\(command)'\n\n\(usage)")
            return 2
        }
    }

    static func build(_ arguments: [String]) throws(UsageError) -> Int32 {
        // Without --templates, ./templates is used if it exists, else the built-in templates.
        var options = BuildOptions(templatesRequired: false)
        var quiet = false
        var rest = arguments[...]
        func value(for option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(option) needs a value")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--content": options.contentDirectory = try value(for: argument)
            case "--templates":
                options.templatesDirectory = try value(for: argument)
                options.templatesRequired = true
            case "--output": options.outputDirectory = try value(for: argument)
            case "--force": options.force = true
            case "--drafts": options.includeDrafts = true
            case "--base-url": options.baseURL = try value(for: argument)
            case "--quiet", "-q": quiet = true
            case "--jobs":
                guard let jobs = Int(try value(for: argument)), jobs > 0 else {
                    throw UsageError(message: "--jobs needs a whole number above 0")
                }
                options.jobs = jobs
            case "--help", "-h":
                print(usage)
                return 0
            default:
                throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        do {
            let report = try SiteBuild.run(options)
            for warning in report.warnings { standardError(warning.description) }
            if !quiet { print(summary(report, output: options.outputDirectory)) }
            return 0
        } catch {
            for diagnostic in error.diagnostics { standardError(diagnostic.description) }
            let errors = error.diagnostics.filter { $0.severity == .error }.count
            standardError(
                "ltrain: build failed with \(errors) error\(errors == 1 ? "" : "s"); \(options.outputDirectory) was left as it was")
            return 1
        }
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

// A build allocates and frees many short-lived buffers from several threads: see BuildTuning.
BuildTuning.tuneAllocator()

exit(Command.run(Array(CommandLine.arguments.dropFirst())))
