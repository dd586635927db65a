/* epsilon-safe lattice anonymization (docs/spec.md 6): sampling, node scores over
 * the sample (lattice.h roll-ups), exponential mechanism (expmech.h),
 * release. The delta calculator is safela_delta.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keps/expmech.h"
#include "keps/release.h"
#include "keps/lattice.h"
#include "keps/partition.h"
#include "keps/safela.h"
#include "keps/sample.h"
#include "fp_up.h"
#include "partition_internal.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ------------------------------------------------- the released tuple */

/* Li, Qardaji and Su's guarantee is about the released tuples: every
 * released tuple must be shared by k of them, or an attribute released
 * raw beside the generalized QIs singles its record out (a column holding
 * one unique value showed it in half the releases). So every column the
 * release holds besides the QIs (sensitive, insensitive, --others keep)
 * joins the equivalence-class key at level 0: it is never generalized, and
 * a record whose class over the QIs and those columns is smaller than k is
 * suppressed like any other. Each such column becomes an extra QI of
 * height 0 after the real ones, with a one-level hierarchy of the column's
 * own dictionary: the lattice reads only a hierarchy's level sizes and the
 * maps, so the hierarchy is a shell (one level of nvalues values) and the
 * map the identity. Height 0 leaves the node ids, G and the heights of the
 * real QIs as they were. */
typedef struct tuple_key {
    keps_schema s;      /* s's QIs, then the extras */
    keps_qi *qi;
    size_t nreal;       /* the real QIs come first */
    size_t nextra;
    keps_table *shell;  /* [nextra] one-column tables: level 0's size only */
    keps_column *shcol; /* [nextra] */
    keps_hierarchy *h;  /* [nextra] */
    uint32_t **ident;   /* [nextra] identity maps, ident[e][v] = v */
    uint32_t ***maps;   /* [nextra] the map of extra e: &ident[e] */
} tuple_key;

static void tuple_key_free(tuple_key *k)
{
    for (size_t e = 0; k->ident && e < k->nextra; e++)
        free(k->ident[e]);
    free(k->ident);
    free(k->maps);
    free(k->h);
    free(k->shcol);
    free(k->shell);
    free(k->qi);
    memset(k, 0, sizeof *k);
}

static int tuple_key_init(tuple_key *k, const keps_schema *s)
{
    memset(k, 0, sizeof *k);
    const keps_table *t = s->t;
    size_t ne = 0;
    for (size_t j = 0; j < t->ncols; j++)
        ne += keps_schema_released(s, j) && s->role[j] != KEPS_ROLE_QUASI;
    k->s = *s;
    k->nreal = s->nqi;
    k->nextra = ne;
    size_t m = ne ? ne : 1;
    k->qi = malloc((s->nqi + ne) * sizeof *k->qi);
    k->shell = calloc(m, sizeof *k->shell);
    k->shcol = calloc(m, sizeof *k->shcol);
    k->h = calloc(m, sizeof *k->h);
    k->ident = calloc(m, sizeof *k->ident);
    k->maps = calloc(m, sizeof *k->maps);
    if (!k->qi || !k->shell || !k->shcol || !k->h || !k->ident || !k->maps)
        return -1;
    memcpy(k->qi, s->qi, s->nqi * sizeof *k->qi);
    size_t e = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        if (!keps_schema_released(s, j) || s->role[j] == KEPS_ROLE_QUASI)
            continue;
        uint32_t nv = t->cols[j].nvalues;
        if (!(k->ident[e] = malloc((nv ? nv : 1) * sizeof **k->ident)))
            return -1;
        for (uint32_t v = 0; v < nv; v++)
            k->ident[e][v] = v;
        k->shcol[e].nvalues = nv;
        k->shell[e].ncols = 1;
        k->shell[e].cols = &k->shcol[e];
        k->h[e].levels = &k->shell[e];
        k->maps[e] = &k->ident[e];
        k->qi[s->nqi + e] = (keps_qi){.col = j, .h = &k->h[e], .map = k->maps[e], .height = 0};
        e++;
    }
    k->s.qi = k->qi;
    k->s.nqi = s->nqi + ne;
    return 0;
}

/* ------------------------------------------------------- sampled view */

/* A shallow copy of s and its table restricted to the kept rows: only the
 * per-row code arrays are new (dictionaries and hierarchy maps are shared),
 * so the lattice of the sample costs one pass over the kept rows. */
typedef struct view {
    keps_table t;
    keps_column *cols;
    keps_schema s;
    keps_qi *qi;  /* the QIs in scan order */
    size_t *perm; /* perm[j] = schema index of the j-th QI in scan order */
} view;

/* Scan order: QIs with more distinct values first. The scan fixes the
 * first coordinates per task and breaks ties of its parent estimate
 * (lattice.c) towards the later, narrower QIs, so most nodes roll up from
 * a parent that differs in a narrow QI. (With the scan's older fixed tree,
 * "lower the last nonzero coordinate": cup ZIP first 13 s, ZIP last 32 s.) */
static int view_order(view *v, const keps_schema *s, size_t nreal)
{
    v->qi = malloc((s->nqi ? s->nqi : 1) * sizeof *v->qi);
    v->perm = malloc((s->nqi ? s->nqi : 1) * sizeof *v->perm);
    if (!v->qi || !v->perm)
        return -1;
    for (size_t i = nreal; i < s->nqi; i++) /* height-0 extras last: the scan splits its tasks on the first */
        v->perm[i] = i;
    for (size_t i = 0; i < nreal; i++) { /* insertion sort, stable */
        size_t j = i;
        uint32_t card = s->t->cols[s->qi[i].col].nvalues;
        while (j > 0 && s->t->cols[s->qi[v->perm[j - 1]].col].nvalues < card) {
            v->perm[j] = v->perm[j - 1];
            j--;
        }
        v->perm[j] = i;
    }
    for (size_t j = 0; j < s->nqi; j++)
        v->qi[j] = s->qi[v->perm[j]];
    v->s.qi = v->qi;
    return 0;
}

/* reorder: the nreal first QIs in scan order (view_order), else as given. */
static int view_init(view *v, const keps_schema *s, const uint8_t *keep, int reorder, size_t nreal)
{
    const keps_table *t = s->t;
    v->t = *t;
    v->s = *s;
    v->s.t = &v->t;
    v->cols = calloc(t->ncols ? t->ncols : 1, sizeof *v->cols);
    if (!v->cols || (reorder && view_order(v, s, nreal)))
        return -1;
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        n += !keep || keep[r];
    v->t.nrows = n;
    v->t.cols = v->cols;
    v->t.row_line = NULL;
    for (size_t j = 0; j < t->ncols; j++) {
        v->cols[j] = t->cols[j];
        v->cols[j].codes = NULL;
    }
    for (size_t i = 0; i < s->nqi; i++) { /* the lattice reads the QI codes only */
        size_t j = s->qi[i].col, m = 0;
        uint32_t *c = malloc((n ? n : 1) * sizeof *c);
        if (!c)
            return -1;
        for (size_t r = 0; r < t->nrows; r++)
            if (!keep || keep[r])
                c[m++] = t->cols[j].codes[r];
        v->cols[j].codes = c;
    }
    return 0;
}

static void view_free(view *v)
{
    for (size_t j = 0; v->cols && j < v->t.ncols; j++)
        free(v->cols[j].codes);
    free(v->cols);
    free(v->qi);
    free(v->perm);
}

/* ------------------------------------------------------------- scores */

void keps_safela_scores_free(keps_safela_scores *sc)
{
    free(sc->height);
    free(sc->gen);
    free(sc->supp);
    free(sc->u);
    free(sc->interpolated);
    memset(sc, 0, sizeof *sc);
}

int keps_safela_good(const keps_safela_scores *sc, uint64_t id)
{
    return sc->supp[id] < 0.15 && sc->gen[id] < 0.6;
}

/* Where a scanned node's count goes: ids of the schema's QI order. */
typedef struct score_ctx {
    keps_safela_scores *sc;
    uint64_t *ostride; /* [j] schema stride of the j-th QI in scan order (0 for an extra) */
    size_t qscan;      /* QIs scanned: the real ones and the extras (tuple_key) */
} score_ctx;

/* Scan callback (full or even scan): the node's suppressed rows, stored
 * under its id in the schema's QI order. */
static int score_cb(const keps_node_info *ni, int thread, void *ud)
{
    const score_ctx *x = ud;
    uint64_t id = 0;
    for (size_t j = 0; j < x->qscan; j++)
        id += (uint64_t)ni->levels[j] * x->ostride[j];
    x->sc->supp[id] = (double)ni->suppressed;
    (void)thread;
    return 0;
}

/* Levels of node id in the schema's QI order. */
static int decode(const keps_safela_scores *sc, uint64_t id, int *lv)
{
    int sum = 0;
    for (size_t i = 0; i < sc->q; i++) {
        lv[i] = (int)(id % (uint64_t)(sc->height[i] + 1));
        id /= (uint64_t)(sc->height[i] + 1);
        sum += lv[i];
    }
    return sum;
}

/* Odd nodes: mean u and mean S over the neighbours one level up and down. */
static void interpolate_odd(keps_safela_scores *sc, const uint64_t *stride)
{
    int *lv = malloc(sc->q * sizeof *lv);
    if (!lv)
        return;
    for (uint64_t id = 0; id < sc->nnodes; id++) {
        if (decode(sc, id, lv) % 2 == 0)
            continue;
        double su = 0, ss = 0;
        int m = 0;
        for (size_t i = 0; i < sc->q; i++) {
            if (lv[i] > 0) {
                su += sc->u[id - stride[i]];
                ss += sc->supp[id - stride[i]];
                m++;
            }
            if (lv[i] < sc->height[i]) {
                su += sc->u[id + stride[i]];
                ss += sc->supp[id + stride[i]];
                m++;
            }
        }
        /* an odd node always has the bottom side or the top side: m >= 1 */
        sc->u[id] = su / m;
        sc->supp[id] = ss / m;
        sc->interpolated[id] = 1;
    }
    free(lv);
}

/* G, S as a share, u and the evaluated count, then the interpolation. */
static void finish_scores(keps_safela_scores *sc, const uint64_t *stride, double penalty, int interpolate, int *lv)
{
    double n = sc->rows ? (double)sc->rows : 1.0;
    for (uint64_t id = 0; id < sc->nnodes; id++) {
        int sum = decode(sc, id, lv);
        double g = 0;
        for (size_t i = 0; i < sc->q; i++)
            g += sc->height[i] ? (double)lv[i] / sc->height[i] : 0.0;
        sc->gen[id] = g / (double)sc->q;
        sc->supp[id] /= n;
        sc->u[id] = -(sc->gen[id] + penalty * sc->supp[id]);
        sc->evaluated += !interpolate || sum % 2 == 0;
    }
    if (interpolate)
        interpolate_odd(sc, stride);
}

keps_status keps_safela_score(const keps_schema *s, const uint8_t *keep, size_t k, double penalty, int interpolate,
                              int nthreads, keps_safela_scores *sc, keps_error *err)
{
    memset(sc, 0, sizeof *sc);
    if (nthreads <= 0)
        nthreads = 2;
    view v = {0};
    tuple_key key;
    keps_lattice *L = NULL;
    keps_status st = KEPS_OK;
    uint64_t *stride = NULL, *ostride = NULL;
    int *lv = NULL;
    if (tuple_key_init(&key, s) || view_init(&v, &key.s, keep, 1, key.nreal)) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory sampling the rows");
        goto out;
    }
    if (s->nqi == 0) {
        st = keps_error_set(err, KEPS_EINPUT, "the lattice needs at least one quasi-identifier");
        goto out;
    }
    if ((st = keps_lattice_new(&v.s, &L, err)))
        goto out;
    size_t q = s->nqi; /* the real QIs: the extras have height 0 and add no node */
    sc->nnodes = L->nnodes;
    sc->q = q;
    sc->rows = L->nrows;
    sc->height = malloc(q * sizeof *sc->height);
    sc->gen = malloc(L->nnodes * sizeof *sc->gen);
    sc->supp = calloc(L->nnodes, sizeof *sc->supp);
    sc->u = malloc(L->nnodes * sizeof *sc->u);
    sc->interpolated = calloc(L->nnodes, 1);
    stride = malloc(q * sizeof *stride);
    ostride = malloc(L->q * sizeof *ostride);
    lv = malloc(q * sizeof *lv);
    if (!sc->height || !sc->gen || !sc->supp || !sc->u || !sc->interpolated || !stride || !ostride || !lv) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory for %llu node scores",
                            (unsigned long long)L->nnodes);
        goto out;
    }
    uint64_t m = 1;
    for (size_t i = 0; i < q; i++) { /* ids in the schema's order */
        sc->height[i] = s->qi[i].height;
        stride[i] = m;
        m *= (uint64_t)(sc->height[i] + 1);
    }
    for (size_t j = 0; j < L->q; j++)
        ostride[j] = v.perm[j] < q ? stride[v.perm[j]] : 0;
    score_ctx x = {sc, ostride, L->q};
    st = (interpolate ? keps_lattice_scan_even : keps_lattice_scan)(L, k, score_cb, &x, nthreads, err);
    if (st)
        goto out;
    finish_scores(sc, stride, penalty, interpolate, lv);
out:
    free(stride);
    free(ostride);
    free(lv);
    keps_lattice_free(L);
    view_free(&v);
    tuple_key_free(&key);
    if (st)
        keps_safela_scores_free(sc);
    return st;
}

/* ---------------------------------------------------------- mechanism */

void keps_safela_result_free(keps_safela_result *r)
{
    keps_table_free(r->release);
    free(r->levels);
    keps_safela_scores_free(&r->scores);
    free(r->probabilities);
    memset(r, 0, sizeof *r);
}

/* The release at node lv: the classes of the kept rows over the released
 * tuple (tuple_key: the QIs at lv, every other released column at level
 * 0), those smaller than k suppressed, and the node's release written by
 * keps_lattice_apply's writer with the rows not kept unsampled.
 * Suppressed rows are removed, as Li, Qardaji and Su's method does:
 * starred, their data-dependent number would show in the release (a run of
 * D = 150 Male;White, 149 Female;White and one Female;Amer-Indian-Eskimo at
 * k = 40 starred some rows and not others in ~27% of releases, never for D
 * without that row). */
static keps_status build_release(const keps_schema *s, const uint8_t *keep, const int *lv, size_t k,
                                 keps_safela_result *r, keps_error *err)
{
    view v = {0};
    tuple_key key;
    keps_lattice *L = NULL;
    keps_partition p = {0};
    int *lvk = NULL;
    const keps_table *t = s->t;
    uint32_t *class_of = malloc((t->nrows ? t->nrows : 1) * sizeof *class_of);
    keps_status st = KEPS_OK;
    if (tuple_key_init(&key, s) || !(lvk = calloc(key.s.nqi, sizeof *lvk)) || !class_of) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory building the release");
        goto out;
    }
    memcpy(lvk, lv, s->nqi * sizeof *lvk); /* the extras stay at level 0 */
    if (view_init(&v, &key.s, keep, 0, key.nreal)) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory building the release");
        goto out;
    }
    if ((st = keps_lattice_new(&v.s, &L, err)) || (st = keps_partition_from_node(L, lvk, NULL, &p, err)) ||
        (st = keps_partition_enforce(&p, NULL, k, NULL, err)))
        goto out;
    for (size_t row = 0, vr = 0; row < t->nrows; row++) /* the sample's rows back in the input's */
        class_of[row] = keep && !keep[row] ? KEPS_NONE : p.class_of[vr++];
    /* The release carries no input line numbers: the report's before/after
     * (suppressed_values) would match its rows to the input's and count
     * the rows not sampled as suppressed. */
    keps_table nolines = *t;
    nolines.row_line = NULL;
    keps_schema sl = *s;
    sl.t = &nolines;
    keps_counts c;
    if ((st = keps_node_release(&sl, NULL, t->nrows, lv, class_of, p.suppressed, keep, 1, &r->release, &c, err)))
        goto out;
    r->counts.suppressed_rows = c.suppressed_rows;
    r->counts.removed_rows = c.removed_rows;
    r->counts.output_rows = c.output_rows;
out:
    free(class_of);
    free(lvk);
    keps_partition_free(&p);
    keps_lattice_free(L);
    view_free(&v);
    tuple_key_free(&key);
    return st;
}

static keps_status check_params(const keps_schema *s, const keps_safela_params *p, uint64_t *num, uint64_t *den,
                                keps_error *err)
{
    if (p->k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1");
    if (!p->beta)
        return keps_error_set(err, KEPS_EINPUT, "the sampling probability beta is required");
    int rc = keps_parse_probability(p->beta, num, den, err);
    if (rc)
        return (keps_status)rc;
    if (*num == 0 || *num >= *den)
        return keps_error_set(err, KEPS_EINPUT,
                              "the sampling probability beta = %s must be strictly between 0 and 1 (beta = 1 gives "
                              "epsilon = infinity)",
                              p->beta);
    /* the exponential mechanism needs both finite: inf would weigh every
     * node but the best by exp(-inf) (and f = inf makes du infinite) */
    if (!(p->epsilon_prime > 0) || !isfinite(p->epsilon_prime))
        return keps_error_set(err, KEPS_EINPUT, "the exponential mechanism's epsilon' = %g: expected a finite number > 0", p->epsilon_prime);
    if (!(p->penalty > 0) || !isfinite(p->penalty))
        return keps_error_set(err, KEPS_EINPUT, "the suppression penalty f = %g: expected a finite number > 0", p->penalty);
    if (s->nqi == 0)
        return keps_error_set(err, KEPS_EINPUT, "no quasi-identifier: give at least one, with its hierarchy "
                                                "(NAME:HIERARCHY.csv)");
    return KEPS_OK;
}

keps_status keps_safela_run(const keps_schema *s, const keps_safela_params *p, keps_rng *rng,
                            keps_safela_result *r, keps_error *err)
{
    memset(r, 0, sizeof *r);
    uint64_t num, den;
    keps_status st = check_params(s, p, &num, &den, err);
    if (st)
        return st;
    r->beta = (double)num / (double)den;
    /* The exponential mechanism weighs a node by eps' u / (2 du) with
     * du = f k / n, i.e. by -(eps'/2k)(n G / f + cnt): adding a record moves
     * that by G/f + (cnt' - cnt), between -(k-1) and 1/f + 1, because the
     * sample size n moves too. So the choice costs eps' (k + 1/f) / (2k),
     * which docs/spec.md's eps' covers only when f >= 1/k (every f >= 1, like the
     * default 2). Below that the stated guarantee uses the larger value. */
    double k = (double)p->k, excess = keps_div_up(keps_add_up(k, keps_div_up(1.0, p->penalty)), 2.0 * k);
    r->epsilon_prime_effective = excess > 1.0 ? keps_mul_up(p->epsilon_prime, excess) : p->epsilon_prime;
    /* Stated epsilon: a given --epsilon is stated as given, with delta
     * computed at the gap eps - eps' rounded down (delta falls as the gap
     * grows, so it is never understated); the default eps' - ln(1 - beta)
     * is rounded up. Either way the true epsilon is at most the stated one. */
    double gap = NAN;
    if (!isnan(p->epsilon))
        gap = keps_sub_down(p->epsilon, r->epsilon_prime_effective);
    if ((st = keps_safela_delta((long)p->k, r->beta, gap, &r->delta, err)))
        return st;
    r->epsilon = isnan(p->epsilon)
                     ? keps_add_up(r->epsilon_prime_effective, nextafter(r->delta.eps_gap, INFINITY))
                     : p->epsilon;
    size_t nrows = s->t->nrows;
    uint8_t *keep = malloc(nrows ? nrows : 1);
    keps_safela_scores sc = {0};
    double *prob = NULL;
    if (!keep)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    double t0 = now_ms();
    if (p->sample) { /* drawn by the caller (keps-mpi's ranks), each row with probability beta */
        for (size_t i = 0; i < nrows; i++)
            r->sample_size += (keep[i] = p->sample[i] != 0);
    } else {
        r->sample_size = keps_sample_bernoulli(rng, nrows, num, den, keep);
    }
    r->counts.input_rows = nrows;
    r->counts.unsampled_rows = nrows - r->sample_size;
    double t1 = now_ms();
    r->ms_sample = t1 - t0;
    if (r->sample_size == 0) {
        st = keps_error_set(err, KEPS_EJOB, "the sample is empty (%zu input rows, beta %s)", nrows, p->beta);
        goto out;
    }
    if ((st = keps_safela_score(s, keep, p->k, p->penalty, p->interpolate, p->nthreads, &sc, err)))
        goto out;
    double t2 = now_ms();
    r->ms_scan = t2 - t1;
    r->nnodes = sc.nnodes;
    r->evaluated = sc.evaluated;
    /* one record changes the suppressed count by at most k: du = f k / n */
    r->sensitivity = p->penalty * (double)p->k / (double)r->sample_size;
    size_t pick = keps_expmech(rng, sc.u, (size_t)sc.nnodes, p->epsilon_prime, r->sensitivity);
    prob = malloc((size_t)sc.nnodes * sizeof *prob);
    if (pick == (size_t)-1 || !prob ||
        keps_expmech_probs(sc.u, (size_t)sc.nnodes, p->epsilon_prime, r->sensitivity, prob)) {
        st = keps_error_set(err, prob ? KEPS_EINPUT : KEPS_ENOMEM, "exponential mechanism failed");
        goto out;
    }
    for (uint64_t id = 0; id < sc.nnodes; id++)
        if (keps_safela_good(&sc, id))
            r->good_node_probability += prob[id];
    r->node = pick;
    r->utility = sc.u[pick];
    r->gen = sc.gen[pick];
    r->supp = sc.supp[pick];
    r->probability = prob[pick];
    r->levels = malloc(sc.q * sizeof *r->levels);
    if (!r->levels) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto out;
    }
    uint64_t rest = pick;
    for (size_t i = 0; i < sc.q; i++) {
        r->levels[i] = (int)(rest % (uint64_t)(sc.height[i] + 1));
        rest /= (uint64_t)(sc.height[i] + 1);
    }
    double t3 = now_ms();
    r->ms_select = t3 - t2;
    st = build_release(s, keep, r->levels, p->k, r, err);
    r->ms_release = now_ms() - t3;
    if (!st) { /* every node's figures, for the report's lattice */
        r->scores = sc;
        memset(&sc, 0, sizeof sc);
        r->probabilities = prob;
        prob = NULL;
    }
out:
    free(keep);
    free(prob);
    keps_safela_scores_free(&sc);
    if (st)
        keps_safela_result_free(r);
    return st;
}
