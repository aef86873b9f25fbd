import Foundation
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainRoute
import LTrainModel
import LTrainLoad
import LTrainTemplates
import LTrainPNG

/// What makes a built site work offline once a reader has opened any page of it over http(s):
/// a web app manifest (installable), icons, the theme's service worker (`sw.js`), and the list
/// of every file to keep, each with its content hash (`offline-files.js`, which the worker
/// imports: a redeploy changes exactly the entries whose bytes changed, and so the worker).
public enum OfflineSite {
    /// The theme's service worker, as every page names it (`files.sw_js`) and the site keeps it at its root.
    public static let workerPath = "sw.js"

    /// The theme's colours (the default theme's bar and background).
    static let themeColour = "#f9f9f9"
    static let backgroundColour = "#ffffff"

    /// The web app manifest: every URL relative to the manifest, which sits at the site's root,
    /// so the site installs under any sub-path.
    static func webManifest(for site: Site, files: Set<String>) -> String {
        var icons: [[String: String]] = []
        if let icon = site.authorIcon {
            if icon.outputPath.hasSuffix(".svg") {
                icons.append(["src": icon.outputPath, "sizes": "any", "type": "image/svg+xml", "purpose": "any"])
            } else {
                let size = icon.pixelSize.map { "\($0.width)x\($0.height)" } ?? "any"
                icons.append(["src": icon.outputPath, "sizes": size, "type": "image/png", "purpose": "any"])
            }
        } else {
            for icon in AppIcon.files where icon.path.hasPrefix("icons/icon-") {
                icons.append(["src": icon.path, "sizes": "\(icon.size)x\(icon.size)", "type": "image/png", "purpose": "any maskable"])
            }
        }
        let shortName = site.title.count <= 12 ? site.title : String(site.title.prefix(11)) + "…"
        var manifest = "{\n"
        manifest += "  \"name\": \(JSONText.quoted(site.title)),\n"
        manifest += "  \"short_name\": \(JSONText.quoted(shortName)),\n"
        manifest += "  \"lang\": \(JSONText.quoted(site.language)),\n"
        manifest += "  \"start_url\": \"index.html\",\n"
        manifest += "  \"scope\": \"./\",\n"
        manifest += "  \"display\": \"standalone\",\n"
        manifest += "  \"theme_color\": \"\(themeColour)\",\n"
        manifest += "  \"background_color\": \"\(backgroundColour)\",\n"
        manifest += "  \"icons\": [\n"
        manifest += icons.map { icon in
            "    {" + ["src", "sizes", "type", "purpose"].compactMap { key in icon[key].map { "\"\(key)\": \(JSONText.quoted($0))" } }
                .joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        manifest += "\n  ]\n}\n"
        return manifest
    }

    /// Files the worker keeps, of `paths`: every file of the guide but the worker's own, the
    /// search-engine files and `static/` files for the host (`CNAME`, `.well-known/…`), in order.
    package static func keptOffline(_ paths: [String], site: Site) -> [String] {
        var notKept = Set(site.rootFiles.map(\.outputPath))
        notKept.formUnion([workerPath, Routes.offlineListPath, "sitemap.xml", "robots.txt"])
        return paths.filter { !notKept.contains($0) }
    }

    /// `offline-files.js`: the version (a hash of the whole list) and each file with its hash.
    package static func list(_ files: [(path: String, hash: ContentHash)]) -> [UInt8] {
        var hasher = ContentHasher()
        for file in files {
            hasher.add(file.path)
            hasher.add(file.hash)
        }
        var text = Array("// Written by ltrain build: every file of the site, with its content hash, for sw.js.\n".utf8)
        text += "self.ltrainOffline = {\n  \"version\": \"\(hasher.hash)\",\n  \"files\": [\n".utf8
        // Each entry is a URL relative to the site's root, percent-encoded once as every link ltrain
        // writes is: a file named 'a b#c?.png' is fetched as itself, not cut at its '#'.
        // A line for each file of the site, made on every core: the build waits for them.
        let runs = concurrentRuns(files.count) { run -> [UInt8] in
            var lines: [UInt8] = []
            lines.reserveCapacity(run.count * 80)
            for position in run {
                if position > run.lowerBound { lines += ",\n".utf8 }
                lines += "    [".utf8
                JSONText.appendQuoted(SiteFileName.url(of: files[position].path), to: &lines)
                lines += ", \"".utf8
                files[position].hash.appendHex(to: &lines)
                lines += "\"]".utf8
            }
            return lines
        }
        for (number, lines) in runs.enumerated() {
            if number > 0 { text += ",\n".utf8 }
            text += lines
        }
        text += "\n  ]\n};\n".utf8
        return text
    }
}
