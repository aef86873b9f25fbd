import Dispatch
import Foundation
import Synchronization

/// `(0..<count).map(transform)` on every core: workers take the next index from a shared counter
/// (so uneven items stay balanced), and each result is stored straight into its place in the
/// result, so the outcome does not depend on the scheduling and nothing is copied afterwards.
package func concurrentMap<Element: Sendable>(
    _ count: Int, workers: Int = availableCores,
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
    _ count: Int, workers: Int = availableCores,
    _ transform: @Sendable (Range<Int>) -> Element
) -> [Element] {
    // As even as the workers allow, and none empty (none at all for no items).
    let length = max(1, (count + max(1, workers) - 1) / max(1, workers))
    let runs = (count + length - 1) / length
    return concurrentMap(runs, workers: runs) { run in
        transform(min(count, run * length)..<min(count, (run + 1) * length))
    }
}

/// Hands out `0..<count` as consecutive runs to workers that take them as they become free: each
/// run a share of what is left (`1 / (workers × 4)` of it, at most `maximum`), so runs are long
/// while much is left, for less contention, and one item long at the end, so the workers finish
/// together (fixed runs left one core idle for up to a run's length at the end of a build).
package struct GuidedRuns: ~Copyable, Sendable {
    private let next = Atomic<Int>(0)
    package let count: Int
    private let share: Int
    private let maximum: Int

    package init(count: Int, workers: Int, maximum: Int) {
        self.count = count
        self.share = max(1, workers) * 4
        self.maximum = max(1, maximum)
    }

    /// The size of the run that starts at `start`.
    private func length(from start: Int) -> Int {
        max(1, min(maximum, (count - start) / share))
    }

    /// The next run, or nil when every index has been handed out.
    package func take() -> Range<Int>? {
        var start = next.load(ordering: .relaxed)
        while start < count {
            let end = start + length(from: start)
            let (exchanged, found) = next.compareExchange(expected: start, desired: end, ordering: .relaxed)
            if exchanged { return start..<end }
            start = found
        }
        return nil
    }
}
