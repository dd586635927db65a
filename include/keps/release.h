/* keps: assembling a release table row by row.
 *
 * keps_release_build makes the release of a schema (its released columns,
 * input order) where a method replaces some cells: cell(ctx, row, col)
 * returns the released text of input column col in that row, or NULL to
 * copy the input cell. Used by Mondrian and MDAV. */
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

keps_status keps_release_build(const keps_schema *s, keps_release_cell_fn cell, void *ctx,
                               keps_table **release, keps_error *err);

/* Writes v as the shortest of %.15g, %.16g and %.17g that reads back as
 * exactly v (released numbers must be the mechanism's output, not a
 * rounding of it; 0.1 still prints as "0.1"). Returns snprintf's count;
 * 32 bytes always suffice. */
int keps_format_number(char *buf, size_t len, double v);

#ifdef __cplusplus
}
#endif
#endif
