#include "keps/error.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

keps_status keps_error_set(keps_error *err, keps_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

keps_status keps_error_at(keps_error *err, keps_status code, const char *file,
                          size_t line, size_t col, const char *fmt, ...)
{
    if (!err)
        return code;
    char where[300];
    if (line && col)
        snprintf(where, sizeof where, "%s:%zu:%zu: ", file ? file : "<input>", line, col);
    else if (line)
        snprintf(where, sizeof where, "%s:%zu: ", file ? file : "<input>", line);
    else
        snprintf(where, sizeof where, "%s: ", file ? file : "<input>");
    size_t n = strlen(where);
    if (n >= sizeof err->msg)
        n = sizeof err->msg - 1;
    memcpy(err->msg, where, n);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    va_end(ap);
    err->code = code;
    return code;
}

keps_status keps_status_of_errno(int e)
{
    switch (e) {
    case ENOENT: case ENOTDIR: case EISDIR: case EACCES: case EPERM: case ENAMETOOLONG:
    case ELOOP: case EBADF: case EEXIST: case ENXIO: case ENODEV: case EINVAL:
        return KEPS_EINPUT;
    case ENOMEM:
        return KEPS_ENOMEM;
    default:
        return KEPS_EIO;
    }
}
