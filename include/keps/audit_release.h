/* keps: end-to-end privacy audit of whole releases (keps audit --neighbours).
 *
 * A command is run many times on two neighbouring inputs A and B; each run
 * gives a released table (or a failure with an exit status). The audit asks
 * whether some event E of the release has Pr_A[E] > e^eps Pr_B[E] + delta
 * (or the same with A and B swapped), which the stated (eps, delta)
 * guarantee forbids. The events do not know the mechanism; they are the
 * ways a release has leaked before:
 *   - the exit status, the header, the row count;
 *   - row order: which of the first rows are equal (as whole rows, and per
 *     column), whether rows i and i+1 are equal, how many distinct rows and
 *     values there are (rows sharing a noisy centroid kept in input order
 *     show the data's clusters);
 *   - suppression: the set of patterns of '*' cells over the rows, and how
 *     many rows hold a '*' (starred rows show how many were suppressed);
 *   - presence of each value in each column (a unique value released raw,
 *     a category drawn from a domain read from the data);
 *   - per numeric column, histograms over bins cut at quantiles of the
 *     pooled outputs, and the mean, minimum and maximum (noise scales).
 * Each is a statistic of a release; an event is "statistic = value" or
 * "statistic <= threshold" (each with its complement). Which values,
 * thresholds and bins are tested is chosen from separate selection runs
 * (both inputs pooled), so that the counts of the test runs stay unbiased.
 *
 * Estimators: for every event, one-sided Clopper-Pearson bounds on Pr_A and
 * Pr_B (4 bounds per event) at level alpha/(4 m) for m events (Bonferroni
 * over every event tested, both directions), so all hold together with
 * probability >= 1 - alpha. The loss of an event in direction A->B is
 * bounded below by ln((lo_A - delta)/hi_B) (-inf when lo_A <= delta); a
 * lower bound above eps is a violation of the claim, and an honest
 * (eps, delta) mechanism shows one with probability <= alpha. An event that
 * happened on one side only is listed as such whatever its bound. An audit
 * can refute a claim, never prove it.
 *
 * The library part: events over released tables and the estimators; the
 * runs themselves (processes, files) are the caller's (the CLI). Not
 * thread-safe. */
#ifndef KEPS_AUDIT_RELEASE_H
#define KEPS_AUDIT_RELEASE_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/json.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_release_audit_opts {
    size_t bins;         /* quantile bins and thresholds per numeric statistic (default 10) */
    size_t prefix_rows;  /* rows of the order patterns (default 8) */
    size_t adjacent;     /* row pairs (i, i+1) tested for equality (default 16) */
    size_t max_values;   /* most values tested per statistic (default 32): the most balanced */
    size_t min_support;  /* a value is tested when it held in at least this many selection runs
                            and failed in at least one (default 3) */
    const char *const *ignore; /* columns left out of every event (those the claim does not cover) */
    size_t nignore;
} keps_release_audit_opts;

void keps_release_audit_defaults(keps_release_audit_opts *o);

typedef struct keps_release_audit keps_release_audit;

/* o is copied (ignore's strings too). NULL on OOM (err set). */
keps_release_audit *keps_release_audit_new(const keps_release_audit_opts *o, keps_error *err);
void keps_release_audit_free(keps_release_audit *a);

/* Phase 1: a selection run on side 0 (A) or 1 (B): release is the table it
 * wrote, or NULL when the run failed with exit_code (then only the exit
 * status counts). KEPS_EINPUT after keps_release_audit_freeze. */
keps_status keps_release_audit_select(keps_release_audit *a, int side, const keps_table *release, int exit_code,
                                      keps_error *err);
/* Ends phase 1: fixes the events (values, thresholds, bins). */
keps_status keps_release_audit_freeze(keps_release_audit *a, keps_error *err);
/* Phase 2: a test run; its release (or failure) counts towards every event.
 * KEPS_EINPUT before keps_release_audit_freeze. */
keps_status keps_release_audit_add(keps_release_audit *a, int side, const keps_table *release, int exit_code,
                                   keps_error *err);
/* Events fixed by freeze (0 before). */
size_t keps_release_audit_nevents(const keps_release_audit *a);

typedef struct keps_release_event {
    const char *name;    /* e.g. "column 's' holds 'Z'" (owned by the audit) */
    const char *family;  /* "status", "rows", "order", "suppression", "values", "numbers" */
    size_t count[2];     /* test runs of A and of B in which the event held */
    double p_lo[2], p_hi[2]; /* the one-sided Clopper-Pearson bounds of Pr_A and Pr_B */
    double lower;        /* lower bound of the loss, the larger of the two directions */
    double upper;        /* upper bound of the loss in that direction (may be +inf) */
    double hat;          /* point estimate ln(count_a/count_b) in that direction (+inf: one-sided) */
    int direction;       /* 0: A -> B (ln Pr_A/Pr_B), 1: B -> A */
    int one_sided;       /* held on one side only (count 0 on the other) */
    int one_sided_significant; /* ... in at least one_sided_min runs (below) */
} keps_release_event;

typedef struct keps_release_audit_result {
    size_t runs[2];      /* test runs of A and B */
    size_t selection[2]; /* selection runs of A and B */
    double epsilon, delta, alpha;
    size_t nevents;
    keps_release_event *events; /* sorted worst first (largest lower bound) */
    double epsilon_lower; /* the largest lower bound (-inf if none) */
    size_t violations;   /* events whose lower bound exceeds epsilon */
    size_t one_sided;    /* events that held on one side only */
    size_t one_sided_min; /* ceil(log2(2 m / alpha)) for m events: were both inputs to give one
                             distribution (equal runs per side), some event would hold this many
                             times on one side only with probability at most alpha */
    size_t one_sided_significant; /* one-sided events held that many times or more */
    int violation;
} keps_release_audit_result;

/* The estimate against the claim (epsilon >= 0, 0 <= delta < 1, 0 < alpha
 * < 1). The result points into the audit: free it first. */
keps_status keps_release_audit_estimate(const keps_release_audit *a, double epsilon, double delta, double alpha,
                                        keps_release_audit_result *res, keps_error *err);
void keps_release_audit_result_free(keps_release_audit_result *res);
/* Writes the result as an object under key: the figures above and every
 * event with its counts and bounds (max_events > 0: the worst that many). */
void keps_release_audit_json(const keps_release_audit_result *res, keps_json *j, const char *key,
                             size_t max_events);

/* The guarantee a keps report states (its "guarantee" object), as read by
 * keps_release_audit_claim. */
typedef struct keps_audit_claim {
    char model[128];     /* guarantee.model ("" if absent) */
    double epsilon;      /* guarantee.epsilon, NAN if absent or null */
    double delta;        /* guarantee.delta, 0 if absent */
    int dp;              /* the model is a differential-privacy claim: epsilon-DP, epsilon-LDP,
                            (beta,epsilon,delta)-DPS, data-dependent or not (not "heuristic,
                            not DP", not (k,epsilon)-anonymity) */
    char **not_covered;  /* guarantee.not_covered */
    size_t nnot_covered;
    size_t ndata_dependent; /* items of guarantee.data_dependent */
} keps_audit_claim;

/* Reads a keps report (JSON text, parsed with jansson). KEPS_EINPUT when it is not a JSON
 * object or has no "guarantee" object. Free with keps_audit_claim_free. */
keps_status keps_release_audit_claim(const char *json, size_t len, keps_audit_claim *out, keps_error *err);
void keps_audit_claim_free(keps_audit_claim *c);

#ifdef __cplusplus
}
#endif
#endif
