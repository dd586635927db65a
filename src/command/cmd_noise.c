/* keps noise: independent noisy releases of a value (docs/spec.md, section 8), for
 * inspection and audits, or of every value of a one-column file. The
 * sampling is libkeps (noise.h); this file parses options, reads and
 * writes. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/noise.h"
#include "keps/release.h"

static const cmd_opt opt_mech = {"mechanism", 0, "laplace|geometric", 0,
                                 "laplace: secure Laplace on a power-of-two grid; geometric: integer "
                                 "value + two-sided geometric noise",
                                 "laplace"};
static const cmd_opt opt_sens = {"sensitivity", 0, "S", 0,
                                 "sensitivity of the released value (default 1; geometric: a whole number)",
                                 "1"};
static const cmd_opt opt_value = {"value", 0, "V", CLI_NUMBER,
                                  "the true value to release (geometric: a whole number); or give {input}",
                                  "42"};
static const cmd_opt opt_count = {"count", 'n', "COUNT", CLI_NUMBER,
                                  "number of independent releases of {value} (default 1)", "10"};
static const cmd_opt opt_input = {"input", 'i', "FILE", 0,
                                  "instead of {value}: a CSV with a header and one column (or {column}) whose "
                                  "every row is a value to release, each with its own noise; needs {output}",
                                  "counts.csv"};
static const cmd_opt opt_output = {"output", 'o', "FILE", 0,
                                   "with {input}: the released column (same header), row i the release of input row "
                                   "i ('-' = stdout)",
                                   "noisy.csv"};
static const cmd_opt opt_column = {"column", 0, "NAME", 0, "with {input}: the column to release (default: the only one)",
                                   "count"};

static const cmd_opt *const opts[] = {&opt_mech, &cmd_opt_epsilon, &opt_sens, &opt_value, &opt_count, &opt_input,
                                      &opt_output, &opt_column, &cmd_opt_delimiter, &cmd_opt_missing,
                                      &cmd_opt_seed, &cmd_opt_report, NULL};

/* One release: kept in the report when the host looks at it, and in the
 * printed output, one per line (the CLI prints it unless --json prints
 * the report; with --report - the JSON owns stdout and the lines go to
 * stderr). */
static void emit(cmd_ctx *c, keps_json *j, FILE *f, int geometric, double x, int64_t k)
{
    if (c->json)
        geometric ? keps_json_int(j, NULL, (long long)k) : keps_json_num(j, NULL, x);
    if (geometric)
        fprintf(f, "%" PRId64 "\n", k);
    else
        fprintf(f, "%.17g\n", x);
}

typedef struct noise_plan {
    int geometric;
    double eps, sens, scale; /* scale: the calibrated Laplace scale drawn with */
    keps_noise_info info;
} noise_plan;

/* One noisy value; NAN (laplace) or 0 with *bad set (geometric) on a
 * value the mechanism cannot take. */
static double draw(keps_rng *r, const noise_plan *p, double v, int64_t *k)
{
    if (p->geometric) {
        *k = keps_geometric_mech(r, (int64_t)v, p->eps, (int64_t)p->sens);
        return (double)*k;
    }
    return keps_laplace(r, v, p->scale);
}

static int whole(double v)
{
    return v == floor(v) && fabs(v) < 0x1p62;
}

/* -i: every row of the column, in input order (row i's release depends on
 * row i alone, so the order leaks nothing the neighbouring relation does
 * not fix: neighbours differ in one row by at most the sensitivity). */
static keps_status release_file(cmd_ctx *c, const noise_plan *p, keps_rng *r, size_t *rows)
{
    keps_table *t = NULL, *rel = NULL;
    keps_status rc = cmd_load_records(c, &t);
    if (rc)
        return rc;
    const char *name = cmd_str(c, "column");
    int col = name ? keps_table_column(t, name) : t->ncols == 1 ? 0 : -1;
    keps_error err = {0};
    if (col < 0) {
        rc = name ? (keps_table_no_column(&err, t, name), cmd_fail(c, &err))
                  : cmd_usage_error(c, "%s has %zu columns: name the one to release with {column}", t->source,
                                    t->ncols);
        goto out;
    }
    if (keps_table_numeric(t, (size_t)col, &err)) {
        rc = cmd_fail(c, &err);
        goto out;
    }
    const char *head[1] = {t->cols[col].name};
    if (!(rel = keps_table_new(1, head, NULL, "<release>", &err))) {
        rc = cmd_fail(c, &err);
        goto out;
    }
    for (size_t i = 0; i < t->nrows && !rc; i++) {
        double v = keps_table_num(t, (size_t)col, i);
        if (isnan(v) || (p->geometric && !whole(v))) {
            keps_table_cell_error(&err, t, (size_t)col, i,
                                  isnan(v) ? "missing value: every row needs a number to release"
                                           : "%s geometric releases whole numbers (below 2^62)",
                                  CMD_SPELL(c, "mechanism"));
            rc = cmd_fail(c, &err);
            break;
        }
        int64_t k = 0;
        double x = draw(r, p, v, &k);
        char buf[32];
        if (p->geometric)
            snprintf(buf, sizeof buf, "%" PRId64, k);
        else if (keps_format_number(buf, sizeof buf, x) < 0) { /* never release a non-finite number */
            keps_table_cell_error(&err, t, (size_t)col, i, "the noisy value is not finite; lower the scale");
            rc = cmd_fail(c, &err);
            break;
        }
        const char *f[1] = {buf};
        if (keps_table_append(rel, f, NULL, 0, &err))
            rc = cmd_fail(c, &err);
    }
    *rows = t->nrows;
    if (!rc)
        rc = cmd_write_release_ordered(c, &rel);
out:
    keps_table_free(rel);
    keps_table_free(t);
    return rc;
}

static keps_status plan(cmd_ctx *c, noise_plan *p, int file)
{
    const char *mech = cmd_str(c, "mechanism");
    double value;
    if (cmd_require(c, "mechanism") || cmd_require(c, "epsilon"))
        return KEPS_EINPUT;
    p->geometric = strcmp(mech, "geometric") == 0;
    if (!p->geometric && strcmp(mech, "laplace") != 0)
        return cmd_usage_error(c, "{mechanism} '%s': expected laplace or geometric", mech);
    if (cmd_double(c, "epsilon", 1e-300, 1e300, 1, &p->eps) < 0 ||
        cmd_double(c, "sensitivity", 1e-300, 1e300, 1, &p->sens) < 0 ||
        cmd_double(c, "value", -1.7e308, 1.7e308, 0, &value) < 0)
        return KEPS_EINPUT;
    if (p->geometric && (!whole(p->sens) || (!file && !whole(value))))
        return file ? cmd_usage_error(c, "{mechanism} geometric releases whole numbers: give a whole {sensitivity} "
                                         "(below 2^62)")
                    : cmd_usage_error(c, "{mechanism} geometric releases whole numbers: give a whole {value} and "
                                         "{sensitivity} (below 2^62)");
    /* laplace: the scale is calibrated so that the stated epsilon, the grid
     * rounding included, is at most --epsilon (keps_laplace_calibrate) */
    p->scale = p->geometric ? NAN : keps_laplace_calibrate(p->sens, 1, p->eps);
    int bad = p->geometric ? keps_geometric_info(p->eps, (int64_t)p->sens, &p->info) != 0
                           : isnan(p->scale) || keps_laplace_info(p->scale, p->sens, &p->info) != 0;
    if (bad)
        return cmd_usage_error(c, "noise scale sensitivity/epsilon = %g is out of range", p->sens / p->eps);
    return KEPS_OK;
}

static keps_status run(cmd_ctx *c)
{
    int file = cmd_str(c, "input") != NULL;
    long count;
    noise_plan p;
    if (file && (cmd_str(c, "value") || cmd_str(c, "count")))
        return cmd_usage_error(c, "{input} releases every row of the file: drop {value} and {count}");
    if (!file && (cmd_str(c, "output") || cmd_str(c, "column")))
        return cmd_usage_error(c, "{output} and {column} go with {input} FILE; with {value} the releases are printed");
    if (file && cmd_require(c, "output"))
        return KEPS_EINPUT;
    if (!file && cmd_require(c, "value"))
        return KEPS_EINPUT;
    if (plan(c, &p, file) || cmd_long(c, "count", 0, 1000000000L, 1, &count) < 0)
        return KEPS_EINPUT;
    keps_rng *r = cmd_rng(c);
    if (!r)
        return KEPS_EINPUT;
    keps_json j;
    cmd_report_begin(c, &j, "noise");
    keps_json_str(&j, "mechanism", cmd_str(c, "mechanism"));
    keps_guarantee g;
    keps_noise_guarantee(&p.info, file, file ? 1 : (double)count, &g);
    keps_guarantee_json(&g, &j, "guarantee");
    keps_guarantee_free(&g);
    keps_json_num(&j, "granularity", p.info.granularity);
    keps_json_num(&j, "noise_scale", p.info.scale);
    keps_status rc = KEPS_OK;
    if (file) {
        size_t rows = 0;
        rc = release_file(c, &p, r, &rows);
        keps_counts n = {.input_rows = rows, .output_rows = rows};
        cmd_report_counts(&j, &n);
    } else {
        double value;
        cmd_double(c, "value", -1.7e308, 1.7e308, 0, &value);
        keps_json_array(&j, "releases");
        size_t len = 0;
        FILE *f = open_memstream(&c->res->printed, &len);
        if (!f)
            rc = cmd_oom(c);
        for (long i = 0; i < count && f; i++) {
            int64_t k = 0;
            double x = draw(r, &p, value, &k);
            emit(c, &j, f, p.geometric, x, k);
        }
        if (f && fclose(f) != 0)
            rc = cmd_oom(c);
        keps_json_end(&j);
    }
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char text[256];
    snprintf(text, sizeof text, "noise %s: epsilon-DP, epsilon %.17g, sensitivity %g, scale %.17g\n",
             cmd_str(c, "mechanism"), p.info.epsilon, p.info.sensitivity, p.info.scale);
    if (!rc)
        rc = cmd_emit_report(c, &j, file ? text : NULL);
    keps_json_free(&j);
    return rc;
}

const cmd_cmd cmd_noise = {
    "noise",
    "print independent noisy releases of a value (Laplace, geometric), or noise every row of a file",
    "noise {mechanism} laplace|geometric {epsilon} E {sensitivity} S ({value} V [{count} COUNT] | {input} FILE {output} FILE)",
    "Prints COUNT independent noisy releases of V, one per line; or, with {input}, releases every row of a one-column "
    "file (or {column}) with its own noise, in input order, to {output}. laplace: V rounded to a power-of-two grid "
    "g = 2^(ceil(log2 b) - 40) plus g times an exactly sampled two-sided geometric variable (no floating-point "
    "logarithms: safe against the Mironov 2012 attack), with the scale b calibrated a hair above S/E so that the "
    "guaranteed epsilon, (floor(S/g) + 1)/(b/g) with the grid rounding, is at most E; {json} reports it with the "
    "granularity and the scale used. geometric: whole V plus two-sided geometric noise with scale >= S/E "
    "(epsilon <= E). The guarantee (epsilon-DP) covers every value printed or written: neighbouring inputs are "
    "values at most S apart, or files that differ in one row by at most S (each row is its own query); "
    "nothing is read from the data but the values themselves (docs/spec.md, section 15, \"What must be "
    "public\").",
    "noise {mechanism} laplace {epsilon} 1 {sensitivity} 1 {value} 42 {count} 5",
    opts,
    run,
    0,
    NULL,
};
