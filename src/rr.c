/* Randomized response for epsilon-LDP and multiplicative t-closeness
 * (Ekenstedt et al. 2022, docs/spec.md 7): transition matrices, closed forms, implications,
 * exact verifiers, utility, and the per-record mechanism. */
#include "keps/rr.h"
#include "keps/release.h"
#include "keps/sample.h"
#include "release_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- matrices */

static keps_status matrix_alloc(size_t n, keps_rr_matrix *out, keps_error *err)
{
    out->n = 0;
    out->m = NULL;
    if (n == 0 || n > KEPS_RR_MAX_CATEGORIES)
        return keps_error_set(err, KEPS_EINPUT,
                              "randomized response needs 1 to %d categories, got %zu (joint domains multiply "
                              "the columns' numbers of values: give fewer sensitive columns)",
                              KEPS_RR_MAX_CATEGORIES, n);
    out->m = calloc(n * n, sizeof *out->m);
    if (!out->m)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    out->n = n;
    return KEPS_OK;
}

static keps_status check_prob(const char *what, double p, keps_error *err)
{
    if (!(p >= 0.0 && p <= 1.0))
        return keps_error_set(err, KEPS_EINPUT, "%s = %g: a probability must lie in [0, 1]", what, p);
    return KEPS_OK;
}

keps_status keps_rr_ldp_matrix(size_t n, double p, keps_rr_matrix *out, keps_error *err)
{
    keps_status st = check_prob("p", p, err);
    if (st || (st = matrix_alloc(n, out, err)))
        return st;
    double off = (1.0 - p) / (double)n;
    for (size_t y = 0; y < n; y++)
        for (size_t z = 0; z < n; z++)
            out->m[y * n + z] = off + (y == z ? p : 0.0);
    return KEPS_OK;
}

keps_status keps_rr_t_matrix(size_t n, const double *freq, double pt, keps_rr_matrix *out, keps_error *err)
{
    keps_status st = check_prob("p_t", pt, err);
    if (st || (st = matrix_alloc(n, out, err)))
        return st;
    for (size_t y = 0; y < n; y++)
        for (size_t z = 0; z < n; z++)
            out->m[y * n + z] = (1.0 - pt) * freq[z] + (y == z ? pt : 0.0);
    return KEPS_OK;
}

keps_status keps_rr_compose(const keps_rr_matrix *a, const keps_rr_matrix *b, keps_rr_matrix *out, keps_error *err)
{
    if (a->n != b->n)
        return keps_error_set(err, KEPS_EINPUT, "cannot compose %zu- and %zu-category mechanisms", a->n, b->n);
    size_t n = a->n;
    keps_status st = matrix_alloc(n, out, err);
    if (st)
        return st;
    for (size_t y = 0; y < n; y++)
        for (size_t w = 0; w < n; w++) {
            double ay = a->m[y * n + w];
            if (ay == 0.0)
                continue;
            for (size_t z = 0; z < n; z++)
                out->m[y * n + z] += ay * b->m[w * n + z];
        }
    return KEPS_OK;
}

keps_status keps_rr_matrix_for(const keps_rr_params *par, size_t n, const double *freq, keps_rr_matrix *out,
                               keps_error *err)
{
    /* an unknown kind would run as BOTH */
    if ((unsigned)par->kind > KEPS_RR_BOTH)
        return keps_error_set(err, KEPS_EINPUT, "unknown randomized-response mechanism %d (expected ldp, t or both)",
                              (int)par->kind);
    if (par->kind == KEPS_RR_LDP)
        return keps_rr_ldp_matrix(n, par->p, out, err);
    if (par->kind == KEPS_RR_TCLOSE)
        return keps_rr_t_matrix(n, freq, par->pt, out, err);
    keps_rr_matrix t = {0}, l = {0};
    keps_status st = keps_rr_t_matrix(n, freq, par->pt, &t, err);
    if (!st)
        st = keps_rr_ldp_matrix(n, par->p, &l, err);
    if (!st)
        st = keps_rr_compose(&t, &l, out, err);
    keps_rr_matrix_free(&t);
    keps_rr_matrix_free(&l);
    return st;
}

void keps_rr_matrix_free(keps_rr_matrix *m)
{
    if (!m)
        return;
    free(m->m);
    m->m = NULL;
    m->n = 0;
}

/* ------------------------------------------------------------ closed forms */

double keps_rr_ldp_epsilon(double p, size_t n)
{
    if (n <= 1 || p <= 0.0)
        return 0.0;
    if (p >= 1.0)
        return INFINITY;
    return log1p((double)n * p / (1.0 - p));
}

double keps_rr_ldp_p(double eps, size_t n)
{
    if (n <= 1 || isinf(eps))
        return 1.0;
    if (!(eps > 0.0))
        return 0.0;
    /* p = (e^eps - 1)/(e^eps - 1 + n), divided through by e^eps: e^eps
     * overflows from eps = 710 on, e^-eps only underflows towards p = 1 */
    double keep = -expm1(-eps), q = exp(-eps);
    double p = keep / (keep + (double)n * q);
    while (p > 0.0 && keps_rr_ldp_epsilon(p, n) > eps) /* rounding: never promise more than eps */
        p = nextafter(p, 0.0);
    return p;
}

/* Smallest positive frequency and the number of values that occur. */
static double min_positive(const double *freq, size_t n, size_t *support)
{
    double fmin = 1.0;
    *support = 0;
    for (size_t i = 0; i < n; i++)
        if (freq[i] > 0.0) {
            (*support)++;
            if (freq[i] < fmin)
                fmin = freq[i];
        }
    return fmin;
}

double keps_rr_t_level(double pt, const double *freq, size_t n)
{
    size_t support;
    double fmin = min_positive(freq, n, &support);
    if (support <= 1)
        return 1.0; /* one value: every class has the global distribution */
    /* class of a_i's only: bucket a_i has Pr_E = p_t + (1-p_t) f_i against
     * Pr_D = f_i; bucket a_j != a_i has Pr_E = (1-p_t) f_j against f_j. */
    double same = 1.0 + pt * (1.0 / fmin - 1.0);
    double other = pt >= 1.0 ? INFINITY : 1.0 / (1.0 - pt);
    return same > other ? same : other;
}

double keps_rr_t_p(double t, const double *freq, size_t n)
{
    size_t support;
    double fmin = min_positive(freq, n, &support);
    if (support <= 1 || isinf(t))
        return 1.0;
    if (!(t >= 1.0))
        return 0.0;
    double a = (t - 1.0) / (1.0 / fmin - 1.0), b = 1.0 - 1.0 / t;
    double p = a < b ? a : b;
    if (p > 1.0)
        p = 1.0;
    while (p > 0.0 && keps_rr_t_level(p, freq, n) > t)
        p = nextafter(p, 0.0);
    return p;
}

/* ------------------------------------------------------------ implications */

/* ln of keps_rr_ldp_to_kt: ln((k + (N-k) e^eps)/N) taken apart as
 * eps + ln((N-k)/N) + ln(1 + k e^-eps/(N-k)), finite whenever eps is,
 * though e^eps overflows from eps = 710 on. */
static double ldp_to_kt_log(double eps, size_t k, size_t N)
{
    if (k >= N)
        return 0.0;
    double t = ((double)k + (double)(N - k) * exp(eps)) / (double)N;
    if (isfinite(t))
        return log(t);
    return eps + log((double)(N - k) / (double)N) + log1p((double)k * exp(-eps) / (double)(N - k));
}

double keps_rr_ldp_to_kt(double eps, size_t k, size_t N)
{
    if (k >= N)
        return 1.0;
    double t = ((double)k + (double)(N - k) * exp(eps)) / (double)N;
    return isfinite(t) || isinf(eps) ? t : exp(ldp_to_kt_log(eps, k, N)); /* inf only if t > DBL_MAX */
}

double keps_rr_kt_to_ldp_needed(double t, size_t k, size_t N)
{
    if (k >= N || isinf(t))
        return INFINITY;
    if (!(t >= 1.0))
        return NAN;
    double eps = log(((double)N * t - (double)k) / (double)(N - k));
    if (isinf(eps)) /* N t overflowed: k/(N t) < 1e-290 is negligible */
        eps = log(t) + log((double)N / (double)(N - k));
    if (eps < 0.0)
        eps = 0.0;
    while (eps > 0.0 && keps_rr_ldp_to_kt(eps, k, N) > t)
        eps = nextafter(eps, 0.0);
    return eps;
}

keps_status keps_rr_choose_params(keps_rr_kind kind, const keps_rr_targets *tg, const double *freq, size_t n,
                                  size_t N, size_t k, keps_rr_params *out, keps_error *err)
{
    if ((unsigned)kind > KEPS_RR_BOTH || !tg || !out)
        return keps_error_set(err, KEPS_EINPUT, "randomized response: unknown mechanism %d, or no targets",
                              (int)kind);
    int hp = !isnan(tg->p), hpt = !isnan(tg->pt), he = !isnan(tg->epsilon), ht = !isnan(tg->t);
    if ((hp && !(tg->p >= 0.0 && tg->p <= 1.0)) || (hpt && !(tg->pt >= 0.0 && tg->pt <= 1.0)))
        return keps_error_set(err, KEPS_EINPUT, "randomized response: keep probabilities must lie in [0, 1] (p %g, "
                              "pt %g)", tg->p, tg->pt);
    if ((he && !(tg->epsilon >= 0.0)) || (ht && !(tg->t >= 1.0)))
        return keps_error_set(err, KEPS_EINPUT, "randomized response: target epsilon must be >= 0 and t >= 1 "
                              "(epsilon %g, t %g)", tg->epsilon, tg->t);
    if (n == 0)
        return keps_error_set(err, KEPS_EINPUT, "randomized response needs at least one category");
    int ldp = kind != KEPS_RR_TCLOSE, tcl = kind != KEPS_RR_LDP;
    if (ldp && hp && he)
        return keps_error_set(err, KEPS_EINPUT, "give p or a target epsilon for the RR-LDP stage, not both");
    if (tcl && hpt && ht)
        return keps_error_set(err, KEPS_EINPUT, "give pt or a target t for the RR-t stage, not both");
    if (!ldp && (hp || he))
        return keps_error_set(err, KEPS_EINPUT,
                              "mechanism tclose has no RR-LDP stage, so p and epsilon do not apply: give pt or t "
                              "(or use mechanism both)");
    if (!tcl && hpt)
        return keps_error_set(err, KEPS_EINPUT, "mechanism ldp has no RR-t stage: pt does not apply");
    if (kind == KEPS_RR_LDP && hp && ht) /* t would pick p, which -p already fixes: t went unmet */
        return keps_error_set(err, KEPS_EINPUT, "p fixes the RR-LDP keep probability, so the target t would not "
                              "be met: give p or t (t together with a target epsilon meets both)");
    keps_rr_params par = {.kind = kind, .p = NAN, .pt = NAN};
    if (tcl) {
        if (!hpt && !ht)
            return keps_error_set(err, KEPS_EINPUT, "the RR-t stage needs its keep probability pt or a target t");
        if (ht && !freq)
            return keps_error_set(err, KEPS_EINPUT, "a target t of the RR-t stage needs the data's distribution");
        par.pt = ht ? keps_rr_t_p(tg->t, freq, n) : tg->pt;
    }
    if (ldp) {
        int use_t = kind == KEPS_RR_LDP && ht;
        if (!hp && !he && !use_t)
            return keps_error_set(err, KEPS_EINPUT, "the RR-LDP stage needs its keep probability p or a target epsilon%s",
                                  kind == KEPS_RR_LDP ? " or a target t" : "");
        if (hp)
            par.p = tg->p;
        else {
            double eps = he ? tg->epsilon : INFINITY;
            if (use_t) {
                if (N < 2 || k == 0)
                    return keps_error_set(err, KEPS_EINPUT, "a target t for RR-LDP needs N >= 2 records and "
                                          "classes of k >= 1 (N %zu, k %zu)", N, k);
                /* the paper's mechanism 1: eps small enough to imply t too */
                double et = keps_rr_kt_to_ldp_needed(tg->t, k < N ? k : N - 1, N);
                eps = et < eps ? et : eps;
            }
            par.p = keps_rr_ldp_p(eps, n);
        }
    }
    *out = par;
    return KEPS_OK;
}

const char *keps_pmodel_name(keps_pmodel m)
{
    static const char *const names[] = {"epsilon-LDP", "multiplicative-t-closeness", "(k,t)-closeness",
                                        "(k,epsilon)-DP"};
    return (unsigned)m < 4 ? names[m] : "?";
}

int keps_pmodel_parse(const char *s, keps_pmodel *out)
{
    static const char *const keys[] = {"ldp", "tclose", "kt", "kdp"};
    for (int i = 0; i < 4; i++)
        if (s && strcmp(s, keys[i]) == 0) {
            *out = (keps_pmodel)i;
            return 0;
        }
    return -1;
}

static keps_status need_records(long N, long k, const char *side, keps_error *err)
{
    if (N < 2)
        return keps_error_set(err, KEPS_EINPUT, "this implication needs the number of records N, at least 2");
    if (k < 1 || k > N - 1)
        return keps_error_set(err, KEPS_EINPUT, "%s group size k = %ld must lie in [1, N-1] = [1, %ld]", side, k,
                              N - 1);
    return KEPS_OK;
}

static keps_status impossible(keps_error *err, const char *fmt, const char *a, const char *b)
{
    return keps_error_set(err, KEPS_EJOB, fmt, a, b);
}

static void set_out(keps_implication *o, keps_pmodel m, double level, long k, const char *rule, const char *why)
{
    o->to.model = m;
    o->to.level = level;
    o->to.k = k;
    snprintf(o->rule, sizeof o->rule, "%s", rule);
    o->why = why;
}

static keps_status from_ldp(double eps, keps_pmodel to, long to_k, long N, keps_implication *o, keps_error *err)
{
    if (to == KEPS_PM_LDP) {
        set_out(o, to, eps, 0, "identity", "same definition");
        return KEPS_OK;
    }
    keps_status st = need_records(N, to_k, "target", err);
    if (st)
        return st;
    if (to == KEPS_PM_KDP) {
        /* eps-LDP => (N-k, t)-closeness (Theorem 3) <=> (k, ln t)-DP (Theorem 4.1) */
        double lt = ldp_to_kt_log(eps, (size_t)(N - to_k), (size_t)N); /* ln t, finite even if t is not */
        set_out(o, to, lt, to_k, "Theorem 3 then Theorem 4.1",
                "eps-LDP gives (N-k, t)-closeness with t = (N-k + k e^eps)/N, which is (k, ln t)-DP");
        return KEPS_OK;
    }
    double t = keps_rr_ldp_to_kt(eps, (size_t)to_k, (size_t)N);
    if (to == KEPS_PM_KT)
        set_out(o, to, t, to_k, to_k == 1 ? "Theorem 2" : "Theorem 3",
                "t = (k + (N-k) e^eps)/N for every subset of k records (Theorem 3 as printed has N-k-1, which "
                "is not a bound; keps uses the attained worst case)");
    else
        set_out(o, to, t, to_k, "Lemma 1 (via Theorem 3 and Lemma 2.3)",
                "holds for every partition whose smallest class has at least k records");
    return KEPS_OK;
}

static keps_status from_tclose(double t, long k, keps_pmodel to, long to_k, keps_implication *o, keps_error *err)
{
    if (to == KEPS_PM_TCLOSE) {
        set_out(o, to, t, to_k > 0 ? to_k : k, "identity", "same definition");
        return KEPS_OK;
    }
    if (to == KEPS_PM_LDP)
        return impossible(err,
                          "%s does not imply %s (Theorem 1): a class may average a record whose probability is "
                          "near 0 with one near 2 mu, so t stays fixed while eps grows without bound. (If every "
                          "class holds one record this is (1,t)-closeness: imply from (k,t)-closeness with k = 1.)",
                          keps_pmodel_name(KEPS_PM_TCLOSE), keps_pmodel_name(to));
    if (to == KEPS_PM_KT)
        return impossible(err,
                          "%s does not imply %s (Lemma 2.3): only the given classes are bounded, while "
                          "(k,t)-closeness bounds every subset of k records (Table V: t = 1 for the classes, "
                          "mu/sigma for 2-subsets)",
                          keps_pmodel_name(KEPS_PM_TCLOSE), keps_pmodel_name(to));
    return impossible(err,
                      "%s does not imply %s (Theorem 5): within a class one record's probability can go to 0 "
                      "without changing the class average, so no function of t bounds eps",
                      keps_pmodel_name(KEPS_PM_TCLOSE), keps_pmodel_name(to));
}

/* (k, t)-closeness at k to model `to`. Shared by from kt and from kdp (which
 * is (N-k, e^eps)-closeness by Theorem 4.1). lt = ln t, passed beside t
 * because from kdp t = e^eps overflows from eps = 710 on while the
 * epsilons derived from it (2 ln t, ln t) are finite. */
static keps_status from_kt(double t, double lt, long k, keps_pmodel to, long to_k, long N, keps_implication *o,
                           keps_error *err, int via_kdp)
{
    const char *pre = via_kdp ? "Theorem 4.1, then " : "";
    char rule[sizeof o->rule];
    if (to == KEPS_PM_LDP) {
        if (k != 1)
            return keps_error_set(err, KEPS_EJOB,
                                  "%s%ld does not imply epsilon-LDP (Theorem 3): for k > 1 a k-subset average can "
                                  "hide a record with probability near 0 (Table VI: (2,2)-closeness with eps = "
                                  "ln(2 mu/sigma) unbounded)%s",
                                  via_kdp ? "(k_DP,epsilon)-DP is (N-k_DP, e^eps)-closeness (Theorem 4.1), and "
                                            "(k,t)-closeness at k = N-k_DP = "
                                          : "(k,t)-closeness at k = ",
                                  k, via_kdp ? "; only k_DP = N-1 gives (1,t)" : "");
        snprintf(rule, sizeof rule, "%sTheorem 2", pre);
        set_out(o, to, 2.0 * lt, 0, rule, "(1,t)-closeness bounds every record within [mu/t, t mu]: e^eps = t^2");
        return KEPS_OK;
    }
    if (to == KEPS_PM_TCLOSE || to == KEPS_PM_KT) {
        long kk = to_k > 0 ? to_k : k;
        if (kk < k)
            return keps_error_set(err, KEPS_EJOB,
                                  "(k,t)-closeness at k = %ld does not imply %s at k = %ld < %ld (Lemma 2.2): a "
                                  "group smaller than k can hold only records of probability 0 (Table IV)",
                                  k, keps_pmodel_name(to), kk, k);
        snprintf(rule, sizeof rule, "%s%s", pre, to == KEPS_PM_KT ? "Lemma 2.1" : "Lemma 2.3 (and 2.1)");
        set_out(o, to, t, kk, rule,
                to == KEPS_PM_KT ? "larger subsets average smaller ones: the same t holds for k' >= k"
                                 : "every class of at least k records is bounded as a k-subset is");
        return KEPS_OK;
    }
    /* to kdp */
    long kd = to_k > 0 ? to_k : N - k;
    keps_status st = need_records(N, kd, "target", err);
    if (st)
        return st;
    if (kd > N - k)
        return keps_error_set(err, KEPS_EJOB,
                              "(k,t)-closeness at k = %ld does not imply (k,epsilon)-DP at k = %ld > N-k = %ld "
                              "(Theorem 4.2): removing %ld records leaves subsets of %ld < %ld records, which "
                              "(k,t)-closeness does not bound (Lemma 2.2)",
                              k, kd, N - k, kd, N - kd, k);
    snprintf(rule, sizeof rule, "%s%s", pre, kd == N - k ? "Theorem 4.1" : "Theorem 4.1 and Lemma 3.1");
    set_out(o, to, lt, kd, rule, "(k_t,t)-closeness <=> (N-k_t, ln t)-DP; smaller k_DP follows (Lemma 3.1)");
    return KEPS_OK;
}

keps_status keps_rr_implies(const keps_plevel *from, keps_pmodel to, long to_k, long N, keps_implication *out,
                            keps_error *err)
{
    memset(out, 0, sizeof *out);
    /* an unknown target would fall through to another model's rule */
    if ((unsigned)to > KEPS_PM_KDP)
        return keps_error_set(err, KEPS_EINPUT, "unknown target privacy model %d (expected ldp, tclose, kt or kdp)",
                              (int)to);
    if ((unsigned)from->model > KEPS_PM_KDP)
        return keps_error_set(err, KEPS_EINPUT, "unknown source privacy model %d (expected ldp, tclose, kt or kdp)",
                              (int)from->model);
    double lv = from->level;
    int is_eps = from->model == KEPS_PM_LDP || from->model == KEPS_PM_KDP;
    if (is_eps ? !(lv >= 0.0) : !(lv >= 1.0))
        return keps_error_set(err, KEPS_EINPUT, "%s level %g: %s", keps_pmodel_name(from->model), lv,
                              is_eps ? "epsilon must be >= 0" : "t must be >= 1");
    switch (from->model) {
    case KEPS_PM_LDP:
        return from_ldp(lv, to, to_k, N, out, err);
    case KEPS_PM_TCLOSE:
        return from_tclose(lv, from->k, to, to_k, out, err);
    case KEPS_PM_KT: {
        keps_status st = from->k >= 1 ? KEPS_OK
                                      : keps_error_set(err, KEPS_EINPUT, "(k,t)-closeness needs its k >= 1");
        if (!st && N > 0 && from->k > N - 1)
            st = keps_error_set(err, KEPS_EINPUT, "(k,t)-closeness needs k <= N-1 = %ld", N - 1);
        return st ? st : from_kt(lv, log(lv), from->k, to, to_k, N, out, err, 0);
    }
    case KEPS_PM_KDP: {
        keps_status st = need_records(N, from->k, "source", err);
        if (st)
            return st;
        if (to == KEPS_PM_KDP) {
            long kk = to_k > 0 ? to_k : from->k;
            if (kk > from->k)
                return keps_error_set(err, KEPS_EJOB,
                                      "(k,epsilon)-DP at k = %ld does not imply it at k = %ld (Lemma 3.2): "
                                      "removing more records is not covered",
                                      from->k, kk);
            set_out(out, to, lv, kk, kk == from->k ? "identity" : "Lemma 3.1",
                    "removing fewer records changes the distribution less");
            return KEPS_OK;
        }
        return from_kt(exp(lv), lv, N - from->k, to, to_k, N, out, err, 1);
    }
    }
    return keps_error_set(err, KEPS_EINPUT, "unknown privacy model");
}

/* --------------------------------------------------------------- verifiers */

/* t-style ratio of two probabilities: max(a/b, b/a); 0/0 is no constraint. */
static double ratio_t(double a, double b)
{
    if (a == 0.0 && b == 0.0)
        return 1.0;
    if (a == 0.0 || b == 0.0)
        return INFINITY;
    return a > b ? a / b : b / a;
}

/* Record counts per category; NULL on OOM. */
static size_t *category_counts(const keps_rr_matrix *M, const uint32_t *value, size_t N)
{
    size_t *cnt = calloc(M->n, sizeof *cnt);
    if (cnt)
        for (size_t i = 0; i < N; i++)
            cnt[value[i]]++;
    return cnt;
}

/* Pr_D(z) = (1/N) sum_i M[c_i][z]. */
static void global_dist(const keps_rr_matrix *M, const size_t *cnt, size_t N, double *pd)
{
    size_t n = M->n;
    for (size_t z = 0; z < n; z++)
        pd[z] = 0.0;
    for (size_t y = 0; y < n; y++)
        if (cnt[y])
            for (size_t z = 0; z < n; z++)
                pd[z] += (double)cnt[y] * M->m[y * n + z];
    for (size_t z = 0; z < n; z++)
        pd[z] /= (double)N;
}

double keps_rr_verify_mult_t(const keps_rr_matrix *M, const uint32_t *value, const uint32_t *cls, size_t N,
                             size_t nclasses)
{
    size_t n = M->n;
    size_t *cnt = category_counts(M, value, N);
    double *pd = malloc(n * sizeof *pd), *acc = malloc(n * sizeof *acc);
    size_t *start = calloc(nclasses + 1, sizeof *start), *order = malloc((N ? N : 1) * sizeof *order);
    double t = NAN;
    if (cnt && pd && acc && start && order && N > 0) {
        global_dist(M, cnt, N, pd);
        /* records grouped by class (counting sort), one class at a time */
        for (size_t i = 0; i < N; i++)
            start[cls[i] + 1]++;
        for (size_t c = 0; c < nclasses; c++)
            start[c + 1] += start[c];
        for (size_t i = 0; i < N; i++)
            order[start[cls[i]]++] = i;
        t = 1.0;
        for (size_t c = 0, b = 0; c < nclasses; c++) {
            size_t e = start[c]; /* after the fill, start[c] is the end of class c */
            if (e == b)
                continue;
            for (size_t z = 0; z < n; z++)
                acc[z] = 0.0;
            for (size_t r = b; r < e; r++) {
                const double *row = M->m + (size_t)value[order[r]] * n;
                for (size_t z = 0; z < n; z++)
                    acc[z] += row[z];
            }
            for (size_t z = 0; z < n; z++) {
                double r = ratio_t(pd[z], acc[z] / (double)(e - b));
                if (r > t)
                    t = r;
            }
            b = e;
        }
    }
    free(cnt);
    free(pd);
    free(acc);
    free(start);
    free(order);
    return t;
}

typedef struct {
    double v;
    size_t cnt;
} prob_count;

static int cmp_prob(const void *a, const void *b)
{
    double x = ((const prob_count *)a)->v, y = ((const prob_count *)b)->v;
    return (x > y) - (x < y);
}

/* Largest t over buckets z between Pr_D(z) and the average of the m records
 * with the highest, and of the m with the lowest, Pr(Z(c_i) = z). Any other
 * m-subset's average lies between those two. */
static double subset_extreme_t(const keps_rr_matrix *M, const uint32_t *value, size_t N, size_t m)
{
    size_t n = M->n;
    size_t *cnt = category_counts(M, value, N);
    double *pd = malloc(n * sizeof *pd);
    prob_count *pc = malloc(n * sizeof *pc);
    double t = NAN;
    if (cnt && pd && pc && m >= 1 && m <= N) {
        global_dist(M, cnt, N, pd);
        t = 1.0;
        for (size_t z = 0; z < n; z++) {
            size_t np = 0;
            for (size_t y = 0; y < n; y++)
                if (cnt[y])
                    pc[np++] = (prob_count){M->m[y * n + z], cnt[y]};
            qsort(pc, np, sizeof *pc, cmp_prob);
            double lo = 0.0, hi = 0.0;
            size_t need = m;
            for (size_t j = 0; j < np && need; j++) {
                size_t take = pc[j].cnt < need ? pc[j].cnt : need;
                lo += (double)take * pc[j].v;
                need -= take;
            }
            need = m;
            for (size_t j = np; j-- > 0 && need;) {
                size_t take = pc[j].cnt < need ? pc[j].cnt : need;
                hi += (double)take * pc[j].v;
                need -= take;
            }
            double r1 = ratio_t(pd[z], lo / (double)m), r2 = ratio_t(pd[z], hi / (double)m);
            if (r1 > t)
                t = r1;
            if (r2 > t)
                t = r2;
        }
    }
    free(cnt);
    free(pd);
    free(pc);
    return t;
}

double keps_rr_verify_kt(const keps_rr_matrix *M, const uint32_t *value, size_t N, size_t k)
{
    if (k < 1 || k >= N)
        return NAN;
    return subset_extreme_t(M, value, N, k);
}

double keps_rr_verify_kdp(const keps_rr_matrix *M, const uint32_t *value, size_t N, size_t k)
{
    if (k < 1 || k >= N)
        return NAN;
    /* D_{-K} holds the other N-k records: its distribution is their average. */
    return log(subset_extreme_t(M, value, N, N - k));
}

/* ln max_z max_y M[y][z] / min_y M[y][z] over the rows with use[y] != 0. */
static double rows_epsilon(const keps_rr_matrix *M, const size_t *use)
{
    size_t n = M->n;
    double worst = 1.0;
    for (size_t z = 0; z < n; z++) {
        double lo = INFINITY, hi = 0.0;
        for (size_t y = 0; y < n; y++) {
            if (!use[y])
                continue;
            double v = M->m[y * n + z];
            if (v < lo)
                lo = v;
            if (v > hi)
                hi = v;
        }
        if (hi == 0.0)
            continue; /* no record can output z */
        if (lo == 0.0)
            return INFINITY;
        if (hi / lo > worst)
            worst = hi / lo;
    }
    return log(worst);
}

double keps_rr_verify_ldp(const keps_rr_matrix *M, const uint32_t *value, size_t N)
{
    size_t *cnt = category_counts(M, value, N);
    double eps = cnt ? rows_epsilon(M, cnt) : NAN;
    free(cnt);
    return eps;
}

double keps_rr_matrix_epsilon(const keps_rr_matrix *M)
{
    return keps_transition_epsilon(M->m, (uint32_t)M->n);
}

/* k clipped to the range Def. 7 and 8 allow. */
static size_t clip_k(size_t k, size_t N)
{
    if (N < 2)
        return 0;
    return k < 1 ? 1 : k > N - 1 ? N - 1 : k;
}

void keps_rr_closed_levels(const keps_rr_params *par, const keps_rr_matrix *M, const double *freq, size_t N,
                           size_t k, size_t k_dp, keps_rr_levels *out)
{
    size_t n = M->n;
    k = clip_k(k, N);
    k_dp = clip_k(k_dp, N);
    double eps = INFINITY, t = INFINITY, tdp = INFINITY;
    if (par->kind != KEPS_RR_LDP) {
        t = tdp = keps_rr_t_level(par->pt, freq, n);
        eps = keps_rr_matrix_epsilon(M);
    }
    if (par->kind != KEPS_RR_TCLOSE) {
        double e = keps_rr_ldp_epsilon(par->p, n);
        eps = e < eps ? e : eps;
    }
    /* Theorem 3 holds for every eps-LDP mechanism, RR-t alone included:
     * for large groups (the N - k_dp of (k,eps)-DP) it is far below eq. (2),
     * which is the worst case of a one-record class. */
    double tl = keps_rr_ldp_to_kt(eps, k, N), tdl = keps_rr_ldp_to_kt(eps, N - k_dp, N);
    t = tl < t ? tl : t;
    tdp = tdl < tdp ? tdl : tdp;
    out->epsilon_ldp = eps;
    out->mult_t = out->kt = N >= 2 ? t : NAN;
    out->kdp = N >= 2 ? log(tdp) : NAN;
}

void keps_rr_verified_levels(const keps_rr_matrix *M, const uint32_t *value, const uint32_t *cls, size_t N,
                             size_t nclasses, size_t k, size_t k_dp, keps_rr_levels *out)
{
    k = clip_k(k, N);
    k_dp = clip_k(k_dp, N);
    out->epsilon_ldp = keps_rr_verify_ldp(M, value, N);
    out->mult_t = keps_rr_verify_mult_t(M, value, cls, N, nclasses);
    out->kt = keps_rr_verify_kt(M, value, N, k);
    out->kdp = keps_rr_verify_kdp(M, value, N, k_dp);
}

double keps_rr_utility(const keps_rr_matrix *M, const double *freq)
{
    size_t n = M->n;
    double u = 0.0;
    for (size_t z = 0; z < n; z++) {
        double best = 0.0;
        for (size_t y = 0; y < n; y++) {
            double v = freq[y] * M->m[y * n + z];
            if (v > best)
                best = v;
        }
        u += best;
    }
    return u;
}

/* ------------------------------------------------------------- mechanisms */

keps_status keps_rr_randomize(const keps_rr_matrix *M, const uint32_t *value, size_t N, keps_rng *rng,
                              uint32_t *out, keps_error *err)
{
    /* The project's sampler draws each record from its row of exactly the
     * matrix the verifiers read, so the levels reported are the levels of
     * what was sampled. */
    /* a category outside the matrix would index past its rows */
    for (size_t i = 0; i < N; i++)
        if (value[i] >= M->n)
            return keps_error_set(err, KEPS_EINPUT, "record %zu has category %u, outside the matrix's %zu categories",
                                  i + 1, value[i], M->n);
    keps_rr_sampler rr;
    keps_status st = keps_rr_sampler_init(&rr, M->m, (uint32_t)M->n, err);
    if (st)
        return st;
    for (size_t i = 0; i < N; i++)
        out[i] = keps_rr_sampler_apply(rng, &rr, value[i]);
    keps_rr_sampler_free(&rr);
    return KEPS_OK;
}

keps_status keps_rr_apply(const keps_rr_params *par, size_t n, const uint32_t *value, size_t N, keps_rng *rng,
                          uint32_t *out, keps_error *err)
{
    return keps_rr_apply_part(par, n, NULL, value, N, rng, out, err);
}

keps_status keps_rr_apply_part(const keps_rr_params *par, size_t n, const uint64_t *counts, const uint32_t *value,
                               size_t N, keps_rng *rng, uint32_t *out, keps_error *err)
{
    if ((unsigned)par->kind > KEPS_RR_BOTH || n == 0 || n > KEPS_RR_MAX_CATEGORIES)
        return keps_error_set(err, KEPS_EINPUT, "randomized response: unknown mechanism %d or %zu categories",
                              (int)par->kind, n);
    int ldp = par->kind != KEPS_RR_TCLOSE, tcl = par->kind != KEPS_RR_LDP;
    keps_status st = KEPS_OK;
    if (ldp)
        st = check_prob("p", par->p, err);
    if (!st && tcl)
        st = check_prob("p_t", par->pt, err);
    for (size_t i = 0; i < N && !st; i++)
        if (value[i] >= n)
            st = keps_error_set(err, KEPS_EINPUT, "record %zu has category %u, outside the %zu categories", i + 1,
                                value[i], n);
    /* the whole data's records, category by category: above[c] = the
     * records of categories 0..c */
    uint64_t above[KEPS_RR_MAX_CATEGORIES], whole = 0;
    for (size_t c = 0; counts && c < n && !st; c++) {
        if (counts[c] > UINT64_MAX - whole)
            st = keps_error_set(err, KEPS_EINPUT, "randomized response: the category counts overflow");
        above[c] = whole += st ? 0 : counts[c];
    }
    for (size_t i = 0; counts && tcl && i < N && !st; i++)
        if (!counts[value[i]])
            st = keps_error_set(err, KEPS_EINPUT, "record %zu has category %u, which the whole data's counts lack",
                                i + 1, value[i]);
    if (st)
        return st;
    /* RR-t draws from the original values of every record, so they must
     * survive while out is written */
    uint32_t *orig = NULL;
    if (tcl && !counts && out == value) {
        if (!(orig = malloc((N ? N : 1) * sizeof *orig)))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        memcpy(orig, value, N * sizeof *orig);
        value = orig;
    }
    for (size_t i = 0; i < N; i++) {
        uint32_t v = value[i];
        if (tcl && !keps_rng_bernoulli(rng, par->pt)) {
            /* the empirical distribution: a record drawn uniformly (from
             * the whole data: the category holding the u-th record) */
            if (!counts) {
                v = value[keps_rng_below(rng, N)];
            } else {
                uint64_t u = keps_rng_below(rng, whole);
                size_t lo = 0, hi = n - 1;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (above[mid] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                v = (uint32_t)lo;
            }
        }
        if (ldp && !keps_rng_bernoulli(rng, par->p))
            v = (uint32_t)keps_rng_below(rng, n);
        out[i] = v;
    }
    free(orig);
    return KEPS_OK;
}

keps_status keps_rr_domain(keps_table *t, size_t col, const char *const *values, size_t n, const char *source,
                           keps_error *err)
{
    if (col >= t->ncols || (n && !values))
        return keps_error_set(err, KEPS_EINPUT, "rr domain: column %zu of %zu, or no values", col, t->ncols);
    if (n == 0)
        return keps_error_set(err, KEPS_EINPUT, "%s: the domain of '%s' lists no value", source, t->cols[col].name);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < a; b++)
            if (strcmp(values[a], values[b]) == 0)
                return keps_error_set(err, KEPS_EINPUT, "%s: the domain of '%s' lists '%s' twice", source,
                                      t->cols[col].name, values[a]);
    /* every value of the data must be in the domain */
    uint8_t *in = calloc(t->cols[col].nvalues ? t->cols[col].nvalues : 1, 1);
    if (!in)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t a = 0; a < n; a++) {
        uint32_t code = keps_table_lookup(t, col, values[a], strlen(values[a]));
        if (code != KEPS_NONE)
            in[code] = 1;
    }
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < t->nrows && !st; i++)
        if (!in[t->cols[col].codes[i]])
            st = keps_table_cell_error(err, t, col, i,
                                       "'%s' is not in the domain of '%s' given by %s; a public domain must list "
                                       "every value the column can hold (add it, or correct the cell)",
                                       keps_table_str(t, col, i), t->cols[col].name, source);
    free(in);
    /* then the domain's values the data lacks join the dictionary */
    for (size_t a = 0; a < n && !st; a++)
        if (keps_table_intern(t, col, values[a], strlen(values[a])) == KEPS_NONE)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    return st;
}

keps_status keps_rr_joint_codes(size_t ncols, const uint32_t *const *codes, const uint32_t *nvalues, size_t N,
                                uint32_t *value, size_t *n, keps_error *err)
{
    size_t dom = 1;
    for (size_t j = 0; j < ncols; j++) {
        dom *= nvalues[j] ? nvalues[j] : 1;
        if (dom > KEPS_RR_MAX_CATEGORIES)
            return keps_error_set(err, KEPS_EINPUT,
                                  "the joint domain of the %zu sensitive columns has more than %d combinations: "
                                  "randomized response over it is not supported (give fewer columns)",
                                  ncols, KEPS_RR_MAX_CATEGORIES);
    }
    for (size_t i = 0; i < N; i++) {
        uint32_t v = 0, stride = 1;
        for (size_t j = 0; j < ncols; j++) {
            v += codes[j][i] * stride;
            stride *= nvalues[j];
        }
        value[i] = v;
    }
    *n = dom;
    return KEPS_OK;
}

void keps_rr_joint_split(uint32_t v, size_t ncols, const uint32_t *nvalues, uint32_t *out)
{
    for (size_t j = 0; j < ncols; j++) {
        out[j] = v % nvalues[j];
        v /= nvalues[j];
    }
}

void keps_rr_frequencies(const uint32_t *value, size_t N, size_t n, double *freq)
{
    for (size_t y = 0; y < n; y++)
        freq[y] = 0.0;
    for (size_t i = 0; i < N; i++)
        freq[value[i]] += 1.0;
    for (size_t y = 0; y < n && N; y++)
        freq[y] /= (double)N;
}

/* ---------------------------------------------------------------- release */

typedef struct rr_rel {
    const keps_schema *s;
    const keps_table *gen;
    const uint32_t *out;
    const uint32_t *nvalues; /* [nsensitive] */
    const int *rel_of;       /* [ncols] column of gen, or -1 */
    const int *role;         /* [ncols] sensitive index, -2 QI, -1 other */
    uint32_t *split;         /* [nsensitive] codes of split_row's released value */
    size_t split_row;
} rr_rel;

static const char *rr_cell(void *ctx, size_t row, size_t col)
{
    rr_rel *c = ctx;
    int a = c->role[col];
    if (a >= 0) {
        if (c->split_row != row) {
            keps_rr_joint_split(c->out[row], c->s->nsensitive, c->nvalues, c->split);
            c->split_row = row;
        }
        return c->s->t->cols[col].values[c->split[a]];
    }
    if (a == -2 && c->gen)
        return keps_table_str(c->gen, (size_t)c->rel_of[col], row);
    return NULL;
}

keps_status keps_rr_release(const keps_schema *s, const uint32_t *out, const keps_table *generalized,
                            keps_table **release, keps_error *err)
{
    *release = NULL;
    const keps_table *t = s->t;
    size_t ns = s->nsensitive, ncols = t->ncols, dom = 1;
    if (ns == 0)
        return keps_error_set(err, KEPS_EINPUT, "rr release: the schema has no sensitive column");
    int *cols = malloc((2 * ncols + 1) * sizeof *cols);
    uint32_t *nvalues = malloc(ns * sizeof *nvalues), *split = malloc(ns * sizeof *split);
    keps_status st = cols && nvalues && split ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_release_columns(s, generalized, cols, err);
    for (size_t j = 0; j < ncols && !st; j++)
        cols[ncols + j] = -1;
    for (size_t q = 0; q < s->nqi && !st; q++)
        cols[ncols + s->qi[q].col] = -2;
    for (size_t a = 0; a < ns && !st; a++) { /* the joint domain of keps_rr_joint_codes */
        nvalues[a] = t->cols[s->sensitive[a]].nvalues;
        cols[ncols + s->sensitive[a]] = (int)a;
        dom = dom * (nvalues[a] ? nvalues[a] : 1);
        if (dom > KEPS_RR_MAX_CATEGORIES)
            st = keps_error_set(err, KEPS_EINPUT, "rr release: the joint domain of the %zu sensitive columns has "
                                                  "more than %d combinations", ns, KEPS_RR_MAX_CATEGORIES);
    }
    for (size_t i = 0; i < t->nrows && !st; i++)
        if (out[i] >= dom)
            st = keps_error_set(err, KEPS_EINPUT,
                                "rr release: released value %u of row %zu lies outside the joint domain (%zu "
                                "values)",
                                out[i], i + 1, dom);
    rr_rel c = {s, generalized, out, nvalues, cols, cols + ncols, split, (size_t)-1};
    if (!st)
        st = keps_release_build(s, rr_cell, &c, release, err);
    free(cols);
    free(nvalues);
    free(split);
    return st;
}
