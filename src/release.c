#include "keps/release.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "release_internal.h"

keps_status keps_release_build(const keps_schema *s, keps_release_cell_fn cell, void *ctx,
                               keps_table **release, keps_error *err)
{
    return keps_release_build_rows(s, NULL, cell, ctx, release, err);
}

keps_status keps_release_build_rows(const keps_schema *s, const uint8_t *skip, keps_release_cell_fn cell,
                                    void *ctx, keps_table **release, keps_error *err)
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
        if (skip && skip[i])
            continue;
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

keps_status keps_release_columns(const keps_schema *s, const keps_table *gen, int *rel_of, keps_error *err)
{
    const keps_table *t = s->t;
    size_t nrel = 0;
    for (size_t j = 0; j < t->ncols; j++)
        rel_of[j] = keps_schema_released(s, j) ? (int)nrel++ : -1;
    if (!gen)
        return KEPS_OK;
    if (gen->ncols != nrel || gen->nrows != t->nrows)
        return keps_error_set(err, KEPS_EINPUT,
                              "the generalized table has %zu rows and %zu columns; a release of this schema "
                              "has %zu rows and %zu columns (build it with remove_suppressed = 0)",
                              gen->nrows, gen->ncols, t->nrows, nrel);
    for (size_t j = 0; j < t->ncols; j++)
        if (rel_of[j] >= 0 && strcmp(gen->cols[rel_of[j]].name, t->cols[j].name) != 0)
            return keps_error_set(err, KEPS_EINPUT,
                                  "the generalized table's column %d is '%s', the schema releases '%s' there",
                                  rel_of[j] + 1, gen->cols[rel_of[j]].name, t->cols[j].name);
    return KEPS_OK;
}

keps_status keps_release_attr_columns(const keps_schema *s, const size_t *cols, size_t n, size_t m,
                                      int *attr_of, const char *what, keps_error *err)
{
    const keps_table *t = s->t;
    if (n != t->nrows)
        return keps_error_set(err, KEPS_EINPUT, "%s: the result has %zu rows, the table %zu", what, n, t->nrows);
    if (!cols && m != s->nqi)
        return keps_error_set(err, KEPS_EINPUT, "%s: the result has %zu columns, the schema %zu QIs (give cols)",
                              what, m, s->nqi);
    for (size_t j = 0; j < t->ncols; j++)
        attr_of[j] = -1;
    for (size_t a = 0; a < m; a++) {
        size_t j = cols ? cols[a] : s->qi[a].col;
        if (j >= t->ncols || attr_of[j] >= 0)
            return keps_error_set(err, KEPS_EINPUT, "%s: column index %zu (attribute %zu) is %s", what, j, a + 1,
                                  j >= t->ncols ? "outside the table" : "given twice");
        attr_of[j] = (int)a;
    }
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

int keps_format_number_in(char *buf, size_t len, double v, const keps_table *t)
{
    int n = keps_format_number(buf, len, v);
    if (t && t->decimal_comma)
        for (char *p = buf; *p; p++)
            *p = *p == '.' ? ',' : *p;
    return n;
}

double keps_round_decimals(double v, int digits)
{
    if (digits < 0 || !isfinite(v))
        return v;
    if (digits > KEPS_DIGITS_MAX)
        digits = KEPS_DIGITS_MAX;
    /* %.*f prints the exact binary value rounded correctly (glibc); up to
     * 1e100 (KEPS_NUM_MAX) has 101 integer digits, a double at most 309 */
    char buf[720];
    snprintf(buf, sizeof buf, "%.*f", digits, v);
    double r = strtod(buf, NULL);
    return r == 0 ? 0.0 : r; /* -0.04 at 1 decimal is 0, not "-0" */
}

size_t keps_round_clamp(double *v, size_t n, size_t stride, int digits, double lo, double hi)
{
    size_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        double *x = &v[i * stride];
        if (isnan(*x))
            continue;
        double r = keps_round_decimals(*x, digits);
        double c = r < lo ? lo : r > hi ? hi : r;
        moved += c != r;
        *x = c;
    }
    return moved;
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
