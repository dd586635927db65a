/* keps-mpi: keps's pipeline on a cluster (docs/scale.md, docs/cli.md).
 *
 *   mpirun -np P keps-mpi anonymize --algorithm ola -i 'parts/p*.csv' -o 'out/part-%r.csv' \
 *       --qi age:interval=5,10,20 --qi sex:sex.csv -k 5 --suppress 0.05 --report r.json
 *   mpirun -np P keps-mpi count -i big.csv --qi age --qi sex -o counts.csv
 *
 * Phases (timed per rank, maxima in the report): read, encode (all-gather
 * of distinct values), count (distinct tuples), merge (tree reduction to
 * rank 0), search (rank 0, libkeps's weighted OLA), apply, shuffle
 * (all-to-all), write. */
#include "cli/exit_code.h"
#include "kmpi.h"

#include "keps/csv.h"
#include "keps/json.h"
#include "keps/lattice.h"
#include "keps/metrics.h"
#include "keps/ola.h"
#include "keps/outfile.h"
#include "keps/schema.h"
#include "keps/version.h"
#include "table_internal.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char *phase_name[PH_N] = {"read", "encode", "count", "merge", "search", "apply", "shuffle", "write"};

typedef struct opts {
    const char *cmd, *algorithm, *output, *report, *others, *counts, *seed;
    char **input, **qi, **sensitive, **insensitive, **identifier, **noisy;
    size_t ninput, nqi, nsensitive, ninsensitive, nidentifier, nnoisy;
    kmpi_dp dp;        /* kepsilon's and safela's own options */
    kmpi_rr_opts rr;   /* rr's (rr.c) */
    long k;
    double suppress;
    int remove_suppressed, quiet;
    char delimiter;
    const char *missing;
} opts;

static kmpi M;

static void say(const char *fmt, const char *a)
{
    if (M.rank == 0)
        fprintf(stderr, fmt, a);
}

/* Prints this rank's message; a rank that stops because another failed
 * has none (that rank says why). */
static int fail(const keps_error *err)
{
    if (err->msg[0])
        fprintf(stderr, "keps-mpi (rank %d): %s\n", M.rank, err->msg);
    return cli_exit_code(err->code ? err->code : KEPS_EINPUT);
}

static void usage(FILE *f)
{
    fputs("usage: mpirun -np P keps-mpi anonymize --algorithm ola -i FILES -o 'out/part-%r.csv' --qi NAME:H ... -k K\n"
          "                [--suppress S] [--others keep|drop] [--identifier C] [--sensitive C] [--insensitive C]\n"
          "                [--remove-suppressed] [--report FILE] [--seed N] [--delimiter C] [--missing TOKEN]\n"
          "       mpirun -np P keps-mpi kepsilon --algorithm ola (the flags of anonymize) --noisy C ... --epsilon E\n"
          "                [--scale ec|global|domain] [--bounds NAME=LO:HI ...] [--clamp] [--confidence C] [--digits N|exact]\n"
          "                [--metric M] [--gs-factor F] [--monotonic] [--aggregate A] [--weight NAME=W ...] [--threads N]\n"
          "       mpirun -np P keps-mpi safela -i FILES -o 'out/part-%r.csv' --qi NAME:H ... -k K --beta B\n"
          "                [--epsilon-prime E1] [--epsilon E] [--penalty F] [--interpolate none|level] (roles, --report...)\n"
          "       mpirun -np P keps-mpi rr --mechanism ldp -i FILES -o 'out/part-%r.csv' --sensitive C ... [--qi C ...]\n"
          "                (-p P | --epsilon E | --t T) [--dp-k K] [-k K] (roles, --report...)\n"
          "       mpirun -np P keps-mpi count -i FILES --qi NAME ... [--counts COL] -o FILE\n"
          "-i: shard files, a list or a glob ('parts/*.csv'), dealt to the ranks in contiguous blocks; or one\n"
          "    file, then cut in byte ranges at line breaks (a quoted field holding a line break is refused).\n"
          "-o: anonymize writes one shard per rank ('%r' is the rank); the rows are shuffled across all ranks.\n"
          "count writes the frequency table of the --qi tuples (input for keps anonymize --counts COL).\n",
          f);
}

static int push(char ***v, size_t *n, const char *s)
{
    char **w = realloc(*v, (*n + 1) * sizeof *w);
    if (!w)
        return -1;
    *v = w;
    w[(*n)++] = (char *)s;
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->k = -1;
    o->counts = "count";
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (M.rank == 0)
            usage(stdout);
        return argc < 2 ? 2 : -1;
    }
    o->cmd = argv[1];
    if (strcmp(o->cmd, "anonymize") && strcmp(o->cmd, "count") && strcmp(o->cmd, "kepsilon") &&
        strcmp(o->cmd, "safela") && strcmp(o->cmd, "rr")) {
        say("keps-mpi: unknown command '%s': keps-mpi runs anonymize (--algorithm ola), kepsilon (--algorithm "
            "ola), safela, rr (--mechanism ldp) and count\n",
            o->cmd);
        return 2;
    }
    int by_node = strcmp(o->cmd, "count") && strcmp(o->cmd, "safela") && strcmp(o->cmd, "rr"); /* an OLA search */
    int safela = !strcmp(o->cmd, "safela");
    static const struct option lo[] = {
        {"algorithm", 1, 0, 'a'}, {"input", 1, 0, 'i'},        {"output", 1, 0, 'o'},
        {"qi", 1, 0, 'q'},        {"sensitive", 1, 0, 'S'},    {"insensitive", 1, 0, 'I'},
        {"identifier", 1, 0, 'D'}, {"others", 1, 0, 'O'},      {"suppress", 1, 0, 's'},
        {"report", 1, 0, 'r'},    {"seed", 1, 0, 'e'},         {"delimiter", 1, 0, 'd'},
        {"missing", 1, 0, 'm'},   {"remove-suppressed", 0, 0, 'R'}, {"counts", 1, 0, 'c'},
        {"quiet", 0, 0, 'Q'},     {"help", 0, 0, 'h'},         {"noisy", 1, 0, 'N'},
        {"epsilon", 1, 0, 'E'},   {"scale", 1, 0, 'L'},        {"beta", 1, 0, 'B'},
        {"epsilon-prime", 1, 0, 'P'}, {"penalty", 1, 0, 'F'},  {"interpolate", 1, 0, 'T'},
        {"mechanism", 1, 0, 'M'}, {"partition", 1, 0, 'X'},    {"pt", 1, 0, 'U'},
        {"t", 1, 0, 'V'},         {"dp-k", 1, 0, 'W'},         {"p", 1, 0, 'p'},
        /* kepsilon's own, read by kmpi_kepsilon_check */
        {"bounds", 1, 0, 256},    {"clamp", 0, 0, 257},        {"confidence", 1, 0, 258},
        {"digits", 1, 0, 259},    {"metric", 1, 0, 260},       {"gs-factor", 1, 0, 261},
        {"monotonic", 0, 0, 262}, {"aggregate", 1, 0, 263},    {"weight", 1, 0, 264},
        {"threads", 1, 0, 265},   {"keep-order", 0, 0, 266},   {"decimal-comma", 0, 0, 267},
        {"html", 1, 0, 268},
        {0, 0, 0, 0}};
    int rr = !strcmp(o->cmd, "rr");
    optind = 2;
    opterr = M.rank == 0;
    int ch;
    while ((ch = getopt_long(argc, argv, rr ? "i:o:k:p:" : "i:o:k:", lo, NULL)) != -1) {
        char *end;
        switch (ch) {
        case 'a': o->algorithm = optarg; break;
        case 'i': push(&o->input, &o->ninput, optarg); break;
        case 'o': o->output = optarg; break;
        case 'q': push(&o->qi, &o->nqi, optarg); break;
        case 'S': push(&o->sensitive, &o->nsensitive, optarg); break;
        case 'I': push(&o->insensitive, &o->ninsensitive, optarg); break;
        case 'D': push(&o->identifier, &o->nidentifier, optarg); break;
        case 'O': o->others = optarg; break;
        case 'r': o->report = optarg; break;
        case 'e': o->seed = optarg; break;
        case 'm': o->missing = optarg; break;
        case 'c': o->counts = optarg; break;
        case 'R': o->remove_suppressed = 1; break;
        case 'N': push(&o->noisy, &o->nnoisy, optarg); break;
        case 'L': o->dp.scale = optarg; break;
        case 'B': o->dp.beta = optarg; break;
        case 'P': o->dp.eps_prime_text = optarg; break;
        case 'F': o->dp.penalty_text = optarg; break;
        case 'T': o->dp.interp_text = optarg; break;
        case 'M': o->rr.mechanism = optarg; break;
        case 'X': o->rr.partition = optarg; break;
        case 'p': o->rr.p = optarg; break;
        case 'U': o->rr.pt = optarg; break;
        case 'V': o->rr.t = optarg; break;
        case 'W': o->rr.dp_k = optarg; break;
        case 256: push(&o->dp.bounds, &o->dp.nbounds, optarg); break;
        case 257: o->dp.clamp = 1; break;
        case 258: o->dp.confidence = optarg; break;
        case 259: o->dp.digits = optarg; break;
        case 260: o->dp.metric = optarg; break;
        case 261: o->dp.gs_factor = optarg; break;
        case 262: o->dp.monotonic = 1; break;
        case 263: o->dp.aggregate = optarg; break;
        case 264: push(&o->dp.weight, &o->dp.nweight, optarg); break;
        case 265: o->dp.threads = optarg; break;
        case 266: o->dp.refused = "keep-order"; break;
        case 267: o->dp.refused = "decimal-comma"; break;
        case 268: o->dp.refused = "html"; break;
        case 'E':
            if (rr) {
                o->rr.epsilon = optarg;
                break;
            }
            o->dp.epsilon = strtod(optarg, &end);
            if (*end || !(o->dp.epsilon >= 1e-300 && o->dp.epsilon <= 1e300)) {
                say("keps-mpi: --epsilon '%s': give a positive number\n", optarg);
                return 2;
            }
            break;
        case 'Q': o->quiet = 1; break;
        case 'd':
            if (strlen(optarg) != 1 && strcmp(optarg, "\\t")) {
                say("keps-mpi: --delimiter '%s': give one character\n", optarg);
                return 2;
            }
            o->delimiter = strcmp(optarg, "\\t") ? optarg[0] : '\t';
            break;
        case 'k':
            o->rr.k = optarg;
            o->k = strtol(optarg, &end, 10);
            if (*end || o->k < 1 || o->k > 1000000000L) {
                say("keps-mpi: -k '%s': give a whole number from 1 to 1000000000\n", optarg);
                return 2;
            }
            break;
        case 's':
            o->suppress = strtod(optarg, &end);
            if (*end || !(o->suppress >= 0 && o->suppress <= 1)) {
                say("keps-mpi: --suppress '%s': give a fraction from 0 to 1\n", optarg);
                return 2;
            }
            break;
        case 'h':
            if (M.rank == 0)
                usage(stdout);
            return -1;
        default:
            if (M.rank == 0)
                usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        say("keps-mpi: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    const char *need = !o->ninput ? "-i" : !o->output ? "-o" : !o->nqi && strcmp(o->cmd, "rr") ? "--qi" : NULL;
    if (!need && (by_node || safela) && o->k < 0)
        need = "-k";
    if (!need && !strcmp(o->cmd, "kepsilon"))
        need = !o->nnoisy ? "--noisy" : !(o->dp.epsilon > 0) ? "--epsilon" : NULL;
    if (need) {
        say("keps-mpi: %s is required (keps-mpi --help)\n", need);
        return 2;
    }
    if (by_node && (!o->algorithm || strcmp(o->algorithm, "ola"))) {
        say("keps-mpi: --algorithm '%s': keps-mpi anonymizes by ola (full-domain generalization); run keps "
            "on one machine for mondrian, mdav and given\n",
            o->algorithm ? o->algorithm : "");
        return 2;
    }
    const kmpi_dp *dp = &o->dp;
    if (dp->refused)
        return kmpi_refuse(o->cmd, dp->refused, M.rank == 0);
    if (strcmp(o->cmd, "kepsilon") && (o->nnoisy || dp->scale || (!safela && dp->epsilon > 0) || dp->nbounds ||
                                       dp->clamp || dp->confidence || dp->digits || dp->metric || dp->gs_factor ||
                                       dp->monotonic || dp->aggregate || dp->nweight || dp->threads)) {
        say("keps-mpi: --noisy, --epsilon, --scale, --bounds, --clamp, --confidence, --digits, --metric, "
            "--gs-factor, --monotonic, --aggregate, --weight and --threads belong to kepsilon (--epsilon to safela "
            "too), not %s\n",
            o->cmd);
        return 2;
    }
    if (!safela && (o->dp.beta || o->dp.eps_prime_text || o->dp.penalty_text || o->dp.interp_text)) {
        say("keps-mpi: --beta, --epsilon-prime, --penalty and --interpolate belong to safela, not %s\n", o->cmd);
        return 2;
    }
    if (safela && (o->algorithm || o->suppress > 0)) {
        say("keps-mpi: safela takes no %s: its node comes from the exponential mechanism, and it suppresses "
            "whatever its node leaves in classes below k\n",
            o->algorithm ? "--algorithm" : "--suppress");
        return 2;
    }
    if (safela && kmpi_safela_check(&o->dp, M.rank == 0))
        return 2;
    int rr_only = o->rr.mechanism || o->rr.partition || o->rr.p || o->rr.pt || o->rr.t || o->rr.dp_k;
    if (!rr && rr_only) {
        say("keps-mpi: --mechanism, --partition, -p, --pt, --t and --dp-k belong to rr, not %s\n", o->cmd);
        return 2;
    }
    if (rr && (o->algorithm || o->suppress > 0 || o->remove_suppressed)) {
        say("keps-mpi: rr takes no %s: it releases every record\n",
            o->algorithm ? "--algorithm" : o->suppress > 0 ? "--suppress" : "--remove-suppressed");
        return 2;
    }
    if (rr && kmpi_rr_check(&o->rr, M.rank == 0))
        return 2;
    if (!strcmp(o->cmd, "kepsilon") && kmpi_kepsilon_check(&o->dp, M.rank == 0))
        return 2;
    if ((by_node || safela || rr) && M.size > 1 && !strstr(o->output, "%r")) {
        say("keps-mpi: -o '%s' has no %%r: with several ranks each writes its own shard; give e.g. "
            "-o 'out/part-%%r.csv'\n",
            o->output);
        return 2;
    }
    return 0;
}

/* ---- the key columns: agreed values, hierarchies ---- */


keps_status make_hierarchy(const keycol *kc, keps_hierarchy **h, keps_error *err)
{
    if (keps_hierarchy_is_spec(kc->rest))
        return keps_hierarchy_build_text(kc->dict, 0, kc->rest, h, err);
    return keps_hierarchy_load(kc->rest, 0, h, err);
}

keps_status agree(const keps_table *t, char **specs, size_t n, int need_h, keycol *kc, keps_error *err)
{
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *rest = NULL;
        int col = keps_table_column_spec(t, specs[i], &rest);
        if (col < 0) {
            st = keps_table_no_column_spec(err, t, specs[i]);
            break;
        }
        if (need_h && !rest)
            st = keps_error_set(err, KEPS_EINPUT,
                                "--qi %s has no hierarchy: OLA needs --qi %s:HIERARCHY.csv or a builder "
                                "(--qi %s:interval=5,10,20)",
                                specs[i], specs[i], specs[i]);
        kc[i].col = (size_t)col;
        kc[i].rest = rest;
        if (!st)
            st = kmpi_agree_column(&M, t, (size_t)col, &kc[i].dict, &kc[i].local, err);
    }
    return st;
}

void keycols_free(keycol *kc, size_t n)
{
    for (size_t i = 0; kc && i < n; i++) {
        keps_table_free(kc[i].dict);
        free(kc[i].local);
    }
    free(kc);
}

/* This rank's distinct tuples (agreed codes) with their counts. */
static keps_status count_local(const keps_table *t, const keycol *kc, size_t q, kmpi_freq *f, keps_error *err)
{
    uint32_t *tu = malloc((q ? q : 1) * sizeof *tu);
    if (!tu || kmpi_freq_init(f, q))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory counting tuples");
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t i = 0; i < q; i++)
            tu[i] = kc[i].local[t->cols[kc[i].col].codes[r]];
        if (kmpi_freq_add(f, tu, 1) < 0) {
            free(tu);
            return keps_error_set(err, KEPS_ENOMEM, "out of memory counting tuples");
        }
    }
    free(tu);
    return KEPS_OK;
}

/* The merged table as a keps table (codes = agreed codes) and weights. */
keps_status weighted_table(const keps_table *t, const keycol *kc, size_t q, const kmpi_freq *f,
                                  keps_table **out, uint32_t **weight, keps_error *err)
{
    const char **names = calloc(q + 1, sizeof *names);
    uint32_t *w = malloc((f->n ? f->n : 1) * sizeof *w);
    if (!names || !w) {
        free(names), free(w);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < q; i++)
        names[i] = t->cols[kc[i].col].name;
    keps_table *W = keps_table_new(q, names, t->missing_token, t->source, err);
    free(names);
    keps_status st = W ? KEPS_OK : (err ? err->code : KEPS_ENOMEM);
    for (size_t i = 0; !st && i < q; i++) {
        const keps_column *d = &kc[i].dict->cols[0];
        for (uint32_t v = 0; v < d->nvalues && !st; v++)
            if (keps_table_intern(W, i, d->values[v], strlen(d->values[v])) != v)
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t r = 0; !st && r < f->n; r++) {
        if (f->count[r] > UINT32_MAX)
            st = keps_error_set(err, KEPS_EINPUT, "a tuple stands for more than 2^32 - 1 records");
        else
            st = keps_table_append_codes(W, f->tuple + r * q, 0, err);
        w[r] = (uint32_t)f->count[r];
    }
    if (st) {
        keps_table_free(W);
        free(w);
        return st;
    }
    W->delimiter = t->delimiter;
    *out = W;
    *weight = w;
    return KEPS_OK;
}

/* ---- count ---- */

static int run_count(const opts *o, keps_table *t, double *ph)
{
    keps_error err = {0};
    size_t q = o->nqi;
    keycol *kc = calloc(q, sizeof *kc);
    double t0 = kmpi_now_ms();
    keps_status st = kc ? agree(t, o->qi, q, 0, kc, &err) : KEPS_ENOMEM;
    ph[PH_ENCODE] = kmpi_now_ms() - t0;
    kmpi_freq f = {0};
    t0 = kmpi_now_ms();
    if (!st)
        st = count_local(t, kc, q, &f, &err);
    ph[PH_COUNT] = kmpi_now_ms() - t0;
    if (!kmpi_all_ok(&M, st)) {
        int rc = st ? fail(&err) : 2;
        kmpi_freq_free(&f);
        keycols_free(kc, q);
        return rc;
    }
    t0 = kmpi_now_ms();
    if (kmpi_freq_reduce(&M, &f))
        MPI_Abort(MPI_COMM_WORLD, 3);
    ph[PH_MERGE] = kmpi_now_ms() - t0;
    t0 = kmpi_now_ms();
    if (M.rank == 0) {
        keps_csv_writer *w = keps_csv_writer_open(o->output, t->delimiter, &err);
        const char **row = malloc((q + 1) * sizeof *row);
        st = w && row ? KEPS_OK : (w ? KEPS_ENOMEM : err.code);
        for (size_t i = 0; !st && i < q; i++)
            row[i] = t->cols[kc[i].col].name;
        if (!st) {
            row[q] = o->counts;
            st = keps_csv_write_row(w, row, q + 1);
        }
        char num[32];
        for (size_t r = 0; !st && r < f.n; r++) {
            for (size_t i = 0; i < q; i++)
                row[i] = kc[i].dict->cols[0].values[f.tuple[r * q + i]];
            snprintf(num, sizeof num, "%" PRIu64, f.count[r]);
            row[q] = num;
            st = keps_csv_write_row(w, row, q + 1);
        }
        free(row);
        if (!st)
            st = keps_csv_writer_commit(w, &err);
        else if (w)
            keps_csv_writer_abort(w);
        if (st && !err.code)
            keps_error_at(&err, st, o->output, 0, 0, "write failed");
        if (!o->quiet && !st)
            fprintf(stderr, "keps-mpi count: %zu distinct tuples of %zu columns from %d rank(s) -> %s\n", f.n, q,
                    M.size, o->output);
    }
    ph[PH_WRITE] = kmpi_now_ms() - t0;
    kmpi_freq_free(&f);
    keycols_free(kc, q);
    int ok = kmpi_all_ok(&M, st);
    return ok ? 0 : st ? fail(&err) : 3;
}

/* ---- anonymize --algorithm ola ---- */

typedef struct search_out {
    int found;
    int *levels;
    keps_ola_result res;
    size_t records;
    size_t distinct;      /* tuples in the merged frequency table */
    size_t suppressed_tuples;
    uint64_t *heights;
} search_out;

/* Rank 0: the library's OLA on the merged frequency table; the tuples in
 * classes below k at the chosen node go into sup. */
static keps_status search(const opts *o, const keps_table *t, const keycol *kc, size_t q, const kmpi_freq *f,
                          const keps_metric_config *objective, int threads, search_out *so, kmpi_freq *sup,
                          keps_error *err)
{
    keps_table *W = NULL;
    uint32_t *w = NULL;
    keps_schema *S = NULL;
    keps_lattice *L = NULL;
    keps_status st = weighted_table(t, kc, q, f, &W, &w, err);
    if (!st && !(S = keps_schema_new(W)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < q; i++) {
        keps_hierarchy *h = NULL;
        if (!(st = make_hierarchy(&kc[i], &h, err)))
            st = keps_schema_add_qi_hierarchy(S, i, h, err);
    }
    if (!st)
        st = keps_lattice_new_weighted(S, w, &L, err);
    keps_ola_params p = {.k = (size_t)o->k, .suppress = o->suppress, .metric = KEPS_METRIC_LOSS, .threads = threads};
    if (!st) /* objective NULL: loss with ARX's defaults */
        st = keps_ola_run_objective(L, &p, objective, &so->res, err);
    if (!st) {
        so->records = L->nrows;
        so->distinct = f->n;
        so->found = so->res.found;
        so->heights = malloc(q * sizeof *so->heights);
        for (size_t i = 0; so->heights && i < q; i++)
            so->heights[i] = (uint64_t)L->height[i];
    }
    if (!st && so->found && (size_t)o->k > L->nrows)
        so->found = 0; /* every row suppressed: refused as keps refuses it */
    if (!st && so->found) {
        keps_lattice_work *wk = keps_lattice_work_new(L);
        keps_node_classes cl;
        keps_node_classes_init(&cl);
        uint32_t *assign = malloc((L->bottom.n ? L->bottom.n : 1) * sizeof *assign);
        if (!wk || !assign || keps_lattice_rollup(L, wk, NULL, so->res.levels, &cl, assign))
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        for (size_t r = 0; !st && r < W->nrows; r++)
            if (cl.count[assign[L->row_class[r]]] < (size_t)o->k && kmpi_freq_add(sup, f->tuple + r * q, f->count[r]) < 0)
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        so->suppressed_tuples = sup->n;
        keps_node_classes_free(&cl);
        keps_lattice_work_free(wk);
        free(assign);
    }
    keps_lattice_free(L);
    keps_schema_free(S);
    keps_table_free(W);
    free(w);
    return st;
}

static void report_json(const opts *o, keps_json *j, const keps_table *t, const keycol *kc, size_t q,
                        const search_out *so, const keps_counts *n, const double *ph, const double *bytes,
                        const char *mode, size_t nfiles, long max_rss_kb)
{
    keps_json_init(j);
    keps_json_object(j, NULL);
    keps_json_str(j, "keps_version", keps_version());
    keps_json_str(j, "method", "ola");
    keps_json_bool(j, "seeded", o->seed != NULL);
    keps_json_int(j, "input_rows", (long long)n->input_rows);
    keps_json_int(j, "output_rows", (long long)n->output_rows);
    keps_json_int(j, "released_rows", (long long)(n->input_rows - n->suppressed_rows));
    keps_json_int(j, "suppressed_rows", (long long)n->suppressed_rows);
    keps_json_int(j, "removed_rows", (long long)n->removed_rows);
    keps_json_int(j, "unsampled_rows", 0);
    keps_json_object(j, "guarantee");
    keps_json_str(j, "model", "k-anonymity");
    keps_json_int(j, "k", o->k);
    keps_json_array(j, "criteria"); /* the single run's list: k-anonymity is the one criterion */
    keps_json_object(j, NULL);
    keps_json_str(j, "model", "k-anonymity");
    keps_json_int(j, "k", o->k);
    keps_json_end(j);
    keps_json_end(j);
    keps_json_num(j, "suppression_limit", o->suppress);
    keps_json_int(j, "suppression_limit_rows", (long long)so->res.suppress_limit);
    keps_json_end(j);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < q; i++)
        keps_json_int(j, t->cols[kc[i].col].name, so->res.levels[i]);
    keps_json_end(j);
    keps_json_object(j, "heights");
    for (size_t i = 0; i < q; i++)
        keps_json_int(j, t->cols[kc[i].col].name, (long long)so->heights[i]);
    keps_json_end(j);
    keps_json_str(j, "metric", keps_metric_name(KEPS_METRIC_LOSS));
    keps_json_num(j, "score", so->res.score ? so->res.score[0] : 0);
    keps_json_object(j, "metrics");
    for (int m = 0; m < KEPS_METRIC_COUNT; m++)
        keps_json_num(j, keps_metric_name((keps_metric)m), so->res.metrics.v[m]);
    keps_json_end(j);
    keps_json_int(j, "classes", (long long)so->res.nclasses);
    keps_json_int(j, "nodes_total", (long long)so->res.nodes_total);
    keps_json_int(j, "k_minimal_nodes", (long long)so->res.nminimal);
    kmpi_report_mpi(j, mode, nfiles, so->distinct, so->suppressed_tuples, bytes, ph, max_rss_kb);
    keps_json_end(j);
}

void kmpi_report_mpi(keps_json *j, const char *mode, size_t nfiles, size_t distinct, size_t suppressed_tuples,
                     const double *bytes, const double *phmax, long max_rss_kb)
{
    keps_json_object(j, "mpi");
    keps_json_int(j, "ranks", M.size);
    keps_json_str(j, "input", mode);
    keps_json_int(j, "input_files", (long long)nfiles);
    keps_json_int(j, "max_rss_kb_per_rank", max_rss_kb);
    keps_json_int(j, "distinct_tuples", (long long)distinct);
    keps_json_int(j, "suppressed_tuples", (long long)suppressed_tuples);
    keps_json_object(j, "bytes_sent");
    keps_json_num(j, "encode", bytes[0]);
    keps_json_num(j, "merge", bytes[1]);
    keps_json_num(j, "broadcast", bytes[2]);
    keps_json_num(j, "shuffle", bytes[3]);
    if (bytes[4] >= 0)
        keps_json_num(j, "classes", bytes[4]);
    keps_json_end(j);
    keps_json_object(j, "timing_ms_max_over_ranks");
    for (int p = 0; p < PH_N; p++)
        keps_json_num(j, phase_name[p], phmax[p]);
    keps_json_end(j);
    keps_json_end(j);
}

/* Sum of a per-rank byte counter since the last mark, over all ranks. */
static double bytes_since(unsigned long long *mark)
{
    return kmpi_bytes_since(&M, mark);
}

/* Adds QI i to the local schema. A shard's value missing from the
 * hierarchy is named with the shard's own file: the table of several
 * shards carries the first one's name, so it carries the offending
 * shard's while the library writes the message. */
keps_status add_local_qi(keps_schema *s, keps_table *t, const keycol *kc, keps_hierarchy *h,
                                const kmpi_part *parts, size_t nparts, keps_error *err)
{
    const keps_column *c = &t->cols[kc->col];
    char *source = t->source;
    for (uint32_t v = 0; v < c->nvalues; v++)
        if (keps_table_lookup(h->levels, 0, c->values[v], strlen(c->values[v])) == KEPS_NONE) {
            const char *p = kmpi_part_of(parts, nparts, c->first_row[v]);
            if (p)
                t->source = (char *)p;
            break;
        }
    keps_status st = keps_schema_add_qi_hierarchy(s, kc->col, h, err);
    t->source = source;
    return st;
}

static int run_anonymize(const opts *o, keps_table *t, double *ph, const char *mode, size_t nfiles,
                         const kmpi_part *parts, size_t nparts)
{
    keps_error err = {0};
    size_t q = o->nqi;
    unsigned long long mark = M.bytes_sent;
    double bytes[5] = {0, 0, 0, 0, -1};
    keycol *kc = calloc(q, sizeof *kc);
    keps_schema *s = keps_schema_new(t);
    keps_rng *rng = NULL;
    double t0 = kmpi_now_ms();
    keps_status st = kc && s ? agree(t, o->qi, q, 1, kc, &err) : KEPS_ENOMEM;
    /* the local schema: roles, and every QI's hierarchy bound to this
     * rank's values (a value missing from it is named with its line) */
    for (size_t i = 0; !st && i < q; i++) {
        keps_hierarchy *h = NULL;
        if (!(st = make_hierarchy(&kc[i], &h, &err)))
            st = add_local_qi(s, t, &kc[i], h, parts, nparts, &err);
    }
    struct { char **v; size_t n; keps_role role; } roles[] = {
        {o->identifier, o->nidentifier, KEPS_ROLE_IDENTIFIER},
        {o->sensitive, o->nsensitive, KEPS_ROLE_SENSITIVE},
        {o->insensitive, o->ninsensitive, KEPS_ROLE_INSENSITIVE},
        {o->noisy, o->nnoisy, KEPS_ROLE_NOISY}};
    for (size_t r = 0; r < 4; r++)
        for (size_t i = 0; !st && i < roles[r].n; i++)
            st = keps_schema_set_role(s, roles[r].v[i], roles[r].role, &err);
    if (!st && o->others) {
        if (!strcmp(o->others, "keep"))
            s->others = KEPS_OTHERS_KEEP;
        else if (!strcmp(o->others, "drop"))
            s->others = KEPS_OTHERS_DROP;
        else if (strcmp(o->others, "error"))
            st = keps_error_set(&err, KEPS_EINPUT, "--others '%s': give keep, drop or error", o->others);
    }
    if (!st)
        st = keps_schema_check(s, &err);
    const keps_metric_config *objective = NULL; /* anonymize: loss with ARX's defaults */
    int threads = 0;
    if (!st && !strcmp(o->cmd, "kepsilon"))
        st = kmpi_kepsilon_prepare(&M, &o->dp, s, &objective, &threads, &err);
    rng = kmpi_rng(&M, o->seed); /* collective: every rank, whatever st */
    if (!st && !rng)
        st = keps_error_set(&err, KEPS_EIO, "no randomness from the system");
    ph[PH_ENCODE] = kmpi_now_ms() - t0;
    bytes[0] = bytes_since(&mark);
    kmpi_freq f = {0}, sup = {0};
    if (!strcmp(o->cmd, "safela")) { /* safela.c: its own sample, key and node */
        int rc = 0;
        if (!kmpi_all_ok(&M, st)) {
            rc = st ? fail(&err) : 2;
        } else {
            kmpi_node nd = {.t = t, .s = s, .kc = kc, .q = q, .rng = rng, .ph = ph, .bytes = bytes, .parts = parts,
                            .nparts = nparts, .mode = mode, .nfiles = nfiles, .k = o->k,
                            .remove_suppressed = 1, .quiet = o->quiet, .output = o->output, .report = o->report,
                            .seed = o->seed};
            rc = kmpi_safela(&M, &nd, &o->dp);
        }
        keps_rng_free(rng);
        keps_schema_free(s);
        keycols_free(kc, q);
        return rc;
    }
    t0 = kmpi_now_ms();
    if (!st)
        st = count_local(t, kc, q, &f, &err);
    ph[PH_COUNT] = kmpi_now_ms() - t0;
    int rc = 0;
    search_out so = {0};
    kmpi_rows *out = NULL, in = {0};
    void *shard = NULL;
    keps_outfile *rep = NULL;
    char *path = NULL;
    if (!kmpi_all_ok(&M, st)) {
        rc = st ? fail(&err) : 2;
        goto done;
    }
    t0 = kmpi_now_ms();
    if (kmpi_freq_reduce(&M, &f))
        MPI_Abort(MPI_COMM_WORLD, 3);
    ph[PH_MERGE] = kmpi_now_ms() - t0;
    bytes[1] = bytes_since(&mark);
    t0 = kmpi_now_ms();
    if (kmpi_freq_init(&sup, q))
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (M.rank == 0)
        st = search(o, t, kc, q, &f, objective, threads, &so, &sup, &err);
    int head[2] = {st, so.found};
    MPI_Bcast(head, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (head[0] || !head[1]) {
        if (M.rank == 0 && st)
            rc = fail(&err);
        else if (M.rank == 0)
            fprintf(stderr, "keps-mpi anonymize: no generalization satisfies k = %ld with at most %zu suppressed "
                            "rows (--suppress %g); raise --suppress or lower -k\n",
                    o->k, so.res.suppress_limit, o->suppress);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        rc = rc ? rc : 1;
        goto done;
    }
    int *levels = malloc(q * sizeof *levels);
    if (!levels)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (M.rank == 0)
        memcpy(levels, so.res.levels, q * sizeof *levels);
    MPI_Bcast(levels, (int)q, MPI_INT, 0, MPI_COMM_WORLD);
    if (kmpi_freq_bcast(&M, &sup, 0))
        MPI_Abort(MPI_COMM_WORLD, 3);
    ph[PH_SEARCH] = kmpi_now_ms() - t0;
    bytes[2] = bytes_since(&mark);
    if (!strcmp(o->cmd, "kepsilon")) { /* kepsilon.c releases by the node */
        kmpi_node nd = {.t = t, .s = s, .kc = kc, .q = q, .levels = levels, .sup = &sup, .rng = rng, .ph = ph,
                        .bytes = bytes, .parts = parts, .nparts = nparts, .res = M.rank == 0 ? &so.res : NULL,
                        .mode = mode, .nfiles = nfiles, .distinct = so.distinct,
                        .suppressed_tuples = so.suppressed_tuples, .k = o->k, .suppress = o->suppress,
                        .remove_suppressed = o->remove_suppressed, .quiet = o->quiet, .output = o->output,
                        .report = o->report, .seed = o->seed};
        rc = kmpi_kepsilon(&M, &nd, &o->dp);
        free(levels);
        goto done;
    }

    /* apply: every released column, QIs at the node's levels, '*' in the
     * QIs of a suppressed tuple; each row to a random rank */
    t0 = kmpi_now_ms();
    size_t nf = 0;
    size_t *cols = malloc(t->ncols * sizeof *cols);
    int *qi_of = malloc(t->ncols * sizeof *qi_of);
    const char **fields = malloc(t->ncols * sizeof *fields);
    uint32_t *tu = malloc(q * sizeof *tu);
    out = calloc((size_t)M.size, sizeof *out);
    if (!cols || !qi_of || !fields || !tu || !out)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t j = 0; j < t->ncols; j++) {
        qi_of[j] = -1;
        if (keps_schema_released(s, j))
            cols[nf++] = j;
    }
    for (size_t i = 0; i < q; i++)
        qi_of[kc[i].col] = (int)i;
    keps_counts n = {0};
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t i = 0; i < q; i++)
            tu[i] = kc[i].local[t->cols[kc[i].col].codes[r]];
        int suppressed = kmpi_freq_find(&sup, tu) >= 0;
        n.input_rows++;
        if (suppressed) {
            n.suppressed_rows++;
            if (o->remove_suppressed) {
                n.removed_rows++;
                continue;
            }
        }
        for (size_t x = 0; x < nf; x++) {
            size_t j = cols[x];
            int i = qi_of[j];
            uint32_t code = t->cols[j].codes[r];
            fields[x] = i < 0 ? t->cols[j].values[code]
                        : suppressed ? "*"
                                     : keps_hierarchy_label(s->qi[i].h, levels[i], s->qi[i].map[levels[i]][code]);
        }
        if (kmpi_rows_add(&out[keps_rng_below(rng, (uint64_t)M.size)], fields, nf, t->delimiter))
            MPI_Abort(MPI_COMM_WORLD, 3);
        n.output_rows++;
    }
    ph[PH_APPLY] = kmpi_now_ms() - t0;
    t0 = kmpi_now_ms();
    kmpi_exchange(&M, out, &in);
    for (int d = 0; d < M.size; d++)
        kmpi_rows_free(&out[d]);
    ph[PH_SHUFFLE] = kmpi_now_ms() - t0;
    bytes[3] = bytes_since(&mark);
    t0 = kmpi_now_ms();
    for (size_t x = 0; x < nf; x++)
        fields[x] = t->cols[cols[x]].name;
    if (!(path = kmpi_shard_path(o->output, M.rank)))
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (M.rank == 0 && o->report)
        st = keps_outfile_open(&o->report, 1, &rep, &err);
    if (!st)
        st = kmpi_write_shard(&in, nf, fields, t->delimiter, rng, path, &shard, &err);
    free(cols), free(qi_of), free(fields), free(tu), free(levels);
    kmpi_rows_free(&in);
    keps_counts all = {0};
    MPI_Reduce(&n, &all, 5, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    /* the shards go into place only when every rank wrote its own */
    if (!kmpi_all_ok(&M, st)) {
        rc = st ? fail(&err) : 3;
        kmpi_abort_shard(shard);
        keps_outfile_abort(rep);
        goto done;
    }
    st = kmpi_commit_shard(shard, &err);
    shard = NULL;
    ph[PH_WRITE] = kmpi_now_ms() - t0;
    double phmax[PH_N];
    MPI_Reduce(ph, phmax, PH_N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long rss = ru.ru_maxrss, rssmax = 0;
    MPI_Reduce(&rss, &rssmax, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!kmpi_all_ok(&M, st)) {
        rc = st ? fail(&err) : 3;
        keps_outfile_abort(rep);
        goto done;
    }
    if (M.rank == 0) {
        keps_json j;
        report_json(o, &j, t, kc, q, &so, &all, phmax, bytes, mode, nfiles, rssmax);
        if (rep) {
            fputs(keps_json_text(&j), keps_outfile_stream(rep));
            fputc('\n', keps_outfile_stream(rep));
            if ((st = keps_outfile_commit(&rep, 1, &err)))
                rc = fail(&err);
        }
        if (!o->quiet)
            fprintf(stderr,
                    "keps-mpi anonymize: %zu rows on %d rank(s), k = %ld, %zu suppressed, %zu written to %s\n",
                    all.input_rows, M.size, o->k, all.suppressed_rows, all.output_rows, o->output);
        keps_json_free(&j);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
done:
    if (shard)
        kmpi_abort_shard(shard);
    free(path);
    free(out);
    free(so.levels);
    free(so.heights);
    if (M.rank == 0)
        keps_ola_result_free(&so.res);
    kmpi_freq_free(&f);
    kmpi_freq_free(&sup);
    keps_rng_free(rng);
    keps_schema_free(s);
    keycols_free(kc, q);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &M.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &M.size);
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc) {
        kmpi_kepsilon_free(&o.dp);
        MPI_Finalize();
        return rc < 0 ? 0 : rc;
    }
    if (o.seed && M.rank == 0)
        fprintf(stderr, "keps-mpi: --seed makes the output reproducible and therefore NOT private; use it "
                        "for tests only\n");
    double ph[PH_N] = {0}, t0 = kmpi_now_ms();
    keps_error err = {0};
    keps_table *t = NULL;
    const char *mode = "shards";
    size_t nfiles = 0;
    kmpi_input_opts io = {o.input, o.ninput, o.delimiter, o.missing};
    kmpi_part *parts = NULL;
    size_t nparts = 0;
    keps_status st = kmpi_read_input(&M, &io, &t, &mode, &nfiles, &parts, &nparts, &err);
    ph[PH_READ] = kmpi_now_ms() - t0;
    if (!kmpi_all_ok(&M, st)) {
        rc = st ? fail(&err) : 2;
    } else {
        kmpi_rr_in ri = {t, o.rr, o.qi, o.sensitive, o.insensitive, o.identifier, o.nqi, o.nsensitive,
                         o.ninsensitive, o.nidentifier, o.others, o.output, o.report, o.seed, mode, nfiles, o.quiet, ph};
        rc = !strcmp(o.cmd, "count") ? run_count(&o, t, ph)
             : !strcmp(o.cmd, "rr")  ? kmpi_rr(&M, &ri)
                                     : run_anonymize(&o, t, ph, mode, nfiles, parts, nparts);
    }
    /* the exit status is the worst rank's */
    int worst = 0;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    keps_table_free(t);
    for (size_t i = 0; i < nparts; i++)
        free(parts[i].path);
    free(parts);
    free(o.input), free(o.qi), free(o.sensitive), free(o.insensitive), free(o.identifier), free(o.noisy);
    free(o.dp.bounds), free(o.dp.weight);
    kmpi_kepsilon_free(&o.dp);
    MPI_Finalize();
    return worst;
}
