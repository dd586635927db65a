/* keps: disclosure-risk measures of a release.
 *
 * Record linkage RL (SPEC 5; Soria-Comas et al. 2014, seed 003): the
 * original and the released records correspond row by row (the release was
 * written with --keep-order, one row per original row). Both are compared
 * on standardized values: z = (x - mean) / sd with the ORIGINAL data's mean
 * and population sd per attribute (an attribute with sd = 0 is left out:
 * it cannot tell records apart). Distances are Euclidean (squared; ties
 * are exact floating-point equality).
 *   KEPS_RL_ORIGINAL (SPEC 5, the default): for each original record x_i,
 *     G_i = the released records at minimum distance from x_i; x_i
 *     contributes 1/|G_i| if its own release x'_i is in G_i, else 0.
 *   KEPS_RL_RELEASED (the paper's formula): for each released record x'_j,
 *     G_j = the original records at minimum distance from x'_j; contributes
 *     1/|G_j| if x_j is in G_j.
 *   RL = (sum of contributions) / n, a FRACTION in [0, 1]; the paper's
 *   percentage is 100 * RL.
 * The result is that of comparing every record with every other; it is
 * computed with a k-d tree over the distinct target records (identical ones
 * once, with their multiplicity): each query searches the ball up to its own
 * target's distance and stops at the first target nearer than that (exact,
 * ties included: see src/risk.c), typically O(n log n) in all; the queries
 * run on 2 threads.
 *
 * Prosecutor re-identification risk of a generalized release: equivalence
 * classes = released records with identical values on the given columns;
 * a record's risk is 1/|EC|; report the maximum and the mean over records
 * (the mean equals classes / records), and the share of records in classes
 * of fewer than 2, 5 and 10 records. Suppressed rows (every column '*') are
 * left out by default, as in ARX's risk models. */
#ifndef KEPS_RISK_H
#define KEPS_RISK_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/models.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_RL_ORIGINAL = 0, KEPS_RL_RELEASED = 1 } keps_rl_direction;

/* orig and rel: row-major n x m raw values, row i of rel = release of row i
 * of orig. Errors: n == 0 or m == 0, a non-finite value, an unknown dir
 * (KEPS_EINPUT). */
keps_status keps_record_linkage(const double *orig, const double *rel, size_t n, size_t m,
                                keps_rl_direction dir, double *rl, keps_error *err);

typedef struct keps_prosecutor {
    size_t records, classes; /* records in the classes (suppressed ones excluded) */
    size_t suppressed;   /* rows whose every column is '*' (excluded or not, per mode) */
    double max;          /* max over records of 1/|EC| (0 if no record is in a class) */
    double avg;          /* mean over records of 1/|EC| = classes / records */
    double below[3];     /* share of records in classes of size < 2, < 5, < 10 */
    int all_star;        /* every row is '*': one class whatever the mode (keps_classes_build) */
} keps_prosecutor;

/* Classes on columns cols[0..m-1] of t (m == 0: all records form one
 * class; a column index >= t->ncols is KEPS_EINPUT). A row whose every column is '*' is a suppressed record:
 * KEPS_SUPPRESSED_EXCLUDE leaves such rows out (as ARX's risk models and
 * keps verify do: they reveal no QI value), KEPS_SUPPRESSED_CLASS counts
 * them as one ordinary class. If every row is '*' they are one class in
 * either mode (a release generalized to the top looks the same). */
keps_status keps_prosecutor_risk(const keps_table *t, const size_t *cols, size_t m, keps_suppressed_mode mode,
                                 keps_prosecutor *out, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
