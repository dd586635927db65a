/* keps: MDAV microaggregation (docs/spec.md 3) and its insensitive variant (docs/spec.md 3, 5).
 *
 * Input is a contiguous row-major matrix x[i*m + j] of n records by m numeric
 * attributes in raw units (keps_mdav_matrix builds it from table columns).
 * Output is a partition of the records into groups of at least k records,
 * with each group's centroid in raw units; the release replaces every record
 * by its group's centroid.
 *
 * Standard MDAV (Domingo-Ferrer & Torra) works on standardized attributes:
 * z_ij = (x_ij - mean_j) / sd_j with the population sd (divide by n). A
 * constant attribute (sd_j = 0) gets z_ij = 0: it does not influence the
 * grouping and its centroid is the constant (never NaN). While at least 3k
 * records remain: r = record farthest from the centroid of the remaining
 * records; group r with its k-1 nearest remaining records; s = remaining
 * record farthest from r; group s with its k-1 nearest. Then 2k..3k-1 left:
 * one more group around the record farthest from the centroid, the rest form
 * the last group; k..2k-1 left: they form one group. Distances are squared
 * Euclidean on z. Ties: "farthest" and "nearest" both prefer the record with
 * the smaller input row index (a record is always its own nearest). The
 * centroid is the remaining records' sum as a scan adds it up in double,
 * divided by their number. Cost: with at most 8 attributes and at least
 * 2,048 records a k-d tree with deletions answers the farthest and nearest
 * queries (1,000,000 x 4 in seconds; docs/benchmarks.md); otherwise
 * O(n^2/k * m) distance scans on up to 2 threads (or keps_mdav_threads()).
 * Both give the same groups, bit for bit.
 *
 * Insensitive MDAV (Soria-Comas et al. 2013) orders the records totally by
 * their distance to the reference point R = (lo_1, ..., lo_m), the lower
 * corner of the public domain [lo_j, hi_j], measured on domain-normalized
 * coordinates u_ij = (x_ij - lo_j) / (hi_j - lo_j) (a data-independent
 * scaling: standardizing by the data's own sd would make the order depend on
 * every record and break insensitivity; an attribute with hi_j == lo_j
 * contributes 0). Ties in that distance are broken by the lexicographic order
 * of the raw values (x_i1, ..., x_im), then by row index. Groups are
 * consecutive blocks of that order: floor(n/k) groups of k, the last one
 * taking the n mod k leftover records (size k..2k-1). Group sizes depend on n
 * and k only, so replacing one record changes each group by at most one
 * record. Univariate (individual ranking) microaggregation of attribute j is
 * this call with m = 1 on that attribute's values (keps_mdav_column). The
 * caller should clamp values to [lo_j, hi_j] first when a DP guarantee rests
 * on the bounds; lo/hi = NULL uses the data's min/max (then the order is
 * data-dependent: not insensitive in the DP sense).
 *
 * Group ids: groups are numbered 0..ngroups-1 in the order they are formed
 * (MDAV: r-group before s-group; insensitive: block order). MDAV with
 * k = 1 puts every record alone, numbered by row. */
#ifndef KEPS_MDAV_H
#define KEPS_MDAV_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The groups as classes: keps_partition_from_mdav (keps/partition.h). */
typedef struct keps_mdav_result {
    size_t n, m;          /* records, attributes */
    size_t k;             /* minimum group size used */
    size_t ngroups;
    uint32_t *group;      /* [n] group id of each record */
    uint32_t *size;       /* [ngroups] records in each group */
    double *centroid;     /* [ngroups*m] row-major group means, raw units */
    double *mean, *sd;    /* [m] data mean and population sd used for z */
    double sse;           /* sum over records of ||x_i - centroid||^2, raw units */
    double sse_standardized; /* the same on z (sd_j = 0 attributes contribute 0) */
} keps_mdav_result;

/* Standard MDAV. Errors: k < 1 or m < 1 (KEPS_EINPUT); n < k, including
 * n == 0 (KEPS_EJOB: fewer records than k cannot be k-anonymous); a
 * non-finite value (KEPS_EINPUT); out of memory; KEPS_ECANCEL when the
 * calling thread's progress hook cancelled (keps/progress.h, heard every
 * 1% of the records). On error *out is zeroed. */
keps_status keps_mdav(const double *x, size_t n, size_t m, size_t k, keps_mdav_result *out,
                      keps_error *err);

/* Insensitive MDAV with domain bounds lo[m], hi[m] (both NULL: data min/max;
 * lo[j] > hi[j] is KEPS_EINPUT). Same errors as keps_mdav. */
keps_status keps_mdav_insensitive(const double *x, size_t n, size_t m, size_t k, const double *lo,
                                  const double *hi, keps_mdav_result *out, keps_error *err);

void keps_mdav_result_free(keps_mdav_result *r);

/* Row-major n x m matrix of the table's columns cols[0..m-1], parsed with
 * keps_table_numeric. A non-numeric cell or a missing value is KEPS_EINPUT
 * naming file:line:col (MDAV has no imputation). Caller frees *x. */
keps_status keps_mdav_matrix(keps_table *t, const size_t *cols, size_t m, double **x,
                             keps_error *err);

/* The microaggregated release, in input order (the rows of s->t): the
 * cell of row i in table column cols[a] is the centroid of i's group on
 * attribute a (r->centroid[group[i]*m + a]) written by keps_format_number
 * (the exact double, e.g. "4002.8571428571427"); every other released
 * column of s is copied from the input. Nothing is suppressed: every row is
 * released. cols[0..r->m) are the columns the matrix was built from (as
 * given to keps_mdav_matrix); NULL means the schema's QIs in order,
 * s->qi[a].col. *release is the caller's, to free with keps_table_free
 * (NULL on error). Errors: r->n is not s->t's row count, a bad or repeated
 * column, cols NULL with r->m != s->nqi (KEPS_EINPUT); a centroid that is
 * not finite (KEPS_EJOB); OOM. */
keps_status keps_mdav_release(const keps_schema *s, const size_t *cols, const keps_mdav_result *r,
                              keps_table **release, keps_error *err);

/* Output precision: rounds every centroid of attribute j to digits[j]
 * decimals (keps_round_decimals; an entry < 0, or digits NULL, keeps the
 * exact double) and recomputes sse and sse_standardized for the rounded
 * centroids, so that they describe the values a release then writes. x is
 * the matrix r was computed from. */
void keps_mdav_round(keps_mdav_result *r, const double *x, const int *digits);

/* Copies attribute j of a row-major n x m matrix into out[n] (for the
 * univariate variant). */
void keps_mdav_column(const double *x, size_t n, size_t m, size_t j, double *out);

/* Threads for the distance scans of keps_mdav (default 2; 1 = serial).
 * Process-wide setting; call it before, not during, keps_mdav calls. */
void keps_mdav_threads(int nthreads);

#ifdef __cplusplus
}
#endif
#endif
