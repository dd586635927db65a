/* Equivalence classes of a released table (models.h), as keps risk groups
 * them. Every loop over rows works on dictionary codes. */
#include "keps/models.h"
#include "partition_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- equivalence classes ---- */

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
    size_t n = t->nrows;
    uint32_t *star = malloc(ncols * sizeof *star);
    uint8_t *skip = calloc(n ? n : 1, 1);
    out->nrows = n;
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    out->size = calloc(n ? n : 1, sizeof *out->size);
    out->first_row = malloc((n ? n : 1) * sizeof *out->first_row);
    size_t nc = (size_t)-1;
    if (star && skip && out->class_of && out->size && out->first_row) {
        int has_star = star_codes(t, cols, ncols, star);
        for (size_t r = 0; r < n && has_star; r++)
            out->suppressed += (size_t)(skip[r] = (uint8_t)is_star_row(t, cols, ncols, star, r));
        out->all_star = n > 0 && out->suppressed == n;
        /* exclude: starred rows form no class (unless every row is one) */
        nc = keps_group_rows(t, cols, ncols, mode == KEPS_SUPPRESSED_EXCLUDE && !out->all_star ? skip : NULL,
                             out->class_of, out->first_row);
    }
    free(star);
    free(skip);
    if (nc == (size_t)-1) {
        keps_classes_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
    }
    out->nclasses = nc;
    for (size_t r = 0; r < n; r++)
        if (out->class_of[r] != KEPS_NONE)
            out->size[out->class_of[r]]++;
    return KEPS_OK;
}
