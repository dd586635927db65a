/* keps: information-loss metrics of a lattice node (docs/spec.md section 2),
 * defined as ARX 3.9.2 defines its quality models so that results compare
 * with ARX's. All are losses (lower is better). n = rows, S = rows in
 * classes smaller than k (counted as suppressed whether or not the limit
 * allows it), q = QIs, h_i = height, l_i = the node's level of QI i.
 *
 * The gs-factor f in [0, 1] weighs generalization against suppression
 * (ARX's coding model): g = 1 if f <= 0.5 else 1 - 2(f - 0.5) weighs
 * generalization, s = 2f if f < 0.5 else 1 weighs suppression; ARX's
 * default f = 0.5 gives g = s = 1.
 *
 * Per-attribute metrics (a value v_i per QI, then aggregated):
 *  prec       v_i = ((n-S)*(l_i/h_i)*g + S*s) / n              (h_i = 0: l_i/h_i := 0)
 *             monotonic: v_i = (l_i/h_i)*g
 *  loss       share(v) = hierarchy rows under v / hierarchy rows (|dom_i|);
 *             x_i = g * sum over released rows of share + (s == 1 ? S :
 *             sum over suppressed rows of (share + s*(1 - share)));
 *             v_i = max(0, (x_i - g*n/|dom_i|) / (n - g*n/|dom_i|)), 0 when
 *             the denominator is 0; floored to 10 decimals. No monotonic variant.
 *  entropy    non-uniform entropy: v_i = g * (-sum_v a_v log2(a_v/b_g(v))
 *             over input values v) + s * (-sum_g c_g log2(c_g/S) over the
 *             level-l_i values g of the suppressed rows), floored to 10
 *             decimals; monotonic: the first term only.
 *  height     v_i = l_i (always monotonic; no gs-factor).
 * Aggregation with weights w_i (ARX's attribute weights, default 0.5 each,
 * divided by their maximum; all 1 if every weight is 0):
 *  geometric  prod_i (v_i*w_i + 1)^(1/q) - 1          (loss's default)
 *  arithmetic sum_i (v_i/q)*w_i                        (prec's default)
 *  sum        sum_i v_i*w_i (infinite or NaN: DBL_MAX) (entropy's, height's default)
 *  max        max(0, max_i v_i*w_i)
 *  rank       the vector (v_i*w_i) sorted descending, compared lexicographically
 * Single-dimensional metrics (no weights, no aggregation):
 *  dm         discernibility: sum_{|EC| >= k} |EC|^2 + n*S; monotonic (DM*):
 *             sum over all classes of |EC|^2. No gs-factor.
 *  aecs       n / (C*s + (S > 0 ? g : 0)), C = classes of size >= k (ARX
 *             swaps the factors here on purpose); no monotonic variant.
 *
 * With a suppression limit above 0 most of these are not monotone: the
 * search (keps/ola.h) prunes with keps_metrics_objective_bound. */
#ifndef KEPS_METRICS_H
#define KEPS_METRICS_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    KEPS_METRIC_PREC = 0,
    KEPS_METRIC_LOSS,
    KEPS_METRIC_DM,
    KEPS_METRIC_AECS,
    KEPS_METRIC_ENTROPY,
    KEPS_METRIC_HEIGHT,
    KEPS_METRIC_COUNT
} keps_metric;

typedef enum {
    KEPS_AGGREGATE_DEFAULT = 0, /* the metric's ARX default (see above) */
    KEPS_AGGREGATE_GEOMETRIC,
    KEPS_AGGREGATE_ARITHMETIC,
    KEPS_AGGREGATE_SUM,
    KEPS_AGGREGATE_MAX,
    KEPS_AGGREGATE_RANK,
    KEPS_AGGREGATE_COUNT
} keps_aggregate;

/* A quality model: a metric and its ARX options. */
typedef struct keps_metric_config {
    keps_metric metric;
    double gs_factor;         /* [0, 1]; 0.5 unless the metric takes one */
    int monotonic;            /* prec, dm, entropy (height is monotonic anyway) */
    keps_aggregate aggregate; /* prec, loss, entropy, height */
    const double *weights;    /* [q] per QI, >= 0, or NULL: 0.5 each (ARX's
                                 default); prec, loss, entropy, height */
} keps_metric_config;

/* metric with ARX's defaults: gs-factor 0.5, not monotonic, the default
 * aggregate, equal weights. */
keps_metric_config keps_metric_config_default(keps_metric metric);
/* KEPS_EINPUT, with a message saying what to change, when cfg asks for what
 * ARX does not offer for the metric (a gs-factor for dm or height, the
 * monotonic variant of loss or aecs, an aggregate or weights for dm or aecs),
 * a gs-factor outside [0, 1], or a weight that is negative or not finite. */
keps_status keps_metric_config_check(const keps_metric_config *cfg, size_t q, keps_error *err);

typedef struct keps_metric_values {
    double v[KEPS_METRIC_COUNT]; /* indexed by keps_metric */
} keps_metric_values;

/* Report key: "prec", "loss", "discernibility", "aecs", "entropy", "height". */
const char *keps_metric_name(keps_metric m);
/* Parses a report key or the CLI name ("dm" = discernibility); -1 if unknown. */
int keps_metric_parse(const char *s, keps_metric *m);
/* "geometric", "arithmetic", "sum", "max", "rank" (DEFAULT: "default"). */
const char *keps_aggregate_name(keps_aggregate a);
int keps_aggregate_parse(const char *s, keps_aggregate *a);
/* The aggregate cfg uses (its metric's default resolved); DEFAULT for dm
 * and aecs, which have none. */
keps_aggregate keps_metric_config_aggregate(const keps_metric_config *cfg);
/* The weights cfg applies to q QIs, out[q]: its weights (0.5 each if NULL)
 * divided by their maximum, or all 1 if that is 0 (ARX's normalization). */
void keps_metric_config_weights(const keps_metric_config *cfg, size_t q, double *out);

/* Tables precomputed per QI and level (shares, entropy terms) and one
 * objective (a keps_metric_config). Holds scratch space: not thread-safe;
 * one per thread. keps_metrics_new: the objective is loss with ARX's
 * defaults. */
typedef struct keps_metrics keps_metrics;
keps_metrics *keps_metrics_new(const keps_lattice *L);
/* NULL with err set on a bad cfg (keps_metric_config_check) or out of memory. */
keps_metrics *keps_metrics_new_objective(const keps_lattice *L, const keps_metric_config *cfg, keps_error *err);
void keps_metrics_free(keps_metrics *m);

/* Length of the objective's score: q for rank aggregation (the sorted
 * vector), else 1. */
size_t keps_metrics_score_len(const keps_metrics *m);
/* The objective at node levels whose classes are c: out[score_len]. */
void keps_metrics_objective(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k, double *out);
/* The objective's per-attribute values v_i before weighting (what ARX's
 * InformationLoss.getValue() returns), out[q]; returns 0, or -1 for dm and
 * aecs, which have none. */
int keps_metrics_attributes(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                            double *out);
/* Lower bound (out[score_len]) on the objective at levels and at every node
 * above it whose classes smaller than k hold at most limit rows: no such
 * node's score compares below it (keps_score_cmp). c may be NULL (a bound
 * that needs no classes; 0 for dm and aecs); with c, the node's classes,
 * dm and aecs get one too and prec and aecs use S <= the node's S (its
 * flagged classes' rows when c->sup is set), which holds when suppression
 * never grows with generalization. k = 0: it may (privacy criteria that are
 * not monotone): only limit bounds the suppression above. */
void keps_metrics_objective_bound(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                                  size_t limit, double *out);
/* Compares scores of length len: lexicographically (one value: numerically). */
int keps_score_cmp(const double *a, const double *b, size_t len);

/* Score of one metric with ARX's defaults at node levels whose classes are
 * c (independent of m's objective). */
double keps_metrics_score(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c,
                          size_t k);
/* Every metric, with ARX's defaults. */
void keps_metrics_all(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                      keps_metric_values *out);

/* Lower bound on metric which (ARX's defaults) at levels and at every node
 * above it, whatever its suppression (keps_metrics_objective_bound with no
 * limit). */
double keps_metrics_bound(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c);

/* The key ARX orders equal-size classes by when a sample-based privacy
 * criterion suppresses the smallest ones (after size, before the first
 * row): the class's own information loss for Loss, prod_i (count share_i +
 * 1)^(1/q) - 1 over its generalized values (share_i: the hierarchy leaves
 * under the value over all leaves); 0 for the metrics whose per-class loss
 * ARX does not consult (prec, discernibility, aecs, entropy, height). rep:
 * the class's codes per QI (a row's), count its rows. */
double keps_metrics_class_key(const keps_metrics *m, keps_metric which, const int *levels, const uint32_t *rep,
                              uint32_t count);

#ifdef __cplusplus
}
#endif
#endif
