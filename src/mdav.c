/* MDAV and insensitive MDAV microaggregation (see include/keps/mdav.h).
 *
 * Standard MDAV has two paths with the same result. The scan (mdav_loop)
 * keeps the records not yet grouped compacted at the front of a
 * column-major array of standardized values (z; attribute j of position
 * i at z[j*n + i]) plus their input row index; a grouped record is
 * swap-removed, so every scan reads m contiguous runs and the distance
 * kernel works on several records per vector. Three scans per two groups
 * (farthest from the centroid; k-1 nearest to r fused with the farthest
 * from r; k-1 nearest to s fused with the sum for the next centroid) are
 * cut into chunks shared with a small persistent thread pool (the helper
 * is only woken while probing shows it pays: see tuned_run). Ties never
 * depend on array position (they are broken by input row index) and the
 * sums are added in chunk order, so the result does not depend on the
 * thread count or the scheduling. The k-d tree path (mdav_fast_loop, for
 * many records with few attributes) answers the same queries from
 * mdav_index.c and keeps the scan's array in step for the centroid sum. */
#include "keps/mdav.h"
#include "keps/progress.h"
#include "keps/release.h"

#include "dist.h"
#include "mdav_index.h"
#include "mdav_internal.h"
#include "release_internal.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 8
/* the k-d tree path from this many records with at most this many attributes */
#define MDAV_TREE_MIN_N 2048
#define MDAV_TREE_MAX_M 8
/* Below this many doubles a scan runs on the calling thread only: waking
 * the helper costs more than it saves. */
#define PAR_MIN_WORK 16384

static int mdav_threads = 2;

void keps_mdav_threads(int nthreads)
{
    mdav_threads = nthreads < 1 ? 1 : nthreads > MAX_THREADS ? MAX_THREADS : nthreads;
}

/* ---- a persistent pool of helpers sharing chunked scans ----
 *
 * A scan is cut into chunks that threads claim from one atomic word
 * (task | nchunks | next chunk). The caller claims chunks too, so a helper
 * that is not scheduled (a loaded machine) costs nothing: the caller simply
 * does every chunk. Each thread accumulates into its own slot; the caller
 * merges the slots of the threads that took part in this task. */

typedef struct pool pool;
typedef void (*begin_fn)(void *ctx, int tid);
typedef void (*chunk_fn)(void *ctx, int tid, size_t chunk, size_t nchunks);

typedef struct worker_arg {
    pool *p;
    int tid;
} worker_arg;

#define CLAIM_BITS 20
#define CLAIM_MASK ((UINT64_C(1) << CLAIM_BITS) - 1)

struct pool {
    int nt;
    pthread_t th[MAX_THREADS];
    worker_arg args[MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_uint gen;                  /* bumped to wake the helpers */
    _Atomic uint64_t claim;           /* task << 40 | nchunks << 20 | next */
    atomic_size_t completed;          /* chunks finished in this task */
    atomic_uint used[MAX_THREADS];    /* 1: this thread took part in the task */
    atomic_int quit;
    uint64_t task;                    /* caller only */
    void *ctx;
    begin_fn begin;
    chunk_fn chunk;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Claims and runs chunks until the current task has none left. */
static void pool_work(pool *p, int tid)
{
    /* A helper may finish one task and go straight on claiming chunks of
     * the next (the caller posts it as soon as the last chunk completes):
     * its slot is reset whenever the claimed chunk belongs to a new task. */
    uint64_t mine = UINT64_MAX;
    uint64_t c = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        uint64_t next = c & CLAIM_MASK, nchunks = (c >> CLAIM_BITS) & CLAIM_MASK;
        if (next >= nchunks)
            return;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &c, c + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        if (c >> (2 * CLAIM_BITS) != mine) {
            mine = c >> (2 * CLAIM_BITS);
            p->begin(p->ctx, tid);
            atomic_store_explicit(&p->used[tid], 1, memory_order_relaxed);
        }
        p->chunk(p->ctx, tid, (size_t)next, (size_t)nchunks);
        atomic_fetch_add_explicit(&p->completed, 1, memory_order_release);
        c = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

/* Helpers spin briefly (scans follow each other within microseconds), then
 * sleep on the condition variable so an idle pool costs nothing. */
static void *worker(void *arg)
{
    pool *p = ((worker_arg *)arg)->p;
    int tid = ((worker_arg *)arg)->tid;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
            if (spins++ < 2000) {
                cpu_relax();
                continue;
            }
            pthread_mutex_lock(&p->mu);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen)
                pthread_cond_wait(&p->cv, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        seen = g;
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return NULL;
        pool_work(p, tid);
    }
}

static void pool_wake(pool *p)
{
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Starts nt-1 helpers; if a thread cannot be created the pool just runs
 * with fewer (down to serial). */
static void pool_start(pool *p, int nt, void *ctx, begin_fn begin, chunk_fn chunk)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    atomic_init(&p->gen, 0);
    atomic_init(&p->claim, 0);
    atomic_init(&p->completed, 0);
    atomic_init(&p->quit, 0);
    for (int t = 0; t < MAX_THREADS; t++)
        atomic_init(&p->used[t], 0);
    p->ctx = ctx;
    p->begin = begin;
    p->chunk = chunk;
    p->nt = 1;
    for (int t = 1; t < nt; t++) {
        p->args[t].p = p;
        p->args[t].tid = t;
        if (pthread_create(&p->th[t], NULL, worker, &p->args[t]) != 0)
            break;
        p->nt = t + 1;
    }
}

/* Runs one task of nchunks chunks (< 2^20) and waits for all of them; then
 * p->used[t] says which threads' slots hold results. The task number only
 * keeps a stale claim word from matching a new one. */
static void pool_run(pool *p, size_t nchunks, int wake)
{
    p->task = (p->task + 1) & 0xFFFFFF;
    atomic_store_explicit(&p->completed, 0, memory_order_relaxed);
    for (int t = 0; t < p->nt; t++)
        atomic_store_explicit(&p->used[t], 0, memory_order_relaxed);
    atomic_store_explicit(&p->claim, p->task << (2 * CLAIM_BITS) | (uint64_t)nchunks << CLAIM_BITS,
                          memory_order_release);
    if (wake && nchunks > 1 && p->nt > 1)
        pool_wake(p);
    pool_work(p, 0);
    int spins = 0;
    while (atomic_load_explicit(&p->completed, memory_order_acquire) < nchunks) {
        if (spins++ < 2000)
            cpu_relax();
        else
            sched_yield();
    }
}

static void pool_stop(pool *p)
{
    if (p->nt > 1) {
        atomic_store_explicit(&p->quit, 1, memory_order_release);
        pool_wake(p);
        for (int t = 1; t < p->nt; t++)
            pthread_join(p->th[t], NULL);
    }
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
}

/* ---- MDAV state and scans ---- */

typedef struct acc {      /* one thread's partial result */
    cand far;
    cand *heap;
    size_t nh;
} acc;

#define MAX_CHUNKS 64

typedef struct scan {
    const double *z;      /* [m*stride] compacted standardized values,
                             column-major: attribute j of position i at
                             z[j*stride + i] */
    size_t stride;
    const uint32_t *idx;  /* [nrem] input rows */
    size_t nrem, m, kk;   /* kk = neighbours wanted (k-1) */
    const double *p;      /* the point scanned against */
    size_t skip;          /* position to leave out (the centre record) or SIZE_MAX */
    int want_near, want_sum;
    acc a[MAX_THREADS];
    double *csum;         /* [MAX_CHUNKS*m] column sums per chunk: added up in
                             chunk order, so the centroid does not depend on
                             which thread took which chunk */
} scan;

#define BLOCK 256

/* The kernel, inlined for small constant m so the compiler unrolls it:
 * distances of a block into a buffer (a tight loop), then one predictable
 * pass that rarely does anything (a new farthest or a near candidate). */
static ALWAYS_INLINE void scan_range(const scan *s, acc *a, double *sum, size_t lo, size_t hi, size_t m)
{
    double dbuf[BLOCK];
    const double *p = s->p;
    size_t cap = s->want_near ? s->kk : 0;
    for (size_t b0 = lo; b0 < hi; b0 += BLOCK) {
        size_t nb = hi - b0 < BLOCK ? hi - b0 : BLOCK;
        dist_block(s->z + b0, s->stride, p, m, nb, dbuf);
        if (s->want_sum) {
            for (size_t j = 0; j < m; j++) {
                /* four partial sums break the add latency chain */
                const double *zj = s->z + j * s->stride + b0;
                double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
                size_t i = 0;
                for (; i + 4 <= nb; i += 4) {
                    a0 += zj[i];
                    a1 += zj[i + 1];
                    a2 += zj[i + 2];
                    a3 += zj[i + 3];
                }
                for (; i < nb; i++)
                    a0 += zj[i];
                sum[j] += (a0 + a1) + (a2 + a3);
            }
        }
        const uint32_t *idx = s->idx + b0;
        double thr = !cap ? -INFINITY : a->nh < cap ? INFINITY : a->heap[0].d;
        for (size_t i = 0; i < nb; i++) {
            double d = dbuf[i];
            if (d >= a->far.d && b0 + i != s->skip && farther(d, idx[i], a->far.d, a->far.idx))
                a->far = (cand){d, idx[i], (uint32_t)(b0 + i)};
            if (d <= thr && b0 + i != s->skip) {
                heap_push(a->heap, &a->nh, cap, (cand){d, idx[i], (uint32_t)(b0 + i)});
                thr = a->nh < cap ? INFINITY : a->heap[0].d;
            }
        }
    }
}

static void scan_begin(void *ctx, int tid)
{
    scan *s = ctx;
    acc *a = &s->a[tid];
    a->far = (cand){-1.0, UINT32_MAX, 0};
    a->nh = 0;
}

static void scan_chunk(void *ctx, int tid, size_t chunk, size_t nchunks)
{
    scan *s = ctx;
    acc *a = &s->a[tid];
    size_t lo = s->nrem * chunk / nchunks, hi = s->nrem * (chunk + 1) / nchunks;
    double *sum = s->csum + chunk * s->m;
    memset(sum, 0, s->m * sizeof *sum);
    switch (s->m) {
    case 1: scan_range(s, a, sum, lo, hi, 1); break;
    case 2: scan_range(s, a, sum, lo, hi, 2); break;
    case 3: scan_range(s, a, sum, lo, hi, 3); break;
    case 4: scan_range(s, a, sum, lo, hi, 4); break;
    default: scan_range(s, a, sum, lo, hi, s->m); break;
    }
}

typedef struct mdav_run {
    pool pl;
    scan sc;
    size_t n, m, k;
    double *z;         /* compacted, column-major with stride n */
    uint32_t *idx;
    size_t nrem;
    double *total;     /* [m] sum of z over the remaining records */
    double *point;     /* [m] */
    cand *merged;      /* [nt*k] */
    uint32_t *gpos;    /* [2k] positions of a group being removed */
    uint32_t *pos_of;  /* [n] position of each input row (index path only) */
    uint32_t *group;   /* output */
    uint32_t ngroups;
    /* Is the helper worth waking? On a machine shared with other work it
     * may not get a core, and waking it then only slows the caller down.
     * Cycle: TUNE_PROBE large scans serial, TUNE_PROBE with the helper,
     * then TUNE_RUN scans in the faster mode (time per unit of work). */
    size_t tune_count;
    double tune_ns[2], tune_work[2];
    int tune_use;      /* 0 serial, 1 with the helper */
} mdav_run;

#define TUNE_PROBE 32
#define TUNE_RUN 512

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Runs the scan's chunks, with the helper or without as the tuning cycle
 * says. Only the speed depends on the choice, never the result. */
static void tuned_run(mdav_run *r, size_t nchunks, size_t work)
{
    if (r->pl.nt == 1 || work < PAR_MIN_WORK) {
        pool_run(&r->pl, nchunks, 0);
        return;
    }
    size_t phase = r->tune_count++ % (2 * TUNE_PROBE + TUNE_RUN);
    int mode = phase < TUNE_PROBE ? 0 : phase < 2 * TUNE_PROBE ? 1 : r->tune_use;
    double t0 = mono_ns();
    pool_run(&r->pl, nchunks, mode);
    if (phase < 2 * TUNE_PROBE) {
        r->tune_ns[mode] += mono_ns() - t0;
        r->tune_work[mode] += (double)work;
    }
    if (phase == 2 * TUNE_PROBE - 1) {
        r->tune_use = r->tune_ns[1] / r->tune_work[1] < r->tune_ns[0] / r->tune_work[0];
        r->tune_ns[0] = r->tune_ns[1] = r->tune_work[0] = r->tune_work[1] = 0;
    }
}

static int cmp_cand_near(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (nearer(x->d, x->idx, y->d, y->idx))
        return -1;
    return nearer(y->d, y->idx, x->d, x->idx) ? 1 : 0;
}

/* Runs a scan against point p; returns the farthest; fills r->merged with
 * the kk nearest (sorted) when want_near. */
static cand run_scan(mdav_run *r, const double *p, size_t skip, int want_near, int want_sum)
{
    scan *s = &r->sc;
    s->z = r->z;
    s->idx = r->idx;
    s->nrem = r->nrem;
    s->p = p;
    s->skip = skip;
    s->want_near = want_near;
    s->want_sum = want_sum;
    /* the chunking depends on the work only (not on the thread count), so
     * the summation order and hence the result are the same on any number
     * of threads */
    size_t work = r->nrem * r->m, nchunks = work / (PAR_MIN_WORK / 4);
    nchunks = nchunks < 1 ? 1 : nchunks > MAX_CHUNKS ? MAX_CHUNKS : nchunks;
    tuned_run(r, nchunks, work);
    cand far = {-1.0, UINT32_MAX, 0};
    size_t nm = 0;
    if (want_sum)
        memset(r->total, 0, r->m * sizeof *r->total);
    for (int t = 0; t < r->pl.nt; t++) {
        const acc *a = &s->a[t];
        if (!atomic_load_explicit(&r->pl.used[t], memory_order_relaxed))
            continue;
        if (farther(a->far.d, a->far.idx, far.d, far.idx))
            far = a->far;
        for (size_t i = 0; want_near && i < a->nh; i++)
            r->merged[nm++] = a->heap[i];
    }
    for (size_t c = 0; want_sum && c < nchunks; c++)
        for (size_t j = 0; j < r->m; j++)
            r->total[j] += s->csum[c * r->m + j];
    if (want_near)
        qsort(r->merged, nm, sizeof *r->merged, cmp_cand_near);
    return far;
}

static int cmp_u32_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

/* Assigns the next group id to the records at positions gpos[0..g-1] and
 * swap-removes them (largest position first, so no moved record is one
 * still to be removed). Updates the running sum. */
static void take_group(mdav_run *r, size_t g)
{
    qsort(r->gpos, g, sizeof *r->gpos, cmp_u32_desc);
    size_t m = r->m;
    for (size_t i = 0; i < g; i++) {
        size_t p = r->gpos[i], last = r->nrem - 1;
        r->group[r->idx[p]] = r->ngroups;
        for (size_t j = 0; j < m; j++)
            r->total[j] -= r->z[j * r->n + p];
        if (p != last) {
            for (size_t j = 0; j < m; j++)
                r->z[j * r->n + p] = r->z[j * r->n + last];
            r->idx[p] = r->idx[last];
            if (r->pos_of)
                r->pos_of[r->idx[p]] = (uint32_t)p;
        }
        r->nrem--;
    }
    r->ngroups++;
}

/* Groups the record at position c with its k-1 nearest remaining records.
 * Returns the farthest record from c outside that group (pos UINT32_MAX if
 * none is left), reading the sum of all remaining records on the way when
 * want_sum. */
static cand group_around(mdav_run *r, uint32_t c, int want_sum)
{
    size_t m = r->m;
    for (size_t j = 0; j < m; j++)
        r->point[j] = r->z[j * r->n + c];
    cand far = run_scan(r, r->point, c, 1, want_sum);
    size_t kk = r->k - 1;
    int far_in = 0;
    r->gpos[0] = c;
    for (size_t i = 0; i < kk; i++) {
        r->gpos[i + 1] = r->merged[i].pos;
        if (r->merged[i].idx == far.idx)
            far_in = 1;
    }
    uint32_t far_idx = far.idx;
    take_group(r, kk + 1);
    if (r->nrem == 0)
        return (cand){-1.0, UINT32_MAX, UINT32_MAX};
    if (far_in) {
        /* Only when every remaining distance ties: find it again. */
        far = run_scan(r, r->point, SIZE_MAX, 0, 0);
        return far;
    }
    /* far's position moved only if swap-removal filled a hole with it:
     * then it sits at one of the removed positions. */
    if (far.pos < r->nrem && r->idx[far.pos] == far_idx)
        return far;
    for (size_t i = 0; i <= kk; i++) {
        uint32_t p = r->gpos[i];
        if (p < r->nrem && r->idx[p] == far_idx) {
            far.pos = p;
            return far;
        }
    }
    return far; /* not reached: far is a remaining record */
}

static keps_status check_args(const double *x, size_t n, size_t m, size_t k, keps_error *err)
{
    if (k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1 (got %zu)", k);
    if (m < 1)
        return keps_error_set(err, KEPS_EINPUT, "microaggregation needs at least one numeric attribute");
    if (n < k)
        return keps_error_set(err, KEPS_EJOB,
                              "k = %zu is larger than the number of records (%zu): no grouping can put every "
                              "record in a group of k; lower k",
                              k, n);
    if (n > UINT32_MAX - 1)
        return keps_error_set(err, KEPS_EINPUT, "too many records for microaggregation (%zu)", n);
    for (size_t i = 0; i < n * m; i++)
        if (!isfinite(x[i]))
            return keps_error_set(err, KEPS_EINPUT, "record %zu, attribute %zu is not a finite number", i / m + 1,
                                  i % m + 1);
    return KEPS_OK;
}

static keps_status result_alloc(keps_mdav_result *out, size_t n, size_t m, size_t k, keps_error *err)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->m = m;
    out->k = k;
    out->group = malloc(n * sizeof *out->group);
    out->size = calloc(n / k + 1, sizeof *out->size);
    out->centroid = calloc((n / k + 1) * m, sizeof *out->centroid);
    out->mean = calloc(m, sizeof *out->mean);
    out->sd = calloc(m, sizeof *out->sd);
    if (!out->group || !out->size || !out->centroid || !out->mean || !out->sd) {
        keps_mdav_result_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    return KEPS_OK;
}

/* Mean and population sd of each attribute (two passes for accuracy). */
static void moments(const double *x, size_t n, size_t m, double *mean, double *sd)
{
    for (size_t j = 0; j < m; j++)
        column_moments(x, n, m, j, &mean[j], &sd[j]);
}

static inline double zval(double x, double mean, double sd)
{
    return sd > 0 ? (x - mean) / sd : 0.0;
}

/* Both SSEs of the centroids as they stand. */
static void errors(const double *x, keps_mdav_result *out)
{
    size_t n = out->n, m = out->m;
    double sse = 0, ssz = 0;
    for (size_t i = 0; i < n; i++) {
        const double *c = out->centroid + (size_t)out->group[i] * m;
        for (size_t j = 0; j < m; j++) {
            double d = x[i * m + j] - c[j];
            sse += d * d;
            if (out->sd[j] > 0) {
                double dz = d / out->sd[j];
                ssz += dz * dz;
            }
        }
    }
    out->sse = sse;
    out->sse_standardized = ssz;
}

void keps_mdav_round(keps_mdav_result *r, const double *x, const int *digits)
{
    for (size_t j = 0; digits && j < r->m; j++)
        keps_round_clamp(r->centroid + j, r->ngroups, r->m, digits[j], -INFINITY, INFINITY);
    errors(x, r);
}

/* Sizes, centroids and both SSEs from the group ids. A centroid that
 * overflowed (a library caller's values near DBL_MAX; the CLI bounds its
 * input by KEPS_NUM_MAX) is an error rather than an "inf" in a release. */
static keps_status finish(const double *x, keps_mdav_result *out, keps_error *err)
{
    size_t n = out->n, m = out->m;
    memset(out->size, 0, out->ngroups * sizeof *out->size);
    memset(out->centroid, 0, out->ngroups * m * sizeof *out->centroid);
    for (size_t i = 0; i < n; i++) {
        uint32_t g = out->group[i];
        out->size[g]++;
        for (size_t j = 0; j < m; j++)
            out->centroid[g * m + j] += x[i * m + j];
    }
    for (size_t g = 0; g < out->ngroups; g++)
        for (size_t j = 0; j < m; j++)
            out->centroid[g * m + j] /= (double)out->size[g];
    errors(x, out);
    keps_status st = keps_release_check_finite(out->centroid, out->ngroups * m, "microaggregation centroids", err);
    if (st)
        keps_mdav_result_free(out);
    return st;
}

static keps_status run_alloc(mdav_run *r, const double *x, keps_mdav_result *out)
{
    size_t n = out->n, m = out->m, k = out->k;
    r->n = n;
    r->m = m;
    r->k = k;
    r->nrem = n;
    r->z = malloc(n * m * sizeof *r->z);
    r->idx = malloc(n * sizeof *r->idx);
    r->total = calloc(m, sizeof *r->total);
    r->point = calloc(m, sizeof *r->point);
    r->merged = malloc((size_t)MAX_THREADS * k * sizeof *r->merged);
    r->gpos = malloc(2 * k * sizeof *r->gpos);
    r->group = out->group;
    int ok = r->z && r->idx && r->total && r->point && r->merged && r->gpos;
    for (int t = 0; t < MAX_THREADS && ok; t++) {
        r->sc.a[t].heap = malloc(k * sizeof *r->sc.a[t].heap);
        ok = r->sc.a[t].heap != NULL;
    }
    if (!ok)
        return KEPS_ENOMEM;
    r->sc.m = m;
    r->sc.stride = n;
    if (!(r->sc.csum = calloc((size_t)MAX_CHUNKS * m, sizeof *r->sc.csum)))
        return KEPS_ENOMEM;
    r->sc.kk = k - 1;
    for (size_t i = 0; i < n; i++) {
        r->idx[i] = (uint32_t)i;
        for (size_t j = 0; j < m; j++)
            r->z[j * n + i] = zval(x[i * m + j], out->mean[j], out->sd[j]);
    }
    return KEPS_OK;
}

static void run_free(mdav_run *r)
{
    free(r->z);
    free(r->idx);
    free(r->total);
    free(r->point);
    free(r->merged);
    free(r->sc.csum);
    free(r->gpos);
    for (int t = 0; t < MAX_THREADS; t++) {
        free(r->sc.a[t].heap);
    }
}

static void set_centroid_point(mdav_run *r)
{
    for (size_t j = 0; j < r->m; j++)
        r->point[j] = r->total[j] / (double)r->nrem;
}

/* KEPS_OK, or KEPS_ECANCEL when the caller's progress hook cancelled (it
 * hears of the loop every 1% of the records: a few groups, so that a hook
 * that costs a call into Python stays unmeasurable). */
static keps_status mdav_loop(mdav_run *r)
{
    size_t k = r->k;
    /* initial sum of all records (the centroid of the first round) */
    run_scan(r, r->point, SIZE_MAX, 0, 1);
    size_t n = r->nrem, step = n / 100 + 1, next = step;
    while (r->nrem >= 3 * k) {
        if (n - r->nrem >= next) {
            if (keps_progress("mdav", (double)(n - r->nrem), (double)n))
                return KEPS_ECANCEL;
            next += step;
        }
        set_centroid_point(r);
        cand far = run_scan(r, r->point, SIZE_MAX, 0, 0);
        cand s = group_around(r, far.pos, 0);
        /* group s's neighbours; the fused sum covers the records left
         * before s's group goes, and take_group subtracts that group */
        group_around(r, s.pos, 1);
    }
    if (r->nrem >= 2 * k) {
        set_centroid_point(r);
        cand far = run_scan(r, r->point, SIZE_MAX, 0, 0);
        group_around(r, far.pos, 0);
    }
    if (r->nrem > 0) {
        for (size_t i = 0; i < r->nrem; i++)
            r->gpos[i] = (uint32_t)i;
        take_group(r, r->nrem);
    }
    return KEPS_OK;
}

/* ---- MDAV on a k-d tree ----
 *
 * The same rounds as mdav_loop, with the tree (mdav_index.c) answering the
 * queries; the scan's array is kept in step (each group is taken out of it
 * by take_group, in the same order), so that group ids are the same and
 * the scan's centroid can be recomputed when it is needed.
 *
 * The centroid. mdav_loop's centroid is T/nrem, T the sum of the remaining
 * records as the scan adds it up (chunked, blocked, in array order, then the
 * last s-group subtracted): one O(n) pass per round, the cost this path
 * avoids. Here the sum A is kept in long double, updated as records leave
 * and recomputed from the tree whenever half of the records left since the
 * last time. Both differ from the exact sum S by at most a known bound
 * (Higham's for a summation tree: gamma_D * sum |z|, D the most additions
 * a term goes through), so T/nrem and A/nrem differ per attribute by at
 * most delta_j, and then any distance to the two centroids by at most M
 * (mdav_fast_margin). If the farthest record from A/nrem beats every record
 * with other coordinates by more than 2M, it is the farthest from T/nrem
 * too (duplicates tie to any point and are decided by row either way).
 * Otherwise (ties in exact arithmetic, where rounding decides) the scan's
 * sum is computed as the scan does it and the tree is asked again with
 * T/nrem: the answer is then the scan's by construction. */

typedef struct mdav_fast {
    mdav_run *r;
    mdav_index *ix;
    long double *sum, *abs; /* [m] running sum of z over the tree's records; magnitudes */
    double *abs_hi;         /* [m] bound on sum |z| over the records at the last recount */
    size_t nref, ops;       /* records at the last recount; records taken out since */
    uint32_t *pending;      /* [k] the last s-group, still in the scan's array */
    size_t npending;
    uint32_t *members;      /* [k] a group being formed */
    cand *knn;              /* [k] */
    double *pz, *cz;        /* [m] a group's centre; the approximate centroid */
    size_t fallbacks;
    size_t last_recenter;
} mdav_fast;
#ifndef RECENTER_DIV
#define RECENTER_DIV 32
#endif

static _Atomic size_t mdav_fallbacks_last;
static int mdav_method_forced; /* 0: by size; 1 scan; 2 tree */

void mdav_set_method(int method)
{
    mdav_method_forced = method;
}

size_t mdav_last_fallbacks(void)
{
    return atomic_load(&mdav_fallbacks_last);
}

/* gamma_D = D u / (1 - D u): a bound on the relative error of D roundings */
static double gamma_of(double u, double d)
{
    double g = d * u;
    return g < 0.5 ? g / (1 - g) : INFINITY;
}

static void fast_recount(mdav_fast *f)
{
    size_t live = mdav_index_live(f->ix);
    mdav_index_sums(f->ix, f->sum, f->abs);
    f->nref = live;
    f->ops = 0;
    double g = gamma_of(LDBL_EPSILON / 2, (double)live);
    for (size_t j = 0; j < f->r->m; j++) {
        f->abs_hi[j] = (double)f->abs[j] * (1 + 2 * g) * (1 + 2 * DBL_EPSILON) + DBL_TRUE_MIN;
        f->cz[j] = live ? (double)(f->sum[j] / (long double)live) : 0;
    }
    mdav_index_recenter(f->ix, f->cz);
    f->last_recenter = live;
}

/* The s-group of the last round leaves the scan's array (it left the tree
 * when it was formed). */
static void fast_take_pending(mdav_fast *f)
{
    mdav_run *r = f->r;
    if (!f->npending)
        return;
    for (size_t i = 0; i < f->npending; i++)
        r->gpos[i] = r->pos_of[f->pending[i]];
    take_group(r, f->npending);
    f->npending = 0;
}

/* slack = 2M, doubled for safety: no record with other coordinates may
 * come within it of the farthest record from cz (see above). */
static double fast_slack(mdav_fast *f)
{
    mdav_run *r = f->r;
    size_t m = r->m, nrem = mdav_index_live(f->ix), g = f->npending;
    const double u = DBL_EPSILON / 2, ul = LDBL_EPSILON / 2;
    double ga = gamma_of(ul, (double)(f->nref + f->ops));
    /* the scan's sum: blocked four-lane sums of <= 64 terms, pairs, <= 2^20
     * blocks per chunk, <= 64 chunks, then the g subtractions */
    double gt = gamma_of(u, 200.0 + (double)(nrem + g) / 256.0 + (double)g);
    double reach = mdav_index_reach(f->ix, f->cz), mterm = 0;
    for (size_t j = 0; j < m; j++) {
        double pend = 0;
        for (size_t i = 0; i < g; i++)
            pend += fabs(r->z[j * r->n + r->pos_of[f->pending[i]]]);
        double ea = ga * f->abs_hi[j];
        double s = (double)fabsl(f->sum[j]) * (1 + 2 * u) + ea;
        double et = gt * (f->abs_hi[j] + pend * (1 + (double)(g + 2) * u));
        double delta = (u * (s + et) + et + (u + ul) * (s + ea) * (1 + u) + ea) / (double)nrem;
        delta = 4 * delta + 4 * DBL_TRUE_MIN;
        mterm += delta * (2 * sqrt(reach) * (1 + 1e-6) + delta);
    }
    double M = mterm + 2 * gamma_of(u, (double)m + 2) * reach + 4 * (double)m * DBL_TRUE_MIN;
    return 4 * M;
}

/* The record farthest from the scan's centroid of the remaining records. */
static uint32_t fast_centroid_farthest(mdav_fast *f)
{
    mdav_run *r = f->r;
    size_t live = mdav_index_live(f->ix), m = r->m;
    if (2 * live <= f->nref)
        fast_recount(f);
    for (size_t j = 0; j < m; j++)
        f->cz[j] = (double)(f->sum[j] / (long double)live);
    if (f->last_recenter - live >= live / RECENTER_DIV) {
        mdav_index_recenter(f->ix, f->cz);
        f->last_recenter = live;
    }
    double second, slack = fast_slack(f);
    cand best = mdav_index_farthest(f->ix, f->cz, slack, &second);
    if (second < best.d - slack) {
        fast_take_pending(f);
        return best.idx;
    }
    /* the scan's sum: over its array, which still holds the last s-group,
     * and that group subtracted (mdav_loop's order exactly) */
    f->fallbacks++;
    run_scan(r, r->point, SIZE_MAX, 0, 1);
    fast_take_pending(f);
    set_centroid_point(r);
    return mdav_index_farthest(f->ix, r->point, 0, NULL).idx;
}

/* Groups record c with its k-1 nearest remaining records (out of the tree
 * at once; out of the scan's array now, or at the next round when defer);
 * returns the remaining record farthest from c when want_far. */
static uint32_t fast_group(mdav_fast *f, uint32_t c, int defer, int want_far)
{
    mdav_run *r = f->r;
    size_t m = r->m, kk = r->k - 1;
    mdav_index_point(f->ix, c, f->pz);
    mdav_index_remove(f->ix, c);
    size_t nk = mdav_index_nearest(f->ix, f->pz, kk, f->knn);
    uint32_t *members = defer ? f->pending : f->members;
    members[0] = c;
    for (size_t i = 0; i < nk; i++) {
        members[i + 1] = f->knn[i].idx;
        mdav_index_remove(f->ix, f->knn[i].idx);
    }
    for (size_t i = 0; i <= nk; i++)
        for (size_t j = 0; j < m; j++)
            f->sum[j] -= (long double)r->z[j * r->n + r->pos_of[members[i]]];
    f->ops += nk + 1;
    if (defer) {
        f->npending = nk + 1;
    } else {
        for (size_t i = 0; i <= nk; i++)
            r->gpos[i] = r->pos_of[members[i]];
        take_group(r, nk + 1);
    }
    if (!want_far || mdav_index_live(f->ix) == 0)
        return UINT32_MAX;
    return mdav_index_farthest(f->ix, f->pz, 0, NULL).idx;
}

static keps_status mdav_fast_loop(mdav_run *r)
{
    size_t n = r->n, m = r->m, k = r->k;
    mdav_fast f;
    memset(&f, 0, sizeof f);
    f.r = r;
    f.ix = mdav_index_new(r->z, n, m);
    f.sum = malloc(2 * m * sizeof *f.sum);
    f.abs_hi = malloc(m * sizeof *f.abs_hi);
    f.pending = malloc(2 * k * sizeof *f.pending);
    f.members = f.pending ? f.pending + k : NULL;
    f.knn = malloc(k * sizeof *f.knn);
    f.pz = malloc(2 * m * sizeof *f.pz);
    r->pos_of = malloc(n * sizeof *r->pos_of);
    keps_status st = KEPS_ENOMEM;
    if (f.ix && f.sum && f.abs_hi && f.pending && f.knn && f.pz && r->pos_of) {
        f.abs = f.sum + m;
        f.cz = f.pz + m;
        for (size_t i = 0; i < n; i++)
            r->pos_of[i] = (uint32_t)i;
        fast_recount(&f);
        size_t step = n / 100 + 1, next = step;
        while (mdav_index_live(f.ix) >= 3 * k) {
            size_t live = mdav_index_live(f.ix);
            if (n - live >= next) {
                if (keps_progress("mdav", (double)(n - live), (double)n))
                    break; /* cancelled: st says so below */
                next += step;
            }
            uint32_t s = fast_group(&f, fast_centroid_farthest(&f), 0, 1);
            fast_group(&f, s, 1, 0);
        }
        if (keps_progress_cancelled()) {
            st = KEPS_ECANCEL;
        } else {
            if (mdav_index_live(f.ix) >= 2 * k)
                fast_group(&f, fast_centroid_farthest(&f), 0, 0);
            fast_take_pending(&f);
            for (size_t i = 0; i < r->nrem; i++)
                r->gpos[i] = (uint32_t)i;
            if (r->nrem > 0)
                take_group(r, r->nrem);
            atomic_store(&mdav_fallbacks_last, f.fallbacks);
            st = KEPS_OK;
        }
    }
    mdav_index_free(f.ix);
    free(f.sum);
    free(f.abs_hi);
    free(f.pending);
    free(f.knn);
    free(f.pz);
    free(r->pos_of);
    r->pos_of = NULL;
    return st;
}

/* The tree pays when the remaining records are many and few attributes
 * (measured: docs/benchmarks.md); both give the same groups. */
static int use_tree(size_t n, size_t m)
{
    if (mdav_method_forced)
        return mdav_method_forced == 2;
    return n >= MDAV_TREE_MIN_N && m <= MDAV_TREE_MAX_M;
}

keps_status keps_mdav(const double *x, size_t n, size_t m, size_t k, keps_mdav_result *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_args(x, n, m, k, err);
    if (st || (st = result_alloc(out, n, m, k, err)))
        return st;
    moments(x, n, m, out->mean, out->sd);
    if (k == 1) {
        /* every record is its own group (MDAV would find the same
         * partition in O(n^2)); ids in row order */
        for (size_t i = 0; i < n; i++)
            out->group[i] = (uint32_t)i;
        out->ngroups = n;
        return finish(x, out, err);
    }
    mdav_run r;
    memset(&r, 0, sizeof r);
    if (run_alloc(&r, x, out)) {
        run_free(&r);
        keps_mdav_result_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    pool_start(&r.pl, mdav_threads, &r.sc, scan_begin, scan_chunk);
    if (use_tree(n, m))
        st = mdav_fast_loop(&r);
    else
        st = mdav_loop(&r);
    pool_stop(&r.pl);
    out->ngroups = r.ngroups;
    run_free(&r);
    if (st) {
        keps_mdav_result_free(out);
        return keps_error_set(err, st, st == KEPS_ECANCEL ? "cancelled" : "out of memory");
    }
    return finish(x, out, err);
}

/* ---- insensitive MDAV ---- */

/* One record in the total order: distance to R, then raw values, then row. */
typedef struct okey {
    double key;
    const double *row;
    uint32_t m, idx;
} okey;

static int cmp_order(const void *a, const void *b)
{
    const okey *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    for (uint32_t t = 0; t < x->m; t++)
        if (x->row[t] != y->row[t])
            return x->row[t] < y->row[t] ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

keps_status keps_mdav_insensitive(const double *x, size_t n, size_t m, size_t k, const double *lo,
                                  const double *hi, keps_mdav_result *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_args(x, n, m, k, err);
    if (st)
        return st;
    if ((lo == NULL) != (hi == NULL))
        return keps_error_set(err, KEPS_EINPUT, "insensitive MDAV: give both domain bounds lo and hi, or neither");
    for (size_t j = 0; lo && j < m; j++)
        if (!isfinite(lo[j]) || !isfinite(hi[j]) || lo[j] > hi[j])
            return keps_error_set(err, KEPS_EINPUT,
                                  "insensitive MDAV: domain bounds of attribute %zu are [%g, %g]; need finite "
                                  "lo <= hi",
                                  j + 1, lo[j], hi[j]);
    if ((st = result_alloc(out, n, m, k, err)))
        return st;
    moments(x, n, m, out->mean, out->sd);
    okey *ord = malloc(n * sizeof *ord);
    double *base = malloc(2 * m * sizeof *base);
    if (!ord || !base) {
        free(ord);
        free(base);
        keps_mdav_result_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    double *blo = base, *bw = base + m;
    for (size_t j = 0; j < m; j++) {
        double a = lo ? lo[j] : x[j], b = hi ? hi[j] : x[j];
        for (size_t i = 0; !lo && i < n; i++) {
            a = fmin(a, x[i * m + j]);
            b = fmax(b, x[i * m + j]);
        }
        blo[j] = a;
        bw[j] = b - a;
    }
    for (size_t i = 0; i < n; i++) {
        double d = 0;
        for (size_t j = 0; j < m; j++) {
            if (!(bw[j] > 0))
                continue;
            double u = (x[i * m + j] - blo[j]) / bw[j];
            d += u * u;
        }
        ord[i] = (okey){d, x + i * m, (uint32_t)m, (uint32_t)i};
    }
    qsort(ord, n, sizeof *ord, cmp_order);
    size_t ng = n / k;
    for (size_t p = 0; p < n; p++) {
        size_t g = p / k;
        out->group[ord[p].idx] = (uint32_t)(g < ng ? g : ng - 1);
    }
    out->ngroups = ng;
    free(ord);
    free(base);
    return finish(x, out, err);
}

void keps_mdav_result_free(keps_mdav_result *r)
{
    if (!r)
        return;
    free(r->group);
    free(r->size);
    free(r->centroid);
    free(r->mean);
    free(r->sd);
    memset(r, 0, sizeof *r);
}

/* Centroid strings, formatted once per group and attribute. */
typedef struct mdav_rel {
    const keps_mdav_result *r;
    int *attr_of; /* [ncols] attribute index or -1 */
    char *text;   /* [ngroups * m] fixed-width slots */
} mdav_rel;

#define MDAV_SLOT 32 /* keps_format_number's bound */

static const char *mdav_cell(void *ctx, size_t row, size_t col)
{
    mdav_rel *c = ctx;
    int a = c->attr_of[col];
    return a < 0 ? NULL : c->text + ((size_t)c->r->group[row] * c->r->m + (size_t)a) * MDAV_SLOT;
}

keps_status keps_mdav_release(const keps_schema *s, const size_t *cols, const keps_mdav_result *r,
                              keps_table **release, keps_error *err)
{
    *release = NULL;
    size_t ncols = s->t->ncols, nt = r->ngroups * r->m;
    mdav_rel c = {r, malloc((ncols ? ncols : 1) * sizeof(int)), malloc((nt ? nt : 1) * MDAV_SLOT)};
    keps_status st = c.attr_of && c.text ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_release_attr_columns(s, cols, r->n, r->m, c.attr_of, "mdav release", err);
    for (size_t i = 0; i < nt && !st; i++)
        if (keps_format_number_in(c.text + i * MDAV_SLOT, MDAV_SLOT, r->centroid[i], s->t) < 0) /* never release inf */
            st = keps_release_check_finite(r->centroid, nt, "mdav centroids", err);
    if (!st)
        st = keps_release_build(s, mdav_cell, &c, release, err);
    free(c.attr_of);
    free(c.text);
    return st;
}

keps_status keps_mdav_matrix(keps_table *t, const size_t *cols, size_t m, double **x, keps_error *err)
{
    *x = NULL;
    for (size_t j = 0; j < m; j++) {
        keps_status st = keps_table_numeric(t, cols[j], err);
        if (st)
            return st;
        const keps_column *c = &t->cols[cols[j]];
        if (c->missing != KEPS_NONE && c->missing_count > 0)
            return keps_table_cell_error(err, t, cols[j], c->first_row[c->missing],
                                         "missing value; microaggregation needs a number in every cell "
                                         "(remove or impute the row first)");
    }
    size_t n = t->nrows;
    double *a = malloc((n > 0 ? n * m : 1) * sizeof *a);
    if (!a)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < m; j++) {
        const keps_column *c = &t->cols[cols[j]];
        for (size_t i = 0; i < n; i++)
            a[i * m + j] = c->num[c->codes[i]];
    }
    *x = a;
    return KEPS_OK;
}

void keps_mdav_column(const double *x, size_t n, size_t m, size_t j, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = x[i * m + j];
}
