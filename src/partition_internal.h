/* Private: shared by the partition and lattice modules. */
#ifndef KEPS_PARTITION_INTERNAL_H
#define KEPS_PARTITION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "keps/criteria.h"

/* Per-class histograms of vals[r] (values below m; KEPS_NONE = not
 * counted) over the rows of a class (class_of[r] != KEPS_NONE) that are
 * released (released NULL = all), values increasing; out's arrays are new.
 * 0, or -1 out of memory. */
KEPS_INTERNAL int keps_hist_from_rows(size_t nrows, const uint32_t *class_of, size_t nclasses, const uint32_t *vals,
                                      size_t m, const uint8_t *released, keps_class_hist *out);

#endif
