/* keps: OLA search with suppression and the global-optimum pass (see
 * include/keps/ola.h); a node's release is keps_lattice_apply's
 * (keps/partition.h). */
#include "keps/ola.h"
#include "keps/release.h"
#include "keps/progress.h"

#include "class_cache.h"
#include "cone.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_ANON = 1,  /* satisfies the constraints (tagged or evaluated) */
    TAG_NOT = 2,   /* does not */
    TAG_EVAL = 4,  /* classes were counted */
    TAG_PRUNE = 8  /* neither it nor any node above can beat the best score */
};

/* Class sets of recently evaluated nodes: a node rolls up from the cached
 * node below it with the fewest classes (an immediate predecessor when one
 * is cached, which the level-by-level pass makes the common case), or from
 * the bottom. Bounded by entries and bytes; least recently used goes. The
 * two search threads share one cache (under a mutex; roll-ups run outside
 * it): with a cache each, the second thread rolled up ~1/3 more classes
 * because the best source was often in the other thread's cache. */
#define CACHE_MAX 4096
_Static_assert(2 * CACHE_MAX <= KEPS_CACHE_SLOTS, "the id hash needs room");
#define CACHE_BYTES ((size_t)32 << 20)

typedef struct cache_entry {
    int *levels;
    keps_node_classes c;
    size_t supp;    /* rows in classes smaller than k */
    uint64_t used;
    int pins;       /* threads reading c outside the lock: not evictable */
} cache_entry;

typedef struct class_cache {
    pthread_mutex_t mu;
    cache_entry *cache;     /* [CACHE_MAX] */
    keps_cache_index ix;    /* id -> entry (ix.slots owned) */
    size_t ncache, cache_bytes;
    uint64_t clock;
} class_cache;

/* A class set held for reading outside the lock (a cache entry's, pinned,
 * or the bottom's). */
typedef struct held {
    keps_node_classes c;
    const int *levels;
    int pinned;
} held;

typedef struct ola {
    const keps_lattice *L;
    size_t k, limit;
    size_t dim;             /* length of a score (keps_metrics_score_len) */
    double *sbuf;           /* [4 * dim] scratch scores */
    uint8_t *tag;           /* [nnodes], shared by the threads */
    int owns_tag;
    struct tag_count *tc;   /* shared with tag; owned with it */
    keps_lattice_work *w;
    keps_metrics *m;
    class_cache *cc;        /* shared by the threads */
    int owns_cc;
    int *zero;              /* [q] the bottom's levels */
    keps_class_pool pool;   /* buffers of evicted class sets, reused */
    size_t last_supp;       /* suppressed rows of the node eval returned last */
    uint64_t evaluated;
    uint64_t work;          /* classes rolled up (source sizes), for tuning */
    uint64_t out_work;      /* classes produced (the floor of work) */
    uint64_t *kmin;         /* the k-minimal nodes, read off the tags */
    size_t nkmin, capkmin;
    keps_cone_stack stack;  /* for tagging */
    uint64_t *skey;         /* scores of evaluated nodes: id + 1, 0 = empty */
    double *sval, *sbound;  /* [slot * dim] score, class-based lower bound */
    size_t nscore, capscore;
    uint64_t *memo;         /* Kmin(B, T) calls done: ~(B << 32 | T), 0 = empty */
    size_t nmemo, capmemo;  /* capmemo: power of two */
    int lazy;               /* score satisfying nodes only when the optimum asks */
    int report;             /* the caller's thread: reports progress */
    double mid_done;        /* share of the top call's middle nodes handed out */
    int oom;
} ola;

/* How many nodes carry TAG_ANON or TAG_NOT. Once every node does, the
 * rest of the Kmin recursion can evaluate nothing, so it stops: it would
 * only walk tagged sub-lattices. With many QIs that walk was most of the
 * search (12 QIs, 3 levels each: 2.1M memoized Kmin calls for 3,572
 * evaluations, 0.4M once it stops). The flag sits apart from the counter,
 * which every tagging writes: the recursion reads the flag on every call.
 * The list of untagged nodes (box_settled) is shared the same way. */
typedef struct untagged_list untagged_list;
typedef struct tag_count {
    _Atomic uint64_t n;
    char pad[64 - sizeof(uint64_t)];
    atomic_int all;
    atomic_int cancel;             /* the caller's progress hook cancelled: all is set too, so every loop ends */
    _Atomic(untagged_list *) list; /* see box_settled */
    pthread_mutex_t mu;            /* builds the list */
    int has_mu;
} tag_count;

/* The nodes untagged when the list was built, by id, with their levels
 * (one byte each); older lists stay until the search ends, as a thread
 * may still read one. */
struct untagged_list {
    size_t n;
    uint64_t *id;
    uint8_t *lv; /* [n * q] */
    untagged_list *older;
};

#define UNTAGGED_FIRST 262144 /* build the first list when this few are left */

/* The tag array is shared by the search threads; tags only ever gain bits
 * and every bit is true information, so relaxed atomics suffice (a thread
 * that misses a fresh tag merely evaluates the node itself). */
static inline uint8_t tag_get(const ola *o, uint64_t id)
{
    return __atomic_load_n(&o->tag[id], __ATOMIC_RELAXED);
}

/* Sets bits; returns the tag as it was before. */
static inline uint8_t tag_or(ola *o, uint64_t id, uint8_t bits)
{
    return __atomic_fetch_or(&o->tag[id], bits, __ATOMIC_RELAXED);
}

static size_t classes_bytes(const keps_node_classes *c)
{
    return c->cap * (sizeof *c->count + sizeof *c->key + sizeof *c->bot);
}

static int dominated(const keps_lattice *L, const int *lo, const int *hi)
{
    for (size_t i = 0; i < L->q; i++)
        if (lo[i] > hi[i])
            return 0;
    return 1;
}

static cache_entry *cache_get(class_cache *o, uint64_t id)
{
    long i = keps_cache_find(&o->ix, id);
    return i < 0 ? NULL : &o->cache[i];
}

/* A buffer for n classes: the smallest pooled one that fits, or new. */
static int pool_get(ola *o, keps_node_classes *c, size_t n)
{
    if (keps_class_pool_take(&o->pool, c, n))
        return 0;
    keps_node_classes_init(c);
    size_t cap = n ? n : 1;
    c->count = malloc(cap * sizeof *c->count);
    c->key = malloc(cap * sizeof *c->key);
    c->bot = malloc(cap * sizeof *c->bot);
    c->cap = cap;
    return c->count && c->key && c->bot ? 0 : -1;
}

/* Evicts the least recently used entry that no thread holds (under the
 * lock; its buffers go to o's pool); -1 if every entry is held. */
static int cache_evict_one(ola *o)
{
    class_cache *cc = o->cc;
    size_t lru = cc->ncache;
    for (size_t i = 0; i < cc->ncache; i++)
        if (!cc->cache[i].pins && (lru == cc->ncache || cc->cache[i].used < cc->cache[lru].used))
            lru = i;
    if (lru == cc->ncache)
        return -1;
    cache_entry *e = &cc->cache[lru];
    keps_cache_unslot(&cc->ix, e->c.node);
    cc->cache_bytes -= classes_bytes(&e->c);
    keps_class_pool_put(&o->pool, &e->c);
    free(e->levels);
    if (lru != --cc->ncache) {
        *e = cc->cache[cc->ncache];
        cc->ix.slots[keps_cache_slot(&cc->ix, e->c.node)] = (uint32_t)lru + 1;
    }
    return 0;
}

/* Under the lock: e is read outside it until release(). */
static void hold(cache_entry *e, held *h)
{
    e->pins++;
    h->c = e->c;
    h->levels = e->levels;
    h->pinned = 1;
}

static void release(ola *o, held *h)
{
    if (!h->pinned)
        return;
    pthread_mutex_lock(&o->cc->mu);
    cache_get(o->cc, h->c.node)->pins--;
    pthread_mutex_unlock(&o->cc->mu);
    h->pinned = 0;
}

/* Source sizes above which a roll-up goes through an intermediate node. */
#define STAGE_MIN 4096

/* The cached node <= levels with the fewest classes, or NULL. Immediate
 * predecessors are looked up directly; the whole cache is scanned only when
 * none of them is small. */
static cache_entry *cache_source(ola *o, const int *levels, uint64_t id)
{
    const keps_lattice *L = o->L;
    cache_entry *best = NULL;
    for (size_t i = 0; i < L->q; i++)
        if (levels[i] > 0) {
            cache_entry *e = cache_get(o->cc, id - L->stride[i]);
            if (e && (!best || e->c.n < best->c.n))
                best = e;
        }
    if (best && best->c.n <= STAGE_MIN)
        return best;
    for (size_t i = 0; i < o->cc->ncache; i++) {
        cache_entry *e = &o->cc->cache[i];
        if ((!best || e->c.n < best->c.n) && e->c.node != id && dominated(L, e->levels, levels))
            best = e;
    }
    return best;
}

static int eval(ola *o, const int *levels, held *keep);

/* A large source is first rolled up along the one coordinate whose
 * generalization merges the most values (ratio of value counts); the
 * intermediate node is cached and shared by every later node above it, so
 * most nodes roll up from a few small class sets instead of the bottom.
 * The source is returned held (release() it after the roll-up). */
static int source_for(ola *o, const int *levels, uint64_t id, held *src)
{
    const keps_lattice *L = o->L;
    for (;;) {
        pthread_mutex_lock(&o->cc->mu);
        cache_entry *e = cache_source(o, levels, id);
        if (e && e->c.n < L->bottom.n)
            hold(e, src);
        else {
            src->c = L->bottom;
            src->levels = o->zero;
            src->pinned = 0;
        }
        pthread_mutex_unlock(&o->cc->mu);
        const int *flv = src->levels;
        size_t from_n = src->c.n;
        if (from_n <= STAGE_MIN)
            return 0;
        size_t nd = 0, d = 0;
        double best = 0;
        for (size_t i = 0; i < L->q; i++)
            if (flv[i] < levels[i]) {
                double r = (double)L->card[i][flv[i]] / (double)L->card[i][levels[i]];
                if (nd++ == 0 || r > best) {
                    best = r;
                    d = i;
                }
            }
        if (nd < 2)
            return 0;
        int *mid = malloc(L->q * sizeof *mid);
        if (!mid) {
            release(o, src);
            o->oom = 1;
            return -1;
        }
        memcpy(mid, flv, L->q * sizeof *mid);
        mid[d] = levels[d];
        release(o, src);
        int rc = eval(o, mid, src);
        free(mid);
        if (rc)
            return -1;
        /* Staging progresses only while the intermediate node has fewer
         * classes than its source. If it has as many (generalizing that
         * coordinate merged no classes: on cup.csv, ZIP's and the other
         * wide hierarchies do this near the bottom), cache_source would
         * hand back the same source and this loop would never end: roll up
         * from the intermediate node instead. */
        if (src->c.n >= from_n)
            return 0;
        release(o, src);
    }
}

/* Scores are kept for every evaluated node, so a node whose classes were
 * evicted from the cache is never rolled up twice for its score. */
static size_t score_slot(const ola *o, uint64_t id)
{
    size_t mask = o->capscore - 1, s = (size_t)((id * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (o->skey[s] && o->skey[s] != id + 1)
        s = (s + 1) & mask;
    return s;
}

static int score_put(ola *o, uint64_t id, const double *v, const double *b)
{
    size_t dim = o->dim;
    if (2 * (o->nscore + 1) > o->capscore) {
        size_t cap = o->capscore ? 2 * o->capscore : 1024;
        ola n = *o;
        n.skey = calloc(cap, sizeof *n.skey);
        n.sval = malloc(cap * dim * sizeof *n.sval);
        n.sbound = malloc(cap * dim * sizeof *n.sbound);
        if (!n.skey || !n.sval || !n.sbound) {
            free(n.skey);
            free(n.sval);
            free(n.sbound);
            o->oom = 1;
            return -1;
        }
        n.capscore = cap;
        for (size_t i = 0; i < o->capscore; i++)
            if (o->skey[i]) {
                size_t j = score_slot(&n, o->skey[i] - 1);
                n.skey[j] = o->skey[i];
                memcpy(n.sval + j * dim, o->sval + i * dim, dim * sizeof *n.sval);
                memcpy(n.sbound + j * dim, o->sbound + i * dim, dim * sizeof *n.sbound);
            }
        free(o->skey);
        free(o->sval);
        free(o->sbound);
        o->skey = n.skey;
        o->sval = n.sval;
        o->sbound = n.sbound;
        o->capscore = cap;
    }
    size_t j = score_slot(o, id);
    if (!o->skey[j])
        o->nscore++;
    o->skey[j] = id + 1;
    memcpy(o->sval + j * dim, v, dim * sizeof *v);
    memcpy(o->sbound + j * dim, b, dim * sizeof *b);
    return 0;
}

/* Evaluates node levels (sets o->last_supp); if keep is not NULL, its
 * classes are returned held in *keep (release() them). -1 after out of
 * memory. */
static int eval(ola *o, const int *levels, held *keep)
{
    const keps_lattice *L = o->L;
    class_cache *cc = o->cc;
    uint64_t id = keps_lattice_id(L, levels);
    pthread_mutex_lock(&cc->mu);
    cache_entry *e = cache_get(cc, id);
    if (e) {
        e->used = ++cc->clock;
        o->last_supp = e->supp;
        if (keep)
            hold(e, keep);
        pthread_mutex_unlock(&cc->mu);
        return 0;
    }
    pthread_mutex_unlock(&cc->mu);
    held src;
    if (source_for(o, levels, id, &src))
        return -1;
    /* Roll up straight into a pooled buffer with room for the source's
     * classes (a roll-up keeps ~3/4 of them on average, so the slack is
     * small, and copying into an exact-size set cost more than it). */
    keps_node_classes c;
    keps_node_classes_init(&c);
    int *lv = malloc(L->q * sizeof *lv);
    o->work += src.c.n;
    int fail = !lv || pool_get(o, &c, src.c.n) || keps_lattice_rollup(L, o->w, &src.c, levels, &c, NULL);
    release(o, &src);
    if (fail) {
        free(lv);
        keps_node_classes_free(&c);
        o->oom = 1;
        return -1;
    }
    memcpy(lv, levels, L->q * sizeof *lv);
    o->out_work += c.n;
    if (!(tag_or(o, id, TAG_EVAL) & TAG_EVAL))
        o->evaluated++;
    /* Only nodes that satisfy the constraints are ever scored, and with a
     * lazy metric only when the optimum pass asks (node_score); the rest
     * get the worst score without computing the metric. */
    double *sc = o->sbuf, *bd = sc + o->dim;
    size_t supp = keps_node_classes_suppressed(&c, o->k, NULL);
    int scored = supp > o->limit || !o->lazy;
    if (supp <= o->limit && !o->lazy) {
        keps_metrics_objective(o->m, levels, &c, o->k, sc);
        keps_metrics_objective_bound(o->m, levels, &c, o->k, o->limit, bd);
    } else
        for (size_t i = 0; i < o->dim; i++)
            sc[i] = bd[i] = INFINITY;
    o->last_supp = supp;
    if (scored && score_put(o, id, sc, bd)) {
        free(lv);
        keps_node_classes_free(&c);
        return -1;
    }
    /* A node that satisfies the constraints is hardly ever a roll-up source
     * (the search goes down from it; 9 of 1,251 on Adult, k = 2, 5%), and
     * its score is kept above: its classes would only push useful ones out
     * of the cache. */
    if (supp <= o->limit && !keep) {
        keps_class_pool_put(&o->pool, &c);
        free(lv);
        return 0;
    }
    pthread_mutex_lock(&cc->mu);
    e = cache_get(cc, id);
    if (e) { /* the other thread cached it meanwhile */
        keps_class_pool_put(&o->pool, &c);
        free(lv);
    } else {
        size_t need = classes_bytes(&c);
        while (cc->ncache > 0 && (cc->ncache == CACHE_MAX || cc->cache_bytes + need > CACHE_BYTES))
            if (cache_evict_one(o))
                break;
        if (cc->ncache == CACHE_MAX) { /* unreachable: at most 4 entries are held */
            pthread_mutex_unlock(&cc->mu);
            free(lv);
            keps_node_classes_free(&c);
            o->oom = 1;
            return -1;
        }
        e = &cc->cache[cc->ncache];
        e->levels = lv;
        e->c = c;
        e->supp = supp;
        e->pins = 0;
        cc->cache_bytes += need;
        cc->ix.slots[keps_cache_slot(&cc->ix, id)] = (uint32_t)++cc->ncache;
    }
    e->used = ++cc->clock;
    if (keep)
        hold(e, keep);
    pthread_mutex_unlock(&cc->mu);
    return 0;
}

/* ---- predictive tagging ------------------------------------------------ */

typedef struct {
    ola *o;
    uint8_t tag;
} claim_ctx;

/* Tags node y; 1 if it did not have the tag. A plain load first: most
 * neighbours are tagged already, and the locked read-modify-write
 * serializes the cache misses (16 QIs: 3/4 of tag_cone's time sat on it). */
static inline int claim(void *ctx, uint64_t y)
{
    claim_ctx *c = ctx;
    return !(tag_get(c->o, y) & c->tag || tag_or(c->o, y, c->tag) & c->tag);
}

/* Tags id and every node above (up) or below (!up) with tag. A node that
 * already has the tag has its whole cone tagged, so the walk stops there. */
static void tag_cone(ola *o, uint64_t id, int up, uint8_t tag)
{
    claim_ctx c = {o, tag};
    int oom;
    if (!claim(&c, id))
        return;
    uint64_t fresh = 1 + keps_cone_walk(o->L, &o->stack, id, up, claim, &c, &oom);
    if (oom)
        o->oom = 1; /* the search stops */
    /* A node never gets both tags (they are true), so each node is counted
     * once, by the thread whose tag_or set its bit. */
    if (atomic_fetch_add_explicit(&o->tc->n, fresh, memory_order_relaxed) + fresh == o->L->nnodes)
        atomic_store_explicit(&o->tc->all, 1, memory_order_relaxed);
}

static int all_tagged(const ola *o)
{
    return atomic_load_explicit(&o->tc->all, memory_order_relaxed);
}

/* Progress of the search: the larger of the share of middle nodes handed
 * out and of the orders of magnitude of untagged nodes left, ln(untagged)
 * over ln(nodes). The first alone sat below 1% for most of a run with many
 * QIs, which ends once every node is tagged; the second falls roughly
 * linearly in time there (16 QIs: ~0.24 after the first 1% of the run,
 * ~0.6 at half of it). */
static void report_progress(const ola *o)
{
    double left = (double)(o->L->nnodes - atomic_load_explicit(&o->tc->n, memory_order_relaxed));
    if (left == 0) /* the other thread just finished: nothing left to report */
        return;
    double settled = 1 - log(left + 1) / log((double)o->L->nnodes + 1);
    if (keps_progress("OLA search", settled > o->mid_done ? settled : o->mid_done, 1)) {
        atomic_store_explicit(&o->tc->cancel, 1, memory_order_relaxed);
        atomic_store_explicit(&o->tc->all, 1, memory_order_relaxed); /* both threads' loops end */
    }
}

/* A new list of the untagged nodes (tags only grow: every node untagged
 * now is in it), unless another thread has just built one small enough. */
static const untagged_list *build_untagged(ola *o, uint64_t left)
{
    const keps_lattice *L = o->L;
    tag_count *tc = o->tc;
    pthread_mutex_lock(&tc->mu);
    untagged_list *u = atomic_load_explicit(&tc->list, memory_order_acquire);
    if (u && u->n <= 2 * left) {
        pthread_mutex_unlock(&tc->mu);
        return u;
    }
    untagged_list *nu = calloc(1, sizeof *nu);
    int *lv = calloc(L->q, sizeof *lv);
    size_t cap = left + 64, n = 0;
    if (nu) {
        nu->id = malloc(cap * sizeof *nu->id);
        nu->lv = malloc(cap * L->q);
    }
    if (!nu || !lv || !nu->id || !nu->lv)
        goto fail;
    for (uint64_t id = 0; id < L->nnodes; id++) {
        if (!(tag_get(o, id) & (TAG_ANON | TAG_NOT))) {
            if (n == cap) /* more left than counted a moment ago: cannot be, tags only grow */
                goto fail;
            nu->id[n] = id;
            for (size_t i = 0; i < L->q; i++)
                nu->lv[n * L->q + i] = (uint8_t)lv[i];
            n++;
        }
        for (size_t i = 0; i < L->q && ++lv[i] > L->height[i]; i++)
            lv[i] = 0;
    }
    free(lv);
    nu->n = n;
    nu->older = u;
    atomic_store_explicit(&tc->list, nu, memory_order_release);
    pthread_mutex_unlock(&tc->mu);
    return nu;
fail:
    if (nu) {
        free(nu->id);
        free(nu->lv);
    }
    free(nu);
    free(lv);
    pthread_mutex_unlock(&tc->mu);
    return u;
}

/* The first index at or after from whose id is >= id. */
static size_t untagged_from(const untagged_list *u, size_t from, uint64_t id)
{
    size_t lo = from, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Is every node of [b, t] tagged? Then Kmin(b, t) would evaluate nothing
 * (and the memo would only record it), so it is skipped: the evaluations
 * stay OLA's, in OLA's order. Answered only once few nodes are left
 * untagged (a list of them, rebuilt as it shrinks eightfold); with many
 * QIs most of the recursion runs then, walking tagged sub-lattices. */
static int box_settled(ola *o, const int *b, uint64_t bid, const int *t, uint64_t tid)
{
    const keps_lattice *L = o->L;
    tag_count *tc = o->tc;
    if (!tc->has_mu)
        return 0;
    uint64_t left = L->nnodes - atomic_load_explicit(&tc->n, memory_order_relaxed);
    const untagged_list *u = atomic_load_explicit(&tc->list, memory_order_acquire);
    if (left > UNTAGGED_FIRST)
        return 0;
    if (!u || left * 8 < u->n)
        u = build_untagged(o, left);
    if (!u)
        return 0;
    /* Skip-scan over the ids (the last coordinate is the most significant):
     * a listed node outside the box sends the scan to the next id whose
     * coordinates from the highest offending one up lie inside it. */
    size_t j = untagged_from(u, 0, bid);
    while (j < u->n && u->id[j] <= tid) {
        if (tag_get(o, u->id[j]) & (TAG_ANON | TAG_NOT)) {
            j++;
            continue;
        }
        const uint8_t *l = u->lv + j * L->q;
        size_t i = L->q;
        while (i > 0 && l[i - 1] >= b[i - 1] && l[i - 1] <= t[i - 1])
            i--;
        if (i == 0)
            return 0; /* an untagged node inside */
        /* the next id: coordinates below the offending one, d, at b's
         * levels; d at b's level if below it, else b's and a carry into the
         * lowest coordinate above d that can still grow inside the box */
        size_t d = i - 1, c = d;
        if (l[d] > t[d]) {
            for (c = d + 1; c < L->q && l[c] >= t[c];)
                c++;
            if (c == L->q)
                return 1;
        }
        uint64_t next = 0;
        for (size_t e = 0; e < L->q; e++) {
            int v = l[e];
            if (e < c || e == d)
                v = b[e];
            else if (e == c)
                v = l[e] + 1;
            next += (uint64_t)v * L->stride[e];
        }
        j = untagged_from(u, j + 1, next);
    }
    return 1;
}

static int has_score(const ola *o, uint64_t id)
{
    return o->capscore && o->skey[score_slot(o, id)];
}

/* Score and class-based bound of a node (copied to score[dim] and
 * bound[dim], which must not be o->sbuf), evaluating it if needed. */
static int node_score(ola *o, const int *levels, double *score, double *bound)
{
    uint64_t id = keps_lattice_id(o->L, levels);
    if (!has_score(o, id)) {
        held h;
        if (eval(o, levels, &h))
            return -1;
        int rc = 0;
        if (!has_score(o, id)) { /* lazy: scored here, not when counted */
            keps_metrics_objective(o->m, levels, &h.c, o->k, score);
            keps_metrics_objective_bound(o->m, levels, &h.c, o->k, o->limit, bound);
            rc = score_put(o, id, score, bound);
        }
        release(o, &h);
        if (rc)
            return -1;
    }
    size_t j = score_slot(o, id);
    memcpy(score, o->sval + j * o->dim, o->dim * sizeof *score);
    memcpy(bound, o->sbound + j * o->dim, o->dim * sizeof *bound);
    return 0;
}

/* Does node levels (id) satisfy the constraints? Uses and sets the tags;
 * -1 on out of memory. */
static int anonymous(ola *o, const int *levels, uint64_t id)
{
    if (tag_get(o, id) & TAG_ANON)
        return 1;
    if (tag_get(o, id) & TAG_NOT)
        return 0;
    if (eval(o, levels, NULL))
        return -1;
    if (o->last_supp <= o->limit) {
        tag_cone(o, id, 1, TAG_ANON);
        return 1;
    }
    tag_cone(o, id, 0, TAG_NOT);
    return 0;
}


/* Appends to the k-minimal list. */
static void push_kmin(ola *o, uint64_t id)
{
    if (o->nkmin == o->capkmin) {
        size_t cap = o->capkmin ? 2 * o->capkmin : 64;
        uint64_t *k = realloc(o->kmin, cap * sizeof *k);
        if (!k) {
            o->oom = 1;
            return;
        }
        o->kmin = k;
        o->capkmin = cap;
    }
    o->kmin[o->nkmin++] = id;
}

/* Records the call Kmin(b, t); returns 1 if it was done before. The
 * recursion reaches the same sub-lattice from many middle nodes; its
 * outcome only depends on (b, t) and the tags, which only grow. */
/* The top bits of the product: they depend on every bit of v (the low
 * bits would ignore B, which sits in v's high half). */
static size_t memo_home(uint64_t v, size_t cap)
{
    return (size_t)((v * 0x9E3779B97F4A7C15ull) >> (64 - __builtin_ctzll((unsigned long long)cap)));
}

static int memo_seen(ola *o, uint64_t b, uint64_t t)
{
    if (2 * (o->nmemo + 1) > o->capmemo) {
        size_t cap = o->capmemo ? 2 * o->capmemo : 1024;
        uint64_t *m = calloc(cap, sizeof *m);
        if (!m) {
            o->oom = 1;
            return 1;
        }
        for (size_t i = 0; i < o->capmemo; i++)
            if (o->memo[i]) {
                size_t s = memo_home(o->memo[i], cap);
                while (m[s])
                    s = (s + 1) & (cap - 1);
                m[s] = o->memo[i];
            }
        free(o->memo);
        o->memo = m;
        o->capmemo = cap;
    }
    /* One word per call (half a pair of words: fewer cache misses): ids are
     * below 2^32 (keps_ola_run checks), and the complement is 0 only for
     * b = t = 2^32 - 1, never a call (b < t unless the lattice has one node). */
    uint64_t v = ~(b << 32 | t);
    size_t s = memo_home(v, o->capmemo);
    while (o->memo[s]) {
        if (o->memo[s] == v)
            return 1;
        s = (s + 1) & (o->capmemo - 1);
    }
    o->memo[s] = v;
    o->nmemo++;
    return 0;
}

static void kmin(ola *o, const int *b, uint64_t bid, const int *t, uint64_t tid);

/* Visits every node n with b <= n <= t at a given height, recursing only
 * over the free coordinates (those with b < t: a sub-lattice deep in the
 * search has few of them, and walking the fixed ones cost ~1/4 of the
 * search's instructions). */
typedef struct mid_ctx {
    ola *o;
    const int *b, *t;
    uint64_t bid, tid;
    int *n;     /* [q] the node being built; fixed coordinates = b's */
    size_t *fd; /* [nf] the free coordinates */
    int *room;  /* [nf] sum of (t - b) over the free coordinates after j */
    size_t nf;
} mid_ctx;

static void mid_visit(mid_ctx *x, size_t j, int remaining, uint64_t id)
{
    ola *o = x->o;
    if (o->oom || all_tagged(o))
        return;
    if (j == x->nf) {
        int a = anonymous(o, x->n, id);
        /* x->n is not touched again until the recursion returns */
        if (a > 0)
            kmin(o, x->b, x->bid, x->n, id);
        else if (a == 0)
            kmin(o, x->n, id, x->t, x->tid);
        return;
    }
    size_t i = x->fd[j];
    uint64_t stride = o->L->stride[i];
    int lo = remaining - x->room[j], hi = x->t[i] - x->b[i];
    if (lo < 0)
        lo = 0;
    if (hi > remaining)
        hi = remaining;
    for (int l = lo; l <= hi; l++) {
        x->n[i] = x->b[i] + l;
        mid_visit(x, j + 1, remaining - l, id + (uint64_t)l * stride);
    }
    x->n[i] = x->b[i];
}

/* El Emam et al.'s Kmin(Bnode, Tnode): t satisfies the constraints;
 * bid, tid are the ids of b and t. It evaluates, in OLA's order, the nodes
 * of [b, t] that the tags do not settle; when it returns, every node of
 * [b, t] is tagged (a node below the middle height lies below a middle
 * node: inside the sub-search of one that satisfies the constraints, or
 * below failing ones only; dually above), so the k-minimal nodes are read
 * off the tags at the end (kmin_from_tags) rather than collected here. */
static void kmin(ola *o, const int *b, uint64_t bid, const int *t, uint64_t tid)
{
    const keps_lattice *L = o->L;
    if (o->oom || all_tagged(o))
        return;
    /* Every node of [b, t] but t lies below an immediate predecessor of t
     * inside [b, t]; when all of those are tagged as failing, so is the
     * sub-lattice but t. Checked before the memo, whose lookups miss the
     * cache (Adult, k = 2, 5%: memoized calls 178k -> 145k with this test,
     * 124k with the next). */
    int shortcut = 1;
    for (size_t i = 0; i < L->q && shortcut; i++)
        shortcut = t[i] == b[i] || (tag_get(o, tid - L->stride[i]) & TAG_NOT);
    if (shortcut)
        return;
    /* Dually, when b fails and every immediate successor of b inside
     * [b, t] is tagged as satisfying, so is the sub-lattice but b. */
    shortcut = tag_get(o, bid) & TAG_NOT;
    for (size_t i = 0; i < L->q && shortcut; i++)
        shortcut = t[i] == b[i] || (tag_get(o, bid + L->stride[i]) & TAG_ANON);
    if (shortcut || box_settled(o, b, bid, t, tid) || memo_seen(o, bid, tid))
        return;
    if (o->report && (o->nmemo & 4095) == 0) /* within a middle node's sub-search */
        report_progress(o);
    int hh = keps_lattice_level_sum(L, t) - keps_lattice_level_sum(L, b);
    if (hh > 1) {
        int *n = malloc(2 * L->q * sizeof *n + L->q * sizeof(size_t));
        if (!n) {
            o->oom = 1;
            return;
        }
        mid_ctx x = {o, b, t, bid, tid, n, (size_t *)(n + 2 * L->q), n + L->q, 0};
        memcpy(n, b, L->q * sizeof *n);
        for (size_t i = 0; i < L->q; i++)
            if (t[i] > b[i])
                x.fd[x.nf++] = i;
        int room = 0;
        for (size_t j = x.nf; j-- > 0;) {
            x.room[j] = room;
            room += t[x.fd[j]] - b[x.fd[j]];
        }
        mid_visit(&x, 0, hh / 2, bid);
        free(n);
        return;
    }
    /* Two nodes: t is tagged, b is once evaluated. */
    anonymous(o, b, bid);
}

/* Once every node is tagged, the k-minimal nodes are the anonymous ones
 * whose immediate predecessors all fail (every node below one lies below
 * an immediate predecessor). Levels are stepped like an odometer rather
 * than divided out of every id. */
static void kmin_from_tags(ola *o)
{
    const keps_lattice *L = o->L;
    int *lv = calloc(L->q, sizeof *lv);
    if (!lv) {
        o->oom = 1;
        return;
    }
    for (uint64_t id = 0; id < L->nnodes && !o->oom; id++) {
        if (tag_get(o, id) & TAG_ANON) {
            int minimal = 1;
            for (size_t i = 0; i < L->q && minimal; i++)
                minimal = lv[i] == 0 || (tag_get(o, id - L->stride[i]) & TAG_NOT);
            if (minimal)
                push_kmin(o, id);
        }
        for (size_t i = 0; i < L->q && ++lv[i] > L->height[i]; i++)
            lv[i] = 0;
    }
    free(lv);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct kmin_bound {
    const double *b; /* [dim] */
    size_t dim;
    uint64_t id;
} kmin_bound;

static int cmp_bound(const void *a, const void *b)
{
    const kmin_bound *x = a, *y = b;
    int c = keps_score_cmp(x->b, y->b, x->dim);
    return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

/* ---- the optimum over the anonymous region ------------------------------
 * Level by level from the bottom; a node is pruned (with everything above
 * it) when a predecessor is pruned or its lower bound is not below the best
 * score found so far. The k-minimal nodes are scored first so that the
 * bound bites from the start; with no suppression allowed every node above
 * a k-minimal node is pruned at once (the metrics are then monotone). */
/* The optimum pass's walk over one level of the lattice (a level sum), in
 * increasing id order (the last coordinate is the most significant), so
 * that ties go to the lowest id as a sorted list of ids gave them, without
 * that list (8 bytes per anonymous node, which with many QIs is most of
 * the lattice) or decoding ids into levels. */
typedef struct level_walk {
    ola *o;
    int *lv;
    const int *room; /* room[d]: the heights of the coordinates before d */
    double *best;    /* [dim] */
    uint64_t *best_id;
    int rc;
} level_walk;

/* One anonymous node: pruned with everything above it when a predecessor
 * is pruned or its bound cannot beat the best score; else scored. */
static void walk_node(level_walk *w, uint64_t id)
{
    ola *o = w->o;
    const keps_lattice *L = o->L;
    if (!(tag_get(o, id) & TAG_ANON))
        return;
    int pruned = 0;
    for (size_t i = 0; i < L->q && !pruned; i++)
        pruned = w->lv[i] > 0 && (tag_get(o, id - L->stride[i]) & TAG_PRUNE);
    double *b = o->sbuf + 2 * o->dim, *s = b, *cb = b + o->dim;
    if (!pruned) {
        keps_metrics_objective_bound(o->m, w->lv, NULL, o->k, o->limit, b);
        pruned = keps_score_cmp(b, w->best, o->dim) >= 0;
    }
    if (pruned) {
        tag_or(o, id, TAG_PRUNE);
        return;
    }
    if (node_score(o, w->lv, s, cb)) {
        w->rc = -1;
        return;
    }
    if (keps_score_cmp(s, w->best, o->dim) < 0) {
        memcpy(w->best, s, o->dim * sizeof *s);
        *w->best_id = id;
    }
    if (keps_score_cmp(cb, w->best, o->dim) >= 0)
        tag_or(o, id, TAG_PRUNE);
}

/* Coordinates d - 1 down to 0 still to set, summing to remaining. */
static void walk_level(level_walk *w, size_t d, int remaining, uint64_t id)
{
    if (w->rc)
        return;
    if (d == 0) {
        walk_node(w, id);
        return;
    }
    const keps_lattice *L = w->o->L;
    size_t i = d - 1;
    int lo = remaining - w->room[i], hi = L->height[i] < remaining ? L->height[i] : remaining;
    for (int l = lo < 0 ? 0 : lo; l <= hi; l++) {
        w->lv[i] = l;
        walk_level(w, i, remaining - l, id + (uint64_t)l * L->stride[i]);
    }
}

/* The best score into best[dim] and its node. */
static int optimum(ola *o, uint64_t *best_id, double *best)
{
    const keps_lattice *L = o->L;
    const size_t dim = o->dim;
    int *lv = malloc(2 * L->q * sizeof *lv), *room = lv + L->q;
    int maxsum = 0;
    kmin_bound *kbound = NULL;
    double *kb = NULL, *s = o->sbuf + 2 * dim, *cb = s + dim;
    int rc = -1;
    if (!lv)
        goto done;
    for (size_t i = 0; i < L->q; i++) {
        room[i] = maxsum; /* the heights of the coordinates before i */
        maxsum += L->height[i];
    }
    for (size_t i = 0; i < dim; i++)
        best[i] = INFINITY;
    *best_id = UINT64_MAX;
    /* Candidates by their class-free bound, lowest first: once the bound
     * passes the best score the rest cannot win and are not scored (loss,
     * Adult, k = 2, 5%: 18 of 1,079 k-minimal nodes are). A bound equal to
     * the best is still scored: ties go to the lowest id, as before. */
    kbound = malloc((o->nkmin ? o->nkmin : 1) * sizeof *kbound);
    kb = malloc((o->nkmin ? o->nkmin : 1) * dim * sizeof *kb);
    if (!kbound || !kb)
        goto done;
    for (size_t i = 0; i < o->nkmin; i++) {
        keps_lattice_levels(L, o->kmin[i], lv);
        keps_metrics_objective_bound(o->m, lv, NULL, o->k, o->limit, kb + i * dim);
        kbound[i] = (kmin_bound){kb + i * dim, dim, o->kmin[i]};
    }
    qsort(kbound, o->nkmin, sizeof *kbound, cmp_bound);
    for (size_t i = 0; i < o->nkmin && keps_score_cmp(kbound[i].b, best, dim) <= 0; i++) {
        keps_lattice_levels(L, kbound[i].id, lv);
        if (node_score(o, lv, s, cb))
            goto done;
        int c = keps_score_cmp(s, best, dim);
        if (c < 0 || (c == 0 && kbound[i].id < *best_id)) {
            memcpy(best, s, dim * sizeof *s);
            *best_id = kbound[i].id;
        }
    }
    /* every anonymous node, level by level from the bottom */
    level_walk w = {o, lv, room, best, best_id, 0};
    for (int h = 0; h <= maxsum && !w.rc; h++)
        walk_level(&w, L->q, h, 0);
    if (w.rc)
        goto done;
    rc = 0;
done:
    free(lv);
    free(kbound);
    free(kb);
    return rc;
}

static void ola_free(ola *o)
{
    if (o->owns_cc && o->cc) {
        class_cache *cc = o->cc;
        for (size_t i = 0; cc->cache && i < cc->ncache; i++) {
            keps_node_classes_free(&cc->cache[i].c);
            free(cc->cache[i].levels);
        }
        free(cc->cache);
        free(cc->ix.slots);
        pthread_mutex_destroy(&cc->mu);
        free(cc);
    }
    free(o->zero);
    keps_class_pool_free(&o->pool);
    if (o->owns_tag) {
        free(o->tag);
        if (o->tc) {
            for (untagged_list *u = atomic_load(&o->tc->list), *next; u; u = next) {
                next = u->older;
                free(u->id);
                free(u->lv);
                free(u);
            }
            if (o->tc->has_mu)
                pthread_mutex_destroy(&o->tc->mu);
        }
        free(o->tc);
    }
    keps_lattice_work_free(o->w);
    keps_metrics_free(o->m);
    free(o->kmin);
    free(o->stack.id);
    free(o->memo);
    free(o->skey);
    free(o->sval);
    free(o->sbound);
    free(o->sbuf);
}

void keps_ola_result_free(keps_ola_result *r)
{
    free(r->levels);
    free(r->minimal);
    free(r->score);
    free(r->attributes);
    memset(r, 0, sizeof *r);
}

/* Per-thread state; the tags and the class cache are shared's (NULL: new
 * ones). 0 or -1 (out of memory). */
static int ola_init(ola *o, const keps_lattice *L, const keps_ola_params *p, const keps_metric_config *cfg,
                    const ola *shared)
{
    memset(o, 0, sizeof *o);
    o->L = L;
    o->k = p->k;
    /* floor(s*N); the epsilon keeps e.g. 0.05*30162 = 1508.1 at 1508 and
     * 0.1*30 = 3.0000000000000004 at 3 */
    o->limit = (size_t)floor(p->suppress * (double)L->nrows + 1e-9);
    /* With a class-free lower bound (keps_metrics_objective_bound without
     * classes), the optimum pass asks for few scores, so satisfying nodes
     * are not scored when counted; discernibility and AECS have none (it is
     * 0), so every k-minimal node is scored and is cheapest to score then. */
    o->lazy = cfg->metric != KEPS_METRIC_DM && cfg->metric != KEPS_METRIC_AECS;
    o->owns_tag = o->owns_cc = shared == NULL;
    o->tag = shared ? shared->tag : calloc((size_t)L->nnodes, 1);
    o->tc = shared ? shared->tc : calloc(1, sizeof *o->tc);
    if (!shared && o->tc) {
        /* levels are kept in a byte each by box_settled */
        int small = 1;
        for (size_t i = 0; i < L->q; i++)
            small &= L->height[i] <= 255;
        o->tc->has_mu = small && pthread_mutex_init(&o->tc->mu, NULL) == 0;
    }
    o->w = keps_lattice_work_new(L);
    o->m = keps_metrics_new_objective(L, cfg, NULL);
    o->dim = o->m ? keps_metrics_score_len(o->m) : 1;
    o->sbuf = malloc(4 * o->dim * sizeof *o->sbuf);
    o->zero = calloc(L->q, sizeof *o->zero);
    if (shared)
        o->cc = shared->cc;
    else if ((o->cc = calloc(1, sizeof *o->cc))) {
        if (pthread_mutex_init(&o->cc->mu, NULL)) {
            free(o->cc);
            o->cc = NULL;
            return -1;
        }
        o->cc->cache = calloc(CACHE_MAX, sizeof *o->cc->cache);
        o->cc->ix = (keps_cache_index){calloc(KEPS_CACHE_SLOTS, sizeof *o->cc->ix.slots), (const char *)o->cc->cache,
                                       sizeof *o->cc->cache, offsetof(cache_entry, c)};
    }
    return o->tag && o->tc && o->w && o->m && o->sbuf && o->cc && o->cc->cache && o->cc->ix.slots && o->zero ? 0 : -1;
}

/* ---- two search threads ------------------------------------------------
 * The top-level Kmin(bottom, top) call loops over the lattice's middle
 * level; each middle node's sub-search is independent of the others except
 * through the tags, so two threads take runs of middle nodes, each with its
 * own memo, sharing the tags and the class cache. Every middle node is
 * still searched, so every node ends up tagged as in the sequential
 * search. */
typedef struct par_ctx {
    uint64_t *mids;
    size_t nmids;
    atomic_size_t next;
    const int *bot, *top;
} par_ctx;

typedef struct par_arg {
    ola *o;
    par_ctx *x;
    int report; /* the caller's thread: reports progress (keps/progress.h) */
} par_arg;

static void collect_level(const keps_lattice *L, size_t i, int remaining, int *n, uint64_t **out, size_t *len,
                          size_t *cap, int *oom)
{
    if (*oom)
        return;
    if (i == L->q) {
        if (remaining)
            return;
        if (*len == *cap) {
            size_t c = *cap ? 2 * *cap : 256;
            uint64_t *p = realloc(*out, c * sizeof *p);
            if (!p) {
                *oom = 1;
                return;
            }
            *out = p;
            *cap = c;
        }
        (*out)[(*len)++] = keps_lattice_id(L, n);
        return;
    }
    int room = 0;
    for (size_t j = i + 1; j < L->q; j++)
        room += L->height[j];
    for (int l = 0; l <= L->height[i] && l <= remaining; l++) {
        if (remaining - l > room)
            continue;
        n[i] = l;
        collect_level(L, i + 1, remaining - l, n, out, len, cap, oom);
    }
}

static void *par_main(void *arg)
{
    par_arg *a = arg;
    ola *o = a->o;
    par_ctx *x = a->x;
    o->report = a->report;
    int *n = malloc(o->L->q * sizeof *n);
    if (!n) {
        o->oom = 1;
        return NULL;
    }
    /* Runs of neighbouring middle nodes (the list is in lexicographic
     * order), a share of what is left each time (guided scheduling): a
     * thread's next node then mostly rolls up from its own recent classes.
     * Handing out single nodes alternately made the threads roll up ~30%
     * more classes than one thread did. */
    size_t i = 0, end = 0;
    for (;; i++) {
        if (i == end) {
            size_t at = atomic_load(&x->next), want;
            do {
                want = at < x->nmids ? (x->nmids - at) / 16 : 1;
                if (want < 4)
                    want = 4;
            } while (!atomic_compare_exchange_weak(&x->next, &at, at + want));
            i = at;
            end = at + want;
        }
        if (i >= x->nmids || o->oom || all_tagged(o))
            break;
        /* Runs are handed out in list order, so the caller's position in
         * the list tells how much of the search is behind both threads. */
        if (a->report) {
            o->mid_done = (double)i / (double)x->nmids;
            report_progress(o);
        }
        keps_lattice_levels(o->L, x->mids[i], n);
        int an = anonymous(o, n, x->mids[i]);
        if (an < 0)
            break;
        if (an)
            kmin(o, x->bot, 0, n, x->mids[i]);
        else
            kmin(o, n, x->mids[i], x->top, o->L->nnodes - 1);
    }
    free(n);
    return NULL;
}

/* Moves thread b's findings into a: scores, counters (the tags are shared). */
static void par_merge(ola *a, ola *b)
{
    for (size_t i = 0; i < b->capscore; i++)
        if (b->skey[i] && score_put(a, b->skey[i] - 1, b->sval + i * b->dim, b->sbound + i * b->dim))
            return;
    a->evaluated += b->evaluated;
    a->work += b->work;
    a->out_work += b->out_work;
    a->oom |= b->oom;
}

/* Kmin(bottom, top): its loop over the middle level runs here, on
 * p->threads threads (0: two; at most 64, and not more than there are
 * middle nodes, two at least), so that the position in that loop can be
 * reported as progress (the memo and the Kmin shortcuts never apply to the
 * top call itself). The threads share the tags, so the nodes found do not
 * depend on how many there are. */
static void kmin_top(ola *o, const keps_ola_params *p, const keps_metric_config *cfg, const int *bot,
                     const int *top, keps_ola_stats *stats)
{
    const keps_lattice *L = o->L;
    int hh = keps_lattice_level_sum(L, top);
    int threads = p->threads <= 0 ? 2 : p->threads > 64 ? 64 : p->threads;
    if (hh <= 1) {
        kmin(o, bot, 0, top, L->nnodes - 1);
        return;
    }
    par_ctx x;
    x.mids = NULL;
    x.nmids = 0;
    atomic_init(&x.next, 0);
    x.bot = bot;
    x.top = top;
    size_t cap = 0;
    int *n = calloc(L->q, sizeof *n);
    int oom = !n;
    if (!oom)
        collect_level(L, 0, hh / 2, n, &x.mids, &x.nmids, &cap, &oom);
    free(n);
    if (!oom && threads > 1 && x.nmids < (size_t)threads)
        threads = x.nmids > 1 ? (int)x.nmids : 2; /* no thread without a middle node to take */
    if (!oom && threads == 1) {
        par_arg a1 = {o, &x, 1};
        par_main(&a1);
        free(x.mids);
        return;
    }
    /* The caller's thread and threads - 1 others, each with its own search
     * state over the shared tags and class cache (ola_init with o). */
    size_t nother = (size_t)threads - 1, ready = 0;
    ola *other = oom ? NULL : calloc(nother, sizeof *other);
    par_arg *arg = oom ? NULL : calloc(nother, sizeof *arg);
    pthread_t *tid = oom ? NULL : calloc(nother, sizeof *tid);
    int *started = oom ? NULL : calloc(nother, sizeof *started);
    oom = oom || !other || !arg || !tid || !started;
    for (; !oom && ready < nother; ready++)
        if (ola_init(&other[ready], L, p, cfg, o)) {
            ola_free(&other[ready]);
            oom = 1;
            break;
        }
    if (!oom) {
        par_arg a1 = {o, &x, 1};
        for (size_t i = 0; i < nother; i++) {
            arg[i] = (par_arg){&other[i], &x, 0};
            started[i] = pthread_create(&tid[i], NULL, par_main, &arg[i]) == 0;
        }
        par_main(&a1);
        for (size_t i = 0; i < nother; i++)
            if (started[i])
                pthread_join(tid[i], NULL);
        /* thread 0 is the caller's, thread 1 every other one together */
        stats->thread_evaluated[0] = o->evaluated;
        stats->thread_rolled_up[0] = o->work;
        for (size_t i = 0; i < nother; i++) {
            stats->thread_evaluated[1] += other[i].evaluated;
            stats->thread_rolled_up[1] += other[i].work;
            par_merge(o, &other[i]);
        }
    } else {
        o->oom = 1;
    }
    for (size_t i = 0; i < ready; i++)
        ola_free(&other[i]);
    free(other);
    free(arg);
    free(tid);
    free(started);
    free(x.mids);
}

keps_status keps_ola_run(const keps_lattice *L, const keps_ola_params *p, keps_ola_result *res,
                         keps_error *err)
{
    return keps_ola_run_objective(L, p, NULL, res, err);
}

keps_status keps_ola_run_objective(const keps_lattice *L, const keps_ola_params *p,
                                   const keps_metric_config *objective, keps_ola_result *res, keps_error *err)
{
    memset(res, 0, sizeof *res);
    if (p->k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1");
    if (!(p->suppress >= 0 && p->suppress <= 1))
        return keps_error_set(err, KEPS_EINPUT, "the suppression limit must be a fraction in [0, 1]");
    if (!objective && (unsigned)p->metric >= KEPS_METRIC_COUNT)
        return keps_error_set(err, KEPS_EINPUT, "unknown metric");
    keps_metric_config dflt = keps_metric_config_default(p->metric);
    const keps_metric_config *cfg = objective ? objective : &dflt;
    keps_status bad = keps_metric_config_check(cfg, L->q, err);
    if (bad)
        return bad;
    if (L->nnodes > ((uint64_t)1 << 32))
        return keps_error_set(err, KEPS_EINPUT,
                              "the lattice has %llu nodes; OLA supports up to 2^32: use fewer QIs or "
                              "shorter hierarchies",
                              (unsigned long long)L->nnodes);
    ola o;
    int initfail = ola_init(&o, L, p, cfg, NULL);
    res->levels = calloc(L->q, sizeof *res->levels);
    int *top = calloc(L->q, sizeof *top), *bot = calloc(L->q, sizeof *bot);
    keps_status st = KEPS_ENOMEM;
    if (initfail || !res->levels || !top || !bot)
        goto done;
    for (size_t i = 0; i < L->q; i++)
        top[i] = L->height[i];
    res->nodes_total = L->nnodes;
    res->suppress_limit = o.limit;
    if (eval(&o, top, NULL))
        goto done;
    res->top_suppressed = o.last_supp;
    st = KEPS_OK;
    if (res->top_suppressed > o.limit) {
        res->nodes_evaluated = o.evaluated;
        goto done;
    }
    tag_cone(&o, L->nnodes - 1, 1, TAG_ANON);
    kmin_top(&o, p, cfg, bot, top, &res->stats);
    assert(o.oom || all_tagged(&o)); /* see kmin */
    if (atomic_load(&o.tc->cancel)) {
        st = KEPS_ECANCEL;
        goto done;
    }
    kmin_from_tags(&o);
    res->stats.kmin_evaluated = o.evaluated;
    res->stats.kmin_rolled_up = o.work;
    res->stats.kmin_calls = o.nmemo;
    res->stats.nodes_tagged = atomic_load(&o.tc->n);
    free(o.memo); /* the search is over; with many QIs the memo is most of the memory */
    o.memo = NULL;
    o.nmemo = o.capmemo = 0;
    uint64_t best_id;
    res->score_len = o.dim;
    res->score = malloc(o.dim * sizeof *res->score);
    if (!res->score || o.oom || optimum(&o, &best_id, res->score) || o.oom) {
        st = KEPS_ENOMEM;
        goto done;
    }
    res->stats.evaluated = o.evaluated;
    res->stats.rolled_up = o.work;
    res->stats.classes_made = o.out_work;
    qsort(o.kmin, o.nkmin, sizeof *o.kmin, cmp_u64);
    res->found = 1;
    res->node = best_id;
    keps_lattice_levels(L, best_id, res->levels);
    held h;
    if (eval(&o, res->levels, &h)) {
        st = KEPS_ENOMEM;
        goto done;
    }
    keps_metrics_all(o.m, res->levels, &h.c, o.k, &res->metrics);
    keps_metrics_objective(o.m, res->levels, &h.c, o.k, res->score);
    res->attributes = malloc(L->q * sizeof *res->attributes);
    if (res->attributes && keps_metrics_attributes(o.m, res->levels, &h.c, o.k, res->attributes)) {
        free(res->attributes);
        res->attributes = NULL;
    }
    size_t small = 0;
    res->suppressed = keps_node_classes_suppressed(&h.c, o.k, &small);
    res->nclasses = h.c.n - small;
    release(&o, &h);
    res->nodes_evaluated = o.evaluated;
    res->minimal = o.kmin;
    res->nminimal = o.nkmin;
    o.kmin = NULL;
done:
    free(top);
    free(bot);
    ola_free(&o);
    if (st == KEPS_ENOMEM || st == KEPS_ECANCEL) {
        keps_ola_result_free(res);
        return keps_error_set(err, st, st == KEPS_ECANCEL ? "cancelled" : "out of memory in the OLA search");
    }
    return st;
}
