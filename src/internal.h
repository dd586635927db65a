/* Private: marks functions shared between libkeps's source files but not
 * part of its API (include/keps/). They stay out of libkeps.so's dynamic
 * symbol table; the static library links them as usual. */
#ifndef KEPS_INTERNAL_H
#define KEPS_INTERNAL_H
#if defined(__GNUC__) && !defined(_WIN32)
#define KEPS_INTERNAL __attribute__((visibility("hidden")))
#else
#define KEPS_INTERNAL
#endif

#include "keps/error.h"

/* The status an errno value stands for: the path or file given is wrong
 * (EINPUT: ENOENT, EACCES, EISDIR, ...), or the system failed or ran out
 * of something (EIO: ENOSPC, EROFS, EIO, EMFILE, ...; ENOMEM). */
KEPS_INTERNAL keps_status keps_status_of_errno(int e);

#include <stdio.h>
/* One CSV row (quoted where needed) to f; nonzero when the write failed. */
KEPS_INTERNAL int keps_csv_put_row(FILE *f, char delimiter, const char *const *fields, size_t n);
#endif
