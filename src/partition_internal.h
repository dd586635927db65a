/* Private: shared by the partition and lattice modules. */
#ifndef KEPS_PARTITION_INTERNAL_H
#define KEPS_PARTITION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "keps/criteria.h"
#include "keps/schema.h"
#include "keps/table.h"

/* Per-class histograms of vals[r] (values below m; KEPS_NONE = not
 * counted) over the rows of a class (class_of[r] != KEPS_NONE) that are
 * released (released NULL = all), values increasing; out's arrays are new.
 * Row r counts weight[r] (a frequency table's count; NULL = 1 each).
 * 0, or -1 out of memory. */
KEPS_INTERNAL int keps_hist_from_rows(size_t nrows, const uint32_t *class_of, size_t nclasses, const uint32_t *vals,
                                      size_t m, const uint8_t *released, const uint32_t *weight,
                                      keps_class_hist *out);

/* The release of lattice node levels of s (the writer behind
 * keps_lattice_apply): row r is left out when released[r] == 0 (released
 * NULL: every row is; counted as unsampled), its QIs are '*' when
 * suppressed[class_of[r]] (the row is left out with remove_suppressed),
 * else the hierarchy labels at levels; other released columns are copied.
 * Counts are in records: row r stands for weight[r] (NULL: 1 each) of the
 * input's records. safela passes the classes of its sample keyed on every
 * released column; keps_lattice_apply a partition of the lattice's own. */
KEPS_INTERNAL keps_status keps_node_release(const keps_schema *s, const uint32_t *weight, size_t records,
                                            const int *levels, const uint32_t *class_of, const uint8_t *suppressed,
                                            const uint8_t *released, int remove_suppressed, keps_table **release,
                                            keps_counts *counts, keps_error *err);

/* Dense class ids from key tuples: entries i < n with equal (keys[j*n + i],
 * j < nkeys) share an id, ids increasing with the tuples (lexicographic);
 * entries with skip[i] != 0 (may be NULL) get KEPS_NONE. Returns the
 * number of ids, or (size_t)-1 out of memory. kepsilon.c's; keps_kepsilon_run
 * renumbers its given classes with it, and the command layer numbers a
 * partition's classes by their QI tuples. */
KEPS_INTERNAL size_t keps_classes_from_keys(const uint32_t *keys, size_t n, size_t nkeys, const uint8_t *skip,
                                            uint32_t *cls);

#endif
