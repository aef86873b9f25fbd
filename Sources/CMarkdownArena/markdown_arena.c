#include <cmark.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "markdown_arena.h"

/* Every allocation is preceded by a 16-byte header, so the memory it returns stays 16-byte
   aligned like malloc's:
     small (carved from a block):  [capacity][SMALL] data…
     large (its own malloc chunk): [prev][next][capacity][LARGE] data…
   `capacity` (how many bytes the data may hold, at least what was asked for) and the kind sit
   right before the data in both, so realloc and free can tell them apart. */

enum { SMALL = 0x51, LARGE = 0x1a };
enum { BLOCK_CAPACITY = 256 * 1024, LARGE_THRESHOLD = BLOCK_CAPACITY / 4, ALIGN = 16 };
/* Blocks a thread keeps between documents; more, left by one very large document, are freed. */
enum { KEPT_BLOCKS = 8 };

typedef struct block {
    struct block *next;
    size_t used;
    _Alignas(16) unsigned char data[BLOCK_CAPACITY];
} block;

typedef struct large_header {
    struct large_header *prev;
    struct large_header *next;
    size_t size;
    size_t kind;
} large_header;

typedef struct {
    block *first;    /* blocks kept for the thread's lifetime, reused after each end */
    block *current;  /* the block allocations come from */
    unsigned char *last; /* the newest small allocation in `current`: it can grow or shrink in place */
    large_header *large; /* large allocations since begin, freed at end */
    int depth;
} arena;

static __thread arena local;
static pthread_key_t release_key;
static pthread_once_t release_key_once = PTHREAD_ONCE_INIT;

static void free_blocks(block *first) {
    while (first) {
        block *next = first->next;
        free(first);
        first = next;
    }
}

static void release_thread_blocks(void *unused) {
    (void)unused;
    free_blocks(local.first);
    local.first = local.current = NULL;
}

static void make_release_key(void) { pthread_key_create(&release_key, release_thread_blocks); }

static size_t *size_of(void *pointer) { return (size_t *)((unsigned char *)pointer - 16); }
static size_t kind_of(void *pointer) { return *(size_t *)((unsigned char *)pointer - 8); }

static void out_of_memory(void) {
    /* cmark's own allocator aborts the same way: it has no path for a failed allocation. */
    fputs("ltrain: out of memory while rendering Markdown\n", stderr);
    abort();
}

/* Puts a large allocation (new, or moved by realloc) at the head of the thread's list. */
static void *link_large(large_header *header, size_t size) {
    if (!header) out_of_memory();
    header->prev = NULL;
    header->next = local.large;
    if (local.large) local.large->prev = header;
    local.large = header;
    header->size = size;
    header->kind = LARGE;
    return header + 1;
}

static void *allocate_large(size_t size) {
    return link_large(malloc(sizeof(large_header) + size), size);
}

static void unlink_large(large_header *header) {
    if (header->prev) header->prev->next = header->next; else local.large = header->next;
    if (header->next) header->next->prev = header->prev;
}

/* Takes a new block (a kept one, or a fresh one) for the allocations that follow. */
static void next_block(void) {
    block *next = local.current ? local.current->next : local.first;
    if (!next) {
        pthread_once(&release_key_once, make_release_key);
        next = malloc(sizeof(block));
        if (!next) out_of_memory();
        next->next = NULL;
        if (local.current) local.current->next = next; else local.first = next;
        pthread_setspecific(release_key, next);
    }
    next->used = 0;
    local.current = next;
}

static inline void *allocate(size_t size) {
    if (__builtin_expect(size >= LARGE_THRESHOLD, 0)) return allocate_large(size);
    size_t capacity = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (__builtin_expect(!local.current || local.current->used + 16 + capacity > BLOCK_CAPACITY, 0)) next_block();
    unsigned char *header = local.current->data + local.current->used;
    local.current->used += 16 + capacity;
    ((size_t *)header)[0] = capacity;
    ((size_t *)header)[1] = SMALL;
    local.last = header + 16;
    return header + 16;
}

static void *arena_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) out_of_memory();
    void *pointer = allocate(count * size);
    memset(pointer, 0, count * size);
    return pointer;
}

static void *arena_realloc(void *pointer, size_t size) {
    if (!pointer) return allocate(size);
    size_t capacity = *size_of(pointer);
    if (kind_of(pointer) == LARGE) {
        if (size <= capacity) return pointer;
        large_header *header = (large_header *)pointer - 1;
        unlink_large(header);
        return link_large(realloc(header, sizeof(large_header) + size), size);
    }
    /* Rounded up to the alignment, so small growth often fits already. */
    if (size <= capacity) return pointer;
    /* The newest allocation grows in place while its block has room (cmark's buffers grow so). */
    if (pointer == local.last && size < LARGE_THRESHOLD) {
        size_t start = (size_t)((unsigned char *)pointer - local.current->data);
        size_t grown = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
        if (start + grown <= BLOCK_CAPACITY) {
            local.current->used = start + grown;
            *size_of(pointer) = grown;
            return pointer;
        }
    }
    /* A buffer that grew once will likely grow again (cmark grows them by half each time): moved
       with room to spare, so the next growths need neither a new place nor a copy. */
    size_t roomy = size < LARGE_THRESHOLD / 2 ? size * 2 : size;
    void *moved = allocate(roomy);
    memcpy(moved, pointer, capacity);
    return moved;
}

static void arena_free(void *pointer) {
    if (!pointer) return;
    if (kind_of(pointer) == LARGE) {
        large_header *header = (large_header *)pointer - 1;
        unlink_large(header);
        free(header);
        return;
    }
    /* Small allocations are given back at end; the newest one at once. */
    if (pointer == local.last) {
        local.current->used = (size_t)((unsigned char *)pointer - 16 - local.current->data);
        local.last = NULL;
    }
}

static cmark_mem allocator = {arena_calloc, arena_realloc, arena_free};

void *ltrain_markdown_arena_allocator(void) { return &allocator; }

void ltrain_markdown_arena_begin(void) { local.depth += 1; }

void ltrain_markdown_arena_end(void) {
    if (local.depth > 0) local.depth -= 1;
    if (local.depth > 0) return;
    while (local.large) {
        large_header *next = local.large->next;
        free(local.large);
        local.large = next;
    }
    block *kept = local.first;
    for (int count = 1; kept && count < KEPT_BLOCKS; count++) kept = kept->next;
    if (kept) {
        free_blocks(kept->next);
        kept->next = NULL;
    }
    if (local.first) local.first->used = 0;
    local.current = local.first;
    local.last = NULL;
}
