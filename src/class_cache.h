/* Private: the parts of a cache of node class sets that OLA (ola.c) and
 * the criteria search (search.c) share: the node id -> entry hash and the
 * pool of evicted class-set buffers. Each keeps its own entries (OLA's are
 * pinned by threads, the search's are not) in an array that does not move;
 * the hash reads an entry's node id through the entry's keps_node_classes
 * at base + i * stride + off. */
#ifndef KEPS_CLASS_CACHE_H
#define KEPS_CLASS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "keps/lattice.h"

#define KEPS_CACHE_SLOTS 8192 /* power of two >= 2 * the entries a cache holds */
#define KEPS_POOL_MAX 16

typedef struct keps_cache_index {
    uint32_t *slots;     /* [KEPS_CACHE_SLOTS] entry index + 1, 0 = empty */
    const char *base;    /* the entry array */
    size_t stride, off;  /* an entry's size, the offset of its keps_node_classes */
} keps_cache_index;

static inline uint64_t keps_cache_node(const keps_cache_index *x, size_t i)
{
    return ((const keps_node_classes *)(const void *)(x->base + i * x->stride + x->off))->node;
}

static inline size_t keps_cache_home(uint64_t id)
{
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 51) & (KEPS_CACHE_SLOTS - 1);
}

/* Slot holding id, or the empty slot where it would go. */
static inline size_t keps_cache_slot(const keps_cache_index *x, uint64_t id)
{
    size_t s = keps_cache_home(id);
    while (x->slots[s] && keps_cache_node(x, x->slots[s] - 1) != id)
        s = (s + 1) & (KEPS_CACHE_SLOTS - 1);
    return s;
}

/* Index of id's entry, or -1. */
static inline long keps_cache_find(const keps_cache_index *x, uint64_t id)
{
    size_t s = keps_cache_slot(x, id);
    return x->slots[s] ? (long)x->slots[s] - 1 : -1;
}

/* Linear-probing delete with backward shift (no tombstones). */
static inline void keps_cache_unslot(keps_cache_index *x, uint64_t id)
{
    size_t s = keps_cache_slot(x, id);
    x->slots[s] = 0;
    for (size_t j = (s + 1) & (KEPS_CACHE_SLOTS - 1); x->slots[j]; j = (j + 1) & (KEPS_CACHE_SLOTS - 1)) {
        size_t h = keps_cache_home(keps_cache_node(x, x->slots[j] - 1));
        /* move j back to s unless its home lies cyclically in (s, j] */
        if ((j > s && (h <= s || h > j)) || (j < s && h <= s && h > j)) {
            x->slots[s] = x->slots[j];
            x->slots[j] = 0;
            s = j;
        }
    }
}

/* Evicted buffers are reused: freeing and allocating class sets of a few
 * hundred KB per node makes the kernel hand out (and zero) fresh pages. */
typedef struct keps_class_pool {
    keps_node_classes buf[KEPS_POOL_MAX];
    size_t n;
} keps_class_pool;

/* Takes c's buffers (c is left empty); the smallest pooled set goes when
 * the pool is full and c is larger, else c's buffers are freed. */
static inline void keps_class_pool_put(keps_class_pool *p, keps_node_classes *c)
{
    if (p->n == KEPS_POOL_MAX) {
        size_t small = 0;
        for (size_t i = 1; i < p->n; i++)
            if (p->buf[i].cap < p->buf[small].cap)
                small = i;
        if (p->buf[small].cap >= c->cap) {
            keps_node_classes_free(c);
            return;
        }
        keps_node_classes_free(&p->buf[small]);
        p->buf[small] = p->buf[--p->n];
    }
    p->buf[p->n++] = *c;
    keps_node_classes_init(c);
}

/* The smallest pooled set with room for n classes into *c: 1, or 0 when
 * none fits (*c untouched). */
static inline int keps_class_pool_take(keps_class_pool *p, keps_node_classes *c, size_t n)
{
    size_t best = p->n;
    for (size_t i = 0; i < p->n; i++)
        if (p->buf[i].cap >= n && (best == p->n || p->buf[i].cap < p->buf[best].cap))
            best = i;
    if (best == p->n)
        return 0;
    *c = p->buf[best];
    p->buf[best] = p->buf[--p->n];
    return 1;
}

static inline void keps_class_pool_free(keps_class_pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        keps_node_classes_free(&p->buf[i]);
    p->n = 0;
}

#endif
