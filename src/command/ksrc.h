/* Where `keps kepsilon` and `keps rr` get their equivalence classes: a
 * keps_partition (keps/partition.h) from an OLA node (ksrc_ola.c),
 * Mondrian (ksrc_mondrian.c) or the input's own QI values (given). Each
 * source fills one of these; cmd_kepsilon.c and cmd_rr.c do the rest. */
#ifndef KEPS_CLI_KSRC_H
#define KEPS_CLI_KSRC_H

#include <stddef.h>
#include <stdint.h>

#include "command_internal.h"
#include "keps/partition.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

typedef struct ksrc ksrc;
struct ksrc {
    keps_partition part;  /* the classes; those suppressed are the k-anonymization's */
    uint32_t *cls;        /* [n] class per row for keps_kepsilon_run; KEPS_NONE = suppressed */
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

/* The report's members of an OLA node at k (keps rr --partition ola,
 * keps kepsilon --algorithm ola, keps-mpi rr): transformation, objective,
 * score, k_anonymization_metrics, nodes_evaluated and lattice. */
struct keps_ola_result;
struct keps_lattice;
void ksrc_ola_json(keps_json *j, const struct keps_lattice *L, const struct keps_ola_result *res, size_t k,
                   const cmd_objective *obj);
/* src->cls and src->suppressed from src->part (classes smaller than k
 * suppressed first when k > 0): KEPS_NONE in the suppressed classes, the
 * others numbered in the order of their QI tuples (the codes at levels;
 * levels NULL: as they stand), the order keps_kepsilon_run sums its
 * per-class figures in. 0, or -1 out of memory. */
int ksrc_rows(ksrc *src, const keps_schema *s, const int *levels, size_t k);
/* Frees what every source holds (the partition, cls). */
void ksrc_free_classes(ksrc *src);

#pragma GCC visibility pop
#endif
