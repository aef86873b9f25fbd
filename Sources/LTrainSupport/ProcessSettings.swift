import Foundation

/// The cores this process may use (its CPU affinity and its cgroup's CPU quota, as Foundation
/// works them out), read once: Foundation reads the quota's files again on every call, and a build
/// asks before each of its parallel passes.
package let availableCores = ProcessInfo.processInfo.activeProcessorCount

/// The value of the environment variable `name`, nil when it is not set: one look-up, where
/// Foundation's `ProcessInfo.environment` makes a dictionary of the whole environment each time.
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
