/* The privacy-criteria options shared by `anonymize` (ola, mondrian) and
 * `verify`: parsing them into keps/criteria.h values, and the report's
 * list of criteria. */
#ifndef KEPS_CLI_CRIT_H
#define KEPS_CLI_CRIT_H

#include <stddef.h>
#include <stdint.h>

#include "command_internal.h"
#include "keps/criteria.h"
#include "keps/guarantee.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

extern const cmd_opt crit_opt_sensitive, crit_opt_sensitive_type, crit_opt_estimator, crit_opt_beta_variant,
    crit_opt_delta_presence, crit_opt_k_map, crit_opt_subset, crit_opt_average_risk, crit_opt_sample_uniqueness,
    crit_opt_population_size, crit_opt_kmap_estimator, crit_opt_significance;

/* The criteria that name a sensitive column (l-diversity, entropy-l,
 * recursive-l, t-closeness, beta-likeness, delta-disclosure,
 * multiplicative-t, kt-closeness): their catalog entries and how their
 * values are read, one table (crit.c). */
typedef struct crit_col_opt {
    cmd_opt opt;
    keps_criterion_kind kind;
    int pair; /* the value is "A,B" */
} crit_col_opt;
#define CRIT_NCOL 8
extern const crit_col_opt crit_col_opts[CRIT_NCOL];

/* The options above but --sensitive (which a command lists where it
 * lists the roles), for a command's option array (the order of --help). */
#define CRIT_OPTS                                                                                                   \
    &crit_col_opts[0].opt, &crit_col_opts[1].opt, &crit_opt_estimator, &crit_col_opts[2].opt,                       \
        &crit_col_opts[3].opt, &crit_opt_sensitive_type, &crit_col_opts[4].opt, &crit_opt_beta_variant,             \
        &crit_col_opts[5].opt, &crit_col_opts[6].opt, &crit_col_opts[7].opt, &crit_opt_delta_presence,              \
        &crit_opt_k_map, &crit_opt_population_size, &crit_opt_kmap_estimator, &crit_opt_significance,               \
        &crit_opt_subset, &crit_opt_average_risk, &crit_opt_sample_uniqueness

typedef struct cmd_criteria {
    keps_criteria *crit;
    keps_criterion *c;        /* as given, k-anonymity first if -k */
    size_t nc;
    keps_sensitive_spec *spec;
    size_t nsens;
    keps_hierarchy **hier;    /* [nsens] owned, NULL where none */
    uint8_t *subset;          /* [rows] the research subset, owned; NULL without --subset */
    long k;                   /* -k, 0 if not given */
} cmd_criteria;

/* Any criterion option given (besides -k)? */
int cmd_criteria_given(const cmd_ctx *c);
/* Reads -k and the criteria options against table t (the input: the
 * population when --subset is given). k_required: without any criterion,
 * -k is required. population: t is a release whose population counts the
 * caller supplies (verify --population): delta-presence and k-map need no
 * --subset, every row of t is released. Returns KEPS_OK or the status of the error after
 * printing the error. */
keps_status cmd_criteria_read(cmd_ctx *c, keps_table *t, int k_required, int population, cmd_criteria *out);
void cmd_criteria_free(cmd_criteria *cc);
/* The guarantee (keps_criteria_guarantee): the criteria's model, k when
 * k > 0, and "criteria": every criterion with its parameters. */
void cmd_criteria_guarantee(keps_guarantee *g, long long k, const cmd_criteria *cc, const keps_table *t);
/* A short text of the criteria ("k-anonymity k=5, distinct-l-diversity
 * l=2 of 'salary'") in buf. */
void cmd_criteria_text(char *buf, size_t len, const cmd_criteria *cc, const keps_table *t);

#pragma GCC visibility pop
#endif
