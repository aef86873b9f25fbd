import LTrainSupport
import LTrainLoad
import LTrainMarkdown

/// Which paths ltrain may replace: the other half of the rule `SiteFileName` begins.
///
/// - Never a source: not a path that is, holds or lies inside the content or templates folder,
///   whatever path names it (both are compared resolved through symbolic links).
/// - A build (`OutputFolder`) replaces only a folder, or a path where nothing is yet; never a
///   symbolic link, never `/` or the home folder, and only a folder every file of which ltrain
///   wrote (its `.ltrain-manifest` lists them), unless `--force`.
/// - A bundle (`BundleWriter`) replaces only a regular file, or a path where nothing is yet; a
///   symbolic link is replaced itself (its target is never touched); never a folder, a device,
///   a FIFO or a socket, checked again just before its rename.
/// - Both write beside the path first and rename into place, so a failure leaves it as it was.
package enum ReplaceRule {
    /// How the canonical path `resolved` stands to the first source folder it may not touch
    /// ("is", "holds" or "is inside"), or nil when it is clear of them all.
    package static func clash(of resolved: String, with sources: [String]) -> (source: String, relation: String)? {
        for source in sources {
            guard let real = FileSystem.realPath(source) else { continue }
            if real == resolved { return (source, "is") }
            if FileSystem.isInside(real, resolved) { return (source, "holds") }
            if FileSystem.isInside(resolved, real) { return (source, "is inside") }
        }
        return nil
    }
}
