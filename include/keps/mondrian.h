/* keps: strict multidimensional Mondrian (LeFevre, DeWitt, Ramakrishnan
 * 2006), docs/spec.md 3.
 *
 * Quasi-identifiers come from a schema: a QI with no hierarchy is numeric
 * (parsed with keps_table_numeric; a missing value is an error), a QI with
 * an ARX hierarchy is categorical.
 *
 * A partition's extent on a QI is
 *   numeric:     [min, max] of its records;
 *   categorical: the covering node, the lowest hierarchy node (level, code)
 *                that all its records generalize to.
 * Its normalized width is
 *   numeric:     (max - min) / (max - min over the whole data set), 0 if the
 *                data set's range is 0;
 *   categorical: leaves(node) / leaves, leaves = hierarchy rows, and 0 when
 *                the node is a single leaf (Xu et al. 2006: card(u)/|A|).
 * Starting from all records, a partition is split on the QI of largest
 * normalized width (ties: earlier QI) that admits a cut, else on the next
 * widest, and so on; a partition no QI can cut becomes an equivalence class.
 * Cuts:
 *   numeric:     at the median: v = the value at sorted position
 *                floor((n-1)/2); the two candidate cuts are "x <= v" and
 *                "x < v" (records with equal values stay together); a cut is
 *                allowed when both sides keep >= k records; of the allowed
 *                ones the more balanced is taken (ties: "x <= v"). When
 *                neither is allowed no cut of this QI is: the run of
 *                values equal to v covers every position from k to n-k.
 *   categorical: into the children of the covering node (multi-way); allowed
 *                when every non-empty child group keeps >= k records.
 * So every class has >= k records and no class admits a cut on any QI.
 * The work is a loop over an explicit stack (no recursion); each level of
 * splitting costs O(n) (median by selection, not sorting), O(n log n) in all.
 *
 * Metrics:
 *   NCP (normalized certainty penalty, Xu et al. 2006): each record's
 *   penalty on a QI is its class's normalized width on that QI (definition
 *   above: numeric (hi-lo)/(domain range), categorical leaves under the
 *   node / total leaves, 0 for one leaf); ncp = the mean over all records and all
 *   QIs, in [0, 1] (0 = nothing generalized, 1 = everything fully
 *   generalized).
 *   discernibility = sum over classes of |class|^2 (Mondrian suppresses
 *   nothing).
 *
 * Released values: numeric "[lo-hi]" with lo, hi printed by %.15g; a class
 * whose records share one value releases that value alone (e.g. "39", not
 * "[39-39]"), always printed by %.15g. Categorical: the covering node's
 * label (level 0 = the original value); a hierarchy whose top level holds
 * several values gets a virtual root above it, released as "*". */
#ifndef KEPS_MONDRIAN_H
#define KEPS_MONDRIAN_H

#include <stddef.h>
#include <stdint.h>

#include "keps/criteria.h"
#include "keps/error.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A class's extent on one QI. */
typedef struct keps_mondrian_extent {
    double lo, hi;     /* numeric QI: min and max; categorical: unused (0) */
    int level;         /* categorical: covering node's level; numeric: -1 */
    uint32_t node;     /* categorical: its code at that level */
    double width;      /* normalized width (the NCP term) */
} keps_mondrian_extent;

/* The partitions as classes (the criteria, kepsilon, rr):
 * keps_partition_from_mondrian (keps/partition.h). */
typedef struct keps_mondrian_result {
    size_t n, nqi, k;
    size_t nclasses;
    uint32_t *cls;                  /* [n] class of each record */
    uint32_t *size;                 /* [nclasses] */
    keps_mondrian_extent *extent;   /* [nclasses * nqi] */
    double ncp;
    double discernibility;
} keps_mondrian_result;

/* Partitions the records of s->t on the schema's QIs; t must be s->t (not
 * const: numeric QIs are parsed in place by keps_table_numeric). Errors: k < 1
 * or no QI (KEPS_EINPUT); a numeric QI cell that is not a number or is
 * missing (KEPS_EINPUT, file:line:col); fewer than k records (KEPS_EJOB);
 * KEPS_ECANCEL when the calling thread's progress hook cancelled
 * (keps/progress.h, heard every 256 partitions). */
keps_status keps_mondrian(const keps_schema *s, keps_table *t, size_t k, keps_mondrian_result *out,
                          keps_error *err);
/* The same under privacy criteria (keps/criteria.h, bound to t; NULL: k
 * alone): a cut is allowed when every part passes every criterion (the
 * minimal class size of the criteria raises k). Only criteria with a
 * per-class test on the released rows: delta-presence, k-map and the
 * sample-based ones are KEPS_EINPUT. KEPS_EJOB when all records together
 * fail them (no partition can pass). */
keps_status keps_mondrian_criteria(const keps_schema *s, keps_table *t, size_t k, const keps_criteria *crit,
                                   keps_mondrian_result *out, keps_error *err);
void keps_mondrian_result_free(keps_mondrian_result *r);

/* Released text of class c on QI q (see the format above) into buf of len
 * bytes, as snprintf: NUL-terminated, truncated if longer, and the return is
 * the full length without the NUL (>= len: buf was too short; buf = NULL
 * with len = 0 asks for it). A numeric QI's label needs at most 52 bytes
 * ("[lo-hi]", each number at most 24 characters); a categorical one the
 * hierarchy label's length + 1, which has no fixed limit. */
int keps_mondrian_label(const keps_schema *s, const keps_mondrian_result *r, size_t c, size_t q, char *buf,
                        size_t len);

/* The release in input order: QIs replaced by their class's label (never
 * truncated), other released columns copied. *release is the caller's, to
 * free with keps_table_free. */
keps_status keps_mondrian_release(const keps_schema *s, const keps_mondrian_result *r, keps_table **release,
                                  keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
