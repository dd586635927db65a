/* keps verify: checks a released CSV for k-anonymity, distinct / entropy
 * l-diversity and t-closeness (models.h does the work). Exit 0 only if
 * every property asked for holds, 1 if one fails, 2 on bad input. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/models.h"

static const cli_opt opt_qi = {"qi", 0, "NAME", CLI_REPEAT,
                               "quasi-identifier column of the release, repeatable; a ':HIERARCHY' suffix is "
                               "accepted and ignored, so anonymize flags can be reused",
                               "age\nsex"};
static const cli_opt opt_l = {"l-diversity", 0, "L", CLI_NUMBER,
                              "distinct l-diversity: every class holds at least L distinct sensitive values",
                              "2"};
static const cli_opt opt_entropy_l = {"entropy-l", 0, "L", CLI_NUMBER,
                                      "entropy l-diversity: exp(H) >= L in every class (H with the natural log)",
                                      "1.5"};
static const cli_opt opt_t = {"t-closeness", 0, "T", CLI_NUMBER,
                              "t-closeness: the Earth Mover's Distance between every class's sensitive "
                              "distribution and the whole table's is at most T (0..1)",
                              "0.2"};
static const cli_opt opt_sens = {"sensitive", 0, "NAME", CLI_REPEAT,
                                 "sensitive column checked by l-diversity and t-closeness, repeatable",
                                 "salary-class"};
static const cli_opt opt_sens_type = {"sensitive-type", 0, "NAME=nominal|ordered", CLI_REPEAT,
                                      "ground distance of a sensitive column's EMD: nominal (equal distance) or "
                                      "ordered (numeric order); default ordered if every non-missing value is a "
                                      "number, else nominal",
                                      "age=nominal"};
static const cli_opt opt_show = {"show", 0, "N", CLI_NUMBER, "how many of the smallest classes to list (default 5)",
                                 "10"};

static const cli_opt *const opts[] = {&cli_opt_input, &opt_qi, &cli_opt_k, &opt_l, &opt_entropy_l, &opt_t,
                                      &opt_sens, &opt_sens_type, &cli_opt_suppressed, &opt_show,
                                      &cli_opt_delimiter, &cli_opt_missing, &cli_opt_decimal_comma, &cli_opt_report, NULL};

typedef struct {
    long k, l, show;
    double entropy_l, t;
    int has_k, has_l, has_el, has_t;
    keps_suppressed_mode mode;
} wanted;

static int no_column(cli_ctx *c, const keps_table *t, const char *flag, const char *name)
{
    keps_error err = {0};
    keps_table_no_column(&err, t, name);
    return cli_usage_error(c, "%s '%s': %s", flag, name, err.msg);
}

static int parse_wanted(cli_ctx *c, wanted *w)
{
    int a = cli_k(c, 0, 1, &w->k), b = cli_long(c, "l-diversity", 1, 1L << 31, 1, &w->l),
        d = cli_double(c, "entropy-l", 1, DBL_MAX, 1, &w->entropy_l),
        e = cli_double(c, "t-closeness", 0, 1, 1, &w->t), f = cli_long(c, "show", 0, 1L << 31, 5, &w->show);
    if (a < 0 || b < 0 || d < 0 || e < 0 || f < 0)
        return 2;
    w->has_k = a, w->has_l = b, w->has_el = d, w->has_t = e;
    if (cli_suppressed_mode(c, &w->mode))
        return 2;
    char **v;
    if ((b || d || e) && cli_list(c, "sensitive", &v) == 0)
        return cli_usage_error(c, "{l-diversity}, {entropy-l} and {t-closeness} need {sensitive} NAME");
    return 0;
}

/* Resolves --qi, --sensitive and --sensitive-type to columns. */
static int resolve(cli_ctx *c, const keps_table *t, size_t **qi, size_t *nqi, size_t **sens,
                   keps_sensitive_type **types, size_t *nsens)
{
    char **v;
    *nqi = cli_list(c, "qi", &v);
    if (!*nqi)
        return cli_usage_error(c, "{qi} is required: name the quasi-identifier columns, e.g. {qi} age {qi} sex");
    *qi = malloc(*nqi * sizeof **qi);
    *nsens = cli_list(c, "sensitive", &v);
    *sens = malloc((*nsens + 1) * sizeof **sens);
    *types = calloc(*nsens + 1, sizeof **types);
    if (!*qi || !*sens || !*types)
        return cli_oom(c);
    cli_list(c, "qi", &v);
    for (size_t i = 0; i < *nqi; i++) {
        const char *hierarchy; /* NAME:HIERARCHY is accepted; verify needs only the name */
        int j = keps_table_column_spec(t, v[i], &hierarchy);
        if (j < 0)
            return no_column(c, t, "--qi", v[i]);
        (*qi)[i] = (size_t)j;
    }
    cli_list(c, "sensitive", &v);
    for (size_t i = 0; i < *nsens; i++) {
        int j = keps_table_column(t, v[i]);
        if (j < 0)
            return no_column(c, t, "--sensitive", v[i]);
        for (size_t q = 0; q < *nqi; q++)
            if ((*qi)[q] == (size_t)j)
                return cli_usage_error(c, "'%s' is given both as {qi} and {sensitive}", v[i]);
        (*sens)[i] = (size_t)j;
    }
    size_t nt = cli_list(c, "sensitive-type", &v);
    for (size_t i = 0; i < nt; i++) {
        const char *eq = strrchr(v[i], '=');
        keps_sensitive_type ty = !eq                         ? KEPS_SENSITIVE_AUTO
                                 : !strcmp(eq + 1, "nominal") ? KEPS_SENSITIVE_NOMINAL
                                 : !strcmp(eq + 1, "ordered") ? KEPS_SENSITIVE_ORDERED
                                                              : KEPS_SENSITIVE_AUTO;
        if (ty == KEPS_SENSITIVE_AUTO)
            return cli_usage_error(c, "{sensitive-type} '%s': expected NAME=nominal or NAME=ordered", v[i]);
        size_t s = 0;
        while (s < *nsens && (strlen(t->cols[(*sens)[s]].name) != (size_t)(eq - v[i]) ||
                              strncmp(t->cols[(*sens)[s]].name, v[i], (size_t)(eq - v[i]))))
            s++;
        if (s == *nsens)
            return cli_usage_error(c, "{sensitive-type} '%s': no {sensitive} column of that name", v[i]);
        (*types)[s] = ty;
    }
    return 0;
}

/* ---- output ---- */

typedef struct {
    const keps_table *t;
    const keps_models *m;
    const size_t *qi;
    size_t nqi;
    const wanted *w;
    FILE *txt;
    keps_json *j;
} out_ctx;

static void text_class(const out_ctx *o, uint32_t e)
{
    size_t r = o->m->ec.first_row[e];
    fprintf(o->txt, "size %u:", (unsigned)o->m->ec.size[e]);
    for (size_t q = 0; q < o->nqi; q++)
        fprintf(o->txt, "%s %s=%s", q ? "," : "", o->t->cols[o->qi[q]].name, keps_table_str(o->t, o->qi[q], r));
}

/* A class in the report: its size, QI values and (fig, if not NULL) the
 * figure that makes it the worst; null when there is no class. */
static void json_class(const out_ctx *o, const char *key, uint32_t e, const char *fig, double v)
{
    if (e == KEPS_NONE) {
        keps_json_null(o->j, key);
        return;
    }
    keps_json_object(o->j, key);
    keps_json_int(o->j, "size", o->m->ec.size[e]);
    keps_json_object(o->j, "qi");
    for (size_t q = 0; q < o->nqi; q++)
        keps_json_str(o->j, o->t->cols[o->qi[q]].name, keps_table_str(o->t, o->qi[q], o->m->ec.first_row[e]));
    keps_json_end(o->j);
    if (fig)
        keps_json_num(o->j, fig, v);
    keps_json_end(o->j);
}

static void verdict(FILE *f, int asked, int holds, const char *bound)
{
    if (asked)
        fprintf(f, "  -> %s (%s)", holds ? "holds" : "FAILS", bound);
}

static void text_worst(const out_ctx *o, uint32_t e)
{
    fprintf(o->txt, "; worst class ");
    text_class(o, e);
    fprintf(o->txt, "\n");
}

static int report_k(const out_ctx *o)
{
    const keps_models *m = o->m;
    const wanted *w = o->w;
    size_t below_c, below_r;
    keps_models_below_k(m, w->has_k ? (size_t)w->k : 0, &below_c, &below_r);
    int holds = below_c == 0;
    char bound[64];
    snprintf(bound, sizeof bound, "k=%ld", w->k);
    keps_json_object(o->j, "k_anonymity");
    if (w->has_k)
        keps_json_int(o->j, "k", w->k);
    if (m->ec.nclasses)
        keps_json_int(o->j, "min_class", (long long)m->min_class);
    else
        keps_json_null(o->j, "min_class"); /* no class: every property holds vacuously */
    keps_json_int(o->j, "classes", (long long)m->ec.nclasses);
    if (w->has_k) {
        keps_json_int(o->j, "classes_below_k", (long long)below_c);
        keps_json_int(o->j, "records_below_k", (long long)below_r);
    }
    keps_json_int(o->j, "suppressed_rows", (long long)m->ec.suppressed);
    keps_json_str(o->j, "suppressed",
                  w->mode == KEPS_SUPPRESSED_EXCLUDE && !m->ec.all_star ? "excluded" : "class");
    keps_json_array(o->j, "smallest");
    if (m->ec.nclasses)
        fprintf(o->txt, "k-anonymity: %zu classes, smallest class %zu rows", m->ec.nclasses, m->min_class);
    else
        fprintf(o->txt, "k-anonymity: no class to check (every row suppressed, or no rows)");
    if (w->has_k)
        fprintf(o->txt, "; %zu class(es) with %zu rows below k", below_c, below_r);
    verdict(o->txt, w->has_k, holds, bound);
    fprintf(o->txt, "\n");
    for (size_t i = 0; i < m->ec.nclasses && i < (size_t)w->show; i++) {
        json_class(o, NULL, m->by_size[i], NULL, 0);
        fprintf(o->txt, "  smallest: ");
        text_class(o, m->by_size[i]);
        fprintf(o->txt, "\n");
    }
    keps_json_end(o->j);
    keps_json_end(o->j);
    return holds;
}

/* Distinct and entropy l-diversity for every sensitive column; holds[0..1]
 * ANDed over the columns. A table without classes holds vacuously. */
static void report_l(const out_ctx *o, int holds[2])
{
    const keps_models *m = o->m;
    const wanted *w = o->w;
    char bl[64], be[64];
    snprintf(bl, sizeof bl, "l=%ld", w->l);
    snprintf(be, sizeof be, "l=%g", w->entropy_l);
    keps_json_object(o->j, "l_diversity");
    if (w->has_l)
        keps_json_int(o->j, "l", w->l);
    if (w->has_el)
        keps_json_num(o->j, "entropy_l", w->entropy_l);
    keps_json_str(o->j, "entropy_log", "natural");
    keps_json_object(o->j, "columns");
    fprintf(o->txt, "l-diversity (entropy H with the natural log; entropy l-diversity holds iff exp(H) >= l):\n");
    for (size_t s = 0; s < m->nsens; s++) {
        const keps_sensitive_figures *f = &m->sens[s];
        const char *name = o->t->cols[f->col].name;
        int none = f->min_distinct_class == KEPS_NONE;
        int hd = none || (size_t)w->l <= f->min_distinct;
        int he = none || keps_entropy_l_holds(f->min_entropy_l, w->entropy_l);
        holds[0] &= hd, holds[1] &= he;
        keps_json_object(o->j, name);
        keps_json_int(o->j, "distinct_values", (long long)f->distinct_values);
        keps_json_int(o->j, "min_distinct", (long long)f->min_distinct);
        keps_json_num(o->j, "min_entropy_l", f->min_entropy_l);
        keps_json_num(o->j, "min_entropy", none ? 0 : log(f->min_entropy_l));
        json_class(o, "worst_distinct", f->min_distinct_class, "distinct", (double)f->min_distinct);
        json_class(o, "worst_entropy", f->min_entropy_class, "entropy_l", f->min_entropy_l);
        keps_json_end(o->j);
        if (none) {
            fprintf(o->txt, "  '%s': no class to check\n", name);
            continue;
        }
        fprintf(o->txt, "  '%s' distinct: min %zu distinct values in a class", name, f->min_distinct);
        verdict(o->txt, w->has_l, hd, bl);
        text_worst(o, f->min_distinct_class);
        fprintf(o->txt, "  '%s' entropy: min exp(H) = %.6g (H = %.6g)", name, f->min_entropy_l,
                log(f->min_entropy_l));
        verdict(o->txt, w->has_el, he, be);
        text_worst(o, f->min_entropy_class);
    }
    keps_json_end(o->j);
    keps_json_end(o->j);
}

/* t-closeness for every sensitive column; returns whether all hold. */
static int report_t(const out_ctx *o)
{
    const keps_models *m = o->m;
    const wanted *w = o->w;
    int holds = 1;
    char bt[64];
    snprintf(bt, sizeof bt, "t=%g", w->t);
    keps_json_object(o->j, "t_closeness");
    if (w->has_t)
        keps_json_num(o->j, "t", w->t);
    keps_json_str(o->j, "distance", "earth mover's distance to the whole table's distribution");
    keps_json_object(o->j, "columns");
    fprintf(o->txt, "t-closeness (Earth Mover's Distance of each class to the whole table's distribution):\n");
    for (size_t s = 0; s < m->nsens; s++) {
        const keps_sensitive_figures *f = &m->sens[s];
        const char *name = o->t->cols[f->col].name;
        int ht = f->max_emd_class == KEPS_NONE || keps_t_closeness_holds(f->max_emd, w->t);
        const char *gd = f->type == KEPS_SENSITIVE_ORDERED ? "ordered" : "equal";
        holds &= ht;
        keps_json_object(o->j, name);
        keps_json_str(o->j, "ground_distance", gd);
        keps_json_num(o->j, "max_emd", f->max_emd);
        if (f->type == KEPS_SENSITIVE_ORDERED)
            keps_json_int(o->j, "missing_ignored", (long long)f->missing_ignored);
        json_class(o, "worst", f->max_emd_class, "emd", f->max_emd);
        keps_json_end(o->j);
        if (f->max_emd_class == KEPS_NONE) {
            fprintf(o->txt, "  '%s': no class to check\n", name);
            continue;
        }
        fprintf(o->txt, "  '%s' (%s ground distance): max EMD %.6g", name, gd, f->max_emd);
        verdict(o->txt, w->has_t, ht, bt);
        text_worst(o, f->max_emd_class);
        if (f->missing_ignored)
            fprintf(o->txt, "  ('%s': %zu rows with a missing value left out of the ordered EMD)\n", name,
                    f->missing_ignored);
    }
    keps_json_end(o->j);
    keps_json_end(o->j);
    return holds;
}

static int report(cli_ctx *c, const keps_table *t, const keps_models *m, const size_t *qi, size_t nqi,
                  const wanted *w)
{
    keps_json j;
    char *text = NULL;
    size_t tlen = 0;
    FILE *txt = open_memstream(&text, &tlen);
    if (!txt)
        return 2;
    cli_report_begin(c, &j, "verify");
    keps_json_int(&j, "input_rows", (long long)t->nrows);
    out_ctx o = {t, m, qi, nqi, w, txt, &j};
    fprintf(txt, "%s: %zu rows; %zu suppressed (every QI '*'), %s\n", t->source, t->nrows, m->ec.suppressed,
            m->ec.all_star ? "checked as one class (every row is '*': a release generalized to the top looks the "
                             "same, and leaving them out would pass every check vacuously)"
            : w->mode == KEPS_SUPPRESSED_EXCLUDE ? "left out of the checks (--suppressed class checks them)"
                                                 : "checked as one class");
    int hk = report_k(&o), hs[3] = {1, 1, 1};
    if (m->nsens) {
        report_l(&o, hs);
        hs[2] = report_t(&o);
    }
    int all = (!w->has_k || hk) && (!w->has_l || hs[0]) && (!w->has_el || hs[1]) && (!w->has_t || hs[2]);
    keps_json_object(&j, "holds");
    if (w->has_k)
        keps_json_bool(&j, "k_anonymity", hk);
    if (w->has_l)
        keps_json_bool(&j, "l_diversity", hs[0]);
    if (w->has_el)
        keps_json_bool(&j, "entropy_l_diversity", hs[1]);
    if (w->has_t)
        keps_json_bool(&j, "t_closeness", hs[2]);
    keps_json_bool(&j, "all", all);
    keps_json_end(&j);
    cli_report_total(c, &j);
    keps_json_end(&j);
    if (!w->has_k && !w->has_l && !w->has_el && !w->has_t) /* "holds" would be vacuous */
        fprintf(txt, "result: no property asked for (-k, --l-diversity, --entropy-l, --t-closeness): figures only\n");
    else if (all)
        fprintf(txt, "result: every property asked for holds\n");
    else
        fprintf(txt, "result: FAILS:%s%s%s%s\n", w->has_k && !hk ? " k-anonymity" : "",
                w->has_l && !hs[0] ? " distinct-l-diversity" : "", w->has_el && !hs[1] ? " entropy-l-diversity" : "",
                w->has_t && !hs[2] ? " t-closeness" : "");
    fclose(txt);
    int rc = cli_emit_finding(c, &j, text, !all);
    keps_json_free(&j);
    free(text);
    return rc;
}

static int run(cli_ctx *c)
{
    wanted w;
    int rc = parse_wanted(c, &w);
    if (rc)
        return rc;
    keps_table *t = NULL;
    size_t *qi = NULL, *sens = NULL, nqi = 0, nsens = 0;
    keps_sensitive_type *types = NULL;
    keps_models m = {0};
    keps_error err = {0};
    if (!(rc = cli_load_input(c, &t)) && !(rc = resolve(c, t, &qi, &nqi, &sens, &types, &nsens))) {
        if (keps_models_compute(t, qi, nqi, sens, types, nsens, w.mode, &m, &err))
            rc = cli_fail(c, &err);
        else
            rc = report(c, t, &m, qi, nqi, &w);
    }
    keps_models_free(&m);
    free(qi);
    free(sens);
    free(types);
    keps_table_free(t);
    return rc;
}

const cli_cmd cmd_verify = {
    "verify",
    "check a released CSV for k-anonymity, l-diversity and t-closeness",
    "verify -i FILE {qi} NAME ... [{k} K] [{l-diversity} L] [{entropy-l} L] [{t-closeness} T] [{sensitive} NAME]",
    "Groups the rows of a released CSV into equivalence classes by their quasi-identifier values as written "
    "(generalized strings, '*', intervals) and prints every figure: the number of classes and the smallest ones "
    "(k-anonymity), the fewest distinct sensitive values in a class (distinct l-diversity), the smallest exp(H) "
    "with H the natural-log entropy of a class (entropy l-diversity holds iff exp(H) >= L), and the largest Earth "
    "Mover's Distance between a class's sensitive distribution and the whole table's (t-closeness, Li et al. "
    "2007): equal ground distance for nominal columns, ordered distance for numeric ones. Rows whose every QI is "
    "'*' are suppressed records; by default they are left out of the checks, as ARX does ({suppressed} class "
    "checks them as one class); they count in the whole table's distribution. The missing token is a sensitive "
    "value of its own, except in the ordered EMD, which leaves missing cells out. Exit 0 if every property asked "
    "for holds, 1 if one fails (the worst class is printed; like every exit 1 it writes no {report} file, "
    "{json} prints the report on stdout), 2 on bad input.",
    "keps verify -i out.csv {qi} age {qi} sex {k} 5 {sensitive} salary-class {t-closeness} 0.3",
    opts,
    run,
    0,
    NULL,
};
