import Synchronization
import LTrainSupport
import LTrainMarkdown
import LTrainModel

/// What the preview keeps of each Markdown text's render from one version of the site to the
/// next, by the file the text came from: the render (`RenderedMarkdown`: its HTML, links and
/// notices) and its sections for the search index. It is the one part-of-page memory of Markdown.
///
/// - A text's sections depend on the text, the Markdown options and the ids its page's template
///   holds (`key`, see `PageRenderer.markdownKey`) alone, so they outlive any change of layout;
///   an info page rendered in this version, or an earlier one, is not parsed again for the index.
/// - Its render depends on where its links lead as well: a render is used again only when each of
///   its links is rewritten now as it was then (`MarkdownLink.leadsTheSame`). Editing a template
///   then renders no Markdown; moving a station renders again only the texts that link to it.
///
/// A build keeps none: each page is rendered once, and its sections go to its shard. The single
/// file keeps sections alone (`keepsRenders: false`), for the index it makes after its pages:
/// keeping every render would hold each page's HTML until the end as well.
package final class MarkdownMemory: Sendable {
    private struct Entry {
        var text: String
        var key: ContentHash
        var render: Render?
        var sections: [MarkdownSection]?

        /// Whether it was made from `source`'s very text (the same storage compares at once)
        /// with `key`.
        func isMade(from source: MarkdownSource, key: ContentHash) -> Bool {
            self.key == key && text == source.text
        }
    }

    private struct Render {
        var rendered: RenderedMarkdown
        var foundNotices: Bool
    }

    /// Whether whole renders are kept, or the texts' sections alone.
    let keepsRenders: Bool
    private let entries = Mutex([String: Entry]())
    /// How many texts were parsed for the search index alone (their page was not rendered).
    private let parsed = Atomic<Int>(0)
    /// How many renders were used again instead of rendering their text.
    private let reused = Atomic<Int>(0)
    package var textsParsed: Int { parsed.load(ordering: .relaxed) }
    package var rendersReused: Int { reused.load(ordering: .relaxed) }
    /// How many texts it holds something of.
    package var textCount: Int { entries.withLock { $0.count } }

    package init(keepsRenders: Bool) {
        self.keepsRenders = keepsRenders
    }

    /// The render kept for `source`, when it was made from this very text with the same `key`
    /// (`Entry.isMade(from:key:)`), found notices if asked to, cut sections if asked to
    /// (they are then in it), and each of its links leads where `rewriteLink` now takes it.
    func render(
        of source: MarkdownSource, key: ContentHash, options: MarkdownOptions, findsNotices: Bool,
        collectsSections: Bool, rewriteLink: @escaping Markdown.LinkRewriter
    ) -> RenderedMarkdown? {
        guard keepsRenders else { return nil }
        let kept: (Render, [MarkdownSection]?)? = entries.withLock { entries in
            guard let entry = entries[source.contentPath], let render = entry.render, entry.isMade(from: source, key: key)
            else { return nil }
            return (render, entry.sections)
        }
        guard let (render, sections) = kept, render.foundNotices || !findsNotices, sections != nil || !collectsSections,
            render.rendered.links.allSatisfy({ $0.leadsTheSame(options: options, rewriteLink: rewriteLink) })
        else { return nil }
        reused.wrappingAdd(1, ordering: .relaxed)
        var rendered = render.rendered
        rendered.sections = collectsSections ? sections ?? [] : []
        return rendered
    }

    /// Keeps what rendering `source` gave (its sections as well when `collectedSections`).
    func keep(_ rendered: RenderedMarkdown, of source: MarkdownSource, key: ContentHash, foundNotices: Bool, collectedSections: Bool) {
        guard keepsRenders || collectedSections else { return }
        var render: Render?
        if keepsRenders {
            var withoutSections = rendered
            withoutSections.sections = []
            render = Render(rendered: withoutSections, foundNotices: foundNotices)
        }
        let sections = collectedSections ? rendered.sections : nil
        entries.withLock { entries in
            // Sections cut earlier from the same text stay with a render that did not cut them.
            let earlier = entries[source.contentPath].flatMap { $0.isMade(from: source, key: key) ? $0.sections : nil }
            entries[source.contentPath] = Entry(text: source.text, key: key, render: render, sections: sections ?? earlier)
        }
    }

    /// The sections of `source` for the search index: kept, when cut from this very text with the
    /// same `key`, or parsed now (and kept).
    func sections(of source: MarkdownSource, key: ContentHash, options: MarkdownOptions, reservedIDs: Set<String>) -> [MarkdownSection] {
        let kept = entries.withLock { entries -> [MarkdownSection]? in
            entries[source.contentPath].flatMap { $0.isMade(from: source, key: key) ? $0.sections : nil }
        }
        if let kept { return kept }
        let found = Markdown.sections(of: source.text, options: options, reservedIDs: reservedIDs)
        parsed.wrappingAdd(1, ordering: .relaxed)
        entries.withLock { entries in
            if var entry = entries[source.contentPath], entry.isMade(from: source, key: key) {
                entry.sections = found
                entries[source.contentPath] = entry
            } else {
                entries[source.contentPath] = Entry(text: source.text, key: key, render: nil, sections: found)
            }
        }
        return found
    }

    /// The sections kept for `source`, when they were cut from this very text.
    package func keptSections(of source: MarkdownSource) -> [MarkdownSection]? {
        entries.withLock { entries in
            entries[source.contentPath].flatMap { $0.text == source.text ? $0.sections : nil }
        }
    }

    /// Keeps only the entries of the texts at `contentPaths` (those of the version just rendered).
    /// With no more entries than texts, none is left over, and the paths are not gathered.
    func keepOnly(count: Int, contentPaths: () -> [String]) {
        entries.withLock { kept in
            guard kept.count > count else { return }
            let paths = Set(contentPaths())
            kept = kept.filter { paths.contains($0.key) }
        }
    }
}
