/* Shared parts of `keps kepsilon` and `keps dpmicro` (numeric columns that
 * receive noise): column lookup, --bounds, the release writer, the report's
 * noise_scale. Private to these two commands. */
#ifndef KEPS_CLI_KDP_H
#define KEPS_CLI_KDP_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* Parses every numeric column cols[0..m) into x (layout: colmajor ? x[j*n+i]
 * : x[i*m+j]); a missing or non-numeric cell is an error naming the cell.
 * Returns 0 or an exit code after printing the error. *x is malloc'ed. */
int kdp_numeric(cli_ctx *c, keps_table *t, const size_t *cols, size_t m, int colmajor, double **x);

/* --bounds NAME=LO:HI for the columns cols[0..m): fills lo/hi and given[j].
 * A name that is not one of cols, or a malformed value, is a usage error. */
int kdp_bounds(cli_ctx *c, const keps_table *t, const size_t *cols, size_t m, double *lo, double *hi,
               int *given);

/* Supplies the output text of (row, column) of the input table; buf has
 * 256 bytes. Returns the text (buf or any stable string). */
typedef const char *(*kdp_cell_fn)(void *ctx, size_t row, size_t col, char *buf);

/* Builds the release (schema's released columns, rows with drop[row] == 0)
 * and writes it with cli_write_release (shuffled unless --keep-order). */
int kdp_write(cli_ctx *c, const keps_schema *s, const uint8_t *drop, kdp_cell_fn cell, void *ctx);

/* "noise_scale": {"COL": b, ...} */
void kdp_noise_scale_json(keps_json *j, const keps_table *t, const size_t *cols, size_t m, const double *b);

#endif
