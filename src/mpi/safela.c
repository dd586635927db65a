/* keps-mpi safela: Li, Qardaji and Su's epsilon-safe lattice anonymization
 * (docs/spec.md, section 6) on the ranks.
 *
 * Every rank draws its own records' Bernoulli(beta) sample from its own
 * stream (kmpi_rng; the draws of all ranks together are the single run's
 * independent draw per record) and counts the sampled tuples of the class
 * key: the QIs and every other released column at level 0. The tables are
 * merged to rank 0, which expands them into the sample's key columns (4
 * bytes per key column and sampled record) and runs libkeps's
 * keps_safela_run on it with the sample given (keps_safela_params.sample):
 * the scores, the exponential mechanism (rank 0's stream), the guarantee.
 * Rank 0 broadcasts the node and the sampled tuples whose class at the node
 * holds fewer than k sampled records; every rank releases its sampled rows
 * of the other classes, generalized, and the global shuffle follows. */
#include "kmpi.h"

#include "command/guarantee.h"
#include "keps/json.h"
#include "keps/safela.h"
#include "keps/sample.h"
#include "keps/version.h"
#include "table_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The numbers of --epsilon-prime and --penalty (positive, as keps safela
 * takes them), --interpolate level|none, --beta present. */
int kmpi_safela_check(kmpi_dp *dp, int say)
{
    const char *bad = NULL;
    char *end;
    dp->epsilon_prime = 0.5;
    dp->penalty = 2.0;
    if (dp->eps_prime_text && !((dp->epsilon_prime = strtod(dp->eps_prime_text, &end)) >= 1e-300 &&
                                dp->epsilon_prime <= 1e300 && !*end))
        bad = "--epsilon-prime: give a positive number";
    else if (dp->penalty_text &&
             !((dp->penalty = strtod(dp->penalty_text, &end)) >= 1e-300 && dp->penalty <= 1e300 && !*end))
        bad = "--penalty: give a positive number";
    else if (dp->interp_text && strcmp(dp->interp_text, "level") && strcmp(dp->interp_text, "none"))
        bad = "--interpolate: give level or none";
    else if (!dp->beta)
        bad = "--beta is required (the sampling probability, e.g. --beta 0.7)";
    dp->interpolate = dp->interp_text && !strcmp(dp->interp_text, "level");
    if (bad && say)
        fprintf(stderr, "keps-mpi: %s\n", bad);
    return bad ? 2 : 0;
}

/* The class key's columns: the QIs, then every other released column. */
static char **key_names(const keps_schema *s, size_t *nrest)
{
    const keps_table *t = s->t;
    char **v = calloc(t->ncols + 1, sizeof *v);
    *nrest = 0;
    for (size_t j = 0; v && j < t->ncols; j++)
        if (keps_schema_released(s, j) && s->role[j] != KEPS_ROLE_QUASI)
            v[(*nrest)++] = t->cols[j].name;
    return v;
}

/* Rank 0: the sample's key columns as a table with the single run's schema
 * (hierarchies on the agreed values, the other columns' roles), the
 * mechanism on it, and the sampled tuples of classes below k at its node. */
static keps_status choose(const kmpi_node *nd, const keycol *kc, size_t nk, const kmpi_freq *f,
                          const keps_safela_params *p, keps_safela_result *r, keps_schema **S, kmpi_freq *sup,
                          keps_error *err)
{
    const keps_schema *s = nd->s;
    size_t q = nd->q;
    keps_table *W = NULL, *E = NULL;
    uint32_t *w = NULL;
    size_t *rows = NULL, n = 0;
    uint8_t *ones = NULL;
    keps_status st = weighted_table(s->t, kc, nk, f, &W, &w, err);
    for (size_t i = 0; !st && i < f->n; i++)
        n += w[i];
    if (!st && (!(rows = malloc((n + 1) * sizeof *rows)) || !(ones = malloc(n + 1))))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory expanding the sample");
    for (size_t i = 0, at = 0; !st && i < f->n; i++)
        for (uint32_t c = 0; c < w[i]; c++)
            rows[at++] = i;
    if (!st && !(E = keps_table_rows(W, rows, n, err)))
        st = err->code ? err->code : KEPS_ENOMEM;
    if (!st && !(*S = keps_schema_new(E)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < q; i++) {
        keps_hierarchy *h = NULL;
        if (!(st = make_hierarchy(&kc[i], &h, err)))
            st = keps_schema_add_qi_hierarchy(*S, i, h, err);
    }
    for (size_t i = q; !st && i < nk; i++) /* the other released columns, in their roles */
        if (s->role[kc[i].col] != KEPS_ROLE_NONE)
            st = keps_schema_set_role(*S, s->t->cols[kc[i].col].name, s->role[kc[i].col], err);
    if (!st) {
        (*S)->others = s->others;
        st = keps_schema_check(*S, err);
    }
    keps_safela_params pp = *p;
    if (!st) {
        memset(ones, 1, n + 1);
        pp.sample = ones;
        st = keps_safela_run(*S, &pp, nd->rng, r, err);
    }
    /* classes at the node: generalized QIs and the other columns as they are */
    kmpi_freq G = {0};
    uint32_t *g = malloc((nk + 1) * sizeof *g);
    if (!st && (!g || kmpi_freq_init(&G, nk)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    /* E's codes are its own (keps_table_rows interns anew): tuple i is E's
     * rows from the sum of the weights before it on */
    for (int pass = 0; pass < 2 && !st; pass++)
        for (size_t i = 0, at = 0; i < f->n && !st; at += w[i++]) {
            const uint32_t *tu = f->tuple + i * nk;
            for (size_t c = 0; c < nk; c++) {
                uint32_t code = E->cols[c].codes[at];
                g[c] = c < q ? (*S)->qi[c].map[r->levels[c]][code] : code;
            }
            if (pass == 0 && kmpi_freq_add(&G, g, f->count[i]) < 0)
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
            if (pass == 1 && G.count[kmpi_freq_find(&G, g)] < p->k && kmpi_freq_add(sup, tu, f->count[i]) < 0)
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        }
    kmpi_freq_free(&G);
    free(g), free(rows), free(ones), free(w);
    keps_table_free(W);
    if (!*S) /* else the schema's table, freed with it (kmpi_safela) */
        keps_table_free(E);
    return st;
}

static void report(keps_json *j, const kmpi_node *nd, const keps_schema *S, const keps_safela_result *r,
                   const keps_safela_params *p)
{
    keps_json_object(j, NULL);
    keps_json_str(j, "keps_version", keps_version());
    keps_json_str(j, "method", "safela");
    keps_json_bool(j, "seeded", nd->seed != NULL);
    cmd_report_counts(j, &r->counts);
    cmd_safela_json(j, S, r, p);
    kmpi_report_mpi(j, nd->mode, nd->nfiles, nd->distinct, nd->suppressed_tuples, nd->bytes, nd->phmax, nd->rss);
    keps_json_end(j);
}

int kmpi_safela(kmpi *mp, kmpi_node *nd, const kmpi_dp *dp)
{
    keps_table *t = nd->t;
    keps_schema *s = nd->s;
    size_t n = t->nrows, q = nd->q, nrest = 0;
    keps_error err = {0};
    unsigned long long mark = mp->bytes_sent;
    double t0 = kmpi_now_ms();
    char **rest = key_names(s, &nrest);
    size_t nk = q + nrest;
    keycol *kc = calloc(nk + 1, sizeof *kc);
    uint8_t *keep = malloc(n + 1);
    uint32_t *tu = malloc((nk + 1) * sizeof *tu);
    if (!rest || !kc || !keep || !tu)
        MPI_Abort(MPI_COMM_WORLD, 3);
    memcpy(kc, nd->kc, q * sizeof *kc); /* the QIs' agreed values: main.c's */
    keps_status st = agree(t, rest, nrest, 0, kc + q, &err);
    nd->ph[PH_ENCODE] += kmpi_now_ms() - t0;
    nd->bytes[0] += kmpi_bytes_since(mp, &mark);
    /* this rank's sample and its key tuples */
    t0 = kmpi_now_ms();
    uint64_t num = 0, den = 1;
    if (!st)
        st = keps_parse_probability(dp->beta, &num, &den, &err);
    keps_counts cnt = {.input_rows = n};
    kmpi_freq f = {0}, sup = {0};
    if (!st && (kmpi_freq_init(&f, nk) || kmpi_freq_init(&sup, nk)))
        st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    if (!st)
        cnt.output_rows = keps_sample_bernoulli(nd->rng, n, num, den, keep); /* the sample, for now */
    for (size_t r = 0; !st && r < n; r++) {
        if (!keep[r])
            continue;
        for (size_t i = 0; i < nk; i++)
            tu[i] = kc[i].local[t->cols[kc[i].col].codes[r]];
        if (kmpi_freq_add(&f, tu, 1) < 0)
            st = keps_error_set(&err, KEPS_ENOMEM, "out of memory counting tuples");
    }
    nd->ph[PH_COUNT] = kmpi_now_ms() - t0;
    keps_safela_result r = {0};
    keps_schema *S = NULL;
    int rc = 0;
    if (!kmpi_all_ok(mp, st)) {
        rc = kmpi_fail(mp, st, &err);
        goto done;
    }
    t0 = kmpi_now_ms();
    if (kmpi_freq_reduce(mp, &f))
        MPI_Abort(MPI_COMM_WORLD, 3);
    nd->ph[PH_MERGE] = kmpi_now_ms() - t0;
    nd->bytes[1] = kmpi_bytes_since(mp, &mark);
    t0 = kmpi_now_ms();
    keps_safela_params p = {.k = (size_t)nd->k, .beta = dp->beta, .epsilon_prime = dp->epsilon_prime,
                            .epsilon = dp->epsilon > 0 ? dp->epsilon : NAN, .penalty = dp->penalty,
                            .interpolate = dp->interpolate};
    if (mp->rank == 0) {
        nd->distinct = f.n;
        st = choose(nd, kc, nk, &f, &p, &r, &S, &sup, &err);
        nd->suppressed_tuples = sup.n;
    }
    int *levels = calloc(q + 1, sizeof *levels);
    int head = st;
    MPI_Bcast(&head, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (head) {
        rc = mp->rank == 0 ? kmpi_fail(mp, st, &err) : 0;
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        free(levels);
        goto done;
    }
    if (mp->rank == 0)
        memcpy(levels, r.levels, q * sizeof *levels);
    MPI_Bcast(levels, (int)q, MPI_INT, 0, MPI_COMM_WORLD);
    if (kmpi_freq_bcast(mp, &sup, 0))
        MPI_Abort(MPI_COMM_WORLD, 3);
    nd->ph[PH_SEARCH] = kmpi_now_ms() - t0;
    nd->bytes[2] = kmpi_bytes_since(mp, &mark);
    nd->levels = levels;
    /* the release: this rank's sampled rows outside the suppressed classes */
    t0 = kmpi_now_ms();
    nd->sup = &sup;
    keps_table *rel = NULL;
    st = kmpi_apply_node(nd, kc, nk, keep, 1, &rel, &cnt, &err);
    nd->sup = NULL;
    nd->ph[PH_APPLY] = kmpi_now_ms() - t0;
    keps_counts all;
    rc = kmpi_shuffle_write(mp, nd, st, &err, rel, &cnt, &all);
    keps_table_free(rel);
    if (!rc) {
        keps_json j;
        keps_json_init(&j);
        int same = 1;
        if (mp->rank == 0) { /* the ranks' count of what they left out is the mechanism's */
            same = r.counts.suppressed_rows == all.suppressed_rows && r.sample_size == all.input_rows - all.unsampled_rows;
            if (!same)
                fprintf(stderr, "keps-mpi safela: internal error: the ranks suppressed %zu of %zu sampled rows, the "
                                "mechanism %zu of %zu\n",
                        all.suppressed_rows, all.input_rows - all.unsampled_rows, r.counts.suppressed_rows,
                        r.sample_size);
            r.counts = all; /* the whole input's: the run on rank 0 saw the sample only */
            report(&j, nd, S, &r, &p);
        }
        rc = kmpi_finish(mp, nd, same ? keps_json_text(&j) : NULL, "safela", &all);
        keps_json_free(&j);
    }
    free(levels);
    nd->levels = NULL;
done:
    keps_safela_result_free(&r);
    if (S) {
        keps_table_free((keps_table *)S->t);
        keps_schema_free(S);
    }
    kmpi_freq_free(&f);
    kmpi_freq_free(&sup);
    for (size_t i = q; i < nk; i++) { /* the QIs' are main.c's */
        keps_table_free(kc[i].dict);
        free(kc[i].local);
    }
    free(kc), free(rest), free(keep), free(tu);
    return rc;
}
