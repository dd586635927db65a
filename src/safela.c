/* epsilon-safe lattice anonymization (SPEC 6): sampling, node scores over
 * the sample (lattice.h roll-ups), exponential mechanism (expmech.h),
 * release. The delta calculator is safela_delta.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keps/expmech.h"
#include "keps/lattice.h"
#include "keps/safela.h"
#include "keps/sample.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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
static int view_order(view *v, const keps_schema *s)
{
    v->qi = malloc((s->nqi ? s->nqi : 1) * sizeof *v->qi);
    v->perm = malloc((s->nqi ? s->nqi : 1) * sizeof *v->perm);
    if (!v->qi || !v->perm)
        return -1;
    for (size_t i = 0; i < s->nqi; i++) { /* insertion sort, stable */
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

static int view_init(view *v, const keps_schema *s, const uint8_t *keep, int reorder)
{
    const keps_table *t = s->t;
    v->t = *t;
    v->s = *s;
    v->s.t = &v->t;
    v->cols = calloc(t->ncols ? t->ncols : 1, sizeof *v->cols);
    if (!v->cols || (reorder && view_order(v, s)))
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
    uint64_t *ostride; /* [j] schema stride of the j-th QI in scan order */
} score_ctx;

/* Scan callback (full or even scan): the node's suppressed rows, stored
 * under its id in the schema's QI order. */
static int score_cb(const keps_node_info *ni, int thread, void *ud)
{
    const score_ctx *x = ud;
    uint64_t id = 0;
    for (size_t j = 0; j < x->sc->q; j++)
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
    keps_lattice *L = NULL;
    keps_status st = KEPS_OK;
    uint64_t *stride = NULL, *ostride = NULL;
    int *lv = NULL;
    if (view_init(&v, s, keep, 1)) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory sampling the rows");
        goto out;
    }
    if ((st = keps_lattice_new(&v.s, &L, err)))
        goto out;
    size_t q = L->q;
    sc->nnodes = L->nnodes;
    sc->q = q;
    sc->rows = L->nrows;
    sc->height = malloc(q * sizeof *sc->height);
    sc->gen = malloc(L->nnodes * sizeof *sc->gen);
    sc->supp = calloc(L->nnodes, sizeof *sc->supp);
    sc->u = malloc(L->nnodes * sizeof *sc->u);
    sc->interpolated = calloc(L->nnodes, 1);
    stride = malloc(q * sizeof *stride);
    ostride = malloc(q * sizeof *ostride);
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
    for (size_t j = 0; j < q; j++)
        ostride[j] = stride[v.perm[j]];
    score_ctx x = {sc, ostride};
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

/* Class of every kept row at node lv, and whether it is smaller than k;
 * then appends the kept rows, generalized or suppressed, to r->release. */
static keps_status build_release(const keps_schema *s, const uint8_t *keep, const int *lv, size_t k, int remove,
                                 keps_safela_result *r, keps_error *err)
{
    view v = {0};
    keps_lattice *L = NULL;
    keps_lattice_work *w = NULL;
    keps_node_classes cl;
    keps_node_classes_init(&cl);
    uint32_t *assign = NULL;
    const char **fields = NULL;
    keps_status st = KEPS_OK;
    if (view_init(&v, s, keep, 0) || (st = keps_lattice_new(&v.s, &L, err)) || !(w = keps_lattice_work_new(L)) ||
        !(assign = malloc((L->bottom.n + 1) * sizeof *assign)) ||
        !(fields = malloc((s->t->ncols + 1) * sizeof *fields)) ||
        keps_lattice_rollup(L, w, NULL, lv, &cl, assign)) {
        if (!st)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory building the release");
        goto out;
    }
    if (!(r->release = keps_release_new(s, err))) {
        st = err ? err->code : KEPS_ENOMEM;
        goto out;
    }
    const keps_table *t = s->t;
    size_t vr = 0;
    for (size_t row = 0; row < t->nrows && !st; row++) {
        if (keep && !keep[row])
            continue;
        int small = cl.count[assign[L->row_class[vr++]]] < k;
        r->counts.suppressed_rows += small;
        if (small && remove) {
            r->counts.removed_rows++;
            continue;
        }
        size_t nf = 0;
        for (size_t j = 0; j < t->ncols; j++) {
            if (!keps_schema_released(s, j))
                continue;
            const char *val = keps_table_str(t, j, row);
            for (size_t i = 0; i < s->nqi; i++)
                if (s->qi[i].col == j)
                    val = small ? "*" : keps_hierarchy_label(s->qi[i].h, lv[i], s->qi[i].map[lv[i]][t->cols[j].codes[row]]);
            fields[nf++] = val;
        }
        st = keps_table_append(r->release, fields, NULL, 0, err);
    }
    r->counts.output_rows = r->release->nrows;
out:
    free(fields);
    free(assign);
    keps_node_classes_free(&cl);
    keps_lattice_work_free(w);
    keps_lattice_free(L);
    view_free(&v);
    return st;
}

static keps_status check_params(const keps_schema *s, const keps_safela_params *p, uint64_t *num, uint64_t *den,
                                keps_error *err)
{
    if (p->k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1 (-k)");
    if (!p->beta)
        return keps_error_set(err, KEPS_EINPUT, "the sampling probability beta is required (--beta)");
    int rc = keps_parse_probability(p->beta, num, den, err);
    if (rc)
        return (keps_status)rc;
    if (*num == 0 || *num >= *den)
        return keps_error_set(err, KEPS_EINPUT,
                              "--beta %s: the sampling probability must be strictly between 0 and 1 (beta = 1 gives "
                              "epsilon = infinity)",
                              p->beta);
    /* the exponential mechanism needs both finite: inf would weigh every
     * node but the best by exp(-inf) (and f = inf makes du infinite) */
    if (!(p->epsilon_prime > 0) || !isfinite(p->epsilon_prime))
        return keps_error_set(err, KEPS_EINPUT, "--epsilon-prime %g: expected a finite number > 0", p->epsilon_prime);
    if (!(p->penalty > 0) || !isfinite(p->penalty))
        return keps_error_set(err, KEPS_EINPUT, "--penalty %g: expected a finite number > 0", p->penalty);
    if (s->nqi == 0)
        return keps_error_set(err, KEPS_EINPUT, "no quasi-identifier: give --qi NAME:HIERARCHY.csv");
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
     * which SPEC's eps' covers only when f >= 1/k (every f >= 1, like the
     * default 2). Below that the stated guarantee uses the larger value. */
    double k = (double)p->k;
    r->epsilon_prime_effective = p->epsilon_prime * fmax(1.0, (k + 1.0 / p->penalty) / (2.0 * k));
    double gap = NAN;
    if (!isnan(p->epsilon))
        gap = p->epsilon - r->epsilon_prime_effective;
    if ((st = keps_safela_delta((long)p->k, r->beta, gap, &r->delta, err)))
        return st;
    r->epsilon = r->epsilon_prime_effective + r->delta.eps_gap;
    size_t nrows = s->t->nrows;
    uint8_t *keep = malloc(nrows ? nrows : 1);
    keps_safela_scores sc = {0};
    double *prob = NULL;
    if (!keep)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    double t0 = now_ms();
    r->sample_size = keps_sample_bernoulli(rng, nrows, num, den, keep);
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
    st = build_release(s, keep, r->levels, p->k, p->remove_suppressed, r, err);
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
