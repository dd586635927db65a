/* keps: a partition of the rows into equivalence classes, whatever made it,
 * with
 * what the privacy criteria (keps/criteria.h) read: released and
 * population counts, each class's first row and its histograms of
 * sensitive values; and which classes are suppressed.
 *
 * A research subset (keps_criteria_new's released flags) splits the rows
 * into those released and the rest of the population: count counts the
 * released rows of a class, pcount all of them. Every method that releases
 * or checks classes builds one of these and lets keps_partition_enforce
 * decide what is suppressed, so the search, Mondrian, verify and the
 * reports agree.
 *
 * Sources, one call each: a row -> class map (keps_partition_from_classes),
 * the values of given columns (_from_columns), a release read back with its
 * suppressed rows (_from_release), a lattice node (_from_node), Mondrian's
 * partitions (_from_mondrian) and MDAV's groups (_from_mdav). kepsilon, rr,
 * risk, suda, verify, the search and Mondrian take their classes from
 * these; keps_lattice_apply writes a lattice node's release. */
#ifndef KEPS_PARTITION_H
#define KEPS_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "keps/criteria.h"
#include "keps/error.h"
#include "keps/lattice.h"
#include "keps/mdav.h"
#include "keps/metrics.h"
#include "keps/models.h"
#include "keps/mondrian.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_partition {
    size_t nrows;           /* input rows */
    size_t nclasses;
    uint32_t *class_of;     /* [nrows] class of each row, KEPS_NONE = in no class */
    uint32_t *count;        /* [nclasses] released rows */
    uint32_t *pcount;       /* [nclasses] rows of the population; NULL without a research subset */
    uint32_t *first_row;    /* [nclasses] the class's first row (labels, ties) */
    uint8_t *suppressed;    /* [nclasses] 1 = suppressed (keps_partition_enforce) */
    uint8_t *full_gen;      /* [nclasses] every QI is '*', or NULL (unknown: none) */
    double *tie;            /* [nclasses x tie_dim] order of equal-size classes for
                               sample-based criteria (keps_partition_node_ties), or NULL */
    size_t tie_dim;
    const uint8_t *released; /* [nrows] the research subset (borrowed), NULL = every row */
    size_t released_rows;   /* rows released (in a class or not) */
    size_t suppressed_rows; /* released rows in suppressed classes */
    size_t nsens;
    keps_class_hist *hist;  /* [nsens] per-class histograms, NULL until computed */
} keps_partition;

void keps_partition_free(keps_partition *p);

/* Classes from a row -> class map (class ids dense in 0..nclasses-1,
 * KEPS_NONE = in no class; copied). With crit, the histograms of its
 * sensitive columns and the research subset's counts are computed. */
keps_status keps_partition_from_classes(const keps_table *t, const uint32_t *class_of, size_t nclasses,
                                        const keps_criteria *crit, keps_partition *out, keps_error *err);

/* Rows grouped by their codes in t's columns cols[0..ncols) (classes by
 * first appearance); rows with skip[r] != 0 are in no class (skip may be
 * NULL). */
keps_status keps_partition_from_columns(const keps_table *t, const size_t *cols, size_t ncols, const uint8_t *skip,
                                        const keps_criteria *crit, keps_partition *out, keps_error *err);

/* A release read back (keps risk, keps verify): rows grouped by their
 * values in columns cols as written (keps_partition_from_columns, classes
 * by first appearance). Rows whose every one of them is "*" are suppressed:
 * in no class (KEPS_SUPPRESSED_EXCLUDE, as ARX does) or one ordinary class
 * (KEPS_SUPPRESSED_CLASS); when every row is "*" they form one class
 * whatever the mode: a release generalized to the top of every hierarchy
 * looks exactly like one whose rows were all suppressed, and excluding them
 * would let every property hold vacuously. *star_rows (may be NULL) gets
 * the rows that are "*" in every column. KEPS_EINPUT if ncols is 0, an
 * index is >= t->ncols or mode is unknown. */
keps_status keps_partition_from_release(const keps_table *t, const size_t *cols, size_t ncols,
                                        keps_suppressed_mode mode, const keps_criteria *crit,
                                        keps_partition *out, size_t *star_rows, keps_error *err);

/* The classes of lattice node levels (L built with keps_lattice_new_ex for
 * crit's needs, or keps_lattice_new when crit is NULL), with the fully
 * generalized classes marked. KEPS_EINPUT for a level out of range. */
keps_status keps_partition_from_node(const keps_lattice *L, const int *levels, const keps_criteria *crit,
                                     keps_partition *out, keps_error *err);

/* Mondrian's partitions (keps_mondrian, keps_mondrian_criteria on t) as
 * classes, in Mondrian's numbering; nothing is suppressed. */
keps_status keps_partition_from_mondrian(const keps_table *t, const keps_mondrian_result *m,
                                         const keps_criteria *crit, keps_partition *out, keps_error *err);

/* MDAV's groups (keps_mdav, keps_mdav_insensitive over t's rows) as
 * classes, in MDAV's numbering. */
keps_status keps_partition_from_mdav(const keps_table *t, const keps_mdav_result *m, const keps_criteria *crit,
                                     keps_partition *out, keps_error *err);

/* Population counts for a partition of a release: pcount[c] = the rows of
 * population whose values of QIs pop_cols[i] generalize through h[i] to
 * class c's values in release columns rel_cols[i] (i < nqi). Every QI's
 * released values must be labels of one level of its hierarchy (as a
 * lattice release's are; the lowest such level is taken), else
 * KEPS_EINPUT naming the column. Classes whose first row the partition
 * left out (suppressed rows) are skipped. */
keps_status keps_partition_population(keps_partition *p, const keps_table *release, const size_t *rel_cols,
                                      const keps_table *population, const size_t *pop_cols,
                                      const keps_hierarchy *const *h, size_t nqi, keps_error *err);

/* The tie keys ARX orders equal-size classes by for the sample-based
 * criteria (keps_metrics_class_key of metric) for the classes of lattice
 * node levels. */
keps_status keps_partition_node_ties(keps_partition *p, const keps_lattice *L, const int *levels,
                                     const keps_metrics *m, keps_metric metric, keps_error *err);

/* Suppresses what the criteria require (keps_criteria_enforce; crit NULL:
 * the classes smaller than k) and sets suppressed_rows. st may be NULL. */
keps_status keps_partition_enforce(keps_partition *p, const keps_criteria *crit, size_t k, keps_enforce_stats *st,
                                   keps_error *err);

/* Class c as the criteria see it; the arrays hold nsens entries each. */
void keps_partition_view(const keps_partition *p, size_t c, const uint32_t **val, const uint32_t **cnt,
                         uint32_t *nval, keps_class_view *v);

/* The release of a lattice node: QIs hold the hierarchy labels at levels,
 * the rows of p's suppressed classes '*' in every QI (or are left out with
 * remove_suppressed), rows outside the research subset are not released
 * (counted as unsampled). p must be the node's (keps_partition_from_node).
 * *release is the caller's (keps_table_free). */
keps_status keps_lattice_apply(const keps_lattice *L, const int *levels, const keps_partition *p,
                               int remove_suppressed, keps_table **release, keps_counts *counts, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
