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
/* Released rows of r whose noisy column j got no noise (class scale 0). */
size_t cmd_kepsilon_noiseless_rows(const struct keps_kepsilon_result *r, size_t j);

#pragma GCC visibility pop
#endif
