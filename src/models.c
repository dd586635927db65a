/* Equivalence classes of a released table (models.h), as keps risk groups
 * them. Every loop over rows works on dictionary codes. */
#include "keps/models.h"

#include <stdlib.h>
#include <string.h>

/* ---- equivalence classes ---- */

static uint32_t mix(uint32_t h, uint32_t v)
{
    h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

/* The table is indexed by the low bits, which mix() alone leaves poorly
 * spread for small codes (long probe chains: 200k rows in 40k classes took
 * seconds); murmur3's finalizer spreads every input bit over them. */
static uint32_t finish(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static int same_tuple(const keps_table *t, const size_t *cols, size_t ncols, size_t a, size_t b)
{
    for (size_t j = 0; j < ncols; j++)
        if (t->cols[cols[j]].codes[a] != t->cols[cols[j]].codes[b])
            return 0;
    return 1;
}

/* Rows whose every QI is "*": the star's code per column, or none. */
static int star_codes(const keps_table *t, const size_t *cols, size_t ncols, uint32_t *star)
{
    for (size_t j = 0; j < ncols; j++)
        if ((star[j] = keps_table_lookup(t, cols[j], "*", 1)) == KEPS_NONE)
            return 0;
    return 1;
}

static int is_star_row(const keps_table *t, const size_t *cols, size_t ncols, const uint32_t *star,
                       size_t r)
{
    for (size_t j = 0; j < ncols; j++)
        if (t->cols[cols[j]].codes[r] != star[j])
            return 0;
    return 1;
}

void keps_classes_free(keps_classes *c)
{
    if (!c)
        return;
    free(c->class_of);
    free(c->size);
    free(c->first_row);
    memset(c, 0, sizeof *c);
}

/* Column indices come from the caller: one past the table would read
 * another allocation's codes. */
static keps_status check_columns(const keps_table *t, const size_t *cols, size_t ncols, const char *what,
                                 keps_error *err)
{
    for (size_t j = 0; j < ncols; j++)
        if (cols[j] >= t->ncols)
            return keps_error_set(err, KEPS_EINPUT, "%s column index %zu is out of range: %s has %zu columns", what,
                                  cols[j], t->source, t->ncols);
    return KEPS_OK;
}

keps_status keps_classes_build(const keps_table *t, const size_t *cols, size_t ncols,
                               keps_suppressed_mode mode, keps_classes *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (ncols == 0)
        return keps_error_set(err, KEPS_EINPUT, "no quasi-identifier given: name the QI columns");
    keps_status st = check_columns(t, cols, ncols, "quasi-identifier", err);
    if (st)
        return st;
    if ((unsigned)mode > KEPS_SUPPRESSED_CLASS)
        return keps_error_set(err, KEPS_EINPUT, "unknown suppressed-row mode %d (expected exclude or class)",
                              (int)mode);
    size_t n = t->nrows, nslots = 64;
    while (nslots < 2 * n)
        nslots *= 2;
    uint32_t *star = malloc(ncols * sizeof *star);
    uint32_t *slots = malloc(nslots * sizeof *slots);
    out->nrows = n;
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    out->size = malloc((n ? n : 1) * sizeof *out->size);
    out->first_row = malloc((n ? n : 1) * sizeof *out->first_row);
    if (!star || !slots || !out->class_of || !out->size || !out->first_row) {
        free(star);
        free(slots);
        keps_classes_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
    }
    memset(slots, 0xff, nslots * sizeof *slots);
    int has_star = star_codes(t, cols, ncols, star);
    size_t nstar = 0;
    for (size_t r = 0; r < n && has_star; r++)
        nstar += (size_t)is_star_row(t, cols, ncols, star, r);
    out->all_star = n > 0 && nstar == n;
    if (out->all_star)
        mode = KEPS_SUPPRESSED_CLASS;
    for (size_t r = 0; r < n; r++) {
        if (has_star && is_star_row(t, cols, ncols, star, r)) {
            out->suppressed++;
            if (mode == KEPS_SUPPRESSED_EXCLUDE) {
                out->class_of[r] = KEPS_NONE;
                continue;
            }
        }
        uint32_t h = 0;
        for (size_t j = 0; j < ncols; j++)
            h = mix(h, t->cols[cols[j]].codes[r]);
        size_t i = finish(h) & (nslots - 1);
        while (slots[i] != KEPS_NONE && !same_tuple(t, cols, ncols, out->first_row[slots[i]], r))
            i = (i + 1) & (nslots - 1);
        if (slots[i] == KEPS_NONE) {
            slots[i] = (uint32_t)out->nclasses;
            out->first_row[out->nclasses] = (uint32_t)r;
            out->size[out->nclasses++] = 0;
        }
        out->class_of[r] = slots[i];
        out->size[slots[i]]++;
    }
    free(star);
    free(slots);
    return KEPS_OK;
}
