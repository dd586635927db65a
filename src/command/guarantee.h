/* Printing a method's keps_guarantee (include/keps/guarantee.h) on stderr:
 * docs/cli.md, "Guarantee labels". A parameter of a DP guarantee that was
 * read from the data (bounds, a domain, a distribution, a class size) is
 * said even with --quiet, and so is a released column the guarantee does
 * not cover. The report's object is keps_guarantee_json. */
#ifndef KEPS_CLI_GUARANTEE_H
#define KEPS_CLI_GUARANTEE_H

#include <stddef.h>

#include "command_internal.h"
#include "keps/guarantee.h"
#include "keps/rr.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

/* g's {name} markup spelled as the report spells parameters, the same for
 * every front-end (the bare name; keps_guarantee_spell); returns 0, or an exit
 * code after saying the command ran out of memory. */
int cmd_guarantee_spell(const cmd_ctx *c, keps_guarantee *g);
/* One warning per data-dependent item of a DP guarantee (not silenced by
 * --quiet). */
void cmd_dd_warn(const cmd_ctx *c, const keps_guarantee *g);
/* The warning naming g's not_covered columns (not silenced by --quiet);
 * covered says what the guarantee covers ({name} markup). Returns how
 * many. */
size_t cmd_uncovered_warn(const cmd_ctx *c, const keps_guarantee *g, const char *covered);

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
    size_t N, n, nclasses, k, k_dp; /* records, categories, classes, smallest class, {dp-k} */
    const keps_guarantee *g;        /* the run's guarantee (keps_rr_guarantee), spelled */
    const char *mechanism, *partition;
} cmd_rr_facts;
/* The report's keys after the row counts: changed_rows, report_note,
 * mechanism, categories, partition, classes, smallest_class, p, pt,
 * guarantee, closed_form, verified, metrics. */
void cmd_rr_json(keps_json *j, const cmd_rr_facts *f, const keps_rr_levels *cl, const keps_rr_levels *ver, double u,
                 size_t changed);
/* One {domain} COL=V1,V2,...|COL=@FILE of keps rr, shared with keps-mpi:
 * COL (the shortest text before an '=' naming one of s's sensitive
 * columns; given[col] 1: already given, refused) and its values (CSV, or
 * @FILE's lines read with the input's delimiter), for keps_rr_domain.
 * flag and sens_flag spell the two options in messages. On error
 * d->usage is 1 when the text itself is wrong; nothing to free. */
typedef struct cmd_rr_domain {
    int col, usage;
    keps_table *vt;          /* the values' table, which values point into */
    const char **values;
    size_t n;
    const char *source;      /* names the domain in messages: the file, or buf ("--domain s=A,B") */
    char buf[64];
} cmd_rr_domain;
keps_status cmd_rr_domain_parse(const keps_schema *s, const char *spec, const char *flag, const char *sens_flag,
                                const uint8_t *given, cmd_rr_domain *d, keps_error *err);
void cmd_rr_domain_free(cmd_rr_domain *d);
/* keps_guarantee_spell's spelling of the reports: the parameter's name
 * whatever the front-end (keps-mpi's reports equal keps's). */
const char *cmd_report_spell(void *ud, const char *name, char *buf, size_t len);

#pragma GCC visibility pop
#endif
