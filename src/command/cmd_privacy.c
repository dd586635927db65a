/* keps privacy: calculators. delta/min-k in privacy_delta.c (docs/spec.md, section 6),
 * rr-epsilon/rr-t/implies in privacy_rr.c (docs/spec.md, section 7). */
#include <stdio.h>
#include <string.h>

#include "command_internal.h"

void cmd_calculator_begin(const cmd_ctx *c, keps_json *j)
{
    keps_json_init(j);
    keps_json_object(j, NULL);
    keps_json_str(j, "calculator", c->pos[0]);
}

static const cmd_opt opt_eps_prime = {"epsilon-prime", 0, "E1", CLI_NUMBER,
                                      "epsilon' of the exponential mechanism (delta, min-k)", "0.5"};
static const cmd_opt opt_max_k = {"max-k", 0, "K", CLI_NUMBER, "min-k: largest k to try (default 100000)", "10000"};
static const cmd_opt opt_p = {"p", 'p', "P", CLI_NUMBER, "rr-epsilon: keep probability of RR-LDP (rr-t: p_t, as {pt})",
                              "0.6"};
static const cmd_opt opt_n = {"categories", 'n', "N", CLI_NUMBER,
                               "rr-epsilon, rr-t: number of categories of the sensitive attribute", "4"};
static const cmd_opt opt_t = {"t", 0, "T", CLI_NUMBER, "rr-t, implies: multiplicative t-closeness level (t >= 1)", "2"};
static const cmd_opt opt_from = {"from", 0, "ldp|tclose|kt|kdp", 0, "implies: the model you have", "ldp"};
static const cmd_opt opt_to = {"to", 0, "ldp|tclose|kt|kdp", 0, "implies: the model you want", "kt"};
static const cmd_opt opt_pt = {"pt", 0, "P", CLI_NUMBER, "rr-t: keep probability p_t of RR-t", "0.5"};
static const cmd_opt opt_freq = {"frequencies", 0, "F1,F2,...", 0,
                                 "rr-t: the attribute's distribution over its values (probabilities or counts; "
                                 "normalized); without it {categories} N means uniform",
                                 "0.2,0.3,0.5"};
static const cmd_opt opt_to_k = {"to-k", 0, "K", CLI_NUMBER,
                                 "implies: group size of the target model when both sides have one (default: "
                                 "Theorem 4's N-k, or the same k)",
                                 "90"};
static const cmd_opt opt_records = {"records", 0, "N", CLI_NUMBER, "implies: number of records N in the data set",
                                     "100"};

/* The calculators' k is a parameter of a model, not a release's k: its own
 * help; each calculator reads it with its own range. */
static const cmd_opt opt_k = {"k", 'k', "K", CLI_NUMBER,
                              "delta: k of the epsilon-safe k-anonymization (1 to 100,000,000); implies: group "
                              "size k of the model you have ((k,t)-closeness, (k,epsilon)-DP; a whole number >= 1)",
                              "75"};

static const cmd_opt *const opts[] = {&opt_k, &cmd_opt_beta, &cmd_opt_epsilon, &opt_eps_prime,
                                      &cmd_opt_delta, &opt_max_k, &opt_p, &opt_n, &opt_t,
                                      &opt_from, &opt_to, &opt_records, &opt_pt, &opt_freq,
                                      &opt_to_k, &cmd_opt_report, NULL};

/* Which calculators read each option. One a calculator does not read
 * cannot change its answer (nothing is released), but the answer is not
 * what the option suggests was asked: a note says so. A job file may well
 * hold the options of several calculators. */
static const cmd_mode_opt inputs[] = {
    {"k", "delta|implies", "the group size of delta and of an implication (min-k tries k up to {max-k})", 0},
    {"beta", "delta|min-k", "the sampling probability of epsilon-safe k-anonymization", 0},
    {"epsilon-prime", "delta|min-k", "epsilon' of epsilon-safe k-anonymization", 0},
    {"epsilon", "delta|min-k|rr-epsilon|implies", "rr-t's level is {t}", 0},
    {"delta", "min-k", "the target delta that min-k reaches", 0},
    {"max-k", "min-k", "the largest k min-k tries", 0},
    {"p", "rr-epsilon|rr-t", "a keep probability of randomized response", 0},
    {"categories", "rr-epsilon|rr-t", "the number of categories of randomized response", 0},
    {"t", "rr-t|implies", "a multiplicative t level", 0},
    {"from", "implies", "the model an implication starts from", 0},
    {"to", "implies", "the model an implication leads to", 0},
    {"records", "implies", "the number of records of an implication", 0},
    {"to-k", "implies", "the target group size of an implication", 0},
    {"pt", "rr-t", "the keep probability of RR-t", 0},
    {"frequencies", "rr-t", "the distribution RR-t draws from (rr-epsilon's epsilon does not depend on it)", 0},
};

static const cmd_opt opt_calc = {"calculator", 0, "CALCULATOR", KEPS_PARAM_POSITIONAL,
                                 "which calculator: delta, min-k, rr-epsilon, rr-t or implies", "delta"};
static const cmd_opt *const pos_opts[] = {&opt_calc, NULL};

static keps_status run(cmd_ctx *c)
{
    if (c->npos < 1)
        return cmd_usage_error(c, "which calculator? delta, min-k, rr-epsilon, rr-t or implies");
    const char *w = c->pos[0];
    if (strcmp(w, "delta") && strcmp(w, "min-k") && strcmp(w, "rr-epsilon") && strcmp(w, "rr-t") &&
        strcmp(w, "implies"))
        return cmd_usage_error(c, "no calculator '%s': expected delta, min-k, rr-epsilon, rr-t or implies", w);
    cmd_mode_options(c, "keps privacy ", w, inputs, sizeof inputs / sizeof *inputs); /* notes only */
    if (strcmp(w, "delta") == 0)
        return cmd_privacy_delta(c);
    if (strcmp(w, "min-k") == 0)
        return cmd_privacy_min_k(c);
    if (strcmp(w, "rr-epsilon") == 0)
        return cmd_privacy_rr_epsilon(c);
    if (strcmp(w, "rr-t") == 0)
        return cmd_privacy_rr_t(c);
    return cmd_privacy_implies(c);
}

const cmd_cmd cmd_privacy = {
    "privacy",
    "privacy calculators: delta, min-k, rr-epsilon, rr-t, implies",
    "privacy delta|min-k|rr-epsilon|rr-t|implies [options]",
    "delta: the delta of epsilon-safe k-anonymization under sampling (Li, Qardaji and Su 2012; docs/spec.md, section 6) for {k}, {beta} and optionally "
    "{epsilon}/{epsilon-prime}; min-k: the smallest k reaching {delta}. rr-epsilon: the exact epsilon-LDP of "
    "randomized response with keep probability {p} over {categories} categories ({epsilon} E instead gives the largest p); "
    "rr-t: the multiplicative t of RR-t with keep probability {pt} over the distribution {frequencies} (or {categories} "
    "uniform categories; {t} T instead gives the largest p_t); implies: translates between epsilon-LDP (ldp), "
    "multiplicative t-closeness with classes of at least {k} records (tclose), (k,t)-closeness (kt) and "
    "(k,epsilon)-DP (kdp) by the theorems of Ekenstedt et al. 2022 (docs/spec.md, section 7), e.g. {from} ldp {epsilon} E {to} kt {k} K "
    "{records} N; {k} is the source's group size (the target's when the source is ldp), {to-k} the target's. "
    "It refuses the directions the paper proves impossible (Theorem 1, Lemma 2.3, Theorem 5, ...) with exit 1.",
    "privacy delta {k} 75 {beta} 0.7 {json}",
    opts,
    run,
    1,
    pos_opts,
};
