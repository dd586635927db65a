/* keps: information-loss metrics of a lattice node (SPEC 2), defined as ARX
 * defines them so that results compare with ARX's. All are losses (lower is
 * better). n = rows, S = rows in classes smaller than k (counted as
 * suppressed whether or not the limit allows it), q = QIs, h_i = height.
 *
 *  prec            mean_i ((n-S)*l_i/h_i + S)/n            (h_i = 0: l_i/h_i := 0)
 *  loss            ARX Loss, gs-factor 0.5, geometric mean: share(v) = hierarchy
 *                  rows under v / hierarchy rows (|dom_i|);
 *                  L_i = max(0, (sum_released share + S - n/|dom_i|)/(n - n/|dom_i|)),
 *                  floored to 10 decimals (0 if |dom_i| = 1);
 *                  score = prod_i (1+L_i)^(1/q) - 1
 *  discernibility  sum_{|EC| >= k} |EC|^2 + n*S
 *  aecs            n / (classes of size >= k, + 1 if S > 0)
 *  entropy         non-uniform entropy: sum_i E_i, E_i = -sum_v a_v log2(a_v/b_g(v))
 *                  over input values v, plus -sum_g c_g log2(c_g/S) over the
 *                  level-l_i values g of the suppressed rows.
 *
 * Bounds for the search with suppression (these metrics are not monotone
 * then): keps_metrics_bound gives a value that no node >= this node scores
 * below. */
#ifndef KEPS_METRICS_H
#define KEPS_METRICS_H

#include <stddef.h>

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
    KEPS_METRIC_COUNT
} keps_metric;

typedef struct keps_metric_values {
    double v[KEPS_METRIC_COUNT]; /* indexed by keps_metric */
} keps_metric_values;

/* Report key: "prec", "loss", "discernibility", "aecs", "entropy". */
const char *keps_metric_name(keps_metric m);
/* Parses a report key or the CLI name ("dm" = discernibility); -1 if unknown. */
int keps_metric_parse(const char *s, keps_metric *m);

/* Tables precomputed per QI and level (shares, entropy terms). Holds
 * scratch space: not thread-safe; one per thread. */
typedef struct keps_metrics keps_metrics;
keps_metrics *keps_metrics_new(const keps_lattice *L);
void keps_metrics_free(keps_metrics *m);

/* Score of one metric at node levels whose classes are c. */
double keps_metrics_score(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c,
                          size_t k);
/* Every metric. */
void keps_metrics_all(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                      keps_metric_values *out);

/* Lower bound on the metric at levels and at every node above it.
 * c may be NULL: then only the generalization part that needs no classes
 * (prec, loss, entropy; 0 for the others). With c (the node's classes),
 * discernibility uses sum |EC|^2 over all classes and aecs n/classes. */
double keps_metrics_bound(const keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c);

#ifdef __cplusplus
}
#endif
#endif
