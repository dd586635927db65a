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
 * checked), each value interned into a's dictionaries, b's source lines
 * shifted by line_offset: a then equals the table that appending b's rows
 * one by one would have made. b's code arrays are freed on the way: b may
 * only be freed afterwards (success or not). */
KEPS_INTERNAL keps_status keps_table_concat(keps_table *a, keps_table *b, uint32_t line_offset,
                                            keps_error *err);

/* csv.c: files of at least this many bytes (default 32 MiB) are parsed
 * in two pieces at once; tests lower it to run that path on small files. */
KEPS_INTERNAL void keps_csv_piece_min(long long bytes);
/* How many files so far were read in pieces (for tests). */
KEPS_INTERNAL long long keps_csv_pieces_read(void);

#endif
