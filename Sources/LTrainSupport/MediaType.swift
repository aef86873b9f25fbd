/// The media type of a file by its name's extension, as `ltrain serve` sends it and `ltrain
/// bundle` writes it into data: URLs.
package enum MediaType {
    package static func of(_ path: String) -> String {
        let types = [
            "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
            "json": "application/json", "webmanifest": "application/manifest+json", "xml": "application/xml", "txt": "text/plain; charset=utf-8",
            "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
            "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
            "woff": "font/woff", "woff2": "font/woff2", "pdf": "application/pdf", "md": "text/markdown; charset=utf-8",
        ]
        let suffix = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return types[suffix] ?? "application/octet-stream"
    }
}
