/* keps audit: empirical privacy loss of a built-in mechanism on two
 * neighbouring inputs (docs/spec.md, section 8). The estimator is libkeps (audit.h); this
 * file sets up the mechanism from the options and prints the verdict. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/audit.h"
#include "keps/noise.h"

static const cmd_opt opt_mech = {"mechanism", 0, "laplace|geometric|rr|expmech", 0,
                                 "the mechanism to audit", "laplace"};
static const cmd_opt opt_sens = {"sensitivity", 0, "S", 0, "sensitivity (default 1)", "1"};
static const cmd_opt opt_va = {"value-a", 0, "V", CLI_NUMBER,
                               "input A (default 0; rr: the true category of A)", "0"};
static const cmd_opt opt_vb = {"value-b", 0, "V", CLI_NUMBER,
                               "input B (default A + sensitivity; rr: category 1)", "1"};
static const cmd_opt opt_p = {"p", 'p', "P", CLI_NUMBER, "rr: keep probability (default 0.6)", "0.6"};
static const cmd_opt opt_cat = {"categories", 0, "N", CLI_NUMBER, "rr: number of categories (default 4)",
                                "4"};
static const cmd_opt opt_matrix = {"matrix", 0, "ROWS", 0,
                                   "rr: transition matrix, rows separated by ';', entries by ','",
                                   "0.7,0.3;0.3,0.7"};
static const cmd_opt opt_cand = {"candidates", 0, "N", CLI_NUMBER,
                                 "expmech: candidates; A has utilities (S,0,..,0), B (0,S,..,S) (default 20)",
                                 "20"};
static const cmd_opt opt_factor = {"scale-factor", 0, "F", CLI_NUMBER,
                                   "laplace: multiply the noise scale by F to simulate a broken "
                                   "implementation (default 1)",
                                   "0.5"};
static const cmd_opt opt_claim = {"claim", 0, "E", CLI_NUMBER,
                                  "claimed epsilon to test (default: the guarantee the mechanism states)",
                                  "1"};
static const cmd_opt opt_trials = {"trials", 0, "N", CLI_NUMBER, "runs per input (default 100000)", "200000"};
static const cmd_opt opt_bins = {"bins", 0, "N", CLI_NUMBER,
                                 "quantile bins for numeric outputs, laplace and geometric (default 20; rr and "
                                 "expmech get one bin per category)",
                                 "20"};
static const cmd_opt opt_alpha = {"alpha", 0, "A", CLI_NUMBER,
                                  "1 - confidence of the simultaneous Clopper-Pearson bounds (default 0.05)",
                                  "0.01"};

/* audit releases nothing: its seed only makes the trials reproducible. */
static const cmd_opt opt_seed = {"seed", 0, "N", CLI_NUMBER,
                                 "reproducible trials (audit releases no data, so no privacy depends on it)",
                                 "1"};

/* --neighbours: the end-to-end audit of a whole command (audit_neighbours.c). */
static const cmd_opt opt_neighbours = {
    "neighbours", 0, "FILE FILE2", 0,
    "audit a whole keps command end to end: the command after '--' runs {runs} times on each of the two "
    "neighbouring inputs (this keps, as a subprocess: {input}, {output}, {report} and {seed} are the auditor's), and every "
    "release is tested against events that do not know the mechanism (see the description); the claim is the "
    "guarantee the command's report states",
    "{neighbours} d.csv d2.csv -- dpmicro {qi} x {k} 2 {epsilon} 1 {bounds} x=0:1"};
static const cmd_opt opt_runs = {"runs", 0, "N", CLI_NUMBER,
                                 "{neighbours}: runs per input (default 1000; {selection} of them choose the "
                                 "events, the others are counted)",
                                 "2000"};
static const cmd_opt opt_selection = {"selection", 0, "F", CLI_NUMBER,
                                      "{neighbours}: share of the runs that choose the events, values, thresholds "
                                      "and bins tested (default 0.2, at least 10 runs)",
                                      "0.2"};
static const cmd_opt opt_jobs = {"jobs", 'j', "J", CLI_NUMBER, "{neighbours}: runs at a time (default 2)", "2"};
static const cmd_opt opt_binary = {"binary", 0, "PATH", 0,
                                   "{neighbours}: the keps executable to audit (default: this one), e.g. an older "
                                   "build",
                                   "/tmp/keps-old/build/keps"};
static const cmd_opt opt_delta_claim = {"delta", 0, "D", CLI_NUMBER,
                                        "{neighbours}: the delta of the claim to test (default: the reports', 0 "
                                        "for pure DP; 0 with {epsilon})",
                                        "1e-6"};
static const cmd_opt opt_uncovered = {"include-uncovered", 0, NULL, 0,
                                      "{neighbours}: test the columns the reports list in guarantee.not_covered too "
                                      "(left out by default: the claim does not cover them)",
                                      ""};

static const cmd_opt *const opts[] = {&opt_mech, &opt_neighbours, &opt_runs, &opt_selection, &opt_jobs, &opt_binary,
                                      &cmd_opt_epsilon, &opt_delta_claim, &opt_uncovered, &opt_sens, &opt_va,
                                      &opt_vb, &opt_p, &opt_cat, &opt_matrix, &opt_cand, &opt_factor,
                                      &opt_claim, &opt_trials, &opt_bins, &opt_alpha, &opt_seed, &cmd_opt_report,
                                      NULL};

/* Options of one kind of audit given to the other: refused (either would
 * be ignored and the audit test something else than asked). */
static const char *const primitive_only[] = {"mechanism", "sensitivity", "value-a", "value-b", "p",
                                             "categories", "matrix", "candidates", "scale-factor", "claim",
                                             "trials"};
static const char *const neighbours_only[] = {"runs", "selection", "jobs", "binary", "delta",
                                              "include-uncovered"};

static keps_status other_kind(cmd_ctx *c, int neighbours)
{
    const char *const *l = neighbours ? primitive_only : neighbours_only;
    size_t n = neighbours ? sizeof primitive_only / sizeof *primitive_only
                          : sizeof neighbours_only / sizeof *neighbours_only;
    for (size_t i = 0; i < n; i++)
        if (cmd_str(c, l[i]))
            return cmd_usage_error(c, neighbours ? "%s belongs to the audit of one {mechanism}; with {neighbours} "
                                                   "the command after '--' is audited (its claim: {epsilon}, {delta})"
                                                 : "%s belongs to the end-to-end audit, {neighbours} FILE FILE2 -- "
                                                   "COMMAND ...",
                                   CMD_SPELL(c, l[i]));
    if (!neighbours && c->npos)
        return cmd_usage_error(c, "unexpected argument '%s': a command to audit goes with {neighbours} FILE FILE2 "
                                  "-- COMMAND ...",
                               c->npos ? c->pos[0] : c->rest[0]);
    return KEPS_OK;
}

static const cmd_opt opt_second = {"second", 0, "FILE2", KEPS_PARAM_POSITIONAL | KEPS_PARAM_REPEAT | KEPS_PARAM_PATH,
                                   "the second input of {neighbours}, neighbouring the first", "d2.csv"};
static const cmd_opt opt_command = {"command", 0, "WORD", KEPS_PARAM_POSITIONAL | KEPS_PARAM_REST | KEPS_PARAM_REPEAT,
                                    "the audited command and its parameters (on a command line: after '--')",
                                    "dpmicro\n--qi\nx\n-k\n2\n--epsilon\n1\n--bounds\nx=0:1"};
static const cmd_opt *const pos_opts[] = {&opt_second, &opt_command, NULL};

/* Parses "a,b;c,d" into a malloc'd n x n matrix. */
static keps_status parse_matrix(cmd_ctx *c, const char *s, double **out, uint32_t *n)
{
    uint32_t rows = 1, cells = 1;
    for (const char *p = s; *p; p++) {
        rows += *p == ';';
        cells += *p == ';' || *p == ',';
    }
    if ((uint64_t)rows * rows != cells || rows > 4096)
        return cmd_usage_error(c, "{matrix}: expected a square matrix, got %u rows and %u entries", rows, cells);
    double *m = malloc((size_t)cells * sizeof *m);
    if (!m)
        return cmd_oom(c);
    const char *p = s;
    for (uint32_t i = 0; i < cells; i++) {
        char *end;
        m[i] = strtod(p, &end);
        char want = i + 1 == cells ? '\0' : ((i + 1) % rows == 0 ? ';' : ',');
        if (end == p || *end != want) {
            free(m);
            return cmd_usage_error(c, "{matrix}: entry %u (row %u) is not a number followed by '%c'", i % rows + 1,
                                   i / rows + 1, want ? want : ' ');
        }
        p = end + (want != '\0');
    }
    *out = m;
    *n = rows;
    return KEPS_OK;
}

typedef struct audit_setup {
    keps_audit_fn fn;
    void *ctx;
    double claim;  /* the mechanism's own stated guarantee */
    int discrete;
    keps_audit_laplace lap;
    keps_audit_geometric geo;
    keps_audit_rr rra;
    keps_rr_sampler rr;
    keps_audit_expmech em;
    double *ua, *ub;
} audit_setup;

static keps_status setup_laplace(cmd_ctx *c, audit_setup *a, double eps, double sens, int geometric)
{
    double va, vb, f;
    if (cmd_double(c, "value-a", -1e300, 1e300, 0, &va) < 0 || cmd_double(c, "value-b", -1e300, 1e300, va + sens, &vb) < 0 ||
        cmd_double(c, "scale-factor", 1e-6, 1e6, 1, &f) < 0)
        return KEPS_EINPUT;
    keps_noise_info info;
    if (geometric) {
        if (sens != floor(sens) || va != floor(va) || vb != floor(vb) || keps_geometric_info(eps, (int64_t)sens, &info))
            return cmd_usage_error(c, "geometric: give whole {sensitivity}, {value-a}, {value-b} and epsilon > 0");
        a->geo = (keps_audit_geometric){(int64_t)va, (int64_t)vb, (int64_t)sens, eps};
        a->fn = keps_audit_geometric_fn;
        a->ctx = &a->geo;
    } else {
        /* the scale keps noise draws with: calibrated so that the stated
         * epsilon, grid rounding included, is at most the requested one */
        double b = keps_laplace_calibrate(sens, 1, eps);
        if (!(b > 0) || keps_laplace_info(b, sens, &info))
            return cmd_usage_error(c, "laplace: scale sensitivity/epsilon out of range");
        a->lap = (keps_audit_laplace){va, vb, b, f};
        a->fn = keps_audit_laplace_fn;
        a->ctx = &a->lap;
    }
    if (fabs(va - vb) > sens && !c->quiet)
        cmd_msg(c, KEPS_MSG_NOTE, "note: |value-a - value-b| > sensitivity: these inputs are not neighbours");
    a->claim = info.epsilon;
    return KEPS_OK;
}

static keps_status setup_rr(cmd_ctx *c, audit_setup *a)
{
    double p;
    long n, va, vb;
    double *m = NULL;
    uint32_t nn = 0;
    const char *ms = cmd_str(c, "matrix");
    if (ms) {
        if (parse_matrix(c, ms, &m, &nn))
            return KEPS_EINPUT;
    } else {
        if (cmd_double(c, "p", 0, 1, 0.6, &p) < 0 || cmd_long(c, "categories", 2, 4096, 4, &n) < 0)
            return KEPS_EINPUT;
        nn = (uint32_t)n;
        m = malloc((size_t)nn * nn * sizeof *m);
        if (!m)
            return cmd_oom(c);
        keps_transition_keep(p, nn, m);
    }
    keps_error err = {0};
    int rc = keps_rr_sampler_init(&a->rr, m, nn, &err);
    free(m);
    if (rc)
        return cmd_fail(c, &err);
    if (cmd_long(c, "value-a", 0, (long)nn - 1, 0, &va) < 0 || cmd_long(c, "value-b", 0, (long)nn - 1, 1, &vb) < 0)
        return KEPS_EINPUT;
    a->rra = (keps_audit_rr){&a->rr, (uint32_t)va, (uint32_t)vb};
    a->fn = keps_audit_rr_fn;
    a->ctx = &a->rra;
    a->claim = a->rr.epsilon;
    a->discrete = 1;
    return KEPS_OK;
}

static keps_status setup_expmech(cmd_ctx *c, audit_setup *a, double eps, double sens)
{
    long n;
    if (cmd_long(c, "candidates", 2, 10000000, 20, &n) < 0)
        return KEPS_EINPUT;
    a->ua = calloc((size_t)n, sizeof *a->ua);
    a->ub = calloc((size_t)n, sizeof *a->ub);
    if (!a->ua || !a->ub)
        return cmd_oom(c);
    /* Worst case of the mechanism: the favourite of A loses S on B while
     * every other candidate gains S, so the loss approaches eps as n grows. */
    a->ua[0] = sens;
    for (long i = 1; i < n; i++)
        a->ub[i] = sens;
    a->em = (keps_audit_expmech){a->ua, a->ub, (size_t)n, eps, sens};
    a->fn = keps_audit_expmech_fn;
    a->ctx = &a->em;
    a->claim = eps;
    a->discrete = 1;
    return KEPS_OK;
}

/* An option of another mechanism would be ignored, and the audit would
 * test something else than the user asked (rr's epsilon follows from its
 * matrix, say): refused. --bins only shapes the estimate: a note. */
static const cmd_mode_opt foreign[] = {
    {"epsilon", "laplace|geometric|expmech",
     "rr's epsilon follows from {p} and {categories} or {matrix}; test another claim with {claim} E", 1},
    {"sensitivity", "laplace|geometric|expmech", "rr's inputs are categories ({value-a}, {value-b})", 1},
    {"value-a", "laplace|geometric|rr", "expmech's inputs are fixed utility vectors ({candidates})", 1},
    {"value-b", "laplace|geometric|rr", "expmech's inputs are fixed utility vectors ({candidates})", 1},
    {"scale-factor", "laplace", "it simulates a broken Laplace implementation", 1},
    {"p", "rr", "it is randomized response's keep probability", 1},
    {"categories", "rr", "it is randomized response's number of categories", 1},
    {"matrix", "rr", "it is randomized response's transition matrix", 1},
    {"candidates", "expmech", "it is the exponential mechanism's number of candidates", 1},
    {"bins", "laplace|geometric", "rr and expmech outputs are categories, one bin each", 0},
};

static keps_status foreign_option(cmd_ctx *c, const char *mech)
{
    if (cmd_mode_options(c, "{mechanism} ", mech, foreign, sizeof foreign / sizeof *foreign))
        return KEPS_EINPUT;
    if (cmd_str(c, "matrix") && (cmd_str(c, "p") || cmd_str(c, "categories")))
        return cmd_usage_error(c, "{matrix} gives the whole mechanism: drop {p} and {categories}");
    return KEPS_OK;
}

static keps_status run(cmd_ctx *c)
{
    const char *mech = cmd_str(c, "mechanism");
    double eps, sens, claim, alpha;
    long trials, bins;
    int neighbours = cmd_str(c, "neighbours") != NULL;
    if (other_kind(c, neighbours))
        return KEPS_EINPUT;
    if (neighbours)
        return cmd_audit_neighbours(c);
    if (cmd_require(c, "mechanism"))
        return KEPS_EINPUT;
    if (cmd_double(c, "epsilon", 1e-9, 1e9, 1, &eps) < 0 || cmd_double(c, "sensitivity", 1e-300, 1e300, 1, &sens) < 0 ||
        cmd_long(c, "trials", 10, 20000000L, 100000, &trials) < 0 || cmd_long(c, "bins", 2, 100000, 20, &bins) < 0 ||
        cmd_double(c, "alpha", 1e-12, 0.5, 0.05, &alpha) < 0)
        return KEPS_EINPUT;
    audit_setup a;
    memset(&a, 0, sizeof a);
    keps_status rc = KEPS_OK;
    if (strcmp(mech, "laplace") && strcmp(mech, "geometric") && strcmp(mech, "rr") && strcmp(mech, "expmech"))
        rc = cmd_usage_error(c, "{mechanism} '%s': expected laplace, geometric, rr or expmech", mech);
    else if (foreign_option(c, mech))
        rc = KEPS_EINPUT;
    else if (!strcmp(mech, "laplace") || !strcmp(mech, "geometric"))
        rc = setup_laplace(c, &a, eps, sens, mech[0] == 'g');
    else if (!strcmp(mech, "rr"))
        rc = setup_rr(c, &a);
    else
        rc = setup_expmech(c, &a, eps, sens);
    keps_rng *r = rc ? NULL : cmd_rng(c);
    if (!rc && !r)
        rc = KEPS_EINPUT;
    if (!rc && cmd_double(c, "claim", 0, 1e9, a.claim, &claim) < 0)
        rc = KEPS_EINPUT;
    keps_audit_result res;
    if (!rc) {
        keps_audit_opts o;
        keps_audit_defaults(&o);
        o.epsilon = claim;
        o.trials = (size_t)trials;
        o.bins = (size_t)bins;
        o.alpha = alpha;
        o.discrete = a.discrete;
        keps_error err = {0};
        if (keps_audit_run(r, a.fn, a.ctx, &o, &res, &err))
            rc = cmd_fail(c, &err);
    }
    if (!rc) {
        keps_json j;
        char text[768], sided[160] = "";
        cmd_report_begin(c, &j, "audit");
        keps_json_str(&j, "mechanism", mech);
        keps_audit_json(&res, &j, "audit");
        cmd_report_total(c, &j);
        keps_json_end(&j);
        if (res.one_sided_bins)
            snprintf(sided, sizeof sided, " (%zu of the %zu bins hold outputs of one input only: their ratio is infinite)",
                     res.one_sided_bins, res.bins);
        snprintf(text, sizeof text,
                 "%s: claimed epsilon %.6g; largest log ratio where both inputs have outputs %.4f%s; worst bin %zu "
                 "(of %zu, from 0) by its lower bound: %s estimated %.4f, %.3g confidence bounds [%.4f, %.4f]; "
                 "%zu trials per input: %s\n",
                 mech, res.epsilon_claimed, res.epsilon_hat, sided, res.worst_bin, res.bins,
                 res.worst_direction ? "ln(B/A)" : "ln(A/B)", res.worst_hat, 1 - alpha, res.epsilon_lower,
                 res.epsilon_upper, res.trials, res.violation ? "VIOLATION" : "no violation found");
        rc = cmd_emit_finding(c, &j, text, res.violation);
        keps_json_free(&j);
    }
    keps_rr_sampler_free(&a.rr);
    free(a.ua);
    free(a.ub);
    return rc;
}

const cmd_cmd cmd_audit = {
    "audit",
    "empirical privacy-loss audit: of a mechanism, or of a whole command on neighbouring inputs",
    "audit {mechanism} laplace|geometric|rr|expmech [options]  |  audit {neighbours} D.csv D2.csv [{runs} N] -- "
    "COMMAND ARGS...",
    "{mechanism}: runs the mechanism {trials} times on input A and on input B, histograms the outputs (quantile "
    "bins, or one bin per category), and reports the largest log probability ratio with simultaneous "
    "Clopper-Pearson bounds. {neighbours} D.csv D2.csv -- COMMAND ARGS: runs the whole keps command (dpmicro, "
    "safela, rr, noise, ...: its own flags, without {input}, {output}, {report} and {seed}, which the auditor supplies) "
    "{runs} times on each of two neighbouring inputs, as a subprocess of this executable (or {binary}), each run "
    "with fresh randomness (with {seed}, each run's seed is drawn from it and the audit is reproducible), and "
    "tests each release against events that do not know the mechanism: the exit status, header and row count; "
    "which of the first rows (whole, and per column) are equal, whether rows i and i+1 are equal, the number of "
    "distinct rows and values; the patterns of '*' cells and the rows holding one; which values each column "
    "holds; per numeric column, counts in bins cut at quantiles of the pooled outputs, and the mean, minimum and "
    "maximum. The values, bins and thresholds tested come from the first {selection} share of the runs, the "
    "counts from the rest. Every event gets one-sided Clopper-Pearson bounds on its probability under D and "
    "under D2, Bonferroni-corrected over all events and both directions, so that an honest mechanism is flagged "
    "with probability at most {alpha}. The claim is the guarantee.epsilon and guarantee.delta the command's "
    "reports state (a DP model; columns in guarantee.not_covered are left out), or {epsilon} and {delta}; a "
    "violation is an event with P(D) > e^epsilon P(D2) + delta beyond the bounds (or the reverse). Events that "
    "held under one input only are listed first. A violation exits 1 and, like every exit 1, writes no {report} "
    "file ({json} prints the report on stdout). An audit can refute a claim, never prove it.",
    "audit {neighbours} d.csv d2.csv {runs} 1000 {seed} 1 -- dpmicro {qi} x {k} 2 {epsilon} 1 {bounds} x=0:1",
    opts,
    run,
    (size_t)-1, /* FILE2 and the audited command; other_kind() checks them */
    pos_opts,
};
