/* keps kepsilon: (k,epsilon)-anonymity (docs/spec.md, section 4). The classes come from OLA,
 * Mondrian or the input itself (ksrc_*.c); the noise and every metric from
 * keps_kepsilon_run and the release from keps_kepsilon_release
 * (include/keps/kepsilon.h); this file wires options and the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "kdp.h"
#include "keps/kepsilon.h"
#include "ksrc.h"

static const cmd_opt opt_algorithm = {"algorithm", 'a', "ola|mondrian|given", 0,
                                      "how to k-anonymize the {qi} columns: ola (optimal full-domain "
                                      "generalization, needs hierarchies), mondrian (multidimensional "
                                      "partitioning), or given (the input is already k-anonymous: rows with "
                                      "equal {qi} values form a class; classes smaller than k are suppressed "
                                      "within {suppress}, as for ola)",
                                      "ola"};
static const cmd_opt opt_scale = {"scale", 0, "ec|global|domain", 0,
                                  "diameter behind the Laplace scale: ec = max-min inside each class (the "
                                  "paper), global = over the whole data set (the paper's Fig. 2 baseline), "
                                  "domain = the public {bounds} width; default ec",
                                  "ec"};
static const cmd_opt opt_bounds = {"bounds", 0, "NAME=LO:HI", CLI_REPEAT,
                                   "public range of a {noisy} column, read by {scale} domain (the noise scale) and "
                                   "by {clamp} (refused otherwise: ec and global take the scale from the data)",
                                   "height=100:250"};
static const cmd_opt opt_clamp = {"clamp", 0, NULL, 0,
                                  "clamp every released noisy value into its column's {bounds} (columns without "
                                  "{bounds} are not clamped): Laplace noise has long tails, so a few values land "
                                  "far outside any plausible range; clamping to public bounds is post-processing "
                                  "and keeps the guarantee. The data must lie within the bounds",
                                  "{clamp} {bounds} height=100:250"};
static const cmd_opt opt_confidence = {"confidence", 0, "C", CLI_NUMBER,
                                       "c-confident k-anonymity: suppress records whose c-confidence interval "
                                       "around the noisy value holds 1..k-1 originals of their class, then "
                                       "classes left with fewer than k records (counted apart from OLA's "
                                       "suppression); C in (0,1), e.g. 0.99",
                                       "0.99"};

static const cmd_opt *const opts[] = {&opt_algorithm, &cmd_opt_input, &cmd_opt_output, &cmd_opt_qi,
                                      &cmd_opt_noisy, &cmd_opt_k, &cmd_opt_epsilon, &opt_scale, &opt_bounds, &opt_clamp,
                                      &opt_confidence, &cmd_opt_suppress, &cmd_opt_metric, &cmd_opt_gs_factor,
                                      &cmd_opt_monotonic, &cmd_opt_aggregate, &cmd_opt_weight,
                                      &cmd_opt_remove_suppressed, &cmd_opt_threads, &cmd_opt_sensitive, &cmd_opt_insensitive,
                                      &cmd_opt_identifier, &cmd_opt_others, &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_digits,
                                      &cmd_opt_report, &cmd_opt_seed, &cmd_opt_keep_order, NULL};

/* Options of one --algorithm or --scale (cmd_mode_options). --bounds
 * without --scale domain would leave the noise read from the data while the
 * report's parameters list public bounds: refused. */
static const cmd_mode_opt by_algorithm[] = {
    {"metric", "ola", "mondrian and given pick no node by a metric", 0},
    {"gs-factor", "ola", "it weighs OLA's metric; mondrian and given pick no node by a metric", 0},
    {"monotonic", "ola", "it selects a variant of OLA's metric; mondrian and given pick no node by a metric", 0},
    {"aggregate", "ola", "it combines OLA's metric over the QIs; mondrian and given pick no node by a metric", 0},
    {"weight", "ola", "it weighs the QIs in OLA's metric; mondrian and given pick no node by a metric", 0},
    {"suppress", "ola|given", "mondrian suppresses nothing (every class already has at least k rows)", 0},
};
static const cmd_mode_opt by_scale[] = {
    {"bounds", "domain",
     "ec and global read the noise scale from the data, not from {bounds}: add {scale} domain to scale the "
     "noise by the public bounds, or drop {bounds}",
     1},
};

typedef struct {
    size_t k;
    keps_kepsilon_params p;
    const char *algorithm;
} kopts;

keps_status cmd_kepsilon_noise_options(cmd_ctx *c, keps_kepsilon_params *p)
{
    if (cmd_double(c, "confidence", 0, 0.999999999999, 0, &p->confidence) < 0)
        return KEPS_EINPUT;
    const char *sc = cmd_str(c, "scale");
    if (!sc || !strcmp(sc, "ec"))
        p->scale = KEPS_KSCALE_EC;
    else if (!strcmp(sc, "global"))
        p->scale = KEPS_KSCALE_GLOBAL;
    else if (!strcmp(sc, "domain"))
        p->scale = KEPS_KSCALE_DOMAIN;
    else
        return cmd_usage_error(c, "{scale} '%s': expected ec, global or domain", sc);
    p->clamp = cmd_flag(c, "clamp");
    if (p->clamp && !cmd_str(c, "bounds"))
        return cmd_usage_error(c, "{clamp} needs {bounds} NAME=LO:HI for the {noisy} columns to clamp, e.g. "
                                  "{bounds} height=100:250");
    /* with --clamp the bounds are read whatever the scale */
    if (!p->clamp && cmd_mode_options(c, "{scale} ", sc ? sc : "ec", by_scale, sizeof by_scale / sizeof *by_scale))
        return KEPS_EINPUT;
    return KEPS_OK;
}

static keps_status parse_opts(cmd_ctx *c, kopts *o)
{
    long k;
    memset(o, 0, sizeof *o);
    o->algorithm = cmd_str(c, "algorithm");
    if (!o->algorithm)
        return cmd_usage_error(c, "{algorithm} is required: ola, mondrian or given");
    if (strcmp(o->algorithm, "ola") && strcmp(o->algorithm, "mondrian") && strcmp(o->algorithm, "given"))
        return cmd_usage_error(c, "{algorithm} '%s': expected ola, mondrian or given", o->algorithm);
    if (cmd_k(c, 1, 2, &k) < 0) /* the shared -k range (cli.h) */
        return KEPS_EINPUT;
    if (cmd_require(c, "epsilon") || cmd_double(c, "epsilon", 1e-300, 1e300, 1, &o->p.epsilon) < 0)
        return KEPS_EINPUT;
    if (cmd_kepsilon_noise_options(c, &o->p) ||
        cmd_mode_options(c, "{algorithm} ", o->algorithm, by_algorithm, sizeof by_algorithm / sizeof *by_algorithm))
        return KEPS_EINPUT;
    o->k = o->p.k = (size_t)k;
    return KEPS_OK;
}

keps_status cmd_kepsilon_bounds(cmd_ctx *c, const keps_schema *s, keps_kepsilon_params *p, double *b)
{
    int *given = malloc((s->nnoisy ? s->nnoisy : 1) * sizeof *given);
    if (!given)
        return cmd_oom(c);
    size_t m = s->nnoisy;
    keps_status rc = kdp_bounds(c, s->t, s->noisy, m, b, b + m, given);
    for (size_t j = 0; j < m && !rc; j++) {
        if (!given[j] && p->scale == KEPS_KSCALE_DOMAIN)
            rc = cmd_usage_error(c, "{scale} domain needs {bounds} %s=LO:HI", s->t->cols[s->noisy[j]].name);
        if (!given[j]) { /* not clamped */
            b[j] = -INFINITY;
            b[m + j] = INFINITY;
        }
    }
    free(given);
    p->lo = b;
    p->hi = b + m;
    return rc;
}

int cmd_kepsilon_outside(const keps_kepsilon_params *p, size_t n, size_t m, const uint32_t *cls, const double *x,
                         size_t *row, size_t *col)
{
    for (size_t j = 0; j < m && (p->scale == KEPS_KSCALE_DOMAIN || p->clamp); j++)
        for (size_t i = 0; i < n; i++) {
            double v = x[j * n + i];
            if (cls[i] == KEPS_NONE || (v >= p->lo[j] && v <= p->hi[j]))
                continue;
            *row = i;
            *col = j;
            return 1;
        }
    return 0;
}

keps_status cmd_kepsilon_outside_error(cmd_ctx *c, const keps_schema *s, const keps_kepsilon_params *p, size_t row,
                                       size_t j, double v)
{
    keps_error err = {0};
    keps_table_cell_error(&err, s->t, s->noisy[j], row,
                          "%.17g lies outside %s %s=%.17g:%.17g; %s%s needs every released value "
                          "inside the public bounds: widen them",
                          v, CMD_SPELL(c, "bounds"), s->t->cols[s->noisy[j]].name, p->lo[j], p->hi[j],
                          CMD_SPELL(c, p->scale == KEPS_KSCALE_DOMAIN ? "scale" : "clamp"),
                          p->scale == KEPS_KSCALE_DOMAIN ? " domain" : "");
    return cmd_fail(c, &err);
}

/* --scale domain: a released value outside its --bounds is named by file,
 * line and column here (the library would only say "noisy column j, record
 * i"). Rows the k-anonymization suppressed are never read, so they may lie
 * anywhere. */
static keps_status check_domain(cmd_ctx *c, const keps_schema *s, const kopts *o, const uint32_t *cls, const double *x)
{
    size_t row, j;
    if (cmd_kepsilon_outside(&o->p, s->t->nrows, s->nnoisy, cls, x, &row, &j))
        return cmd_kepsilon_outside_error(c, s, &o->p, row, j, x[j * s->t->nrows + row]);
    return KEPS_OK;
}

/* Rows released with their original value of noisy column j: their class
 * holds one value of it, so its diameter and scale are 0 (docs/spec.md, section 4). Correct
 * for the model, but a curator should know (k = 1 releases every value). */
size_t cmd_kepsilon_noiseless_rows(const keps_kepsilon_result *r, size_t j)
{
    size_t rows = 0;
    for (size_t i = 0; i < r->n; i++)
        rows += r->cls[i] != KEPS_NONE && !(r->confident_suppressed && r->confident_suppressed[i]) &&
                r->scale[(size_t)r->cls[i] * r->m + j] == 0;
    return rows;
}

void cmd_kepsilon_noiseless_json(cmd_ctx *c, keps_json *j, const keps_table *t, const size_t *noisy, size_t m,
                                 const size_t *rows)
{
    keps_json_object(j, "noiseless_rows");
    for (size_t a = 0; a < m; a++) {
        const char *name = t->cols[noisy[a]].name;
        keps_json_int(j, name, (long long)rows[a]);
        if (rows[a]) /* a privacy warning: printed even with --quiet */
            cmd_msg(c, KEPS_MSG_PRIVACY, "warning: %zu released rows get no noise on %s: their class holds one value "
                            "of it (diameter 0, so scale 0), and they are released exactly; {scale} domain avoids "
                            "it, a larger {k} makes it rarer", rows[a], name);
    }
    keps_json_end(j);
}

static keps_status noiseless_json(cmd_ctx *c, keps_json *j, const keps_schema *s, const keps_kepsilon_result *r)
{
    size_t *rows = malloc((r->m ? r->m : 1) * sizeof *rows);
    if (!rows)
        return cmd_oom(c);
    for (size_t a = 0; a < r->m; a++)
        rows[a] = cmd_kepsilon_noiseless_rows(r, a);
    cmd_kepsilon_noiseless_json(c, j, s->t, s->noisy, r->m, rows);
    free(rows);
    return KEPS_OK;
}

static void metrics_json(keps_json *j, const keps_kepsilon_result *r)
{
    keps_json_object(j, "metrics");
    keps_json_num(j, "expected_are", r->expected_are);
    keps_json_num(j, "measured_are", r->measured_are);
    keps_json_num(j, "linking_risk", r->linking_risk);
    keps_json_int(j, "linked_rows", (long long)r->linked);
    keps_json_int(j, "confident_suppressed_rows", (long long)r->confident_suppressed_rows);
    if (r->confident_suppressed) { /* the figures above describe the rows c-confidence kept */
        keps_json_num(j, "expected_are_before_confident", r->expected_are_before_confident);
        keps_json_num(j, "measured_are_before_confident", r->measured_are_before_confident);
        keps_json_num(j, "linking_risk_before_confident", r->linking_risk_before_confident);
    }
    keps_json_end(j);
}

/* "clamp": {"COL": {"bounds": [lo, hi], "clamped_rows": n}} for the
 * clamped columns. */
static void clamp_json(keps_json *j, const keps_table *t, const size_t *noisy, const keps_kepsilon_params *p,
                       const keps_kepsilon_result *r)
{
    keps_json_object(j, "clamp");
    for (size_t a = 0; a < r->m; a++) {
        if (isinf(p->lo[a]) && isinf(p->hi[a]))
            continue;
        keps_json_object(j, t->cols[noisy[a]].name);
        keps_json_array(j, "bounds");
        keps_json_num(j, NULL, p->lo[a]);
        keps_json_num(j, NULL, p->hi[a]);
        keps_json_end(j);
        keps_json_int(j, "clamped_rows", (long long)r->clamped[a]);
        keps_json_end(j);
    }
    keps_json_end(j);
}

void cmd_kepsilon_json(keps_json *j, const keps_table *t, const size_t *noisy, size_t k,
                       const keps_kepsilon_params *p, const keps_kepsilon_result *r)
{
    keps_kepsilon_params q = *p; /* the guarantee's k is the k the classes were made with */
    q.k = k;
    keps_guarantee g;
    keps_kepsilon_guarantee(&q, r, &g);
    keps_guarantee_json(&g, j, "guarantee");
    keps_guarantee_free(&g);
    kdp_noise_scale_json(j, t, noisy, r->m, r->mean_scale);
    keps_json_str(j, "noise_scale_formula",
                  p->scale == KEPS_KSCALE_EC       ? "b_j(EC) = m*diam_j(EC)/epsilon per class; noise_scale = mean over classes"
                  : p->scale == KEPS_KSCALE_GLOBAL ? "b_j = m*diam_j(data)/epsilon"
                                                     : "b_j = m*(hi_j-lo_j)/epsilon");
    keps_json_str(j, "scale", p->scale == KEPS_KSCALE_EC ? "ec" : p->scale == KEPS_KSCALE_GLOBAL ? "global" : "domain");
    keps_json_int(j, "classes", (long long)r->nclasses);
    cmd_report_digits(j, t, noisy, r->m, p->digits);
    if (p->clamp)
        clamp_json(j, t, noisy, p, r);
    metrics_json(j, r);
    keps_json_object(j, "expected_are_per_column");
    for (size_t a = 0; a < r->m; a++)
        keps_json_num(j, t->cols[noisy[a]].name, r->expected_are_col[a]);
    keps_json_end(j);
    if (p->confidence > 0) {
        keps_json_object(j, "confident_suppression");
        keps_json_num(j, "confidence", p->confidence);
        keps_json_int(j, "records", (long long)r->confident_suppressed_records);
        keps_json_int(j, "classes", (long long)r->confident_suppressed_classes);
        keps_json_int(j, "rows", (long long)r->confident_suppressed_rows);
        keps_json_end(j);
    }
}

static keps_status report(cmd_ctx *c, const keps_schema *s, const kopts *o, ksrc *src, const keps_kepsilon_result *r,
                          double ms, double noise_ms)
{
    keps_json j;
    const keps_table *t = s->t;
    size_t csup = r->confident_suppressed_rows, removed = cmd_flag(c, "remove-suppressed");
    cmd_report_begin(c, &j, "kepsilon");
    keps_json_str(&j, "algorithm", o->algorithm);
    keps_counts n = {.input_rows = r->n,
                     .output_rows = removed ? r->released - csup : r->n,
                     .suppressed_rows = src->suppressed + csup,
                     .removed_rows = removed ? src->suppressed + csup : 0};
    cmd_report_counts(&j, &n);
    keps_json_int(&j, "k_anonymization_suppressed_rows", (long long)src->suppressed);
    if (noiseless_json(c, &j, s, r)) {
        keps_json_free(&j);
        return KEPS_ENOMEM;
    }
    cmd_kepsilon_json(&j, t, s->noisy, o->k, &o->p, r);
    src->json(src, &j);
    keps_json_object(&j, "timing_ms");
    keps_json_num(&j, "total", ms);
    keps_json_num(&j, "search", src->search_ms);
    keps_json_num(&j, "noise", noise_ms);
    keps_json_end(&j);
    keps_json_end(&j);
    char text[512];
    snprintf(text, sizeof text,
             "kepsilon: %zu classes, expected ARE %.4g, measured ARE %.4g, linking risk %.4g, suppressed %zu "
             "(k-anonymization) + %zu (c-confident)\n",
             r->nclasses, r->expected_are, r->measured_are, r->linking_risk, src->suppressed, csup);
    keps_status rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

static keps_status get_classes(cmd_ctx *c, const kopts *o, keps_schema *s, keps_table *t, ksrc *src)
{
    if (s->nqi == 0)
        return cmd_usage_error(c, "give the columns to k-anonymize with {qi}");
    if (s->nnoisy == 0)
        return cmd_usage_error(c, "give the numeric columns that receive noise with {noisy}");
    if (!strcmp(o->algorithm, "given"))
        cmd_note_unused_hierarchies(c, s, "with {algorithm} given the classes are the {qi} values as they stand "
                                          "({algorithm} ola generalizes them with it)");
    double t0 = cmd_now_ms();
    keps_status rc = !strcmp(o->algorithm, "ola")        ? ksrc_ola(c, s, o->k, src)
             : !strcmp(o->algorithm, "mondrian") ? ksrc_mondrian(c, s, t, o->k, src)
                                                 : ksrc_given(c, s, o->k, src);
    src->search_ms = cmd_now_ms() - t0;
    return rc;
}

static keps_status run(cmd_ctx *c)
{
    double t0 = cmd_now_ms();
    kopts o;
    keps_status rc = parse_opts(c, &o);
    if (rc)
        return rc;
    keps_table *t = NULL, *gen = NULL, *rel = NULL;
    keps_schema *s = NULL;
    double *x = NULL, *bounds = NULL;
    int *digits = NULL;
    ksrc src = {0};
    keps_kepsilon_result r = {0};
    keps_rng *rng;
    keps_error err = {0};
    if ((rc = cmd_load_records(c, &t)) || (rc = cmd_build_schema(c, t, &s)))
        goto done;
    size_t n = t->nrows, m = s->nnoisy;
    if (!(bounds = malloc((2 * m + 1) * sizeof *bounds))) {
        rc = KEPS_EINPUT;
        goto done;
    }
    if ((rc = get_classes(c, &o, s, t, &src)) || (rc = kdp_numeric(c, s, t, s->noisy, m, 1, &x)) ||
        (rc = cmd_kepsilon_bounds(c, s, &o.p, bounds)) || (rc = check_domain(c, s, &o, src.cls, x)) ||
        (rc = cmd_digits(c, t, s->noisy, m, &digits)))
        goto done;
    o.p.digits = digits;
    if (!(rng = cmd_rng(c))) {
        rc = KEPS_EINPUT;
        goto done;
    }
    double t1 = cmd_now_ms();
    if (keps_kepsilon_run(src.cls, n, x, m, &o.p, rng, &r, &err)) {
        rc = cmd_fail(c, &err);
        goto done;
    }
    double noise_ms = cmd_now_ms() - t1;
    if ((src.generalize && src.generalize(&src, &gen, &err)) ||
        keps_kepsilon_release(s, &r, gen, cmd_flag(c, "remove-suppressed"), &rel, &err))
        rc = cmd_fail(c, &err);
    else if (!(rc = cmd_write_release(c, &rel)))
        rc = report(c, s, &o, &src, &r, cmd_now_ms() - t0, noise_ms);
done:
    keps_kepsilon_result_free(&r);
    if (src.free)
        src.free(&src);
    free(x);
    free(bounds);
    free(digits);
    keps_table_free(rel);
    keps_table_free(gen);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_kepsilon = {
    "kepsilon",
    "(k,epsilon)-anonymity: k-anonymize, then Laplace noise per class on {noisy} columns",
    "kepsilon {algorithm} ola|mondrian|given {input} FILE {output} FILE {qi} ... {noisy} NAME {k} K {epsilon} E [options]",
    "Holohan et al.'s (k,epsilon)-anonymity (2017; docs/spec.md, section 4): the {qi} columns are k-anonymized (OLA or Mondrian), then "
    "every record's {noisy} columns get Laplace noise whose scale is the diameter (max - min) of the column "
    "inside the record's equivalence class over epsilon (with m noisy columns epsilon is split over them: "
    "b_j = m*diam_j/epsilon). Rows are shuffled. The report gives the expected average relative error (the "
    "paper's eq. 8, before noise), the measured one, the nearest-neighbour linking risk and, with {confidence}, "
    "the rows removed for c-confident k-anonymity. This is NOT differential privacy: the scale is read from the "
    "data; the report says so.",
    "kepsilon {algorithm} ola {input} data/adult/adult_height.csv {output} out.csv {qi} age:data/adult/adult_hierarchy_age.csv "
    "{qi} sex:data/adult/adult_hierarchy_sex.csv {qi} race:data/adult/adult_hierarchy_race.csv "
    "{qi} marital-status:data/adult/adult_hierarchy_marital-status.csv {noisy} height {others} keep {k} 10 "
    "{suppress} 0.05 {epsilon} 1 {confidence} 0.99 {report} report.json",
    opts,
    run,
    0,
    NULL,
};
