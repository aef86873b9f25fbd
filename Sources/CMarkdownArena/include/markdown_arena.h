#ifndef LTRAIN_MARKDOWN_ARENA_H
#define LTRAIN_MARKDOWN_ARENA_H

/// A bump allocator for libcmark, one per thread.
///
/// Parsing one page's Markdown makes thousands of small nodes and buffers that all die together
/// when the page is rendered. Through glibc's malloc each is a separate allocation and free (a
/// large share of a build: docs/benchmarks.md, "Optimisations"); here they are carved from blocks
/// the thread keeps, and given back all at once.
///
/// Between `ltrain_markdown_arena_begin()` and the matching `ltrain_markdown_arena_end()` on the
/// same thread, the allocator returned by `ltrain_markdown_arena_allocator()` (a `cmark_mem *`)
/// serves every allocation of a cmark parser, its document and what is rendered from it. At the
/// outermost `end`, everything allocated since the outermost `begin` is released: no pointer
/// from those allocations may be used afterwards. Begin/end pairs may nest.

/// The `cmark_mem *` to hand to `cmark_parser_new_with_mem`.
void *ltrain_markdown_arena_allocator(void);

void ltrain_markdown_arena_begin(void);
void ltrain_markdown_arena_end(void);

#endif
