/* keps: (k,epsilon)-anonymity (Holohan et al. 2017; docs/spec.md 4).
 *
 * Input: the equivalence classes a k-anonymization produced (one class id
 * per record, KEPS_NONE for a record the k-anonymization suppressed) and the
 * m numeric epsilon-QI ("noisy") columns, column-major x[j*n + i].
 *
 * Per class C and column j the Laplace scale is
 *     b_j(C) = m * diam_j(C) / epsilon
 * (diam = max - min inside C; m = 1 gives the paper's diam/epsilon; with m
 * columns epsilon is split equally over the record's columns so the record,
 * not each attribute, is the unit of the mechanism). scale = GLOBAL uses the
 * diameter over every released record instead, DOMAIN the public width
 * hi_j - lo_j. Noise comes from the DP module's grid Laplace sampler.
 *
 * This is NOT differential privacy: diam(C) is read from the data (a record
 * at the edge of its class changes the scale). Reports call it
 * "(k,epsilon)-anonymity".
 *
 * Metrics (computed on the released records: with c-confident suppression,
 * on those it keeps, so that they describe the written release; the values
 * before it are kept in the *_before_confident fields):
 * - expected average relative error (paper eq. 8, before any noise):
 *   per column, sum_C b_j(C) * |C| / (H_j(C) * N') with H_j the harmonic mean
 *   of |x| in C and N' the released records (E|Lap(b)| = b). With m = 1 and
 *   scale EC this is (1/eps) sum_C diam(C)|C|/(H(C) N'). The combined value
 *   is the mean over the m columns (the average relative error per cell).
 *   Records with x = 0 have no relative error and are left out of both sums.
 * - measured average relative error: mean of |x' - x| / |x| over the same
 *   cells.
 * - linking risk (paper V-B): record i links when its own original is a
 *   nearest original to its noisy value inside its class (ties count as a
 *   link, as the paper's phi). With m > 1 the distance is
 *   sum_j |x'_ij - x_lj| / b_j(C), the Laplace log-likelihood: the best guess
 *   of an attacker who knows the scales. risk = linked / N (N = input rows).
 * - c-confident k-anonymity (paper V-C): r_c = -b ln(1 - c); l_i = originals
 *   of i's class within r_c of noisy value i (with m > 1 a box of half-widths
 *   -b_j ln(1 - c^(1/m)), whose joint coverage is c); records with
 *   0 < l_i < k are suppressed, then every class left with fewer than k
 *   records. Counted apart from the k-anonymization's suppression. */
#ifndef KEPS_KEPSILON_H
#define KEPS_KEPSILON_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/table.h" /* KEPS_NONE */
#include "keps/guarantee.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_KSCALE_EC = 0, KEPS_KSCALE_GLOBAL, KEPS_KSCALE_DOMAIN } keps_kscale;

typedef struct keps_kepsilon_params {
    size_t k;            /* the k of the k-anonymization (for c-confidence) */
    double epsilon;      /* > 0 */
    keps_kscale scale;
    const double *lo, *hi; /* [m] public bounds, needed for DOMAIN */
    double confidence;   /* c in (0,1) for c-confident suppression; 0 = off */
    const int *digits;   /* [m] decimals each noisy value is rounded to (keps_round_decimals)
                            right after the noise, so that every metric and c-confidence
                            describe the values written; NULL or an entry < 0: the exact
                            double. Rounding is post-processing: the guarantee stands */
    int clamp;           /* 1: then clamp each noisy value into [lo_j, hi_j] (public bounds:
                            post-processing too; values outside any plausible range come
                            from the Laplace tails). Needs lo and hi; an entry may be
                            -INFINITY / INFINITY for a column without a bound */
    const double *diameter; /* [m] GLOBAL only: the diameter of each column over every
                            released record of the whole data set, when x holds a part of it
                            (keps-mpi: each rank runs its own classes, docs/scale.md); NULL:
                            the diameter over x's released records */
} keps_kepsilon_params;

typedef struct keps_kepsilon_result {
    size_t n, m;
    size_t nclasses;        /* classes (ids 0..nclasses-1 are remapped densely) */
    size_t released;        /* N': records with a class */
    uint32_t *cls;          /* [n] dense class id, KEPS_NONE if suppressed upstream */
    uint32_t *class_size;   /* [nclasses] */
    double *scale;          /* [nclasses*m] b_j(C), row-major by class */
    double *noisy;          /* [m*n] column-major noisy values; NAN for every row that must
                               not be released: suppressed by the k-anonymization (cls
                               KEPS_NONE) or by c-confidence (confident_suppressed), so a
                               caller writing noisy never releases an original x. Release
                               such rows as '*' or leave them out; keps_format_number
                               refuses NAN (returns -1) */
    double *mean_scale;     /* [m] mean of b_j over classes */
    double *expected_are_col, *measured_are_col; /* [m] */
    double expected_are, measured_are;           /* means over columns */
    size_t linked;
    double linking_risk;    /* linked / n */
    size_t linked_before_confident;             /* the same four before c-confident */
    double linking_risk_before_confident;       /* suppression (equal to the above */
    double expected_are_before_confident;       /* when it is off or suppressed */
    double measured_are_before_confident;       /* nothing) */
    double *expected_are_col_before_confident;  /* [m] the per-column values before it (the */
    double *measured_are_col_before_confident;  /* means above are over these) */
    double epsilon_used;    /* epsilon per record actually guaranteed by the grid-rounded
                               Laplace (keps/noise.h): max over classes of the sum over
                               columns; >= the requested epsilon, above it by at most
                               about m * 2^-39 (the request itself where the scale's
                               rounding up to 41 bits leaves the bound below it) */
    uint8_t *confident_suppressed; /* [n] 1 = suppressed by c-confidence; NULL if off */
    size_t confident_suppressed_rows;    /* total: records + whole classes */
    size_t confident_suppressed_records; /* first step (0 < l_i < k) */
    size_t confident_suppressed_classes; /* classes removed in the second step */
    size_t *clamped;        /* [m] released values the clamp moved onto a bound; NULL
                               without clamp */
} keps_kepsilon_result;

/* Runs the mechanism and the metrics. cls[i] are arbitrary ids (< n or any
 * uint32 except KEPS_NONE), KEPS_NONE = suppressed by the k-anonymization
 * (its x is never read and may be anything): a keps_partition's class_of
 * (keps/partition.h: a lattice node, Mondrian, MDAV, given columns) with
 * KEPS_NONE in its suppressed classes. Classes are numbered (and their
 * figures summed, e.g. mean_scale) in the order of their ids. The metrics use the noisy
 * values of every classed row before they are set to NAN (see noisy).
 * Errors: epsilon <= 0, m = 0, an unknown scale, a non-finite value, DOMAIN
 * without bounds or a value outside them, confidence outside [0,1)
 * (KEPS_EINPUT); noise that overflows (KEPS_EJOB); OOM. */
keps_status keps_kepsilon_run(const uint32_t *cls, size_t n, const double *x, size_t m,
                              const keps_kepsilon_params *p, keps_rng *rng, keps_kepsilon_result *out,
                              keps_error *err);
void keps_kepsilon_result_free(keps_kepsilon_result *r);

/* The metric parts on their own, for given noisy values (tests, audits).
 * cls must be dense (0..nclasses-1 or KEPS_NONE); scale as in the result. */
size_t keps_kepsilon_linked(const uint32_t *cls, size_t n, size_t nclasses, const double *x,
                            const double *noisy, size_t m, const double *scale);
/* Fills supp[n] (1 = suppressed) and returns the rows suppressed; *records
 * and *classes (may be NULL) get the two steps' counts. */
size_t keps_kepsilon_confident(const uint32_t *cls, size_t n, size_t nclasses, const double *x,
                               const double *noisy, size_t m, const double *scale, double c, size_t k,
                               uint8_t *supp, size_t *records, size_t *classes);

/* The (k,epsilon)-anonymous release, in input order (the rows of s->t),
 * as keps_lattice_apply and keps_mondrian_release build theirs. r comes from
 * keps_kepsilon_run on the schema's noisy columns in order (x[j*n + i] =
 * column s->noisy[j] of row i). Each released cell holds:
 *  - a QI column (s->qi): the k-anonymization's label, read from the same
 *    column of generalized: the release that k-anonymization builds for s,
 *    one row per input row (keps_lattice_apply with remove_suppressed = 0
 *    at the node the classes came from, keps_mondrian_release). generalized NULL
 *    releases the input's own QI values (classes given by the input);
 *  - a noisy column (s->noisy[j]): r->noisy[j*n + i] written by
 *    keps_format_number (the exact double, e.g. "170.70000000000002");
 *  - every other released column: the input's value.
 * Suppression: a row withheld by the k-anonymization (r->cls[i] ==
 * KEPS_NONE) or by c-confidence (r->confident_suppressed[i]) is '*' in every
 * QI AND every noisy column, so neither its class nor any number derived
 * from its values is released; its other columns are copied. With
 * remove_suppressed such rows are left out instead. *release is the
 * caller's, to free with keps_table_free (NULL on error). Errors: r does not
 * match s (rows, noisy columns) or generalized is not a release of s with
 * every row (KEPS_EINPUT); a released noisy value that is not finite
 * (KEPS_EJOB); OOM. */
keps_status keps_kepsilon_release(const keps_schema *s, const keps_kepsilon_result *r, const keps_table *generalized,
                                  int remove_suppressed, keps_table **release, keps_error *err);

/* The guarantee of a run (Holohan et al. 2017): (k,epsilon)-anonymity with
 * the epsilon the grid-rounded scales guarantee (p->k the k used). */
void keps_kepsilon_guarantee(const keps_kepsilon_params *p, const keps_kepsilon_result *r, keps_guarantee *g);

#ifdef __cplusplus
}
#endif
#endif
