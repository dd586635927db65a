/* Guarantee labels shared by the DP commands (dpmicro, safela, rr, noise):
 * docs/cli.md, "Guarantee labels". A parameter of a DP guarantee that was
 * read from the data (bounds, a domain, a distribution, a class size) goes
 * into guarantee.data_dependent, turns the model string into "MODEL
 * (data-dependent)" and is said on stderr even with --quiet; a released
 * column the guarantee does not cover goes into guarantee.not_covered and is
 * said on stderr too. */
#ifndef KEPS_CLI_GUARANTEE_H
#define KEPS_CLI_GUARANTEE_H

#include <stddef.h>

#include "command_internal.h"
#include "keps/rr.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

typedef struct cmd_dd {
    char *item[16]; /* e.g. "bounds: FICA, FEDTAX" */
    size_t n;
} cmd_dd;

void cmd_dd_add(cmd_dd *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "WHAT: a, b" over t's columns for which pick holds (every name, however
 * long). */
void cmd_dd_add_columns(cmd_dd *d, const char *what, const keps_table *t, int (*pick)(const void *, size_t),
                        const void *ctx);
void cmd_dd_free(cmd_dd *d);
/* plain, or "plain (data-dependent)" when d holds an item (a static buffer:
 * use it before the next call). */
const char *cmd_dd_model(const cmd_dd *d, const char *plain);
/* "data_dependent": [...] (empty when none). */
void cmd_dd_json(keps_json *j, const cmd_dd *d);
/* One warning per item (not silenced by --quiet). */
void cmd_dd_warn(const cmd_ctx *c, const cmd_dd *d, const char *plain);

/* "not_covered": [names of t's columns for which pick holds]. */
void cmd_uncovered_json(keps_json *j, const keps_table *t, int (*pick)(const void *, size_t), const void *ctx);
/* The warning naming them (not silenced by --quiet); covered says what the
 * guarantee covers. Returns how many. */
size_t cmd_uncovered_warn(const cmd_ctx *c, const keps_table *t, int (*pick)(const void *, size_t), const void *ctx,
                          const char *covered);

/* safela's report after the row counts (cmd_safela.c), shared with
 * keps-mpi: sample_size, the guarantee, the node, the mechanism, the
 * lattice and the metrics of r. */
struct keps_safela_result;
struct keps_safela_params;
void cmd_safela_json(keps_json *j, const keps_schema *s, const struct keps_safela_result *r,
                     const struct keps_safela_params *p);

/* rr's report (cmd_rr.c), shared with keps-mpi: the figures it states. */
typedef struct cmd_rr_facts {
    const keps_table *t;
    const keps_schema *s;
    keps_rr_params par;
    size_t N, n, nclasses, k, k_dp; /* records, categories, classes, smallest class, --dp-k */
    const uint8_t *public_domain;   /* [t->ncols] 1: --domain gave the column's domain */
    cmd_dd dd;                      /* what the guarantee read from the data */
    const char *mechanism, *partition;
} cmd_rr_facts;
/* The items of f->dd: the domain, RR-t's distribution, a keep probability
 * chosen from the data (t_given, p_given: --t and -p were given). */
void cmd_rr_data_dependent(cmd_rr_facts *f, int t_given, int p_given);
/* The report's keys after the row counts: changed_rows, report_note,
 * mechanism, categories, partition, classes, smallest_class, p, pt,
 * guarantee, closed_form, verified, metrics. */
void cmd_rr_json(keps_json *j, const cmd_rr_facts *f, const keps_rr_levels *cl, const keps_rr_levels *ver, double u,
                 size_t changed);
/* The released columns the guarantee does not cover (ctx: the schema). */
int cmd_rr_uncovered_pick(const void *ctx, size_t j);

#pragma GCC visibility pop
#endif
