/* keps for R: helpers shared by the .Call entry points.
 *
 * Errors: a call never longjmps out of a frame that holds library memory.
 * Library objects that must live across R allocations are owned by an
 * external pointer (freed by R's garbage collector should an R error
 * intervene) and freed explicitly on the normal path; keps errors are
 * raised with rk_raise only after everything is released. */
#ifndef RKEPS_H
#define RKEPS_H

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/table.h"

/* Signals err as an R condition of class keps_input_error (KEPS_EINPUT),
 * keps_job_error (KEPS_EJOB) or keps_resource_error (I/O, memory), through
 * the package's R function .keps_raise. Does not return. */
void rk_raise(const keps_error *err) __attribute__((noreturn));
/* The same for a message of the caller's: rk_fail(KEPS_EINPUT, "...", ...). */
void rk_fail(keps_status code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* External pointers owning a table or a hierarchy (NULL allowed); PROTECT
 * the result. rk_release frees what an owner holds now. */
SEXP rk_own_table(keps_table *t);
SEXP rk_own_hierarchy(keps_hierarchy *h);
void rk_release(SEXP owner);

/* One UTF-8 string argument (a length-one character vector), or NULL for
 * NULL / NA. */
const char *rk_string(SEXP x, const char *what);

/* A keps_table from a data.frame's columns (a list of vectors of equal
 * length: factor, character, double, integer; the R side converts other
 * types). NA is the table's missing token. source names the table in
 * messages, whose positions are then ROW:COLUMN. NULL with err set on
 * failure. */
keps_table *rk_table_from_list(SEXP cols, SEXP names, const char *missing, const char *source,
                               keps_error *err);
/* A list of factors, one per column of t (levels = the column's
 * dictionary in code order without the missing token, which becomes NA),
 * named by the columns; the R side turns them into the caller's types.
 * order: row i is t's row order[i] (NULL: as stored). */
SEXP rk_list_from_table(const keps_table *t, const uint32_t *order);
/* Sets attribute "numeric" of such a list: per column, whether keps reads
 * it as numbers (keps_table_infer_type). Returns out. */
SEXP rk_with_types(SEXP out, const keps_table *t);

#endif
