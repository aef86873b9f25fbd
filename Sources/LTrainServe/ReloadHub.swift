import Foundation
import LTrainKit
import LTrainSupport
import LTrainMustache

/// Live-reload events for the open pages, as Server-Sent Events. Each stream waits for the next
/// event; a new stream is told at once about a problem that is still there.
public final class ReloadHub: @unchecked Sendable {
    // Every stored property below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var generation = 0
    private var latest = ""
    private var problem: String?
    private var closed = false
    private var openStreams = 0

    public init() {}

    /// `event: reload`: the new site is complete; open pages reload.
    public func reload(summary: String) {
        publish(Self.event("reload", data: summary), problem: nil)
    }

    /// `event: problem`: the last build failed; open pages show the messages until it is fixed.
    public func problem(_ messages: [String]) {
        let json = "{\"messages\":[" + messages.map(JSONText.quoted).joined(separator: ",") + "]}"
        let event = Self.event("problem", data: json)
        publish(event, problem: event)
    }

    private func publish(_ event: String, problem: String?) {
        condition.lock()
        generation += 1
        latest = event
        self.problem = problem
        condition.broadcast()
        condition.unlock()
    }

    /// How many events were published so far.
    var eventCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Ends every stream (on shutdown).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    public var streamCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openStreams
    }

    /// One client's stream: the text to send next, blocking until there is some. nil ends it.
    public final class Stream: @unchecked Sendable {
        private let hub: ReloadHub
        // Touched only by the one thread serving this connection.
        private var seen: Int
        private var pending: [UInt8]

        init(hub: ReloadHub) {
            self.hub = hub
            hub.condition.lock()
            seen = hub.generation
            var opening = "retry: 500\n\n"
            if let problem = hub.problem { opening += problem }
            pending = Array(opening.utf8)
            hub.openStreams += 1
            hub.condition.unlock()
        }

        deinit {
            hub.condition.lock()
            hub.openStreams -= 1
            hub.condition.unlock()
        }

        /// Fills `buffer` with up to `capacity` bytes: pending text, the next event, or a keep-alive
        /// comment after 15 s of quiet. Returns nil when the hub is closed.
        func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int? {
            if pending.isEmpty {
                hub.condition.lock()
                let deadline = Date(timeIntervalSinceNow: 15)
                while hub.generation == seen && !hub.closed {
                    if !hub.condition.wait(until: deadline) { break }
                }
                if hub.closed {
                    hub.condition.unlock()
                    return nil
                }
                if hub.generation != seen {
                    seen = hub.generation
                    pending = Array(hub.latest.utf8)
                } else {
                    pending = Array(": keep-alive\n\n".utf8)
                }
                hub.condition.unlock()
            }
            let count = min(capacity, pending.count)
            pending.withUnsafeBytes { raw in
                // `count` is at most both the pending bytes and the buffer's capacity.
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: count)
            }
            pending.removeFirst(count)
            return count
        }
    }

    public func stream() -> Stream { Stream(hub: self) }

    static func event(_ name: String, data: String) -> String {
        "event: \(name)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }
}
