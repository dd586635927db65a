/* Where `keps kepsilon` gets its equivalence classes: OLA (ksrc_ola.c),
 * Mondrian (ksrc_mondrian.c) or the input's own QI values (given). Each
 * source fills one of these; cmd_kepsilon.c does the rest. */
#ifndef KEPS_CLI_KSRC_H
#define KEPS_CLI_KSRC_H

#include <stddef.h>
#include <stdint.h>

#include "command_internal.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

typedef struct ksrc ksrc;
struct ksrc {
    uint32_t *cls;        /* [n] class per row; KEPS_NONE = suppressed by the k-anonymization */
    size_t suppressed;    /* rows the k-anonymization suppressed */
    double search_ms;     /* time spent in the k-anonymization */
    /* The k-anonymization's release of every row (the QI labels that
     * keps_kepsilon_release and keps_rr_release read); NULL: the input's
     * own QI values (given). The caller frees *gen with keps_table_free. */
    keps_status (*generalize)(ksrc *src, keps_table **gen, keps_error *err);
    /* Adds the source's own report members (transformation, metrics...). */
    void (*json)(ksrc *src, keps_json *j);
    void (*free)(ksrc *src);
    const keps_schema *s;
    void *state;
};

/* Each returns KEPS_OK or the status of the error after printing the error. */
keps_status ksrc_given(cmd_ctx *c, const keps_schema *s, size_t k, ksrc *out);
keps_status ksrc_ola(cmd_ctx *c, const keps_schema *s, size_t k, ksrc *out);
keps_status ksrc_mondrian(cmd_ctx *c, keps_schema *s, keps_table *t, size_t k, ksrc *out);

#pragma GCC visibility pop
#endif
