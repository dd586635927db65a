/* keps verify: checks a released CSV against every privacy criterion of
 * keps/criteria.h, with the same per-class tests the search applies (the
 * classes come from keps/partition.h). Exit 0 only if every criterion
 * asked for holds, 1 if one fails, 2 on bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "crit.h"
#include "keps/guarantee.h"
#include "keps/hierarchy.h"
#include "keps/partition.h"

static const cmd_opt opt_qi = {"qi", 0, "NAME[:HIERARCHY]", CLI_REPEAT,
                               "quasi-identifier column of the release, repeatable; a HIERARCHY is read only with "
                               "{population} (delta-presence, k-map), so anonymize flags can be reused",
                               "age\nsex"};
static const cmd_opt opt_population = {"population", 0, "FILE", 0,
                                       "the population the release was drawn from (the input of anonymize "
                                       "{subset}), for delta-presence and k-map: its rows are generalized through "
                                       "the {qi} hierarchies to the release's level and counted per class",
                                       "data/adult/adult.csv"};
static const cmd_opt opt_show = {"show", 0, "N", CLI_NUMBER, "how many of the smallest classes to list (default 5)",
                                 "10"};

static const cmd_opt *const opts[] = {&cmd_opt_input, &opt_qi, &cmd_opt_k, &crit_opt_sensitive, CRIT_OPTS,
                                      &opt_population, &cmd_opt_suppressed, &opt_show, &cmd_opt_counts, &cmd_opt_delimiter,
                                      &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_report, NULL};

/* What verify found, for the report. */
typedef struct verdict_set {
    const keps_table *t;
    const size_t *qi;
    size_t nqi;
    const keps_partition *p;
    const cmd_criteria *cc;
    keps_suppressed_mode mode;
    int all_star;
    size_t star_rows;
    long show;
    uint32_t *by_size; /* classes, smallest first */
    FILE *txt;
    keps_json *j;
} verdict_set;

static keps_status no_column(cmd_ctx *c, const keps_table *t, const char *param, const char *name)
{
    keps_error err = {0};
    keps_table_no_column(&err, t, name);
    return cmd_usage_error(c, "%s '%s': %s", CMD_SPELL(c, param), name, err.msg);
}

/* ---- classes -------------------------------------------------------------- */

/* Class ids by size, smallest first, stable. */
static uint32_t *sort_by_size(const keps_partition *p)
{
    uint32_t *pos = calloc(p->nrows + 2, sizeof *pos), *out = malloc((p->nclasses + 1) * sizeof *out);
    if (!pos || !out) {
        free(pos);
        free(out);
        return NULL;
    }
    for (size_t c = 0; c < p->nclasses; c++)
        pos[p->count[c] + 1]++;
    for (size_t s = 1; s <= p->nrows + 1; s++)
        pos[s] += pos[s - 1];
    for (size_t c = 0; c < p->nclasses; c++)
        out[pos[p->count[c]]++] = (uint32_t)c;
    free(pos);
    return out;
}

/* ---- output helpers -------------------------------------------------------------- */

static void text_class(const verdict_set *v, uint32_t e)
{
    size_t r = v->p->first_row[e];
    fprintf(v->txt, "size %u:", (unsigned)v->p->count[e]);
    for (size_t q = 0; q < v->nqi; q++)
        fprintf(v->txt, "%s %s=%s", q ? "," : "", v->t->cols[v->qi[q]].name, keps_table_str(v->t, v->qi[q], r));
}

static void json_class(const verdict_set *v, const char *key, uint32_t e, const char *fig, double x)
{
    if (e == KEPS_NONE) {
        keps_json_null(v->j, key);
        return;
    }
    keps_json_object(v->j, key);
    keps_json_int(v->j, "size", v->p->count[e]);
    keps_json_object(v->j, "qi");
    for (size_t q = 0; q < v->nqi; q++)
        keps_json_str(v->j, v->t->cols[v->qi[q]].name, keps_table_str(v->t, v->qi[q], v->p->first_row[e]));
    keps_json_end(v->j);
    if (fig)
        keps_json_num(v->j, fig, x);
    keps_json_end(v->j);
}

static void verdict(FILE *f, int asked, int holds, const char *bound)
{
    if (asked)
        fprintf(f, "  -> %s (%s)", holds ? "holds" : "FAILS", bound);
}

static void text_worst(const verdict_set *v, uint32_t e)
{
    fprintf(v->txt, "; worst class ");
    text_class(v, e);
    fprintf(v->txt, "\n");
}

/* ---- per-criterion figures ------------------------------------------------------- */

/* Larger is worse for these figures; smaller for k, k-map, distinct,
 * entropy; delta-presence: the farther outside [dmin, dmax]. */
static double badness(const keps_criterion *c, double f)
{
    switch (c->kind) {
    case KEPS_CRIT_K_ANONYMITY:
    case KEPS_CRIT_K_MAP:
    case KEPS_CRIT_DISTINCT_L:
    case KEPS_CRIT_ENTROPY_L:
        return -f;
    case KEPS_CRIT_DELTA_PRESENCE:
        return f < c->p[0] ? c->p[0] - f : f - c->p[1];
    default:
        return f;
    }
}

typedef struct crit_eval {
    int holds;
    size_t classes_failing, rows_failing;
    uint32_t worst;  /* KEPS_NONE: no class */
    double figure;   /* the worst class's, or the whole release's */
} crit_eval;

static void eval_criterion(const keps_criteria *k, size_t i, const keps_partition *p, crit_eval *e)
{
    const keps_criterion *c = keps_criteria_get(k, i);
    const uint32_t *vb[16], *cb[16];
    uint32_t nb[16];
    memset(e, 0, sizeof *e);
    e->worst = KEPS_NONE;
    e->holds = 1;
    if (keps_criterion_sample_based(c->kind)) { /* on the classes as released */
        uint32_t *sizes = malloc((p->nclasses + 1) * sizeof *sizes);
        size_t n = 0;
        if (!sizes) {
            e->holds = 0;
            return;
        }
        for (size_t x = 0; x < p->nclasses; x++)
            if (p->count[x])
                sizes[n++] = p->count[x];
        e->figure = keps_criteria_sample_figure(k, i, sizes, n);
        e->holds = keps_criterion_sample_holds(k, i, sizes, n); /* as released: nothing more suppressed */
        free(sizes);
        return;
    }
    if (c->kind == KEPS_CRIT_KT_CLOSENESS) {
        e->figure = keps_criteria_kt_level(k, i);
        e->holds = keps_criterion_kt_holds(k, i);
        return;
    }
    for (size_t x = 0; x < p->nclasses; x++) {
        if (!p->count[x])
            continue;
        keps_class_view v;
        keps_partition_view(p, x, vb, cb, nb, &v);
        double f = keps_criterion_figure(k, i, &v);
        if (!keps_criterion_check(k, i, &v)) {
            e->holds = 0;
            e->classes_failing++;
            e->rows_failing += v.count;
        }
        if (e->worst == KEPS_NONE || badness(c, f) > badness(c, e->figure)) {
            e->worst = (uint32_t)x;
            e->figure = f;
        }
    }
}

/* Do all criteria of a kind hold (1), fail (0), or none asked (-1)? */
static int kind_holds(const verdict_set *v, const crit_eval *ev, keps_criterion_kind kind)
{
    int r = -1;
    for (size_t i = 0; i < v->cc->nc; i++)
        if (v->cc->c[i].kind == kind)
            r = (r != 0) && ev[i].holds;
    return r;
}

static const char *holds_key(keps_criterion_kind k)
{
    switch (k) {
    case KEPS_CRIT_K_ANONYMITY:
        return "k_anonymity";
    case KEPS_CRIT_DISTINCT_L:
        return "l_diversity";
    case KEPS_CRIT_ENTROPY_L:
        return "entropy_l_diversity";
    case KEPS_CRIT_RECURSIVE_CL:
        return "recursive_cl_diversity";
    case KEPS_CRIT_T_CLOSENESS:
        return "t_closeness";
    case KEPS_CRIT_BETA_LIKENESS:
        return "beta_likeness";
    case KEPS_CRIT_DELTA_DISCLOSURE:
        return "delta_disclosure";
    case KEPS_CRIT_DELTA_PRESENCE:
        return "delta_presence";
    case KEPS_CRIT_K_MAP:
        return "k_map";
    case KEPS_CRIT_AVERAGE_RISK:
        return "average_risk";
    case KEPS_CRIT_SAMPLE_UNIQUENESS:
        return "sample_uniqueness";
    case KEPS_CRIT_MULT_T:
        return "multiplicative_t_closeness";
    case KEPS_CRIT_KT_CLOSENESS:
        return "kt_closeness";
    default:
        return "?";
    }
}

/* ---- the report's sections ------------------------------------------------------- */

static void report_k(const verdict_set *v, const crit_eval *ev)
{
    const keps_partition *p = v->p;
    long k = v->cc->k;
    size_t below_c = 0, below_r = 0, nc = 0;
    for (size_t x = 0; x < p->nclasses; x++)
        if (p->count[x]) {
            nc++;
            if ((long)p->count[x] < k) {
                below_c++;
                below_r += p->count[x];
            }
        }
    int hk = kind_holds(v, ev, KEPS_CRIT_K_ANONYMITY);
    char bound[64];
    snprintf(bound, sizeof bound, "k=%ld", k);
    keps_json_object(v->j, "k_anonymity");
    if (k)
        keps_json_int(v->j, "k", k);
    if (nc)
        keps_json_int(v->j, "min_class", p->count[v->by_size[0]]);
    else
        keps_json_null(v->j, "min_class"); /* no class: every property holds vacuously */
    keps_json_int(v->j, "classes", (long long)nc);
    if (k) {
        keps_json_int(v->j, "classes_below_k", (long long)below_c);
        keps_json_int(v->j, "records_below_k", (long long)below_r);
    }
    keps_json_int(v->j, "suppressed_rows", (long long)v->star_rows);
    keps_json_str(v->j, "suppressed", v->mode == KEPS_SUPPRESSED_EXCLUDE && !v->all_star ? "excluded" : "class");
    keps_json_array(v->j, "smallest");
    if (nc)
        fprintf(v->txt, "k-anonymity: %zu classes, smallest class %u rows", nc, p->count[v->by_size[0]]);
    else
        fprintf(v->txt, "k-anonymity: no class to check (every row suppressed, or no rows)");
    if (k)
        fprintf(v->txt, "; %zu class(es) with %zu rows below k", below_c, below_r);
    verdict(v->txt, k > 0, hk != 0, bound);
    fprintf(v->txt, "\n");
    for (size_t i = 0; i < nc && i < (size_t)v->show; i++) {
        json_class(v, NULL, v->by_size[i], NULL, 0);
        fprintf(v->txt, "  smallest: ");
        text_class(v, v->by_size[i]);
        fprintf(v->txt, "\n");
    }
    keps_json_end(v->j);
    keps_json_end(v->j);
}

/* The figures of a sensitive column whatever is asked: distinct values,
 * exp(entropy), the EMD with its ground distance; computed by the criteria
 * plug-ins (distinct 1, entropy 1, t-closeness 1 always hold). */
typedef struct col_figs {
    crit_eval distinct, entropy, emd;
    keps_sensitive_type type;
    size_t values, missing_ignored;
} col_figs;

static int column_figures(const verdict_set *v, col_figs *f)
{
    size_t ns = v->cc->nsens;
    keps_criterion *aux = malloc((3 * ns + 1) * sizeof *aux);
    if (!aux)
        return -1;
    for (size_t s = 0; s < ns; s++) {
        aux[3 * s] = (keps_criterion){KEPS_CRIT_DISTINCT_L, s, {1, 0}, 0};
        aux[3 * s + 1] = (keps_criterion){KEPS_CRIT_ENTROPY_L, s, {1, 0}, KEPS_ENTROPY_SHANNON};
        aux[3 * s + 2] = (keps_criterion){KEPS_CRIT_T_CLOSENESS, s, {1, 0}, 0};
    }
    keps_criteria *k = NULL;
    keps_error err = {0};
    int rc = keps_criteria_new((keps_table *)v->t, v->cc->spec, ns, aux, 3 * ns, NULL, &k, &err) ? -1 : 0;
    for (size_t s = 0; s < ns && !rc; s++) {
        eval_criterion(k, 3 * s, v->p, &f[s].distinct);
        eval_criterion(k, 3 * s + 1, v->p, &f[s].entropy);
        eval_criterion(k, 3 * s + 2, v->p, &f[s].emd);
        f[s].type = keps_criteria_sensitive_type(k, s);
        f[s].values = keps_criteria_nvalues(k, s);
        f[s].missing_ignored = 0;
        const keps_column *col = &v->t->cols[v->cc->spec[s].col];
        if (f[s].type == KEPS_SENSITIVE_ORDERED && col->missing != KEPS_NONE &&
            keps_criteria_value(k, s, col->missing) + 1 == f[s].values) {
            f[s].missing_ignored = col->missing_count;
            f[s].values--;
        }
    }
    keps_criteria_free(k);
    free(aux);
    return rc;
}

/* The first criterion of a kind naming column s, or NULL. */
static const keps_criterion *asked(const verdict_set *v, keps_criterion_kind kind, size_t s)
{
    for (size_t i = 0; i < v->cc->nc; i++)
        if (v->cc->c[i].kind == kind && v->cc->c[i].sens == s)
            return &v->cc->c[i];
    return NULL;
}

static void report_columns(const verdict_set *v, const col_figs *f)
{
    const cmd_criteria *cc = v->cc;
    keps_json_object(v->j, "l_diversity");
    keps_json_str(v->j, "entropy_log", "natural");
    keps_json_object(v->j, "columns");
    fprintf(v->txt, "l-diversity (entropy H with the natural log; entropy l-diversity holds iff exp(H) >= l):\n");
    for (size_t s = 0; s < cc->nsens; s++) {
        const char *name = v->t->cols[cc->spec[s].col].name;
        const keps_criterion *cd = asked(v, KEPS_CRIT_DISTINCT_L, s), *ce = asked(v, KEPS_CRIT_ENTROPY_L, s);
        int none = f[s].distinct.worst == KEPS_NONE;
        keps_json_object(v->j, name);
        keps_json_int(v->j, "distinct_values", (long long)f[s].values);
        keps_json_int(v->j, "min_distinct", none ? 0 : (long long)f[s].distinct.figure);
        keps_json_num(v->j, "min_entropy_l", none ? 0 : f[s].entropy.figure);
        keps_json_num(v->j, "min_entropy", none ? 0 : log(f[s].entropy.figure));
        json_class(v, "worst_distinct", f[s].distinct.worst, "distinct", f[s].distinct.figure);
        json_class(v, "worst_entropy", f[s].entropy.worst, "entropy_l", f[s].entropy.figure);
        keps_json_end(v->j);
        if (none) {
            fprintf(v->txt, "  '%s': no class to check\n", name);
            continue;
        }
        char bl[64] = "", be[64] = "";
        if (cd)
            snprintf(bl, sizeof bl, "l=%g", cd->p[0]);
        if (ce)
            snprintf(be, sizeof be, "l=%g", ce->p[0]);
        crit_eval e;
        fprintf(v->txt, "  '%s' distinct: min %g distinct values in a class", name, f[s].distinct.figure);
        if (cd)
            eval_criterion(cc->crit, (size_t)(cd - cc->c), v->p, &e);
        verdict(v->txt, cd != NULL, cd && e.holds, bl);
        text_worst(v, f[s].distinct.worst);
        fprintf(v->txt, "  '%s' entropy: min exp(H) = %.6g (H = %.6g)", name, f[s].entropy.figure,
                log(f[s].entropy.figure));
        if (ce)
            eval_criterion(cc->crit, (size_t)(ce - cc->c), v->p, &e);
        verdict(v->txt, ce != NULL, ce && e.holds, be);
        text_worst(v, f[s].entropy.worst);
    }
    keps_json_end(v->j);
    keps_json_end(v->j);
    keps_json_object(v->j, "t_closeness");
    keps_json_str(v->j, "distance", "earth mover's distance to the whole table's distribution");
    keps_json_object(v->j, "columns");
    fprintf(v->txt, "t-closeness (Earth Mover's Distance of each class to the whole table's distribution):\n");
    for (size_t s = 0; s < cc->nsens; s++) {
        const char *name = v->t->cols[cc->spec[s].col].name;
        const keps_criterion *ct = asked(v, KEPS_CRIT_T_CLOSENESS, s);
        const char *gd = keps_sensitive_type_name(f[s].type);
        keps_json_object(v->j, name);
        keps_json_str(v->j, "ground_distance", gd);
        keps_json_num(v->j, "max_emd", f[s].emd.figure);
        if (f[s].type == KEPS_SENSITIVE_ORDERED)
            keps_json_int(v->j, "missing_ignored", (long long)f[s].missing_ignored);
        json_class(v, "worst", f[s].emd.worst, "emd", f[s].emd.figure);
        keps_json_end(v->j);
        if (f[s].emd.worst == KEPS_NONE) {
            fprintf(v->txt, "  '%s': no class to check\n", name);
            continue;
        }
        char bt[64] = "";
        crit_eval e;
        if (ct) {
            snprintf(bt, sizeof bt, "t=%g", ct->p[0]);
            eval_criterion(cc->crit, (size_t)(ct - cc->c), v->p, &e);
        }
        fprintf(v->txt, "  '%s' (%s ground distance): max EMD %.6g", name, gd, f[s].emd.figure);
        verdict(v->txt, ct != NULL, ct && e.holds, bt);
        text_worst(v, f[s].emd.worst);
        if (f[s].missing_ignored)
            fprintf(v->txt, "  ('%s': %zu rows with a missing value left out of the ordered EMD)\n", name,
                    f[s].missing_ignored);
    }
    keps_json_end(v->j);
    keps_json_end(v->j);
}

/* Every criterion asked: its figure, failing classes and verdict. */
static void report_criteria(const verdict_set *v, const crit_eval *ev)
{
    const cmd_criteria *cc = v->cc;
    keps_json_array(v->j, "criteria");
    for (size_t i = 0; i < cc->nc; i++) {
        const keps_criterion *c = &cc->c[i];
        const crit_eval *e = &ev[i];
        keps_json_object(v->j, NULL);
        keps_json_str(v->j, "model", keps_criterion_name(c->kind));
        if (keps_criterion_names_column(c->kind))
            keps_json_str(v->j, "column", v->t->cols[cc->spec[c->sens].col].name);
        keps_json_num(v->j, "parameter", c->p[0]);
        if (c->kind == KEPS_CRIT_RECURSIVE_CL || c->kind == KEPS_CRIT_DELTA_PRESENCE ||
            c->kind == KEPS_CRIT_KT_CLOSENESS)
            keps_json_num(v->j, "parameter2", c->p[1]);
        keps_json_bool(v->j, "holds", e->holds);
        keps_json_num(v->j, "figure", e->figure);
        if (!keps_criterion_sample_based(c->kind) && c->kind != KEPS_CRIT_KT_CLOSENESS) {
            keps_json_int(v->j, "classes_failing", (long long)e->classes_failing);
            keps_json_int(v->j, "rows_failing", (long long)e->rows_failing);
            json_class(v, "worst", e->worst, NULL, 0);
        }
        keps_json_end(v->j);
        /* the text: l-diversity, entropy and t-closeness have their lines above */
        if (c->kind == KEPS_CRIT_K_ANONYMITY || c->kind == KEPS_CRIT_DISTINCT_L || c->kind == KEPS_CRIT_ENTROPY_L ||
            c->kind == KEPS_CRIT_T_CLOSENESS)
            continue;
        fprintf(v->txt, "%s", keps_criterion_name(c->kind));
        if (keps_criterion_names_column(c->kind))
            fprintf(v->txt, " of '%s'", v->t->cols[cc->spec[c->sens].col].name);
        fprintf(v->txt, ": %s %.6g", e->worst != KEPS_NONE ? "worst class figure" : "figure", e->figure);
        if (e->classes_failing)
            fprintf(v->txt, ", %zu class(es) with %zu rows failing", e->classes_failing, e->rows_failing);
        fprintf(v->txt, "  -> %s", e->holds ? "holds" : "FAILS");
        if (e->worst != KEPS_NONE)
            text_worst(v, e->worst);
        else
            fprintf(v->txt, "\n");
    }
    keps_json_end(v->j);
}

static keps_status report(cmd_ctx *c, verdict_set *v)
{
    const cmd_criteria *cc = v->cc;
    keps_json j;
    char *text = NULL;
    size_t tlen = 0;
    FILE *txt = open_memstream(&text, &tlen);
    crit_eval *ev = calloc(cc->nc + 1, sizeof *ev);
    col_figs *figs = calloc(cc->nsens + 1, sizeof *figs);
    if (!txt || !ev || !figs || column_figures(v, figs)) {
        if (txt)
            fclose(txt);
        free(text);
        free(ev);
        free(figs);
        return cmd_oom(c);
    }
    for (size_t i = 0; i < cc->nc; i++)
        eval_criterion(cc->crit, i, v->p, &ev[i]);
    v->txt = txt;
    v->j = &j;
    cmd_report_begin(c, &j, "verify");
    keps_json_int(&j, "input_rows", (long long)v->t->nrows);
    fprintf(txt, "%s: %zu rows; %zu suppressed (every QI '*'), %s\n", v->t->source, v->t->nrows, v->star_rows,
            v->all_star ? "checked as one class (every row is '*': a release generalized to the top looks the same, "
                          "and leaving them out would pass every check vacuously)"
            : v->mode == KEPS_SUPPRESSED_EXCLUDE ? "left out of the checks (suppressed class checks them)"
                                                 : "checked as one class");
    report_k(v, ev);
    if (cc->nsens)
        report_columns(v, figs);
    report_criteria(v, ev);
    int all = 1;
    keps_json_object(&j, "holds");
    for (int kind = 0; kind < KEPS_CRIT_COUNT; kind++) {
        int h = kind_holds(v, ev, (keps_criterion_kind)kind);
        if (h >= 0)
            keps_json_bool(&j, holds_key((keps_criterion_kind)kind), h);
        all &= h != 0;
    }
    keps_json_bool(&j, "all", all);
    keps_json_end(&j);
    cmd_report_total(c, &j);
    keps_json_end(&j);
    if (!cc->nc) /* "holds" would be vacuous */
        fprintf(txt, "result: no property asked for: figures only\n");
    else if (all)
        fprintf(txt, "result: every property asked for holds\n");
    else {
        fprintf(txt, "result: FAILS:");
        for (int kind = 0; kind < KEPS_CRIT_COUNT; kind++)
            if (kind_holds(v, ev, (keps_criterion_kind)kind) == 0)
                fprintf(txt, " %s", keps_criterion_name((keps_criterion_kind)kind));
        fprintf(txt, "\n");
    }
    fclose(txt);
    keps_status rc = cmd_emit_finding(c, &j, text, !all);
    keps_json_free(&j);
    free(text);
    free(ev);
    free(figs);
    return rc;
}

/* ---- reading the input -------------------------------------------------------------- */

static keps_status resolve_qi(cmd_ctx *c, const keps_table *t, size_t **qi, size_t *nqi)
{
    char **v;
    *nqi = cmd_list(c, "qi", &v);
    if (!*nqi)
        return cmd_usage_error(c, "{qi} is required: name the quasi-identifier columns, e.g. {qi} age {qi} sex");
    *qi = malloc(*nqi * sizeof **qi);
    if (!*qi)
        return cmd_oom(c);
    for (size_t i = 0; i < *nqi; i++) {
        const char *rest; /* NAME:HIERARCHY is accepted; read only with --population */
        int j = keps_table_column_spec(t, v[i], &rest);
        if (j < 0)
            return no_column(c, t, "qi", v[i]);
        (*qi)[i] = (size_t)j;
    }
    return KEPS_OK;
}

/* --population: the release's classes counted in the population. */
static keps_status population_counts(cmd_ctx *c, const keps_table *t, const size_t *qi, size_t nqi, keps_partition *p)
{
    const char *path = cmd_str(c, "population");
    char **v;
    cmd_list(c, "qi", &v);
    keps_table *pop = NULL;
    keps_hierarchy **h = calloc(nqi + 1, sizeof *h);
    size_t *pcol = calloc(nqi + 1, sizeof *pcol);
    keps_status rc = !h || !pcol ? cmd_oom(c) : cmd_load_table(c, path, &pop);
    for (size_t i = 0; i < nqi && !rc; i++) {
        const char *rest;
        keps_table_column_spec(t, v[i], &rest);
        if (!rest || !*rest) {
            rc = cmd_usage_error(c, "{population} needs every {qi} with its hierarchy ({qi} %s:HIERARCHY.csv) to "
                                    "generalize the population like the release", t->cols[qi[i]].name);
            break;
        }
        int j = keps_table_column(pop, t->cols[qi[i]].name);
        if (j < 0) {
            rc = no_column(c, pop, "population", t->cols[qi[i]].name);
            break;
        }
        pcol[i] = (size_t)j;
        keps_error err = {0};
        if (keps_hierarchy_load(rest, 0, &h[i], &err))
            rc = cmd_fail(c, &err);
    }
    keps_error err = {0};
    if (!rc && keps_partition_population(p, t, qi, pop, pcol, (const keps_hierarchy *const *)h, nqi, &err))
        rc = cmd_fail(c, &err);
    for (size_t i = 0; h && i < nqi; i++)
        keps_hierarchy_free(h[i]);
    free(h);
    free(pcol);
    keps_table_free(pop);
    return rc;
}

static keps_status run(cmd_ctx *c)
{
    verdict_set v;
    memset(&v, 0, sizeof v);
    if (cmd_long(c, "show", 0, 1L << 31, 5, &v.show) < 0 || cmd_suppressed_mode(c, &v.mode))
        return KEPS_EINPUT;
    keps_table *t = NULL;
    size_t *qi = NULL, nqi = 0;
    cmd_criteria cc;
    memset(&cc, 0, sizeof cc);
    keps_partition p;
    memset(&p, 0, sizeof p);
    int need_pop = cmd_str(c, "delta-presence") || (cmd_str(c, "k-map") && !cmd_str(c, "population-size"));
    keps_status rc = cmd_load_input(c, &t);
    if (!rc) /* --counts: a frequency table, checked as its expanded records */
        rc = cmd_counts_expand(c, &t);
    if (!rc)
        rc = resolve_qi(c, t, &qi, &nqi);
    if (!rc && need_pop && !cmd_str(c, "population"))
        rc = cmd_usage_error(c, "{delta-presence} and {k-map} need {population} FILE: the data the release was "
                                "drawn from");
    if (!rc)
        rc = cmd_criteria_read(c, t, 0, 1, &cc);
    for (size_t s = 0; !rc && s < cc.nsens; s++)
        for (size_t q = 0; q < nqi; q++)
            if (qi[q] == cc.spec[s].col) {
                rc = cmd_usage_error(c, "'%s' is given both as {qi} and {sensitive}", t->cols[qi[q]].name);
                break;
            }
    if (!rc) {
        keps_error err = {0};
        if (keps_partition_from_release(t, qi, nqi, v.mode, cc.crit, &p, &v.star_rows, &err))
            rc = cmd_fail(c, &err);
        v.all_star = t->nrows > 0 && v.star_rows == t->nrows;
    }
    if (!rc && need_pop)
        rc = population_counts(c, t, qi, nqi, &p);
    if (!rc && !(v.by_size = sort_by_size(&p)))
        rc = cmd_oom(c);
    if (!rc) {
        v.t = t;
        v.qi = qi;
        v.nqi = nqi;
        v.p = &p;
        v.cc = &cc;
        rc = report(c, &v);
    }
    free(v.by_size);
    keps_partition_free(&p);
    cmd_criteria_free(&cc);
    free(qi);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_verify = {
    "verify",
    "check a released CSV against privacy criteria: k-anonymity, l-diversity, t-closeness and the rest",
    "verify {input} FILE {qi} NAME ... [{k} K] [{sensitive} NAME {l-diversity} L {t-closeness} T ...] "
    "[{population} FILE {delta-presence} A,B]",
    "Groups the rows of a released CSV into equivalence classes by their quasi-identifier values as written "
    "(generalized strings, '*', intervals) and checks every criterion asked for with the tests the lattice search "
    "applies (docs/spec.md, section 16): k-anonymity, distinct, entropy and recursive-(c,l) l-diversity, "
    "t-closeness (equal, ordered or hierarchical ground distance), beta-likeness, delta-disclosure, "
    "multiplicative t and (k,t)-closeness, average re-identification risk and sample uniqueness, and against "
    "{population} delta-presence and k-map. It prints the figures of every sensitive column whatever is asked: "
    "the fewest distinct values in a class, the smallest exp(H) (H the natural-log entropy), the largest Earth "
    "Mover's Distance to the whole table's distribution (equal distance for text, ordered for numbers, "
    "hierarchical with {sensitive} NAME:HIERARCHY.csv). Rows whose every QI is '*' are suppressed records; by "
    "default they are left out of the checks, as ARX does ({suppressed} class checks them as one class); they "
    "count in the whole table's distribution. The missing token is a sensitive value of its own, except in the "
    "ordered EMD of a numeric column, which leaves missing cells out. A criterion that names a column applies to "
    "every {sensitive} column, or with NAME=VALUE to one. Exit 0 if every property asked for holds, 1 if one "
    "fails (the worst class is printed; like every exit 1 it writes no {report} file, {json} prints the report on "
    "stdout), 2 on bad input.",
    "verify {input} out.csv {qi} age {qi} sex {k} 5 {sensitive} salary-class {t-closeness} 0.3",
    opts,
    run,
    0,
    NULL,
};
