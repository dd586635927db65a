#include "keps/release.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

keps_status keps_release_build(const keps_schema *s, keps_release_cell_fn cell, void *ctx,
                               keps_table **release, keps_error *err)
{
    *release = NULL;
    const keps_table *t = s->t;
    keps_table *r = keps_release_new(s, err);
    if (!r)
        return err ? err->code : KEPS_ENOMEM;
    const char **f = malloc(t->ncols * sizeof *f);
    if (!f) {
        keps_table_free(r);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < t->nrows && !st; i++) {
        size_t n = 0;
        for (size_t j = 0; j < t->ncols; j++) {
            if (!keps_schema_released(s, j))
                continue;
            const char *v = cell ? cell(ctx, i, j) : NULL;
            f[n++] = v ? v : keps_table_str(t, j, i);
        }
        st = keps_table_append(r, f, NULL, 0, err);
    }
    free(f);
    if (st) {
        keps_table_free(r);
        return st;
    }
    *release = r;
    return KEPS_OK;
}

int keps_format_number(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return -1;
    }
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, len, "%.*g", prec, v);
        if ((size_t)n >= len || strtod(buf, NULL) == v)
            break;
    }
    return n;
}

keps_status keps_release_check_finite(const double *v, size_t n, const char *what, keps_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return keps_error_set(err, KEPS_EJOB,
                                  "%s: value %zu came out as %g; keps never releases a number that is not finite "
                                  "(an overflow: rescale the data or use a larger epsilon)",
                                  what, i + 1, v[i]);
    return KEPS_OK;
}
