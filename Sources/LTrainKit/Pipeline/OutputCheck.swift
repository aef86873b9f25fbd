import LTrainSupport
import LTrainCheck
import LTrainWrite
import LTrainLoad
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainScaffold
import LTrainTemplates
import LTrainPNG
import LTrainMustache
import LTrainMarkdown

extension LinkChecker {
    /// `ltrain check`: every link of every page of an output folder ltrain wrote, without
    /// rebuilding. Its manifest says it is ltrain's and which base URL it was built for.
    public static func checkFolder(_ folder: String) -> (diagnostics: [Diagnostic], external: [String]) {
        guard FileSystem.kind(of: folder, followingLinks: true) == .directory else {
            return ([.error("the folder to check does not exist", path: folder, hint: "build the site first, or name it with --output DIR")], [])
        }
        // A folder ltrain did not write (content/, another tool's output) would pass with nothing checked.
        guard FileSystem.kind(of: joinPath(folder, Manifest.fileName), followingLinks: true) == .file else {
            return (
                [
                    .error(
                        "this folder holds no site built by ltrain (it has no \(Manifest.fileName))", path: folder,
                        hint: "name the folder ltrain build wrote (by default _site), or build the site first")
                ], []
            )
        }
        let files = FileSystem.filesBelow(folder).filter { $0 != Manifest.fileName }
        let siteURL = (try? FileSystem.read(joinPath(folder, Manifest.fileName), limit: 1_048_576))
            .flatMap { Manifest.siteURL(inHead: $0) }
        return checkFolder(folder, files: files, siteURL: siteURL)
    }
}
