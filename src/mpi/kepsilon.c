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

int kmpi_kepsilon_check(const kmpi_dp *dp, int say)
{
    if (dp->scale && strcmp(dp->scale, "ec") && strcmp(dp->scale, "global")) {
        if (say)
            fprintf(stderr, "keps-mpi: --scale '%s': keps-mpi takes ec or global (domain, with --bounds, runs in "
                            "keps on one machine)\n",
                    dp->scale);
        return 2;
    }
    return 0;
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
 * ARE terms are each owner's mean times its cells), the largest epsilon. */
enum { S_CLASSES, S_RELEASED, S_LINKED, S_N }; /* then per column: scale sum, exp, meas, cells, noiseless */
static void merge(kmpi *mp, const keps_kepsilon_result *r, size_t nin, const double *xin, size_t m, double *sum,
                  double *eps)
{
    size_t len = S_N + 5 * m;
    double *mine = calloc(len, sizeof *mine);
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (nin) {
        mine[S_CLASSES] = (double)r->nclasses;
        mine[S_RELEASED] = (double)r->released;
        mine[S_LINKED] = (double)r->linked;
        for (size_t j = 0; j < m; j++) {
            double *c = mine + S_N + 5 * j, cells = 0;
            for (size_t k = 0; k < r->nclasses; k++)
                c[0] += r->scale[k * m + j];
            for (size_t i = 0; i < nin; i++)
                cells += xin[j * nin + i] != 0;
            c[1] = r->expected_are_col[j] * cells;
            c[2] = r->measured_are_col[j] * cells;
            c[3] = cells;
            c[4] = (double)cmd_kepsilon_noiseless_rows(r, j);
        }
    }
    MPI_Reduce(mine, sum, (int)len, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double e = nin ? r->epsilon_used : 0;
    MPI_Reduce(&e, eps, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    free(mine);
    (void)mp;
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
    g->linked = g->linked_before_confident = (size_t)sum[S_LINKED];
    g->linking_risk = g->linking_risk_before_confident = N ? (double)g->linked / (double)N : 0;
    g->epsilon_used = fmax(eps, p->epsilon);
    g->mean_scale = calloc(m, sizeof *g->mean_scale);
    g->expected_are_col = calloc(m, sizeof *g->expected_are_col);
    g->measured_are_col = calloc(m, sizeof *g->measured_are_col);
    if (!g->mean_scale || !g->expected_are_col || !g->measured_are_col)
        return KEPS_ENOMEM;
    for (size_t j = 0; j < m; j++) {
        const double *c = sum + S_N + 5 * j;
        g->mean_scale[j] = g->nclasses ? c[0] / (double)g->nclasses : 0;
        g->expected_are_col[j] = c[3] ? c[1] / c[3] : 0;
        g->measured_are_col[j] = c[3] ? c[2] / c[3] : 0;
        g->expected_are += g->expected_are_col[j] / (double)m;
        g->measured_are += g->measured_are_col[j] / (double)m;
    }
    g->expected_are_before_confident = g->expected_are;
    g->measured_are_before_confident = g->measured_are;
    return KEPS_OK;
}

static void report(kmpi *mp, keps_json *j, const kmpi_node *nd, const keps_kepsilon_params *p,
                   const keps_kepsilon_result *g, const double *sum, const keps_counts *n, const double *bytes,
                   const double *phmax, long rss)
{
    const keps_schema *s = nd->s;
    const keps_table *t = s->t;
    const keps_ola_result *res = nd->res;
    keps_json_object(j, NULL);
    keps_json_str(j, "keps_version", keps_version());
    keps_json_str(j, "method", "kepsilon");
    keps_json_bool(j, "seeded", nd->seed != NULL);
    keps_json_str(j, "algorithm", "ola");
    cmd_report_counts(j, n);
    keps_json_int(j, "k_anonymization_suppressed_rows", (long long)n->suppressed_rows);
    keps_json_object(j, "noiseless_rows");
    for (size_t a = 0; a < s->nnoisy; a++) {
        size_t z = (size_t)sum[S_N + 5 * a + 4];
        const char *name = t->cols[s->noisy[a]].name;
        keps_json_int(j, name, (long long)z);
        if (z) /* a privacy warning, as keps kepsilon gives it: even with --quiet */
            fprintf(stderr, "keps-mpi kepsilon: warning: %zu released rows get no noise on %s: their class holds "
                            "one value of it (diameter 0, so scale 0), and they are released exactly; a larger -k "
                            "makes it rarer\n",
                    z, name);
    }
    keps_json_end(j);
    cmd_kepsilon_json(j, t, s->noisy, (size_t)nd->k, p, g);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < nd->q; i++)
        keps_json_int(j, t->cols[s->qi[i].col].name, nd->levels[i]);
    keps_json_end(j);
    cmd_objective obj = {.cfg = keps_metric_config_default(KEPS_METRIC_LOSS)};
    cmd_objective_json(j, s, &obj, res->score, res->score_len, res->attributes);
    keps_json_object(j, "k_anonymization_metrics");
    for (int k = 0; k < KEPS_METRIC_COUNT; k++)
        keps_json_num(j, keps_metric_name((keps_metric)k), res->metrics.v[k]);
    keps_json_end(j);
    keps_json_int(j, "nodes_evaluated", (long long)res->nodes_evaluated);
    kmpi_report_mpi(j, nd->mode, nd->nfiles, nd->distinct, nd->suppressed_tuples, bytes, phmax, rss);
    keps_json_end(j);
    (void)mp;
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

int kmpi_kepsilon(kmpi *mp, kmpi_node *nd, const kmpi_dp *dp)
{
    keps_table *t = nd->t;
    const keps_schema *s = nd->s;
    size_t n = t->nrows, q = nd->q, m = s->nnoisy;
    int P = mp->size;
    keps_error err = {0};
    double t0 = kmpi_now_ms();
    unsigned long long mark = mp->bytes_sent;
    double *x = NULL, *lo = NULL, *hi = NULL;
    int *digits = calloc(m + 1, sizeof *digits), *dmine = calloc(m + 1, sizeof *dmine);
    uint8_t *supp = malloc(n + 1);
    uint32_t *g = malloc((n * q + 1) * sizeof *g), *tu = malloc((q + 1) * sizeof *tu);
    lo = malloc((m + 1) * sizeof *lo);
    hi = malloc((m + 1) * sizeof *hi);
    if (!digits || !dmine || !supp || !g || !tu || !lo || !hi)
        MPI_Abort(MPI_COMM_WORLD, 3);
    keps_status st = noisy_values(nd, &x, &err);
    if (!kmpi_all_ok(mp, st)) {
        free(digits), free(dmine), free(supp), free(g), free(tu), free(lo), free(hi), free(x);
        return kmpi_fail(mp, st, &err);
    }
    /* the precision the noisy values are rounded to: the input's, over all ranks */
    for (size_t j = 0; j < m; j++)
        dmine[j] = keps_table_decimals(t, s->noisy[j]);
    MPI_Allreduce(dmine, digits, (int)m, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* suppressed rows, generalized tuples; the released range of each column */
    for (size_t j = 0; j < m; j++)
        lo[j] = INFINITY, hi[j] = -INFINITY;
    for (size_t r = 0; r < n; r++) {
        for (size_t i = 0; i < q; i++) {
            uint32_t code = t->cols[nd->kc[i].col].codes[r];
            tu[i] = nd->kc[i].local[code];
            g[r * q + i] = s->qi[i].map[nd->levels[i]][code];
        }
        supp[r] = kmpi_freq_find(nd->sup, tu) >= 0;
        for (size_t j = 0; j < m && !supp[r]; j++)
            lo[j] = fmin(lo[j], x[j * n + r]), hi[j] = fmax(hi[j], x[j * n + r]);
    }
    keps_kepsilon_params p = {.k = (size_t)nd->k, .epsilon = dp->epsilon, .digits = digits,
                              .scale = dp->scale && !strcmp(dp->scale, "global") ? KEPS_KSCALE_GLOBAL : KEPS_KSCALE_EC};
    keps_kepsilon_params run = p;
    if (p.scale == KEPS_KSCALE_GLOBAL) { /* the data set's diameter, as bounds of scale domain */
        MPI_Allreduce(MPI_IN_PLACE, lo, (int)m, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, hi, (int)m, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        run.scale = KEPS_KSCALE_DOMAIN;
        run.lo = lo;
        run.hi = hi;
    }
    /* every released record to its class's owner */
    kmpi_rows *out = calloc((size_t)P, sizeof *out), in = {0}, back_in = {0};
    if (!out)
        MPI_Abort(MPI_COMM_WORLD, 3);
    size_t rec = q * sizeof(uint32_t) + m * sizeof(double);
    for (size_t r = 0; r < n; r++) {
        if (supp[r])
            continue;
        kmpi_rows *o = &out[owner(g + r * q, q, P)];
        put(o, g + r * q, q * sizeof *g);
        for (size_t j = 0; j < m; j++)
            put(o, &x[j * n + r], sizeof(double));
        o->n++;
    }
    unsigned long long *from = counts_from(out, P);
    kmpi_exchange(mp, out, &in);
    for (int d = 0; d < P; d++)
        kmpi_rows_free(&out[d]);
    /* the owner's classes: keps_kepsilon_run on them */
    size_t nin = in.n;
    uint32_t *keys = malloc((nin * q + 1) * sizeof *keys), *cls = malloc((nin + 1) * sizeof *cls);
    double *xin = malloc((nin * m + 1) * sizeof *xin);
    if (!keys || !cls || !xin)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t i = 0; i < nin; i++) {
        const char *b = in.buf + i * rec;
        for (size_t k = 0; k < q; k++)
            memcpy(&keys[k * nin + i], b + k * sizeof(uint32_t), sizeof(uint32_t));
        for (size_t j = 0; j < m; j++)
            memcpy(&xin[j * nin + i], b + q * sizeof(uint32_t) + j * sizeof(double), sizeof(double));
    }
    kmpi_rows_free(&in);
    keps_kepsilon_result r = {0};
    if (nin && keps_classes_from_keys(keys, nin, q, NULL, cls) == (size_t)-1)
        st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    if (!st && nin)
        st = keps_kepsilon_run(cls, nin, xin, m, &run, nd->rng, &r, &err);
    if (!kmpi_all_ok(mp, st)) { /* e.g. a scale the sampler cannot draw: nothing is written */
        keps_kepsilon_result_free(&r);
        free(keys), free(cls), free(xin), free(from), free(out);
        free(digits), free(dmine), free(supp), free(g), free(tu), free(lo), free(hi), free(x);
        return kmpi_fail(mp, st, &err);
    }
    /* each record's noisy values back to its rank, in the order received */
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
    double *sum = calloc(S_N + 5 * m, sizeof *sum), eps = 0;
    if (!sum)
        MPI_Abort(MPI_COMM_WORLD, 3);
    merge(mp, &r, nin, xin, m, sum, &eps);
    keps_kepsilon_result_free(&r);
    free(keys), free(cls), free(xin);
    /* this rank's rows with their noisy values: the release */
    size_t *cur = calloc((size_t)P, sizeof *cur), sent = 0;
    unsigned long long *to = calloc((size_t)P, sizeof *to);
    keps_kepsilon_result mine = {.n = n, .m = m};
    mine.cls = malloc((n + 1) * sizeof *mine.cls);
    mine.noisy = malloc((n * m + 1) * sizeof *mine.noisy);
    if (!cur || !to || !mine.cls || !mine.noisy)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t r2 = 0; r2 < n; r2++)
        if (!supp[r2])
            to[owner(g + r2 * q, q, P)]++;
    for (int d = 0; d < P; d++) { /* where the values from rank d start */
        cur[d] = sent;
        sent += (size_t)to[d] * m * sizeof(double);
    }
    keps_counts cnt = {.input_rows = n};
    for (size_t r2 = 0; r2 < n; r2++) {
        mine.cls[r2] = supp[r2] ? KEPS_NONE : 0;
        cnt.suppressed_rows += supp[r2];
        if (supp[r2]) {
            for (size_t j = 0; j < m; j++)
                mine.noisy[j * n + r2] = NAN;
            continue;
        }
        int d = owner(g + r2 * q, q, P);
        for (size_t j = 0; j < m; j++, cur[d] += sizeof(double))
            memcpy(&mine.noisy[j * n + r2], back_in.buf + cur[d], sizeof(double));
    }
    kmpi_rows_free(&back_in);
    keps_table *gen = NULL, *rel = NULL;
    st = generalized(nd, supp, &gen, &err);
    if (!st)
        st = keps_kepsilon_release(s, &mine, gen, nd->remove_suppressed, &rel, &err);
    keps_table_free(gen);
    free(mine.cls), free(mine.noisy), free(cur), free(to), free(from);
    free(x), free(supp), free(g), free(tu), free(dmine), free(out);
    nd->bytes[4] = kmpi_bytes_since(mp, &mark);
    nd->ph[PH_APPLY] = kmpi_now_ms() - t0;
    cnt.output_rows = rel ? rel->nrows : 0;
    cnt.removed_rows = nd->remove_suppressed ? cnt.suppressed_rows : 0;
    /* the global shuffle and the shards, as anonymize writes them */
    keps_counts all;
    int rc = kmpi_shuffle_write(mp, nd, st, &err, rel, &cnt, &all);
    keps_table_free(rel);
    if (!rc && mp->rank == 0) {
        keps_kepsilon_result gr;
        keps_json j;
        keps_json_init(&j);
        if (global_result(sum, eps, m, all.input_rows, &p, &gr)) {
            fprintf(stderr, "keps-mpi: out of memory\n");
            rc = 3;
        } else {
            report(mp, &j, nd, &p, &gr, sum, &all, nd->bytes, nd->phmax, nd->rss);
        }
        rc = kmpi_finish(mp, nd, rc ? NULL : keps_json_text(&j), "kepsilon", &all);
        keps_kepsilon_result_free(&gr);
        keps_json_free(&j);
    } else if (!rc) {
        rc = kmpi_finish(mp, nd, NULL, "kepsilon", &all);
    }
    free(sum), free(digits), free(lo), free(hi);
    return rc;
}
