/* Helpers shared by the cmocka tests. */
#ifndef KEPS_TESTUTIL_H
#define KEPS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <math.h>
/* cmocka needs these before its header */
#include <cmocka.h>

#include "keps/lattice.h"
#include "keps/partition.h"
#include "keps/schema.h"
#include "keps/table.h"

/* Absolute path of a file in the source tree (static buffer, rotates 8). */
const char *src_path(const char *rel);
/* Table from CSV text; fails the test on error. */
keps_table *table_from_csv(const char *csv);
/* Runs the keps binary with a shell command line (args appended to the
 * binary path); returns its exit code; stdout/stderr captured into the
 * given buffers (may be NULL). */
int run_keps(const char *args, char *out, size_t outlen, char *errbuf, size_t errlen);
/* Adult (data/adult, 30162 rows) with its first nq of nine QIs (sex, age,
 * race, marital-status, education, native-country, workclass, occupation,
 * salary-class) and their hierarchies, and the lattice over them. */
keps_lattice *adult_lattice(int nq, keps_table **t, keps_schema **s);
/* Writes text to a fresh temporary file; returns its path (static, rotates 8). */
const char *temp_file(const char *text);

/* Fails unless t has nrows x ncols cells equal to want (row-major). */
void assert_table_cells(const keps_table *t, size_t nrows, size_t ncols, const char *const *want);

/* k-anonymity's release of lattice node levels: the node's partition
 * (keps_partition_from_node), classes below k suppressed, written by
 * keps_lattice_apply. Returns the first failing call's status. */
keps_status apply_k(const keps_lattice *L, const int *levels, size_t k, int remove_suppressed, keps_table **release,
                    keps_counts *counts, keps_error *err);

#define assert_double_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

#endif
