/* keps privacy rr-epsilon / rr-t / implies (docs/spec.md, section 7): thin wrappers around
 * keps/rr.h. --json prints {"result": ..., inputs, intermediate values}. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/rr.h"

static keps_status emit(cmd_ctx *c, keps_json *j, const char *text)
{
    cmd_report_total(c, j);
    keps_json_end(j);
    keps_status rc = cmd_emit_report(c, j, text);
    keps_json_free(j);
    return rc;
}

keps_status cmd_privacy_rr_epsilon(cmd_ctx *c)
{
    double p, eps;
    long n;
    int hp = cmd_double(c, "p", 0.0, 1.0, 0.0, &p), he = cmd_double(c, "epsilon", 0.0, INFINITY, 0.0, &eps);
    int hn = cmd_long(c, "categories", 1, KEPS_RR_MAX_CATEGORIES * 1000L, 0, &n);
    if (hp < 0 || he < 0 || hn < 0)
        return KEPS_EINPUT;
    if (!hn)
        return cmd_usage_error(c, "rr-epsilon needs the number of categories {categories}, e.g. {p} 0.6 {categories} 4");
    if (hp == he)
        return cmd_usage_error(c, "rr-epsilon takes either {p} P (gives epsilon) or {epsilon} E (gives the largest p)");
    if (hp)
        eps = keps_rr_ldp_epsilon(p, (size_t)n);
    else
        p = keps_rr_ldp_p(eps, (size_t)n);
    keps_json j;
    cmd_calculator_begin(c, &j);
    keps_json_num(&j, "result", hp ? eps : p);
    keps_json_num(&j, "epsilon", eps);
    keps_json_num(&j, "p", p);
    keps_json_int(&j, "categories", n);
    /* one category: the output is always that category, ratio 1 */
    keps_json_num(&j, "keep_ratio", n <= 1 ? 1.0 : p >= 1.0 ? INFINITY : 1.0 + (double)n * p / (1.0 - p));
    keps_json_str(&j, "formula", "epsilon = ln(1 + n p / (1 - p)) (RR-LDP, Fig. 4; docs/spec.md, section 9, corrects eq. (1))");
    char text[256];
    if (hp)
        snprintf(text, sizeof text, "epsilon = %.6g  (RR-LDP keeping with p = %g over %ld categories)\n", eps, p, n);
    else
        snprintf(text, sizeof text, "p = %.6g  (largest RR-LDP keep probability for epsilon = %g over %ld categories)\n",
                 p, eps, n);
    return emit(c, &j, text);
}

/* --frequencies F1,F2,... (probabilities or counts, normalized) or -n N
 * (uniform). Returns 0 and a malloc'ed freq[*n], or the status of the error. */
static keps_status rr_frequencies(cmd_ctx *c, double **freq, size_t *n)
{
    const char *fs = cmd_str(c, "frequencies");
    long nc;
    int hn = cmd_long(c, "categories", 1, KEPS_RR_MAX_CATEGORIES, 0, &nc);
    if (hn < 0)
        return KEPS_EINPUT;
    if (!fs && !hn)
        return cmd_usage_error(c, "rr-t needs the distribution: {frequencies} 0.2,0.3,0.5 or {categories} N (uniform)");
    size_t cap = fs ? strlen(fs) / 2 + 2 : (size_t)nc;
    double *f = malloc(cap * sizeof *f), sum = 0.0;
    size_t k = 0;
    if (!f)
        return cmd_oom(c);
    if (fs) {
        const char *s = fs;
        for (;;) {
            char *end;
            double v = strtod(s, &end);
            if (end == s || !(v >= 0.0) || isinf(v) || (*end && *end != ',') || k == cap) {
                free(f);
                return cmd_usage_error(c, "{frequencies} '%s': expected non-negative numbers separated by commas", fs);
            }
            f[k++] = v;
            sum += v;
            if (!*end)
                break;
            s = end + 1;
        }
        if (!(sum > 0.0)) {
            free(f);
            return cmd_usage_error(c, "{frequencies} '%s': at least one value must be positive", fs);
        }
    } else {
        for (; k < (size_t)nc; k++)
            f[k] = 1.0;
        sum = (double)nc;
    }
    for (size_t i = 0; i < k; i++)
        f[i] /= sum;
    *freq = f;
    *n = k;
    return KEPS_OK;
}

keps_status cmd_privacy_rr_t(cmd_ctx *c)
{
    double pt, t;
    if (cmd_str(c, "pt") && cmd_str(c, "p")) /* -p is --pt's other name here: one would be dropped */
        return cmd_usage_error(c, "rr-t: {p} and {pt} both give the keep probability p_t; give one");
    int hp = cmd_double(c, "pt", 0.0, 1.0, 0.0, &pt);
    if (hp == 0)
        hp = cmd_double(c, "p", 0.0, 1.0, 0.0, &pt);
    int ht = cmd_double(c, "t", 1.0, INFINITY, 1.0, &t);
    if (hp < 0 || ht < 0)
        return KEPS_EINPUT;
    if (hp == ht)
        return cmd_usage_error(c, "rr-t takes either {pt} P (gives t) or {t} T (gives the largest p_t)");
    double *f = NULL;
    size_t n = 0;
    keps_status rc = rr_frequencies(c, &f, &n);
    if (rc)
        return rc;
    if (hp)
        t = keps_rr_t_level(pt, f, n);
    else
        pt = keps_rr_t_p(t, f, n);
    double fmin = 1.0;
    for (size_t i = 0; i < n; i++)
        if (f[i] > 0.0 && f[i] < fmin)
            fmin = f[i];
    keps_json j;
    cmd_calculator_begin(c, &j);
    keps_json_num(&j, "result", hp ? t : pt);
    keps_json_num(&j, "t", t);
    keps_json_num(&j, "pt", pt);
    keps_json_array(&j, "frequencies");
    for (size_t i = 0; i < n; i++)
        keps_json_num(&j, NULL, f[i]);
    keps_json_end(&j);
    keps_json_num(&j, "min_frequency", fmin);
    keps_json_num(&j, "same_value_ratio", 1.0 + pt * (1.0 / fmin - 1.0));
    keps_json_num(&j, "other_value_ratio", pt >= 1.0 ? INFINITY : 1.0 / (1.0 - pt));
    keps_json_str(&j, "formula",
                  "t = max(1 + p_t (1/f_min - 1), 1/(1 - p_t)): an equivalence class holding one value (eq. (2))");
    free(f);
    char text[256];
    if (hp)
        snprintf(text, sizeof text, "t = %.6g  (RR-t keeping with p_t = %g; smallest frequency %g)\n", t, pt, fmin);
    else
        snprintf(text, sizeof text, "p_t = %.6g  (largest RR-t keep probability for t = %g; smallest frequency %g)\n",
                 pt, t, fmin);
    return emit(c, &j, text);
}

static const char *level_key(keps_pmodel m)
{
    return m == KEPS_PM_LDP || m == KEPS_PM_KDP ? "epsilon" : "t";
}

keps_status cmd_privacy_implies(cmd_ctx *c)
{
    keps_plevel from = {0};
    keps_pmodel to;
    const char *fs = cmd_str(c, "from"), *ts = cmd_str(c, "to");
    if (!fs || keps_pmodel_parse(fs, &from.model))
        return cmd_usage_error(c, "{from} ldp|tclose|kt|kdp is required (ldp = epsilon-LDP, tclose = "
                                  "multiplicative t-closeness, kt = (k,t)-closeness, kdp = (k,epsilon)-DP)");
    if (!ts || keps_pmodel_parse(ts, &to))
        return cmd_usage_error(c, "{to} ldp|tclose|kt|kdp is required");
    /* The source's level is --epsilon or --t, by its model; the other one
     * would be ignored. */
    static const cmd_mode_opt level[] = {
        {"epsilon", "ldp|kdp", "the level of tclose and kt is {t}", 0},
        {"t", "tclose|kt", "the level of ldp and kdp is {epsilon}", 0},
    };
    cmd_mode_options(c, "{from} ", fs, level, sizeof level / sizeof *level); /* notes only */
    const char *lk = level_key(from.model);
    int hl = strcmp(lk, "t") == 0 ? cmd_double(c, "t", 1.0, INFINITY, 0.0, &from.level)
                                  : cmd_double(c, "epsilon", 0.0, INFINITY, 0.0, &from.level);
    if (hl < 0)
        return KEPS_EINPUT;
    if (!hl)
        return cmd_usage_error(c, "{from} %s needs its level %s", fs, CMD_SPELL(c, lk));
    long k, to_k, N;
    if (cmd_long(c, "k", 1, __LONG_MAX__, 0, &k) < 0 || cmd_long(c, "to-k", 1, __LONG_MAX__, 0, &to_k) < 0 ||
        cmd_long(c, "records", 1, __LONG_MAX__, 0, &N) < 0)
        return KEPS_EINPUT;
    /* -k belongs to the side that has a group size: the source unless it is
     * epsilon-LDP (which has none), then the target. */
    if (from.model == KEPS_PM_LDP) {
        if (k && to_k) /* both would be the target's: one would be dropped, and the answer print the other */
            return cmd_usage_error(c, "{from} ldp has no group size, so {k} %ld and {to-k} %ld both give the "
                                      "target's; give one",
                                   k, to_k);
        if (!to_k)
            to_k = k;
    } else {
        from.k = k;
        if ((from.model == KEPS_PM_KT || from.model == KEPS_PM_KDP) && !k)
            return cmd_usage_error(c, "{from} %s needs its group size {k}", fs);
    }
    keps_implication imp;
    keps_error err = {0};
    if (keps_rr_implies(&from, to, to_k, N, &imp, &err))
        return cmd_fail(c, &err);
    keps_json j;
    cmd_calculator_begin(c, &j);
    keps_json_num(&j, "result", imp.to.level);
    keps_json_str(&j, "from", fs);
    keps_json_str(&j, "to", ts);
    keps_json_num(&j, strcmp(lk, "t") == 0 ? "t" : "epsilon", from.level);
    if (k)
        keps_json_int(&j, "k", k);
    if (N)
        keps_json_int(&j, "records", N);
    keps_json_object(&j, "implied");
    keps_json_str(&j, "model", keps_pmodel_name(to));
    keps_json_num(&j, level_key(to), imp.to.level);
    if (to != KEPS_PM_LDP)
        keps_json_int(&j, "k", imp.to.k);
    keps_json_end(&j);
    if (to != KEPS_PM_LDP)
        keps_json_int(&j, "to_k", imp.to.k);
    keps_json_str(&j, "rule", imp.rule);
    keps_json_str(&j, "holds_when", imp.why);
    char text[512];
    if (to == KEPS_PM_LDP)
        snprintf(text, sizeof text, "epsilon = %.6g  (%s; %s: %s)\n", imp.to.level, keps_pmodel_name(to), imp.rule,
                 imp.why);
    else
        snprintf(text, sizeof text, "%s = %.6g with k = %ld  (%s; %s: %s)\n", level_key(to), imp.to.level, imp.to.k,
                 keps_pmodel_name(to), imp.rule, imp.why);
    return emit(c, &j, text);
}
