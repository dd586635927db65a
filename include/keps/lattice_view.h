/* keps: a generalization lattice as a report draws it.
 *
 * For a reviewer who wants to see where the chosen generalization sits:
 * the nodes level by level (a node is a level per QI; its level is their
 * sum), which of them are anonymous, the anonymous frontier (the minimal
 * anonymous nodes, OLA's k-minimal nodes) and the score of each anonymous
 * node. A lattice of at most max_nodes nodes is given whole; a larger one
 * as its frontier (the first max_nodes - 1 frontier nodes by id, the rest
 * counted) and the chosen node, since drawing more would show nothing.
 *
 * Each node given is evaluated here: its classes rolled up from the
 * lattice's bottom, anonymous when its rows in classes smaller than k are
 * at most the suppression limit, scored with the objective the search
 * minimized (keps/metrics.h) when anonymous. That costs one roll-up per node (about the bottom
 * node's classes each), so a report stays quick for max_nodes up to some
 * hundreds. */
#ifndef KEPS_LATTICE_VIEW_H
#define KEPS_LATTICE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/json.h"
#include "keps/lattice.h"
#include "keps/metrics.h"
#include "keps/safela.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KEPS_LATTICE_VIEW_MAX 500 /* default max_nodes */

typedef struct keps_lattice_view_params {
    size_t k;
    size_t suppress_limit;    /* rows that may be suppressed */
    const keps_metric_config *objective; /* scores the anonymous nodes (NULL: loss, ARX's defaults) */
    const int *chosen;        /* [q] the chosen node's levels, or NULL */
    const uint64_t *frontier; /* ids of the frontier (minimal anonymous) nodes */
    size_t nfrontier;
    size_t max_nodes;         /* 0: KEPS_LATTICE_VIEW_MAX */
} keps_lattice_view_params;

/* Writes under key an object: qis, heights, nodes_total, max_nodes, drawn
 * ("all" or "frontier"), frontier_left_off, score (the metric's name),
 * chosen (levels or null), and nodes: [{levels, anonymous, frontier,
 * suppressed (rows in classes smaller than k), score (anonymous nodes
 * only)}] in id order. Nothing is written on an error (KEPS_ENOMEM). */
keps_status keps_lattice_view_json(keps_json *j, const char *key, const keps_lattice *L,
                                   const keps_lattice_view_params *p, keps_error *err);

/* The lattice as the exponential mechanism of safela saw it (Li, Qardaji
 * and Su 2012; keps/safela.h): every node up to max_nodes (0:
 * KEPS_LATTICE_VIEW_MAX), else the max_nodes - 1 most likely nodes and the
 * chosen one. The same object as above with drawn "all" or "likeliest",
 * score "utility", and per node: levels (of s's QIs), score (the utility
 * -(G + f S)), probability (of being selected), generalization (G),
 * suppression (S), good (S < 0.15 and G < 0.6), anonymous null. prob:
 * [sc->nnodes]. */
keps_status keps_lattice_view_scores_json(keps_json *j, const char *key, const keps_schema *s,
                                          const keps_safela_scores *sc, const double *prob, const int *chosen,
                                          size_t max_nodes, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
