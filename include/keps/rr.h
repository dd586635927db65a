/* keps: randomized response for epsilon-LDP and multiplicative t-closeness
 * (Ekenstedt et al. 2022; docs/spec.md 7).
 *
 * A mechanism on a nominal attribute with categories 0..n-1 is its transition
 * matrix M[y][z] = Pr(Z = z | Y = y). Three mechanisms:
 *   RR-LDP (Fig. 4): keep with probability p, else uniform over the n values;
 *   RR-t   (Fig. 5): keep with probability p_t, else a value drawn from the
 *                    empirical distribution f of the whole data set;
 *   both   (mechanism 2): RR-t, then RR-LDP on its output (M_t * M_ldp).
 * Several nominal columns are one joint value (section V-E): see
 * keps_rr_joint_codes().
 *
 * Levels are computed from the matrix (docs/spec.md 9: Ekenstedt et al.'s printed eq. (1) is
 * wrong). Buckets are the single output values (the finest partition, which
 * gives the largest, i.e. most conservative, level). The paper's Theorem 3
 * prints t = (k/N)(1 + (N-k-1)e^eps/k); that bound is not attained (it even
 * falls below 1 at k = N-1). The worst case (k records at the smallest
 * probability, N-k at e^eps times it) gives t = (k + (N-k)e^eps)/N, which is
 * Theorem 2's formula at k = 1; keps uses it (keps_rr_ldp_to_kt). */
#ifndef KEPS_RR_H
#define KEPS_RR_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/rng.h"
#include "keps/sample.h"
#include "keps/schema.h"
#include "keps/table.h"
#include "keps/guarantee.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the randomized-response sampler (the mechanism every rr stage draws with) ---- */

/* Randomized response over n categories with a row-stochastic n x n matrix
 * (row-major): matrix[x*n + y] = Pr[report y | true x]. */
typedef struct keps_rr_sampler {
    uint32_t n;
    keps_categorical *rows;
    double epsilon;  /* epsilon-LDP of what is sampled: max_y ln(max_x P / min_x P) over the
                        fixed-point weights (keps_categorical), rounded up. It equals the
                        matrix's epsilon (keps_transition_epsilon) to ~1e-15 when every entry
                        is at least 2^-9 of its row, and exceeds it when tiny entries lose
                        bits (epsilon above ~36) */
} keps_rr_sampler;
/* Checks rows sum to 1 (within 1e-9) and entries are >= 0. */
int keps_rr_sampler_init(keps_rr_sampler *rr, const double *matrix, uint32_t n, keps_error *err);
uint32_t keps_rr_sampler_apply(keps_rng *r, const keps_rr_sampler *rr, uint32_t value);
void keps_rr_sampler_free(keps_rr_sampler *rr);
/* One-shot: draws from row `value`; returns n on bad input. */
uint32_t keps_rr_sample(keps_rng *r, const double *matrix, uint32_t n, uint32_t value);
/* epsilon-LDP of a transition matrix: max over output y of
 * ln(max_x P[y|x] / min_x P[y|x]); INFINITY if a column mixes 0 and > 0. */
double keps_transition_epsilon(const double *matrix, uint32_t n);

/* Largest joint domain keps builds a dense matrix for (512 x 512 doubles). */
#define KEPS_RR_MAX_CATEGORIES 512

typedef struct keps_rr_matrix {
    size_t n;
    double *m; /* [n*n] row-major: m[y*n + z] = Pr(Z = z | Y = y) */
} keps_rr_matrix;

typedef enum { KEPS_RR_LDP = 0, KEPS_RR_TCLOSE, KEPS_RR_BOTH } keps_rr_kind;

/* How one mechanism is parameterized. */
typedef struct keps_rr_params {
    keps_rr_kind kind;
    double p;  /* RR-LDP keep probability (LDP, BOTH) */
    double pt; /* RR-t keep probability (TCLOSE, BOTH) */
} keps_rr_params;

/* ---- transition matrices ---- */
keps_status keps_rr_ldp_matrix(size_t n, double p, keps_rr_matrix *out, keps_error *err);
/* freq[n]: the empirical distribution (sums to 1). */
keps_status keps_rr_t_matrix(size_t n, const double *freq, double pt, keps_rr_matrix *out,
                             keps_error *err);
/* out = first then second (matrix product first * second). */
keps_status keps_rr_compose(const keps_rr_matrix *first, const keps_rr_matrix *second,
                            keps_rr_matrix *out, keps_error *err);
/* The matrix of a parameterized mechanism (freq needed for TCLOSE/BOTH);
 * an unknown kind is KEPS_EINPUT. */
keps_status keps_rr_matrix_for(const keps_rr_params *par, size_t n, const double *freq,
                               keps_rr_matrix *out, keps_error *err);
void keps_rr_matrix_free(keps_rr_matrix *m);

/* ---- closed forms and their inverses (parameter choice both ways) ---- */
/* RR-LDP: eps = ln(1 + n p/(1-p)) (docs/spec.md 7/9); infinity at p = 1. */
double keps_rr_ldp_epsilon(double p, size_t n);
/* Largest p with keps_rr_ldp_epsilon(p, n) <= eps: (e^eps-1)/(e^eps-1+n). */
double keps_rr_ldp_p(double eps, size_t n);
/* RR-t: eq. (2) of Ekenstedt et al. 2022, worst case an EC holding one value a_i:
 *   t = max( max_i 1 + p_t (1/f_i - 1),  1/(1 - p_t) [if >= 2 values occur] )
 * over the values with f_i > 0. (The paper's printing of (2) garbles the
 * ratio; these are the two ratios Def. 4 takes for such a class.) */
double keps_rr_t_level(double pt, const double *freq, size_t n);
/* Largest p_t in [0,1] with keps_rr_t_level(p_t) <= t (t >= 1). */
double keps_rr_t_p(double t, const double *freq, size_t n);

/* ---- implications (Theorems 2-4, Lemma 1 and 2) ---- */
/* eps-LDP => (k,t)-closeness and multiplicative t-closeness with classes of
 * at least k records: t = (k + (N-k) e^eps)/N (Theorem 2 at k = 1, Theorem 3
 * corrected, see above). */
double keps_rr_ldp_to_kt(double eps, size_t k, size_t N);
/* Inverse: the largest eps whose implied t is <= t: ln((N t - k)/(N - k)). */
double keps_rr_kt_to_ldp_needed(double t, size_t k, size_t N);

/* ---- choosing the keep probabilities ---- */
/* What a caller asks of a mechanism: each field NAN when not given. */
typedef struct keps_rr_targets {
    double p;       /* RR-LDP keep probability itself, in [0, 1] */
    double pt;      /* RR-t keep probability itself, in [0, 1] */
    double epsilon; /* target epsilon-LDP, >= 0 (INFINITY: no target) */
    double t;       /* target multiplicative t, >= 1 (INFINITY: no target) */
} keps_rr_targets;

/* The keep probabilities of mechanism kind, given directly or as the
 * largest that meet the targets (the rules of keps rr):
 *  - RR-t stage (TCLOSE, BOTH): exactly one of pt and t;
 *    pt = keps_rr_t_p(t, freq, n) from a target t.
 *  - RR-LDP stage (LDP, BOTH): exactly one of p and epsilon, except that
 *    LDP alone may take t instead of, or besides, epsilon (not besides p,
 *    which would leave t unmet; the paper's mechanism 1: an epsilon small
 *    enough to imply t, Lemma 1):
 *      eps = epsilon (INFINITY if not given);
 *      LDP with t: eps = min(eps, keps_rr_kt_to_ldp_needed(t, min(k, N-1), N)),
 *        k the smallest class size, N the number of records (N >= 2, k >= 1);
 *      p = keps_rr_ldp_p(eps, n).
 *    (In BOTH, t sets the RR-t stage only.)
 *  - p or epsilon without an RR-LDP stage, or pt without an RR-t stage, is
 *    refused, as is a stage with neither of its parameters.
 * freq[n] is the data's distribution (keps_rr_frequencies; read only for a
 * target t of the RR-t stage), n the number of categories. out->kind =
 * kind; the probability of a stage kind lacks is NAN. A probability of 1
 * keeps every value: no privacy from that stage (epsilon or t infinite,
 * or n = 1); callers should say so. Errors (KEPS_EINPUT, *out untouched):
 * an unknown kind, a value out of range, the combinations above (the
 * messages name the parameters p, pt, epsilon, t), n = 0, freq NULL where needed, and for
 * LDP with t: N < 2 or k = 0. */
keps_status keps_rr_choose_params(keps_rr_kind kind, const keps_rr_targets *tg, const double *freq, size_t n,
                                  size_t N, size_t k, keps_rr_params *out, keps_error *err);

typedef enum { KEPS_PM_LDP = 0, KEPS_PM_TCLOSE, KEPS_PM_KT, KEPS_PM_KDP } keps_pmodel;

/* A privacy statement: model at level (eps for LDP/KDP, t for TCLOSE/KT)
 * with its group size k (TCLOSE: smallest class; KT: subset size; KDP:
 * records removed; unused for LDP). */
typedef struct keps_plevel {
    keps_pmodel model;
    double level;
    long k;
} keps_plevel;

/* What keps_rr_implies derived. */
typedef struct keps_implication {
    keps_plevel to;
    char rule[64];    /* e.g. "Theorem 4.1" */
    const char *why;  /* condition under which it holds */
} keps_implication;

const char *keps_pmodel_name(keps_pmodel m);
int keps_pmodel_parse(const char *s, keps_pmodel *out); /* ldp|tclose|kt|kdp; 0 ok */
/* from -> to. to_k <= 0 picks the natural k (Theorem 4: N - k). N is the
 * number of records (needed where the formula has it; 0 if unknown).
 * KEPS_EJOB when the paper proves the direction impossible (message names
 * the theorem and the reason); KEPS_EINPUT when a parameter is missing or
 * either model is not a keps_pmodel value. */
keps_status keps_rr_implies(const keps_plevel *from, keps_pmodel to, long to_k, long N,
                            keps_implication *out, keps_error *err);

/* ---- exact verifiers from a matrix and the data ----
 * value[i] in [0, M->n) is record i's category; cls[i] its class
 * (equivalence class id in [0, nclasses)). Levels are INFINITY where a
 * probability ratio is unbounded. */
/* Def. 4: multiplicative t over the given classes. */
double keps_rr_verify_mult_t(const keps_rr_matrix *M, const uint32_t *value, const uint32_t *cls,
                             size_t N, size_t nclasses);
/* Def. 7: (k,t)-closeness, 1 <= k <= N-1; the worst k-subset per bucket is
 * the k records with the highest / lowest probability of that bucket. */
double keps_rr_verify_kt(const keps_rr_matrix *M, const uint32_t *value, size_t N, size_t k);
/* Def. 6: eps-LDP over the records present. */
double keps_rr_verify_ldp(const keps_rr_matrix *M, const uint32_t *value, size_t N);
/* Def. 8 with Q = the distribution of the released attribute: (k,eps)-DP,
 * 1 <= k <= N-1 (k records removed). */
double keps_rr_verify_kdp(const keps_rr_matrix *M, const uint32_t *value, size_t N, size_t k);

/* eps-LDP of the matrix over every input in the domain (data independent). */
double keps_rr_matrix_epsilon(const keps_rr_matrix *M);

/* The four levels side by side: closed forms the parameters promise, or the
 * levels a matrix achieves on the data. Group sizes: k for multiplicative t
 * (smallest class) and (k,t)-closeness, k_dp records removed for (k,eps)-DP. */
typedef struct keps_rr_levels {
    double epsilon_ldp; /* Def. 6 */
    double mult_t;      /* Def. 4 */
    double kt;          /* Def. 7 at k */
    double kdp;         /* Def. 8 at k_dp */
} keps_rr_levels;

/* Closed forms: RR-LDP eps = ln(1 + n p/(1-p)); RR-t t by eq. (2), eps of
 * its matrix over the domain; the sequence takes the smaller of both (each
 * stage bounds it: RR-LDP by mixing, RR-t by post-processing). t, (k,t) and
 * (k_dp,eps) are then the smaller of eq. (2) (RR-t stage) and Theorems 3 and
 * 4 from that eps, for RR-t alone too. M is the mechanism's matrix. */
void keps_rr_closed_levels(const keps_rr_params *par, const keps_rr_matrix *M, const double *freq, size_t N,
                           size_t k, size_t k_dp, keps_rr_levels *out);
/* Exact levels of M on the data (the verifiers above). */
void keps_rr_verified_levels(const keps_rr_matrix *M, const uint32_t *value, const uint32_t *cls, size_t N,
                             size_t nclasses, size_t k, size_t k_dp, keps_rr_levels *out);

/* ---- utility, binary gain: U = sum_z max_y f(y) M[y][z] (eqs. 4-6) ---- */
double keps_rr_utility(const keps_rr_matrix *M, const double *freq);

/* ---- applying a mechanism ---- */
/* Draws each record's output from its row of M with the project's
 * categorical sampler (keps/sample.h), whose fixed-point weights follow M
 * to 62 bits: for a parameterized mechanism prefer keps_rr_apply, which is
 * exact. out may equal value. KEPS_EINPUT (nothing drawn) if a value[i] >=
 * M->n. */
keps_status keps_rr_randomize(const keps_rr_matrix *M, const uint32_t *value, size_t N, keps_rng *rng,
                              uint32_t *out, keps_error *err);

/* The mechanism of par drawn exactly as the paper's figures describe it,
 * record by record: RR-t keeps the value with probability p_t (an exact
 * Bernoulli of the double p_t) and otherwise takes the value of a record
 * drawn uniformly from all N (the data's own distribution, exactly);
 * RR-LDP keeps with probability p and otherwise draws a category uniformly
 * from the n (exact integers); both runs RR-t, then RR-LDP on its output.
 * The draws are exact for the doubles p and p_t, so the levels computed
 * from them (keps_rr_closed_levels) are those of what is sampled, however
 * close p is to 1 (keps_rr_randomize's fixed-point weights are not: see
 * keps_rr_sampler in keps/sample.h). out may equal value. KEPS_EINPUT
 * (nothing drawn) for an unknown kind, a probability outside [0, 1], n = 0
 * or above KEPS_RR_MAX_CATEGORIES, or a value[i] >= n. */
keps_status keps_rr_apply(const keps_rr_params *par, size_t n, const uint32_t *value, size_t N, keps_rng *rng,
                          uint32_t *out, keps_error *err);
/* keps_rr_apply on a part of the data (keps-mpi's ranks each hold one):
 * RR-t draws from the whole data's distribution, given as counts[0..n),
 * the whole data's records of each category (value[0..N) among them): a
 * record of the whole drawn uniformly, i.e. category c with probability
 * counts[c] / sum(counts), exactly, as keps_rr_apply draws from value[]
 * when it is the whole. counts NULL: value[] is the whole
 * (keps_rr_apply). Also KEPS_EINPUT when counts lacks a value[i]'s
 * category or its sum overflows. */
keps_status keps_rr_apply_part(const keps_rr_params *par, size_t n, const uint64_t *counts, const uint32_t *value,
                               size_t N, keps_rng *rng, uint32_t *out, keps_error *err);

/* A public domain for column col of t (keps rr --domain): values[0..n),
 * each listed once. Every cell of the column must hold one of them, else
 * KEPS_EINPUT naming the cell's file, line and column ("'Z' is not in the
 * domain of 'COL' given by SOURCE"); then the values the data lacks are
 * added to the column's dictionary (keps_table_intern), so that the
 * column's codes 0..nvalues-1 are exactly the domain and a mechanism over
 * them (keps_rr_joint_codes) randomizes over the public domain, not over
 * the values the data happens to hold. source names the domain in
 * messages (e.g. "--domain s=@dom.txt"). Also KEPS_EINPUT: no value, a
 * value listed twice, col out of range. */
keps_status keps_rr_domain(keps_table *t, size_t col, const char *const *values, size_t n, const char *source,
                           keps_error *err);

/* Several nominal columns as one joint value: value[i] = sum_j codes_j[i] *
 * prod_{l<j} nvalues_l. Fails if the product of the domain sizes exceeds
 * KEPS_RR_MAX_CATEGORIES. *n gets the joint domain size. */
keps_status keps_rr_joint_codes(size_t ncols, const uint32_t *const *codes, const uint32_t *nvalues,
                                size_t N, uint32_t *value, size_t *n, keps_error *err);
/* Splits a joint value back into per-column codes (out[ncols]). */
void keps_rr_joint_split(uint32_t v, size_t ncols, const uint32_t *nvalues, uint32_t *out);

/* The randomized-response release, in input order (the rows of s->t), as
 * keps_lattice_apply and keps_mondrian_release build theirs. out[i] is row i's
 * released joint value (keps_rr_randomize's output) over the joint domain
 * of the schema's sensitive columns in order: keps_rr_joint_codes on the
 * codes of s->sensitive[0..nsensitive) with nvalues = each column's
 * dictionary size (t->cols[c].nvalues). Each released cell holds:
 *  - a sensitive column s->sensitive[j]: the input's string for code j of
 *    keps_rr_joint_split(out[i]), e.g. out[i] = 3 over (sex: 2 values,
 *    salary: 2 values) releases sex's value 1 and salary's value 1;
 *  - a QI column: the label in the same column of generalized, the
 *    release of the partition the classes came from (keps_mondrian_release,
 *    keps_lattice_apply with remove_suppressed = 0), one row per input row; NULL
 *    releases the input's QI values (the input is already k-anonymous);
 *  - every other released column: the input's value.
 * Nothing is suppressed here: every row is released (a row generalized
 * marks '*' stays '*' in its QIs). *release is the caller's, to free with
 * keps_table_free (NULL on error). Errors: no sensitive column, a joint
 * domain above KEPS_RR_MAX_CATEGORIES, an out[i] outside it, or generalized
 * not a release of s with every row (KEPS_EINPUT); OOM. */
keps_status keps_rr_release(const keps_schema *s, const uint32_t *out, const keps_table *generalized,
                            keps_table **release, keps_error *err);

/* Empirical distribution of value[] over n categories (freq[n]). */
void keps_rr_frequencies(const uint32_t *value, size_t N, size_t n, double *freq);

/* How a run's parameters were chosen, for its guarantee. */
typedef struct keps_rr_choice {
    const uint8_t *public_domain; /* [ncols] 1: the column's domain is public (given), 0: read from the data */
    int from_t;                   /* the keep probability was chosen from a target t */
    int p_given;                  /* p was given */
    size_t k, N;                  /* smallest class size, records */
} keps_rr_choice;
/* The guarantee of a run (Ekenstedt et al.): epsilon-LDP and/or
 * multiplicative t-closeness at the closed-form levels cl, over s's
 * --sensitive columns (one joint value); data-dependent choices listed. */
void keps_rr_guarantee(const keps_rr_params *par, const keps_rr_levels *cl, const keps_rr_choice *ch,
                       const keps_schema *s, keps_guarantee *g);

#ifdef __cplusplus
}
#endif
#endif
