/* Private: building tables by codes rather than by strings, for the fast
 * paths of the CSV reader (pieces parsed on threads, then joined) and of
 * OLA's release (every cell a code of a dictionary interned once). */
#ifndef KEPS_TABLE_INTERNAL_H
#define KEPS_TABLE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "keps/table.h"

/* Appends one row given by a code per column (codes of t's own
 * dictionaries, from keps_table_intern); line as keps_table_append. */
KEPS_INTERNAL keps_status keps_table_append_codes(keps_table *t, const uint32_t *codes, uint32_t line,
                                                  keps_error *err);

/* Appends every row of b to a (same number of columns; b's names are not
 * checked), each value interned into a's dictionaries: a then equals the
 * table that appending b's rows one by one would have made. */
KEPS_INTERNAL keps_status keps_table_concat(keps_table *a, const keps_table *b, keps_error *err);

#endif
