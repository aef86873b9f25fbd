#ifndef LTRAIN_MICROHTTPD_H
#define LTRAIN_MICROHTTPD_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* libmicrohttpd is loaded when `ltrain serve` starts a server, not when the program starts: it
   brings GnuTLS and eight more libraries, whose loading and set-up every other command (a build,
   `--version`) would pay for nothing. The binary does not link it; call the functions below, not
   the MHD_ ones the header declares (those would not link).

   Loads the library (once, thread-safe). Returns NULL when it is loaded, or a message saying why
   it could not be (not installed, or a version without a function ltrain calls). */
const char *ltrain_mhd_load(void);

/* Whether the library `name` could be loaded as `ltrain_mhd_load` loads libmicrohttpd: NULL, or
   the message it would give. Opens it and closes it again; for the tests of the failures. */
const char *ltrain_mhd_probe(const char *name);

/* libmicrohttpd's functions of the same names without the `ltrain_` prefix; valid only after
   `ltrain_mhd_load` returned NULL. */
struct MHD_Daemon *ltrain_MHD_start_daemon_va(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh,
    void *dh_cls, va_list ap);
void ltrain_MHD_stop_daemon(struct MHD_Daemon *daemon);
const char *ltrain_MHD_lookup_connection_value(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key);
struct MHD_Response *ltrain_MHD_create_response_from_buffer(
    size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
struct MHD_Response *ltrain_MHD_create_response_from_callback(
    uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
    MHD_ContentReaderFreeCallback crfc);
enum MHD_Result ltrain_MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content);
enum MHD_Result ltrain_MHD_queue_response(
    struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);
void ltrain_MHD_destroy_response(struct MHD_Response *response);

#endif
