#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "ltrain_system.h"

int ltrain_exchange_paths(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}
