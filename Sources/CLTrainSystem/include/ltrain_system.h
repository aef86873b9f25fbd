#ifndef LTRAIN_SYSTEM_H
#define LTRAIN_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise.
int ltrain_exchange_paths(const char *first, const char *second);

/// Tunes the allocator for a build: keep freed memory instead of handing it back to the system
/// as it is freed. glibc's malloc (debug and sanitizer builds) also grows its heap in large
/// steps; mimalloc (the release binary) keeps its memory committed.
void ltrain_tune_allocator(void);

#endif
