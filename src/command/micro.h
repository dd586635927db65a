/* Chores shared by `keps anonymize --algorithm mondrian|mdav` (anon_mondrian.c,
 * anon_mdav.c): input, schema, k, the common report keys. */
#ifndef KEPS_CLI_MICRO_H
#define KEPS_CLI_MICRO_H

#include "command_internal.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

/* Loads --input, builds the schema (--qi plus extra QI specs) and reads
 * the required -k (>= 1). Returns KEPS_OK or the status of the error (error printed). */
keps_status micro_setup(cmd_ctx *c, char **extra_qi, size_t nextra, keps_table **t, keps_schema **s, size_t *k);

/* Starts the report: shared keys, row counts (nothing suppressed or
 * sampled) and the k-anonymity guarantee. */
void micro_report_head(cmd_ctx *c, keps_json *j, const char *method, size_t rows, size_t k);

/* Writes a release a method built (st = the build's status; on failure
 * prints err). Frees rel. Sets *written to the time it finished. */
keps_status micro_write_release(cmd_ctx *c, keps_status st, const keps_error *err, keps_table *rel, double *written);

/* "timing_ms": {total, load, algorithm, write} from four timestamps. */
void micro_report_timing(keps_json *j, double start, double loaded, double done, double written);

#pragma GCC visibility pop
#endif
