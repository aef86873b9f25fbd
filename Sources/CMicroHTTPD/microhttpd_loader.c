#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "ltrain_microhttpd.h"

/* The shared object Debian's libmicrohttpd12 installs (ABI 12, as the headers built against). */
static const char *const library_name = "libmicrohttpd.so.12";

/* Each pointer has the type of the function the header declares, so a call through it is
   checked against libmicrohttpd's own prototype. */
typedef struct {
    __typeof__(&MHD_start_daemon_va) start_daemon_va;
    __typeof__(&MHD_stop_daemon) stop_daemon;
    __typeof__(&MHD_lookup_connection_value) lookup_connection_value;
    __typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
    __typeof__(&MHD_create_response_from_callback) create_response_from_callback;
    __typeof__(&MHD_add_response_header) add_response_header;
    __typeof__(&MHD_queue_response) queue_response;
    __typeof__(&MHD_destroy_response) destroy_response;
} functions;

static functions mhd;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Why loading failed, or empty once it succeeded; written once, under `load_once`. */
static char load_failure[512];
/* `ltrain_mhd_probe`'s message, one per thread. */
static __thread char probe_failure[512];

/* Finds one function; on failure writes why into `failure`. */
static int find(void *library, const char *name, void **slot, char *failure, size_t size) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot) return 1;
    const char *reason = dlerror();
    snprintf(failure, size, "%s", reason ? reason : name);
    return 0;
}

/* Opens `name` and finds every function into `found`: the library's handle, or NULL with why in
   `failure`. */
static void *open_library(const char *name, functions *found, char *failure, size_t size) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, size, "%s", reason ? reason : name);
        return NULL;
    }
    if (find(library, "MHD_start_daemon_va", (void **)&found->start_daemon_va, failure, size)
        && find(library, "MHD_stop_daemon", (void **)&found->stop_daemon, failure, size)
        && find(library, "MHD_lookup_connection_value", (void **)&found->lookup_connection_value, failure, size)
        && find(library, "MHD_create_response_from_buffer", (void **)&found->create_response_from_buffer, failure, size)
        && find(library, "MHD_create_response_from_callback", (void **)&found->create_response_from_callback, failure, size)
        && find(library, "MHD_add_response_header", (void **)&found->add_response_header, failure, size)
        && find(library, "MHD_queue_response", (void **)&found->queue_response, failure, size)
        && find(library, "MHD_destroy_response", (void **)&found->destroy_response, failure, size)) {
        return library;
    }
    dlclose(library);
    return NULL;
}

/* The library stays loaded for the process's lifetime: its threads may still be ending. */
static void load(void) { open_library(library_name, &mhd, load_failure, sizeof load_failure); }

const char *ltrain_mhd_load(void) {
    pthread_once(&load_once, load);
    return load_failure[0] ? load_failure : NULL;
}

const char *ltrain_mhd_probe(const char *name) {
    functions found;
    void *library = open_library(name, &found, probe_failure, sizeof probe_failure);
    if (!library) return probe_failure;
    dlclose(library);
    return NULL;
}

struct MHD_Daemon *ltrain_MHD_start_daemon_va(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh,
    void *dh_cls, va_list ap) {
    return mhd.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
}

void ltrain_MHD_stop_daemon(struct MHD_Daemon *daemon) { mhd.stop_daemon(daemon); }

const char *ltrain_MHD_lookup_connection_value(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key) {
    return mhd.lookup_connection_value(connection, kind, key);
}

struct MHD_Response *ltrain_MHD_create_response_from_buffer(
    size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return mhd.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *ltrain_MHD_create_response_from_callback(
    uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
    MHD_ContentReaderFreeCallback crfc) {
    return mhd.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}

enum MHD_Result ltrain_MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return mhd.add_response_header(response, header, content);
}

enum MHD_Result ltrain_MHD_queue_response(
    struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
    return mhd.queue_response(connection, status_code, response);
}

void ltrain_MHD_destroy_response(struct MHD_Response *response) { mhd.destroy_response(response); }
