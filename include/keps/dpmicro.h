/* keps: differentially private microaggregation (Soria-Comas et al. 2013;
 * docs/spec.md 5), with the sound accounting of docs/spec.md 5 (not the paper's).
 *
 * Bounded DP: neighbours replace one record, N is public. Every attribute j
 * has a public domain [lo_j, hi_j], D_j = hi_j - lo_j. Inputs are clamped to
 * the domain first (the sensitivity rests on it; the count is reported).
 *
 * multivariate: insensitive MDAV on all m attributes (domain-normalized
 *   order from R = lo, keps_mdav_insensitive); c = floor(N/k) clusters of k
 *   (the last k..2k-1). Replacing a record changes every cluster by at most
 *   one record, so each centroid moves by <= D_j/k per attribute and all c
 *   may move: L1 sensitivity c * sum_j D_j / k. One Laplace draw per cluster
 *   and attribute, scale b = c * sum_j D_j / (k * epsilon); every record of
 *   the cluster receives the same noisy centroid.
 * univariate (individual ranking): each attribute microaggregated alone;
 *   the moved boundaries telescope, so attribute j's centroids move by
 *   <= D_j/k in total; epsilon split over the m attributes:
 *   b_j = m * D_j / (k * epsilon).
 *   CAVEAT (found while testing, see docs/experiments.md): with m > 1 the
 *   rows pair attribute-wise groups without noise; which groups co-occur in
 *   a row depends on the data (e.g. two records swapping rank in one
 *   attribute), so the row-linked release is NOT epsilon-DP. The epsilon-DP
 *   statement covers each attribute's column released unlinked
 *   (keps_dpmicro_unlink shuffles every column independently).
 * k = 1: plain per-record Laplace: each record is its own cluster and the
 *   output is a multiset (rows are shuffled), so one replaced record changes
 *   one row by sum_j D_j in L1: b = sum_j D_j / epsilon (multivariate) or
 *   m * D_j / epsilon (univariate). Rows stay linked in both modes: the
 *   pairing of values in a row is the record itself, not the data's.
 * Output clamped to [lo_j, hi_j] (post-processing).
 *
 * paper_accounting = 1 reproduces the paper's printed mechanism for
 * comparison only: independent noise for each record (each copy of a
 * centroid) with b_j = D_j / (k * epsilon). It is NOT epsilon-DP (the k
 * copies average out the noise and all c clusters may move); the guarantee
 * field says so. */
#ifndef KEPS_DPMICRO_H
#define KEPS_DPMICRO_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/guarantee.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_DPM_MULTIVARIATE = 0, KEPS_DPM_UNIVARIATE } keps_dpm_mode;

typedef struct keps_dpmicro_params {
    keps_dpm_mode mode;
    size_t k;               /* >= 1 */
    double epsilon;         /* > 0 */
    const double *lo, *hi;  /* [m] public domain, required */
    int paper_accounting;   /* experiments only: the paper's (unsound) noise */
    const int *digits;      /* [m] decimals each released value is rounded to (then clamped
                               into [lo, hi] again) before the metrics, so that they describe
                               the values written; NULL or an entry < 0: the exact double.
                               Post-processing: the guarantee stands */
} keps_dpmicro_params;

typedef struct keps_dpmicro_result {
    size_t n, m, k;
    double *out;            /* [n*m] row-major released values */
    double *scale;          /* [m] Laplace scale per attribute: the formula above */
    double *scale_used;     /* [m] the scale drawn with: the formula's, calibrated up by the
                               grid's slack (keps_laplace_calibrate, about 2^-39 relative) so that
                               epsilon, the rounding included, is at most the requested one */
    double *epsilon_used;   /* [m] incl. the grid rounding (keps/noise.h). multivariate:
                               the release is one mechanism, so every entry is the same
                               whole guarantee (not a share). univariate: entry j is the
                               epsilon of attribute j's column alone */
    double epsilon;         /* the guarantee, <= p->epsilon: multivariate, equal to each
                               epsilon_used[j]; univariate, their sum (sequential composition
                               over the attributes, each part calibrated to epsilon/m; rows
                               linked only if row_linked_dp). INFINITY
                               with paper_accounting (epsilon_used then holds what the
                               scales would cost, not a guarantee) */
    double sensitivity;     /* multivariate: L1 sensitivity of all centroids */
    size_t nclusters;       /* clusters (per attribute in univariate mode) */
    size_t clamped_inputs;  /* input cells moved into [lo, hi] */
    double sse;             /* sum ||x - x'||^2, raw units, against the unclamped input */
    double sse_standardized; /* the same with each attribute divided by the input's
                                population sd (sd 0: left out) */
    int row_linked_dp;      /* 1 if the row-linked release is epsilon-DP (multivariate, m = 1 or k = 1) */
    /* RL as a fraction (keps/risk.h, standardized Euclidean): docs/spec.md 5's
     * direction (for each original, the nearest released records) and the
     * paper's printed formula (for each released record, the nearest
     * originals). NAN if it could not be computed. */
    double record_linkage, record_linkage_released;
} keps_dpmicro_result;

/* x is row-major n x m. Errors: an unknown mode, k = 0, epsilon <= 0,
 * missing or bad bounds, a non-finite value (KEPS_EINPUT); n < k
 * (KEPS_EJOB); OOM. */
keps_status keps_dpmicro_run(const double *x, size_t n, size_t m, const keps_dpmicro_params *p, keps_rng *rng,
                             keps_dpmicro_result *out, keps_error *err);
void keps_dpmicro_result_free(keps_dpmicro_result *r);

/* Shuffles each column of out (row-major n x m) independently, so rows no
 * longer pair values of one record: the release univariate mode's epsilon-DP
 * statement covers when m > 1. Returns KEPS_OK or KEPS_ENOMEM. */
keps_status keps_dpmicro_unlink(keps_rng *rng, double *out, size_t n, size_t m);

/* The DP microaggregation release, in input order (the rows of s->t):
 * the cell of row i in table column cols[a] is r->out[i*m + a] (the noisy,
 * clamped centroid) written by keps_format_number (the exact double); every
 * other released column of s (sensitive, insensitive, kept) is copied from
 * the input unchanged, outside the DP guarantee. Nothing is suppressed:
 * every row is released. Call keps_dpmicro_unlink on r->out first when the
 * guarantee needs unlinked columns (univariate, m > 1, k > 1: see
 * row_linked_dp); this call releases r->out as it stands. cols[0..r->m) are
 * the columns x was read from; NULL means the schema's QIs in order,
 * s->qi[a].col. *release is the caller's, to free with keps_table_free
 * (NULL on error). Errors: r->n is not s->t's row count, a bad or repeated
 * column, cols NULL with r->m != s->nqi (KEPS_EINPUT); a value that is not
 * finite (KEPS_EJOB); OOM. */
keps_status keps_dpmicro_release(const keps_schema *s, const size_t *cols, const keps_dpmicro_result *r,
                                 keps_table **release, keps_error *err);

/* Fallback bounds for attribute j of x (row-major n x m) when no public
 * domain is known: the paper's [0, 1.5*max], extended to negative values,
 *   lo = min(0, 1.5*min_i x[i][j]),  hi = max(0, 1.5*max_i x[i][j]);
 * e.g. a column {-2, 4} gives [-3, 6] and a column {1, 3} gives [0, 4.5].
 * These bounds are READ FROM THE DATA: the sensitivity, and so the DP
 * guarantee of keps_dpmicro_run, rests on a domain fixed before seeing the
 * data, and a domain that depends on the records leaks them (one record can
 * move it). A release that used them is NOT covered by the epsilon-DP
 * guarantee; tell its readers (the CLI warns on stderr and sets the
 * report's bounds_from_data). Give public bounds whenever they are known.
 * Errors (KEPS_EINPUT, *lo and *hi untouched): a column holding only zeros
 * (or no rows), whose fallback [0, 0] is empty: public bounds are then
 * required; j >= m, x NULL with n > 0, a value that is not finite. */
keps_status keps_dpmicro_data_bounds(const double *x, size_t n, size_t m, size_t j, double *lo, double *hi,
                                     keps_error *err);

/* The scale per attribute the mode uses for these parameters (b_j above);
 * nclusters = floor(n/k). Writes scale[m]; returns the L1 sensitivity the
 * multivariate scale rests on (0 for univariate). */
double keps_dpmicro_scales(keps_dpm_mode mode, size_t n, size_t m, size_t k, double epsilon, const double *lo,
                           const double *hi, int paper_accounting, double *scale);

/* The guarantee of a run over s's --qi columns (Soria-Comas et al. 2013):
 * bounds_given[a] 0 when QI a's bounds were read from the data (listed as
 * data-dependent); unlinked: the columns were released shuffled apart
 * (keps_dpmicro_unlink); keep_order: rows kept their input order. The
 * released columns outside the QIs are listed as not covered. */
void keps_dpmicro_guarantee(const keps_dpmicro_params *p, const keps_dpmicro_result *r, const keps_schema *s,
                            const int *bounds_given, int unlinked, int keep_order, keps_guarantee *g);

#ifdef __cplusplus
}
#endif
#endif
