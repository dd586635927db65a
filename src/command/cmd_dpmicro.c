/* keps dpmicro: differentially private microaggregation (docs/spec.md, section 5). The
 * library calls are keps_dpmicro_data_bounds (a column without --bounds),
 * keps_dpmicro_run, keps_dpmicro_unlink and keps_dpmicro_release
 * (include/keps/dpmicro.h); this file reads options,
 * columns and bounds, writes the release and the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "guarantee.h"
#include "kdp.h"
#include "keps/dpmicro.h"

static const cmd_opt opt_mode = {"mode", 'm', "multivariate|univariate", 0,
                                 "multivariate: insensitive MDAV on all {qi} columns together, one noisy centroid "
                                 "per cluster (scale floor(N/k)*sum_j D_j/(k*eps)); univariate: each column "
                                 "microaggregated alone (scale m*D_j/(k*eps)); default multivariate",
                                 "univariate"};
static const cmd_opt opt_bounds = {"bounds", 0, "NAME=LO:HI", CLI_REPEAT,
                                   "public domain of a {qi} column; the DP guarantee rests on it. "
                                   "Without it the column falls back to [min(0, 1.5*min), max(0, 1.5*max)] read "
                                   "from the data (the paper's rule: [0, 1.5*max] for a column without negative "
                                   "values), which the guarantee does not cover (a warning says so)",
                                   "FICA=0:10000"};
static const cmd_opt opt_unlink = {"unlink-columns", 0, NULL, 0,
                                   "{mode} univariate only (refused with multivariate): shuffle every column "
                                   "independently, so rows no longer pair one record's groups; with several "
                                   "columns only then is the release epsilon-DP (the row pairing itself leaks)",
                                   ""};
static const cmd_opt opt_paper = {"paper-accounting", 0, NULL, 0,
                                  "experiments only: the paper's printed noise (independent per record, scale "
                                  "D_j/(k*eps)); NOT differential privacy, the report says so",
                                  ""};
static const cmd_opt opt_qi_num = {"qi", 0, "NAME", CLI_REPEAT,
                                   "numeric column to microaggregate and release with noise (a name, no "
                                   "hierarchy)",
                                   "FICA\nFEDTAX"};

/* --unlink-columns belongs to univariate mode: multivariate rows are
 * epsilon-DP as they stand, and shuffling their columns apart would only
 * break every row (cmd_mode_options). */
static const cmd_mode_opt by_mode[] = {
    {"unlink-columns", "univariate",
     "multivariate rows are epsilon-DP as they stand, and shuffling each column apart would only break them; "
     "drop {unlink-columns}, or give {mode} univariate",
     1},
};

static const cmd_opt *const opts[] = {&opt_mode, &cmd_opt_input, &cmd_opt_output, &opt_qi_num, &cmd_opt_k,
                                      &cmd_opt_epsilon, &opt_bounds, &opt_unlink, &opt_paper, &cmd_opt_identifier,
                                      &cmd_opt_insensitive, &cmd_opt_sensitive, &cmd_opt_others,
                                      &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_digits, &cmd_opt_report, &cmd_opt_seed,
                                      &cmd_opt_keep_order, &cmd_opt_threads, NULL};

/* Bounds per column: given by --bounds, or read from the data by
 * keps_dpmicro_data_bounds (which refuses a column of zeros only). The
 * warning is the CLI's: those bounds are outside the DP guarantee, and
 * keps_dpmicro_guarantee lists the columns in guarantee.data_dependent. */
static keps_status fill_bounds(cmd_ctx *c, const keps_table *t, const size_t *cols, size_t m, const double *x,
                               size_t n, double *lo, double *hi, int *given)
{
    keps_status rc = kdp_bounds(c, t, cols, m, lo, hi, given);
    for (size_t j = 0; j < m && !rc; j++) {
        if (given[j])
            continue;
        keps_error err = {0};
        if (keps_dpmicro_data_bounds(x, n, m, j, &lo[j], &hi[j], &err)) /* x is finite (kdp_numeric) */
            rc = cmd_usage_error(c, "column '%s' is constant 0: give {bounds} %s=LO:HI", t->cols[cols[j]].name,
                                 t->cols[cols[j]].name);
        if (!rc) /* weakens the guarantee: printed even with --quiet */
            cmd_msg(c, KEPS_MSG_PRIVACY, "warning: no {bounds} for '%s'; using [%g, %g] read from the data (the paper's "
                    "rule). Bounds taken from the data weaken the DP guarantee; give public bounds.", t->cols[cols[j]].name, lo[j], hi[j]);
    }
    return rc;
}

/* Rows in input order with k > 1 and linked columns: refused, except in a
 * seeded run (tests and the oracles, which match rows to records), whose
 * output is not private anyway; its report then states no DP guarantee. */
static int order_leaks(const cmd_ctx *c, const keps_dpmicro_params *p, int unlink)
{
    return cmd_flag(c, "keep-order") && p->k > 1 && !unlink;
}

static keps_status report(cmd_ctx *c, const keps_schema *s, const size_t *cols, const keps_dpmicro_result *r,
                          const keps_dpmicro_params *p, int unlink, const keps_guarantee *g, double rl, double ms)
{
    keps_json j;
    cmd_report_begin(c, &j, "dpmicro");
    keps_counts n = {.input_rows = r->n, .output_rows = r->n};
    cmd_report_counts(&j, &n);
    keps_json_str(&j, "report_note", "metrics (SSE, record linkage), clamped_inputs and any bounds read from the "
                                     "data come from the original values and are not covered by the guarantee: "
                                     "keep this report with the curator and publish the release only");
    keps_guarantee_json(g, &j, "guarantee");
    kdp_noise_scale_json(&j, s->t, cols, r->m, r->scale);
    keps_json_object(&j, "noise_scale_used");
    for (size_t a = 0; a < r->m; a++)
        keps_json_num(&j, s->t->cols[cols[a]].name, r->scale_used[a]);
    keps_json_end(&j);
    keps_json_object(&j, "bounds");
    for (size_t a = 0; a < r->m; a++) {
        keps_json_array(&j, s->t->cols[cols[a]].name);
        keps_json_num(&j, NULL, p->lo[a]);
        keps_json_num(&j, NULL, p->hi[a]);
        keps_json_end(&j);
    }
    keps_json_end(&j);
    keps_json_str(&j, "mode", p->mode == KEPS_DPM_MULTIVARIATE ? "multivariate" : "univariate");
    keps_json_int(&j, "k", (long long)r->k);
    keps_json_int(&j, "clusters", (long long)r->nclusters);
    if (p->mode == KEPS_DPM_MULTIVARIATE) {
        keps_json_num(&j, "sensitivity_l1", r->sensitivity);
    } else { /* one part per attribute (docs/spec.md, section 5): its centroids move by D_j/k in all */
        keps_json_null(&j, "sensitivity_l1");
        keps_json_object(&j, "sensitivity_l1_per_column");
        for (size_t a = 0; a < r->m; a++)
            keps_json_num(&j, s->t->cols[cols[a]].name, (p->hi[a] - p->lo[a]) / (double)r->k);
        keps_json_end(&j);
    }
    keps_json_int(&j, "clamped_inputs", (long long)r->clamped_inputs);
    cmd_report_digits(&j, s->t, cols, r->m, p->digits);
    keps_json_object(&j, "metrics");
    keps_json_num(&j, "sse", r->sse);
    keps_json_num(&j, "sse_standardized", r->sse_standardized);
    keps_json_num(&j, "record_linkage", rl);
    keps_json_num(&j, "record_linkage_percent", 100 * rl);
    keps_json_num(&j, "record_linkage_released", r->record_linkage_released);
    keps_json_end(&j);
    keps_json_object(&j, "timing_ms");
    keps_json_num(&j, "total", ms);
    keps_json_end(&j);
    keps_json_end(&j);
    char text[512], gs[200];
    if (order_leaks(c, p, unlink)) /* the summary states what the report's guarantee states */
        snprintf(gs, sizeof gs, "no DP guarantee (%s shows the clusters)", CMD_SPELL(c, "keep-order"));
    else if (p->paper_accounting)
        snprintf(gs, sizeof gs, "no DP guarantee (the paper's accounting, claimed epsilon %g)", p->epsilon);
    else if (g->dp)
        snprintf(gs, sizeof gs, "%s, epsilon %.17g%s", keps_guarantee_model(g), keps_guarantee_value(g, "epsilon"),
                 g->ndd ? " (bounds read from the data)" : "");
    else
        snprintf(gs, sizeof gs, "heuristic, not DP (epsilon %g only with %s)", r->epsilon,
                 CMD_SPELL(c, "unlink-columns"));
    snprintf(text, sizeof text,
             "dpmicro: %zu records, %zu clusters, %s\n  for the curator only (from the original values): SSE "
             "%.6g, RL %.3f%%\n",
             r->n, r->nclusters, gs, r->sse, 100 * rl);
    keps_status rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

static keps_status parse_params(cmd_ctx *c, keps_dpmicro_params *p, int *unlink)
{
    long k;
    const char *mode = cmd_str(c, "mode");
    memset(p, 0, sizeof *p);
    *unlink = 0;
    if (mode && strcmp(mode, "univariate") == 0)
        p->mode = KEPS_DPM_UNIVARIATE;
    else if (mode && strcmp(mode, "multivariate") != 0)
        return cmd_usage_error(c, "{mode} '%s': expected multivariate or univariate", mode);
    if (cmd_k(c, 1, 1, &k) < 0) /* the shared -k range (cli.h) */
        return KEPS_EINPUT;
    if (cmd_require(c, "epsilon") || cmd_double(c, "epsilon", 1e-300, 1e300, 1, &p->epsilon) < 0)
        return KEPS_EINPUT;
    if (cmd_mode_options(c, "{mode} ", mode ? mode : "multivariate", by_mode, sizeof by_mode / sizeof *by_mode))
        return KEPS_EINPUT;
    p->k = (size_t)k;
    p->paper_accounting = cmd_flag(c, "paper-accounting");
    *unlink = cmd_flag(c, "unlink-columns");
    /* Rows that share a noisy centroid sit where their records sat: in input
     * order they show which records the data put in one cluster, whatever
     * the noise (D = 0.1, 0.2, 0.3, 0.4 gives rows 1-2 and 3-4 equal; change
     * row 1 to 0.9 and rows 2-3 pair up). k = 1 has no clusters, and
     * --unlink-columns shuffles every column anyway. */
    if (order_leaks(c, p, *unlink) && !cmd_str(c, "seed"))
        return cmd_usage_error(c, "{keep-order} with {k} %ld would release the data-dependent clusters: rows that "
                                  "share a noisy centroid keep their records' positions, so which rows are equal "
                                  "shows how the data grouped them (not covered by epsilon-DP). Drop {keep-order} "
                                  "(the rows are then shuffled); the report's record_linkage already measures "
                                  "linkage against the original rows",
                               k);
    return KEPS_OK;
}

static keps_status run(cmd_ctx *c)
{
    double t0 = cmd_now_ms();
    keps_dpmicro_params p;
    int unlink = 0;
    keps_status rc = KEPS_OK;
    keps_guarantee g = {0};
    if ((rc = parse_params(c, &p, &unlink)))
        return rc;
    keps_table *t = NULL;
    keps_schema *s = NULL;
    double *x = NULL, *bounds = NULL;
    size_t *cols = NULL;
    int *given = NULL, *digits = NULL;
    keps_dpmicro_result r = {0};
    keps_rng *rng = NULL;
    if ((rc = cmd_load_records(c, &t)) || (rc = cmd_build_schema(c, t, &s)))
        goto done;
    size_t m = s->nqi, n = t->nrows;
    if (m == 0) {
        rc = cmd_usage_error(c, "give the numeric columns to release with {qi} NAME (repeatable)");
        goto done;
    }
    cols = malloc(m * sizeof *cols);
    bounds = malloc(2 * m * sizeof *bounds);
    given = malloc(m * sizeof *given);
    if (!cols || !bounds || !given) {
        rc = KEPS_EINPUT;
        goto done;
    }
    for (size_t a = 0; a < m; a++) {
        if (s->qi[a].h) { /* as keps anonymize --algorithm mdav: the noisy centroid replaces the value */
            rc = cmd_usage_error(c, "dpmicro releases numeric {qi} columns as noisy centroids; {qi} '%s' has a "
                                    "hierarchy, which nothing would use: give {qi} %s (or anonymize it with keps "
                                    "anonymize)",
                                 t->cols[s->qi[a].col].name, t->cols[s->qi[a].col].name);
            goto done;
        }
        cols[a] = s->qi[a].col;
    }
    if ((rc = kdp_numeric(c, s, t, cols, m, 0, &x)) ||
        (rc = fill_bounds(c, t, cols, m, x, n, bounds, bounds + m, given)))
        goto done;
    p.lo = bounds;
    p.hi = bounds + m;
    if ((rc = cmd_digits(c, t, cols, m, &digits)))
        goto done;
    p.digits = digits;
    if (!(rng = cmd_rng(c))) {
        rc = KEPS_EINPUT;
        goto done;
    }
    keps_error err = {0};
    if (keps_dpmicro_run(x, n, m, &p, rng, &r, &err)) {
        rc = cmd_fail(c, &err);
        goto done;
    }
    keps_dpmicro_guarantee(&p, &r, s, given, unlink, cmd_flag(c, "keep-order"), &g);
    if ((rc = cmd_guarantee_spell(c, &g)))
        goto done;
    if (r.clamped_inputs && !c->quiet)
        cmd_msg(c, KEPS_MSG_NOTE, "note: %zu input value(s) lay outside {bounds} and were clamped into them", r.clamped_inputs);
    /* warnings that weaken the guarantee print even with --quiet */
    if (p.paper_accounting)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: {paper-accounting} reproduces the paper's noise scale, which is not "
                        "differentially private (docs/spec.md, section 5): the release has no DP guarantee");
    else if (!r.row_linked_dp && !unlink)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: univariate mode with %zu columns releases rows that pair each "
                        "record's groups; that pairing is not differentially private. Use {unlink-columns} "
                        "for an epsilon-DP release.", m);
    if (order_leaks(c, &p, unlink))
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: {keep-order} with {k} %zu shows which rows share a noisy centroid, i.e. the "
                        "data-dependent clusters: the release has no DP guarantee (allowed with {seed} only, for "
                        "tests)", p.k);
    cmd_dd_warn(c, &g); /* a DP guarantee's data-dependent bounds */
    cmd_uncovered_warn(c, &g, "only the {qi} columns");
    double rl = r.record_linkage; /* before any column unlinking */
    if (unlink && keps_dpmicro_unlink(rng, r.out, n, m)) {
        rc = KEPS_EINPUT;
        goto done;
    }
    keps_table *rel = NULL;
    if (keps_dpmicro_release(s, cols, &r, &rel, &err))
        rc = cmd_fail(c, &err);
    else
        rc = cmd_write_release(c, &rel);
    keps_table_free(rel);
    if (rc)
        goto done;
    rc = report(c, s, cols, &r, &p, unlink, &g, rl, cmd_now_ms() - t0);
done:
    keps_dpmicro_result_free(&r);
    free(x);
    free(bounds);
    free(cols);
    free(digits);
    free(given);
    keps_guarantee_free(&g);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_dpmicro = {
    "dpmicro",
    "differentially private microaggregation (insensitive MDAV + Laplace)",
    "dpmicro {mode} multivariate|univariate {input} FILE {output} FILE {qi} NAME ... {k} K {epsilon} E {bounds} NAME=LO:HI "
    "... [options]",
    "Releases the {qi} numeric columns with epsilon-differential privacy (Soria-Comas et al. 2013, with the "
    "sound accounting of docs/spec.md, section 5): records are grouped by insensitive microaggregation into clusters of k (group "
    "sizes depend on N and k only), each cluster's centroid gets Laplace noise once, and every record of the "
    "cluster receives that noisy centroid, clamped to the public bounds. multivariate groups on all columns "
    "together (L1 sensitivity floor(N/k)*sum_j D_j/k, since every cluster may move); univariate groups each "
    "column alone (sensitivity D_j/k per column, epsilon split over the columns). k = 1 is plain per-record "
    "Laplace. The report states the scale used per column, the epsilon guaranteed (including the sampler's grid "
    "rounding, never above {epsilon}: the scale is calibrated a hair up), SSE and the record-linkage percentage "
    "(both from the original values: the report is the curator's). The guarantee covers the {qi} columns: every "
    "row, their number and their order (shuffled; {keep-order} with {k} above 1 is refused, since rows that share a "
    "noisy centroid would show the data's clusters). Other released columns are not covered (guarantee.not_covered, "
    "and a warning). It assumes public bounds: bounds read from the data are listed in guarantee.data_dependent and "
    "the model is then 'epsilon-DP (data-dependent)' (docs/spec.md, section 15, \"What must be public\").",
    "dpmicro {mode} multivariate {input} data/casc/casc.csv {output} out.csv {qi} FICA {qi} FEDTAX {qi} INTVAL "
    "{qi} POTHVAL {others} drop {k} 50 {epsilon} 1 {bounds} FICA=0:10000 {bounds} FEDTAX=0:40000 "
    "{bounds} INTVAL=0:50000 {bounds} POTHVAL=0:150000 {report} report.json",
    opts,
    run,
    0,
    NULL,
};
