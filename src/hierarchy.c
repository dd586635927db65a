#include "keps/hierarchy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"

void keps_hierarchy_free(keps_hierarchy *h)
{
    if (h) {
        keps_table_free(h->levels);
        free(h);
    }
}

/* An empty cell is allowed only in the row of the missing value written
 * as the empty field, on its lowest levels: empty at level j needs empty
 * at level j-1 (";;*", the missing value staying missing). */
static keps_status check_empty_cells(const keps_table *t, keps_error *err)
{
    for (size_t j = 0; j < t->ncols; j++) {
        uint32_t e = keps_table_lookup(t, j, "", 0);
        uint32_t below = j ? keps_table_lookup(t, j - 1, "", 0) : KEPS_NONE;
        for (size_t r = 0; j > 0 && e != KEPS_NONE && r < t->nrows; r++)
            if (t->cols[j].codes[r] == e && t->cols[j - 1].codes[r] != below)
                return keps_error_at(err, KEPS_EINPUT, t->source, t->row_line[r], j + 1,
                                     "empty value at level %zu; every row needs a value at every level, except "
                                     "the row of the missing value written as the empty field (first field "
                                     "empty), which may stay empty on its lowest levels (';;*' or ';*')",
                                     j);
    }
    return KEPS_OK;
}

static keps_status validate(const keps_table *t, int check_empty, keps_error *err)
{
    const char *src = t->source;
    keps_status es = check_empty ? check_empty_cells(t, err) : KEPS_OK;
    if (es)
        return es;
    /* Unique leaves: level 0 must have one code per row. */
    const keps_column *leaf = &t->cols[0];
    if (leaf->nvalues != t->nrows) {
        uint32_t *seen = calloc(leaf->nvalues, sizeof *seen);
        if (!seen)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        for (size_t r = 0; r < t->nrows; r++) {
            uint32_t v = leaf->codes[r];
            if (seen[v]) {
                size_t first = seen[v] - 1;
                free(seen);
                return keps_error_at(err, KEPS_EINPUT, src, t->row_line[r], 1,
                                     "value '%s' is listed twice (also line %u); each original value needs "
                                     "exactly one row", leaf->values[v], t->row_line[first]);
            }
            seen[v] = (uint32_t)r + 1;
        }
        free(seen);
    }
    /* Consistency: the level-(j-1) code determines the level-j code. */
    for (size_t j = 1; j < t->ncols; j++) {
        const keps_column *lo = &t->cols[j - 1], *hi = &t->cols[j];
        uint32_t *up = malloc(lo->nvalues * sizeof *up);
        uint32_t *who = malloc(lo->nvalues * sizeof *who);
        if (!up || !who) {
            free(up);
            free(who);
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        }
        memset(up, 0xff, lo->nvalues * sizeof *up);
        for (size_t r = 0; r < t->nrows; r++) {
            uint32_t a = lo->codes[r], b = hi->codes[r];
            if (up[a] == KEPS_NONE) {
                up[a] = b;
                who[a] = (uint32_t)r;
            } else if (up[a] != b) {
                keps_status s = keps_error_at(
                    err, KEPS_EINPUT, src, t->row_line[r], j + 1,
                    "inconsistent hierarchy: '%s' at level %zu generalizes to '%s' at level %zu here but to "
                    "'%s' on line %u; values merged at one level must stay merged above",
                    lo->values[a], j - 1, hi->values[b], j, hi->values[up[a]], t->row_line[who[a]]);
                free(up);
                free(who);
                return s;
            }
        }
        free(up);
        free(who);
    }
    return KEPS_OK;
}

static keps_status wrap(keps_table *levels, int check_empty, keps_hierarchy **out, keps_error *err)
{
    *out = NULL;
    keps_status s = validate(levels, check_empty, err);
    if (s) {
        keps_table_free(levels);
        return s;
    }
    keps_hierarchy *h = calloc(1, sizeof *h);
    if (!h) {
        keps_table_free(levels);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    h->levels = levels;
    *out = h;
    return KEPS_OK;
}

keps_status keps_hierarchy_from_table(keps_table *levels, keps_hierarchy **out, keps_error *err)
{
    return wrap(levels, 0, out, err);
}

keps_status keps_hierarchy_load_buffer(const char *data, size_t len, const char *name,
                                       char delimiter, keps_hierarchy **out, keps_error *err)
{
    *out = NULL;
    /* The missing token is set to a string no cell can hold, so an empty
     * cell stays an ordinary (and then rejected) value. */
    keps_csv_options o = {.delimiter = delimiter, .missing = "\x01", .no_header = 1, .tree_paths = 1};
    keps_table *t;
    keps_status s = keps_csv_read_buffer(data, len, name, &o, &t, err);
    if (s)
        return s;
    return wrap(t, 1, out, err);
}

keps_status keps_hierarchy_load(const char *path, char delimiter, keps_hierarchy **out,
                                keps_error *err)
{
    *out = NULL;
    keps_csv_options o = {.delimiter = delimiter, .missing = "\x01", .no_header = 1, .tree_paths = 1};
    keps_table *t;
    keps_status s = keps_csv_read(path, &o, &t, err);
    if (s)
        return s;
    return wrap(t, 1, out, err);
}

/* The missing value of t's column has no row in h: say which row to add,
 * spelled for this hierarchy (its separator, its height, its top). */
static keps_status missing_not_in(const keps_hierarchy *h, const keps_table *t, size_t col, keps_error *err)
{
    const keps_table *L = h->levels;
    const keps_column *c = &t->cols[col];
    const char *tok = c->values[c->missing];
    int height = keps_hierarchy_height(h);
    char d = L->delimiter ? L->delimiter : ';';
    int single_top = keps_hierarchy_size(h, height) == 1;
    const char *top = single_top ? keps_hierarchy_label(h, height, 0) : "TOP";
    char row[400];
    size_t n = 0;
    for (int l = 0; l < height && n < sizeof row - 80 && strlen(tok) < 60; l++)
        n += (size_t)snprintf(row + n, sizeof row - n, "%s%c", tok, d);
    snprintf(row + n, sizeof row - n, "%.60s", top);
    return keps_table_cell_error(err, t, col, c->first_row[c->missing],
                                 "the missing value (%s%s%s) is not in the hierarchy %s; add the row '%s'%s: the "
                                 "missing value then stays itself up to the top (or give it another path%s)",
                                 *tok ? "'" : "the empty field", tok, *tok ? "'" : "", L->source, row,
                                 single_top ? "" : " with TOP one of the top level's values",
                                 *tok ? "" : "; the empty field may stay empty only on the lowest levels");
}

keps_status keps_hierarchy_bind(const keps_hierarchy *h, const keps_table *t, size_t col,
                                uint32_t ***mapp, keps_error *err)
{
    *mapp = NULL;
    if (col >= t->ncols)
        return keps_error_set(err, KEPS_EINPUT, "column index %zu is out of range: %s has %zu columns", col,
                              t->source, t->ncols);
    const keps_table *L = h->levels;
    const keps_column *c = &t->cols[col];
    int nl = (int)L->ncols;
    uint32_t **map = calloc((size_t)nl, sizeof *map);
    if (!map)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (int l = 0; l < nl; l++)
        if (!(map[l] = malloc((c->nvalues ? c->nvalues : 1) * sizeof **map))) {
            keps_hierarchy_map_free(map, h);
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        }
    for (uint32_t v = 0; v < c->nvalues; v++) {
        const char *s = c->values[v];
        uint32_t leaf = keps_table_lookup(L, 0, s, strlen(s));
        if (leaf == KEPS_NONE) {
            keps_hierarchy_map_free(map, h);
            return v == c->missing ? missing_not_in(h, t, col, err)
                                   : keps_table_cell_error(err, t, col, c->first_row[v],
                                                           "value '%s' is not in the hierarchy %s; add a row for it "
                                                           "(value;level1;...;top)",
                                                           s, L->source);
        }
        uint32_t row = L->cols[0].first_row[leaf];
        for (int l = 0; l < nl; l++)
            map[l][v] = L->cols[l].codes[row];
    }
    *mapp = map;
    return KEPS_OK;
}

void keps_hierarchy_map_free(uint32_t **map, const keps_hierarchy *h)
{
    if (!map)
        return;
    for (size_t l = 0; l < h->levels->ncols; l++)
        free(map[l]);
    free(map);
}

uint32_t *keps_hierarchy_leaf_counts(const keps_hierarchy *h, int level)
{
    const keps_column *c = &h->levels->cols[level];
    uint32_t *n = calloc(c->nvalues ? c->nvalues : 1, sizeof *n);
    if (n)
        for (size_t r = 0; r < h->levels->nrows; r++)
            n[c->codes[r]]++;
    return n;
}

int keps_hierarchy_parse_widths(const char *spec, double *widths, int max, keps_error *err)
{
    int n = 0;
    const char *p = spec;
    while (*p) {
        char *end;
        double w = strtod(p, &end);
        if (end == p || !(w > 0) || !isfinite(w) || (*end && *end != ',')) {
            keps_error_set(err, KEPS_EINPUT,
                           "interval spec '%s': expected positive widths separated by commas, e.g. interval=5,10,20",
                           spec);
            return -1;
        }
        if (n == max) {
            keps_error_set(err, KEPS_EINPUT, "interval spec '%s': at most %d widths", spec, max);
            return -1;
        }
        if (n > 0) {
            double ratio = w / widths[n - 1];
            if (ratio < 1.5 || fabs(ratio - nearbyint(ratio)) > 1e-9) {
                keps_error_set(err, KEPS_EINPUT,
                               "interval spec '%s': width %g is not a multiple (>1) of %g; each width must "
                               "be a multiple of the previous so that intervals nest",
                               spec, w, widths[n - 1]);
                return -1;
            }
        }
        widths[n++] = w;
        p = *end ? end + 1 : end;
    }
    if (n == 0)
        keps_error_set(err, KEPS_EINPUT, "interval spec is empty: give widths, e.g. interval=5,10,20");
    return n ? n : -1;
}
