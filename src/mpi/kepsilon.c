/* keps-mpi kepsilon: Holohan et al.'s (k,epsilon)-anonymity (docs/spec.md,
 * section 4) on the ranks, by the OLA node main.c found and broadcast.
 *
 * A class's Laplace scale is m*diam(class)/epsilon, read from every record
 * of the class, and the linking risk compares a record with the others of
 * its class: so each class is brought whole to one rank. Every rank sends
 * each released record (its generalized QI tuple and its noisy values) to
 * the rank owning its class (a hash of the tuple); the owner runs the
 * library's keps_kepsilon_run on its classes with its own stream (kmpi_rng)
 * and sends each record's noisy values back to the rank it came from, in
 * the order received; that rank builds its release rows with
 * keps_kepsilon_release, and the rows go through the global shuffle.
 * --scale global: the diameter over all released records (a min and a max
 * reduction), given to the owners as the bounds of scale domain, whose scale
 * m*(hi-lo)/epsilon is then the global one. Rank 0 merges the owners'
 * figures (class and row counts, sums of scales and of ARE terms, the
 * largest epsilon) into the single run's report (cmd_kepsilon_json). */
#include "kmpi.h"

#include "command/kdp.h"
#include "keps/command.h"
#include "keps/json.h"
#include "keps/kepsilon.h"
#include "keps/metrics.h"
#include "keps/version.h"
#include "partition_internal.h"
#include "table_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* What kmpi_kepsilon_check read, through keps kepsilon's own functions on
 * a context of its parameters (command/kdp.h): the same checks, defaults
 * and messages as `keps kepsilon`. */
struct kmpi_kparams {
    keps_args *a;
    keps_host host;
    keps_result res;          /* the context's errors */
    cmd_ctx *c;
    keps_kepsilon_params p;   /* confidence, scale, clamp; bounds by kmpi_kepsilon_prepare */
    cmd_objective obj;        /* OLA's quality model; weights by kmpi_kepsilon_prepare */
    long threads;             /* rank 0's search (0: the library's default) */
    double *bounds;           /* [2m] lo, hi */
    int say;
};

/* keps-mpi spells parameters as keps does: -k, --epsilon. */
static const char *spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    snprintf(buf, len, "%s%s", strlen(name) == 1 ? "-" : "--", name);
    return buf;
}

static void message(void *ud, keps_msg_kind kind, const char *text)
{
    const struct kmpi_kparams *kp = ud;
    if (kp->say && (kind == KEPS_MSG_PRIVACY || !kp->host.quiet))
        fprintf(stderr, "keps-mpi kepsilon: %s\n", text);
}

/* The context's error into err (and out of the context). */
static keps_status take_error(struct kmpi_kparams *kp, keps_status st, keps_error *err)
{
    keps_error_set(err, st ? st : KEPS_EINPUT, "%s", kp->res.error ? kp->res.error : "failed");
    free(kp->res.error);
    kp->res.error = NULL;
    return err->code;
}

int kmpi_kepsilon_check(const kmpi *m, kmpi_dp *dp, int say)
{
    struct kmpi_kparams *kp = dp->kp = calloc(1, sizeof *kp);
    /* keps kepsilon's context of the user's parameters: its own readers
     * check them, with its defaults and messages */
    if (!kp || !(kp->a = kmpi_args(m->args, NULL)))
        return 3;
    kp->say = say;
    kp->host = (keps_host){.message = message, .spell = spell, .ud = kp};
    if (!(kp->c = cmd_ctx_new("kepsilon", kp->a, &kp->host, &kp->res)))
        return 3;
    int *d = NULL;
    if (!kp->res.error && !cmd_kepsilon_noise_options(kp->c, &kp->p) && !cmd_objective_read(kp->c, &kp->obj) &&
        cmd_long(kp->c, "threads", 1, 64, 0, &kp->threads) >= 0)
        cmd_digits(kp->c, NULL, NULL, 0, &d); /* the value's checks: the columns come later */
    free(d);
    if (kp->res.error && say)
        fprintf(stderr, "keps-mpi kepsilon: %s\n", kp->res.error);
    return kp->res.error ? 2 : 0;
}

keps_status kmpi_kepsilon_prepare(kmpi *mp, const kmpi_dp *dp, const keps_schema *s,
                                  const keps_metric_config **objective, int *threads, keps_error *err)
{
    struct kmpi_kparams *kp = dp->kp;
    if (!(kp->bounds = malloc((2 * s->nnoisy + 1) * sizeof *kp->bounds)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st = cmd_objective_weights(kp->c, s, &kp->obj);
    if (!st)
        st = cmd_kepsilon_bounds(kp->c, s, &kp->p, kp->bounds);
    *objective = &kp->obj.cfg;
    *threads = (int)kp->threads;
    if (!st)
        return KEPS_OK;
    take_error(kp, st, err);
    if (mp->rank != 0) /* every rank has the same header and options: rank 0 says it */
        err->msg[0] = '\0';
    return err->code;
}

void kmpi_kepsilon_free(kmpi_dp *dp)
{
    struct kmpi_kparams *kp = dp->kp;
    if (!kp)
        return;
    cmd_objective_free(&kp->obj);
    cmd_ctx_free(kp->c);
    keps_result_free(&kp->res);
    keps_args_free(kp->a);
    free(kp->bounds);
    free(kp);
    dp->kp = NULL;
}

/* The owner of a class: FNV-1a of its generalized tuple, modulo P. */
static int owner(const uint32_t *g, size_t q, int P)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < q; i++)
        for (int b = 0; b < 4; b++)
            h = (h ^ ((g[i] >> (8 * b)) & 0xff)) * 1099511628211ULL;
    return (int)(h % (uint64_t)P);
}

/* The noisy columns as numbers, x[j*n + i]; a missing or non-numeric cell
 * is named with its shard's file and line. */
static keps_status noisy_values(const kmpi_node *nd, double **x, keps_error *err)
{
    keps_table *t = nd->t;
    const keps_schema *s = nd->s;
    size_t n = t->nrows, m = s->nnoisy;
    if (!(*x = malloc((n * m + 1) * sizeof **x)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st = KEPS_OK;
    for (size_t j = 0; j < m && !st; j++) {
        if (n && (st = keps_schema_numeric(s, t, s->noisy[j], "noise is added to numbers", err))) /* no rows: nothing to check */
            break;
        for (size_t i = 0; i < n && !st; i++) {
            double v = keps_table_num(t, s->noisy[j], i);
            (*x)[j * n + i] = v;
            if (isnan(v)) {
                char *source = t->source;
                const char *p = kmpi_part_of(nd->parts, nd->nparts, i);
                if (p)
                    t->source = (char *)p;
                st = keps_table_cell_error(err, t, s->noisy[j], i,
                                           "missing value; noise needs a number in every row (remove the row or "
                                           "impute first)");
                t->source = source;
            }
        }
    }
    return st;
}

/* The merged figures: sums over the owners (exact for the counts; the
 * ARE terms are each owner's mean times its cells), the largest epsilon.
 * c-confidence and its metrics are class by class, so each owner's figures
 * add up as its classes' do. */
enum { S_CLASSES, S_RELEASED, S_LINKED, S_LINKED_BEFORE, S_CONF_ROWS, S_CONF_RECORDS, S_CONF_CLASSES, S_N };
/* then per column: */
enum { C_SCALE, C_EXP, C_MEAS, C_CELLS, C_NOISELESS, C_EXP_BEFORE, C_MEAS_BEFORE, C_CELLS_BEFORE, C_CLAMPED, C_N };
static void merge(const keps_kepsilon_result *r, size_t nin, const double *xin, size_t m, double *sum, double *eps)
{
    size_t len = S_N + C_N * m;
    double *mine = calloc(len, sizeof *mine);
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (nin) {
        mine[S_CLASSES] = (double)r->nclasses;
        mine[S_RELEASED] = (double)r->released;
        mine[S_LINKED] = (double)r->linked;
        mine[S_LINKED_BEFORE] = (double)r->linked_before_confident;
        mine[S_CONF_ROWS] = (double)r->confident_suppressed_rows;
        mine[S_CONF_RECORDS] = (double)r->confident_suppressed_records;
        mine[S_CONF_CLASSES] = (double)r->confident_suppressed_classes;
        for (size_t j = 0; j < m; j++) {
            double *c = mine + S_N + C_N * j, cells = 0, before = 0;
            for (size_t k = 0; k < r->nclasses; k++)
                c[C_SCALE] += r->scale[k * m + j];
            /* the cells the library's ARE is a mean over: x != 0, and not
             * withheld by c-confidence (before it: every x != 0) */
            for (size_t i = 0; i < nin; i++) {
                before += xin[j * nin + i] != 0;
                cells += xin[j * nin + i] != 0 && !(r->confident_suppressed && r->confident_suppressed[i]);
            }
            c[C_EXP] = r->expected_are_col[j] * cells;
            c[C_MEAS] = r->measured_are_col[j] * cells;
            c[C_CELLS] = cells;
            c[C_NOISELESS] = (double)cmd_kepsilon_noiseless_rows(r, j);
            c[C_EXP_BEFORE] = r->expected_are_col_before_confident[j] * before;
            c[C_MEAS_BEFORE] = r->measured_are_col_before_confident[j] * before;
            c[C_CELLS_BEFORE] = before;
            c[C_CLAMPED] = r->clamped ? (double)r->clamped[j] : 0;
        }
    }
    MPI_Reduce(mine, sum, (int)len, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double e = nin ? r->epsilon_used : 0;
    MPI_Reduce(&e, eps, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    free(mine);
}

/* Rank 0: the result of the whole run, as keps_kepsilon_run would give it
 * on the concatenated input (metrics only). */
static keps_status global_result(const double *sum, double eps, size_t m, size_t N, const keps_kepsilon_params *p,
                                 keps_kepsilon_result *g)
{
    memset(g, 0, sizeof *g);
    g->n = N;
    g->m = m;
    g->nclasses = (size_t)sum[S_CLASSES];
    g->released = (size_t)sum[S_RELEASED];
    g->linked = (size_t)sum[S_LINKED];
    g->linked_before_confident = (size_t)sum[S_LINKED_BEFORE];
    g->linking_risk = N ? (double)g->linked / (double)N : 0;
    g->linking_risk_before_confident = N ? (double)g->linked_before_confident / (double)N : 0;
    g->confident_suppressed_rows = (size_t)sum[S_CONF_ROWS];
    g->confident_suppressed_records = (size_t)sum[S_CONF_RECORDS];
    g->confident_suppressed_classes = (size_t)sum[S_CONF_CLASSES];
    g->epsilon_used = fmax(eps, p->epsilon);
    g->mean_scale = calloc(m, sizeof *g->mean_scale);
    g->expected_are_col = calloc(m, sizeof *g->expected_are_col);
    g->measured_are_col = calloc(m, sizeof *g->measured_are_col);
    /* the report reads the flags' presence only (c-confidence was on) */
    if (p->confidence > 0 && !(g->confident_suppressed = calloc(1, 1)))
        return KEPS_ENOMEM;
    if (p->clamp && !(g->clamped = calloc(m, sizeof *g->clamped)))
        return KEPS_ENOMEM;
    if (!g->mean_scale || !g->expected_are_col || !g->measured_are_col)
        return KEPS_ENOMEM;
    for (size_t j = 0; j < m; j++) {
        const double *c = sum + S_N + C_N * j;
        g->mean_scale[j] = g->nclasses ? c[C_SCALE] / (double)g->nclasses : 0;
        g->expected_are_col[j] = c[C_CELLS] ? c[C_EXP] / c[C_CELLS] : 0;
        g->measured_are_col[j] = c[C_CELLS] ? c[C_MEAS] / c[C_CELLS] : 0;
        g->expected_are += g->expected_are_col[j] / (double)m;
        g->measured_are += g->measured_are_col[j] / (double)m;
        g->expected_are_before_confident += (c[C_CELLS_BEFORE] ? c[C_EXP_BEFORE] / c[C_CELLS_BEFORE] : 0) / (double)m;
        g->measured_are_before_confident += (c[C_CELLS_BEFORE] ? c[C_MEAS_BEFORE] / c[C_CELLS_BEFORE] : 0) / (double)m;
        if (g->clamped)
            g->clamped[j] = (size_t)c[C_CLAMPED];
    }
    return KEPS_OK;
}

static keps_status report(keps_json *j, const kmpi_node *nd, const kmpi_dp *dp, const keps_kepsilon_params *p,
                          const keps_kepsilon_result *g, const double *sum, const keps_counts *n)
{
    const keps_schema *s = nd->s;
    const keps_table *t = s->t;
    const keps_ola_result *res = nd->res;
    size_t m = s->nnoisy, *z = malloc((m + 1) * sizeof *z);
    if (!z)
        return KEPS_ENOMEM;
    keps_json_object(j, NULL);
    keps_json_str(j, "keps_version", keps_version());
    keps_json_str(j, "method", "kepsilon");
    keps_json_bool(j, "seeded", nd->seed != NULL);
    keps_json_str(j, "algorithm", "ola");
    cmd_report_counts(j, n);
    keps_json_int(j, "k_anonymization_suppressed_rows", (long long)(n->suppressed_rows - g->confident_suppressed_rows));
    for (size_t a = 0; a < m; a++)
        z[a] = (size_t)sum[S_N + C_N * a + C_NOISELESS];
    cmd_kepsilon_noiseless_json(dp->kp->c, j, t, s->noisy, m, z);
    free(z);
    cmd_kepsilon_json(j, t, s->noisy, (size_t)nd->k, p, g);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < nd->q; i++)
        keps_json_int(j, t->cols[s->qi[i].col].name, nd->levels[i]);
    keps_json_end(j);
    cmd_objective_json(j, s, &dp->kp->obj, res->score, res->score_len, res->attributes);
    keps_json_object(j, "k_anonymization_metrics");
    for (int k = 0; k < KEPS_METRIC_COUNT; k++)
        keps_json_num(j, keps_metric_name((keps_metric)k), res->metrics.v[k]);
    keps_json_end(j);
    keps_json_int(j, "nodes_evaluated", (long long)res->nodes_evaluated);
    kmpi_report_mpi(j, nd->mode, nd->nfiles, nd->distinct, nd->suppressed_tuples, nd->bytes, nd->phmax, nd->rss);
    keps_json_end(j);
    return KEPS_OK;
}

/* The release's labels for this rank's rows: the node's labels, '*' in the
 * QIs of a suppressed tuple, every other released column as it stands (the
 * table keps_kepsilon_release reads the QIs from). */
static keps_status generalized(const kmpi_node *nd, const uint8_t *supp, keps_table **gen, keps_error *err)
{
    const keps_schema *s = nd->s;
    const keps_table *t = nd->t;
    size_t *cols = NULL;
    int *qi = NULL;
    if (!(*gen = kmpi_release_new(s, &cols, &qi, err)))
        return err->code ? err->code : KEPS_ENOMEM;
    size_t nf = (*gen)->ncols;
    const char **fields = malloc((nf + 1) * sizeof *fields);
    keps_status st = fields ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t r = 0; !st && r < t->nrows; r++) {
        for (size_t x = 0; x < nf; x++) {
            size_t j = cols[x];
            int i = qi[x];
            uint32_t code = t->cols[j].codes[r];
            fields[x] = i < 0      ? t->cols[j].values[code]
                        : supp[r] ? "*"
                                  : keps_hierarchy_label(s->qi[i].h, nd->levels[i],
                                                         s->qi[i].map[nd->levels[i]][code]);
        }
        st = keps_table_append(*gen, fields, NULL, 0, err);
    }
    free(fields), free(cols), free(qi);
    return st;
}

static void put(kmpi_rows *r, const void *data, size_t len)
{
    if (r->cap - r->len < len) {
        size_t cap = r->cap ? 2 * r->cap : 1 << 16;
        while (cap - r->len < len)
            cap *= 2;
        char *b = realloc(r->buf, cap);
        if (!b)
            MPI_Abort(MPI_COMM_WORLD, 3);
        r->buf = b;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, len);
    r->len += len;
}

/* Records received from each rank (the exchange keeps each sender's order):
 * in[s] of them from rank s. */
static unsigned long long *counts_from(const kmpi_rows *out, int P)
{
    unsigned long long *o = malloc((size_t)P * sizeof *o), *in = malloc((size_t)P * sizeof *in);
    if (!o || !in)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int d = 0; d < P; d++)
        o[d] = out[d].n;
    MPI_Alltoall(o, 1, MPI_UNSIGNED_LONG_LONG, in, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    free(o);
    return in;
}

/* A released value outside its --bounds (scale domain, clamp), named by
 * its shard's file, line and column as keps kepsilon names it. */
static keps_status check_bounds(const kmpi_node *nd, struct kmpi_kparams *kp, const keps_kepsilon_params *p,
                                const uint32_t *cls, const double *x, keps_error *err)
{
    keps_table *t = nd->t;
    size_t row, j;
    if (!cmd_kepsilon_outside(p, t->nrows, nd->s->nnoisy, cls, x, &row, &j))
        return KEPS_OK;
    char *source = t->source;
    const char *part = kmpi_part_of(nd->parts, nd->nparts, row);
    if (part)
        t->source = (char *)part;
    keps_status st = cmd_kepsilon_outside_error(kp->c, nd->s, p, row, j, x[j * t->nrows + row]);
    t->source = source;
    return take_error(kp, st, err);
}

int kmpi_kepsilon(kmpi *mp, kmpi_node *nd, const kmpi_dp *dp)
{
    keps_table *t = nd->t;
    const keps_schema *s = nd->s;
    struct kmpi_kparams *kp = dp->kp;
    size_t n = t->nrows, q = nd->q, m = s->nnoisy;
    int P = mp->size, rc = 0;
    keps_error err = {0};
    double t0 = kmpi_now_ms();
    unsigned long long mark = mp->bytes_sent, *from = NULL, *to = NULL;
    double *x = NULL, *xin = NULL, *sum = NULL, eps = 0;
    double *lo = malloc((m + 1) * sizeof *lo), *hi = malloc((m + 1) * sizeof *hi), *diam = malloc((m + 1) * sizeof *diam);
    int *digits = calloc(m + 1, sizeof *digits), *dmine = NULL;
    uint8_t *supp = malloc(n + 1);
    uint32_t *g = malloc((n * q + 1) * sizeof *g), *tu = malloc((q + 1) * sizeof *tu), *keys = NULL, *cls = NULL;
    size_t *cur = NULL;
    kmpi_rows *out = calloc((size_t)P, sizeof *out), in = {0}, back_in = {0};
    keps_kepsilon_result mine = {.n = n, .m = m}, r = {0};
    mine.cls = malloc((n + 1) * sizeof *mine.cls);
    mine.noisy = malloc((n * m + 1) * sizeof *mine.noisy);
    if (!digits || !supp || !g || !tu || !lo || !hi || !diam || !out || !mine.cls || !mine.noisy)
        MPI_Abort(MPI_COMM_WORLD, 3);
    keps_status st = noisy_values(nd, &x, &err);
    /* the precision the noisy values are rounded to: --digits, or the
     * input's (the most decimals any rank's cells have) */
    if (!st && cmd_digits(kp->c, t, s->noisy, m, &dmine))
        st = take_error(kp, KEPS_ENOMEM, &err);
    if (!kmpi_all_ok(mp, st))
        goto fail;
    MPI_Allreduce(dmine, digits, (int)m, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* suppressed rows, generalized tuples; the released range of each column */
    for (size_t j = 0; j < m; j++)
        lo[j] = INFINITY, hi[j] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        for (size_t a = 0; a < q; a++) {
            uint32_t code = t->cols[nd->kc[a].col].codes[i];
            tu[a] = nd->kc[a].local[code];
            g[i * q + a] = s->qi[a].map[nd->levels[a]][code];
        }
        supp[i] = kmpi_freq_find(nd->sup, tu) >= 0;
        mine.cls[i] = supp[i] ? KEPS_NONE : 0;
        for (size_t j = 0; j < m && !supp[i]; j++)
            lo[j] = fmin(lo[j], x[j * n + i]), hi[j] = fmax(hi[j], x[j * n + i]);
    }
    /* the single run's parameters (kmpi_kepsilon_check, _prepare) */
    keps_kepsilon_params p = kp->p;
    p.k = (size_t)nd->k;
    p.epsilon = dp->epsilon;
    p.digits = digits;
    st = check_bounds(nd, kp, &p, mine.cls, x, &err);
    if (!kmpi_all_ok(mp, st))
        goto fail;
    keps_kepsilon_params run = p;
    if (p.scale == KEPS_KSCALE_GLOBAL) { /* the data set's diameter: a min and a max reduction */
        MPI_Allreduce(MPI_IN_PLACE, lo, (int)m, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, hi, (int)m, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        for (size_t j = 0; j < m; j++)
            diam[j] = hi[j] >= lo[j] ? hi[j] - lo[j] : 0;
        run.diameter = diam;
    }
    /* every released record to its class's owner */
    size_t rec = q * sizeof(uint32_t) + m * sizeof(double);
    for (size_t i = 0; i < n; i++) {
        if (supp[i])
            continue;
        kmpi_rows *o = &out[owner(g + i * q, q, P)];
        put(o, g + i * q, q * sizeof *g);
        for (size_t j = 0; j < m; j++)
            put(o, &x[j * n + i], sizeof(double));
        o->n++;
    }
    from = counts_from(out, P);
    kmpi_exchange(mp, out, &in);
    for (int d = 0; d < P; d++)
        kmpi_rows_free(&out[d]);
    /* the owner's classes: keps_kepsilon_run on them */
    size_t nin = in.n;
    keys = malloc((nin * q + 1) * sizeof *keys);
    cls = malloc((nin + 1) * sizeof *cls);
    xin = malloc((nin * m + 1) * sizeof *xin);
    if (!keys || !cls || !xin)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t i = 0; i < nin; i++) {
        const char *b = in.buf + i * rec;
        for (size_t a = 0; a < q; a++)
            memcpy(&keys[a * nin + i], b + a * sizeof(uint32_t), sizeof(uint32_t));
        for (size_t j = 0; j < m; j++)
            memcpy(&xin[j * nin + i], b + q * sizeof(uint32_t) + j * sizeof(double), sizeof(double));
    }
    kmpi_rows_free(&in);
    if (nin && keps_classes_from_keys(keys, nin, q, NULL, cls) == (size_t)-1)
        st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    if (!st && nin)
        st = keps_kepsilon_run(cls, nin, xin, m, &run, nd->rng, &r, &err);
    if (!kmpi_all_ok(mp, st)) /* e.g. a scale the sampler cannot draw: nothing is written */
        goto fail;
    /* each record's noisy values back to its rank, in the order received
     * (NAN: withheld, c-confidence suppressed it) */
    size_t at = 0;
    for (int src = 0; src < P; src++) {
        for (unsigned long long k = 0; k < from[src]; k++, at++)
            for (size_t j = 0; j < m; j++)
                put(&out[src], &r.noisy[j * nin + at], sizeof(double));
        out[src].n = (size_t)from[src];
    }
    kmpi_exchange(mp, out, &back_in);
    for (int d = 0; d < P; d++)
        kmpi_rows_free(&out[d]);
    if (!(sum = calloc(S_N + C_N * m, sizeof *sum)))
        MPI_Abort(MPI_COMM_WORLD, 3);
    merge(&r, nin, xin, m, sum, &eps);
    /* this rank's rows with their noisy values: the release */
    cur = calloc((size_t)P, sizeof *cur);
    to = calloc((size_t)P, sizeof *to);
    if (!cur || !to || (p.confidence > 0 && !(mine.confident_suppressed = calloc(n + 1, 1))))
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t i = 0; i < n; i++)
        if (!supp[i])
            to[owner(g + i * q, q, P)]++;
    size_t sent = 0;
    for (int d = 0; d < P; d++) { /* where the values from rank d start */
        cur[d] = sent;
        sent += (size_t)to[d] * m * sizeof(double);
    }
    keps_counts cnt = {.input_rows = n};
    for (size_t i = 0; i < n; i++) {
        cnt.suppressed_rows += supp[i];
        if (supp[i]) {
            for (size_t j = 0; j < m; j++)
                mine.noisy[j * n + i] = NAN;
            continue;
        }
        int d = owner(g + i * q, q, P);
        for (size_t j = 0; j < m; j++, cur[d] += sizeof(double))
            memcpy(&mine.noisy[j * n + i], back_in.buf + cur[d], sizeof(double));
        if (mine.confident_suppressed && isnan(mine.noisy[i])) {
            mine.confident_suppressed[i] = 1;
            cnt.suppressed_rows++;
        }
    }
    kmpi_rows_free(&back_in);
    keps_table *gen = NULL, *rel = NULL;
    st = generalized(nd, supp, &gen, &err);
    if (!st)
        st = keps_kepsilon_release(s, &mine, gen, nd->remove_suppressed, &rel, &err);
    keps_table_free(gen);
    nd->bytes[4] = kmpi_bytes_since(mp, &mark);
    nd->ph[PH_APPLY] = kmpi_now_ms() - t0;
    cnt.output_rows = rel ? rel->nrows : 0;
    cnt.removed_rows = nd->remove_suppressed ? cnt.suppressed_rows : 0;
    /* the global shuffle and the shards, as anonymize writes them */
    keps_counts all;
    rc = kmpi_shuffle_write(mp, nd, st, &err, rel, &cnt, &all);
    keps_table_free(rel);
    if (!rc && mp->rank == 0) {
        keps_kepsilon_result gr;
        keps_json j;
        keps_json_init(&j);
        if (global_result(sum, eps, m, all.input_rows, &p, &gr) || report(&j, nd, dp, &p, &gr, sum, &all)) {
            fprintf(stderr, "keps-mpi: out of memory\n");
            rc = 3;
        }
        rc = kmpi_finish(mp, nd, rc ? NULL : keps_json_text(&j), "kepsilon", &all);
        keps_kepsilon_result_free(&gr);
        keps_json_free(&j);
    } else if (!rc) {
        rc = kmpi_finish(mp, nd, NULL, "kepsilon", &all);
    }
    goto done;
fail:
    rc = kmpi_fail(mp, st, &err);
done:
    keps_kepsilon_result_free(&r);
    free(mine.cls), free(mine.noisy), free(mine.confident_suppressed);
    free(x), free(xin), free(sum), free(lo), free(hi), free(diam), free(digits), free(dmine), free(supp), free(g);
    free(tu), free(keys), free(cls), free(cur), free(to), free(from), free(out);
    return rc;
}
