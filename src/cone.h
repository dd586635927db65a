/* Private: the walk over a node's cone (every node above or below it) that
 * OLA's predictive tagging (ola.c) and the criteria search (search.c) both
 * tag with. Each keeps its own tags (OLA's are atomic, shared by its
 * threads; the search's are plain) and passes how a node is claimed. */
#ifndef KEPS_CONE_H
#define KEPS_CONE_H

#include <stdint.h>
#include <stdlib.h>

#include "keps/lattice.h"

/* The walk's stack of node ids, kept between walks. */
typedef struct keps_cone_stack {
    uint64_t *id;
    size_t cap;
} keps_cone_stack;

static inline int keps_cone_push(keps_cone_stack *s, size_t *n, uint64_t id)
{
    if (*n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint64_t *p = realloc(s->id, cap * sizeof *p);
        if (!p)
            return -1;
        s->id = p;
        s->cap = cap;
    }
    s->id[(*n)++] = id;
    return 0;
}

/* Walks the cone above (up) or below id, which the caller has claimed:
 * claim(ctx, y) tags node y and returns 1 if y did not have the tag (its
 * neighbours are visited next), 0 if it had (its whole cone has it, so the
 * walk stops there). Returns the nodes claimed, id not counted; *oom = 1
 * if the stack could not grow (the walk stopped). Inline, so that each
 * caller's claim is inlined into its loop. */
static inline uint64_t keps_cone_walk(const keps_lattice *L, keps_cone_stack *s, uint64_t id, int up,
                                      int (*claim)(void *, uint64_t), void *ctx, int *oom)
{
    size_t n = 0;
    uint64_t fresh = 0;
    *oom = 0;
    if (keps_cone_push(s, &n, id))
        return *oom = 1, 0;
    while (n > 0) {
        uint64_t x = s->id[--n], rest = x;
        for (size_t i = 0; i < L->q; i++) {
            int l = (int)(rest % (uint64_t)(L->height[i] + 1));
            rest /= (uint64_t)(L->height[i] + 1);
            if (up ? l >= L->height[i] : l <= 0)
                continue;
            uint64_t y = up ? x + L->stride[i] : x - L->stride[i];
            if (!claim(ctx, y))
                continue;
            fresh++;
            if (keps_cone_push(s, &n, y))
                return *oom = 1, fresh;
        }
    }
    return fresh;
}

#endif
