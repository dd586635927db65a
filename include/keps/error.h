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

/* Status codes. The keps CLI turns them into its exit codes (docs/cli.md,
 * "Exit codes"); a library caller reads the status itself. */
typedef enum {
    KEPS_OK = 0,
    KEPS_EJOB = 1,   /* valid inputs, but the job cannot be done: no node satisfies
                        the constraints, noise of an extreme epsilon overflows... */
    KEPS_EINPUT = 2, /* bad usage or bad input (a value, a file's content, a path) */
    KEPS_ENOMEM = 3, /* out of memory */
    KEPS_EIO = 4,    /* the system failed: a full disk, a read-only file system, an
                        I/O error */
    KEPS_ECANCEL = 5 /* the caller cancelled (a progress hook, keps/progress.h) */
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

#ifdef __cplusplus
}
#endif
#endif
