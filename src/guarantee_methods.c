/* The guarantee each method states (include/keps/guarantee.h), computed
 * from the parameters it used and filled in the order its report lists
 * them. Declared in each method's header; kept here, next to the value
 * they fill, so that every model's wording is in one place. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/dpmicro.h"
#include "keps/guarantee.h"
#include "keps/kepsilon.h"
#include "keps/noise.h"
#include "keps/rr.h"
#include "keps/safela.h"
#include "keps/schema.h"

static const char *const EPS_MEANING = "privacy-loss bound: any output is at most e^epsilon times as likely on "
                                       "a neighbouring input";

void keps_noise_guarantee(const keps_noise_info *info, int rows, double releases, keps_guarantee *g)
{
    keps_guarantee_init(g, "epsilon-DP", 1);
    if (releases > 1) /* releases of the same value compose sequentially */
        keps_acct_add_times(&g->acct, "independent releases of the value", info->epsilon, 0, releases);
    else /* a file: a neighbour moves one row, i.e. one release */
        keps_acct_add(&g->acct, rows ? "one release per row" : "one release", info->epsilon, 0);
    keps_guarantee_num(g, "epsilon", g->acct.epsilon, EPS_MEANING);
    keps_guarantee_num(g, "sensitivity", info->sensitivity, "how far apart neighbouring values may be");
    keps_guarantee_str(g, "neighbours", rows ? "inputs that differ in one row by at most the sensitivity"
                                             : "values at most the sensitivity apart");
    keps_guarantee_place_data_dependent(g);
    keps_guarantee_place_not_covered(g);
}

void keps_kepsilon_guarantee(const keps_kepsilon_params *p, const keps_kepsilon_result *r, keps_guarantee *g)
{
    keps_guarantee_init(g, "(k,epsilon)-anonymity", 0);
    /* per class the m columns' noise adds up, classes are disjoint (the
     * maximum): composed in keps_kepsilon_run with the accountant's rules */
    keps_acct_add(&g->acct, "Laplace noise: the largest class's sum over its columns", r->epsilon_used, 0);
    keps_guarantee_int(g, "k", (long long)p->k, "every released class holds at least k records");
    keps_guarantee_num(g, "epsilon", g->acct.epsilon, "Laplace noise per record at scale m*width/epsilon "
                                                      "(Holohan et al. 2017), with the grid rounding");
    keps_guarantee_num(g, "epsilon_requested", p->epsilon, NULL);
    keps_guarantee_str(g, "note", p->scale == KEPS_KSCALE_DOMAIN
                                      ? "not differential privacy: the classes come from the data (k-anonymity), the "
                                        "noise uses public bounds"
                                      : "not differential privacy: the noise scale is read from the data (the "
                                        "diameter of each class or of the data set)");
}

void keps_safela_guarantee(const keps_safela_params *p, const keps_safela_result *r, keps_guarantee *g)
{
    keps_guarantee_init(g, "(beta,epsilon,delta)-DPS", 1);
    g->curator_only = 1;
    keps_guarantee_str(g, "covers", "the whole release: the QIs generalized to the node, every other released "
                                    "column part of the equivalence-class key at level 0, classes below k removed");
    keps_guarantee_num(g, "beta", r->beta, "each record is sampled with probability beta");
    keps_acct_add(&g->acct, "node choice (exponential mechanism)", r->epsilon_prime_effective, 0);
    /* the sampled k-threshold release: (beta, gap, delta)-DPS; the default gap
     * -ln(1 - beta) is rounded up, a given epsilon's gap down (delta was
     * computed at it) */
    keps_acct_add(&g->acct, "sampling and k-threshold release",
                  isnan(p->epsilon) ? nextafter(r->delta.eps_gap, INFINITY) : r->delta.eps_gap, r->delta.delta);
    keps_guarantee_num(g, "epsilon", g->acct.epsilon, EPS_MEANING);
    keps_guarantee_num(g, "delta", g->acct.delta, "probability the epsilon bound fails");
    keps_guarantee_num(g, "log_delta", r->delta.log_delta, NULL);
    keps_guarantee_num(g, "epsilon_prime", r->epsilon_prime_effective, "the exponential mechanism's node choice");
    if (r->epsilon_prime_effective > p->epsilon_prime) {
        keps_guarantee_num(g, "epsilon_prime_requested", p->epsilon_prime, NULL);
        keps_guarantee_str(g, "note", "penalty f < 1/k: the sample size the utility is scaled by moves with the "
                                      "data, so the node choice costs eps' (k + 1/f) / (2k)");
    }
    keps_guarantee_int(g, "k", (long long)p->k, "classes with fewer than k sampled records are removed");
    keps_guarantee_num(g, "gamma", r->delta.gamma, NULL);
    keps_guarantee_int(g, "n_min", r->delta.n_min, NULL);
    keps_guarantee_place_data_dependent(g); /* k, beta, eps', f and the hierarchies are the user's */
    keps_guarantee_place_not_covered(g);
}

/* "WHAT: a, b" over the columns j of s's table with pick(ctx, j). */
static void dd_columns(keps_guarantee *g, const char *what, const keps_schema *s,
                       int (*pick)(const void *, const keps_schema *, size_t), const void *ctx)
{
    size_t len = strlen(what) + 3;
    for (size_t j = 0; j < s->t->ncols; j++)
        if (pick(ctx, s, j))
            len += strlen(s->t->cols[j].name) + 2;
    char *list = malloc(len);
    if (!list) {
        g->oom = 1;
        return;
    }
    size_t at = (size_t)snprintf(list, len, "%s: ", what), n = 0;
    for (size_t j = 0; j < s->t->ncols; j++)
        if (pick(ctx, s, j))
            at += (size_t)snprintf(list + at, len - at, "%s%s", n++ ? ", " : "", s->t->cols[j].name);
    if (n)
        keps_guarantee_data_dependent_text(g, list);
    free(list);
}

/* "bounds: a, b" over the QIs, in --qi order, whose bounds were read from
 * the data. */
static void dd_bounds(keps_guarantee *g, const keps_schema *s, const int *given)
{
    size_t len = 16, at = 0, n = 0;
    for (size_t a = 0; a < s->nqi; a++)
        len += given[a] ? 0 : strlen(s->t->cols[s->qi[a].col].name) + 2;
    char *item = malloc(len);
    if (!item) {
        g->oom = 1;
        return;
    }
    at = (size_t)snprintf(item, len, "bounds: ");
    for (size_t a = 0; a < s->nqi; a++)
        if (!given[a])
            at += (size_t)snprintf(item + at, len - at, "%s%s", n++ ? ", " : "", s->t->cols[s->qi[a].col].name);
    if (n) /* column names: verbatim */
        keps_guarantee_data_dependent_text(g, item);
    free(item);
}

void keps_dpmicro_guarantee(const keps_dpmicro_params *p, const keps_dpmicro_result *r, const keps_schema *s,
                            const int *bounds_given, int unlinked, int keep_order, keps_guarantee *g)
{
    int leaks = keep_order && p->k > 1 && !unlinked;
    int dp = !leaks && !p->paper_accounting && (r->row_linked_dp || unlinked);
    keps_guarantee_init(g, dp ? "epsilon-DP" : "heuristic, not DP", dp);
    g->curator_only = 1;
    size_t m = s->nqi;
    if (!dp || r->row_linked_dp || m < 2)
        keps_acct_add(&g->acct, "noisy centroids", r->epsilon, 0);
    else /* unlinked univariate columns: the same records, one step per column */
        for (size_t a = 0; a < m; a++)
            keps_acct_add(&g->acct, s->t->cols[s->qi[a].col].name, r->epsilon_used[a], 0);
    dd_bounds(g, s, bounds_given);
    if (leaks) {
        keps_guarantee_num(g, "epsilon_if_shuffled", g->acct.epsilon, NULL);
        keps_guarantee_note(g, "note", "{keep-order} with k > 1 (allowed only with {seed}, for tests): rows sharing a "
                                      "noisy centroid keep their records' positions and show the data-dependent "
                                      "clusters");
    } else if (p->paper_accounting) {
        keps_guarantee_num(g, "claimed_epsilon", p->epsilon, NULL);
        keps_guarantee_note(g, "note", "the paper's noise accounting ({paper-accounting}), which is not differential "
                                      "privacy (docs/spec.md, section 5): claimed_epsilon is the paper's figure, not "
                                      "a guarantee");
    } else if (dp) {
        keps_guarantee_num(g, "epsilon", g->acct.epsilon, EPS_MEANING);
        keps_guarantee_str(g, "neighbours", "bounded (replace one record; N public)");
        keps_guarantee_note(g, "covers", unlinked && !r->row_linked_dp
                                            ? "the {qi} columns, each released unlinked (rows shuffled per column)"
                                            : "the {qi} columns (every row and the row order)");
    } else {
        keps_guarantee_num(g, "epsilon_if_unlinked", g->acct.epsilon, NULL);
        keps_guarantee_note(g, "note", "univariate with several columns: rows pair each record's per-column groups "
                                      "without noise, which leaks; use {unlink-columns} for epsilon-DP");
    }
    keps_guarantee_bool(g, "bounds_from_data", g->ndd > 0);
    keps_guarantee_place_data_dependent(g);
    for (size_t j = 0; j < s->t->ncols; j++) {
        int noisy = 0;
        for (size_t a = 0; a < m; a++)
            noisy |= s->qi[a].col == j;
        if (!noisy && keps_schema_released(s, j))
            keps_guarantee_not_covered(g, s->t->cols[j].name);
    }
    keps_guarantee_place_not_covered(g);
}

static int no_domain(const void *ctx, const keps_schema *s, size_t j)
{
    const uint8_t *public_domain = ctx;
    return s->role[j] == KEPS_ROLE_SENSITIVE && !public_domain[j];
}

static int sensitive(const void *ctx, const keps_schema *s, size_t j)
{
    (void)ctx;
    return s->role[j] == KEPS_ROLE_SENSITIVE;
}

void keps_rr_guarantee(const keps_rr_params *par, const keps_rr_levels *cl, const keps_rr_choice *ch,
                       const keps_schema *s, keps_guarantee *g)
{
    int tcl = par->kind != KEPS_RR_LDP;
    keps_guarantee_init(g, tcl && par->kind == KEPS_RR_TCLOSE ? "multiplicative-t-closeness" : "epsilon-LDP", 1);
    g->curator_only = 1;
    dd_columns(g, "domain (and with it the categories drawn and p)", s, no_domain, ch->public_domain);
    if (tcl)
        dd_columns(g, "distribution (RR-t draws from the data's own distribution)", s, sensitive, NULL);
    if (tcl && ch->from_t)
        keps_guarantee_data_dependent(g, "keep probability p_t (chosen from {t} and the data's distribution)");
    if (par->kind == KEPS_RR_LDP && ch->from_t && !ch->p_given)
        keps_guarantee_data_dependent(g, "keep probability p (chosen from {t}, the smallest class size %zu and N = %zu)",
                                      ch->k, ch->N);
    /* several --sensitive columns are randomized as one joint value: one mechanism, one step */
    keps_acct_add(&g->acct, "randomized response", cl->epsilon_ldp, 0);
    keps_guarantee_models(g, "models");
    if (par->kind != KEPS_RR_TCLOSE)
        keps_guarantee_model_add(g, "epsilon-LDP");
    keps_guarantee_model_add(g, "multiplicative-t-closeness");
    keps_guarantee_num(g, "epsilon", g->acct.epsilon, "local DP of each record's own value (Ekenstedt et al., Def. 6)");
    keps_guarantee_num(g, "t", cl->mult_t, "multiplicative t-closeness of every class (Def. 4)");
    keps_guarantee_int(g, "k", (long long)ch->k, "the smallest class size");
    keps_guarantee_str(g, "buckets", "single values");
    keps_guarantee_note(g, "covers", "each record's {sensitive} value(s), randomized on its own (local DP)");
    int from_data = 0;
    for (size_t j = 0; j < s->t->ncols; j++)
        from_data |= no_domain(ch->public_domain, s, j);
    keps_guarantee_bool(g, "domain_from_data", from_data);
    keps_guarantee_place_data_dependent(g);
    for (size_t j = 0; j < s->t->ncols; j++)
        if (keps_schema_released(s, j) && s->role[j] != KEPS_ROLE_SENSITIVE)
            keps_guarantee_not_covered(g, s->t->cols[j].name);
    keps_guarantee_place_not_covered(g);
    if (tcl)
        keps_guarantee_str(g, "note", "RR-t draws from the data's own distribution, so its t (and any epsilon of its "
                                      "matrix) holds for this data set's distribution, which the release reveals");
}

void keps_criterion_param_names(keps_criterion_kind k, const char **a, const char **b)
{
    *a = *b = NULL;
    switch (k) {
    case KEPS_CRIT_K_ANONYMITY:
    case KEPS_CRIT_K_MAP:
        *a = "k";
        break;
    case KEPS_CRIT_DISTINCT_L:
    case KEPS_CRIT_ENTROPY_L:
        *a = "l";
        break;
    case KEPS_CRIT_RECURSIVE_CL:
        *a = "c", *b = "l";
        break;
    case KEPS_CRIT_T_CLOSENESS:
    case KEPS_CRIT_MULT_T:
        *a = "t";
        break;
    case KEPS_CRIT_BETA_LIKENESS:
        *a = "beta";
        break;
    case KEPS_CRIT_DELTA_DISCLOSURE:
        *a = "delta";
        break;
    case KEPS_CRIT_DELTA_PRESENCE:
        *a = "dmin", *b = "dmax";
        break;
    case KEPS_CRIT_AVERAGE_RISK:
    case KEPS_CRIT_SAMPLE_UNIQUENESS:
        *a = "risk";
        break;
    case KEPS_CRIT_KT_CLOSENESS:
        *a = "k", *b = "t";
        break;
    default:
        break;
    }
}

const char *keps_sensitive_type_name(keps_sensitive_type ty)
{
    return ty == KEPS_SENSITIVE_ORDERED ? "ordered" : ty == KEPS_SENSITIVE_HIERARCHICAL ? "hierarchical" : "equal";
}

/* One criterion with its parameters, as the report lists it. */
static void criterion(keps_guarantee *g, const keps_criteria *crit, const keps_criterion *c, size_t i,
                      const keps_sensitive_spec *spec, const keps_table *t)
{
    const char *a, *b;
    keps_criterion_param_names(c->kind, &a, &b);
    keps_guarantee *s = keps_guarantee_criterion(g, keps_criterion_name(c->kind));
    if (!s)
        return;
    if (keps_criterion_names_column(c->kind))
        keps_guarantee_str(s, "column", t->cols[spec[c->sens].col].name);
    if (a)
        keps_guarantee_num(s, a, c->p[0], NULL);
    if (b)
        keps_guarantee_num(s, b, c->p[1], NULL);
    if (c->kind == KEPS_CRIT_ENTROPY_L)
        keps_guarantee_str(s, "estimator", c->variant == KEPS_ENTROPY_GRASSBERGER ? "grassberger" : "shannon");
    if (c->kind == KEPS_CRIT_BETA_LIKENESS)
        keps_guarantee_str(s, "variant", c->variant == KEPS_BETA_ENHANCED ? "enhanced" : "basic");
    if (c->kind == KEPS_CRIT_T_CLOSENESS)
        keps_guarantee_str(s, "ground_distance", keps_sensitive_type_name(keps_criteria_sensitive_type(crit, c->sens)));
    if (c->kind == KEPS_CRIT_K_MAP && c->variant != KEPS_KMAP_SUBSET) {
        keps_guarantee_str(s, "estimator", c->variant == KEPS_KMAP_POISSON ? "poisson" : "zero-truncated-poisson");
        keps_guarantee_num(s, "significance", c->p[1], NULL);
        keps_guarantee_num(s, "population_size", c->p[2], NULL);
        keps_guarantee_int(s, "derived_k", (long long)keps_criteria_kmap_derived_k(crit, i), NULL);
    }
    g->oom |= s->oom;
}

void keps_criteria_guarantee(keps_guarantee *g, long long k, const keps_criteria *crit, const keps_criterion *c,
                             size_t nc, const keps_sensitive_spec *spec, const keps_table *t)
{
    char model[512];
    size_t o = 0;
    model[0] = '\0';
    for (size_t i = 0; i < nc && o < sizeof model; i++) {
        int dup = 0; /* one name per kind */
        for (size_t j = 0; j < i; j++)
            dup |= c[j].kind == c[i].kind;
        if (!dup)
            o += (size_t)snprintf(model + o, sizeof model - o, "%s%s", o ? " + " : "", keps_criterion_name(c[i].kind));
    }
    keps_guarantee_init(g, c ? model : "k-anonymity", 0);
    if (k > 0)
        keps_guarantee_int(g, "k", k, "every released class holds at least k records");
    if (!c)
        return;
    keps_guarantee_criteria(g, "criteria");
    for (size_t i = 0; i < nc; i++)
        criterion(g, crit, &c[i], i, spec, t);
}

void keps_suppression_guarantee(keps_guarantee *g, double limit, size_t limit_rows, int subset)
{
    keps_guarantee_num(g, "suppression_limit", limit, "the largest share of rows suppressed");
    keps_guarantee_int(g, "suppression_limit_rows", (long long)limit_rows, "the same in rows");
    if (subset)
        keps_guarantee_note(g, "released", "the research subset ({subset}); the other input rows are not released");
}
