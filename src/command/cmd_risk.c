/* keps risk: re-identification risk of any table (an input or a release):
 * prosecutor, journalist and marketer risk, sample and population
 * uniqueness, risk per combination of quasi-identifiers, individual risk
 * with sampling weights and special uniques (library: keps/risk.h,
 * keps/uniqueness.h, keps/suda.h); with --original, record linkage of a
 * release against the original it was made from (Soria-Comas et al.):
 * row i of the release must be the release of original row i (written
 * with --keep-order, no row removed). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command_internal.h"
#include "keps/csv.h"
#include "keps/mdav.h"
#include "keps/risk.h"
#include "keps/suda.h"
#include "keps/uniqueness.h"

static const cmd_opt opt_input = {"input", 'i', "FILE", 0,
                                  "the table to analyse, an input or a release ('-' reads stdin)",
                                  "data/adult/adult.csv"};
static const cmd_opt opt_original = {"original", 0, "FILE", 0,
                                     "the original CSV a {release} was made from: adds record linkage",
                                     "data/casc/casc.csv"};
static const cmd_opt opt_release = {"release", 0, "FILE", 0,
                                    "the released CSV to analyse (as {input}); for record linkage written with "
                                    "{keep-order} (row i releases original row i)",
                                    "out.csv"};
static const cmd_opt opt_columns = {"columns", 0, "NAME", CLI_REPEAT,
                                    "numeric column compared by record linkage (default: the {qi} "
                                    "columns, else every column both files share)",
                                    "FICA"};
static const cmd_opt opt_qi = {"qi", 0, "NAME", CLI_REPEAT,
                               "quasi-identifier: classes are the rows with equal values on all of them; "
                               "repeatable; a ':HIERARCHY' suffix is accepted and ignored, so anonymize flags "
                               "can be reused (with {release}, default: the record-linkage columns)",
                               "age\nsex"};
static const cmd_opt opt_population = {"population", 0, "FILE", 0,
                                       "a population table holding every record of the analysed one, in the same "
                                       "representation: journalist and marketer risk against it (without it the "
                                       "file is its own population), and its rows as the population size",
                                       "data/adult/adult.csv"};
static const cmd_opt opt_population_size = {"population-size", 0, "N", CLI_NUMBER,
                                            "records in the population the table was drawn from: population "
                                            "uniqueness by the Pitman, Zayatz, SNB and Dankar models",
                                            "1000000"};
static const cmd_opt opt_fraction = {"sampling-fraction", 0, "F", CLI_NUMBER,
                                     "the table is a sample of this fraction (0, 1] of the population: "
                                     "population size = rows / F, rounded",
                                     "0.01"};
static const cmd_opt opt_max_comb = {"max-combination", 0, "M", CLI_NUMBER,
                                     "largest combination of quasi-identifiers analysed one by one, and the largest "
                                     "minimal sample unique searched (default 2, at most the number of {qi})",
                                     "3"};
static const cmd_opt opt_weights = {"weights", 0, "COL", 0,
                                    "numeric column of sampling weights (positive) for the individual risk "
                                    "(Benedetti-Franconi); without it a record's risk is 1/(its class size)",
                                    "sampling_weight"};
static const cmd_opt opt_dis = {"dis-fraction", 0, "F", CLI_NUMBER,
                                "sampling fraction the DIS scores of special uniques assume, (0, 1] (default "
                                "0.01, sdcMicro's DisFraction)",
                                "0.1"};
static const cmd_opt opt_output = {"output", 'o', "FILE", 0,
                                   "per-record risks (CSV, one row per input row in input order: row, line, "
                                   "class_size, prosecutor, individual_risk, suda_score, dis_score, msus; empty for "
                                   "suppressed rows left out); written with the report, '-' writes stdout",
                                   "record-risks.csv"};
static const cmd_opt opt_direction = {"linkage-direction", 0, "original|released", 0,
                                      "record linkage: original (default): for each original record, the nearest "
                                      "released records; released (the paper's formula): for each released record, "
                                      "the nearest originals",
                                      "released"};

static const cmd_opt *const opts[] = {&opt_input,      &opt_original,        &opt_release,  &opt_qi,
                                      &opt_population, &opt_population_size, &opt_fraction, &opt_max_comb,
                                      &opt_weights,    &opt_dis,             &opt_output,             &opt_columns,  &opt_direction,
                                      &cmd_opt_counts, &cmd_opt_suppressed, &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_report,
                                      NULL};

typedef struct names {
    char **v;
    size_t n;
} names;

static void names_free(names *nm)
{
    for (size_t i = 0; nm->v && i < nm->n; i++)
        free(nm->v[i]);
    free(nm->v);
    nm->v = NULL;
    nm->n = 0;
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

static keps_status no_column(cmd_ctx *c, const keps_table *t, const char *name)
{
    keps_error err = {0};
    keps_table_no_column(&err, t, name);
    return cmd_usage_error(c, "%s", err.msg);
}

static keps_status resolve(cmd_ctx *c, const keps_table *t, const names *nm, size_t *cols)
{
    for (size_t i = 0; i < nm->n; i++) {
        int j = keps_table_column(t, nm->v[i]);
        if (j < 0)
            return no_column(c, t, nm->v[i]);
        cols[i] = (size_t)j;
    }
    return KEPS_OK;
}

/* ---- record linkage ---- */

/* The named columns of t as a row-major matrix. A missing cell is refused
 * with what record linkage needs (keps_mdav_matrix would blame
 * microaggregation), the parameters spelled for the host (c), or by their
 * names when c is NULL (the message becomes a report value). */
static keps_status numbers(const cmd_ctx *cx, keps_table *t, const size_t *cols, size_t m, double **x,
                           keps_error *err)
{
    *x = NULL;
    const char *cols_p = CMD_SPELL(cx, "columns"), *qi_p = CMD_SPELL(cx, "qi");
    for (size_t j = 0; j < m; j++) {
        const keps_column *c = &t->cols[cols[j]];
        if (c->missing != KEPS_NONE && c->missing_count > 0)
            return keps_table_cell_error(err, t, cols[j], c->first_row[c->missing],
                                         "missing value (the missing token '%s'); record linkage measures "
                                         "distances between rows, so every compared cell needs a number: compare "
                                         "complete numeric columns only (%s NAME; the default is the %s columns, "
                                         "else every column both files share), or remove or impute the row",
                                         t->missing_token, cols_p, qi_p);
        size_t row;
        const char *why;
        double v;
        /* codes such as ZIP 01097 have no distances (keps_table_infer_type);
         * a cell that is no number is left to the parser's own message */
        if (keps_table_infer_type(t, cols[j], &row, &why) != KEPS_TYPE_NUMERIC && row != (size_t)-1 &&
            keps_table_parse(t, keps_table_str(t, cols[j], row), &v) == KEPS_NUM_OK)
            return keps_table_cell_error(err, t, cols[j], row,
                                         "'%s' %s, so the column holds codes, not numbers; record linkage measures "
                                         "distances between numbers: compare numeric columns only (%s NAME)",
                                         keps_table_str(t, cols[j], row), why, cols_p);
    }
    return keps_mdav_matrix(t, cols, m, x, err);
}

/* Record linkage over the named columns. Returns 0 with *rl set, 0 with
 * *skipped set when the release is not numeric and the columns were not
 * asked for explicitly, or the status of the error. */
static keps_status linkage(cmd_ctx *c, keps_table *o, keps_table *r, const names *nm, int explicit_cols, double *rl,
                   char *skipped, size_t skiplen)
{
    size_t *co = malloc((nm->n + 1) * sizeof *co), *cr = malloc((nm->n + 1) * sizeof *cr);
    double *xo = NULL, *xr = NULL;
    keps_status rc = !co || !cr ? KEPS_EINPUT : KEPS_OK;
    if (!rc)
        rc = resolve(c, o, nm, co);
    if (!rc)
        rc = resolve(c, r, nm, cr);
    keps_error err = {0};
    *rl = 0; /* stays 0 for an empty release: no released record, none to link */
    if (!rc && r->nrows > 0 && (numbers(explicit_cols ? c : NULL, o, co, nm->n, &xo, &err) ||
                                 numbers(explicit_cols ? c : NULL, r, cr, nm->n, &xr, &err))) {
        if (explicit_cols)
            rc = cmd_fail(c, &err);
        else
            snprintf(skipped, skiplen, "needs numeric columns without missing cells (name them with columns): %s",
                     err.msg);
        free(xr);
        xr = NULL;
    }
    if (!rc && xr && o->nrows != r->nrows)
        rc = cmd_usage_error(c,
                             "record linkage pairs row i of the original with row i of the release, but %s has "
                             "%zu rows and %s has %zu; write the release with {keep-order} and without "
                             "{remove-suppressed}",
                             o->source, o->nrows, r->source, r->nrows);
    const char *dir = cmd_str(c, "linkage-direction");
    if (!rc && dir && strcmp(dir, "original") && strcmp(dir, "released"))
        rc = cmd_usage_error(c, "{linkage-direction} '%s': expected original or released", dir);
    if (!rc && xr &&
        keps_record_linkage(xo, xr, o->nrows, nm->n, dir && !strcmp(dir, "released") ? KEPS_RL_RELEASED
                                                                                      : KEPS_RL_ORIGINAL,
                            rl, &err))
        rc = cmd_fail(c, &err);
    free(co);
    free(cr);
    free(xo);
    free(xr);
    return rc;
}

/* ---- the analysis ---- */

typedef struct job {
    keps_table *t, *orig, *pop;
    names qi, rlcols;
    size_t *cols, *pcols;
    keps_suppressed_mode mode;
    double population;  /* 0: no population size */
    long max_comb;
    double dis_fraction;
    int weight_col;     /* -1: none */
    double *weights;
    /* record linkage */
    int linked;
    double rl;
    char skipped[1200];
    /* results */
    keps_sample_risk sr;
    keps_uniqueness pu;
    int has_pu;
    keps_individual_risk ir;
    keps_attribute_risks ar;
    keps_suda su;
} job;

static keps_status load_tables(cmd_ctx *c, job *J)
{
    const char *in = cmd_str(c, "input"), *orig = cmd_str(c, "original"), *rel = cmd_str(c, "release");
    if (in && rel)
        return cmd_usage_error(c, "give the table once: {input} FILE, or {release} FILE (with {original} for record "
                                  "linkage), not both");
    if (!in && !rel)
        return cmd_usage_error(c, "name the table to analyse: keps risk {input} FILE {qi} NAME ..., or {original} FILE "
                                  "{release} FILE for a release and its record linkage");
    if (orig && !rel)
        return cmd_usage_error(c, "{original} compares a release with the original it was made from: give the "
                                  "release as {release} FILE, not {input}");
    keps_status rc = in ? cmd_load_input(c, &J->t) : KEPS_OK;
    if (!rc && orig)
        rc = cmd_load_table(c, orig, &J->orig);
    if (!rc && rel)
        rc = cmd_load_table(c, rel, &J->t);
    /* --counts: frequency tables, analysed as their expanded records (the
     * original too when it has the column) */
    if (!rc)
        rc = cmd_counts_expand(c, &J->t);
    if (!rc && J->orig && cmd_str(c, "counts") && keps_table_column(J->orig, cmd_str(c, "counts")) >= 0)
        rc = cmd_counts_expand(c, &J->orig);
    /* an empty release is a release (risk 0); an empty original is not
     * what any release was made from */
    if (!rc && J->orig && J->orig->nrows == 0)
        rc = cmd_usage_error(c, "%s: no records after the header: give the original the release was made from",
                             J->orig->source);
    const char *pop = cmd_str(c, "population");
    if (!rc && pop)
        rc = cmd_load_table(c, pop, &J->pop);
    return rc;
}

/* --qi (hierarchy parts ignored) and, with --original, the linkage columns. */
static keps_status quasi_identifiers(cmd_ctx *c, job *J)
{
    char **v, **cv;
    size_t n = cmd_list(c, "qi", &v), ncv = cmd_list(c, "columns", &cv);
    J->qi.v = calloc(n + 1, sizeof *J->qi.v);
    if (!J->qi.v)
        return cmd_oom(c);
    for (size_t i = 0; i < n; i++) {
        const char *rest;
        int col = keps_table_column_spec(J->t, v[i], &rest);
        if (col < 0) {
            keps_error err = {0};
            keps_table_no_column_spec(&err, J->t, v[i]);
            return cmd_usage_error(c, "{qi} '%s': %s", v[i], err.msg);
        }
        if (!(J->qi.v[J->qi.n++] = strdup(J->t->cols[col].name)))
            return KEPS_EINPUT;
    }
    if (J->orig) {
        int bad = ncv || J->qi.n ? copy_names(ncv ? cv : J->qi.v, ncv ? ncv : J->qi.n, &J->rlcols)
                                 : common_names(J->orig, J->t, &J->rlcols);
        if (bad || !J->rlcols.v)
            return cmd_oom(c);
        if (J->rlcols.n == 0)
            return cmd_usage_error(c, "%s and %s share no column; name them with {columns} or {qi}", J->orig->source,
                                   J->t->source);
        if (!J->qi.n) { /* classes on the linkage columns, as before */
            names_free(&J->qi);
            if (copy_names(J->rlcols.v, J->rlcols.n, &J->qi))
                return KEPS_EINPUT;
        }
    } else if (ncv) {
        return cmd_usage_error(c, "{columns} names record-linkage columns, which need {original} FILE {release} "
                                  "FILE; the risk of one table is measured on its {qi} columns");
    } else if (cmd_str(c, "linkage-direction")) {
        return cmd_usage_error(c, "{linkage-direction} applies to record linkage, which needs {original} FILE "
                                  "{release} FILE");
    }
    if (J->qi.n == 0)
        return cmd_usage_error(c, "{qi} is required: name the quasi-identifier columns, e.g. {qi} age {qi} sex");
    for (size_t i = 0; i < J->qi.n; i++)
        for (size_t k = 0; k < i; k++)
            if (!strcmp(J->qi.v[i], J->qi.v[k]))
                return cmd_usage_error(c, "{qi} '%s' is given twice", J->qi.v[i]);
    J->cols = malloc(J->qi.n * sizeof *J->cols);
    J->pcols = malloc(J->qi.n * sizeof *J->pcols);
    if (!J->cols || !J->pcols)
        return cmd_oom(c);
    keps_status rc = resolve(c, J->t, &J->qi, J->cols);
    if (!rc && J->pop)
        rc = resolve(c, J->pop, &J->qi, J->pcols);
    return rc;
}

static keps_status parameters(cmd_ctx *c, job *J)
{
    if (cmd_suppressed_mode(c, &J->mode))
        return KEPS_EINPUT;
    double n = 0, f = 0;
    int hn = cmd_double(c, "population-size", 1, 9007199254740992.0, 0, &n);
    int hf = cmd_double(c, "sampling-fraction", DBL_MIN, 1, 0, &f);
    long m;
    int hm = cmd_long(c, "max-combination", 1, 64, 2, &m);
    int hd = cmd_double(c, "dis-fraction", DBL_MIN, 1, KEPS_SUDA_DIS_FRACTION, &J->dis_fraction);
    if (hn < 0 || hf < 0 || hm < 0 || hd < 0)
        return KEPS_EINPUT;
    if (hn && hf)
        return cmd_usage_error(c, "give the population as {population-size} N or as {sampling-fraction} F, not "
                                  "both");
    if (hn && n != floor(n))
        return cmd_usage_error(c, "{population-size} %g: expected a whole number of records", n);
    J->population = hn ? n : hf ? keps_population_from_fraction(J->t->nrows, f) : J->pop ? (double)J->pop->nrows : 0;
    if (J->population > 0 && J->population < (double)J->t->nrows)
        return cmd_usage_error(c,
                               "%s: the population (%.0f records%s) is smaller than %s's %zu rows; the population "
                               "holds the table",
                               CMD_SPELL(c, hn ? "population-size" : hf ? "sampling-fraction" : "population"), J->population,
                               hf ? ", rows / F" : "", J->t->source, J->t->nrows);
    if (hm && (size_t)m > J->qi.n)
        return cmd_usage_error(c, "{max-combination} %ld: there %s only %zu quasi-identifier%s; give at most %zu", m,
                               J->qi.n == 1 ? "is" : "are", J->qi.n, J->qi.n == 1 ? "" : "s", J->qi.n);
    J->max_comb = (size_t)m > J->qi.n ? (long)J->qi.n : m;
    J->weight_col = -1;
    const char *w = cmd_str(c, "weights");
    if (w) {
        int col = keps_table_column(J->t, w);
        if (col < 0)
            return no_column(c, J->t, w);
        for (size_t i = 0; i < J->qi.n; i++)
            if (J->cols[i] == (size_t)col)
                return cmd_usage_error(c, "{weights} %s is also a {qi}: weights are not quasi-identifiers", w);
        keps_error err = {0};
        if (keps_table_numeric(J->t, (size_t)col, &err))
            return cmd_fail(c, &err);
        const keps_column *wc = &J->t->cols[col];
        if (wc->missing != KEPS_NONE && wc->missing_count) {
            keps_table_cell_error(&err, J->t, (size_t)col, wc->first_row[wc->missing],
                                  "missing sampling weight: every record needs its weight");
            return cmd_fail(c, &err);
        }
        if (!(J->weights = malloc((J->t->nrows + 1) * sizeof *J->weights)))
            return cmd_oom(c);
        for (size_t r = 0; r < J->t->nrows; r++) {
            J->weights[r] = keps_table_num(J->t, (size_t)col, r);
            if (!(J->weights[r] > 0)) {
                keps_table_cell_error(&err, J->t, (size_t)col, r, "sampling weight %g: weights must be positive",
                                      J->weights[r]);
                return cmd_fail(c, &err);
            }
        }
        J->weight_col = col;
    }
    return KEPS_OK;
}

static keps_status analyse(cmd_ctx *c, job *J)
{
    keps_error err = {0};
    size_t m = J->qi.n;
    if (keps_sample_risk_compute(J->t, J->cols, m, J->mode, J->pop, J->pcols, &J->sr, &err) ||
        (J->population > 0 && keps_population_uniqueness(&J->sr.sizes, J->population, &J->pu, &err)) ||
        keps_individual_risk_compute(J->t, J->cols, m, J->weights, J->mode, &J->ir, &err) ||
        keps_attribute_risks_compute(J->t, J->cols, m, (size_t)J->max_comb, J->weights, J->mode, &J->ar, &err) ||
        keps_suda_compute(J->t, J->cols, m, (size_t)J->max_comb, J->dis_fraction, J->mode, &J->su, &err))
        return cmd_fail(c, &err);
    J->has_pu = J->population > 0;
    return KEPS_OK;
}

/* ---- the report ---- */

static void json_sample(keps_json *j, const job *J)
{
    keps_sample_risk_json(j, &J->sr, J->pop ? J->pop->source : NULL);
}

static void json_uniqueness(keps_json *j, const job *J)
{
    if (!J->has_pu) {
        keps_json_null(j, "population_uniques");
        return;
    }
    const keps_uniqueness *u = &J->pu;
    keps_json_object(j, "population_uniques");
    keps_json_num(j, "population_size", u->population);
    keps_json_num(j, "sampling_fraction", u->sampling_fraction);
    for (int mdl = 0; mdl < KEPS_UNIQ_MODELS; mdl++)
        keps_json_num(j, keps_uniq_model_name((keps_uniq_model)mdl), u->share[mdl]);
    if (u->model == KEPS_UNIQ_NONE)
        keps_json_null(j, "model");
    else
        keps_json_str(j, "model", keps_uniq_model_name(u->model));
    keps_json_object(j, "records");
    for (int mdl = 0; mdl < KEPS_UNIQ_MODELS; mdl++)
        keps_json_num(j, keps_uniq_model_name((keps_uniq_model)mdl), u->uniques[mdl]);
    keps_json_end(j);
    keps_json_end(j);
}

static void json_individual(keps_json *j, const job *J)
{
    const keps_individual_risk *r = &J->ir;
    double share[KEPS_RISK_BANDS] = {0};
    for (size_t i = 0; i < r->rows; i++)
        if (!isnan(r->risk[i]))
            share[keps_risk_band(r->risk[i])] += 1.0 / (double)r->records;
    keps_json_object(j, "individual_risk");
    if (J->weight_col >= 0)
        keps_json_str(j, "weights", J->t->cols[J->weight_col].name);
    else
        keps_json_null(j, "weights");
    keps_json_int(j, "records", (long long)r->records);
    keps_json_num(j, "highest", r->highest);
    keps_json_num(j, "mean", r->mean);
    keps_json_num(j, "expected_reidentifications", r->sum);
    keps_risk_bands_json(j, "distribution", share);
    keps_json_end(j);
}

static void json_attributes(keps_json *j, const job *J)
{
    keps_json_array(j, "attributes");
    for (size_t i = 0; i < J->ar.n; i++) {
        const keps_combination_risk *a = &J->ar.c[i];
        keps_json_object(j, NULL);
        keps_json_array(j, "qis");
        for (size_t k = 0; k < a->size; k++)
            keps_json_str(j, NULL, J->qi.v[a->pos[k]]);
        keps_json_end(j);
        keps_json_num(j, "distinction", a->distinction);
        keps_json_num(j, "separation", a->separation);
        keps_json_int(j, "records", (long long)a->records);
        keps_json_int(j, "classes", (long long)a->classes);
        keps_json_num(j, "sample_uniques", a->records ? (double)a->uniques / (double)a->records : 0);
        keps_json_num(j, "individual_risk", a->risk_mean);
        keps_json_num(j, "expected_reidentifications", a->risk_sum);
        keps_json_int(j, "msus", (long long)J->su.combination_msus[i]);
        keps_json_end(j);
    }
    keps_json_end(j);
}

/* sdcMicro's print.suda2 intervals: == 0, (0, 0.1], ..., (0.6, 0.7], > 0.7
 * (its bounds are seq(0, 0.7, 0.1) + machine epsilon). */
static const char *const dis_labels[9] = {"== 0",       "(0.0, 0.1]", "(0.1, 0.2]", "(0.2, 0.3]", "(0.3, 0.4]",
                                          "(0.4, 0.5]", "(0.5, 0.6]", "(0.6, 0.7]", "> 0.7"};

static void json_suda(keps_json *j, const job *J)
{
    const keps_suda *s = &J->su;
    size_t bins[9] = {0};
    double highest = 0, dis_high = 0, dis_sum = 0;
    for (size_t r = 0; r < s->rows; r++) {
        int b = 0;
        while (b < 8 && !(s->dis[r] <= (double)b * 0.1 + DBL_EPSILON))
            b++;
        bins[b]++;
        highest = s->score[r] > highest ? s->score[r] : highest;
        dis_high = s->dis[r] > dis_high ? s->dis[r] : dis_high;
        dis_sum += s->dis[r];
    }
    bins[0] -= s->rows - s->records; /* rows left out are in no interval */
    keps_json_object(j, "suda2");
    keps_json_int(j, "max_size", (long long)s->max_size);
    keps_json_num(j, "dis_fraction", s->dis_fraction);
    keps_json_int(j, "records", (long long)s->records);
    keps_json_int(j, "special_uniques", (long long)s->special_uniques);
    keps_json_int(j, "full_uniques", (long long)s->full_uniques);
    keps_json_int(j, "pair_records", (long long)s->pair_records);
    keps_json_object(j, "msus");
    for (size_t k = 0; k < s->max_size; k++) {
        char key[24];
        snprintf(key, sizeof key, "%zu", k + 1);
        keps_json_int(j, key, (long long)s->msus_by_size[k]);
    }
    keps_json_end(j);
    keps_json_object(j, "score");
    keps_json_num(j, "highest", highest);
    keps_json_num(j, "mean", s->records ? s->total_score / (double)s->records : 0);
    keps_json_num(j, "total", s->total_score);
    keps_json_end(j);
    keps_json_object(j, "dis");
    keps_json_num(j, "highest", dis_high);
    keps_json_num(j, "mean", s->records ? dis_sum / (double)s->records : 0);
    keps_json_array(j, "histogram");
    for (int b = 0; b < 9; b++) {
        keps_json_object(j, NULL);
        keps_json_str(j, "interval", dis_labels[b]);
        keps_json_int(j, "records", (long long)bins[b]);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_end(j);
    keps_json_object(j, "attribute_contributions");
    for (size_t v = 0; v < s->nvars; v++)
        keps_json_num(j, J->qi.v[v], s->contribution[v]);
    keps_json_end(j);
    keps_json_end(j);
}

/* The keys of keps risk before the risk analysis grew (scripts read them). */
static void json_metrics(keps_json *j, const job *J)
{
    const keps_sample_risk *s = &J->sr;
    keps_json_object(j, "metrics");
    if (J->orig && J->skipped[0]) {
        keps_json_null(j, "record_linkage");
        keps_json_str(j, "record_linkage_skipped", J->skipped);
    } else if (J->orig) {
        keps_json_num(j, "record_linkage", J->rl);
        keps_json_num(j, "record_linkage_percent", 100 * J->rl);
    }
    keps_json_int(j, "suppressed_rows", (long long)s->suppressed);
    int all_star = s->rows > 0 && s->suppressed == s->rows; /* one class whatever the mode */
    keps_json_str(j, "suppressed", J->mode == KEPS_SUPPRESSED_EXCLUDE && !all_star ? "excluded" : "class");
    keps_json_int(j, "records_in_classes", (long long)s->records);
    keps_json_num(j, "prosecutor_max", s->prosecutor_highest);
    keps_json_num(j, "prosecutor_avg", s->prosecutor_average);
    keps_json_int(j, "classes", (long long)s->sizes.classes);
    keps_json_object(j, "records_in_classes_below");
    static const uint32_t lim[3] = {2, 5, 10};
    for (int b = 0; b < 3; b++) {
        size_t in = 0;
        for (size_t i = 0; i < s->sizes.n; i++)
            in += s->sizes.size[i] < lim[b] ? (size_t)s->sizes.size[i] * s->sizes.count[i] : 0;
        char key[4];
        snprintf(key, sizeof key, "%u", (unsigned)lim[b]);
        keps_json_num(j, key, s->records ? (double)in / (double)s->records : 0);
    }
    keps_json_end(j);
    keps_json_end(j);
}

/* "12.3%" of a share, or "n/a" for NaN. */
static const char *pct(char *b, size_t len, double share)
{
    if (isnan(share))
        snprintf(b, len, "n/a");
    else
        snprintf(b, len, "%.4g%%", 100 * share);
    return b;
}

static char *text_summary(const cmd_ctx *c, const job *J)
{
    const keps_sample_risk *s = &J->sr;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    char p1[32], p2[32], p3[32], p4[32];
    if (J->orig && J->skipped[0])
        fprintf(f, "record linkage: not computed (%s)\n", J->skipped);
    else if (J->orig)
        fprintf(f, "record linkage: %.4f%%%s\n", 100 * J->rl, J->t->nrows ? "" : " (the release has no records to link)");
    fprintf(f, "%zu records in %zu classes on %zu quasi-identifiers", s->records, s->sizes.classes, J->qi.n);
    if (s->suppressed)
        fprintf(f, "; %zu suppressed rows (every QI '*') %s", s->suppressed,
                s->records < s->rows ? "left out" : "counted as one class");
    fprintf(f, "\nprosecutor risk: highest %.4g (%s of records), average %.4g\n", s->prosecutor_highest,
            pct(p1, sizeof p1, s->prosecutor_share_at_highest), s->prosecutor_average);
    fprintf(f, "journalist risk: highest %.4g, average %.4g%s%s%s\n", s->journalist_highest, s->journalist_average,
            J->pop ? "" : " (no ", J->pop ? "" : CMD_SPELL(c, "population"),
            J->pop ? "" : " table: the file is its own population)");
    fprintf(f, "marketer risk: average %.4g\n", s->marketer_average);
    fprintf(f, "sample uniques: %s of records (%zu)\n", pct(p1, sizeof p1, s->sample_uniques), s->unique_records);
    if (J->has_pu) {
        const keps_uniqueness *u = &J->pu;
        fprintf(f, "population uniques (N = %.0f, sampling fraction %.4g): Pitman %s, Zayatz %s, SNB %s; Dankar %s",
                u->population, u->sampling_fraction, pct(p1, sizeof p1, u->share[0]), pct(p2, sizeof p2, u->share[1]),
                pct(p3, sizeof p3, u->share[2]), pct(p4, sizeof p4, u->share[3]));
        fprintf(f, u->model == KEPS_UNIQ_NONE ? " (no sample unique)\n" : " (%s)\n", keps_uniq_model_name(u->model));
    } else {
        fprintf(f, "population uniques: not estimated (give %s N or %s F)\n", CMD_SPELL(c, "population-size"),
                CMD_SPELL(c, "sampling-fraction"));
    }
    fprintf(f, "individual risk (Benedetti-Franconi%s%s): expected re-identifications %.4g, mean %.4g, highest %.4g\n",
            J->weight_col >= 0 ? ", weights " : ", no weights", J->weight_col >= 0 ? J->t->cols[J->weight_col].name : "",
            J->ir.sum, J->ir.mean, J->ir.highest);
    /* the five combinations that tell records apart best */
    size_t top[5], ntop = 0;
    for (size_t i = 0; i < J->ar.n; i++) {
        size_t at = ntop < 5 ? ntop++ : 5;
        while (at > 0 && J->ar.c[top[at - 1]].distinction < J->ar.c[i].distinction) {
            if (at < 5)
                top[at] = top[at - 1];
            at--;
        }
        if (at < 5)
            top[at] = i;
    }
    fprintf(f, "most distinguishing combinations (of up to %ld QIs): ", J->max_comb);
    for (size_t k = 0; k < ntop; k++) {
        const keps_combination_risk *a = &J->ar.c[top[k]];
        fprintf(f, "%s", k ? "; " : "");
        for (size_t q = 0; q < a->size; q++)
            fprintf(f, "%s%s", q ? "+" : "", J->qi.v[a->pos[q]]);
        fprintf(f, " %.4g", a->distinction);
    }
    size_t risky = 0;
    for (size_t r = 0; r < J->su.rows; r++)
        risky += J->su.dis[r] > 0.1 + DBL_EPSILON;
    fprintf(f, "\nspecial uniques (MSUs of up to %zu QIs): %zu records; %zu with a DIS score above 0.1\n",
            J->su.max_size, J->su.special_uniques, risky);
    fclose(f);
    return buf;
}

static keps_status report(cmd_ctx *c, const job *J)
{
    keps_json j;
    cmd_report_begin(c, &j, "risk");
    keps_json_int(&j, "input_rows", (long long)J->t->nrows);
    keps_json_array(&j, "quasi_identifiers");
    for (size_t i = 0; i < J->qi.n; i++)
        keps_json_str(&j, NULL, J->qi.v[i]);
    keps_json_end(&j);
    if (J->orig) {
        keps_json_array(&j, "columns");
        for (size_t i = 0; i < J->rlcols.n; i++)
            keps_json_str(&j, NULL, J->rlcols.v[i]);
        keps_json_end(&j);
    }
    keps_json_int(&j, "records", (long long)J->sr.records);
    keps_json_int(&j, "suppressed_rows", (long long)J->sr.suppressed);
    json_sample(&j, J);
    json_uniqueness(&j, J);
    json_individual(&j, J);
    json_attributes(&j, J);
    json_suda(&j, J);
    json_metrics(&j, J);
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char *text = text_summary(c, J);
    keps_status rc = text ? cmd_emit_report(c, &j, text) : cmd_oom(c);
    free(text);
    keps_json_free(&j);
    return rc;
}

/* --output: the figures of every record, in input order (they describe
 * the input's rows; nothing of their values is written), as a table. */
static keps_status write_records(cmd_ctx *c, const job *J)
{
    const char *out = cmd_str(c, "output");
    if (!out)
        return KEPS_OK;
    static const char *const head[] = {"row", "line", "class_size", "prosecutor", "individual_risk",
                                       "suda_score", "dis_score", "msus"};
    keps_partition ec;
    keps_error err = {0};
    if (keps_partition_from_release(J->t, J->cols, J->qi.n, J->mode, NULL, &ec, NULL, &err))
        return cmd_fail(c, &err);
    keps_table *rec = keps_table_new(8, head, NULL, "<records>", &err);
    keps_status st = rec ? KEPS_OK : KEPS_ENOMEM;
    char buf[8][32];
    const char *f[8];
    for (size_t j = 0; j < 8; j++)
        f[j] = buf[j];
    for (size_t r = 0; r < J->t->nrows && !st; r++) {
        snprintf(buf[0], sizeof buf[0], "%zu", r + 1);
        snprintf(buf[1], sizeof buf[1], "%u", J->t->row_line ? J->t->row_line[r] : 0);
        for (size_t j = 2; j < 8; j++)
            buf[j][0] = '\0'; /* a suppressed row: no figures */
        if (ec.class_of[r] != KEPS_NONE) {
            size_t msus = 0;
            for (size_t k = 0; k < J->su.max_size; k++)
                msus += J->su.msus[r * J->su.max_size + k];
            uint32_t size = ec.count[ec.class_of[r]];
            snprintf(buf[2], sizeof buf[2], "%u", size);
            snprintf(buf[3], sizeof buf[3], "%.17g", 1.0 / size);
            snprintf(buf[4], sizeof buf[4], "%.17g", J->ir.risk[r]);
            snprintf(buf[5], sizeof buf[5], "%.17g", J->su.score[r]);
            snprintf(buf[6], sizeof buf[6], "%.17g", J->su.dis[r]);
            snprintf(buf[7], sizeof buf[7], "%zu", msus);
        }
        st = keps_table_append(rec, f, NULL, 0, &err);
    }
    keps_partition_free(&ec);
    if (st) {
        keps_table_free(rec);
        return rec ? cmd_fail(c, &err) : cmd_oom(c);
    }
    keps_status rc = cmd_stage_table(c, "output", &rec, ',');
    keps_table_free(rec);
    return rc;
}

static void job_free(job *J)
{
    keps_table_free(J->t);
    keps_table_free(J->orig);
    keps_table_free(J->pop);
    names_free(&J->qi);
    names_free(&J->rlcols);
    free(J->cols);
    free(J->pcols);
    free(J->weights);
    keps_sample_risk_free(&J->sr);
    keps_individual_risk_free(&J->ir);
    keps_attribute_risks_free(&J->ar);
    keps_suda_free(&J->su);
}

static keps_status run(cmd_ctx *c)
{
    job J = {0};
    keps_status rc = load_tables(c, &J);
    if (!rc)
        rc = quasi_identifiers(c, &J);
    if (!rc)
        rc = parameters(c, &J);
    if (!rc && J.orig) {
        char **cv;
        rc = linkage(c, J.orig, J.t, &J.rlcols, cmd_list(c, "columns", &cv) > 0, &J.rl, J.skipped, sizeof J.skipped);
    }
    if (!rc)
        rc = analyse(c, &J);
    if (!rc)
        rc = write_records(c, &J);
    if (!rc)
        rc = report(c, &J);
    job_free(&J);
    return rc;
}

const cmd_cmd cmd_risk = {
    "risk",
    "re-identification risk of a table (prosecutor, journalist, marketer, population uniques, attributes, "
    "special uniques); record linkage of a release",
    "risk {input} FILE {qi} NAME ... [{population-size} N | {sampling-fraction} F] [{population} FILE] "
    "[{max-combination} M] [{weights} COL] [options]\n"
    "       keps risk {original} FILE {release} FILE [{qi} NAME ...] [{columns} NAME ...] [options]",
    "Measures how identifiable the records of one table are on its quasi-identifiers ({qi}), as ARX 3.9.2 and "
    "sdcMicro define the measures (docs/spec.md, section 13). A class is the set of records with equal values on "
    "every QI. prosecutor: a record's risk is 1/(its class size); highest, average (= classes / records) and "
    "share_at_highest (records in the smallest classes). journalist: the same against a population table "
    "({population} FILE, a superset of the file in the same representation: risk 1/(the class size there)); "
    "without one the file is its own population and journalist = prosecutor. marketer: the expected share of "
    "records re-identified. sample_uniques: the share of records alone in their class. classes: the class-size "
    "distribution (size -> number of classes); risk_distribution: records per prosecutor-risk band, as ARX "
    "shows it. Population uniqueness ({population-size} N, {sampling-fraction} F, or the rows of {population}): "
    "the share of the population estimated unique by the models of Pitman, Zayatz (1991), SNB (Chen & McNulty "
    "1998), and Dankar et al. (2012)'s decision rule (model: the one it picked); null where a model finds no "
    "estimate. attributes: for every combination of up to {max-combination} QIs, distinction (classes / "
    "records), separation (share of record pairs told apart), sample uniques, the mean individual risk and the "
    "records whose minimal sample unique (MSU) it is. individual_risk: Benedetti & Franconi (1998) as sdcMicro's "
    "measure_risk, with {weights}. suda2: minimal sample uniques of up to {max-combination} QIs (sdcMicro's suda2 "
    "searches all sizes: give the number of QIs to match it), SUDA and DIS scores ({dis-fraction}). Rows whose "
    "every QI is '*' are suppressed records: left out by default, as ARX does ({suppressed} class counts them as "
    "one class); when every row is '*' they are one class either way. Values are compared as written; the missing "
    "token is a value. With {original} X {release} Y: record linkage (Soria-Comas et al.): both files are "
    "standardized with the original's mean and sd; for each original record, G = the released records nearest to "
    "it (Euclidean); it counts 1/|G| if its own release is in G; record_linkage is the mean, a fraction in [0, 1] "
    "(record_linkage_percent = 100 x). Row i of the release must be the release of original row i: write it with "
    "{keep-order} and do not remove rows (differing row counts are an error). A release that is not numeric "
    "(generalized ranges) gets record_linkage null unless {columns} demands it. The QIs default to the linkage "
    "columns there. An empty table has no record to single out: every risk is 0.",
    "risk {input} data/adult/adult.csv {qi} age {qi} sex {qi} race {qi} marital-status {sampling-fraction} 0.01 "
    "{json}",
    opts,
    run,
    0,
    NULL,
};
