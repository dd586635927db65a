/* Privacy-criteria options (see crit.h). */
#include "crit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/hierarchy.h"
#include "keps/subset.h"

#define PER_COLUMN                                                                                                  \
    "; applies to every {sensitive} column, NAME=VALUE (repeatable) sets it for one column (a value without NAME " \
    "covers the columns not named)"

const cmd_opt crit_opt_sensitive = {
    "sensitive", 0, "NAME[:HIERARCHY.csv]", CLI_REPEAT,
    "sensitive attribute, released as is and read by the criteria that name a column (l-diversity, t-closeness, "
    "beta-likeness, delta-disclosure, multiplicative t, (k,t)); a HIERARCHY gives t-closeness its hierarchical "
    "ground distance",
    "salary-class\noccupation:data/adult/adult_hierarchy_occupation.csv"};
const cmd_opt crit_opt_sensitive_type = {
    "sensitive-type", 0, "NAME=nominal|ordered|hierarchical", CLI_REPEAT,
    "ground distance of a sensitive column's EMD: nominal (equal), ordered (numeric order, or byte order of the "
    "text), hierarchical (needs {sensitive} NAME:HIERARCHY.csv); default hierarchical with a hierarchy, else "
    "ordered if every non-missing value is a number, else nominal",
    "occupation=ordered"};
/* The criteria that name a sensitive column, in the criteria's order: each
 * one's catalog entry (repeatable, PER_COLUMN) and what read_column_opt
 * makes of its value (the criterion's kind; pair: the value is "A,B"). */
#define COL_OPT(name, metavar, flags, help, example, kind, pair)                                                  \
    {{name, 0, metavar, CLI_REPEAT | (flags), help PER_COLUMN, example}, kind, pair}
const crit_col_opt crit_col_opts[CRIT_NCOL] = {
    COL_OPT("l-diversity", "[NAME=]L", CLI_NUMBER,
            "distinct l-diversity (Machanavajjhala et al. 2007): every class holds at least L distinct "
            "sensitive values",
            "3\ndisease=5", KEPS_CRIT_DISTINCT_L, 0),
    COL_OPT("entropy-l", "[NAME=]L", CLI_NUMBER,
            "entropy l-diversity: the entropy of every class's sensitive values (natural "
            "log, {entropy-estimator}) is at least ln L",
            "2.5", KEPS_CRIT_ENTROPY_L, 0),
    COL_OPT("recursive-l", "[NAME=]C,L", 0,
            "recursive (c,l)-diversity: in every class the most frequent value is rarer than C "
            "times the sum of all but the L-1 most frequent",
            "4,3", KEPS_CRIT_RECURSIVE_CL, 1),
    COL_OPT("t-closeness", "[NAME=]T", CLI_NUMBER,
            "t-closeness (Li, Li, Venkatasubramanian 2007): the Earth Mover's Distance between every "
            "class's sensitive distribution and the whole table's is at most T (0..1)",
            "0.2", KEPS_CRIT_T_CLOSENESS, 0),
    COL_OPT("beta-likeness", "[NAME=]B", CLI_NUMBER,
            "beta-likeness (Cao & Karras 2012): a value's share in a class exceeds its share q in "
            "the table by at most B*q",
            "1.5", KEPS_CRIT_BETA_LIKENESS, 0),
    COL_OPT("delta-disclosure", "[NAME=]D", CLI_NUMBER,
            "delta-disclosure privacy (Brickell & Shmatikov 2008): |log2(p/q)| < D for "
            "every value of a class (p its share there, q in the table)",
            "1.2", KEPS_CRIT_DELTA_DISCLOSURE, 0),
    COL_OPT("multiplicative-t", "[NAME=]T", CLI_NUMBER,
            "multiplicative t-closeness (Ekenstedt et al. 2022, Def. 4): 1/T <= q/p <= T for "
            "every value of the table in every class (T >= 1)",
            "3", KEPS_CRIT_MULT_T, 0),
    COL_OPT("kt-closeness", "[NAME=]K,T", 0,
            "(k,t)-closeness (Ekenstedt et al. 2022, Def. 7): multiplicative T for every K released "
            "rows; it depends on the sensitive values only, so it holds for every node or none",
            "100,2", KEPS_CRIT_KT_CLOSENESS, 1),
};
const cmd_opt crit_opt_estimator = {"entropy-estimator", 0, "shannon|grassberger", 0,
                                    "estimator of {entropy-l}: shannon (the plug-in entropy, default) or grassberger "
                                    "(Grassberger 2003, corrected for small classes, as ARX offers)",
                                    "grassberger"};
const cmd_opt crit_opt_beta_variant = {"beta-likeness-variant", 0, "basic|enhanced", 0,
                                       "basic (default) or enhanced beta-likeness (the bound is min(B, ln(1/q)))",
                                       "enhanced"};
const cmd_opt crit_opt_delta_presence = {"delta-presence", 0, "DMIN,DMAX", 0,
                                         "delta-presence (Nergiz, Atzori, Clifton 2007) against {subset}: the share "
                                         "of a class's population rows that are released lies in [DMIN, DMAX]",
                                         "0.05,0.15"};
const cmd_opt crit_opt_k_map = {"k-map", 0, "K", CLI_NUMBER,
                                "k-map (El Emam & Dankar 2008): every released class matches at least K rows of "
                                "the population: counted against {subset} (the input is the population), or "
                                "estimated from {population-size} ({k-map-estimator}, {significance})",
                                "10"};
const cmd_opt crit_opt_population_size = {"population-size", 0, "N", CLI_NUMBER,
                                          "size of the population the input was sampled from, for {k-map} without "
                                          "{subset}",
                                          "317238626"};
const cmd_opt crit_opt_kmap_estimator = {"k-map-estimator", 0, "poisson|zero-truncated-poisson", 0,
                                         "cell-size estimator of {k-map} with {population-size}: Poisson (Pannekoek "
                                         "1999, default) or zero-truncated Poisson (El Emam & Dankar 2008)",
                                         "zero-truncated-poisson"};
const cmd_opt crit_opt_significance = {"significance", 0, "A", CLI_NUMBER,
                                       "significance level of the {k-map} estimator (0..1, default 0.01)",
                                       "0.05"};
const cmd_opt crit_opt_subset = {"subset", 0, "FILE", 0,
                                 "research subset: the rows of the input (the population) that are released, as a "
                                 "CSV with the input's columns (matched whole, each input row at most once); the "
                                 "others are not released",
                                 "data/adult/adult_subset.csv"};
const cmd_opt crit_opt_average_risk = {"average-risk", 0, "R", CLI_NUMBER,
                                       "average re-identification risk (1 / average class size) at most R (0..1); "
                                       "the smallest classes are suppressed until it holds, as ARX does",
                                       "0.05"};
const cmd_opt crit_opt_sample_uniqueness = {"sample-uniqueness", 0, "R", CLI_NUMBER,
                                            "share of released rows unique on the QIs at most R (0..1); unique rows "
                                            "are suppressed until it holds",
                                            "0.01"};


int cmd_criteria_given(const cmd_ctx *c)
{
    char **v;
    static const char *const others[] = {"delta-presence", "k-map", "average-risk", "sample-uniqueness"};
    for (size_t i = 0; i < CRIT_NCOL; i++)
        if (cmd_list(c, crit_col_opts[i].opt.name, &v))
            return 1;
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (cmd_list(c, others[i], &v))
            return 1;
    return 0;
}

void cmd_criteria_free(cmd_criteria *cc)
{
    keps_criteria_free(cc->crit);
    for (size_t s = 0; cc->hier && s < cc->nsens; s++)
        keps_hierarchy_free(cc->hier[s]);
    free(cc->hier);
    free(cc->spec);
    free(cc->c);
    free(cc->subset);
    memset(cc, 0, sizeof *cc);
}

/* "A" or "A,B" as decimal numbers. */
static int parse_value(const char *s, int pair, double *a, double *b)
{
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *comma = strchr(buf, ',');
    if (pair != (comma != NULL))
        return -1;
    if (comma)
        *comma = '\0';
    if (keps_parse_number(buf, a) != KEPS_NUM_OK)
        return -1;
    if (comma && keps_parse_number(comma + 1, b) != KEPS_NUM_OK)
        return -1;
    return 0;
}

static int add(cmd_criteria *cc, size_t *cap, keps_criterion cr)
{
    if (cc->nc == *cap) {
        size_t n = *cap ? 2 * *cap : 8;
        keps_criterion *p = realloc(cc->c, n * sizeof *p);
        if (!p)
            return -1;
        cc->c = p;
        *cap = n;
    }
    cc->c[cc->nc++] = cr;
    return 0;
}

/* --sensitive NAME[:HIERARCHY] and --sensitive-type. */
static keps_status read_sensitive(cmd_ctx *c, keps_table *t, cmd_criteria *cc)
{
    char **v;
    size_t n = cmd_list(c, "sensitive", &v);
    cc->spec = calloc(n + 1, sizeof *cc->spec);
    cc->hier = calloc(n + 1, sizeof *cc->hier);
    if (!cc->spec || !cc->hier)
        return cmd_oom(c);
    cc->nsens = n;
    for (size_t i = 0; i < n; i++) {
        const char *rest = NULL;
        int col = keps_table_column_spec(t, v[i], &rest);
        if (col < 0) {
            keps_error err = {0};
            keps_table_no_column_spec(&err, t, v[i]);
            return cmd_usage_error(c, "{sensitive} '%s': %s", v[i], err.msg);
        }
        cc->spec[i].col = (size_t)col;
        cc->spec[i].type = KEPS_SENSITIVE_AUTO;
        if (rest && *rest) {
            keps_error err = {0};
            if (keps_hierarchy_load(rest, 0, &cc->hier[i], &err))
                return cmd_fail(c, &err);
            cc->spec[i].h = cc->hier[i];
            cc->spec[i].type = KEPS_SENSITIVE_HIERARCHICAL;
        }
    }
    size_t nt = cmd_list(c, "sensitive-type", &v);
    for (size_t i = 0; i < nt; i++) {
        const char *eq = strrchr(v[i], '=');
        keps_sensitive_type ty = !eq                               ? KEPS_SENSITIVE_AUTO
                                 : !strcmp(eq + 1, "nominal")      ? KEPS_SENSITIVE_NOMINAL
                                 : !strcmp(eq + 1, "ordered")      ? KEPS_SENSITIVE_ORDERED
                                 : !strcmp(eq + 1, "hierarchical") ? KEPS_SENSITIVE_HIERARCHICAL
                                                                   : KEPS_SENSITIVE_AUTO;
        if (ty == KEPS_SENSITIVE_AUTO)
            return cmd_usage_error(c, "{sensitive-type} '%s': expected NAME=nominal, NAME=ordered or "
                                      "NAME=hierarchical", v[i]);
        size_t s = 0;
        while (s < cc->nsens && (strlen(t->cols[cc->spec[s].col].name) != (size_t)(eq - v[i]) ||
                                 strncmp(t->cols[cc->spec[s].col].name, v[i], (size_t)(eq - v[i]))))
            s++;
        if (s == cc->nsens)
            return cmd_usage_error(c, "{sensitive-type} '%s': no {sensitive} column of that name", v[i]);
        if (ty == KEPS_SENSITIVE_HIERARCHICAL && !cc->spec[s].h)
            return cmd_usage_error(c, "{sensitive-type} '%s': give the column's hierarchy as {sensitive} "
                                      "%.*s:HIERARCHY.csv", v[i], (int)(eq - v[i]), v[i]);
        cc->spec[s].type = ty;
    }
    return KEPS_OK;
}

/* One column-naming option: a value per --sensitive column. */
static keps_status read_column_opt(cmd_ctx *c, const keps_table *t, cmd_criteria *cc, size_t *cap, size_t o)
{
    const crit_col_opt *co = &crit_col_opts[o];
    const char *flag = CMD_SPELL(c, co->opt.name);
    char **v;
    size_t n = cmd_list(c, co->opt.name, &v);
    if (!n)
        return KEPS_OK;
    if (!cc->nsens)
        return cmd_usage_error(c, "%s needs a {sensitive} NAME column", flag);
    int variant = 0;
    const char *est = cmd_str(c, "entropy-estimator"), *bv = cmd_str(c, "beta-likeness-variant");
    if (co->kind == KEPS_CRIT_ENTROPY_L && est)
        variant = !strcmp(est, "grassberger") ? KEPS_ENTROPY_GRASSBERGER : KEPS_ENTROPY_SHANNON;
    if (co->kind == KEPS_CRIT_BETA_LIKENESS && bv)
        variant = !strcmp(bv, "enhanced") ? KEPS_BETA_ENHANCED : KEPS_BETA_BASIC;
    int *named = calloc(cc->nsens, sizeof *named);
    double all[2] = {0, 0};
    int has_all = 0;
    if (!named)
        return cmd_oom(c);
    keps_status rc = KEPS_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        const char *eq = strrchr(v[i], '='), *val = eq ? eq + 1 : v[i];
        double a = 0, b = 0;
        if (parse_value(val, co->pair, &a, &b)) {
            rc = cmd_usage_error(c, "%s '%s': expected %s%s", flag, v[i],
                                 co->pair ? "two numbers A,B" : "a number", " (optionally NAME= before it)");
            break;
        }
        keps_criterion cr = {co->kind, 0, {a, b}, variant};
        if (!eq) {
            if (has_all) {
                rc = cmd_usage_error(c, "%s: two values without NAME=; give one for every column and NAME=VALUE "
                                        "for the columns that differ", flag);
                break;
            }
            has_all = 1;
            all[0] = a, all[1] = b;
            continue;
        }
        size_t s = 0;
        while (s < cc->nsens && (strlen(t->cols[cc->spec[s].col].name) != (size_t)(eq - v[i]) ||
                                 strncmp(t->cols[cc->spec[s].col].name, v[i], (size_t)(eq - v[i]))))
            s++;
        if (s == cc->nsens)
            rc = cmd_usage_error(c, "%s '%s': no {sensitive} column of that name", flag, v[i]);
        else if (named[s])
            rc = cmd_usage_error(c, "%s: column '%s' is named twice", flag, t->cols[cc->spec[s].col].name);
        else {
            named[s] = 1;
            cr.sens = s;
            if (add(cc, cap, cr))
                rc = cmd_oom(c);
        }
    }
    for (size_t s = 0; s < cc->nsens && has_all && !rc; s++)
        if (!named[s] && add(cc, cap, (keps_criterion){co->kind, s, {all[0], all[1]}, variant}))
            rc = cmd_oom(c);
    free(named);
    return rc;
}

keps_status cmd_criteria_read(cmd_ctx *c, keps_table *t, int k_required, int population, cmd_criteria *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    int given = cmd_criteria_given(c);
    keps_status rc;
    long k = 0;
    if (cmd_k(c, k_required && !given, 0, &k) < 0)
        return KEPS_EINPUT;
    out->k = k;
    const char *est = cmd_str(c, "entropy-estimator"), *bv = cmd_str(c, "beta-likeness-variant");
    if (est && strcmp(est, "shannon") && strcmp(est, "grassberger"))
        return cmd_usage_error(c, "{entropy-estimator} '%s': expected shannon or grassberger", est);
    if (bv && strcmp(bv, "basic") && strcmp(bv, "enhanced"))
        return cmd_usage_error(c, "{beta-likeness-variant} '%s': expected basic or enhanced", bv);
    if (k && add(out, &cap, (keps_criterion){KEPS_CRIT_K_ANONYMITY, 0, {(double)k, 0}, 0}))
        return cmd_oom(c);
    if ((rc = read_sensitive(c, t, out)))
        return rc;
    for (size_t o = 0; o < CRIT_NCOL; o++)
        if ((rc = read_column_opt(c, t, out, &cap, o)))
            return rc;
    const char *dp = cmd_str(c, "delta-presence");
    if (dp) {
        double a, b;
        if (parse_value(dp, 1, &a, &b))
            return cmd_usage_error(c, "{delta-presence} '%s': expected DMIN,DMAX", dp);
        if (add(out, &cap, (keps_criterion){KEPS_CRIT_DELTA_PRESENCE, 0, {a, b}, 0}))
            return cmd_oom(c);
    }
    long km;
    double pop = 0, alpha = 0.01;
    int got = cmd_long(c, "k-map", 1, CLI_K_MAX, 0, &km);
    if (got < 0)
        return KEPS_EINPUT;
    int kest = KEPS_KMAP_SUBSET, haspop = cmd_double(c, "population-size", 1, 1e300, 0, &pop);
    if (haspop < 0 || cmd_double(c, "significance", 0, 1, 0.01, &alpha) < 0)
        return KEPS_EINPUT;
    const char *ke = cmd_str(c, "k-map-estimator");
    if (ke && strcmp(ke, "poisson") && strcmp(ke, "zero-truncated-poisson"))
        return cmd_usage_error(c, "{k-map-estimator} '%s': expected poisson or zero-truncated-poisson", ke);
    if (haspop)
        kest = ke && !strcmp(ke, "zero-truncated-poisson") ? KEPS_KMAP_ZERO_TRUNCATED_POISSON : KEPS_KMAP_POISSON;
    if (got && add(out, &cap, (keps_criterion){KEPS_CRIT_K_MAP, 0, {(double)km, alpha, pop}, kest}))
        return cmd_oom(c);
    static const struct {
        const char *opt;
        keps_criterion_kind kind;
    } risk[] = {{"average-risk", KEPS_CRIT_AVERAGE_RISK}, {"sample-uniqueness", KEPS_CRIT_SAMPLE_UNIQUENESS}};
    for (size_t i = 0; i < 2; i++) {
        double r;
        if ((got = cmd_double(c, risk[i].opt, 0, 1, 0, &r)) < 0)
            return KEPS_EINPUT;
        if (got && add(out, &cap, (keps_criterion){risk[i].kind, 0, {r, 0}, 0}))
            return cmd_oom(c);
    }
    const char *sub = population ? NULL : cmd_str(c, "subset");
    int kmap_subset = cmd_str(c, "k-map") && !cmd_str(c, "population-size");
    if (population && (dp || kmap_subset)) {
        out->subset = malloc(t->nrows + 1);
        if (!out->subset)
            return cmd_oom(c);
        memset(out->subset, 1, t->nrows + 1);
    }
    if ((dp || kmap_subset) && !sub && !population)
        return cmd_usage_error(c, "{delta-presence} and {k-map} need {subset} FILE: the rows of the input (the "
                                  "population) that are released ({k-map} can instead estimate from "
                                  "{population-size} N)");
    if (sub) {
        keps_table *st = NULL;
        if ((rc = cmd_load_table(c, sub, &st)))
            return rc;
        keps_error err = {0};
        out->subset = malloc(t->nrows + 1);
        if (!out->subset) {
            keps_table_free(st);
            return cmd_oom(c);
        }
        keps_status s2 = keps_subset_match(t, st, out->subset, &err);
        keps_table_free(st);
        if (s2)
            return cmd_fail(c, &err);
        /* the report's before_after: rows outside the subset are not suppressed */
        free(c->offered);
        if (t == c->input && (c->offered = malloc(t->nrows + 1)))
            memcpy(c->offered, out->subset, t->nrows + 1);
    }
    keps_error err = {0};
    if (keps_criteria_new(t, out->spec, out->nsens, out->c, out->nc, out->subset, &out->crit, &err))
        return cmd_fail(c, &err);
    return KEPS_OK;
}

void cmd_criteria_guarantee(keps_guarantee *g, long long k, const cmd_criteria *cc, const keps_table *t)
{
    keps_criteria_guarantee(g, k, cc->crit, cc->c, cc->nc, cc->spec, t);
}

void cmd_criteria_text(char *buf, size_t len, const cmd_criteria *cc, const keps_table *t)
{
    keps_guarantee g;
    cmd_criteria_guarantee(&g, cc->k, cc, t);
    const keps_gfield *list = keps_guarantee_get(&g, "criteria");
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; list && i < list->nsub && o < len; i++) {
        const keps_guarantee *c = &list->sub[i];
        const keps_gfield *f = c->field, *end = c->field + c->nfield, *col = NULL;
        if (f < end && f->kind == KEPS_G_STR && !strcmp(f->name, "column"))
            col = f++;
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", c->model);
        if (o < len && f < end && f->kind == KEPS_G_NUM) /* the criterion's parameters come first */
            o += (size_t)snprintf(buf + o, len - o, " %s=%g", f->name, f->num);
        if (o < len && f + 1 < end && f[1].kind == KEPS_G_NUM)
            o += (size_t)snprintf(buf + o, len - o, ",%s=%g", f[1].name, f[1].num);
        if (o < len && col)
            o += (size_t)snprintf(buf + o, len - o, " of '%s'", col->str);
    }
    keps_guarantee_free(&g);
}
