import Dispatch
import Foundation
import Synchronization

/// `(0..<count).map(transform)` on every core: workers take the next index from a shared counter
/// (so uneven items stay balanced), and each result is stored straight into its place in the
/// result, so the outcome does not depend on the scheduling and nothing is copied afterwards.
package func concurrentMap<Element: Sendable>(
    _ count: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ transform: @Sendable (Int) -> Element
) -> [Element] {
    guard count > 0 else { return [] }
    let next = Atomic<Int>(0)
    return [Element](unsafeUninitializedCapacity: count) { buffer, initializedCount in
        // Safe to share between the workers: the counter hands every index below `count` to exactly
        // one worker, which initializes that slot and no other; concurrentPerform returns only when
        // every worker is done, so all `count` slots are initialized before the count is set.
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { break }
                slots.initializeElement(at: index, to: transform(index))
            }
        }
        initializedCount = count
    }
}

/// `0..<count` cut into at most one run of consecutive indices a worker, each run transformed on
/// its own core, in order: for items too small to hand out one at a time (the lines of a long
/// listing).
package func concurrentRuns<Element: Sendable>(
    _ count: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ transform: @Sendable (Range<Int>) -> Element
) -> [Element] {
    // As even as the workers allow, and none empty (none at all for no items).
    let length = max(1, (count + max(1, workers) - 1) / max(1, workers))
    let runs = (count + length - 1) / length
    return concurrentMap(runs, workers: runs) { run in
        transform(min(count, run * length)..<min(count, (run + 1) * length))
    }
}
