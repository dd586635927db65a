/* keps: exact lattice search under privacy criteria (see keps/search.h). */
#include "keps/search.h"
#include "keps/progress.h"

#include "class_cache.h"
#include "cone.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    T_NOT = 1,    /* fails the monotone criteria: so does every node below */
    T_OK = 2,     /* passes them: so does every node above */
    T_EVAL = 4,   /* classes counted */
    T_DONE = 8,   /* settled: scored, or infeasible */
    T_PRUNE = 16, /* no node from here up scores below the best */
    T_PUSHED = 32 /* entered the heap */
};

/* ---- class cache ---------------------------------------------------------------
 * Class sets of recently evaluated nodes: a node rolls up from the cached
 * node below it with the fewest classes, or from the bottom; a large source
 * first through an intermediate node (staging, below). Bounded by entries
 * and bytes, least recently used goes; evicted buffers are reused. */
#define CACHE_MAX 4096
_Static_assert(2 * CACHE_MAX <= KEPS_CACHE_SLOTS, "the id hash needs room");
#define CACHE_BYTES ((size_t)32 << 20)
#define STAGE_MIN 4096

typedef struct entry {
    int *levels;
    keps_node_classes c;
    uint64_t used;
} entry;

/* Scores and bounds are vectors of dim values (keps_metrics_score_len:
 * q for rank aggregation, else 1) compared with keps_score_cmp; heap
 * items and pending bounds keep the first value inline and the vector, when
 * dim > 1, in a store (vec: its index). */
typedef struct heap_item {
    double lb;
    uint64_t id;
    size_t vec;
} heap_item;

typedef struct pending {
    double cb;
    uint64_t id;
    size_t vec;
} pending;

typedef struct search {
    const keps_lattice *L;
    const keps_criteria *crit;
    keps_metric metric;
    size_t limit;
    int with_supp;        /* limit > 0 */
    int full_mono;        /* every criterion monotone for with_supp */
    int lazy_hist;        /* the criteria read histograms and set a minimal class size:
                             nodes failing on class sizes alone get none (classes_of) */
    size_t min_size;      /* keps_criteria_min_class_size */
    uint32_t *assign;     /* [nassign] roll-up assignment (sizes first, then histograms) */
    size_t nassign;
    uint8_t *tag;         /* [nnodes] */
    keps_lattice_work *w;
    keps_metrics *m;      /* the objective */
    int *zero, *lv, *lv2; /* [q] scratch */
    uint32_t **star;      /* [q][level] code of '*' at the level, KEPS_NONE */
    /* cache */
    entry *cache;
    keps_cache_index ix;  /* id -> entry (ix.slots owned) */
    size_t ncache, cache_bytes;
    uint64_t clock;
    keps_class_pool pool;
    /* search state */
    heap_item *heap;
    size_t nheap, capheap;
    keps_cone_stack stack;
    uint64_t *chain;
    pending *pend;        /* evaluated nodes whose class bound may prune later */
    size_t npend, cappend;
    size_t dim;           /* score length */
    double *best;         /* [dim] the best score so far (inf: none) */
    uint64_t best_id;
    double *store;        /* vectors of heap items and pending bounds (dim > 1) */
    size_t nstore, capstore;
    double *sc, *cb, *fb; /* [dim] scratch: score, class bound, class-free bound */
    uint8_t *sup;         /* flags scratch */
    size_t capsup;
    uint64_t evaluated;
    /* for tuning (keps_search_stats): nodes scored, climbs, nodes failing the
     * monotone part, nodes passing it but failing the others */
    uint64_t scored, climbs, popped, fails, falsepass;
    int oom;
} search;

static size_t classes_bytes(const keps_node_classes *c)
{
    size_t b = c->cap * (sizeof *c->count + sizeof *c->key + sizeof *c->bot) + (c->pcount ? c->cap * 4 : 0);
    for (size_t j = 0; c->hist && j < c->nhist; j++)
        b += (c->cap + 1) * 4 + c->hist[j].cap * 8;
    return b;
}

static entry *cache_get(search *o, uint64_t id)
{
    long i = keps_cache_find(&o->ix, id);
    return i < 0 ? NULL : &o->cache[i];
}

/* A buffer for about n classes: the smallest pooled one that fits, or an
 * empty one (the roll-up allocates). */
static void pool_get(search *o, keps_node_classes *c, size_t n)
{
    if (!keps_class_pool_take(&o->pool, c, n))
        keps_node_classes_init(c);
}

/* Drops cache entry i (its buffers go to the pool). */
static void cache_remove(search *o, size_t i)
{
    entry *e = &o->cache[i];
    keps_cache_unslot(&o->ix, e->c.node);
    o->cache_bytes -= classes_bytes(&e->c);
    keps_class_pool_put(&o->pool, &e->c);
    free(e->levels);
    if (i != --o->ncache) {
        *e = o->cache[o->ncache];
        o->ix.slots[keps_cache_slot(&o->ix, e->c.node)] = (uint32_t)i + 1;
    }
}

static void cache_evict_lru(search *o)
{
    size_t lru = 0;
    for (size_t i = 1; i < o->ncache; i++)
        if (o->cache[i].used < o->cache[lru].used)
            lru = i;
    cache_remove(o, lru);
}

/* Takes c into the cache (its buffers); returns the entry, NULL on OOM. */
static entry *cache_put(search *o, const int *levels, keps_node_classes *c)
{
    size_t need = classes_bytes(c);
    while (o->ncache > 0 && (o->ncache == CACHE_MAX || o->cache_bytes + need > CACHE_BYTES))
        cache_evict_lru(o);
    int *lv = malloc(o->L->q * sizeof *lv);
    if (!lv)
        return NULL;
    memcpy(lv, levels, o->L->q * sizeof *lv);
    entry *e = &o->cache[o->ncache];
    e->levels = lv;
    e->c = *c;
    keps_node_classes_init(c);
    e->used = ++o->clock;
    o->cache_bytes += need;
    o->ix.slots[keps_cache_slot(&o->ix, e->c.node)] = (uint32_t)++o->ncache;
    return e;
}

static int dominated(const keps_lattice *L, const int *lo, const int *hi)
{
    for (size_t i = 0; i < L->q; i++)
        if (lo[i] > hi[i])
            return 0;
    return 1;
}

/* The cached node <= levels with the fewest classes (NULL: the bottom),
 * among those with histograms if hist. */
static const keps_node_classes *cache_source(search *o, const int *levels, uint64_t id, const int **flv, int hist)
{
    const keps_lattice *L = o->L;
    entry *best = NULL;
    for (size_t i = 0; i < L->q; i++)
        if (levels[i] > 0) {
            entry *e = cache_get(o, id - L->stride[i]);
            if (e && (!best || e->c.n < best->c.n) && !(hist && e->c.no_hist))
                best = e;
        }
    if (!best || best->c.n > STAGE_MIN)
        for (size_t i = 0; i < o->ncache; i++) {
            entry *e = &o->cache[i];
            if ((!best || e->c.n < best->c.n) && e->c.node != id && !(hist && e->c.no_hist) &&
                dominated(L, e->levels, levels))
                best = e;
        }
    if (!best || best->c.n >= L->bottom.n) {
        *flv = o->zero;
        return &L->bottom;
    }
    best->used = ++o->clock;
    *flv = best->levels;
    return &best->c;
}

static const keps_node_classes *classes_of(search *o, const int *levels, int hist, int *small);

/* A large source is first rolled up along the one coordinate whose
 * generalization merges the most values; the intermediate node is cached
 * and shared by every later node above it (as OLA did). */
static const keps_node_classes *source_for(search *o, const int *levels, uint64_t id, int hist)
{
    const keps_lattice *L = o->L;
    for (;;) {
        const int *flv;
        const keps_node_classes *src = cache_source(o, levels, id, &flv, hist);
        if (src->n <= STAGE_MIN)
            return src;
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
            return src;
        int *mid = malloc(L->q * sizeof *mid);
        if (!mid) {
            o->oom = 1;
            return NULL;
        }
        memcpy(mid, flv, L->q * sizeof *mid);
        mid[d] = levels[d];
        size_t from_n = src->n;
        const keps_node_classes *m = classes_of(o, mid, hist, NULL);
        free(mid);
        if (!m)
            return NULL;
        /* generalizing that coordinate merged nothing: roll up from it */
        if (m->n >= from_n)
            return m;
    }
}

/* Rows in classes below the minimal size. */
static size_t small_rows(const search *o, const keps_node_classes *c)
{
    size_t r = 0;
    for (size_t x = 0; x < c->n; x++)
        r += c->count[x] < o->min_size ? c->count[x] : 0;
    return r;
}

/* The classes of node levels, from the cache or a roll-up (cached), with
 * the lattice's histograms if hist. With small (lazy_hist), the class
 * sizes are rolled up first, and when more rows than the limit lie in
 * classes below the minimal size (the node fails whatever the other
 * criteria say) the histograms are not added and *small = 1. Valid until
 * the next call. */
static const keps_node_classes *classes_of(search *o, const int *levels, int hist, int *small)
{
    const keps_lattice *L = o->L;
    uint64_t id = keps_lattice_id(L, levels);
    hist = hist && L->nhist;
    if (small)
        *small = 0;
    entry *e = cache_get(o, id);
    if (e && !(hist && e->c.no_hist)) {
        e->used = ++o->clock;
        return &e->c;
    }
    if (e && small && small_rows(o, &e->c) > o->limit) {
        *small = 1;
        return &e->c;
    }
    if (e) /* cached without histograms: roll it up again with them */
        cache_remove(o, (size_t)(e - o->cache));
    const keps_node_classes *src = source_for(o, levels, id, hist);
    if (!src)
        return NULL;
    keps_node_classes c;
    pool_get(o, &c, src->n);
    keps_status st;
    if (hist && small) {
        if (o->nassign < src->n + 1) {
            uint32_t *a = realloc(o->assign, (src->n + 1) * sizeof *a);
            if (!a) {
                keps_node_classes_free(&c);
                o->oom = 1;
                return NULL;
            }
            o->assign = a;
            o->nassign = src->n + 1;
        }
        st = keps_lattice_rollup_keys(L, o->w, src, levels, &c, o->assign);
        if (!st && small_rows(o, &c) > o->limit)
            *small = 1;
        else if (!st)
            st = keps_lattice_rollup_hist(L, o->w, src, &c, o->assign);
    } else {
        st = (hist ? keps_lattice_rollup : keps_lattice_rollup_keys)(L, o->w, src, levels, &c, NULL);
    }
    if (st) {
        keps_node_classes_free(&c);
        o->oom = 1;
        return NULL;
    }
    if (!(o->tag[id] & T_EVAL)) {
        o->tag[id] |= T_EVAL;
        o->evaluated++;
    }
    e = cache_put(o, levels, &c);
    if (!e) {
        keps_node_classes_free(&c);
        o->oom = 1;
        return NULL;
    }
    return &e->c;
}

/* ---- tagging ------------------------------------------------------------------ */

typedef struct {
    search *o;
    uint8_t bit;
} claim_ctx;

static inline int claim(void *ctx, uint64_t y)
{
    claim_ctx *c = ctx;
    if (c->o->tag[y] & c->bit)
        return 0;
    c->o->tag[y] |= c->bit;
    return 1;
}

/* Tags id and every node above (up) or below it; a node already tagged has
 * its cone tagged, so the walk stops there. */
static void tag_cone(search *o, uint64_t id, int up, uint8_t bit)
{
    claim_ctx c = {o, bit};
    int oom;
    if (!claim(&c, id))
        return;
    keps_cone_walk(o->L, &o->stack, id, up, claim, &c, &oom);
    if (oom)
        o->oom = 1;
}

/* ---- evaluating a node -------------------------------------------------------- */

static int have_sup(search *o, size_t n)
{
    if (n <= o->capsup)
        return 0;
    uint8_t *s = realloc(o->sup, n);
    if (!s)
        return -1;
    o->sup = s;
    o->capsup = n;
    return 0;
}

/* Classes whose every QI is '*' at the node (for the sample-based step). */
static uint8_t *full_generalized(const keps_lattice *L, uint32_t *const *star, const int *levels,
                                 const keps_node_classes *c)
{
    uint8_t *f = malloc(c->n + 1);
    if (!f)
        return NULL;
    for (size_t x = 0; x < c->n; x++) {
        const uint32_t *rep = keps_node_classes_rep(L, c, x);
        int all = 1;
        for (size_t i = 0; i < L->q && all; i++)
            all = star[i][levels[i]] != KEPS_NONE && L->map[i][levels[i]][rep[i]] == star[i][levels[i]];
        f[x] = (uint8_t)all;
    }
    return f;
}

static uint32_t **star_codes(const keps_lattice *L)
{
    uint32_t **s = calloc(L->q ? L->q : 1, sizeof *s);
    if (!s)
        return NULL;
    for (size_t i = 0; i < L->q; i++) {
        s[i] = malloc(((size_t)L->height[i] + 1) * sizeof **s);
        if (!s[i]) {
            for (size_t j = 0; j < i; j++)
                free(s[j]);
            free(s);
            return NULL;
        }
        const keps_hierarchy *h = L->s->qi[i].h;
        for (int l = 0; l <= L->height[i]; l++)
            s[i][l] = keps_table_lookup(h->levels, (size_t)l, "*", 1);
    }
    return s;
}

static void star_free(const keps_lattice *L, uint32_t **s)
{
    for (size_t i = 0; s && i < L->q; i++)
        free(s[i]);
    free(s);
}

/* The criteria's flags at a node; the sample-based step orders equal-size
 * classes by the metric's class key (m, metric), as ARX does. */
static keps_status flags_of(const keps_lattice *L, const keps_criteria *crit, uint32_t *const *star,
                            const keps_metrics *m, keps_metric metric, const int *levels, const keps_node_classes *c,
                            int mono_only, int with_supp, uint8_t *sup, keps_enforce_stats *st)
{
    keps_class_set cs = {.n = c->n, .count = c->count, .pcount = c->pcount, .hist = c->hist, .first = c->bot};
    uint8_t *fg = NULL;
    double *tie = NULL;
    if (!mono_only && keps_criteria_has_sample_based(crit)) {
        fg = full_generalized(L, star, levels, c);
        size_t dim = keps_metrics_class_key_dim(m, metric);
        tie = malloc((c->n + 1) * dim * sizeof *tie);
        if (!fg || !tie) {
            free(fg);
            free(tie);
            return KEPS_ENOMEM;
        }
        for (size_t x = 0; x < c->n; x++)
            keps_metrics_class_key(m, metric, levels, keps_node_classes_rep(L, c, x), c->count[x], tie + x * dim);
        cs.full_gen = fg;
        cs.tie = tie;
        cs.tie_dim = dim;
    }
    keps_status rc = keps_criteria_enforce(crit, &cs, mono_only, with_supp, sup, st);
    free(fg);
    free(tie);
    return rc;
}

/* Keeps v[dim] in the store (dim > 1); its index, or (size_t)-1 on OOM. */
static size_t store_vec(search *o, const double *v)
{
    if (o->dim == 1)
        return 0;
    if (o->nstore + o->dim > o->capstore) {
        size_t cap = o->capstore ? 2 * o->capstore : 64 * o->dim;
        double *p = realloc(o->store, cap * sizeof *p);
        if (!p) {
            o->oom = 1;
            return (size_t)-1;
        }
        o->store = p;
        o->capstore = cap;
    }
    memcpy(o->store + o->nstore, v, o->dim * sizeof *v);
    o->nstore += o->dim;
    return o->nstore - o->dim;
}

static const double *vec_of(const search *o, const double *first, size_t vec)
{
    return o->dim == 1 ? first : o->store + vec;
}

static int cmp_best(const search *o, const double *v)
{
    return keps_score_cmp(v, o->best, o->dim);
}

static void note_best(search *o, const double *score, uint64_t id);

/* Evaluates node levels: the monotone criteria's verdict (tags), then, if
 * it passes and full, every criterion and the score. Returns the node's
 * monotone verdict (1 pass, 0 fail), -1 on out of memory. */
static int evaluate(search *o, const int *levels, int full)
{
    const keps_lattice *L = o->L;
    uint64_t id = keps_lattice_id(L, levels);
    int small = 0;
    const keps_node_classes *cc = classes_of(o, levels, 1, o->lazy_hist ? &small : NULL);
    if (cc && small) { /* fails on class sizes alone */
        o->fails++;
        tag_cone(o, id, 0, T_NOT);
        o->tag[id] |= T_DONE;
        return 0;
    }
    if (!cc || have_sup(o, cc->n + 1))
        return o->oom = 1, -1;
    keps_node_classes *c = (keps_node_classes *)cc;
    keps_enforce_stats st;
    /* every criterion monotone (the sample-based ones too): the verdict is
     * the node's own, from every criterion */
    if (flags_of(L, o->crit, o->star, o->m, o->metric, levels, c, !o->full_mono, o->with_supp, o->sup, &st))
        return o->oom = 1, -1;
    if (o->full_mono)
        st.below = st.rows;
    int pass = !st.blocked && st.below <= o->limit; /* below >= rows: this node's too */
    if (!pass) {
        o->fails++;
        tag_cone(o, id, 0, T_NOT);
        o->tag[id] |= T_DONE;
        return 0;
    }
    tag_cone(o, id, 1, T_OK);
    if (!full)
        return 1;
    o->tag[id] |= T_DONE;
    if (!o->full_mono && flags_of(L, o->crit, o->star, o->m, o->metric, levels, c, 0, o->with_supp, o->sup, &st))
        return o->oom = 1, -1;
    if (st.blocked || st.rows > o->limit) {
        o->falsepass++;
        return 1;
    }
    o->scored++;
    /* score with these flags; the class set is cached, the flags are this
     * call's. The class bound may assume that the nodes above suppress no
     * more rows only when every criterion is monotone (k = 1 reads the
     * flags; k = 0: only the limit bounds their suppression). */
    uint8_t *keep = c->sup;
    c->sup = o->sup;
    keps_metrics_objective(o->m, levels, c, 1, o->sc);
    keps_metrics_objective_bound(o->m, levels, c, o->full_mono ? 1 : 0, o->limit, o->cb);
    c->sup = keep;
    note_best(o, o->sc, id);
    keps_metrics_objective_bound(o->m, levels, NULL, 0, o->limit, o->fb);
    if (cmp_best(o, o->cb) >= 0)
        tag_cone(o, id, 1, T_PRUNE);
    else if (keps_score_cmp(o->cb, o->fb, o->dim) > 0) {
        if (o->npend == o->cappend) {
            size_t cap = o->cappend ? 2 * o->cappend : 64;
            pending *p = realloc(o->pend, cap * sizeof *p);
            if (!p)
                return o->oom = 1, -1;
            o->pend = p;
            o->cappend = cap;
        }
        size_t v = store_vec(o, o->cb);
        if (o->oom)
            return -1;
        o->pend[o->npend++] = (pending){o->cb[0], id, v};
    }
    return 1;
}

/* A better score: the nodes whose class bound it now reaches prune their
 * cones. Ties go to the lower id, so the answer does not depend on the
 * order nodes were scored in. */
static void note_best(search *o, const double *score, uint64_t id)
{
    int c = cmp_best(o, score);
    if (!(c < 0 || (c == 0 && id < o->best_id)))
        return;
    memcpy(o->best, score, o->dim * sizeof *score);
    o->best_id = id;
    if (c == 0)
        return;
    size_t k = 0;
    for (size_t i = 0; i < o->npend; i++) {
        if (cmp_best(o, vec_of(o, &o->pend[i].cb, o->pend[i].vec)) >= 0)
            tag_cone(o, o->pend[i].id, 1, T_PRUNE);
        else
            o->pend[k++] = o->pend[i];
    }
    o->npend = k;
}

/* ---- the search -------------------------------------------------------------- */

/* The class-free lower bound of node id into o->fb. */
static void lower_bound(search *o, uint64_t id)
{
    keps_lattice_levels(o->L, id, o->lv2);
    keps_metrics_objective_bound(o->m, o->lv2, NULL, 0, o->limit, o->fb);
}

static int heap_less(const search *o, const heap_item *a, const heap_item *b)
{
    int c = o->dim == 1 ? (a->lb > b->lb) - (a->lb < b->lb)
                        : keps_score_cmp(o->store + a->vec, o->store + b->vec, o->dim);
    return c < 0 || (c == 0 && a->id < b->id);
}

static int heap_push(search *o, uint64_t id)
{
    if (o->nheap == o->capheap) {
        size_t cap = o->capheap ? 2 * o->capheap : 1024;
        heap_item *h = realloc(o->heap, cap * sizeof *h);
        if (!h)
            return o->oom = 1, -1;
        o->heap = h;
        o->capheap = cap;
    }
    lower_bound(o, id);
    heap_item it = {o->fb[0], id, store_vec(o, o->fb)};
    if (o->oom)
        return -1;
    size_t i = o->nheap++;
    while (i > 0 && heap_less(o, &it, &o->heap[(i - 1) / 2])) {
        o->heap[i] = o->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    o->heap[i] = it;
    o->tag[id] |= T_PUSHED;
    return 0;
}

static heap_item heap_pop(search *o)
{
    heap_item top = o->heap[0], last = o->heap[--o->nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const heap_item *mv = &last;
        if (l < o->nheap && heap_less(o, &o->heap[l], mv))
            m = l, mv = &o->heap[l];
        if (r < o->nheap && heap_less(o, &o->heap[r], mv))
            m = r;
        if (m == i)
            break;
        o->heap[i] = o->heap[m];
        i = m;
    }
    if (o->nheap)
        o->heap[i] = last;
    return top;
}

/* Status of chain node id under the monotone criteria: from the tags, or
 * by evaluating it (fully when it could still win). */
static int mono_status(search *o, uint64_t id)
{
    if (o->tag[id] & T_NOT)
        return 0;
    if (o->tag[id] & T_OK)
        return 1;
    keps_lattice_levels(o->L, id, o->lv);
    keps_metrics_objective_bound(o->m, o->lv, NULL, 0, o->limit, o->fb);
    int full = cmp_best(o, o->fb) < 0 && !(o->tag[id] & T_PRUNE);
    return evaluate(o, o->lv, full);
}

/* Before settling node id whose monotone status is unknown: from it to the
 * top, each step raising the coordinate with the most levels left (the
 * chain runs up the middle of the lattice, where one failing node covers
 * the most nodes below it; tried on Adult against steps of least bound
 * increase: 10-25% fewer nodes evaluated), and a
 * binary search for the highest node on that chain failing the monotone
 * criteria (the top passes them). */
static int climb(search *o, uint64_t id)
{
    const keps_lattice *L = o->L;
    size_t len = 0;
    uint64_t x = id;
    o->chain[len++] = x;
    keps_lattice_levels(L, x, o->lv);
    for (;;) {
        size_t best = L->q;
        for (size_t i = 0; i < L->q; i++)
            if (o->lv[i] < L->height[i] &&
                (best == L->q || L->height[i] - o->lv[i] > L->height[best] - o->lv[best]))
                best = i;
        if (best == L->q)
            break;
        o->lv[best]++;
        x += L->stride[best];
        o->chain[len++] = x;
    }
    size_t lo = 0, hi = len - 1;
    while (lo < hi && !o->oom) {
        size_t mid = lo + (hi - lo) / 2;
        int s = mono_status(o, o->chain[mid]);
        if (s < 0)
            return -1;
        if (s)
            hi = mid;
        else
            lo = mid + 1;
    }
    return o->oom ? -1 : 0;
}

static int settle(search *o, uint64_t id)
{
    o->climbs += !(o->tag[id] & (T_NOT | T_OK));
    if (!(o->tag[id] & (T_NOT | T_OK)) && climb(o, id))
        return -1;
    if (o->tag[id] & (T_NOT | T_DONE | T_PRUNE))
        return 0;
    keps_lattice_levels(o->L, id, o->lv);
    return evaluate(o, o->lv, 1) < 0 ? -1 : 0;
}

static void search_free(search *o)
{
    for (size_t i = 0; o->cache && i < o->ncache; i++) {
        keps_node_classes_free(&o->cache[i].c);
        free(o->cache[i].levels);
    }
    keps_class_pool_free(&o->pool);
    free(o->cache);
    free(o->ix.slots);
    free(o->tag);
    keps_lattice_work_free(o->w);
    keps_metrics_free(o->m);
    free(o->best);
    free(o->store);
    free(o->sc);
    free(o->cb);
    free(o->fb);
    free(o->zero);
    free(o->lv);
    free(o->lv2);
    star_free(o->L, o->star);
    free(o->heap);
    free(o->stack.id);
    free(o->chain);
    free(o->pend);
    free(o->sup);
    free(o->assign);
}

void keps_search_result_free(keps_search_result *r)
{
    free(r->levels);
    free(r->score);
    free(r->attributes);
    memset(r, 0, sizeof *r);
}

static keps_status check_lattice(const keps_lattice *L, const keps_criteria *crit, keps_error *err)
{
    if (keps_criteria_need_histograms(crit) && L->nhist != keps_criteria_nsens(crit))
        return keps_error_set(err, KEPS_EINPUT,
                              "the lattice carries no histograms of the sensitive columns the criteria read: build "
                              "it with keps_lattice_new_ex");
    for (size_t j = 0; j < L->nhist && j < keps_criteria_nsens(crit); j++)
        if (L->hist_m[j] != keps_criteria_nvalues(crit, j))
            return keps_error_set(err, KEPS_EINPUT, "the lattice's histogram %zu does not match the criteria", j + 1);
    if (keps_criteria_need_pcount(crit) != L->has_pcount || keps_criteria_released(crit) != L->nreleased)
        return keps_error_set(err, KEPS_EINPUT,
                              "the lattice and the criteria disagree on the research subset: build the lattice "
                              "with the same one");
    return KEPS_OK;
}

keps_status keps_search_run(const keps_lattice *L, const keps_search_params *p, keps_search_result *res,
                            keps_error *err)
{
    memset(res, 0, sizeof *res);
    if (!p->crit)
        return keps_error_set(err, KEPS_EINPUT, "no privacy criterion given");
    if (!(p->suppress >= 0 && p->suppress <= 1))
        return keps_error_set(err, KEPS_EINPUT, "the suppression limit must be a fraction in [0, 1]");
    if ((unsigned)p->metric >= KEPS_METRIC_COUNT)
        return keps_error_set(err, KEPS_EINPUT, "unknown metric");
    keps_status st = check_lattice(L, p->crit, err);
    if (st)
        return st;
    search o;
    memset(&o, 0, sizeof o);
    uint64_t popped = 0;
    o.L = L;
    o.crit = p->crit;
    /* floor(s*N); the epsilon keeps e.g. 0.05*30162 = 1508.1 at 1508 and
     * 0.1*30 = 3.0000000000000004 at 3 */
    o.limit = (size_t)floor(p->suppress * (double)L->nreleased + 1e-9);
    o.with_supp = o.limit > 0;
    o.full_mono = keps_criteria_monotone(p->crit, o.with_supp);
    o.min_size = keps_criteria_min_class_size(p->crit);
    o.lazy_hist = L->nhist > 0 && o.min_size > 1;
    o.best_id = UINT64_MAX;
    size_t maxlen = 1;
    for (size_t i = 0; i < L->q; i++)
        maxlen += (size_t)L->height[i];
    o.tag = calloc((size_t)L->nnodes, 1);
    o.w = keps_lattice_work_new(L);
    keps_metric_config dcfg = keps_metric_config_default(p->metric);
    o.m = keps_metrics_new_objective(L, p->objective ? p->objective : &dcfg, err);
    if (!o.m && err && err->code == KEPS_EINPUT) {
        search_free(&o);
        return KEPS_EINPUT;
    }
    o.metric = p->objective ? p->objective->metric : p->metric;
    o.dim = o.m ? keps_metrics_score_len(o.m) : 1;
    o.best = malloc(o.dim * sizeof *o.best);
    o.sc = malloc(o.dim * sizeof *o.sc);
    o.cb = malloc(o.dim * sizeof *o.cb);
    o.fb = malloc(o.dim * sizeof *o.fb);
    for (size_t i = 0; o.best && i < o.dim; i++)
        o.best[i] = INFINITY;
    o.zero = calloc(L->q + 1, sizeof *o.zero);
    o.lv = calloc(L->q + 1, sizeof *o.lv);
    o.lv2 = calloc(L->q + 1, sizeof *o.lv2);
    o.cache = calloc(CACHE_MAX, sizeof *o.cache);
    o.ix = (keps_cache_index){calloc(KEPS_CACHE_SLOTS, sizeof *o.ix.slots), (const char *)o.cache, sizeof *o.cache,
                              offsetof(entry, c)};
    o.chain = malloc(maxlen * sizeof *o.chain);
    o.star = keps_criteria_has_sample_based(p->crit) ? star_codes(L) : NULL;
    res->levels = calloc(L->q + 1, sizeof *res->levels);
    res->nodes_total = L->nnodes;
    res->suppress_limit = o.limit;
    st = KEPS_ENOMEM;
    if (!o.tag || !o.w || !o.m || !o.best || !o.sc || !o.cb || !o.fb || !o.zero || !o.lv || !o.lv2 || !o.cache || !o.ix.slots || !o.chain ||
        !res->levels || (keps_criteria_has_sample_based(p->crit) && !o.star))
        goto done;

    /* the top node: the lowest workable suppression, and if it fails the
     * monotone criteria nothing passes */
    int *tl = calloc(L->q + 1, sizeof *tl);
    if (!tl)
        goto done;
    for (size_t i = 0; i < L->q; i++)
        tl[i] = L->height[i];
    const keps_node_classes *tc = classes_of(&o, tl, 1, NULL);
    keps_enforce_stats ts = {0};
    if (!tc || have_sup(&o, tc->n + 1) || flags_of(L, p->crit, o.star, o.m, o.metric, tl, tc, 0, o.with_supp, o.sup, &ts)) {
        free(tl);
        goto done;
    }
    res->top_suppressed = ts.rows;
    res->top_blocked = ts.blocked;
    int top_mono = evaluate(&o, tl, 0);
    free(tl);
    if (top_mono < 0)
        goto done;
    if (top_mono == 0) {
        st = KEPS_OK;
        goto finish;
    }

    if (heap_push(&o, 0))
        goto done;
    while (o.nheap && !o.oom) {
        heap_item it = heap_pop(&o);
        int cb = cmp_best(&o, vec_of(&o, &it.lb, it.vec));
        if (!(cb < 0 || (cb == 0 && it.id < o.best_id)))
            break;
        if ((++popped & 255) == 0 && keps_progress("lattice search", (double)popped, (double)L->nnodes)) {
            st = KEPS_ECANCEL; /* the caller's progress hook cancelled */
            goto done;
        }
        uint64_t id = it.id;
        if (!(o.tag[id] & T_PRUNE)) {
            uint64_t rest = id;
            for (size_t i = 0; i < L->q; i++) {
                int l = (int)(rest % (uint64_t)(L->height[i] + 1));
                rest /= (uint64_t)(L->height[i] + 1);
                if (l < L->height[i] && !(o.tag[id + L->stride[i]] & T_PUSHED) && heap_push(&o, id + L->stride[i]))
                    goto done;
            }
            if (settle(&o, id))
                goto done;
        }
    }
    if (o.oom)
        goto done;
    st = KEPS_OK;
finish:
    res->nodes_evaluated = o.evaluated;
    res->stats = (keps_search_stats){popped, o.climbs, o.scored, o.fails, o.falsepass};

    if (o.best_id != UINT64_MAX) {
        res->found = 1;
        res->node = o.best_id;
        res->score = o.best;
        res->score_len = o.dim;
        o.best = NULL;
        keps_lattice_levels(L, o.best_id, res->levels);
        const keps_node_classes *bc = classes_of(&o, res->levels, 1, NULL);
        keps_enforce_stats bs;
        if (!bc || have_sup(&o, bc->n + 1) ||
            flags_of(L, p->crit, o.star, o.m, o.metric, res->levels, bc, 0, o.with_supp, o.sup, &bs)) {
            st = KEPS_ENOMEM;
            goto done;
        }
        keps_node_classes *c = (keps_node_classes *)bc;
        uint8_t *keep = c->sup;
        c->sup = o.sup;
        keps_metrics_all(o.m, res->levels, c, 0, &res->metrics);
        if ((res->attributes = malloc((L->q + 1) * sizeof *res->attributes)) &&
            keps_metrics_attributes(o.m, res->levels, c, 1, res->attributes)) {
            free(res->attributes);
            res->attributes = NULL;
        }
        c->sup = keep;
        res->suppressed = bs.rows;
        for (size_t x = 0; x < bc->n; x++)
            res->nclasses += bc->count[x] > 0 && !o.sup[x];
        res->nodes_evaluated = o.evaluated;
    }
done:
    search_free(&o);
    if (st == KEPS_ENOMEM || st == KEPS_ECANCEL) {
        keps_search_result_free(res);
        return keps_error_set(err, st, st == KEPS_ECANCEL ? "cancelled" : "out of memory in the lattice search");
    }
    return st;
}
