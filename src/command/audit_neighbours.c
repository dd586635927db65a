/* keps audit --neighbours D.csv D2.csv --runs N -- COMMAND ARGS...: runs a
 * whole keps command (this executable, or --binary) on two neighbouring
 * inputs as a subprocess, N times each, and hands every release to the
 * library's release audit (keps/audit_release.h), which owns the events and
 * the estimators. This file only spawns, reads files and prints. */
#define _GNU_SOURCE /* readlink, environ */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command_internal.h"
#include "keps/audit_release.h"
#include "keps/csv.h"

/* A flag of the keps executable's command line (a run's argv), not a
 * message: the only flags the library spells. */
#define ARGV(flag) flag

extern char **environ;

/* Options that the auditor supplies itself (or that would make a run
 * release nothing): refused in COMMAND ARGS. */
static const char *const supplied[] = {"input", "output", "report", "seed", "job", "help"};

static int supplied_option(const char *w)
{
    if (w[0] != '-')
        return 0;
    if (w[1] != '-') /* -i FILE, -iFILE, -o ..., -h */
        return w[1] == 'i' || w[1] == 'o' || w[1] == 'h';
    for (size_t i = 0; i < sizeof supplied / sizeof *supplied; i++) {
        size_t l = strlen(supplied[i]);
        if (strncmp(w + 2, supplied[i], l) == 0 && (w[2 + l] == '\0' || w[2 + l] == '='))
            return 1;
    }
    return 0;
}

/* One child process slot: its release, report and stderr are files in the
 * audit's own temporary directory (removed at the end; a killed audit
 * leaves it behind in $TMPDIR, named keps-audit-XXXXXX). */
typedef struct slot {
    pid_t pid;
    int side;
    size_t run;
    char out[PATH_MAX], rep[PATH_MAX], err[PATH_MAX];
} slot;

typedef struct nbrs {
    cmd_ctx *c;
    const char *binary;
    const char *input[2];
    char **args;      /* COMMAND ARGS */
    size_t nargs;
    keps_rng *seeds;  /* NULL: every run draws its own entropy */
    slot *slots;
    size_t nslots;
    keps_release_audit *audit;
    keps_audit_claim claim[2];
    int have_claim[2];
    keps_table *first[2]; /* the releases of run 0, before the audit exists (NULL after exit 1) */
    int first_code[2];
    size_t done, total;
    char dir[PATH_MAX]; /* the temporary directory ("" until made) */
} nbrs;

/* The temporary directory and the slots' file names in it. */
static int make_files(nbrs *b)
{
    const char *tmp = b->c->host->tmpdir; /* the host's (the CLI: TMPDIR); the library reads no environment */
    char dir[PATH_MAX - 64];
    if (snprintf(dir, sizeof dir, "%s/keps-audit-XXXXXX", tmp && *tmp ? tmp : "/tmp") >= (int)sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(dir))
        return -1;
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    for (size_t i = 0; i < b->nslots; i++) {
        snprintf(b->slots[i].out, sizeof b->slots[i].out, "%s/release-%zu.csv", dir, i);
        snprintf(b->slots[i].rep, sizeof b->slots[i].rep, "%s/report-%zu.json", dir, i);
        snprintf(b->slots[i].err, sizeof b->slots[i].err, "%s/stderr-%zu.txt", dir, i);
    }
    return 0;
}

static void slots_free(nbrs *b)
{
    for (size_t i = 0; b->dir[0] && b->slots && i < b->nslots; i++) {
        unlink(b->slots[i].out);
        unlink(b->slots[i].rep);
        unlink(b->slots[i].err);
    }
    if (b->dir[0])
        rmdir(b->dir);
    free(b->slots);
}

/* Starts run `run` of side on slot s. */
static keps_status spawn_run(nbrs *b, slot *s, int side, size_t run)
{
    char seed[32];
    const char *argv[64 + 16];
    size_t n = 0;
    if (b->nargs + 14 > sizeof argv / sizeof *argv)
        return cmd_usage_error(b->c, "the audited command has too many arguments (at most 64)");
    /* The run is the keps executable's command line: its own flags, the
     * one place the library writes them (ARGV marks them for
     * tests/library_speaks.sh). */
    argv[n++] = b->binary;
    for (size_t i = 0; i < b->nargs; i++)
        argv[n++] = b->args[i];
    argv[n++] = ARGV("-i");
    argv[n++] = b->input[side];
    argv[n++] = ARGV("-o");
    argv[n++] = s->out;
    argv[n++] = ARGV("--report");
    argv[n++] = s->rep;
    argv[n++] = ARGV("--quiet");
    if (b->seeds) { /* reproducible: a seed per run from the auditor's own */
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)(keps_rng_u64(b->seeds) >> 1));
        argv[n++] = ARGV("--seed");
        argv[n++] = seed;
    }
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, s->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = posix_spawn(&s->pid, b->binary, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e) {
        return cmd_error(b->c, KEPS_EINPUT, "cannot run %s: %s", b->binary, strerror(e));
    }
    s->side = side;
    s->run = run;
    return KEPS_OK;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            char *grown = realloc(buf, cap = 2 * cap + 8192);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* A run that went wrong in a way the audit cannot count (a usage error,
 * a crash): what the child said, and KEPS_EINPUT. */
static keps_status child_failed(const nbrs *b, const slot *s, const char *how)
{
    size_t len = 0;
    char *msg = slurp(s->err, &len);
    if (msg && len && msg[len - 1] == '\n')
        msg[len - 1] = '\0';
    cmd_error(b->c, KEPS_EINPUT, "keps %s on %s %s; it said:\n%s", b->args[0], b->input[s->side], how,
              msg && len ? msg : "(nothing)");
    free(msg);
    return KEPS_EINPUT;
}

/* The stated guarantee of a side, from its first report. */
static keps_status read_claim(nbrs *b, const slot *s)
{
    size_t len = 0;
    char *js = slurp(s->rep, &len);
    keps_error err = {0};
    if (!js)
        return child_failed(b, s, "exited 0 but wrote no report");
    keps_status rc = keps_release_audit_claim(js, len, &b->claim[s->side], &err) ? KEPS_EINPUT : KEPS_OK;
    if (rc)
        cmd_error(b->c, KEPS_EINPUT, "the report of keps %s on %s: %s", b->args[0], b->input[s->side], err.msg);
    free(js);
    b->have_claim[s->side] = !rc;
    return rc;
}

/* Waits for the child of one busy slot and returns it (NULL if none). */
static slot *reap(nbrs *b, int *status)
{
    for (;;) {
        pid_t pid = waitpid(-1, status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            return NULL;
        }
        for (size_t i = 0; i < b->nslots; i++)
            if (b->slots[i].pid == pid) {
                b->slots[i].pid = 0;
                return &b->slots[i];
            }
    }
}

/* A finished run: counted by the audit (phase 0 selection, 1 test), or,
 * in phase -1 (run 0 of each side, before the audit exists: their reports
 * give the claim and the columns it does not cover), kept aside. */
static keps_status finish_run(nbrs *b, slot *s, int status, int phase)
{
    if (!WIFEXITED(status))
        return child_failed(b, s, WIFSIGNALED(status) ? "was killed by a signal" : "stopped");
    int code = WEXITSTATUS(status);
    if (code != 0 && code != 1) /* bad usage or input: the pair or the arguments are wrong */
        return child_failed(b, s, "exited with status 2 (bad usage or input)");
    keps_table *t = NULL;
    keps_error err = {0};
    keps_status rc = KEPS_OK;
    if (code == 0) {
        if (!b->have_claim[s->side] && (rc = read_claim(b, s)))
            return rc;
        if (keps_csv_read(s->out, NULL, &t, &err))
            return cmd_error(b->c, KEPS_EINPUT, "the release of keps %s on %s: %s", b->args[0], b->input[s->side],
                             err.msg);
    }
    b->done++;
    cmd_progress(b->c, "audit runs", (double)b->done, (double)b->total);
    if (phase < 0) {
        b->first[s->side] = t;
        b->first_code[s->side] = code;
        return KEPS_OK;
    }
    keps_status st = phase ? keps_release_audit_add(b->audit, s->side, t, code, &err)
                           : keps_release_audit_select(b->audit, s->side, t, code, &err);
    keps_table_free(t);
    return st ? cmd_fail(b->c, &err) : KEPS_OK;
}

/* Runs [from, to) of both sides, interleaved, nslots at a time. */
static keps_status batch(nbrs *b, size_t from, size_t to, int phase)
{
    size_t next = 2 * from, end = 2 * to, busy = 0;
    keps_status rc = KEPS_OK;
    int status;
    while (!rc && (next < end || busy)) {
        for (size_t i = 0; i < b->nslots && next < end && !rc; i++)
            if (!b->slots[i].pid) {
                rc = spawn_run(b, &b->slots[i], (int)(next % 2), next / 2);
                next++;
                busy += !rc;
            }
        if (!busy)
            break;
        slot *s = reap(b, &status);
        if (!s)
            return cmd_error(b->c, KEPS_EINPUT, "lost a child process: %s", strerror(errno));
        busy--;
        if (!rc)
            rc = finish_run(b, s, status, phase);
    }
    while (busy) { /* after an error: let the others end */
        if (!reap(b, &status))
            break;
        busy--;
    }
    return rc;
}

/* The claim audited: --epsilon/--delta, else the larger of the two
 * reports' (a data-dependent guarantee may differ between the inputs). */
static keps_status claim_of(nbrs *b, double *eps, double *delta, char *model, size_t len)
{
    int ge = cmd_double(b->c, "epsilon", 0, 1e9, NAN, eps), gd = cmd_double(b->c, "delta", 0, 0.999999, NAN, delta);
    if (ge < 0 || gd < 0)
        return KEPS_EINPUT;
    double e = -INFINITY, d = 0;
    model[0] = '\0';
    for (int s = 0; s < 2; s++) {
        if (!b->have_claim[s])
            continue;
        const keps_audit_claim *c = &b->claim[s];
        if (!model[0] || strcmp(model, c->model) != 0)
            snprintf(model + strlen(model), len - strlen(model), "%s%s", model[0] ? " / " : "", c->model);
        if (c->dp && !isnan(c->epsilon))
            e = fmax(e, c->epsilon);
        d = fmax(d, c->delta);
    }
    if (!ge) {
        if (!isfinite(e))
            return cmd_usage_error(b->c, "the reports state '%s', which is no differential-privacy epsilon to "
                                         "audit; give the claim to test with {epsilon} E (and {delta} D)",
                                   model[0] ? model : "no guarantee");
        *eps = e;
    }
    if (!gd)
        *delta = ge ? 0 : d;
    return KEPS_OK;
}

/* Columns the claim does not cover, left out of the events unless
 * --include-uncovered: the union over both reports (n of at most max). */
static size_t left_out(const nbrs *b, const char **ig, size_t max)
{
    size_t n = 0;
    for (int s = 0; s < 2 && !cmd_flag(b->c, "include-uncovered"); s++)
        for (size_t i = 0; b->have_claim[s] && i < b->claim[s].nnot_covered && n < max; i++) {
            size_t k = 0;
            while (k < n && strcmp(ig[k], b->claim[s].not_covered[i]))
                k++;
            if (k == n)
                ig[n++] = b->claim[s].not_covered[i];
        }
    return n;
}

static keps_release_audit *new_audit(nbrs *b)
{
    keps_release_audit_opts o;
    keps_release_audit_defaults(&o);
    long bins;
    if (cmd_long(b->c, "bins", 2, 1000, 10, &bins) < 0)
        return NULL;
    o.bins = (size_t)bins;
    const char *ig[256];
    o.ignore = ig;
    o.nignore = left_out(b, ig, 256);
    keps_error err = {0};
    keps_release_audit *a = keps_release_audit_new(&o, &err);
    if (!a)
        cmd_fail(b->c, &err);
    return a;
}

static void print_text(nbrs *b, const keps_release_audit_result *r, const char *model, FILE *f)
{
    fprintf(f, "audit of 'keps");
    for (size_t i = 0; i < b->nargs; i++)
        fprintf(f, " %s", b->args[i]);
    fprintf(f, "' on A = %s and B = %s: %zu runs each (%zu chose the events, %zu tested), %zu events, alpha %g\n",
            b->input[0], b->input[1], r->selection[0] + r->runs[0], r->selection[0], r->runs[0], r->nevents,
            r->alpha);
    const char *ig[256];
    size_t nig = left_out(b, ig, 256);
    fprintf(f, "claim: %s, epsilon %.6g, delta %.3g%s%s%s; columns left out (not covered): ", model[0] ? model : "(none)",
            r->epsilon, r->delta, cmd_str(b->c, "epsilon") ? " (from " : " (from the reports)", cmd_str(b->c, "epsilon") ? CMD_SPELL(b->c, "epsilon") : "",
            cmd_str(b->c, "epsilon") ? ")" : "");
    for (size_t i = 0; i < nig; i++)
        fprintf(f, "%s%s", i ? ", " : "", ig[i]);
    fprintf(f, "%s\n", nig ? "" : "none");
    if (r->nevents) {
        const keps_release_event *w = &r->events[0];
        fprintf(f, "largest lower bound of the loss: %.4g on \"%s\" (A %zu of %zu, B %zu of %zu)\n", w->lower,
                w->name, w->count[0], r->runs[0], w->count[1], r->runs[1]);
    }
    if (r->one_sided_significant)
        fprintf(f, "EVENTS THAT HELD ON ONE INPUT ONLY, in %zu runs or more (not by chance, at level %g): %zu\n",
                r->one_sided_min, r->alpha, r->one_sided_significant);
    for (size_t i = 0, shown = 0; i < r->nevents && shown < 10; i++) {
        const keps_release_event *e = &r->events[i];
        if (!e->one_sided_significant)
            continue;
        fprintf(f, "  A %zu/%zu, B %zu/%zu: %s\n", e->count[0], r->runs[0], e->count[1], r->runs[1], e->name);
        shown++;
    }
    if (r->one_sided > r->one_sided_significant)
        fprintf(f, "events that held on one input only, in fewer runs: %zu\n",
                r->one_sided - r->one_sided_significant);
    fprintf(f, "%s", r->violation ? "VIOLATION" : "no violation found");
    if (r->violation)
        fprintf(f, ": %zu event(s) whose loss exceeds epsilon %.6g with confidence %g", r->violations, r->epsilon,
                1 - r->alpha);
    const char *seed = CMD_SPELL(b->c, "seed");
    if (b->seeds)
        fprintf(f, "\nreproducible: every run's seed was drawn from %s\n", seed);
    else
        fprintf(f, "\nevery run drew its own entropy (give %s to reproduce the audit)\n", seed);
}

static keps_status report(nbrs *b, const keps_release_audit_result *r, const char *model)
{
    cmd_ctx *c = b->c;
    keps_json j;
    cmd_report_begin(c, &j, "audit");
    keps_json_str(&j, "mode", "neighbours");
    keps_json_array(&j, "command");
    for (size_t i = 0; i < b->nargs; i++)
        keps_json_str(&j, NULL, b->args[i]);
    keps_json_end(&j);
    keps_json_str(&j, "input_a", b->input[0]);
    keps_json_str(&j, "input_b", b->input[1]);
    keps_json_str(&j, "claim_model", model);
    keps_json_str(&j, "claim_source", cmd_str(c, "epsilon") ? "epsilon" : "report");
    const char *ig[256];
    size_t nig = left_out(b, ig, 256);
    keps_json_array(&j, "columns_left_out");
    for (size_t i = 0; i < nig; i++)
        keps_json_str(&j, NULL, ig[i]);
    keps_json_end(&j);
    keps_json_bool(&j, "reproducible", b->seeds != NULL);
    keps_release_audit_json(r, &j, "audit", 0);
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char *text = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    if (mf) {
        print_text(b, r, model, mf);
        fclose(mf);
    }
    keps_status rc = cmd_emit_finding(c, &j, text, r->violation);
    free(text);
    keps_json_free(&j);
    return rc;
}

static keps_status check_usage(cmd_ctx *c, nbrs *b, long *runs, long *jobs, double *sel, double *alpha)
{
    if (c->npos - c->nrest != 1)
        return cmd_usage_error(c, "{neighbours} takes two files: {neighbours} D.csv D2.csv%s",
                               c->npos - c->nrest > 1 ? " (then '--' and the command to audit)" : "");
    if (c->nrest < 1)
        return cmd_usage_error(c, "name the command to audit after '--': keps audit {neighbours} D.csv D2.csv "
                                  "{runs} 1000 -- dpmicro {qi} x {k} 2 {epsilon} 1 {bounds} x=0:1");
    if (strcmp(c->rest[0], "audit") == 0 || c->rest[0][0] == '-')
        return cmd_usage_error(c, "after '--' comes a keps command that releases data (dpmicro, safela, rr, noise, "
                                  "...), not '%s'",
                               c->rest[0]);
    for (size_t i = 1; i < c->nrest; i++)
        if (supplied_option(c->rest[i]))
            return cmd_usage_error(c, "'%s' after '--': the auditor gives every run its own {input} (the two inputs), "
                                      "{output}, {report} and {seed}; leave them out",
                                   c->rest[i]);
    if (cmd_long(c, "runs", 20, 100000000L, 1000, runs) < 0 || cmd_long(c, "jobs", 1, 64, 2, jobs) < 0 ||
        cmd_double(c, "selection", 0.01, 0.9, 0.2, sel) < 0 || cmd_double(c, "alpha", 1e-12, 0.5, 0.05, alpha) < 0)
        return KEPS_EINPUT;
    b->input[0] = cmd_str(c, "neighbours");
    b->input[1] = c->pos[0];
    b->args = c->rest;
    b->nargs = c->nrest;
    return KEPS_OK;
}

keps_status cmd_audit_neighbours(cmd_ctx *c)
{
    nbrs b;
    memset(&b, 0, sizeof b);
    b.c = c;
    long runs, jobs;
    double sel, alpha;
    keps_status rc = check_usage(c, &b, &runs, &jobs, &sel, &alpha);
    if (rc)
        return rc;
    b.binary = cmd_str(c, "binary");
    if (!b.binary) /* the host's executable (the CLI: itself, so the whole release path of this build is audited) */
        b.binary = c->host->program;
    if (!b.binary)
        return cmd_usage_error(c, "no keps executable to run the audited command with: give {binary} PATH");
    size_t nsel = (size_t)ceil(sel * (double)runs);
    if (nsel < 10)
        nsel = 10;
    if ((size_t)runs < nsel + 10)
        return cmd_usage_error(c, "{runs} %ld leaves fewer than 10 test runs after %zu selection runs; raise {runs}",
                               runs, nsel);
    if (cmd_str(c, "seed") && !(b.seeds = cmd_rng(c)))
        return KEPS_EINPUT;
    b.nslots = (size_t)jobs;
    b.total = 2 * (size_t)runs;
    keps_release_audit_result res;
    memset(&res, 0, sizeof res);
    double eps = 0, delta = 0;
    char model[300];
    if (!(b.slots = calloc(b.nslots, sizeof *b.slots)))
        return cmd_usage_error(c, "out of memory");
    if (make_files(&b))
        rc = cmd_usage_error(c, "cannot create a temporary directory for the runs: %s", strerror(errno));
    if (!rc)
        rc = batch(&b, 0, 1, -1);
    if (!rc)
        rc = claim_of(&b, &eps, &delta, model, sizeof model);
    if (!rc && !(b.audit = new_audit(&b)))
        rc = KEPS_EINPUT;
    keps_error err = {0};
    for (int s = 0; s < 2 && !rc; s++)
        if (keps_release_audit_select(b.audit, s, b.first[s], b.first_code[s], &err))
            rc = cmd_fail(c, &err);
    if (!rc)
        rc = batch(&b, 1, nsel, 0);
    if (!rc && keps_release_audit_freeze(b.audit, &err))
        rc = cmd_fail(c, &err);
    if (!rc)
        rc = batch(&b, nsel, (size_t)runs, 1);
    if (!rc && keps_release_audit_estimate(b.audit, eps, delta, alpha, &res, &err))
        rc = cmd_fail(c, &err);
    if (!rc)
        rc = report(&b, &res, model);
    keps_release_audit_result_free(&res);
    keps_release_audit_free(b.audit);
    keps_table_free(b.first[0]);
    keps_table_free(b.first[1]);
    keps_audit_claim_free(&b.claim[0]);
    keps_audit_claim_free(&b.claim[1]);
    slots_free(&b);
    return rc;
}
