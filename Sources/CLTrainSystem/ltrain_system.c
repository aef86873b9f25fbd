#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <mimalloc.h>
#include <stdio.h>
#include "ltrain_system.h"

/* Only the release binary links mimalloc (Package.swift): a weak reference is NULL elsewhere. */
#pragma weak mi_option_set_enabled

int ltrain_exchange_paths(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

void ltrain_tune_allocator(void) {
    if (mi_option_set_enabled != NULL) {
        /* mimalloc, in the release binary: freed memory stays committed rather than being handed
           back to the system as it is freed, which slowed serve's edits (docs/benchmarks.md,
           "Optimisations"). */
        mi_option_set_enabled(mi_option_allow_decommit, false);
    } else {
        /* glibc's malloc, in the builds without mimalloc. */
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_TOP_PAD, 64 << 20);
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
    }
}
