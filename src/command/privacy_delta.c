/* keps privacy delta / min-k: the delta of epsilon-safe k-anonymization under
 * sampling (docs/spec.md, section 6) and its inverse; the work is keps_safela_delta/min_k. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "command_internal.h"
#include "keps/sample.h"
#include "keps/safela.h"

/* beta, epsilon' and the gap eps - eps' from --beta, --epsilon-prime,
 * --epsilon. Without --epsilon the gap is the default -ln(1-beta) (eps' = 0
 * when --epsilon-prime is absent too). Returns KEPS_OK or the status of the error. */
static keps_status delta_params(cmd_ctx *c, double *beta, double *epsp, double *gap)
{
    if (cmd_require(c, "beta"))
        return KEPS_EINPUT;
    double eps;
    if (cmd_probability(c, "beta", beta) < 0) /* "0.7" or "7/10", read as keps safela reads it */
        return KEPS_EINPUT;
    /* Finite only: inf - inf is no gap, and an infinite epsilon bounds nothing. */
    int pe = cmd_double(c, "epsilon-prime", 0.0, DBL_MAX, 0.0, epsp);
    int ge = cmd_double(c, "epsilon", 0.0, DBL_MAX, NAN, &eps);
    if (pe < 0 || ge < 0)
        return KEPS_EINPUT;
    if (ge && !pe)
        return cmd_usage_error(c, "{epsilon} needs {epsilon-prime} too (delta depends on epsilon - epsilon')");
    *gap = ge ? eps - *epsp : NAN;
    return KEPS_OK;
}

static void delta_json(keps_json *j, const keps_delta_result *r, long k, double beta, double epsp)
{
    keps_json_num(j, "delta", r->delta);
    keps_json_num(j, "log_delta", r->log_delta);
    keps_json_int(j, "k", k);
    keps_json_num(j, "beta", beta);
    keps_json_num(j, "epsilon", epsp + r->eps_gap);
    keps_json_num(j, "epsilon_prime", epsp);
    keps_json_num(j, "epsilon_gap", r->eps_gap);
    keps_json_num(j, "gamma", r->gamma);
    keps_json_int(j, "n_min", r->n_min);
    keps_json_int(j, "n_argmax", r->n_argmax);
    keps_json_int(j, "n_last", r->n_last);
    keps_json_bool(j, "capped", r->capped);
}

static keps_status emit(cmd_ctx *c, const keps_delta_result *r, long k, double beta, double epsp, int mink,
                double target)
{
    keps_json j;
    cmd_calculator_begin(c, &j);
    if (mink) {
        keps_json_int(&j, "result", k);
        keps_json_num(&j, "target_delta", target);
    } else {
        keps_json_num(&j, "result", r->delta);
    }
    delta_json(&j, r, k, beta, epsp);
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char head[96], full[640];
    if (mink)
        snprintf(head, sizeof head, "k = %ld (delta = %.6g <= %g)", k, r->delta, target);
    else if (r->delta > 0)
        snprintf(head, sizeof head, "delta = %.6g", r->delta);
    else /* underflow: the log is still exact */
        snprintf(head, sizeof head, "delta = exp(%.6f) (below the double range)", r->log_delta);
    snprintf(full, sizeof full,
             "%s\nk = %ld, beta = %g, epsilon = %.6g (epsilon' = %g), gamma = %.6g, n_min = %ld, maximum at n = "
             "%ld%s\n",
             head, k, beta, epsp + r->eps_gap, epsp, r->gamma, r->n_min, r->n_argmax,
             r->capped ? " (search capped: delta is the Chernoff bound there)" : "");
    keps_status rc = cmd_emit_report(c, &j, full);
    keps_json_free(&j);
    return rc;
}

/* Shared by delta and min-k: k is the k (delta) or the largest k (min-k). */
static keps_status calc(cmd_ctx *c, int mink, long k, double target)
{
    double beta = 0, epsp = 0, gap = NAN;
    keps_status rc = delta_params(c, &beta, &epsp, &gap);
    if (rc)
        return rc;
    keps_delta_result r;
    keps_error err = {0};
    keps_status st = mink ? keps_safela_min_k(target, beta, gap, k, &k, &r, &err)
                          : keps_safela_delta(k, beta, gap, &r, &err);
    if (st)
        return cmd_fail(c, &err);
    return emit(c, &r, k, beta, epsp, mink, target);
}

keps_status cmd_privacy_delta(cmd_ctx *c)
{
    long k;
    if (cmd_require(c, "k") || cmd_long(c, "k", 1, 100000000L, 1, &k) < 0)
        return KEPS_EINPUT;
    return calc(c, 0, k, 0);
}

keps_status cmd_privacy_min_k(cmd_ctx *c)
{
    double target;
    long maxk;
    if (cmd_require(c, "delta") || cmd_double(c, "delta", 0.0, 1.0, 0, &target) < 0 ||
        cmd_long(c, "max-k", 1, 100000000L, 100000, &maxk) < 0)
        return KEPS_EINPUT;
    return calc(c, 1, maxk, target);
}
