/* keps: assembling a release table row by row.
 *
 * keps_release_build makes the release of a schema (its released columns,
 * input order) where a method replaces some cells: cell(ctx, row, col)
 * returns the released text of input column col in that row, or NULL to
 * copy the input cell. keps_mondrian_release builds its release with it. */
#ifndef KEPS_RELEASE_H
#define KEPS_RELEASE_H

#include <stddef.h>
#include <stdio.h>

#include "keps/error.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A release under construction: the released columns of the input, in
 * input order, as a table of output strings; the caller's, to free with
 * keps_table_free. */
keps_table *keps_release_new(const keps_schema *s, keps_error *err);
/* Writes the release, shuffled with rng unless keep_order, to path
 * (keps/outfile.h: a file appears whole or not at all). rng may be NULL
 * only with keep_order (else KEPS_EINPUT). */
keps_status keps_release_write(const keps_table *release, const char *path, char delimiter,
                               keps_rng *rng, int keep_order, keps_error *err);
/* The same into an open stream (keps_outfile_stream()); name for messages.
 * The caller commits, e.g. together with a report. */
keps_status keps_release_write_to(const keps_table *release, FILE *f, const char *name, char delimiter,
                                  keps_rng *rng, int keep_order, keps_error *err);

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
/* keps_format_number with t's decimal mark (t->decimal_comma: "170,5"),
 * for numbers a method computes from t's values. t may be NULL ('.'). */
int keps_format_number_in(char *buf, size_t len, double v, const keps_table *t);

/* Output precision (docs/spec.md, "Output precision"). v rounded to
 * digits decimals: the decimal nearest to the exact binary value of v,
 * halfway cases to even (as printf's %.*f rounds), read back as a double,
 * so keps_format_number then writes at most digits decimals (172.38461538
 * at 1 gives "172.4"). digits < 0 or v not finite: v unchanged. Rounding
 * a released number is post-processing: it keeps every DP guarantee. */
double keps_round_decimals(double v, int digits);
/* Rounds v[0..n) (stride apart: v[i*stride]) to digits decimals, then
 * clamps each into [lo, hi] (a bound with more decimals is kept as it is);
 * NaN entries (withheld cells) stay NaN. lo = -INFINITY, hi = INFINITY
 * clamp nothing. Returns how many values the clamp moved. */
size_t keps_round_clamp(double *v, size_t n, size_t stride, int digits, double lo, double hi);

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
