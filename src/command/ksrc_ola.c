/* kepsilon --algorithm ola: OLA (include/keps/ola.h) picks the optimal
 * full-domain generalization under --suppress; the classes are the node's
 * (keps_partition_from_node), classes smaller than k are suppressed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/lattice_view.h"
#include "keps/ola.h"
#include "ksrc.h"

typedef struct {
    keps_lattice *L;
    keps_ola_result res;
    size_t k;
    cmd_objective obj;
} ola_state;

/* The node's labels for every row ('*' in the QIs of classes smaller than k). */
static keps_status ola_generalize(ksrc *src, keps_table **gen, keps_error *err)
{
    ola_state *st = src->state;
    keps_counts n;
    return keps_lattice_apply(st->L, st->res.levels, &src->part, 0, gen, &n, err);
}

void ksrc_ola_json(keps_json *j, const keps_lattice *L, const keps_ola_result *res, size_t k,
                   const cmd_objective *obj)
{
    const keps_schema *s = L->s;
    keps_json_object(j, "transformation");
    for (size_t q = 0; q < s->nqi; q++)
        keps_json_int(j, s->t->cols[s->qi[q].col].name, res->levels[q]);
    keps_json_end(j);
    cmd_objective_json(j, s, obj, res->score, res->score_len, res->attributes);
    keps_json_object(j, "k_anonymization_metrics");
    for (int m = 0; m < KEPS_METRIC_COUNT; m++)
        keps_json_num(j, keps_metric_name((keps_metric)m), res->metrics.v[m]);
    keps_json_end(j);
    keps_json_int(j, "nodes_evaluated", (long long)res->nodes_evaluated);
    keps_lattice_view_params vp = {k, res->suppress_limit, &obj->cfg, res->levels, res->minimal, res->nminimal, 0};
    keps_error err = {0};
    if (keps_lattice_view_json(j, "lattice", L, &vp, &err)) /* only out of memory: the report goes without */
        keps_json_null(j, "lattice");
}

static void ola_json(ksrc *src, keps_json *j)
{
    ola_state *st = src->state;
    ksrc_ola_json(j, st->L, &st->res, st->k, &st->obj);
}

static void ola_free(ksrc *src)
{
    ola_state *st = src->state;
    if (st) {
        keps_ola_result_free(&st->res);
        keps_lattice_free(st->L);
        cmd_objective_free(&st->obj);
        free(st);
    }
    ksrc_free_classes(src);
}

keps_status ksrc_ola(cmd_ctx *c, const keps_schema *s, size_t k, ksrc *out)
{
    keps_error err = {0};
    keps_ola_params p = {.k = k, .threads = c->threads};
    cmd_objective obj;
    keps_status rc = cmd_objective_read(c, &obj);
    if (rc)
        return rc;
    p.metric = obj.cfg.metric;
    if (cmd_double(c, "suppress", 0, 1, 0, &p.suppress) < 0)
        return KEPS_EINPUT;
    for (size_t q = 0; q < s->nqi; q++)
        if (!s->qi[q].h)
            return cmd_usage_error(c, "{algorithm} ola needs a hierarchy for every {qi} (NAME:FILE.csv or "
                                      "NAME:interval=...); '%s' has none",
                                   s->t->cols[s->qi[q].col].name);
    ola_state *st = calloc(1, sizeof *st);
    if (!st)
        return cmd_oom(c);
    out->state = st;
    out->s = s;
    st->k = k;
    st->obj = obj;
    out->generalize = ola_generalize;
    out->json = ola_json;
    out->free = ola_free;
    if ((rc = cmd_objective_weights(c, s, &st->obj)))
        return rc;
    if (keps_lattice_new(s, &st->L, &err))
        return cmd_fail(c, &err);
    cmd_note_lattice(c, st->L);
    if (cmd_k_above_records(c, k, s->t->nrows))
        return KEPS_EJOB;
    if (keps_ola_run_objective(st->L, &p, &st->obj.cfg, &st->res, &err))
        return cmd_fail(c, &err);
    cmd_ola_debug(c, &st->res);
    if (!st->res.found)
        return cmd_over_limit(c, "even the top node (every QI fully generalized)", k, st->res.suppress_limit,
                              st->res.top_suppressed, s->t->nrows);
    if (keps_partition_from_node(st->L, st->res.levels, NULL, &out->part, &err))
        return cmd_fail(c, &err);
    return ksrc_rows(out, s, st->res.levels, k) ? cmd_oom(c) : KEPS_OK;
}
