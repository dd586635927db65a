/* keps: the exact search of the full-domain generalization lattice under
 * privacy criteria (docs/spec.md, sections 2 and 16).
 *
 * A node is feasible when the rows of the classes the criteria suppress
 * (keps_criteria_enforce: too small, failing a per-class criterion, or the
 * smallest ones a sample-based criterion needs) number at most floor(s*N),
 * N the released rows, and no class without released rows fails
 * delta-presence. The search returns a feasible node of least score under
 * the metric, the same score an exhaustive scan of every node finds, for
 * any mix of monotone and non-monotone criteria.
 *
 * How: nodes are taken in order of the objective's class-free lower bound
 * (keps_metrics_objective_bound, which no node above undercuts; scores
 * compare with keps_score_cmp, lexicographically for rank aggregation),
 * from a heap grown
 * upward from the bottom, until that bound reaches the best score. A node
 * taken is settled either by showing it infeasible or by scoring it. The
 * rows suppressed by the monotone criteria, or more by the mass bounds of
 * t-closeness, Shannon entropy, beta-likeness, delta-disclosure and
 * recursive (c,l) (keps_criteria_enforce with mono_only: rows every node
 * below suppresses too), decide
 * infeasibility for whole sub-lattices: before scoring a node whose status
 * is unknown, a binary search along a chain from it to the top finds the
 * highest node that fails them, and everything below that node fails too
 * (El Emam et al.'s predictive tagging, applied along the chain as in
 * ARX's Flash). A class-
 * based bound (discernibility, AECS) prunes every node above an evaluated
 * node whose bound reaches the best score. Every criterion is checked on
 * the nodes scored. */
#ifndef KEPS_SEARCH_H
#define KEPS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "keps/criteria.h"
#include "keps/error.h"
#include "keps/lattice.h"
#include "keps/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_search_params {
    const keps_criteria *crit; /* the privacy criteria (bound to L's table) */
    double suppress;           /* fraction s in [0, 1] of the released rows */
    keps_metric metric;        /* what to minimize, with ARX's defaults... */
    const keps_metric_config *objective; /* ...or this quality model (NULL: metric's defaults) */
} keps_search_params;

/* What the search did, for tuning (the CLI prints it when
 * KEPS_SEARCH_DEBUG is set). */
typedef struct keps_search_stats {
    uint64_t popped;    /* nodes taken from the heap */
    uint64_t climbs;    /* chain searches from a node of unknown status */
    uint64_t scored;    /* nodes passing every criterion, scored */
    uint64_t fails;     /* nodes failing on class sizes and the mass bounds */
    uint64_t falsepass; /* nodes passing those but failing a criterion */
} keps_search_stats;

typedef struct keps_search_result {
    int found;                  /* 0: no node is feasible */
    int *levels;                /* [q] the chosen node */
    uint64_t node;
    double *score;              /* [score_len] the objective there: one value, or
                                   q for rank aggregation (sorted, descending) */
    size_t score_len;
    double *attributes;         /* [q] the objective's per-QI values there (before
                                   weights); NULL for dm and aecs */
    keps_metric_values metrics; /* every metric there */
    size_t suppressed;          /* rows suppressed there */
    size_t nclasses;            /* classes released there (with released rows) */
    size_t suppress_limit;      /* floor(s*N) */
    uint64_t nodes_total;
    uint64_t nodes_evaluated;   /* nodes whose classes were counted */
    size_t top_suppressed;      /* rows the criteria suppress at the top node */
    int top_blocked;            /* the top node fails delta-presence on a class
                                   without released rows */
    keps_search_stats stats;
} keps_search_result;

/* Runs the search on a lattice built with the criteria's needs
 * (keps_lattice_new_ex with the research subset and the sensitive
 * columns' histograms). Returns KEPS_OK also when nothing is feasible
 * (found = 0); KEPS_EINPUT for bad parameters (an objective that
 * keps_metric_config_check refuses) or a lattice that lacks what the
 * criteria need; KEPS_ENOMEM; KEPS_ECANCEL when the calling thread's
 * progress hook cancelled (keps/progress.h), at its next report. */
keps_status keps_search_run(const keps_lattice *L, const keps_search_params *p, keps_search_result *res,
                            keps_error *err);
void keps_search_result_free(keps_search_result *r);

#ifdef __cplusplus
}
#endif
#endif
