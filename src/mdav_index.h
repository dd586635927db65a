/* Private: a k-d tree with deletions over MDAV's standardized records, for
 * its three queries (the record farthest from a point, the k-1 nearest to a
 * record, the farthest from the centroid) in about O(log n) each instead of
 * a scan of every remaining record (mdav.c). Every distance is dist.h's
 * dist_point on the same doubles as the scan, and every pruning bound is
 * computed with the same arithmetic from a node's bounding box, so a query
 * returns exactly what a scan would, ties included: "nearer" and "farther"
 * are total orders on (distance, input row) in which the smaller row wins a
 * tie. The candidate type and the bounded heap are shared with the scan. */
#ifndef KEPS_MDAV_INDEX_H
#define KEPS_MDAV_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A record: squared distance, input row (the tie-breaker), and a position
 * (in the scan's compacted array; in the tree's order for the index). */
typedef struct cand {
    double d;
    uint32_t idx;
    uint32_t pos;
} cand;

/* a is nearer than b */
static inline int nearer(double da, uint32_t ia, double db, uint32_t ib)
{
    return da < db || (da == db && ia < ib);
}
/* a is farther than b (ties: the smaller row wins as well) */
static inline int farther(double da, uint32_t ia, double db, uint32_t ib)
{
    return da > db || (da == db && ia < ib);
}

/* Bounded max-heap of at most cap candidates (root = the least near of the
 * kept ones): keeps the cap nearest of all pushed. */
static inline void heap_push(cand *h, size_t *n, size_t cap, cand c)
{
    if (cap == 0)
        return;
    size_t i;
    if (*n < cap) {
        i = (*n)++;
        while (i > 0) {
            size_t up = (i - 1) / 2;
            if (!nearer(h[up].d, h[up].idx, c.d, c.idx))
                break;
            h[i] = h[up];
            i = up;
        }
        h[i] = c;
        return;
    }
    if (!nearer(c.d, c.idx, h[0].d, h[0].idx))
        return;
    i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, w = i;
        const cand *best = &c;
        if (l < *n && nearer(best->d, best->idx, h[l].d, h[l].idx)) {
            w = l;
            best = &h[l];
        }
        if (r < *n && nearer(best->d, best->idx, h[r].d, h[r].idx))
            w = r;
        if (w == i)
            break;
        h[i] = h[w];
        i = w;
    }
    h[i] = c;
}

typedef struct mdav_index mdav_index;

/* The tree over records 0..n-1 (ids = input rows), attribute j of record i
 * at z[j*n + i]. NULL when out of memory. */
KEPS_INTERNAL mdav_index *mdav_index_new(const double *z, size_t n, size_t m);
KEPS_INTERNAL void mdav_index_free(mdav_index *ix);

/* Moves the origin of the farthest query's second bound to o[m] (best near
 * the centroid of the records; only the speed depends on it). O(n). */
KEPS_INTERNAL void mdav_index_recenter(mdav_index *ix, const double *o);

/* Records still in the tree. */
KEPS_INTERNAL size_t mdav_index_live(const mdav_index *ix);

/* Copies record id's coordinates to p[m] (id must be in the tree). */
KEPS_INTERNAL void mdav_index_point(const mdav_index *ix, uint32_t id, double *p);

/* Takes record id out of the tree (it must be in it). */
KEPS_INTERNAL void mdav_index_remove(mdav_index *ix, uint32_t id);

/* The kk records of the tree nearest to p, nearest first, into out[kk]
 * (fewer when the tree holds fewer; returns how many). */
KEPS_INTERNAL size_t mdav_index_nearest(const mdav_index *ix, const double *p, size_t kk, cand *out);

/* The record of the tree farthest from p (idx UINT32_MAX when empty). With
 * slack > 0, *second is set to the largest distance of a record whose
 * coordinates differ from the farthest one's, among the records within
 * slack of it (-INFINITY when there is none): a larger value means the
 * answer could change if p moved slightly. */
KEPS_INTERNAL cand mdav_index_farthest(const mdav_index *ix, const double *p, double slack, double *second);

/* An upper bound on the distance of every record of the tree to p. */
KEPS_INTERNAL double mdav_index_reach(const mdav_index *ix, const double *p);

/* Sums of the coordinates and of their magnitudes over the records in the
 * tree, per attribute, added one record at a time (sum[m], abs[m]). */
KEPS_INTERNAL void mdav_index_sums(const mdav_index *ix, long double *sum, long double *abs);

#endif
