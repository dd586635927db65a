/* keps-mpi rr: Ekenstedt et al.'s randomized response (docs/spec.md,
 * section 7) on the ranks: --mechanism ldp, tclose or both, the classes
 * given by the --qi values or OLA's (--partition ola), the categories
 * read from the data or declared (--domain).
 *
 * Each record is randomized on its own: RR-LDP keeps the value with
 * probability p, else draws one of the n categories uniformly; RR-t keeps
 * it with probability p_t, else takes the value of a record drawn
 * uniformly from the whole data. What that needs from the whole data is
 * the categories (the agreed values of the --sensitive columns,
 * all-gathered as for the QIs, or the declared domain: the joint codes
 * are the single run's up to their order), the number of records of each
 * category (RR-t's distribution) and the keep probabilities, which
 * --epsilon or --t choose from n, N, the distribution and the smallest
 * class. So every rank counts its (QI tuple, joint value) pairs, rank 0
 * merges them and does what keps rr does before and after drawing: OLA's
 * node on the merged QI tuples (weighted, as keps-mpi anonymize searches)
 * with --partition ola, the choice of the probabilities, the closed-form
 * levels and the levels verified on the data (it expands the merged table
 * into each record's value and class: 4 (q + 2) bytes per record on rank
 * 0); it broadcasts the probabilities, the category counts and the node;
 * every rank draws its records' outputs with its own stream
 * (keps_rr_apply_part), releases them and the global shuffle follows. */
#include "kmpi.h"

#include "command/guarantee.h"
#include "command/ksrc.h"
#include "keps/json.h"
#include "keps/rr.h"
#include "keps/version.h"
#include "partition_internal.h"
#include "table_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number option: 1 given (in range), 0 absent (*out = dflt), -1 bad. */
static int number(const char *text, double lo, double hi, double dflt, double *out)
{
    char *end;
    *out = dflt;
    if (!text)
        return 0;
    *out = !strcmp(text, "inf") ? INFINITY : strtod(text, &end);
    return (isinf(*out) || !*end) && *out >= lo && *out <= hi ? 1 : -1;
}

/* --mechanism's kind; -1 for an unknown one. */
static int kind_of(const char *m)
{
    return !m ? -1 : !strcmp(m, "ldp") ? KEPS_RR_LDP : !strcmp(m, "tclose") ? KEPS_RR_TCLOSE
                                     : !strcmp(m, "both")                   ? KEPS_RR_BOTH
                                                                            : -1;
}

/* --partition ola (else given). */
static int by_ola(const kmpi_rr_opts *o)
{
    return o->partition && !strcmp(o->partition, "ola");
}

int kmpi_rr_check(const kmpi_rr_opts *o, int say)
{
    const char *bad = NULL;
    double v;
    if (!o->mechanism)
        bad = "--mechanism ldp|tclose|both is required";
    else if (kind_of(o->mechanism) < 0)
        bad = "--mechanism: expected ldp, tclose or both";
    else if (o->partition && !strcmp(o->partition, "mondrian"))
        bad = "--partition mondrian: keps-mpi has no Mondrian (the library's Mondrian splits the records "
              "themselves, not a merged table of distinct tuples); use --partition ola (OLA's node on the merged "
              "table), or run keps rr --partition mondrian on one machine";
    else if (o->partition && strcmp(o->partition, "given") && !by_ola(o))
        bad = "--partition: expected given or ola (keps-mpi has no mondrian)";
    else if (by_ola(o) && !o->k)
        bad = "--partition ola needs -k K";
    else if (number(o->p, 0, 1, 0, &v) < 0)
        bad = "-p: give a keep probability from 0 to 1";
    else if (number(o->pt, 0, 1, 0, &v) < 0)
        bad = "--pt: give a keep probability from 0 to 1";
    else if (number(o->epsilon, 0, INFINITY, 0, &v) < 0)
        bad = "--epsilon: give a number >= 0 (inf: none)";
    else if (number(o->t, 1, INFINITY, 1, &v) < 0)
        bad = "--t: give a number >= 1 (inf: none)";
    else if (number(o->dp_k, 1, 1e15, 1, &v) < 0 || v != floor(v))
        bad = "--dp-k: give a whole number >= 1";
    if (bad && say)
        fprintf(stderr, "keps-mpi: %s\n", bad);
    return bad ? 2 : 0;
}

/* This rank's schema: the QIs (their values as they stand; with
 * --partition ola bound to their hierarchies, built on the agreed values
 * kc), the roles. */
static keps_status schema(const kmpi_rr_in *in, keps_table *t, const keycol *kc, keps_schema **s, keps_error *err)
{
    if (!(*s = keps_schema_new(t)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st = KEPS_OK;
    for (size_t i = 0; !st && i < in->nqi; i++) {
        keps_hierarchy *h = NULL;
        if (by_ola(&in->o))
            st = make_hierarchy(&kc[i], &h, err) ? err->code
                                                 : add_local_qi(*s, t, &kc[i], h, in->parts, in->nparts, err);
        else
            st = keps_schema_add_qi(*s, t, t->cols[kc[i].col].name, err);
    }
    struct { char *const *v; size_t n; keps_role role; } roles[] = {
        {in->identifier, in->nidentifier, KEPS_ROLE_IDENTIFIER},
        {in->sensitive, in->nsensitive, KEPS_ROLE_SENSITIVE},
        {in->insensitive, in->ninsensitive, KEPS_ROLE_INSENSITIVE}};
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; !st && i < roles[r].n; i++)
            st = keps_schema_set_role(*s, roles[r].v[i], roles[r].role, err);
    if (!st && in->others) {
        if (!strcmp(in->others, "keep"))
            (*s)->others = KEPS_OTHERS_KEEP;
        else if (!strcmp(in->others, "drop"))
            (*s)->others = KEPS_OTHERS_DROP;
        else if (strcmp(in->others, "error"))
            st = keps_error_set(err, KEPS_EINPUT, "--others '%s': give keep, drop or error", in->others);
    }
    if (!st && (*s)->nsensitive == 0)
        st = keps_error_set(err, KEPS_EINPUT, "--sensitive NAME is required: the nominal column to randomize");
    if (!st)
        st = keps_schema_check(*s, err);
    return st;
}

/* --domain COL=...: the column's declared domain (keps_rr_domain on this
 * rank's rows, before the values are agreed: the agreed values are then
 * the domain). pub[col] = 1. A cell outside it is named with its own
 * shard's file (the table of several shards carries the first one's
 * name); a mistake in the text itself is said by rank 0 only. */
static keps_status domains(const kmpi_rr_in *in, keps_table *t, const keps_schema *s, uint8_t *pub, int rank,
                           keps_error *err)
{
    for (size_t i = 0; i < in->o.ndomain; i++) {
        cmd_rr_domain d;
        keps_status st = cmd_rr_domain_parse(s, in->o.domain[i], "--domain", "--sensitive", pub, &d, err);
        if (st) {
            if (d.usage && rank)
                err->msg[0] = 0;
            return st;
        }
        const keps_column *c = &t->cols[d.col];
        size_t bad = SIZE_MAX;
        for (uint32_t v = 0; v < c->nvalues; v++) {
            size_t a = 0;
            while (a < d.n && strcmp(d.values[a], c->values[v]))
                a++;
            if (a == d.n && c->first_row[v] < bad)
                bad = c->first_row[v];
        }
        char *source = t->source;
        const char *part = bad == SIZE_MAX ? NULL : kmpi_part_of(in->parts, in->nparts, bad);
        if (part)
            t->source = (char *)part;
        st = keps_rr_domain(t, (size_t)d.col, d.values, d.n, d.source, err);
        t->source = source;
        pub[d.col] = 1;
        cmd_rr_domain_free(&d);
        if (st)
            return st;
    }
    return KEPS_OK;
}

/* Rank 0: keps rr's figures on the merged (QI tuple, joint value) table. */
typedef struct {
    cmd_rr_facts f;
    keps_rr_matrix M;
    keps_rr_levels cl, ver;
    double u;
    uint32_t *value, *cls;
    double *freq;
    uint64_t *count;         /* [n] records of each category (every rank: RR-t's distribution) */
    /* --partition ola: the node on the merged QI tuples */
    keps_table *W;
    uint32_t *wt;
    keps_schema *S;
    keps_lattice *L;
    keps_ola_result res;
    int searched;
    cmd_objective obj;
    keps_partition part;
} whole;

static void whole_free(whole *w)
{
    keps_rr_matrix_free(&w->M);
    free(w->value), free(w->cls), free(w->freq), free(w->count);
    if (w->searched)
        keps_ola_result_free(&w->res);
    keps_partition_free(&w->part);
    keps_lattice_free(w->L);
    keps_schema_free(w->S);
    keps_table_free(w->W);
    free(w->wt);
}

/* --partition ola on rank 0: OLA at k without suppression (keps rr's
 * ksrc_ola: every class keeps >= k records) on the merged QI tuples as a
 * weighted table, the node's classes; row_of[i]: the table row of merged
 * tuple i. */
static keps_status ola_node(const kmpi_rr_in *in, const keycol *kc, size_t q, const kmpi_freq *fr, size_t k,
                            whole *w, uint32_t *row_of, keps_error *err)
{
    kmpi_freq qf = {0};
    keps_status st = kmpi_freq_init(&qf, q) ? KEPS_ENOMEM : KEPS_OK;
    for (size_t i = 0; !st && i < fr->n; i++) {
        long r = kmpi_freq_add(&qf, fr->tuple + i * (q + 1), fr->count[i]);
        if (r < 0)
            st = KEPS_ENOMEM;
        row_of[i] = (uint32_t)r;
    }
    if (st) {
        kmpi_freq_free(&qf);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    st = weighted_table(in->t, kc, q, &qf, &w->W, &w->wt, err);
    kmpi_freq_free(&qf);
    if (!st && !(w->S = keps_schema_new(w->W)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < q; i++) {
        keps_hierarchy *h = NULL;
        if (!(st = make_hierarchy(&kc[i], &h, err)))
            st = keps_schema_add_qi_hierarchy(w->S, i, h, err);
    }
    if (!st)
        st = keps_lattice_new_weighted(w->S, w->wt, &w->L, err);
    if (!st && k > w->L->nrows)
        st = keps_error_set(err, KEPS_EJOB, "k = %zu is larger than the number of records (%zu): every record "
                                            "would be suppressed whatever the generalization; lower k",
                            k, w->L->nrows);
    keps_ola_params p = {.k = k, .metric = KEPS_METRIC_LOSS};
    w->obj.cfg = keps_metric_config_default(KEPS_METRIC_LOSS); /* keps rr's objective: it takes no --metric */
    if (!st) {
        st = keps_ola_run_objective(w->L, &p, &w->obj.cfg, &w->res, err);
        w->searched = !st;
    }
    if (!st && !w->res.found)
        st = keps_error_set(err, KEPS_EJOB, "--partition ola: no generalization is %zu-anonymous without "
                                            "suppression, not even the top node; lower -k",
                            k);
    if (!st)
        st = keps_partition_from_node(w->L, w->res.levels, NULL, &w->part, err);
    return st;
}

static int decide(kmpi *mp, const kmpi_rr_in *in, const keycol *kc, const kmpi_freq *fr, size_t q, size_t n,
                  whole *w, keps_error *err)
{
    size_t N = 0;
    for (size_t i = 0; i < fr->n; i++)
        N += (size_t)fr->count[i];
    double kreq, kdp;
    number(in->o.k, 1, 1e15, 0, &kreq);
    number(in->o.dp_k, 1, 1e15, 1, &kdp);
    int ola = by_ola(&in->o);
    uint32_t *keys = ola ? NULL : malloc((q * N + 1) * sizeof *keys); /* keys[j * N + record]: the QI codes */
    uint32_t *row_of = ola ? malloc((fr->n + 1) * sizeof *row_of) : NULL;
    w->value = malloc((N + 1) * sizeof *w->value);
    w->cls = malloc((N + 1) * sizeof *w->cls);
    w->freq = malloc((n + 1) * sizeof *w->freq);
    uint64_t *size = calloc(N + 1, sizeof *size);
    keps_status st = (keys || ola) && (row_of || !ola) && w->value && w->cls && w->freq && size && w->count
                         ? KEPS_OK
                         : KEPS_ENOMEM;
    if (!st && ola)
        st = ola_node(in, kc, q, fr, (size_t)kreq, w, row_of, err);
    for (size_t i = 0, at = 0; !st && i < fr->n; i++)
        for (uint64_t c = 0; c < fr->count[i]; c++, at++) {
            for (size_t j = 0; keys && j < q; j++)
                keys[j * N + at] = fr->tuple[i * (q + 1) + j];
            w->value[at] = fr->tuple[i * (q + 1) + q];
            if (ola)
                w->cls[at] = w->part.class_of[row_of[i]];
        }
    w->f.N = N;
    w->f.n = n;
    /* the classes: OLA's, or the --qi values as they stand (one class
     * without --qi); the smallest's size */
    size_t nc = st ? 0 : ola ? w->part.nclasses : keps_classes_from_keys(keys, N, q, NULL, w->cls);
    if (nc == (size_t)-1)
        st = KEPS_ENOMEM;
    w->f.nclasses = st ? 0 : nc;
    w->f.k = nc && !st ? N : 0;
    for (size_t i = 0; !st && i < N; i++)
        size[w->cls[i]]++;
    for (size_t c = 0; !st && c < nc; c++)
        if (size[c] < w->f.k)
            w->f.k = (size_t)size[c];
    for (size_t v = 0; !st && v < n; v++)
        w->count[v] = 0;
    for (size_t i = 0; !st && i < N; i++)
        w->count[w->value[i]]++;
    free(keys);
    free(row_of);
    free(size);
    if (st)
        return kmpi_fail(mp, st == KEPS_ENOMEM && !err->msg[0] ? keps_error_set(err, st, "out of memory") : st, err);
    keps_rr_frequencies(w->value, N, n, w->freq);
    if (N < 2) {
        fprintf(stderr, "keps-mpi rr: the input has %zu record(s): randomized response needs at least 2\n", N);
        return 2;
    }
    if (kreq > 0 && (double)w->f.k < kreq) {
        fprintf(stderr, "keps-mpi rr: the input is not %.0f-anonymous on the --qi columns: its smallest class has "
                        "%zu record(s); anonymize it first (keps anonymize) or lower -k\n",
                kreq, w->f.k);
        return 1;
    }
    if (kdp >= (double)N) {
        fprintf(stderr, "keps-mpi rr: --dp-k %.0f: must be below the number of records %zu\n", kdp, N);
        return 2;
    }
    w->f.k_dp = (size_t)kdp;
    keps_rr_targets tg;
    number(in->o.p, 0, 1, NAN, &tg.p);
    number(in->o.pt, 0, 1, NAN, &tg.pt);
    number(in->o.epsilon, 0, INFINITY, NAN, &tg.epsilon);
    number(in->o.t, 1, INFINITY, NAN, &tg.t);
    keps_rr_kind kind = (keps_rr_kind)kind_of(in->o.mechanism);
    if ((st = keps_rr_choose_params(kind, &tg, w->freq, n, N, w->f.k, &w->f.par, err)) ||
        (st = keps_rr_matrix_for(&w->f.par, n, w->freq, &w->M, err)))
        return kmpi_fail(mp, st, err);
    /* privacy warnings, as keps rr gives them, on the probabilities used */
    if (kind != KEPS_RR_TCLOSE && w->f.par.p >= 1)
        fprintf(stderr, "keps-mpi rr: warning: the RR-LDP stage keeps every value (p = 1): no local privacy "
                        "(epsilon = infinity)\n");
    if (kind != KEPS_RR_LDP && w->f.par.pt >= 1)
        fprintf(stderr, "keps-mpi rr: warning: the RR-t stage keeps every value (p_t = 1)%s\n",
                kind == KEPS_RR_BOTH ? ": only the RR-LDP stage randomizes"
                                     : ": nothing is randomized, no local privacy (epsilon = infinity)");
    keps_rr_closed_levels(&w->f.par, &w->M, w->freq, N, w->f.k, w->f.k_dp, &w->cl);
    keps_rr_verified_levels(&w->M, w->value, w->cls, N, w->f.nclasses, w->f.k, w->f.k_dp, &w->ver);
    w->u = keps_rr_utility(&w->M, w->freq);
    return 0;
}

int kmpi_rr(kmpi *mp, const kmpi_rr_in *in)
{
    keps_table *t = in->t;
    keps_error err = {0};
    unsigned long long mark = mp->bytes_sent;
    double bytes[5] = {0, 0, 0, 0, -1}, t0 = kmpi_now_ms();
    size_t nl = t->nrows, q = in->nqi, ns = in->nsensitive, n = 0;
    keps_schema *s = NULL;
    keycol *kc = calloc(q + ns + 1, sizeof *kc);
    uint32_t *value = malloc((nl + 1) * sizeof *value), *out = malloc((nl + 1) * sizeof *out);
    uint32_t *nvalues = calloc(ns + 1, sizeof *nvalues), *tu = malloc((q + 2) * sizeof *tu);
    const uint32_t **codes = calloc(ns + 1, sizeof *codes);
    uint32_t **local = calloc(ns + 1, sizeof *local);
    if (!kc || !value || !out || !nvalues || !tu || !codes || !local)
        MPI_Abort(MPI_COMM_WORLD, 3);
    /* the agreed values of the QIs (with --partition ola, their
     * hierarchies), the roles, the declared domains, then the agreed values
     * of the sensitive columns (the declared domain's, with --domain) */
    uint8_t *pub = calloc(t->ncols + 1, 1);
    if (!pub)
        MPI_Abort(MPI_COMM_WORLD, 3);
    keps_status st = agree(t, in->qi, q, by_ola(&in->o), kc, &err); /* fails alike on every rank */
    if (!st)
        st = schema(in, t, kc, &s, &err);
    if (!st)
        st = domains(in, t, s, pub, mp->rank, &err);
    int ok = kmpi_all_ok(mp, st);
    if (ok)
        st = agree(t, in->sensitive, ns, 0, kc + q, &err);
    for (size_t j = 0; ok && !st && j < ns; j++) {
        nvalues[j] = (uint32_t)kc[q + j].dict->nrows;
        if (!(local[j] = malloc((nl + 1) * sizeof **local)))
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (size_t i = 0; i < nl; i++)
            local[j][i] = kc[q + j].local[t->cols[kc[q + j].col].codes[i]];
        codes[j] = local[j];
    }
    if (ok && !st)
        st = keps_rr_joint_codes(ns, codes, nvalues, nl, value, &n, &err);
    keps_rng *rng = kmpi_rng(mp, in->seed); /* collective */
    if (!st && !rng)
        st = keps_error_set(&err, KEPS_EIO, "no randomness from the system");
    in->ph[PH_ENCODE] = kmpi_now_ms() - t0;
    bytes[0] = kmpi_bytes_since(mp, &mark);
    /* (QI tuple, joint value) counts, merged to rank 0 */
    t0 = kmpi_now_ms();
    kmpi_freq fr = {0};
    if (!st && kmpi_freq_init(&fr, q + 1))
        st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < nl; i++) {
        for (size_t j = 0; j < q; j++)
            tu[j] = kc[j].local[t->cols[kc[j].col].codes[i]];
        tu[q] = value[i];
        if (kmpi_freq_add(&fr, tu, 1) < 0)
            st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    }
    in->ph[PH_COUNT] = kmpi_now_ms() - t0;
    whole w = {0};
    keps_guarantee g = {0};
    int rc = 0;
    keps_table *rel = NULL;
    if (!ok || !kmpi_all_ok(mp, st)) {
        rc = kmpi_fail(mp, st, &err);
        goto done;
    }
    t0 = kmpi_now_ms();
    if (kmpi_freq_reduce(mp, &fr))
        MPI_Abort(MPI_COMM_WORLD, 3);
    in->ph[PH_MERGE] = kmpi_now_ms() - t0;
    bytes[1] = kmpi_bytes_since(mp, &mark);
    t0 = kmpi_now_ms();
    size_t distinct = fr.n;
    int ola = by_ola(&in->o), *levels = calloc(q + 1, sizeof *levels);
    if (!(w.count = calloc(n + 1, sizeof *w.count)) || !levels)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (mp->rank == 0)
        rc = decide(mp, in, kc, &fr, q, n, &w, &err);
    double head[3] = {rc, w.f.par.p, w.f.par.pt};
    MPI_Bcast(head, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!(rc = (int)head[0])) { /* RR-t's distribution, OLA's node */
        MPI_Bcast(w.count, (int)n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (ola && mp->rank == 0)
            memcpy(levels, w.res.levels, q * sizeof *levels);
        if (ola)
            MPI_Bcast(levels, (int)q, MPI_INT, 0, MPI_COMM_WORLD);
        mp->bytes_sent += mp->rank == 0 ? (unsigned long long)(mp->size - 1) * (n * 8 + (ola ? q * 4 : 0)) : 0;
    }
    in->ph[PH_SEARCH] = kmpi_now_ms() - t0;
    bytes[2] = kmpi_bytes_since(mp, &mark);
    if (rc) {
        free(levels);
        goto done;
    }
    /* every record on its own rank, from its own stream; RR-t draws from
     * the whole data's records */
    t0 = kmpi_now_ms();
    keps_rr_params par = {.kind = (keps_rr_kind)kind_of(in->o.mechanism), .p = head[1], .pt = head[2]};
    st = keps_rr_apply_part(&par, n, w.count, value, nl, rng, out, &err);
    keps_counts cnt = {.input_rows = nl, .output_rows = nl};
    unsigned long long changed = 0, all_changed = 0;
    size_t *cols = NULL;
    int *qi_of = NULL, *sens_of = malloc((t->ncols + 1) * sizeof *sens_of);
    uint32_t *split = malloc((ns + 1) * sizeof *split);
    if (!st && !(rel = kmpi_release_new(s, &cols, &qi_of, &err)))
        st = err.code ? err.code : KEPS_ENOMEM;
    size_t nf = rel ? rel->ncols : 0;
    const char **fields = malloc((nf + 1) * sizeof *fields);
    if (!fields || !sens_of || !split)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t j = 0; j < t->ncols; j++)
        sens_of[j] = -1;
    for (size_t j = 0; j < ns; j++)
        sens_of[kc[q + j].col] = (int)j;
    for (size_t i = 0; !st && i < nl; i++) {
        changed += out[i] != value[i];
        keps_rr_joint_split(out[i], ns, nvalues, split);
        for (size_t x = 0; x < nf; x++) {
            size_t j = cols[x];
            int a = qi_of[x];
            fields[x] = sens_of[j] >= 0 ? kc[q + sens_of[j]].dict->cols[0].values[split[sens_of[j]]]
                        : ola && a >= 0 ? keps_hierarchy_label(s->qi[a].h, levels[a],
                                                               s->qi[a].map[levels[a]][t->cols[j].codes[i]])
                                        : keps_table_str(t, j, i);
        }
        st = keps_table_append(rel, fields, NULL, 0, &err);
    }
    free(fields), free(cols), free(qi_of), free(sens_of), free(split), free(levels);
    MPI_Reduce(&changed, &all_changed, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    in->ph[PH_APPLY] = kmpi_now_ms() - t0;
    kmpi_node nd = {.t = t, .s = s, .rng = rng, .ph = in->ph, .bytes = bytes, .mode = in->mode,
                    .nfiles = in->nfiles, .distinct = distinct, .quiet = in->quiet, .output = in->output,
                    .report = in->report, .html = in->html, .json = in->json, .seed = in->seed};
    keps_counts all;
    rc = kmpi_shuffle_write(mp, &nd, st, &err, rel, &cnt, &all);
    if (!rc) {
        keps_json j;
        keps_json_init(&j);
        if (mp->rank == 0) {
            keps_rr_choice ch = {pub, in->o.t != NULL, in->o.p != NULL, w.f.k, w.f.N};
            keps_rr_guarantee(&w.f.par, &w.cl, &ch, s, &g);
            keps_guarantee_spell(&g, cmd_report_spell, NULL);
            w.f.t = t;
            w.f.s = s;
            w.f.g = &g;
            w.f.mechanism = in->o.mechanism;
            w.f.partition = ola ? "ola" : "given";
            for (size_t i = 0; i < g.ndd; i++) /* privacy warnings: even with --quiet */
                fprintf(stderr, "keps-mpi rr: warning: the guarantee reads from the data: %s\n", g.data_dependent[i]);
            for (size_t i = 0; i < g.nnc; i++)
                fprintf(stderr, "%s%s%s", i ? ", " : "keps-mpi rr: warning: column(s) ", g.not_covered[i],
                        i + 1 < g.nnc ? ""
                                      : " are released outside the guarantee, which covers only each record's "
                                        "--sensitive value(s)\n");
            keps_json_object(&j, NULL);
            keps_json_str(&j, "keps_version", keps_version());
            keps_json_str(&j, "method", "rr");
            keps_json_bool(&j, "seeded", in->seed != NULL);
            cmd_report_counts(&j, &all);
            cmd_rr_json(&j, &w.f, &w.cl, &w.ver, w.u, (size_t)all_changed);
            if (ola)
                ksrc_ola_json(&j, w.L, &w.res, (size_t)atol(in->o.k), &w.obj);
            kmpi_report_mpi(&j, in->mode, in->nfiles, distinct, 0, bytes, nd.phmax, nd.rss);
            keps_json_end(&j);
        }
        rc = kmpi_finish(mp, &nd, mp->rank == 0 ? keps_json_text(&j) : "", "rr", &all);
        keps_json_free(&j);
    }
done:
    keps_table_free(rel);
    keps_guarantee_free(&g);
    whole_free(&w);
    free(pub);
    kmpi_freq_free(&fr);
    keps_rng_free(rng);
    keps_schema_free(s);
    for (size_t j = 0; j < ns; j++)
        free(local[j]);
    free(local), free(codes), free(nvalues), free(tu), free(value), free(out);
    keycols_free(kc, q + ns);
    return rc;
}
