/* keps: OLA, optimal k-anonymity by full-domain generalization with
 * suppression (El Emam et al. 2009; docs/spec.md 2).
 *
 * A node satisfies the constraints when the rows in its classes smaller
 * than k number at most floor(s*N) (those rows are suppressed). This is
 * monotone (a class of size >= k stays in a class of size >= k above), so
 * OLA's binary search along generalization strategies with predictive
 * tagging finds every k-minimal node (the search tags every node; it stops
 * once all are tagged, as the rest of its recursion could evaluate none,
 * and reads the k-minimal nodes off the tags). The answer is the node with the
 * least loss under the chosen objective (keps/metrics.h: a metric with
 * ARX's options) among ALL nodes satisfying the constraints: a pass walks
 * the anonymous region level by level from the k-minimal nodes, pruning
 * every node above one whose lower bound (keps_metrics_objective_bound) does
 * not compare below the best score (with floor(s*N) = 0 the default metrics
 * are monotone and every node above a k-minimal node is pruned at once).
 * The top-level Kmin call's middle nodes are shared out to the threads
 * (tags shared); the result does not depend on the thread count, the
 * number of nodes evaluated may vary a little from run to run. Progress
 * (keps/progress.h, "OLA search") is the larger of the caller's position in
 * that loop over the middle level and 1 - ln(untagged nodes + 1) / ln(nodes
 * + 1). */
#ifndef KEPS_OLA_H
#define KEPS_OLA_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/lattice.h"
#include "keps/metrics.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_ola_params {
    size_t k;           /* >= 1 */
    double suppress;    /* fraction s in [0, 1]: up to floor(s*N) rows suppressed */
    keps_metric metric; /* what to minimize (KEPS_METRIC_LOSS as ARX), with ARX's defaults */
    int threads;        /* search threads: 1 sequential, N > 1 N threads (at most 64),
                           0 (default) 2; the result does not depend on it */
} keps_ola_params;

/* What the search did, for tuning (the CLI prints it when KEPS_OLA_DEBUG
 * is set). Classes "rolled up" are the source classes a node's classes were
 * merged from; "made" are the classes produced. */
typedef struct keps_ola_stats {
    uint64_t kmin_evaluated, kmin_rolled_up; /* after the search for the k-minimal nodes */
    size_t kmin_calls;                       /* its memoized Kmin(bottom, top) calls */
    uint64_t nodes_tagged;                   /* nodes tagged then, of nodes_total */
    uint64_t thread_evaluated[2], thread_rolled_up[2]; /* the caller's thread's and the
                                                          other threads' (together) shares of
                                                          that search; 0 if sequential */
    uint64_t evaluated, rolled_up, classes_made; /* after the optimum pass, before the
                                                    chosen node is counted again */
} keps_ola_stats;

typedef struct keps_ola_result {
    int found;                  /* 0: no node satisfies the constraints */
    int *levels;                /* [q] the chosen node */
    uint64_t node;              /* its id */
    keps_metric_values metrics; /* every metric at the chosen node (ARX's defaults) */
    double *score;              /* [score_len] the objective there: one value,
                                   or q for rank aggregation (sorted, descending) */
    size_t score_len;
    double *attributes;         /* [q] the objective's per-QI values there (before
                                   weights); NULL for dm and aecs */
    size_t suppressed;          /* rows in classes smaller than k there */
    size_t nclasses;            /* classes of size >= k there */
    size_t suppress_limit;      /* floor(s*N) */
    uint64_t nodes_total;
    uint64_t nodes_evaluated;   /* distinct nodes whose classes were counted */
    uint64_t *minimal;          /* ids of the k-minimal nodes */
    size_t nminimal;
    size_t top_suppressed;      /* rows in classes < k at the top node; the
                                   lowest workable fraction is this / N */
    keps_ola_stats stats;
} keps_ola_result;

/* Runs the search. Returns KEPS_OK also when no node satisfies the
 * constraints (res->found = 0); errors are out of memory or bad params,
 * or KEPS_ECANCEL when the calling thread's progress hook cancelled
 * (keps/progress.h): the search stops at its next report.
 * With k above L->nrows no class reaches k: every node suppresses every
 * row, so a node is found only under a suppression limit of 1, and its
 * release is all stars (the CLI refuses that case, exit 1). */
keps_status keps_ola_run(const keps_lattice *L, const keps_ola_params *p, keps_ola_result *res,
                         keps_error *err);
/* The same with a quality model other than p->metric with ARX's defaults:
 * objective (NULL: as keps_ola_run) replaces p->metric; KEPS_EINPUT if
 * keps_metric_config_check refuses it. */
keps_status keps_ola_run_objective(const keps_lattice *L, const keps_ola_params *p,
                                   const keps_metric_config *objective, keps_ola_result *res, keps_error *err);
void keps_ola_result_free(keps_ola_result *r);

#ifdef __cplusplus
}
#endif
#endif
