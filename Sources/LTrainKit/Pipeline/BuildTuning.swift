import CLTrainSystem
import LTrainSupport
import LTrainMustache
import LTrainMarkdown
import LTrainLoad
import LTrainModel
import LTrainRoute
import LTrainRender
import LTrainCheck
import LTrainWrite
import LTrainScaffold
import LTrainTemplates
import LTrainPNG

/// Process-wide settings that make builds faster.
public enum BuildTuning {
    /// A build allocates and frees many short-lived buffers (cmark's nodes, page HTML) from several
    /// threads. Freed memory is kept in the process instead of being trimmed back to the system
    /// on every free, and the heap grows in larger steps (figure in docs/benchmarks.md,
    /// "Optimisations"). The C library's malloc serves the debug and sanitizer builds; the release
    /// binary allocates with mimalloc instead (Package.swift), told to keep freed memory committed.
    /// Call once, before building.
    public static func tuneAllocator() {
        ltrain_tune_allocator()
    }
}
