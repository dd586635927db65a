/* Private: the release builder's row filter and the check of a
 * k-anonymization's release passed in as the source of QI labels (shared by
 * kepsilon.c and rr.c). */
#ifndef KEPS_RELEASE_INTERNAL_H
#define KEPS_RELEASE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "keps/release.h"

/* keps_release_build that leaves out the rows with skip[row] != 0 (skip
 * may be NULL: every row). */
KEPS_INTERNAL keps_status keps_release_build_rows(const keps_schema *s, const uint8_t *skip,
                                                  keps_release_cell_fn cell, void *ctx, keps_table **release,
                                                  keps_error *err);

/* rel_of[ncols]: the index of each input column among the released
 * columns, -1 for a column not released. If gen is not NULL, checks that it
 * is a release of s (keps_release_new's columns, one row per input row):
 * else KEPS_EINPUT naming what differs. */
KEPS_INTERNAL keps_status keps_release_columns(const keps_schema *s, const keps_table *gen, int *rel_of,
                                               keps_error *err);

/* attr_of[ncols]: the attribute a of an n x m result (MDAV, dpmicro)
 * that table column cols[a] releases, -1 for every other column. cols NULL
 * means the schema's QIs in order (s->qi[a].col), which must then number
 * m. KEPS_EINPUT if n is not the table's row count, cols repeats a column or
 * names one outside the table, or cols is NULL and m != s->nqi; what names
 * the method in the message. */
KEPS_INTERNAL keps_status keps_release_attr_columns(const keps_schema *s, const size_t *cols, size_t n, size_t m,
                                                    int *attr_of, const char *what, keps_error *err);

#endif
