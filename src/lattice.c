/* keps: generalization lattice, node evaluation by roll-up, full scan.
 * See include/keps/lattice.h for the model. */
#include "keps/lattice.h"
#include "keps/progress.h"
#include "partition_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- classes ---------------------------------------------------------- */

void keps_node_classes_init(keps_node_classes *c)
{
    memset(c, 0, sizeof *c);
}

void keps_node_classes_free(keps_node_classes *c)
{
    free(c->count);
    free(c->rep);
    free(c->bot);
    free(c->key);
    free(c->pcount);
    free(c->sup);
    for (size_t j = 0; c->hist && j < c->nhist; j++) {
        free(c->hist[j].off);
        free(c->hist[j].val);
        free(c->hist[j].cnt);
    }
    free(c->hist);
    keps_node_classes_init(c);
}

static int grow_u32(uint32_t **p, size_t n)
{
    uint32_t *q = realloc(*p, (n ? n : 1) * sizeof *q);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Room for n classes; representatives' codes only for the bottom; the
 * lattice's population counts and histogram offsets too (histogram entries
 * are sized by hist_reserve). Flags are dropped: they belong to the classes
 * a caller flagged, not to the next ones. */
static int classes_reserve_L(const keps_lattice *L, keps_node_classes *c, size_t q, size_t n, int with_rep)
{
    c->q = q;
    free(c->sup);
    c->sup = NULL;
    size_t nh = L ? L->nhist : 0;
    if (nh && !c->hist) {
        c->hist = calloc(nh, sizeof *c->hist);
        if (!c->hist)
            return -1;
        c->nhist = nh;
    }
    if (n <= c->cap && c->count && (!L || !L->has_pcount || c->pcount) && (!nh || c->hist[0].off))
        return 0;
    size_t cap = c->cap ? c->cap : 64;
    while (cap < n)
        cap *= 2;
    if (grow_u32(&c->count, cap) || grow_u32(&c->bot, cap))
        return -1;
    if (with_rep) {
        uint32_t *rep = realloc(c->rep, cap * (q ? q : 1) * sizeof *rep);
        if (!rep)
            return -1;
        c->rep = rep;
    }
    uint64_t *key = realloc(c->key, cap * sizeof *key);
    if (!key)
        return -1;
    c->key = key;
    if (L && L->has_pcount && grow_u32(&c->pcount, cap))
        return -1;
    for (size_t j = 0; j < nh; j++)
        if (grow_u32(&c->hist[j].off, cap + 1))
            return -1;
    c->cap = cap;
    return 0;
}

/* Room for e entries in histogram h. */
static int hist_reserve(keps_class_hist *h, size_t e)
{
    if (e <= h->cap && h->val)
        return 0;
    size_t cap = h->cap ? h->cap : 64;
    while (cap < e)
        cap *= 2;
    if (grow_u32(&h->val, cap) || grow_u32(&h->cnt, cap))
        return -1;
    h->cap = cap;
    return 0;
}

size_t keps_node_classes_suppressed(const keps_node_classes *c, size_t k, size_t *small)
{
    size_t s = 0, m = 0;
    if (c->sup) {
        for (size_t i = 0; i < c->n; i++) {
            size_t is = c->sup[i] != 0;
            s += is * c->count[i];
            m += is;
        }
    } else {
        for (size_t i = 0; i < c->n; i++) { /* branch-free: small and large classes interleave */
            size_t is = c->count[i] < k;
            s += is * c->count[i];
            m += is;
        }
    }
    if (small)
        *small = m;
    return s;
}

/* ---- hash grouping ------------------------------------------------------
 * Open addressing on 64-bit keys. A slot holds only the index + 1 of its
 * class (0 = empty); the key is read from the class set being built. Four
 * bytes a slot keep the table and the classes in L2 for most nodes, which
 * matters more than the extra load (the table is cleared per roll-up, a
 * sequential write of the prefix in use). In packed mode the key is the
 * exact generalized tuple as a mixed-radix number with fixed multipliers
 * M_i = prod_{j<i} card_j(level 0) (codes at any level are below the
 * level-0 cardinality, so keys stay injective and a roll-up only adjusts the
 * coordinates that change). Otherwise the key is a hash and matches are
 * confirmed by comparing generalized tuples. */

typedef uint32_t slot;

struct keps_lattice_work {
    uint32_t *assign;    /* [alloc_assign] roll-up assignment when the caller has none */
    size_t alloc_assign;
    uint32_t *order, *start; /* histogram merge: entries by target, and the targets' stretches */
    size_t alloc_order, alloc_start;
    uint32_t *dense;         /* histogram merge of few values: [targets][m] counts, zero between */
    size_t alloc_dense;
    uint32_t **scratch;  /* [nhist][m] value counts of one target, zero between */
    uint32_t *touched;   /* values seen in one target */
    uint64_t *seen;      /* [values / 64] the same as a bitmap, zero between */
    size_t alloc_touched;
    size_t nhist;
    slot *tab;
    size_t alloc;  /* slots allocated */
    size_t nslots; /* slots in use (a prefix, power of two): a small roll-up
                      after a large one keeps its keys in cache */
    int bits;
    double ratio;        /* output/source classes of the last roll-up */
    const uint32_t **m;  /* [q] map at the target node's levels */
    const uint32_t **m0; /* [q] map at the source node's levels */
    size_t *diff;        /* coordinates where source and target differ */
    int *from_lv;        /* [q] */
    size_t q;
};

keps_lattice_work *keps_lattice_work_new(const keps_lattice *L)
{
    keps_lattice_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    size_t q = L->q ? L->q : 1;
    w->q = L->q;
    w->m = calloc(q, sizeof *w->m);
    w->m0 = calloc(q, sizeof *w->m0);
    w->diff = calloc(q, sizeof *w->diff);
    w->from_lv = calloc(q, sizeof *w->from_lv);
    if (!w->m || !w->m0 || !w->diff || !w->from_lv) {
        keps_lattice_work_free(w);
        return NULL;
    }
    if (L->nhist) {
        w->nhist = L->nhist;
        w->scratch = calloc(L->nhist, sizeof *w->scratch);
        size_t mm = 1;
        for (size_t j = 0; w->scratch && j < L->nhist; j++) {
            w->scratch[j] = calloc(L->hist_m[j] + 1, sizeof **w->scratch);
            if (!w->scratch[j]) {
                keps_lattice_work_free(w);
                return NULL;
            }
            if (L->hist_m[j] > mm)
                mm = L->hist_m[j];
        }
        w->touched = malloc((mm + 1) * sizeof *w->touched);
        w->alloc_touched = mm + 1;
        w->seen = calloc(mm / 64 + 2, sizeof *w->seen);
        if (!w->scratch || !w->touched || !w->seen) {
            keps_lattice_work_free(w);
            return NULL;
        }
    }
    return w;
}

void keps_lattice_work_free(keps_lattice_work *w)
{
    if (!w)
        return;
    free(w->tab);
    free(w->m);
    free(w->m0);
    free(w->diff);
    free(w->from_lv);
    free(w->assign);
    free(w->order);
    free(w->start);
    free(w->dense);
    for (size_t j = 0; w->scratch && j < w->nhist; j++)
        free(w->scratch[j]);
    free(w->scratch);
    free(w->touched);
    free(w->seen);
    free(w);
}

static int work_alloc(keps_lattice_work *w, size_t nslots)
{
    slot *tab = calloc(nslots, sizeof *tab);
    if (!tab)
        return -1;
    free(w->tab);
    w->tab = tab;
    w->alloc = nslots;
    return 0;
}

/* Uses nslots (power of two, 2^bits) slots, all free. */
static int work_use(keps_lattice_work *w, size_t nslots, int bits)
{
    if (nslots > w->alloc) {
        if (work_alloc(w, nslots))
            return -1;
    } else {
        memset(w->tab, 0, nslots * sizeof *w->tab);
    }
    w->nslots = nslots;
    w->bits = bits;
    return 0;
}

/* Makes room for n keys at load <= 1/4 (short probe runs: every probe
 * of an occupied slot reads a key from the class set) and empties it. */
static int work_prepare(keps_lattice_work *w, size_t n)
{
    size_t need = 16;
    int bits = 4;
    while (need < 4 * n) {
        need *= 2;
        bits++;
    }
    return work_use(w, need, bits);
}

static inline size_t slot_of(const keps_lattice_work *w, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - w->bits));
}

static inline uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Sets the target node's maps. */
static void work_node(const keps_lattice *L, keps_lattice_work *w, const int *levels)
{
    for (size_t i = 0; i < L->q; i++)
        w->m[i] = L->map[i][levels[i]];
}

/* Generalized key of representative codes rep[0..q) at the target node. */
static inline uint64_t key_of(const keps_lattice *L, const keps_lattice_work *w, const uint32_t *rep)
{
    uint64_t k = 0;
    if (L->packed) {
        for (size_t i = 0; i < L->q; i++)
            k += (uint64_t)w->m[i][rep[i]] * L->mult[i];
    } else {
        for (size_t i = 0; i < L->q; i++)
            k = mix64(k, w->m[i][rep[i]]);
    }
    return k;
}

static inline int same_tuple(const keps_lattice *L, const keps_lattice_work *w, const uint32_t *a,
                             const uint32_t *b)
{
    for (size_t i = 0; i < L->q; i++)
        if (w->m[i][a[i]] != w->m[i][b[i]])
            return 0;
    return 1;
}

/* Finds or adds the class holding bottom class b (key at the target
 * node); returns its index. */
static inline uint32_t group_find(const keps_lattice *L, keps_lattice_work *w, keps_node_classes *out,
                                  uint64_t key, uint32_t b, uint32_t cnt)
{
    size_t mask = w->nslots - 1;
    for (size_t s = slot_of(w, key);; s = (s + 1) & mask) {
        slot *e = &w->tab[s];
        if (!*e) {
            uint32_t c = (uint32_t)out->n++;
            *e = c + 1;
            out->count[c] = cnt;
            out->key[c] = key;
            out->bot[c] = b;
            return c;
        }
        uint32_t i = *e - 1;
        if (out->key[i] == key &&
            (L->packed || same_tuple(L, w, L->bottom.rep + (size_t)out->bot[i] * L->q,
                                     L->bottom.rep + (size_t)b * L->q))) {
            out->count[i] += cnt;
            return i;
        }
    }
}

static int work_grow(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *c);

/* The roll-ups OLA's search and the scans do thousands of times: packed
 * keys, ND (1 or 2) QIs d[] change (their codes map through m0[] at the
 * source's level, m1[] at the target's). Everything the loop reads lives in
 * locals marked restrict: through the general path's struct fields the
 * compiler reloaded the maps, the table size and the class count for every
 * class (aliasing), about twice the instructions. Always inlined into one
 * function per ND, so that the second QI's terms vanish when ND is 1. */
static inline __attribute__((always_inline)) keps_status
rollup_few(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from, const int ND, const size_t *d,
           const uint32_t *const *m0d, const uint32_t *const *m1d, keps_node_classes *out, uint32_t *assign)
{
    const uint32_t *restrict col = L->repcol + d[0] * L->bottom.n;
    const uint32_t *restrict m0 = m0d[0], *restrict m1 = m1d[0];
    const uint64_t mult = L->mult[d[0]];
    const uint32_t *restrict col2 = ND > 1 ? L->repcol + d[1] * L->bottom.n : NULL;
    const uint32_t *restrict m0b = ND > 1 ? m0d[1] : NULL, *restrict m1b = ND > 1 ? m1d[1] : NULL;
    const uint64_t mult2 = ND > 1 ? L->mult[d[1]] : 0;
    const uint32_t *restrict fbot = from->bot, *restrict fcnt = from->count;
    const uint64_t *restrict fkey = from->key;
    uint32_t *restrict ocnt = out->count, *restrict obot = out->bot;
    uint64_t *restrict okey = out->key;
    const size_t nf = from->n;
    slot *restrict tab = w->tab;
    size_t mask = w->nslots - 1, room = w->nslots / 4;
    int shift = 64 - w->bits;
    uint32_t n = 0;
    enum { BLOCK = 32 };
    uint64_t keys[BLOCK];
    for (size_t c0 = 0; c0 < nf; c0 += BLOCK) {
        size_t nb = nf - c0 < BLOCK ? nf - c0 : BLOCK;
        for (size_t j = 0; j < nb; j++) {
            uint32_t b = fbot[c0 + j], code = col[b];
            uint64_t key = fkey[c0 + j] + ((uint64_t)m1[code] - (uint64_t)m0[code]) * mult;
            if (ND > 1) {
                uint32_t code2 = col2[b];
                key += ((uint64_t)m1b[code2] - (uint64_t)m0b[code2]) * mult2;
            }
            keys[j] = key;
            __builtin_prefetch(&tab[(size_t)((key * 0x9E3779B97F4A7C15ull) >> shift)]);
        }
        for (size_t j = 0; j < nb; j++) {
            if (n >= room) { /* keep the load at most 1/4 */
                out->n = n;
                if (work_grow(L, w, out))
                    return KEPS_ENOMEM;
                tab = w->tab;
                mask = w->nslots - 1;
                room = w->nslots / 4;
                shift = 64 - w->bits;
            }
            uint64_t key = keys[j];
            size_t s = (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
            uint32_t g;
            for (;; s = (s + 1) & mask) {
                uint32_t e = tab[s];
                if (!e) {
                    g = n++;
                    tab[s] = n;
                    ocnt[g] = fcnt[c0 + j];
                    okey[g] = key;
                    obot[g] = fbot[c0 + j];
                    break;
                }
                if (okey[e - 1] == key) {
                    g = e - 1;
                    ocnt[g] += fcnt[c0 + j];
                    break;
                }
            }
            if (assign)
                assign[c0 + j] = g;
        }
    }
    out->n = n;
    return KEPS_OK;
}

static keps_status rollup_one(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                              const size_t *d, const uint32_t *const *m0d, const uint32_t *const *m1d,
                              keps_node_classes *out, uint32_t *assign)
{
    return rollup_few(L, w, from, 1, d, m0d, m1d, out, assign);
}

static keps_status rollup_two(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                              const size_t *d, const uint32_t *const *m0d, const uint32_t *const *m1d,
                              keps_node_classes *out, uint32_t *assign)
{
    return rollup_few(L, w, from, 2, d, m0d, m1d, out, assign);
}

/* Population counts and histograms of out from from's, assign[c] = the
 * class of out holding from's class c. Histograms: the sources are read in
 * order (their entries are contiguous, so the reads stream) and their
 * entries appended to their target's stretch of a buffer sized by a
 * counting pass; then each target's stretch is written out in increasing
 * value order, summed in a dense scratch array when several sources share
 * a value, so a node's histograms do not depend on the node it was rolled
 * up from. (Grouping the sources by target first read their entries in
 * random order: 2-3 times slower on Adult.) */
static keps_status merge_extras(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                keps_node_classes *out, const uint32_t *assign, int with_hist)
{
    size_t nf = from->n, no = out->n;
    if (from->pcount && out->pcount) {
        memset(out->pcount, 0, no * sizeof *out->pcount);
        for (size_t c = 0; c < nf; c++)
            out->pcount[assign[c]] += from->pcount[c];
    }
    if (!with_hist || !out->hist)
        return KEPS_OK;
    if (w->alloc_start < no + 1) {
        if (grow_u32(&w->start, no + 1))
            return KEPS_ENOMEM;
        w->alloc_start = no + 1;
    }
    uint32_t *pos = w->start;
    for (size_t j = 0; j < L->nhist; j++) {
        const keps_class_hist *fh = &from->hist[j];
        keps_class_hist *oh = &out->hist[j];
        size_t ne = fh->off[nf];
        if (hist_reserve(oh, ne + L->hist_m[j] + 1)) /* the dense path writes one past the end */
            return KEPS_ENOMEM;
        if (w->alloc_order < 2 * ne + 2) {
            if (grow_u32(&w->order, 2 * ne + 2))
                return KEPS_ENOMEM;
            w->alloc_order = 2 * ne + 2;
        }
        size_t m = L->hist_m[j];
        /* few values: sum in a dense table, streaming the sources (Adult,
         * 14 values: the merge takes a third less time than with the lists
         * below); the table stays under 64 MB */
        if (m <= 64 && no * m <= ((size_t)1 << 24)) {
            if (w->alloc_dense < no * m + 1) {
                uint32_t *d = realloc(w->dense, (no * m + 1) * sizeof *d);
                if (!d)
                    return KEPS_ENOMEM;
                memset(d + w->alloc_dense, 0, (no * m + 1 - w->alloc_dense) * sizeof *d);
                w->dense = d;
                w->alloc_dense = no * m + 1;
            }
            uint32_t *d = w->dense, e = 0;
            for (size_t c = 0; c < nf; c++) {
                uint32_t *row = d + (size_t)assign[c] * m;
                for (uint32_t i = fh->off[c]; i < fh->off[c + 1]; i++)
                    row[fh->val[i]] += fh->cnt[i];
            }
            for (size_t g = 0; g < no; g++) { /* back to increasing (value, count) lists; zero again */
                uint32_t *row = d + g * m;
                oh->off[g] = e;
                for (uint32_t v = 0; v < m; v++) { /* branch-free: which counts are 0 is unpredictable */
                    uint32_t x = row[v];
                    oh->val[e] = v;
                    oh->cnt[e] = x;
                    e += x != 0;
                    row[v] = 0;
                }
            }
            oh->off[no] = e;
            continue;
        }
        uint32_t *tval = w->order, *tcnt = w->order + ne + 1;
        /* stretches: pos[g] = start of target g, advanced as it fills */
        memset(pos, 0, (no + 1) * sizeof *pos);
        for (size_t c = 0; c < nf; c++)
            pos[assign[c] + 1] += fh->off[c + 1] - fh->off[c];
        for (size_t g = 0; g < no; g++)
            pos[g + 1] += pos[g];
        for (size_t c = 0; c < nf; c++) {
            uint32_t g = assign[c], a = fh->off[c], b = fh->off[c + 1], e = pos[g];
            for (uint32_t i = a; i < b; i++, e++) {
                tval[e] = fh->val[i];
                tcnt[e] = fh->cnt[i];
            }
            pos[g] = e;
        }
        /* pos[g] is now the end of g's stretch, the start of g + 1's */
        uint32_t *sc = w->scratch[j], *tv = w->touched, e = 0, lo = 0;
        for (size_t g = 0; g < no; g++) {
            uint32_t hi = pos[g], i = lo + 1;
            oh->off[g] = e;
            while (i < hi && tval[i] > tval[i - 1])
                i++;
            if (i >= hi) { /* increasing already (one source, or disjoint runs) */
                memcpy(oh->val + e, tval + lo, (hi - lo) * sizeof *oh->val);
                memcpy(oh->cnt + e, tcnt + lo, (hi - lo) * sizeof *oh->cnt);
                e += hi - lo;
                lo = hi;
                continue;
            }
            uint32_t nt = 0;
            for (uint32_t x = lo; x < hi; x++) {
                uint32_t v = tval[x];
                if (!sc[v])
                    tv[nt++] = v;
                sc[v] += tcnt[x];
            }
            if (nt > 32 && (size_t)nt * 16 > m / 64) { /* many values: in order from a bitmap */
                uint64_t *bits = w->seen;
                for (uint32_t x = 0; x < nt; x++)
                    bits[tv[x] >> 6] |= (uint64_t)1 << (tv[x] & 63);
                uint32_t k = 0;
                for (size_t wd = 0; k < nt; wd++)
                    for (uint64_t b = bits[wd]; b; b &= b - 1)
                        tv[k++] = (uint32_t)(wd * 64 + (size_t)__builtin_ctzll(b));
                for (uint32_t x = 0; x < nt; x++)
                    bits[tv[x] >> 6] = 0;
            } else {
                for (uint32_t x = 1; x < nt; x++) { /* few: insertion */
                    uint32_t v = tv[x], p = x;
                    while (p > 0 && tv[p - 1] > v) {
                        tv[p] = tv[p - 1];
                        p--;
                    }
                    tv[p] = v;
                }
            }
            for (uint32_t x = 0; x < nt; x++) {
                oh->val[e] = tv[x];
                oh->cnt[e++] = sc[tv[x]];
                sc[tv[x]] = 0;
            }
            lo = hi;
        }
        oh->off[no] = e;
    }
    return KEPS_OK;
}

static keps_status rollup_keys(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                               const int *levels, keps_node_classes *out, uint32_t *assign);

static keps_status rollup(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                          const int *levels, keps_node_classes *out, uint32_t *assign, int with_hist);

keps_status keps_lattice_rollup(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                const int *levels, keps_node_classes *out, uint32_t *assign)
{
    return rollup(L, w, from, levels, out, assign, 1);
}

keps_status keps_lattice_rollup_keys(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                     const int *levels, keps_node_classes *out, uint32_t *assign)
{
    return rollup(L, w, from, levels, out, assign, 0);
}

keps_status keps_lattice_rollup_hist(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                     keps_node_classes *out, const uint32_t *assign)
{
    if (!from)
        from = &L->bottom;
    if (!L->nhist || !from->hist || from->no_hist)
        return KEPS_OK;
    keps_status st = merge_extras(L, w, from, out, assign, 1);
    if (!st)
        out->no_hist = 0;
    return st;
}

static keps_status rollup(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                          const int *levels, keps_node_classes *out, uint32_t *assign, int with_hist)
{
    if (!from)
        from = &L->bottom;
    with_hist = with_hist && L->nhist && from->hist && !from->no_hist;
    int extras = (from->pcount && L->has_pcount) || with_hist;
    if (extras && !assign) {
        if (w->alloc_assign < from->n) {
            if (grow_u32(&w->assign, from->n))
                return KEPS_ENOMEM;
            w->alloc_assign = from->n;
        }
        assign = w->assign;
    }
    keps_status st = rollup_keys(L, w, from, levels, out, assign);
    if (!st && extras)
        st = merge_extras(L, w, from, out, assign, with_hist);
    out->no_hist = L->nhist && !with_hist;
    return st;
}

static keps_status rollup_keys(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                               const int *levels, keps_node_classes *out, uint32_t *assign)
{
    /* The table is sized from the last roll-up's merge ratio (successive
     * roll-ups are alike) rather than the source: a small table stays in
     * cache. It grows if classes outnumber the guess. */
    double r = w->ratio > 0 ? w->ratio : 0.25;
    size_t guess = (size_t)((double)from->n * r * 1.25) + 64;
    if (work_prepare(w, guess < from->n ? guess : from->n) || classes_reserve_L(L, out, L->q, from->n, 0))
        return KEPS_ENOMEM;
    out->n = 0;
    out->node = keps_lattice_id(L, levels);
    const size_t q = L->q;
    /* Packed keys: adjust the source key on the coordinates that change
     * when they are few (2 lookups each), else recompute (1 per QI). */
    const uint32_t *m0d[32], *m1d[32];
    uint64_t md[32];
    size_t di[32], nd = 0;
    int incremental = 0;
    if (L->packed && from->key && L->repcol) {
        keps_lattice_levels(L, from->node, w->from_lv);
        for (size_t i = 0; i < q && nd < 32; i++)
            if (w->from_lv[i] != levels[i]) {
                m0d[nd] = L->map[i][w->from_lv[i]];
                m1d[nd] = L->map[i][levels[i]];
                md[nd] = L->mult[i];
                di[nd++] = i;
            }
        incremental = nd < 32 && 2 * nd < q;
    }
    if (incremental && nd >= 1 && nd <= 2) {
        keps_status st = (nd == 1 ? rollup_one : rollup_two)(L, w, from, di, m0d, m1d, out, assign);
        w->ratio = from->n ? (double)out->n / (double)from->n : 0;
        return st;
    }
    work_node(L, w, levels);
    /* Blocks of ROLLUP_BLOCK classes: first every key, prefetching its
     * slot, then the inserts. The table rarely fits in cache; this way the
     * misses of a block overlap instead of stalling one insert each. (One
     * or two changing QIs took rollup_few above.) */
    enum { ROLLUP_BLOCK = 32 };
    uint64_t keys[ROLLUP_BLOCK];
    for (size_t c0 = 0; c0 < from->n; c0 += ROLLUP_BLOCK) {
        size_t nb = from->n - c0 < ROLLUP_BLOCK ? from->n - c0 : ROLLUP_BLOCK;
        for (size_t j = 0; j < nb; j++) {
            uint32_t b = from->bot[c0 + j];
            uint64_t key;
            if (incremental) {
                key = from->key[c0 + j];
                for (size_t d = 0; d < nd; d++) {
                    uint32_t code = L->repcol[di[d] * L->bottom.n + b];
                    key += ((uint64_t)m1d[d][code] - (uint64_t)m0d[d][code]) * md[d];
                }
            } else {
                key = key_of(L, w, L->bottom.rep + (size_t)b * q);
            }
            keys[j] = key;
            __builtin_prefetch(&w->tab[slot_of(w, key)]);
        }
        for (size_t j = 0; j < nb; j++) {
            size_t c = c0 + j;
            if (4 * (out->n + 1) > w->nslots && work_grow(L, w, out))
                return KEPS_ENOMEM;
            uint32_t g = group_find(L, w, out, keys[j], from->bot[c], from->count[c]);
            if (assign)
                assign[c] = g;
        }
    }
    w->ratio = from->n ? (double)out->n / (double)from->n : 0;
    return KEPS_OK;
}

/* ---- construction ------------------------------------------------------ */

/* Doubles the table of w and re-inserts the classes c (keys recomputed from
 * their representatives); the node (w->m, w->mult) stays set. */
static int work_grow(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *c)
{
    if (work_use(w, w->nslots * 2, w->bits + 1))
        return -1;
    size_t mask = w->nslots - 1;
    for (size_t i = 0; i < c->n; i++) {
        size_t s = slot_of(w, c->key[i]);
        while (w->tab[s])
            s = (s + 1) & mask;
        w->tab[s] = (uint32_t)i + 1;
    }
    (void)L;
    return 0;
}

/* Groups the rows into distinct level-0 tuples. Each row's codes are
 * written to the next free representative slot first; they stay there only
 * if the row starts a new class. A row outside the research subset counts
 * in its class's population count only. */
static keps_status group_rows(keps_lattice *L, const uint8_t *released)
{
    keps_lattice_work *w = keps_lattice_work_new(L);
    keps_node_classes *B = &L->bottom;
    keps_status st = KEPS_ENOMEM;
    int *zero = calloc(L->q ? L->q : 1, sizeof *zero);
    if (!w || !zero)
        goto done;
    /* The table grows with the number of distinct tuples, not the rows. */
    if (work_prepare(w, 4096) || classes_reserve_L(L, B, L->q, 4096, 1))
        goto done;
    work_node(L, w, zero);
    B->n = 0;
    B->node = 0;
    for (size_t r = 0; r < L->nrows_table; r++) {
        if (B->n == B->cap && classes_reserve_L(L, B, L->q, B->n + 1, 1))
            goto done;
        if (4 * (B->n + 1) > w->nslots && work_grow(L, w, B))
            goto done;
        uint32_t *rep = B->rep + B->n * L->q;
        for (size_t i = 0; i < L->q; i++)
            rep[i] = L->codes[i][r];
        /* a row stands for weight[r] records (1 without weights); outside
         * the research subset it adds to the population count only */
        uint32_t wr = L->weight ? L->weight[r] : 1;
        size_t before = B->n;
        uint32_t c = group_find(L, w, B, key_of(L, w, rep), (uint32_t)B->n, !released || released[r] ? wr : 0);
        L->row_class[r] = c;
        if (B->pcount) {
            if (B->n > before)
                B->pcount[c] = 0;
            B->pcount[c] += wr;
        }
    }
    st = KEPS_OK;
done:
    keps_lattice_work_free(w);
    free(zero);
    return st;
}

/* The bottom classes' histograms (the released rows' values, by class). */
static keps_status bottom_histograms(keps_lattice *L, const uint8_t *released, const uint32_t *const *codes)
{
    keps_node_classes *B = &L->bottom;
    for (size_t j = 0; j < L->nhist; j++) {
        free(B->hist[j].off);
        free(B->hist[j].val);
        free(B->hist[j].cnt);
        if (keps_hist_from_rows(L->nrows_table, L->row_class, B->n, codes[j], L->hist_m[j], released, L->weight,
                                &B->hist[j]))
            return KEPS_ENOMEM;
    }
    return KEPS_OK;
}

/* weight NULL: every row is one record. With weights, counts, population
 * counts and histograms all count records. */
static keps_status lattice_build(const keps_schema *s, const uint32_t *weight, const uint8_t *released,
                                 const uint32_t *const *hist_codes, const size_t *hist_m, size_t nhist,
                                 keps_lattice **out, keps_error *err)
{
    *out = NULL;
    /* Class sizes are 32-bit: the records the table stands for must fit. */
    uint64_t records = s->t->nrows;
    if (weight) {
        records = 0;
        for (size_t r = 0; r < s->t->nrows; r++)
            records += weight[r];
    }
    if (records > UINT32_MAX)
        return keps_error_set(err, KEPS_EINPUT,
                              "%s stands for %llu records; the lattice counts at most 4,294,967,295",
                              s->t->source, (unsigned long long)records);
    if (s->nqi == 0)
        return keps_error_set(err, KEPS_EINPUT, "the lattice needs at least one quasi-identifier");
    for (size_t i = 0; i < s->nqi; i++)
        if (!s->qi[i].h)
            return keps_error_set(err, KEPS_EINPUT,
                                  "quasi-identifier '%s' has no hierarchy: give it one in its QI spec, "
                                  "%s:HIERARCHY.csv, or a builder such as %s:interval=WIDTHS",
                                  s->t->cols[s->qi[i].col].name, s->t->cols[s->qi[i].col].name,
                                  s->t->cols[s->qi[i].col].name);
    keps_lattice *L = calloc(1, sizeof *L);
    if (!L)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory building the lattice");
    L->s = s;
    L->nrows = (size_t)records;
    L->nrows_table = s->t->nrows;
    L->weight = weight;
    L->q = s->nqi;
    L->height = calloc(L->q, sizeof *L->height);
    L->stride = calloc(L->q, sizeof *L->stride);
    L->mult = calloc(L->q, sizeof *L->mult);
    L->card = calloc(L->q, sizeof *L->card);
    L->codes = calloc(L->q, sizeof *L->codes);
    L->map = calloc(L->q, sizeof *L->map);
    L->row_class = malloc((L->nrows_table ? L->nrows_table : 1) * sizeof *L->row_class);
    if (!L->height || !L->stride || !L->mult || !L->card || !L->codes || !L->map || !L->row_class)
        goto oom;
    uint64_t nn = 1;
    long double bottom_space = 1;
    for (size_t i = 0; i < L->q; i++) {
        const keps_qi *qi = &s->qi[i];
        L->height[i] = qi->height;
        L->stride[i] = nn;
        if (nn > UINT64_MAX / (uint64_t)(qi->height + 1)) {
            keps_lattice_free(L);
            return keps_error_set(err, KEPS_EINPUT, "the lattice has more than 2^64 nodes: use fewer QIs");
        }
        nn *= (uint64_t)(qi->height + 1);
        L->card[i] = calloc((size_t)qi->height + 1, sizeof *L->card[i]);
        if (!L->card[i])
            goto oom;
        for (int l = 0; l <= qi->height; l++)
            L->card[i][l] = keps_hierarchy_size(qi->h, l);
        L->codes[i] = s->t->cols[qi->col].codes;
        L->map[i] = qi->map;
        L->mult[i] = bottom_space < 1.8e19L ? (uint64_t)bottom_space : 0;
        bottom_space *= L->card[i][0];
    }
    L->nnodes = nn;
    /* Cardinalities shrink with the level, so the bottom bounds every node. */
    L->packed = bottom_space < 1.8e19L;
    L->nreleased = L->nrows;
    if (released) {
        L->has_pcount = 1;
        L->nreleased = 0;
        for (size_t r = 0; r < L->nrows_table; r++)
            L->nreleased += released[r] ? (L->weight ? L->weight[r] : 1) : 0;
    }
    if (nhist && hist_codes) {
        L->hist_m = malloc(nhist * sizeof *L->hist_m);
        if (!L->hist_m)
            goto oom;
        memcpy(L->hist_m, hist_m, nhist * sizeof *L->hist_m);
        L->nhist = nhist;
    }
    keps_node_classes_init(&L->bottom);
    if (group_rows(L, released) || (L->nhist && bottom_histograms(L, released, hist_codes)))
        goto oom;
    L->repcol = malloc((L->bottom.n ? L->bottom.n : 1) * L->q * sizeof *L->repcol);
    if (!L->repcol)
        goto oom;
    for (size_t b = 0; b < L->bottom.n; b++)
        for (size_t i = 0; i < L->q; i++)
            L->repcol[i * L->bottom.n + b] = L->bottom.rep[b * L->q + i];
    *out = L;
    return KEPS_OK;
oom:
    keps_lattice_free(L);
    return keps_error_set(err, KEPS_ENOMEM, "out of memory building the lattice");
}

keps_status keps_lattice_new(const keps_schema *s, keps_lattice **out, keps_error *err)
{
    return lattice_build(s, NULL, NULL, NULL, NULL, 0, out, err);
}

keps_status keps_lattice_new_ex(const keps_schema *s, const uint8_t *released, const uint32_t *const *hist_codes,
                                const size_t *hist_m, size_t nhist, keps_lattice **out, keps_error *err)
{
    return lattice_build(s, NULL, released, hist_codes, hist_m, nhist, out, err);
}

keps_status keps_lattice_new_weighted(const keps_schema *s, const uint32_t *weight, keps_lattice **out,
                                      keps_error *err)
{
    return lattice_build(s, weight, NULL, NULL, NULL, 0, out, err);
}

keps_status keps_lattice_new_weighted_ex(const keps_schema *s, const uint32_t *weight, const uint8_t *released,
                                         const uint32_t *const *hist_codes, const size_t *hist_m, size_t nhist,
                                         keps_lattice **out, keps_error *err)
{
    return lattice_build(s, weight, released, hist_codes, hist_m, nhist, out, err);
}

void keps_lattice_free(keps_lattice *L)
{
    if (!L)
        return;
    if (L->card)
        for (size_t i = 0; i < L->q; i++)
            free(L->card[i]);
    free(L->card);
    free(L->height);
    free(L->stride);
    free(L->mult);
    free(L->codes);
    free(L->map);
    free(L->row_class);
    free(L->repcol);
    free(L->hist_m);
    keps_node_classes_free(&L->bottom);
    free(L);
}

uint64_t keps_lattice_id(const keps_lattice *L, const int *levels)
{
    uint64_t id = 0;
    for (size_t i = 0; i < L->q; i++)
        id += (uint64_t)levels[i] * L->stride[i];
    return id;
}

void keps_lattice_levels(const keps_lattice *L, uint64_t id, int *levels)
{
    for (size_t i = 0; i < L->q; i++) {
        levels[i] = (int)(id % (uint64_t)(L->height[i] + 1));
        id /= (uint64_t)(L->height[i] + 1);
    }
}

int keps_lattice_level_sum(const keps_lattice *L, const int *levels)
{
    int s = 0;
    for (size_t i = 0; i < L->q; i++)
        s += levels[i];
    return s;
}

/* ---- full scan ----------------------------------------------------------
 * Spanning tree: the parent of a node lowers one coordinate, the one whose
 * refinement is estimated to add the fewest classes (parent_dim), so the
 * children of a node are the increments whose parent rule points back to
 * it. Tasks are the values of the first `split` coordinates (each task's
 * root rolls up from the bottom); inside a task a depth-first walk rolls
 * each child up from its parent, one class buffer per depth.
 *
 * Even scan (keps_lattice_scan_even): an even node's parent lowers two
 * coordinates (the rule applied twice), so every even node rolls up from a
 * node two levels below it and the odd nodes' classes are never counted. A
 * task root with an odd level sum first takes one single increment. */

typedef struct scan_ctx {
    const keps_lattice *L;
    size_t k;
    keps_lattice_cb cb;
    void *ud;
    int even;          /* only nodes with an even level sum, two levels per step */
    double **refine;   /* [q][level] estimated class growth one level down (full scan) */
    size_t split;      /* coordinates fixed per task */
    uint64_t ntasks;
    uint64_t *order;   /* [ntasks] tasks by the level sum of their root, lowest first */
    atomic_ullong next;
    atomic_int stop;   /* 1 callback stopped, 2 out of memory, 3 cancelled */
} scan_ctx;

typedef struct scan_thread {
    scan_ctx *ctx;
    int id;
    keps_lattice_work *w;
    keps_node_classes *depth; /* [maxdepth + 1] */
    size_t ndepth;
    int *levels;
} scan_thread;

static int visit(scan_thread *t, const keps_node_classes *c)
{
    scan_ctx *x = t->ctx;
    keps_node_info ni;
    ni.id = keps_lattice_id(x->L, t->levels);
    ni.levels = t->levels;
    ni.nclasses = c->n;
    ni.suppressed = keps_node_classes_suppressed(c, x->k, &ni.small_classes);
    ni.classes = c;
    if (x->cb(&ni, t->id, x->ud)) {
        atomic_store(&x->stop, 1);
        return -1;
    }
    return 0;
}

static int dfs(scan_thread *t, size_t d);

/* t->levels is a child of the node at depth d: roll it up, visit it, walk
 * its subtree. */
static int descend(scan_thread *t, size_t d)
{
    scan_ctx *x = t->ctx;
    if (keps_lattice_rollup(x->L, t->w, &t->depth[d], t->levels, &t->depth[d + 1], NULL)) {
        atomic_store(&x->stop, 2);
        return -1;
    }
    int rc = visit(t, &t->depth[d + 1]);
    return rc ? rc : dfs(t, d + 1);
}

/* The tree parent of a node lowers the coordinate (after the task's fixed
 * ones) whose refinement adds the fewest classes by the estimate, so most
 * nodes roll up from a parent of about their own size; the even scan's
 * parent lowers two such coordinates one after the other. */
static size_t parent_dim(const scan_ctx *x, const int *levels)
{
    size_t best = x->L->q;
    for (size_t j = x->split; j < x->L->q; j++)
        if (levels[j] > 0 && (best == x->L->q || x->refine[j][levels[j]] <= x->refine[best][levels[best]]))
            best = j;
    return best;
}

/* Is the even node levels the tree child of levels - e_a - e_b (a <= b)? */
static int parent_pair_is(const scan_ctx *x, int *levels, size_t a, size_t b)
{
    size_t j1 = parent_dim(x, levels);
    levels[j1]--;
    size_t j2 = parent_dim(x, levels);
    levels[j1]++;
    return (j1 < j2 ? j1 : j2) == a && (j1 < j2 ? j2 : j1) == b;
}

static int dfs(scan_thread *t, size_t d)
{
    scan_ctx *x = t->ctx;
    const keps_lattice *L = x->L;
    for (size_t j = x->split; j < L->q; j++) {
        if (t->levels[j] >= L->height[j])
            continue;
        if (atomic_load(&x->stop))
            return -1;
        t->levels[j]++;
        int rc = 0;
        if (!x->even && parent_dim(x, t->levels) == j)
            rc = descend(t, d);
        for (size_t b = j; x->even && b < L->q && !rc; b++) { /* second increment of the pair */
            if (t->levels[b] >= L->height[b])
                continue;
            t->levels[b]++;
            if (parent_pair_is(x, t->levels, j, b))
                rc = descend(t, d);
            t->levels[b]--;
        }
        t->levels[j]--;
        if (rc)
            return rc;
    }
    return 0;
}

/* One task: the subtree below the root whose first `split` levels encode task. */
static int scan_task(scan_thread *t, uint64_t task)
{
    scan_ctx *x = t->ctx;
    const keps_lattice *L = x->L;
    for (size_t i = 0; i < L->q; i++)
        t->levels[i] = 0;
    for (size_t i = 0; i < x->split; i++) {
        t->levels[i] = (int)(task % (uint64_t)(L->height[i] + 1));
        task /= (uint64_t)(L->height[i] + 1);
    }
    if (keps_lattice_rollup(L, t->w, NULL, t->levels, &t->depth[0], NULL)) {
        atomic_store(&x->stop, 2);
        return -1;
    }
    if (!x->even || keps_lattice_level_sum(L, t->levels) % 2 == 0)
        return visit(t, &t->depth[0]) || dfs(t, 0) ? -1 : 0;
    for (size_t a = x->split; a < L->q; a++) { /* odd root: one single step to an even node */
        if (t->levels[a] >= L->height[a])
            continue;
        t->levels[a]++;
        int rc = descend(t, 0);
        t->levels[a]--;
        if (rc)
            return rc;
    }
    return 0;
}

static void *scan_main(void *arg)
{
    scan_thread *t = arg;
    scan_ctx *x = t->ctx;
    for (;;) {
        uint64_t i = atomic_fetch_add(&x->next, 1);
        /* thread 0 is the caller's: progress, and a cancel, are its to hear */
        if (t->id == 0 && i < x->ntasks && keps_progress("lattice scan", (double)i, (double)x->ntasks)) {
            atomic_store(&x->stop, 3);
            break;
        }
        if (i >= x->ntasks || atomic_load(&x->stop) || scan_task(t, x->order[i]))
            break;
    }
    return NULL;
}

static keps_status scan_run(const keps_lattice *L, size_t k, int even, keps_lattice_cb cb, void *userdata,
                            int nthreads, keps_error *err);

keps_status keps_lattice_scan(const keps_lattice *L, size_t k, keps_lattice_cb cb, void *userdata,
                              int nthreads, keps_error *err)
{
    return scan_run(L, k, 0, cb, userdata, nthreads, err);
}

keps_status keps_lattice_scan_even(const keps_lattice *L, size_t k, keps_lattice_cb cb, void *userdata,
                                   int nthreads, keps_error *err)
{
    return scan_run(L, k, 1, cb, userdata, nthreads, err);
}

/* refine[i][l] (l >= 1): distinct values of QI i among the bottom classes
 * at level l - 1 over those at level l, the factor by which lowering QI i
 * from l multiplies a node's classes if the QIs were independent. */
static double **scan_refine(const keps_lattice *L)
{
    double **r = calloc(L->q ? L->q : 1, sizeof *r);
    uint8_t *seen = NULL;
    if (!r)
        return NULL;
    for (size_t i = 0; i < L->q; i++) {
        size_t span = 1; /* codes at every level are below the largest level's size */
        for (int l = 0; l <= L->height[i]; l++)
            if (L->card[i][l] > span)
                span = L->card[i][l];
        r[i] = calloc((size_t)L->height[i] + 1, sizeof **r);
        uint8_t *s2 = realloc(seen, span);
        if (!r[i] || !s2) {
            for (size_t j = 0; j <= i; j++)
                free(r[j]);
            free(r);
            free(s2 ? s2 : seen);
            return NULL;
        }
        seen = s2;
        double prev = 0;
        for (int l = 0; l <= L->height[i]; l++) {
            const uint32_t *map = L->map[i][l];
            size_t d = 0;
            memset(seen, 0, span);
            for (size_t b = 0; b < L->bottom.n; b++) {
                uint32_t v = map[L->bottom.rep[b * L->q + i]];
                d += !seen[v];
                seen[v] = 1;
            }
            if (l > 0)
                r[i][l] = d ? prev / (double)d : 1.0;
            prev = (double)d;
        }
    }
    free(seen);
    return r;
}

static keps_status scan_run(const keps_lattice *L, size_t k, int even, keps_lattice_cb cb, void *userdata,
                            int nthreads, keps_error *err)
{
    if (nthreads <= 0)
        nthreads = 2;
    scan_ctx x;
    x.L = L;
    x.k = k;
    x.cb = cb;
    x.ud = userdata;
    x.even = even;
    atomic_init(&x.next, 0);
    atomic_init(&x.stop, 0);
    /* Enough tasks to balance the threads (subtrees differ a lot in size). */
    x.split = 0;
    x.ntasks = 1;
    while (x.split < L->q && x.ntasks < (uint64_t)nthreads * 16)
        x.ntasks *= (uint64_t)(L->height[x.split++] + 1);
    x.refine = scan_refine(L);
    /* Low roots have the most classes and the largest subtrees: handing
     * them out first leaves the small tasks to balance the threads' ends. */
    x.order = malloc(x.ntasks * sizeof *x.order);
    if (x.order) {
        uint64_t n = 0;
        int maxsum = 0;
        for (size_t i = 0; i < x.split; i++)
            maxsum += L->height[i];
        for (int sum = 0; sum <= maxsum; sum++)
            for (uint64_t task = 0; task < x.ntasks; task++) {
                int ts = 0;
                uint64_t rest = task;
                for (size_t i = 0; i < x.split; i++) {
                    ts += (int)(rest % (uint64_t)(L->height[i] + 1));
                    rest /= (uint64_t)(L->height[i] + 1);
                }
                if (ts == sum)
                    x.order[n++] = task;
            }
    }
    size_t maxdepth = 1; /* (+1: an even scan's odd root takes a single step first) */
    for (size_t i = x.split; i < L->q; i++)
        maxdepth += (size_t)L->height[i];

    scan_thread *th = calloc((size_t)nthreads, sizeof *th);
    pthread_t *tid = calloc((size_t)nthreads, sizeof *tid);
    keps_status st = KEPS_OK;
    int started = 0;
    if (!th || !tid || !x.order || !x.refine) {
        st = KEPS_ENOMEM;
        goto done;
    }
    for (int i = 0; i < nthreads; i++) {
        th[i].ctx = &x;
        th[i].id = i;
        th[i].w = keps_lattice_work_new(L);
        th[i].ndepth = maxdepth + 1;
        th[i].depth = calloc(maxdepth + 1, sizeof *th[i].depth);
        th[i].levels = calloc(L->q ? L->q : 1, sizeof *th[i].levels);
        if (!th[i].w || !th[i].depth || !th[i].levels) {
            st = KEPS_ENOMEM;
            goto done;
        }
    }
    /* Thread 0 is the caller; the others are pthreads. */
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&tid[i], NULL, scan_main, &th[i]) != 0)
            break;
        started = i;
    }
    scan_main(&th[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    if (atomic_load(&x.stop) == 2)
        st = KEPS_ENOMEM;
    else if (atomic_load(&x.stop) == 1)
        st = KEPS_EJOB;
    else if (atomic_load(&x.stop) == 3)
        st = KEPS_ECANCEL;
done:
    if (th)
        for (int i = 0; i < nthreads; i++) {
            keps_lattice_work_free(th[i].w);
            if (th[i].depth)
                for (size_t d = 0; d < th[i].ndepth; d++)
                    keps_node_classes_free(&th[i].depth[d]);
            free(th[i].depth);
            free(th[i].levels);
        }
    free(th);
    free(tid);
    free(x.order);
    if (x.refine)
        for (size_t i = 0; i < L->q; i++)
            free(x.refine[i]);
    free(x.refine);
    if (st == KEPS_ENOMEM)
        return keps_error_set(err, st, "out of memory scanning the lattice");
    if (st == KEPS_EJOB)
        return keps_error_set(err, st, "lattice scan stopped by its callback");
    if (st == KEPS_ECANCEL)
        return keps_error_set(err, st, "cancelled");
    return KEPS_OK;
}
