/* keps: a small privacy accountant (docs/spec.md 8).
 *
 * Sequential composition: steps applied to the same records add up
 * (epsilon_1 + epsilon_2, delta_1 + delta_2). Parallel composition: steps
 * applied to disjoint sets of records cost the maximum over the parts (each
 * record is touched by one part only). Sums are rounded up (never below
 * the exact total). Basic composition only: no advanced
 * or Renyi accounting, so the totals are simple upper bounds. */
#ifndef KEPS_ACCOUNTANT_H
#define KEPS_ACCOUNTANT_H

#include <stddef.h>

#include "keps/json.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KEPS_ACCT_MAX_STEPS 32

typedef struct keps_acct_step {
    char label[48];
    double epsilon, delta;
} keps_acct_step;

typedef struct keps_accountant {
    double epsilon, delta;        /* running total */
    size_t nsteps;                /* steps recorded (all counted, first 32 kept) */
    keps_acct_step steps[KEPS_ACCT_MAX_STEPS];
} keps_accountant;

void keps_acct_init(keps_accountant *a);
/* Sequential step (label may be NULL). */
void keps_acct_add(keps_accountant *a, const char *label, double epsilon, double delta);
/* The same step applied times times to the same records: one step costing
 * times * (epsilon, delta), rounded up. */
void keps_acct_add_times(keps_accountant *a, const char *label, double epsilon, double delta, double times);
/* Sequential composition of two costs without a record of the steps (a
 * running tally per class, say): epsilon_a + epsilon_b rounded up. */
double keps_acct_sum(double epsilon_a, double epsilon_b);
/* Parallel composition: adds (max epsilon, max delta) over parts[0..n) as
 * one sequential step of `a`. Build each part with its own accountant. */
void keps_acct_add_parallel(keps_accountant *a, const char *label, const keps_accountant *parts,
                            size_t n);
/* Running parallel group without storing parts: keps_acct_max() keeps the
 * componentwise maximum; add the group to its parent with keps_acct_add(). */
void keps_acct_max(keps_accountant *group, double epsilon, double delta);
/* Writes {"epsilon": E, "delta": D, "steps": [{"label":..,"epsilon":..,"delta":..},...]}
 * under key (NULL inside arrays). */
void keps_acct_json(const keps_accountant *a, keps_json *j, const char *key);

#ifdef __cplusplus
}
#endif
#endif
