/* keps: a research subset, the rows of a population (the input) that are
 * released, as ARX's DataSubset.create(data, subset) finds them. */
#ifndef KEPS_SUBSET_H
#define KEPS_SUBSET_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks in flags[population->nrows] (1 = in the subset) one population row
 * for every row of subset, equal to it on every column the subset has
 * (matched by name; the population may have more columns). Rows are
 * matched in order, each population row at most once. A subset column
 * missing from the population, or a subset row left without a match, is
 * KEPS_EINPUT naming the file, line and column. */
keps_status keps_subset_match(const keps_table *population, const keps_table *subset, uint8_t *flags,
                              keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
