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
#include "cli/cli.h"
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

#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char *phase_name[PH_N] = {"read", "encode", "count", "merge", "search", "apply", "shuffle", "write"};

typedef struct opts {
    const char *cmd, *algorithm, *output, *report, *html, *others, *counts, *seed;
    int json;                 /* --json: the report on stdout too */
    const char *input_text;   /* -i as given (the report's input) */
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
    fputs("usage: mpirun -np P keps-mpi anonymize --algorithm ola -i FILES -o 'out/part-%r.csv' (keps anonymize's flags)\n"
          "       mpirun -np P keps-mpi kepsilon --algorithm ola -i FILES -o 'out/part-%r.csv' --qi NAME:H ... -k K\n"
          "                --noisy C ... --epsilon E [--scale ec|global|domain] [--bounds NAME=LO:HI ...] [--clamp]\n"
          "                [--confidence C] [--digits N|exact] [--metric M] [--gs-factor F] [--monotonic]\n"
          "                [--aggregate A] [--weight NAME=W ...] [--threads N] (roles, --report, --html, --json, --seed)\n"
          "       mpirun -np P keps-mpi safela -i FILES -o 'out/part-%r.csv' --qi NAME:H ... -k K --beta B\n"
          "                [--epsilon-prime E1] [--epsilon E] [--penalty F] [--interpolate none|level] (roles, --report...)\n"
          "       mpirun -np P keps-mpi rr --mechanism ldp|tclose|both -i FILES -o 'out/part-%r.csv' --sensitive C ...\n"
          "                [--domain C=V1,V2,...|C=@FILE] [--qi C ...] [--partition given|ola -k K]\n"
          "                (-p P | --epsilon E | --pt P | --t T) [--dp-k K] [-k K] (roles, --report...)\n"
          "       mpirun -np P keps-mpi count -i FILES --qi NAME ... [--counts COL] -o FILE\n"
          "anonymize, kepsilon, safela and rr take the flags of the keps command of that name ('keps anonymize\n"
          "--help' lists them, with --job files); keps-mpi refuses those it cannot honour across ranks.\n"
          "anonymize takes every privacy criterion and quality model of keps anonymize --algorithm ola: rank 0\n"
          "searches the merged frequency table of the QIs and sensitive columns as keps anonymize --counts does.\n"
          "-i: shard files, a list or a glob ('parts/*.csv', -i may be repeated), dealt to the ranks in contiguous\n"
          "    blocks; or one file, then cut in byte ranges at line breaks (a quoted line break is refused).\n"
          "-o: one shard per rank ('%r' is the rank); the rows are shuffled across all ranks.\n"
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

/* The parsed command line of anonymize, kepsilon, safela and rr: the
 * CLI's own parser on the catalog's command, so keps-mpi takes keps's
 * flags, job files and checks (count is keps-mpi's own). */
static kc_ctx KC;

/* The values of parameter name (none: 0). */
static size_t kc_vals(const char *name, char ***v)
{
    for (size_t i = 0; i < KC.nopts; i++)
        if (!strcmp(KC.opts[i]->name, name)) {
            *v = KC.vals[i].v;
            return KC.vals[i].n;
        }
    *v = NULL;
    return 0;
}

static int listed(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (!strcmp(*list, name))
            return 1;
    return 0;
}

keps_args *kmpi_args(const kc_ctx *c, const char *const *skip)
{
    keps_args *a = keps_args_new();
    int ok = a != NULL;
    for (size_t i = 0; ok && i < c->nopts; i++)
        for (size_t k = 0; ok && !(skip && listed(skip, c->opts[i]->name)) && k < c->vals[i].n; k++)
            ok = keps_args_add(a, c->opts[i]->name, c->vals[i].v[k], c->vals[i].origin) == KEPS_OK;
    if (!ok)
        keps_args_free(a);
    return ok ? a : NULL;
}

/* The parameters keps-mpi honours beyond the catalog's common ones: every
 * one of anonymize's but those that need the rows on one machine. */
static const char *const common_params[] = {"input", "output", "qi", "sensitive", "insensitive", "identifier",
                                            "others", "report", "html", "json", "seed", "delimiter", "missing",
                                            "quiet", "help", "job", NULL};
static const char *const kepsilon_params[] = {"algorithm", "noisy", "epsilon", "k", "suppress", "scale",
                                              "remove-suppressed", "bounds", "clamp", "confidence", "digits",
                                              "metric", "gs-factor", "monotonic", "aggregate", "weight",
                                              "threads", NULL};
static const char *const safela_params[] = {"k", "beta", "epsilon-prime", "epsilon", "penalty", "interpolate",
                                            "remove-suppressed", NULL};
static const char *const rr_params[] = {"mechanism", "partition", "p", "pt", "epsilon", "t", "dp-k", "k", "domain",
                                        NULL};
static const char *const anonymize_refused[] = {"subset", "emit-sql", "sql-dialect", "sql-table", "keep-order",
                                                "counts", "decimal-comma", NULL};


/* Flags of keps's commands that keps-mpi does not honour, and why. */
static const struct {
    const char *flag, *why;
} refused[] = {
    {"keep-order", "the rows are shuffled across all ranks (a record's shard and position must not tell its "
                   "input position); run keps %s on one machine to keep the input order"},
    {"decimal-comma", "the shards are read with '.' decimals; convert them first, or run keps %s "
                      "--decimal-comma on one machine"},
};

/* Says why keps-mpi does not honour flag of keps's command cmd (say); the
 * exit code 2. */
static int refuse(const char *cmd, const char *flag, int say)
{
    for (size_t i = 0; say && i < sizeof refused / sizeof *refused; i++)
        if (!strcmp(flag, refused[i].flag)) {
            fprintf(stderr, "keps-mpi %s: --%s is not taken: ", cmd, flag);
            fprintf(stderr, refused[i].why, cmd);
            fputc('\n', stderr);
        }
    return 2;
}

/* A given parameter keps-mpi cannot honour, or NULL. */
static const char *unsupported(const char *cmd)
{
    const char *const *own = !strcmp(cmd, "kepsilon") ? kepsilon_params
                             : !strcmp(cmd, "safela") ? safela_params
                             : !strcmp(cmd, "rr")     ? rr_params
                                                      : NULL;
    for (size_t i = 0; i < KC.nopts; i++) {
        const char *name = KC.opts[i]->name;
        if (!KC.vals[i].n)
            continue;
        if (own ? !listed(common_params, name) && !listed(own, name) : listed(anonymize_refused, name))
            return name;
    }
    return NULL;
}

/* Runs fn's output on rank 0 only: the other ranks parse the same words
 * with stdout and stderr sent to /dev/null. */
static int parse_muted(const char *cmd, int argc, char **argv)
{
    int saved[2] = {-1, -1}, null = -1;
    if (M.rank) {
        fflush(stdout), fflush(stderr);
        null = open("/dev/null", O_WRONLY);
        for (int fd = 1; null >= 0 && fd <= 2; fd++)
            saved[fd - 1] = dup(fd), dup2(null, fd);
    }
    int rc = kc_parse(&KC, keps_command(cmd), argc, argv);
    if (M.rank) {
        fflush(stdout), fflush(stderr);
        for (int fd = 1; fd <= 2; fd++)
            if (saved[fd - 1] >= 0)
                dup2(saved[fd - 1], fd), close(saved[fd - 1]);
        if (null >= 0)
            close(null);
    }
    return rc;
}

static int parse_number(const char *flag, const char *text, double lo, double hi, double *out)
{
    char *end;
    if (!text)
        return 0;
    *out = strtod(text, &end);
    if (*end || !(*out >= lo && *out <= hi)) {
        char msg[160];
        snprintf(msg, sizeof msg, "keps-mpi: %s '%%s': give a number from %g to %g\n", flag, lo, hi);
        say(msg, text);
        return 2;
    }
    return 0;
}

/* opts from the parsed parameters. */
static int from_args(opts *o)
{
    struct { const char *name; char ***v; size_t *n; } lists[] = {
        {"qi", &o->qi, &o->nqi}, {"sensitive", &o->sensitive, &o->nsensitive},
        {"insensitive", &o->insensitive, &o->ninsensitive}, {"identifier", &o->identifier, &o->nidentifier},
        {"noisy", &o->noisy, &o->nnoisy}};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        *lists[i].n = kc_vals(lists[i].name, lists[i].v);
    const char *in = kc_str(&KC, "input"); /* from a job file */
    if (!o->ninput && in && push(&o->input, &o->ninput, in))
        return 3;
    size_t len = 1;
    for (size_t i = 0; i < o->ninput; i++)
        len += strlen(o->input[i]) + 1;
    char *it = calloc(len, 1);
    if (!it)
        return 3;
    for (size_t i = 0; i < o->ninput; i++)
        strcat(strcat(it, i ? " " : ""), o->input[i]);
    o->input_text = it;
    M.args = &KC;
    M.input_text = it;
    o->algorithm = kc_str(&KC, "algorithm");
    o->output = kc_str(&KC, "output");
    o->report = kc_str(&KC, "report");
    o->html = kc_str(&KC, "html");
    o->json = KC.json;
    o->others = kc_str(&KC, "others");
    o->seed = kc_str(&KC, "seed");
    o->missing = kc_str(&KC, "missing");
    o->quiet = KC.quiet;
    o->remove_suppressed = kc_flag(&KC, "remove-suppressed");
    o->dp.scale = kc_str(&KC, "scale");
    o->dp.beta = kc_str(&KC, "beta");
    o->dp.eps_prime_text = kc_str(&KC, "epsilon-prime");
    o->dp.penalty_text = kc_str(&KC, "penalty");
    o->dp.interp_text = kc_str(&KC, "interpolate");
    o->rr = (kmpi_rr_opts){kc_str(&KC, "mechanism"), kc_str(&KC, "partition"), kc_str(&KC, "p"),
                           kc_str(&KC, "pt"), kc_str(&KC, "epsilon"), kc_str(&KC, "t"), kc_str(&KC, "dp-k"),
                           kc_str(&KC, "k"), NULL, 0};
    o->rr.ndomain = kc_vals("domain", &o->rr.domain);
    const char *d = kc_str(&KC, "delimiter");
    if (d && strlen(d) != 1 && strcmp(d, "\\t")) {
        say("keps-mpi: --delimiter '%s': give one character\n", d);
        return 2;
    }
    o->delimiter = !d ? 0 : strcmp(d, "\\t") ? d[0] : '\t';
    double v = -1;
    if (parse_number("-k", kc_str(&KC, "k"), 1, 1e9, &v) || parse_number("--suppress", kc_str(&KC, "suppress"), 0, 1, &o->suppress))
        return 2;
    o->k = v >= 0 ? (long)v : -1;
    if (o->k >= 0 && (double)o->k != v) {
        say("keps-mpi: -k '%s': give a whole number\n", kc_str(&KC, "k"));
        return 2;
    }
    if (strcmp(o->cmd, "rr") && parse_number("--epsilon", kc_str(&KC, "epsilon"), 1e-300, 1e300, &o->dp.epsilon))
        return 2;
    return 0;
}

/* keps-mpi CMD ARGS: -i may come several times (the shards); the catalog's
 * input takes one, so the words of every -i go to o->input and the parser
 * sees the first. */
static int parse_catalog(int argc, char **argv, opts *o)
{
    char **av = calloc((size_t)argc + 3, sizeof *av);
    int ac = 0;
    if (!av)
        return 3;
    av[ac++] = argv[1];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            while (i < argc)
                av[ac++] = argv[i++];
            break;
        }
        const char *v = !strcmp(argv[i], "-i") || !strcmp(argv[i], "--input") ? (i + 1 < argc ? argv[++i] : NULL)
                        : !strncmp(argv[i], "--input=", 8)                       ? argv[i] + 8
                        : !strncmp(argv[i], "-i", 2) && argv[i][2]              ? argv[i] + 2
                                                                                 : NULL;
        if (v ? push(&o->input, &o->ninput, v) : (av[ac++] = argv[i], 0)) {
            free(av);
            return 3;
        }
    }
    if (o->ninput) {
        av[ac++] = "-i";
        av[ac++] = o->input[0];
    }
    int rc = parse_muted(o->cmd, ac, av);
    free(av);
    if (rc >= 0)
        return rc ? rc : -1; /* an error, or --help printed */
    const char *bad = unsupported(o->cmd);
    if (bad && (!strcmp(bad, "keep-order") || !strcmp(bad, "decimal-comma")))
        return refuse(o->cmd, bad, M.rank == 0); /* with the reason */
    if (bad) {
        char buf[64];
        kc_spell(&KC, bad, buf, sizeof buf);
        if (M.rank == 0)
            fprintf(stderr, "keps-mpi %s: %s is not available across ranks%s; run keps %s on one machine for it\n",
                    o->cmd, buf,
                    !strcmp(o->cmd, "anonymize") ? " (a research subset, the SQL script and the input order need "
                                                   "the rows in one place; keps-mpi count makes frequency tables)"
                                                 : "",
                    o->cmd);
        return 2;
    }
    return from_args(o);
}

/* keps-mpi count: its own options. */
static int parse_count(int argc, char **argv, opts *o)
{
    static const struct option lo[] = {
        {"input", 1, 0, 'i'}, {"output", 1, 0, 'o'}, {"qi", 1, 0, 'q'}, {"counts", 1, 0, 'c'},
        {"delimiter", 1, 0, 'd'}, {"missing", 1, 0, 'm'}, {"quiet", 0, 0, 'Q'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    optind = 2;
    opterr = M.rank == 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "i:o:q", lo, NULL)) != -1) {
        switch (ch) {
        case 'i': push(&o->input, &o->ninput, optarg); break;
        case 'o': o->output = optarg; break;
        case 'q': push(&o->qi, &o->nqi, optarg); break;
        case 'c': o->counts = optarg; break;
        case 'm': o->missing = optarg; break;
        case 'Q': o->quiet = 1; break;
        case 'd':
            if (strlen(optarg) != 1 && strcmp(optarg, "\\t")) {
                say("keps-mpi: --delimiter '%s': give one character\n", optarg);
                return 2;
            }
            o->delimiter = strcmp(optarg, "\\t") ? optarg[0] : '\t';
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
            "ola), safela, rr and count\n",
            o->cmd);
        return 2;
    }
    int by_node = strcmp(o->cmd, "count") && strcmp(o->cmd, "safela") && strcmp(o->cmd, "rr"); /* an OLA search */
    int safela = !strcmp(o->cmd, "safela"), rr = !strcmp(o->cmd, "rr");
    int rc = !strcmp(o->cmd, "count") ? parse_count(argc, argv, o) : parse_catalog(argc, argv, o);
    if (rc)
        return rc;
    const char *need = !o->ninput ? "-i" : !o->output ? "-o" : !o->nqi && strcmp(o->cmd, "rr") ? "--qi" : NULL;
    if (!need && (safela || !strcmp(o->cmd, "kepsilon")) && o->k < 0)
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
    if (safela && kmpi_safela_check(&o->dp, M.rank == 0))
        return 2;
    if (rr && kmpi_rr_check(&o->rr, M.rank == 0))
        return 2;
    if (!strcmp(o->cmd, "kepsilon") && kmpi_kepsilon_check(&M, &o->dp, M.rank == 0))
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
    int anonymize = !strcmp(o->cmd, "anonymize");
    /* anonymize's search reads the sensitive columns too (its criteria):
     * their agreed codes follow the QIs' in every tuple */
    size_t q = o->nqi, ns = anonymize ? o->nsensitive : 0;
    unsigned long long mark = M.bytes_sent;
    double bytes[5] = {0, 0, 0, 0, -1};
    keycol *kc = calloc(q + ns + 1, sizeof *kc);
    keps_schema *s = keps_schema_new(t);
    keps_rng *rng = NULL;
    double t0 = kmpi_now_ms();
    keps_status st = kc && s ? agree(t, o->qi, q, 1, kc, &err) : KEPS_ENOMEM;
    if (!st)
        st = agree(t, o->sensitive, ns, 0, kc + q, &err);
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
                            .remove_suppressed = 1, .quiet = o->quiet, .output = o->output, .report = o->report, .html = o->html, .json = o->json,
                            .seed = o->seed};
            rc = kmpi_safela(&M, &nd, &o->dp);
        }
        keps_rng_free(rng);
        keps_schema_free(s);
        keycols_free(kc, q + ns);
        return rc;
    }
    t0 = kmpi_now_ms();
    if (!st)
        st = count_local(t, kc, q + ns, &f, &err);
    ph[PH_COUNT] = kmpi_now_ms() - t0;
    int rc = 0;
    search_out so = {0};
    kmpi_anon_out ao = {0};
    char **role = NULL; /* anonymize: the columns whose role only keeps or drops them */
    size_t nrole = 0;
    for (size_t i = 0; anonymize && i < o->ninsensitive + o->nidentifier; i++)
        if (push(&role, &nrole, i < o->ninsensitive ? o->insensitive[i] : o->identifier[i - o->ninsensitive]))
            MPI_Abort(MPI_COMM_WORLD, 3);
    kmpi_anon_in ai = {&KC, t, kc, q, ns, role, nrole, o->input_text};
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
    int *levels = malloc((q ? q : 1) * sizeof *levels);
    if (!levels)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (M.rank == 0 && anonymize) {
        st = kmpi_anonymize_search(&ai, &f, levels, &sup, &ao, &err);
        so.found = !st;
        so.distinct = f.n;
        so.suppressed_tuples = sup.n;
    } else if (M.rank == 0) {
        st = search(o, t, kc, q, &f, objective, threads, &so, &sup, &err);
        if (!st && so.found)
            memcpy(levels, so.res.levels, q * sizeof *levels);
    }
    int head[2] = {st, so.found};
    MPI_Bcast(head, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (head[0] || !head[1]) {
        if (M.rank == 0 && st) {
            rc = fail(&err);
            if (ao.usage)
                fprintf(stderr, "(see 'keps anonymize --help': keps-mpi takes its flags)\n");
        }
        else if (M.rank == 0)
            fprintf(stderr, "keps-mpi anonymize: no generalization satisfies k = %ld with at most %zu suppressed "
                            "rows (--suppress %g); raise --suppress or lower -k\n",
                    o->k, so.res.suppress_limit, o->suppress);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        rc = rc ? rc : 1;
        free(levels);
        goto done;
    }
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
                        .report = o->report, .html = o->html, .json = o->json, .seed = o->seed};
        rc = kmpi_kepsilon(&M, &nd, &o->dp);
        free(levels);
        goto done;
    }

    /* anonymize: every rank releases its rows by the node, the rows go
     * through the global shuffle, rank 0 writes the search's report */
    t0 = kmpi_now_ms();
    kmpi_node nd = {.t = t, .s = s, .kc = kc, .q = q, .levels = levels, .sup = &sup, .rng = rng, .ph = ph,
                    .bytes = bytes, .parts = parts, .nparts = nparts, .mode = mode, .nfiles = nfiles,
                    .distinct = so.distinct, .suppressed_tuples = so.suppressed_tuples, .k = o->k,
                    .suppress = o->suppress, .remove_suppressed = o->remove_suppressed, .quiet = o->quiet,
                    .output = o->output, .report = o->report, .html = o->html, .json = o->json, .seed = o->seed};
    keps_table *rel = NULL;
    keps_counts n, all;
    st = kmpi_apply_node(&nd, kc, q, NULL, o->remove_suppressed, &rel, &n, &err);
    /* what the ranks suppress must be what the search decided: checked
     * before any shard goes into place */
    unsigned long long mine = n.suppressed_rows, sum = 0, expect = ao.suppressed_records;
    MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(&expect, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (!st && M.rank == 0 && sum != expect)
        st = keps_error_set(&err, KEPS_EIO, "internal error: the ranks suppressed %llu records, the search %llu; "
                            "nothing was written", sum, expect);
    ph[PH_APPLY] = kmpi_now_ms() - t0;
    free(levels);
    rc = kmpi_shuffle_write(&M, &nd, st, &err, rel, &n, &all);
    keps_table_free(rel);
    if (!rc) {
        char *text = M.rank == 0 ? kmpi_anonymize_text(&ao, &nd, &all) : NULL;
        rc = kmpi_finish(&M, &nd, text, "anonymize", &all);
        free(text);
    }
done:
    json_decref(ao.report);
    free(role);
    free(so.levels);
    free(so.heights);
    if (M.rank == 0)
        keps_ola_result_free(&so.res);
    kmpi_freq_free(&f);
    kmpi_freq_free(&sup);
    keps_rng_free(rng);
    keps_schema_free(s);
    keycols_free(kc, q + ns);
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
                         o.ninsensitive, o.nidentifier, o.others, o.output, o.report, o.seed, mode, nfiles, o.quiet, ph,
                         o.html, o.json, parts, nparts};
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
    free(o.input), free((char *)o.input_text);
    if (strcmp(o.cmd ? o.cmd : "", "count")) /* the lists are the parser's */
        kc_ctx_free(&KC);
    else
        free(o.qi);
    kmpi_kepsilon_free(&o.dp);
    MPI_Finalize();
    return worst;
}
