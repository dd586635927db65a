/* keps: assembling a release table row by row.
 *
 * keps_release_build makes the release of a schema (its released columns,
 * input order) where a method replaces some cells: cell(ctx, row, col)
 * returns the released text of input column col in that row, or NULL to
 * copy the input cell. keps_mondrian_release builds its release with it. */
#ifndef KEPS_RELEASE_H
#define KEPS_RELEASE_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef const char *(*keps_release_cell_fn)(void *ctx, size_t row, size_t col);

/* Calls cell for every released column of a row, in column order, and
 * copies the row into the table only then: each string cell returns must
 * stay valid until cell is called for the next row (or the call returns).
 * So one buffer reused across the columns of a row releases the last
 * column's text in all of them; use one buffer per column. cell may be
 * NULL (a copy of the released columns). *release is the caller's, to free
 * with keps_table_free; NULL on error. */
keps_status keps_release_build(const keps_schema *s, keps_release_cell_fn cell, void *ctx,
                               keps_table **release, keps_error *err);

/* Writes v as the shortest of %.15g, %.16g and %.17g that reads back as
 * exactly v (released numbers must be the mechanism's output, not a
 * rounding of it; 0.1 still prints as "0.1"). Returns snprintf's count;
 * 32 bytes always suffice. A non-finite v has no place in a release: it
 * still writes "inf"/"nan" but returns -1. Values read by
 * keps_table_numeric are finite; every method that computes numbers checks
 * them with keps_release_check_finite before they are formatted. */
int keps_format_number(char *buf, size_t len, double v);

/* The last line of defence before numbers are released: KEPS_OK if every
 * v[0..n) is finite, else an error (KEPS_EJOB, exit 1) naming what and the
 * first bad entry (1-based). Inputs are bounded by KEPS_NUM_MAX
 * (keps/table.h), so this fires only when a computation overflows anyway,
 * e.g. Laplace noise of a scale near DBL_MAX. */
keps_status keps_release_check_finite(const double *v, size_t n, const char *what, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
