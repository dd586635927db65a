/* keps for R: tables and hierarchies (.Call entry points). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "rkeps.h"

/* The column types keps infers (keps_table_infer_type) as an attribute
 * "numeric" (logical per column) of the list of factors. */
SEXP rk_with_types(SEXP out, const keps_table *t)
{
    SEXP num = PROTECT(Rf_allocVector(LGLSXP, (R_xlen_t)t->ncols));
    for (size_t j = 0; j < t->ncols; j++)
        LOGICAL(num)[j] = keps_table_infer_type(t, j, NULL, NULL) == KEPS_TYPE_NUMERIC;
    Rf_setAttrib(out, Rf_install("numeric"), num);
    UNPROTECT(1);
    return out;
}

/* keps_table -> list of factors, freeing the table (owned by owner). */
static SEXP table_out(SEXP owner)
{
    keps_table *t = R_ExternalPtrAddr(owner);
    SEXP out = PROTECT(rk_list_from_table(t, NULL));
    rk_with_types(out, t);
    rk_release(owner);
    UNPROTECT(1);
    return out;
}

SEXP rk_read_csv(SEXP path, SEXP delimiter, SEXP missing)
{
    const char *p = rk_string(path, "path"), *d = rk_string(delimiter, "delimiter");
    keps_csv_options opt = {0};
    opt.delimiter = d ? d[0] : 0;
    opt.missing = rk_string(missing, "missing");
    keps_table *t = NULL;
    keps_error err = {0};
    if (keps_csv_read(p, &opt, &t, &err))
        rk_raise(&err);
    SEXP owner = PROTECT(rk_own_table(t));
    SEXP out = table_out(owner);
    UNPROTECT(1);
    return out;
}

/* A data frame's columns into a table owned by an external pointer (the
 * benchmark of the conversions times it alone: bench/r_overhead.R). */
SEXP rk_table_in(SEXP cols, SEXP names, SEXP missing, SEXP source)
{
    keps_error err = {0};
    keps_table *t = rk_table_from_list(cols, names, rk_string(missing, "missing"), rk_string(source, "source"), &err);
    if (!t)
        rk_raise(&err);
    return rk_own_table(t);
}

/* The data frame as keps reads it and back: the types keps infers. Used by
 * the R side to check inputs and by the tests of the conversions. */
SEXP rk_roundtrip(SEXP cols, SEXP names, SEXP missing, SEXP source)
{
    SEXP owner = PROTECT(rk_table_in(cols, names, missing, source));
    SEXP out = table_out(owner);
    UNPROTECT(1);
    return out;
}

/* A table rk_table_in made back into a list of factors (kept). */
SEXP rk_table_out(SEXP owner)
{
    const keps_table *t = R_ExternalPtrAddr(owner);
    if (!t)
        rk_fail(KEPS_EINPUT, "the table was released");
    return rk_list_from_table(t, NULL);
}

/* ---- hierarchies ---- */

/* Appends s to the growing buffer, quoted ("" for a quote). */
typedef struct {
    char *p;
    size_t n, cap;
} buf;

static int put(buf *b, const char *s, size_t len)
{
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + len + 1 > cap)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    return 0;
}

static int put_quoted(buf *b, const char *s)
{
    if (put(b, "\"", 1))
        return -1;
    for (const char *q; (q = strchr(s, '"')); s = q + 1)
        if (put(b, s, (size_t)(q - s) + 1) || put(b, "\"", 1))
            return -1;
    return put(b, s, strlen(s)) || put(b, "\"", 1);
}

/* A hierarchy from a data frame in ARX's layout (column j = level j, one
 * row per leaf): written as the ARX CSV it stands for and read by the
 * library's own reader, so it is validated exactly as a file would be.
 * Every field is quoted (blanks are kept, as the data's are); NA is the
 * empty field (the missing value's row: NA, NA, "*"), and NAs at the end
 * of a row make it a short leaf-to-root path of an unbalanced tree. */
static keps_hierarchy *hierarchy_from_list(SEXP cols, const char *name, keps_error *err)
{
    R_xlen_t ncols = XLENGTH(cols), nrows = ncols ? XLENGTH(VECTOR_ELT(cols, 0)) : 0;
    buf b = {0};
    int oom = 0;
    for (R_xlen_t i = 0; i < nrows && !oom; i++) {
        R_xlen_t last = ncols - 1;
        while (last > 0 && STRING_ELT(VECTOR_ELT(cols, last), i) == NA_STRING)
            last--;
        for (R_xlen_t j = 0; j <= last && !oom; j++) {
            SEXP s = STRING_ELT(VECTOR_ELT(cols, j), i);
            oom = (j && put(&b, ";", 1)) || (s != NA_STRING && put_quoted(&b, Rf_translateCharUTF8(s)));
        }
        oom = oom || put(&b, "\n", 1);
    }
    keps_hierarchy *h = NULL;
    if (oom)
        keps_error_set(err, KEPS_ENOMEM, "out of memory converting the hierarchy %s", name);
    else
        keps_hierarchy_load_buffer(b.p ? b.p : "", b.n, name, ';', &h, err);
    free(b.p);
    return h;
}

static SEXP hierarchy_out(SEXP owner)
{
    keps_hierarchy *h = R_ExternalPtrAddr(owner);
    SEXP out = PROTECT(rk_list_from_table(h->levels, NULL));
    rk_release(owner);
    UNPROTECT(1);
    return out;
}

/* Validates a hierarchy given as a list of character columns; returns it
 * as the library holds it (short paths filled in). */
SEXP rk_hierarchy_check(SEXP cols, SEXP name)
{
    keps_error err = {0};
    keps_hierarchy *h = hierarchy_from_list(cols, rk_string(name, "name"), &err);
    if (!h)
        rk_raise(&err);
    SEXP owner = PROTECT(rk_own_hierarchy(h));
    SEXP out = hierarchy_out(owner);
    UNPROTECT(1);
    return out;
}

SEXP rk_hierarchy_read(SEXP path, SEXP delimiter)
{
    const char *p = rk_string(path, "path"), *d = rk_string(delimiter, "delimiter");
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    if (keps_hierarchy_load(p, d ? d[0] : 0, &h, &err))
        rk_raise(&err);
    SEXP owner = PROTECT(rk_own_hierarchy(h));
    SEXP out = hierarchy_out(owner);
    UNPROTECT(1);
    return out;
}

/* Builds the hierarchy `spec` describes ("interval=5,10,20", "mask=1,2",
 * ...; keps_hierarchy_parse_spec) from a column given as a one-column
 * list. numeric: TRUE/FALSE declares the column's type, NA infers it. */
SEXP rk_hierarchy_build(SEXP cols, SEXP names, SEXP spec, SEXP numeric, SEXP missing, SEXP source)
{
    keps_error err = {0};
    keps_hierarchy_spec hs;
    if (keps_hierarchy_parse_spec(rk_string(spec, "spec"), &hs, &err))
        rk_raise(&err);
    keps_table *t = rk_table_from_list(cols, names, rk_string(missing, "missing"), rk_string(source, "source"), &err);
    if (!t)
        rk_raise(&err);
    int num = Rf_asLogical(numeric);
    keps_hierarchy *h = NULL;
    keps_status st = keps_hierarchy_build(t, 0, &hs, num == NA_LOGICAL ? -1 : num, &h, &err);
    keps_table_free(t);
    if (st)
        rk_raise(&err);
    SEXP owner = PROTECT(rk_own_hierarchy(h));
    SEXP out = hierarchy_out(owner);
    UNPROTECT(1);
    return out;
}
