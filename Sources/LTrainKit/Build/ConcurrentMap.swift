import Dispatch
import Foundation
import Synchronization

/// `(0..<count).map(transform)` on every core: workers take the next index from a shared counter
/// (so uneven items stay balanced), and each result lands at its index, so the outcome does not
/// depend on the scheduling.
func concurrentMap<Element: Sendable>(
    _ count: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ transform: @Sendable (Int) -> Element
) -> [Element] {
    guard count > 0 else { return [] }
    let results = Mutex([Element?](repeating: nil, count: count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
        // Each worker keeps its results and stores them under the lock once, at the end.
        var done: [(Int, Element)] = []
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { break }
            done.append((index, transform(index)))
        }
        results.withLock { results in
            for (index, element) in done { results[index] = element }
        }
    }
    // Every index below `count` was taken by exactly one worker and stored before the workers ended.
    return results.withLock { $0.map { $0! } }
}
