/* keps: error reporting shared by every module.
 *
 * Library calls that can fail take a `keps_error *` (may be NULL) and return
 * a status code. The message names file, line and column where they apply,
 * says what was wrong and how to fix it. */
#ifndef KEPS_ERROR_H
#define KEPS_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes double as CLI exit codes (CLI.md). */
typedef enum {
    KEPS_OK = 0,
    KEPS_EJOB = 1,   /* the job could not be done (no node satisfies...) */
    KEPS_EINPUT = 2, /* bad usage or bad input */
    KEPS_ENOMEM = 3, /* out of memory (exit code 2 at the CLI) */
    KEPS_EIO = 4     /* I/O failure (exit code 2 at the CLI) */
} keps_status;

typedef struct keps_error {
    keps_status code;
    char msg[1024];
} keps_error;

/* Sets err (if not NULL) and returns code. printf-style message. */
keps_status keps_error_set(keps_error *err, keps_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Formats "FILE:LINE:COL: message" (line/col omitted when 0). */
keps_status keps_error_at(keps_error *err, keps_status code, const char *file,
                          size_t line, size_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Exit code for a status, as CLI.md defines them (0, 1 or 2). */
int keps_exit_code(keps_status s);

#ifdef __cplusplus
}
#endif
#endif
