/* keps: empirical privacy-loss auditor (docs/spec.md 8).
 *
 * Runs a mechanism many times on two neighbouring inputs A and B, histograms
 * the outputs into bins, and for every bin E estimates ln(Pr_A[E]/Pr_B[E])
 * and ln(Pr_B[E]/Pr_A[E]). The reported lower bound for a bin and direction
 * is ln(lo_A / hi_B) from one-sided Clopper-Pearson bounds on the two bin
 * probabilities; with 4*bins one-sided bounds each at level alpha/(4*bins)
 * (Bonferroni), all bounds hold together with probability >= 1 - alpha. So
 * if the mechanism really is epsilon-DP, "epsilon_lower > epsilon" happens
 * with probability <= alpha: that is the violation flag. An audit can only
 * refute a claim, never prove it (it sees the chosen inputs and bins only).
 *
 * Bins: discrete mode gives every distinct output (category id) its own bin;
 * continuous mode cuts the pooled outputs at `bins`-quantiles (bins with the
 * same edge merge), so every bin has data and the tails carry their own bins.
 *
 * Other modules audit their own mechanisms through the callback: write a
 * keps_audit_fn that runs the mechanism on input 0 (A) or 1 (B) and stores
 * one scalar output (or category id), then call keps_audit_run(). A
 * mechanism with vector output (e.g. a released table) is audited one
 * statistic at a time: let the callback return that statistic, or an id of
 * the output class for discrete mode. Not thread-safe (lgamma). */
#ifndef KEPS_AUDIT_H
#define KEPS_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/json.h"
#include "keps/rng.h"
#include "keps/rr.h"
#include "keps/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the mechanism once on input `which` (0 = A, 1 = B); writes the output
 * to *out. Returns 0, or nonzero to abort the audit. */
typedef int (*keps_audit_fn)(void *ctx, keps_rng *r, int which, double *out);

typedef struct keps_audit_opts {
    double epsilon;   /* the claimed epsilon */
    size_t trials;    /* runs per input (default 100000) */
    size_t bins;      /* continuous mode: number of quantile bins (default 20) */
    int discrete;     /* 1: outputs are category ids, one bin each */
    double alpha;     /* overall confidence 1 - alpha (default 0.05) */
} keps_audit_opts;

typedef struct keps_audit_result {
    double epsilon_claimed;
    double epsilon_hat;     /* largest point estimate |ln ratio| over bins with data on both sides */
    size_t one_sided_bins;  /* bins where only one input produced outputs (ratio infinite) */
    double epsilon_lower;   /* largest Clopper-Pearson lower bound (may be -inf) */
    double epsilon_upper;   /* upper bound of that same bin and direction (may be +inf) */
    size_t trials, bins;
    size_t worst_bin;       /* bin of epsilon_lower */
    double worst_lo, worst_hi; /* its output range [lo, hi) (discrete: lo = hi = id) */
    size_t worst_count_a, worst_count_b;
    double worst_hat;       /* that bin's own point estimate (+inf when one count is 0) */
    int worst_direction;    /* 0: ln(A/B), 1: ln(B/A) */
    int violation;          /* epsilon_lower > epsilon_claimed */
} keps_audit_result;

void keps_audit_defaults(keps_audit_opts *o);
/* 0, or an error status (bad options, OOM, callback failure). */
int keps_audit_run(keps_rng *r, keps_audit_fn fn, void *ctx, const keps_audit_opts *o,
                   keps_audit_result *res, keps_error *err);
/* Writes the result as a JSON object under key. */
void keps_audit_json(const keps_audit_result *res, keps_json *j, const char *key);

/* Built-in mechanisms (ctx types for the callbacks below). */
typedef struct keps_audit_laplace {
    double value_a, value_b, scale;
    double scale_factor;    /* multiplies the scale actually used: 1 normally, 0.5 = broken */
} keps_audit_laplace;
int keps_audit_laplace_fn(void *ctx, keps_rng *r, int which, double *out);

typedef struct keps_audit_geometric {
    int64_t value_a, value_b, sensitivity;
    double epsilon;
} keps_audit_geometric;
int keps_audit_geometric_fn(void *ctx, keps_rng *r, int which, double *out);

typedef struct keps_audit_rr {
    const keps_rr_sampler *rr;
    uint32_t value_a, value_b;
} keps_audit_rr;
int keps_audit_rr_fn(void *ctx, keps_rng *r, int which, double *out);

typedef struct keps_audit_expmech {
    const double *u_a, *u_b;  /* utilities on A and on B, n each */
    size_t n;
    double epsilon, sensitivity;
} keps_audit_expmech;
int keps_audit_expmech_fn(void *ctx, keps_rng *r, int which, double *out);

/* Statistics used above, exposed for tests. */
/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
double keps_betainc(double a, double b, double x);
/* x with I_x(a, b) = p (bisection). */
double keps_beta_quantile(double p, double a, double b);
/* One-sided Clopper-Pearson bounds for k successes in n trials, each at
 * level alpha: Pr[p < lo] <= alpha, Pr[p > hi] <= alpha. */
void keps_clopper_pearson(size_t k, size_t n, double alpha, double *lo, double *hi);

#ifdef __cplusplus
}
#endif
#endif
