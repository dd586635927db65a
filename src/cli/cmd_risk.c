/* keps risk: record linkage (SPEC 5) and prosecutor risk of a release
 * (library: keps/risk.h). Record linkage pairs row i of the original with
 * row i of the release, so the release must be written with --keep-order
 * and without removing rows; a shuffled release gives a meaningless RL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keps/mdav.h"
#include "keps/risk.h"

static const cli_opt opt_original = {"original", 0, "FILE", 0, "the original CSV the release was made from",
                                     "--original data/casc/casc.csv"};
static const cli_opt opt_release = {"release", 0, "FILE", 0,
                                    "the released CSV; for record linkage written with --keep-order (row i "
                                    "releases original row i)",
                                    "--release out.csv"};
static const cli_opt opt_columns = {"columns", 0, "NAME", CLI_REPEAT,
                                    "numeric column compared by record linkage (default: the --qi "
                                    "columns, else every column both files share)",
                                    "--columns FICA"};
static const cli_opt opt_qi = {"qi", 0, "NAME[:HIERARCHY]", CLI_REPEAT,
                               "quasi-identifier of the release; equivalence classes for the "
                               "prosecutor risk are formed on these (a hierarchy part is ignored)",
                               "--qi age"};
static const cli_opt opt_direction = {"linkage-direction", 0, "original|released", 0,
                                      "original (SPEC 5, default): for each original record, the nearest released "
                                      "records; released (the paper's formula): for each released record, the "
                                      "nearest originals",
                                      "--linkage-direction released"};

static const cli_opt *const opts[] = {&opt_original, &opt_release, &opt_columns, &opt_qi, &opt_direction,
                                      &cli_opt_suppressed, &cli_opt_delimiter, &cli_opt_missing, &cli_opt_decimal_comma, &cli_opt_report, NULL};

typedef struct names {
    char **v;
    size_t n;
} names;

/* --qi specs without their ":HIERARCHY" part (in place: the strings are
 * ours to shorten only after copying). */
static int qi_names(const cli_ctx *c, names *out)
{
    char **v;
    size_t n = cli_list(c, "qi", &v);
    out->v = calloc(n + 1, sizeof *out->v);
    out->n = 0;
    if (!out->v)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(v[i], ":");
        if (!(out->v[out->n] = strndup(v[i], len)))
            return -1;
        out->n++;
    }
    return 0;
}

static void names_free(names *nm)
{
    for (size_t i = 0; nm->v && i < nm->n; i++)
        free(nm->v[i]);
    free(nm->v);
}

/* Columns of the release that the original also has. */
static int common_names(const keps_table *o, const keps_table *r, names *out)
{
    out->v = calloc(r->ncols + 1, sizeof *out->v);
    out->n = 0;
    if (!out->v)
        return -1;
    for (size_t j = 0; j < r->ncols; j++)
        if (keps_table_column(o, r->cols[j].name) >= 0 && !(out->v[out->n++] = strdup(r->cols[j].name)))
            return -1;
    return 0;
}

/* out = a copy of the n names v; -1 when memory runs out (out holds what
 * was copied, for names_free). */
static int copy_names(char *const *v, size_t n, names *out)
{
    out->v = calloc(n + 1, sizeof *out->v);
    for (size_t i = 0; out->v && i < n; i++)
        if (!(out->v[out->n++] = strdup(v[i])))
            return -1;
    return out->v ? 0 : -1;
}

static int resolve(cli_ctx *c, const keps_table *t, const names *nm, size_t *cols)
{
    for (size_t i = 0; i < nm->n; i++) {
        int j = keps_table_column(t, nm->v[i]);
        if (j < 0) {
            keps_error err = {0};
            keps_table_no_column(&err, t, nm->v[i]);
            return cli_usage_error(c, "%s", err.msg);
        }
        cols[i] = (size_t)j;
    }
    return 0;
}

/* The named columns of t as a row-major matrix. A missing cell is refused
 * with what record linkage needs (keps_mdav_matrix would blame
 * microaggregation). */
static keps_status numbers(keps_table *t, const size_t *cols, size_t m, double **x, keps_error *err)
{
    *x = NULL;
    for (size_t j = 0; j < m; j++) {
        const keps_column *c = &t->cols[cols[j]];
        if (c->missing != KEPS_NONE && c->missing_count > 0)
            return keps_table_cell_error(err, t, cols[j], c->first_row[c->missing],
                                         "missing value (the missing token '%s'); record linkage measures "
                                         "distances between rows, so every compared cell needs a number: compare "
                                         "complete numeric columns only (--columns NAME; the default is the --qi "
                                         "columns, else every column both files share), or remove or impute the "
                                         "row",
                                         t->missing_token);
        size_t row;
        const char *why;
        double v;
        /* codes such as ZIP 01097 have no distances (keps_table_infer_type);
         * a cell that is no number is left to the parser's own message */
        if (keps_table_infer_type(t, cols[j], &row, &why) != KEPS_TYPE_NUMERIC && row != (size_t)-1 &&
            keps_table_parse(t, keps_table_str(t, cols[j], row), &v) == KEPS_NUM_OK)
            return keps_table_cell_error(err, t, cols[j], row,
                                         "'%s' %s, so the column holds codes, not numbers; record linkage measures "
                                         "distances between numbers: compare numeric columns only (--columns NAME)",
                                         keps_table_str(t, cols[j], row), why);
    }
    return keps_mdav_matrix(t, cols, m, x, err);
}

/* Record linkage over the named columns. Returns 0 with *rl set, 0 with
 * *skipped set when the release is not numeric and the columns were not
 * asked for explicitly, or an exit code. */
static int linkage(cli_ctx *c, keps_table *o, keps_table *r, const names *nm, int explicit_cols, double *rl,
                   char *skipped, size_t skiplen)
{
    size_t *co = malloc((nm->n + 1) * sizeof *co), *cr = malloc((nm->n + 1) * sizeof *cr);
    double *xo = NULL, *xr = NULL;
    int rc = !co || !cr ? 2 : 0;
    if (!rc)
        rc = resolve(c, o, nm, co);
    if (!rc)
        rc = resolve(c, r, nm, cr);
    keps_error err = {0};
    *rl = 0; /* stays 0 for an empty release: no released record, none to link */
    if (!rc && r->nrows > 0 && (numbers(o, co, nm->n, &xo, &err) || numbers(r, cr, nm->n, &xr, &err))) {
        if (explicit_cols)
            rc = cli_fail(c, &err);
        else
            snprintf(skipped, skiplen, "needs numeric columns without missing cells (name them with --columns): %s",
                     err.msg);
        free(xr);
        xr = NULL;
    }
    if (!rc && xr && o->nrows != r->nrows)
        rc = cli_usage_error(c,
                             "record linkage pairs row i of the original with row i of the release, but %s has "
                             "%zu rows and %s has %zu; write the release with --keep-order and without "
                             "--remove-suppressed",
                             o->source, o->nrows, r->source, r->nrows);
    const char *dir = cli_str(c, "linkage-direction");
    if (!rc && dir && strcmp(dir, "original") && strcmp(dir, "released"))
        rc = cli_usage_error(c, "--linkage-direction '%s': expected original or released", dir);
    if (!rc && xr &&
        keps_record_linkage(xo, xr, o->nrows, nm->n, dir && !strcmp(dir, "released") ? KEPS_RL_RELEASED
                                                                                      : KEPS_RL_ORIGINAL,
                            rl, &err))
        rc = cli_fail(c, &err);
    free(co);
    free(cr);
    free(xo);
    free(xr);
    return rc;
}

static int report(cli_ctx *c, const keps_table *r, const names *rlcols, double rl, const char *skipped,
                  const keps_prosecutor *p, int excluded, double t0)
{
    keps_json j;
    cli_report_begin(c, &j, "risk");
    keps_json_int(&j, "input_rows", (long long)r->nrows);
    keps_json_array(&j, "columns");
    for (size_t i = 0; i < rlcols->n; i++)
        keps_json_str(&j, NULL, rlcols->v[i]);
    keps_json_end(&j);
    keps_json_object(&j, "metrics");
    if (skipped[0]) {
        keps_json_null(&j, "record_linkage");
        keps_json_str(&j, "record_linkage_skipped", skipped);
    } else {
        keps_json_num(&j, "record_linkage", rl);
        keps_json_num(&j, "record_linkage_percent", 100 * rl);
    }
    keps_json_int(&j, "suppressed_rows", (long long)p->suppressed);
    keps_json_str(&j, "suppressed", excluded ? "excluded" : "class");
    keps_json_int(&j, "records_in_classes", (long long)p->records);
    keps_json_num(&j, "prosecutor_max", p->max);
    keps_json_num(&j, "prosecutor_avg", p->avg);
    keps_json_int(&j, "classes", (long long)p->classes);
    keps_json_object(&j, "records_in_classes_below");
    keps_json_num(&j, "2", p->below[0]);
    keps_json_num(&j, "5", p->below[1]);
    keps_json_num(&j, "10", p->below[2]);
    keps_json_end(&j);
    keps_json_end(&j);
    keps_json_object(&j, "timing_ms");
    keps_json_num(&j, "total", cli_now_ms() - t0);
    keps_json_end(&j);
    keps_json_end(&j);
    char text[1600];
    int n = skipped[0] ? snprintf(text, sizeof text, "record linkage: not computed (%s)\n", skipped)
                       : snprintf(text, sizeof text, "record linkage: %.4f%%%s\n", 100 * rl,
                                  r->nrows ? "" : " (the release has no records to link)");
    snprintf(text + n, sizeof text - (size_t)n,
             "prosecutor risk: max %.4g, average %.4g over %zu classes of %zu records; records in classes < 2: "
             "%.4g%%, < 5: %.4g%%, < 10: %.4g%%; %zu suppressed rows (every QI '*') %s\n",
             p->max, p->avg, p->classes, p->records, 100 * p->below[0], 100 * p->below[1], 100 * p->below[2],
             p->suppressed, excluded ? "left out" : "counted as one class");
    int rc = cli_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

static int run(cli_ctx *c)
{
    double t0 = cli_now_ms();
    if (cli_require(c, "original") || cli_require(c, "release"))
        return 2;
    keps_table *o = NULL, *r = NULL;
    names qi = {0}, rlcols = {0};
    int rc = cli_load_table(c, cli_str(c, "original"), &o);
    if (!rc)
        rc = cli_load_table(c, cli_str(c, "release"), &r);
    /* an empty release is a release (risk 0); an empty original is not
     * what any release was made from */
    if (!rc && o->nrows == 0)
        rc = cli_usage_error(c, "%s: no records after the header: give the original the release was made from",
                             o->source);
    char **cv;
    size_t ncv = cli_list(c, "columns", &cv);
    if (!rc && qi_names(c, &qi))
        rc = 2;
    if (!rc) {
        if (ncv || qi.n) {
            rc = copy_names(ncv ? cv : qi.v, ncv ? ncv : qi.n, &rlcols);
        } else if (common_names(o, r, &rlcols)) {
            rc = 2;
        }
        if (!rlcols.v || rc)
            rc = cli_usage_error(c, "out of memory");
        if (!rc && rlcols.n == 0)
            rc = cli_usage_error(c, "%s and %s share no column; name them with --columns or --qi", o->source,
                                 r->source);
    }
    double rl = 0;
    char skipped[1200] = "";
    if (!rc)
        rc = linkage(c, o, r, &rlcols, ncv > 0, &rl, skipped, sizeof skipped);
    const names *ecn = qi.n ? &qi : &rlcols;
    size_t *ec = !rc ? malloc((ecn->n + 1) * sizeof *ec) : NULL;
    keps_prosecutor p;
    keps_suppressed_mode mode = KEPS_SUPPRESSED_EXCLUDE;
    keps_error err = {0};
    if (!rc && !ec)
        rc = 2;
    if (!rc)
        rc = resolve(c, r, ecn, ec);
    if (!rc)
        rc = cli_suppressed_mode(c, &mode);
    if (!rc && keps_prosecutor_risk(r, ec, ecn->n, mode, &p, &err))
        rc = cli_fail(c, &err);
    if (!rc)
        rc = report(c, r, &rlcols, rl, skipped, &p, mode == KEPS_SUPPRESSED_EXCLUDE && !p.all_star, t0);
    free(ec);
    names_free(&qi);
    names_free(&rlcols);
    keps_table_free(o);
    keps_table_free(r);
    return rc;
}

const cli_cmd cmd_risk = {
    "risk",
    "re-identification and record-linkage risk of a release",
    "risk --original FILE --release FILE [--columns NAME ...] [--qi NAME ...] [options]",
    "Record linkage (RL, SPEC 5 / Soria-Comas et al.): both files are standardized with the original's mean and "
    "sd; for each original record, G = the released records nearest to it (Euclidean); it counts 1/|G| if its "
    "own release is in G. record_linkage is the mean over records, a fraction in [0, 1] "
    "(record_linkage_percent = 100 x). Row i of the release must be the release of original row i: write it "
    "with --keep-order and do not remove rows (differing row counts are an error). An empty release (header "
    "only) has no record to link: every risk is 0; an original without records is an error. A release that is not "
    "numeric (generalized ranges) gets record_linkage null unless --columns demands it. Prosecutor risk: "
    "equivalence classes = identical released values on the --qi columns (default: the linkage columns); "
    "prosecutor_max / prosecutor_avg = max / mean over records of 1/|class|, plus the share of records in "
    "classes smaller than 2, 5 and 10. Rows whose every --qi value is '*' are suppressed records: left out of "
    "the classes by default, as ARX's risk analysis and keps verify do (--suppressed class counts them as one "
    "class); suppressed_rows reports how many. When every row is '*' they are one class either way (a release "
    "generalized to the top looks the same, and leaving them out would report no risk at all).",
    "keps risk --original data/casc/casc.csv --release out.csv --columns FICA --columns FEDTAX --json",
    opts,
    run,
    0,
};
