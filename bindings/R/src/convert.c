/* keps for R: data frames to keps tables and back.
 *
 * In: every cell becomes the text the CSV reader would have read for it,
 * row by row, so the table (dictionaries, codes in first-appearance order,
 * types inferred from the text) is the one `keps` builds from the same data
 * written as CSV. A factor's cell is its level; a number is written once
 * per distinct value as the shortest decimal that reads back as exactly
 * that double (keps_format_number). Out: one factor per column, its levels
 * the column's dictionary, so a 30,000-row column costs one integer copy
 * and one R string per distinct value. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keps/release.h"
#include "rkeps.h"

/* Distinct numbers of one column and their text: open addressing on the
 * double's bits, texts in one growing pool. */
typedef struct {
    uint64_t *keys;
    uint32_t *offs; /* offset of the text in pool, UINT32_MAX = empty slot */
    size_t cap, n;
    char *pool;
    size_t used, pool_cap;
} numdict;

static void numdict_free(numdict *d)
{
    free(d->keys);
    free(d->offs);
    free(d->pool);
    memset(d, 0, sizeof *d);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int numdict_grow(numdict *d)
{
    size_t cap = d->cap ? d->cap * 2 : 256;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *offs = malloc(cap * sizeof *offs);
    if (!keys || !offs) {
        free(keys);
        free(offs);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        offs[i] = UINT32_MAX;
    for (size_t i = 0; i < d->cap; i++) {
        if (d->offs[i] == UINT32_MAX)
            continue;
        size_t s = mix(d->keys[i]) & (cap - 1);
        while (offs[s] != UINT32_MAX)
            s = (s + 1) & (cap - 1);
        keys[s] = d->keys[i];
        offs[s] = d->offs[i];
    }
    free(d->keys);
    free(d->offs);
    d->keys = keys;
    d->offs = offs;
    d->cap = cap;
    return 0;
}

/* The text of v (finite), or NULL when out of memory. Valid until the
 * next call (the pool may move). */
static const char *numdict_text(numdict *d, double v)
{
    if (v == 0)
        v = 0; /* -0 is written "0", as R prints it */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (2 * (d->n + 1) > d->cap && numdict_grow(d))
        return NULL;
    size_t s = mix(bits) & (d->cap - 1);
    while (d->offs[s] != UINT32_MAX) {
        if (d->keys[s] == bits)
            return d->pool + d->offs[s];
        s = (s + 1) & (d->cap - 1);
    }
    if (d->used + 40 > d->pool_cap) {
        size_t cap = d->pool_cap ? d->pool_cap * 2 : 4096;
        char *p = cap < UINT32_MAX ? realloc(d->pool, cap) : NULL;
        if (!p)
            return NULL;
        d->pool = p;
        d->pool_cap = cap;
    }
    int len = keps_format_number(d->pool + d->used, 40, v);
    d->keys[s] = bits;
    d->offs[s] = (uint32_t)d->used;
    d->n++;
    d->used += (size_t)len + 1;
    return d->pool + d->offs[s];
}

enum { COL_FACTOR, COL_STRING, COL_DOUBLE, COL_INTEGER };

typedef struct {
    int kind;
    SEXP x;
    const char **levels; /* COL_FACTOR: UTF-8 text per level */
    int nlevels;
    numdict nums;        /* COL_DOUBLE, COL_INTEGER */
} colconv;

/* The text of row i of column c; NULL for NA (the missing token); *oom on
 * failure. Inf is refused by the R side before the call. */
static const char *cell_text(colconv *c, R_xlen_t i, int *oom)
{
    switch (c->kind) {
    case COL_FACTOR: {
        int f = INTEGER(c->x)[i];
        return f == NA_INTEGER || f < 1 || f > c->nlevels ? NULL : c->levels[f - 1];
    }
    case COL_STRING: {
        SEXP s = STRING_ELT(c->x, i);
        return s == NA_STRING ? NULL : Rf_translateCharUTF8(s);
    }
    case COL_INTEGER: {
        int v = INTEGER(c->x)[i];
        if (v == NA_INTEGER)
            return NULL;
        const char *t = numdict_text(&c->nums, (double)v);
        *oom = !t;
        return t;
    }
    default: {
        double v = REAL(c->x)[i];
        if (ISNAN(v))
            return NULL;
        const char *t = numdict_text(&c->nums, v);
        *oom = !t;
        return t;
    }
    }
}

keps_table *rk_table_from_list(SEXP cols, SEXP names, const char *missing, const char *source,
                               keps_error *err)
{
    size_t ncols = (size_t)XLENGTH(cols);
    R_xlen_t nrows = ncols ? XLENGTH(VECTOR_ELT(cols, 0)) : 0;
    if (nrows >= (R_xlen_t)UINT32_MAX - 1) {
        keps_error_set(err, KEPS_EINPUT, "%s: more than 4 billion rows are not supported", source);
        return NULL;
    }
    /* R_alloc: released when the .Call returns, whatever happens */
    const char **cname = (const char **)R_alloc(ncols ? ncols : 1, sizeof *cname);
    const char **fields = (const char **)R_alloc(ncols ? ncols : 1, sizeof *fields);
    colconv *cv = (colconv *)R_alloc(ncols ? ncols : 1, sizeof *cv);
    memset(cv, 0, (ncols ? ncols : 1) * sizeof *cv);
    for (size_t j = 0; j < ncols; j++) {
        SEXP x = VECTOR_ELT(cols, (R_xlen_t)j);
        cname[j] = Rf_translateCharUTF8(STRING_ELT(names, (R_xlen_t)j));
        cv[j].x = x;
        if (Rf_isFactor(x)) {
            SEXP lv = Rf_getAttrib(x, R_LevelsSymbol);
            cv[j].kind = COL_FACTOR;
            cv[j].nlevels = Rf_length(lv);
            cv[j].levels = (const char **)R_alloc(cv[j].nlevels ? (size_t)cv[j].nlevels : 1, sizeof(char *));
            for (int l = 0; l < cv[j].nlevels; l++)
                cv[j].levels[l] = Rf_translateCharUTF8(STRING_ELT(lv, l));
        } else if (TYPEOF(x) == STRSXP) {
            cv[j].kind = COL_STRING;
        } else if (TYPEOF(x) == INTSXP) {
            cv[j].kind = COL_INTEGER;
        } else {
            cv[j].kind = COL_DOUBLE;
        }
    }
    keps_table *t = keps_table_new(ncols, cname, missing, source, err);
    if (!t)
        return NULL;
    /* owned while R code runs (translating a string may signal an error) */
    SEXP owner = PROTECT(rk_own_table(t));
    const char *miss = t->missing_token;
    int oom = 0;
    for (R_xlen_t i = 0; i < nrows && !oom; i++) {
        for (size_t j = 0; j < ncols && !oom; j++) {
            const char *s = cell_text(&cv[j], i, &oom);
            fields[j] = s ? s : miss;
        }
        /* line = the row number: messages then say ROW:COLUMN */
        if (!oom && keps_table_append(t, fields, NULL, (uint32_t)(i + 1), err)) {
            t = NULL;
            break;
        }
    }
    for (size_t j = 0; j < ncols; j++)
        numdict_free(&cv[j].nums);
    if (oom) {
        keps_error_set(err, KEPS_ENOMEM, "out of memory converting the data frame %s", source);
        t = NULL;
    }
    if (t)
        R_ClearExternalPtr(owner); /* the caller's now */
    else
        rk_release(owner);
    UNPROTECT(1);
    return t;
}

SEXP rk_list_from_table(const keps_table *t, const uint32_t *order)
{
    SEXP out = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)t->ncols));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)t->ncols));
    SEXP fclass = PROTECT(Rf_mkString("factor"));
    for (size_t j = 0; j < t->ncols; j++) {
        const keps_column *c = &t->cols[j];
        SET_STRING_ELT(names, (R_xlen_t)j, Rf_mkCharCE(c->name, CE_UTF8));
        uint32_t miss = c->missing;
        R_xlen_t nlev = (R_xlen_t)c->nvalues - (miss != KEPS_NONE && miss < c->nvalues);
        SEXP lev = PROTECT(Rf_allocVector(STRSXP, nlev));
        for (uint32_t v = 0, l = 0; v < c->nvalues; v++)
            if (v != miss)
                SET_STRING_ELT(lev, l++, Rf_mkCharCE(c->values[v], CE_UTF8));
        SEXP f = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)t->nrows));
        int *fp = INTEGER(f);
        const uint32_t *codes = c->codes;
        if (miss == KEPS_NONE && !order) {
            for (size_t i = 0; i < t->nrows; i++)
                fp[i] = (int)codes[i] + 1;
        } else {
            for (size_t i = 0; i < t->nrows; i++) {
                uint32_t v = codes[order ? order[i] : i];
                fp[i] = v == miss ? NA_INTEGER : (int)(v - (v > miss)) + 1;
            }
        }
        Rf_setAttrib(f, R_LevelsSymbol, lev);
        Rf_setAttrib(f, R_ClassSymbol, fclass);
        SET_VECTOR_ELT(out, (R_xlen_t)j, f);
        UNPROTECT(2);
    }
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(3);
    return out;
}
