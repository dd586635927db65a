/* keps: generalization hierarchies.
 *
 * ARX CSV layout: no header, one row per original (leaf) value, column j =
 * the value at level j (level 0 = the original value). Stored as a keps_table
 * whose column j is level j, so every level is dictionary-encoded: the code
 * of a value at level j is dense in 0..keps_hierarchy_size(h, j)-1.
 * Rows of different lengths are read as the leaf-to-root paths of an
 * unbalanced tree if all end at the same root: a short path repeats its
 * leaf on the lowest levels (keps_csv_options.tree_paths).
 * Validation: no empty cell, unique leaves, and consistency (values equal
 * at level j stay equal at every level above); a first row that looks like
 * a header row (see keps_csv_options.tree_paths) is refused at line 1,
 * column 1. */
#ifndef KEPS_HIERARCHY_H
#define KEPS_HIERARCHY_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_hierarchy {
    keps_table *levels;   /* row = leaf, column j = level j */
} keps_hierarchy;

/* Loads an ARX hierarchy CSV. delimiter 0 = sniff from the first row. */
keps_status keps_hierarchy_load(const char *path, char delimiter, keps_hierarchy **out,
                                keps_error *err);
keps_status keps_hierarchy_load_buffer(const char *data, size_t len, const char *name,
                                       char delimiter, keps_hierarchy **out, keps_error *err);
/* Builds and validates a hierarchy from a table (row = leaf, col = level).
 * Takes ownership of levels (also on failure). */
keps_status keps_hierarchy_from_table(keps_table *levels, keps_hierarchy **out, keps_error *err);

/* Interval hierarchy for numeric column col of t: level i (1..nw) groups
 * values into [lo-hi[ with lo = floor(v/w_i)*w_i, then a top level `*`.
 * Each width must be a multiple of the previous one (so levels nest).
 * The column's missing token, if present, stays itself up to the top.
 * col >= t->ncols is KEPS_EINPUT. */
keps_status keps_hierarchy_interval(keps_table *t, size_t col, const double *widths,
                                    size_t nw, keps_hierarchy **out, keps_error *err);
/* Parses "5,10,20" into widths; returns count or -1 (error set). */
int keps_hierarchy_parse_widths(const char *spec, double *widths, int max, keps_error *err);

void keps_hierarchy_free(keps_hierarchy *h);

static inline int keps_hierarchy_height(const keps_hierarchy *h)
{
    return (int)h->levels->ncols - 1;
}
static inline size_t keps_hierarchy_leaves(const keps_hierarchy *h)
{
    return h->levels->nrows;
}
/* Number of distinct values at a level. */
static inline uint32_t keps_hierarchy_size(const keps_hierarchy *h, int level)
{
    return h->levels->cols[level].nvalues;
}
static inline const char *keps_hierarchy_label(const keps_hierarchy *h, int level, uint32_t code)
{
    return h->levels->cols[level].values[code];
}

/* Maps every code of table column col through the hierarchy:
 * (*map)[l][v] = level-l code of column value v, for l in 0..height.
 * A data value missing from the hierarchy is an error naming the data
 * cell and the hierarchy file; col >= t->ncols is KEPS_EINPUT. Free with
 * keps_hierarchy_map_free. */
keps_status keps_hierarchy_bind(const keps_hierarchy *h, const keps_table *t, size_t col,
                                uint32_t ***map, keps_error *err);
void keps_hierarchy_map_free(uint32_t **map, const keps_hierarchy *h);

/* Leaves under each level-l value: out[code] = count (array of
 * keps_hierarchy_size(h, l)); used by ARX's Loss metric. Caller frees. */
uint32_t *keps_hierarchy_leaf_counts(const keps_hierarchy *h, int level);

#ifdef __cplusplus
}
#endif
#endif
