import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import LTrainKit
import LTrainSupport
import LTrainMustache

/// What the preview server answers to one request.
public enum HTTPAnswer: Sendable {
    case file(status: Int, bytes: [UInt8], contentType: String, etag: String?)
    case notModified(etag: String)
    case redirect(location: String)
    case eventStream(ReloadHub.Stream)
    case plain(status: Int, text: String)
    /// 405, with the methods that are served (`Allow`).
    case methodNotAllowed(allowed: String)
}

/// The one place that talks to GNU libmicrohttpd: a thread per connection (so an event stream
/// may wait), bound to a socket ltrain opens itself on the address asked for. Connections are
/// watched with poll(), not select(), so descriptors above 1,024 work; the process may open as
/// many files as its hard limit allows, and idle connections are closed after
/// `idleTimeoutSeconds`, so a crowd of idle connections cannot lock the preview out.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (_ method: String, _ path: String, _ ifNoneMatch: String?) -> HTTPAnswer

    // Set once in init and only read afterwards; the daemon is stopped once, from `stop()`.
    private var daemon: OpaquePointer?
    private let handler: Handler
    public let port: Int
    public let host: String
    /// Connections quiet for this long are closed (event streams send a keep-alive every 15 s).
    public static let idleTimeoutSeconds: UInt32 = 20
    /// The most connections served at once, each with a thread of its own.
    public static let maximumConnections = 4_096

    /// Listens on `host:port` (port 0 picks a free one; `port` then tells which).
    public init(host: String, port: Int, handler: @escaping Handler) throws(Diagnostic) {
        if let reason = ltrain_mhd_load() { throw Self.cannotLoad(String(cString: reason)) }
        self.handler = handler
        self.host = host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            throw Diagnostic.error(
                "cannot listen on '\(host)': not a numeric IP address", hint: "use --host 127.0.0.1 or --host ::1")
        }
        defer { freeaddrinfo(found) }
        let socketFD = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw Diagnostic.error("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socketFD, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0, listen(socketFD, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw Diagnostic.error(
                "cannot listen on \(host) port \(port): \(reason)", hint: "choose another port with --port N (0 picks a free one)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        var actualPort = port
        if bound == 0 {
            let family = storage.ss_family
            actualPort = withUnsafePointer(to: &storage) { pointer -> Int in
                if family == sa_family_t(AF_INET6) {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        }
        self.port = actualPort
        let flags = UInt32(
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Each connection needs a descriptor; keep some for the watcher and the files a rebuild reads.
        let connectionLimit = min(Self.maximumConnections, max(16, Self.raiseOpenFileLimit() - 64))
        let options: [CVarArg] = [
            Int32(MHD_OPTION.LISTEN_SOCKET.rawValue), socketFD,
            Int32(MHD_OPTION.CONNECTION_TIMEOUT.rawValue), Self.idleTimeoutSeconds,
            Int32(MHD_OPTION.CONNECTION_LIMIT.rawValue), UInt32(connectionLimit),
            // The path is given to `answer` as it came, %-escapes and all: libmicrohttpd's own
            // decoding ends the path at a %00, so /index.html%00.txt would be served as /index.html.
            // A C function pointer goes through the variadic list as a plain pointer; its context is NULL.
            Int32(MHD_OPTION.UNESCAPE_CALLBACK.rawValue), unsafeBitCast(HTTPServer.keepEscapes, to: OpaquePointer.self),
            Int(0),
            Int32(MHD_OPTION.URI_LOG_CALLBACK.rawValue), unsafeBitCast(HTTPServer.dropQuery, to: OpaquePointer.self),
            Int(0),
            Int32(MHD_OPTION.END.rawValue),
        ]
        daemon = withVaList(options) { arguments in
            ltrain_MHD_start_daemon_va(flags, 0, nil, nil, HTTPServer.answer, context, arguments)
        }
        guard daemon != nil else {
            close(socketFD)
            throw Diagnostic.error("libmicrohttpd could not start on \(host) port \(actualPort)")
        }
    }

    /// Stops accepting, ends every connection and frees the port. Streams must have been told to end.
    public func stop() {
        if let daemon {
            ltrain_MHD_stop_daemon(daemon)
            self.daemon = nil
        }
    }

    deinit { stop() }

    /// The error when libmicrohttpd cannot be loaded (it is loaded when a server starts, not with
    /// the program); `reason` is the dynamic loader's.
    static func cannotLoad(_ reason: String) -> Diagnostic {
        .error(
            "ltrain serve needs GNU libmicrohttpd, which could not be loaded: \(reason)",
            hint: "install it (on Debian: sudo apt-get install libmicrohttpd12), or build with ltrain build and serve the folder with any static server")
    }

    /// Whether the library `name` would load as libmicrohttpd does: nil, or the error serve would give.
    static func loadProblem(of name: String) -> Diagnostic? {
        ltrain_mhd_probe(name).map { cannotLoad(String(cString: $0)) }
    }

    /// Raises the soft limit on open files to the hard limit; returns the soft limit now in force.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    // MARK: libmicrohttpd callbacks

    /// Leaves the URL as it came (returns its length unchanged): `answer` decodes it.
    private static let keepEscapes:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
        guard let text else { return 0 }
        return strlen(text)
    }

    /// Ends the request's URI at its query, before libmicrohttpd parses it: the preview serves
    /// files and reads no query, and libmicrohttpd, parsing each parameter into the connection's
    /// small memory pool, closes the connection with no reply once a few hundred of them fill it.
    /// The URI is the connection's own read buffer, which libmicrohttpd hands over writable and
    /// reads again only after this call (its `?` search then finds none).
    private static let dropQuery:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            _, uri, _ in
            guard let uri else { return nil }
            let text = UnsafeMutablePointer(mutating: uri)
            var index = 0
            var query = false
            while text[index] != 0 {
                if text[index] == CChar(UInt8(ascii: "?")) { query = true }
                if query { text[index] = 0 }
                index += 1
            }
            return nil
        }

    private static let answer: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
        guard let context, let connection else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let raw = url.map { String(cString: $0) } ?? "/"
        // Malformed escapes and bytes that are not UTF-8 make no path; a decoded NUL stays in the
        // path, for the handler to refuse.
        guard let path = SitePath.percentDecoded(raw) else {
            return server.queue(.plain(status: 400, text: "Bad path.\n"), on: connection)
        }
        let verb = method.map { String(cString: $0) } ?? "GET"
        let ifNoneMatch = ltrain_MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "If-None-Match").map {
            String(cString: $0)
        }
        let reply = server.handler(verb, path, ifNoneMatch)
        return server.queue(reply, on: connection)
    }

    private static let readEvents: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return -1 }
        let stream = Unmanaged<ReloadHub.Stream>.fromOpaque(context).takeUnretainedValue()
        // -1 is MHD_CONTENT_READER_END_OF_STREAM.
        guard let count = stream.read(into: buffer, capacity: capacity) else { return -1 }
        return count
    }

    private static let freeStream: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<ReloadHub.Stream>.fromOpaque(context).release()
    }

    /// A response whose body libmicrohttpd copies, so the bytes need not outlive the call.
    private static func copiedResponse(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBytes { raw in
            ltrain_MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    }

    private func queue(_ answer: HTTPAnswer, on connection: OpaquePointer) -> MHD_Result {
        var response: OpaquePointer?
        var status: UInt32 = 200
        var headers: [(String, String)] = [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]
        switch answer {
        case .file(let code, let bytes, let contentType, let etag):
            status = UInt32(code)
            response = Self.copiedResponse(bytes)
            headers.append(("Content-Type", contentType))
            if let etag { headers.append(("ETag", etag)) }
        case .notModified(let etag):
            status = 304
            response = ltrain_MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
            headers.append(("ETag", etag))
        case .redirect(let location):
            status = 301
            response = ltrain_MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
            headers.append(("Location", location))
        case .plain(let code, let text):
            status = UInt32(code)
            response = Self.copiedResponse(Array(text.utf8))
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
        case .methodNotAllowed(let allowed):
            status = 405
            response = Self.copiedResponse(Array("Only \(allowed) are served.\n".utf8))
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
            headers.append(("Allow", allowed))
        case .eventStream(let stream):
            let context = Unmanaged.passRetained(stream).toOpaque()
            response = ltrain_MHD_create_response_from_callback(UInt64.max, 1024, HTTPServer.readEvents, context, HTTPServer.freeStream)
            headers.append(("Content-Type", "text/event-stream"))
        }
        guard let response else { return MHD_Result.NO }
        for (name, value) in headers { ltrain_MHD_add_response_header(response, name, value) }
        let result = ltrain_MHD_queue_response(connection, status, response)
        ltrain_MHD_destroy_response(response)
        return result
    }
}
