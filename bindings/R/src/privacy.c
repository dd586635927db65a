/* keps for R: the privacy calculators (keps/safela.h, keps/rr.h). The R
 * side checks and names the arguments; these return the library's numbers. */
#include <math.h>
#include <stdlib.h>

#include "keps/rr.h"
#include "keps/safela.h"
#include "rkeps.h"

static SEXP delta_list(const keps_delta_result *r, long k)
{
    const char *nm[] = {"k", "delta", "log_delta", "gamma", "epsilon_gap", "n_min", "n_argmax", "n_last", "capped", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal((double)k));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(r->delta));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(r->log_delta));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal(r->gamma));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal(r->eps_gap));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal((double)r->n_min));
    SET_VECTOR_ELT(out, 6, Rf_ScalarReal((double)r->n_argmax));
    SET_VECTOR_ELT(out, 7, Rf_ScalarReal((double)r->n_last));
    SET_VECTOR_ELT(out, 8, Rf_ScalarLogical(r->capped));
    UNPROTECT(1);
    return out;
}

/* delta of epsilon-safe k-anonymization (gap NA: the default -ln(1-beta)). */
SEXP rk_safela_delta(SEXP k, SEXP beta, SEXP gap)
{
    keps_delta_result r;
    keps_error err = {0};
    double g = Rf_asReal(gap);
    long kk = (long)Rf_asReal(k);
    if (keps_safela_delta(kk, Rf_asReal(beta), ISNA(g) ? NAN : g, &r, &err))
        rk_raise(&err);
    return delta_list(&r, kk);
}

/* The smallest k up to max_k whose delta is at most target. */
SEXP rk_safela_min_k(SEXP target, SEXP beta, SEXP gap, SEXP max_k)
{
    keps_delta_result r;
    keps_error err = {0};
    double g = Rf_asReal(gap);
    long k = 0;
    if (keps_safela_min_k(Rf_asReal(target), Rf_asReal(beta), ISNA(g) ? NAN : g, (long)Rf_asReal(max_k), &k, &r,
                          &err))
        rk_raise(&err);
    return delta_list(&r, k);
}

/* RR-LDP: epsilon of keep probability p over n categories (p given), or
 * the largest p for epsilon (p NA). Returns c(epsilon, p). */
SEXP rk_rr_ldp(SEXP p, SEXP epsilon, SEXP n)
{
    double pp = Rf_asReal(p), eps = Rf_asReal(epsilon);
    size_t nn = (size_t)Rf_asReal(n);
    if (ISNA(pp))
        pp = keps_rr_ldp_p(eps, nn);
    else
        eps = keps_rr_ldp_epsilon(pp, nn);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
    REAL(out)[0] = eps;
    REAL(out)[1] = pp;
    UNPROTECT(1);
    return out;
}

/* RR-t over the distribution freq (normalized by the R side): t of keep
 * probability pt (given), or the largest pt for t (pt NA). c(t, pt). */
SEXP rk_rr_t(SEXP pt, SEXP t, SEXP freq)
{
    double p = Rf_asReal(pt), tt = Rf_asReal(t);
    const double *f = REAL(freq);
    size_t n = (size_t)XLENGTH(freq);
    if (ISNA(p))
        p = keps_rr_t_p(tt, f, n);
    else
        tt = keps_rr_t_level(p, f, n);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
    REAL(out)[0] = tt;
    REAL(out)[1] = p;
    UNPROTECT(1);
    return out;
}

/* Implications between ldp, tclose, kt, kdp (Ekenstedt et al.): from
 * model at level (epsilon or t) with group size k (0: none), to model
 * with target group size to_k and records (0: not given). Returns
 * list(level, k, rule, holds_when, model). */
SEXP rk_rr_implies(SEXP from, SEXP level, SEXP k, SEXP to, SEXP to_k, SEXP records)
{
    keps_plevel fl = {0};
    keps_pmodel tm;
    if (keps_pmodel_parse(rk_string(from, "from"), &fl.model) || keps_pmodel_parse(rk_string(to, "to"), &tm))
        rk_fail(KEPS_EINPUT, "from and to: expected ldp, tclose, kt or kdp");
    fl.level = Rf_asReal(level);
    fl.k = (long)Rf_asReal(k);
    keps_implication imp;
    keps_error err = {0};
    if (keps_rr_implies(&fl, tm, (long)Rf_asReal(to_k), (long)Rf_asReal(records), &imp, &err))
        rk_raise(&err);
    const char *nm[] = {"level", "k", "rule", "holds_when", "model", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal(imp.to.level));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal((double)imp.to.k));
    SET_VECTOR_ELT(out, 2, Rf_mkString(imp.rule));
    SET_VECTOR_ELT(out, 3, Rf_mkString(imp.why));
    SET_VECTOR_ELT(out, 4, Rf_mkString(keps_pmodel_name(tm)));
    UNPROTECT(1);
    return out;
}
