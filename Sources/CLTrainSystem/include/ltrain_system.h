#ifndef LTRAIN_SYSTEM_H
#define LTRAIN_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise.
int ltrain_exchange_paths(const char *first, const char *second);

/// Tunes glibc's allocator for a build: keep freed memory instead of trimming it back to the
/// system on every free, and grow the heap in large steps.
void ltrain_tune_allocator(void);

#endif
