/* Shared parts of `keps kepsilon` and `keps dpmicro` (numeric columns that
 * receive noise): column lookup, --bounds, the report's noise_scale.
 * Private to these two commands. */
#ifndef KEPS_CLI_KDP_H
#define KEPS_CLI_KDP_H

#include <stddef.h>
#include <stdint.h>

#include "command_internal.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

/* Parses every numeric column cols[0..m) into x (layout: colmajor ? x[j*n+i]
 * : x[i*m+j]); a column of codes (keps_schema_numeric: "01097" is
 * categorical unless declared NAME:numeric), a missing or non-numeric cell
 * is an error naming the cell. Returns KEPS_OK or the status of the error after printing the
 * error. *x is malloc'ed. */
keps_status kdp_numeric(cmd_ctx *c, const keps_schema *s, keps_table *t, const size_t *cols, size_t m, int colmajor,
                double **x);

/* --bounds NAME=LO:HI for the columns cols[0..m): fills lo/hi and given[j].
 * A name that is not one of cols, or a malformed value, is a usage error. */
keps_status kdp_bounds(cmd_ctx *c, const keps_table *t, const size_t *cols, size_t m, double *lo, double *hi,
               int *given);

/* "noise_scale": {"COL": b, ...} */
void kdp_noise_scale_json(keps_json *j, const keps_table *t, const size_t *cols, size_t m, const double *b);

/* kepsilon's report (cmd_kepsilon.c), shared with keps-mpi, which merges
 * the ranks' results into r first: the guarantee, noise_scale and its
 * formula, scale, classes, digits, clamp, metrics, expected_are_per_column
 * and confident_suppression of r for the noisy columns noisy[0..r->m) of t. */
struct keps_kepsilon_params;
struct keps_kepsilon_result;
void cmd_kepsilon_json(keps_json *j, const keps_table *t, const size_t *noisy, size_t k,
                       const struct keps_kepsilon_params *p, const struct keps_kepsilon_result *r);
/* kepsilon's parameters, read by keps kepsilon and keps-mpi kepsilon alike
 * (errors go into c's result): confidence, scale, clamp (needs bounds), and
 * bounds only with scale domain or clamp, into p. */
keps_status cmd_kepsilon_noise_options(cmd_ctx *c, struct keps_kepsilon_params *p);
/* The bounds of s's noisy columns into b[0..2m) (lo, then hi; -inf/inf for
 * a column without bounds), p->lo and p->hi pointing there; scale domain
 * needs every column's. */
keps_status cmd_kepsilon_bounds(cmd_ctx *c, const keps_schema *s, struct keps_kepsilon_params *p, double *b);
/* The first value x[col*n + row] of a released row (cls[row] != KEPS_NONE)
 * outside its bounds when scale domain or clamp reads them: 1, else 0. */
int cmd_kepsilon_outside(const struct keps_kepsilon_params *p, size_t n, size_t m, const uint32_t *cls,
                         const double *x, size_t *row, size_t *col);
/* Its error v, naming the cell (file, line, column) of s->t. */
keps_status cmd_kepsilon_outside_error(cmd_ctx *c, const keps_schema *s, const struct keps_kepsilon_params *p,
                                       size_t row, size_t col, double v);
/* "noiseless_rows": {"COL": rows[a]} for the noisy columns noisy[0..m) of
 * t, with the privacy warning for each column that has some. */
void cmd_kepsilon_noiseless_json(cmd_ctx *c, keps_json *j, const keps_table *t, const size_t *noisy, size_t m,
                                 const size_t *rows);
/* Released rows of r whose noisy column j got no noise (class scale 0). */
size_t cmd_kepsilon_noiseless_rows(const struct keps_kepsilon_result *r, size_t j);

#pragma GCC visibility pop
#endif
