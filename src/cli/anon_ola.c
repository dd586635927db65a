/* keps anonymize --algorithm ola: optimal full-domain generalization with
 * suppression (library: keps/lattice.h, keps/ola.h, keps/metrics.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keps/ola.h"

typedef struct ola_run {
    size_t k;
    double suppress;
    cli_objective obj;
    double t_start, t_loaded, t_searched, t_written;
} ola_run;

static int read_params(cli_ctx *c, ola_run *p)
{
    long k;
    if (cli_k(c, 1, 2, &k) < 0)
        return 2;
    p->k = (size_t)k;
    if (cli_double(c, "suppress", 0, 1, 0, &p->suppress) < 0)
        return 2;
    return cli_objective_read(c, &p->obj);
}

static void report(cli_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const keps_ola_result *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    cli_report_begin(c, j, "ola");
    cli_report_counts(j, n);
    keps_json_object(j, "guarantee");
    keps_json_str(j, "model", "k-anonymity");
    keps_json_int(j, "k", (long long)p->k);
    keps_json_num(j, "suppression_limit", p->suppress);
    keps_json_int(j, "suppression_limit_rows", (long long)r->suppress_limit);
    keps_json_end(j);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < L->q; i++)
        keps_json_int(j, s->t->cols[s->qi[i].col].name, r->levels[i]);
    keps_json_end(j);
    keps_json_object(j, "heights");
    for (size_t i = 0; i < L->q; i++)
        keps_json_int(j, s->t->cols[s->qi[i].col].name, L->height[i]);
    keps_json_end(j);
    keps_json_str(j, "metric", keps_metric_name(p->obj.cfg.metric));
    cli_objective_json(j, s, &p->obj, r->score, r->score_len, r->attributes);
    keps_json_object(j, "metrics");
    for (int m = 0; m < KEPS_METRIC_COUNT; m++)
        keps_json_num(j, keps_metric_name((keps_metric)m), r->metrics.v[m]);
    keps_json_end(j);
    keps_json_int(j, "classes", (long long)r->nclasses);
    keps_json_int(j, "nodes_total", (long long)r->nodes_total);
    keps_json_int(j, "nodes_evaluated", (long long)r->nodes_evaluated);
    keps_json_int(j, "k_minimal_nodes", (long long)r->nminimal);
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", p->t_written - p->t_start);
    keps_json_num(j, "load", p->t_loaded - p->t_start);
    keps_json_num(j, "search", p->t_searched - p->t_loaded);
    keps_json_num(j, "write", p->t_written - p->t_searched);
    keps_json_end(j);
    keps_json_end(j);
}

static int summary(cli_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const keps_ola_result *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    /* 512 holds the fixed text; " NAME=L/H" needs the name's length plus
     * two ints (a QI name can be 255 characters: a flat 80 per QI overran),
     * a rank score a number per QI */
    size_t len = 512 + (size_t)cli_objective_text(NULL, 0, &p->obj, r->score, r->score_len) + 1, o = 0;
    for (size_t i = 0; i < L->q; i++)
        len += strlen(s->t->cols[s->qi[i].col].name) + 32;
    char *text = malloc(len);
    if (!text)
        return cli_emit_report(c, j, NULL);
    o += (size_t)snprintf(text + o, len - o, "ola: %zu-anonymous node", p->k);
    for (size_t i = 0; i < L->q; i++)
        o += (size_t)snprintf(text + o, len - o, " %s=%d/%d", s->t->cols[s->qi[i].col].name, r->levels[i],
                              L->height[i]);
    o += (size_t)snprintf(text + o, len - o, "\n  %zu of %zu rows suppressed (limit %zu)%s; %zu classes\n  ",
                          n->suppressed_rows, n->input_rows, r->suppress_limit, n->removed_rows ? ", removed" : "",
                          r->nclasses);
    o += (size_t)cli_objective_text(text + o, len - o, &p->obj, r->score, r->score_len);
    o += (size_t)snprintf(text + o, len - o,
                          "\n  (prec %.6g, loss %.6g, discernibility %.6g, aecs %.6g, entropy %.6g, height %.6g)\n"
                          "  %llu of %llu nodes evaluated, %zu k-minimal\n",
                          r->metrics.v[KEPS_METRIC_PREC], r->metrics.v[KEPS_METRIC_LOSS],
                          r->metrics.v[KEPS_METRIC_DM], r->metrics.v[KEPS_METRIC_AECS],
                          r->metrics.v[KEPS_METRIC_ENTROPY], r->metrics.v[KEPS_METRIC_HEIGHT],
                          (unsigned long long)r->nodes_evaluated, (unsigned long long)r->nodes_total, r->nminimal);
    int rc = cli_emit_report(c, j, text);
    free(text);
    return rc;
}

static int search_and_write(cli_ctx *c, const keps_lattice *L, ola_run *p)
{
    keps_error err = {0};
    keps_ola_params prm = {p->k, p->suppress, p->obj.cfg.metric, 0};
    keps_ola_result r;
    if (keps_ola_run_objective(L, &prm, &p->obj.cfg, &r, &err))
        return cli_fail(c, &err);
    if (!r.found) {
        int rc = cli_over_limit(c, "even the top node (every QI fully generalized)", p->k, r.suppress_limit,
                                r.top_suppressed, L->nrows);
        keps_ola_result_free(&r);
        return rc;
    }
    p->t_searched = cli_now_ms();
    keps_table *rel = NULL;
    keps_counts n;
    int rc = 0;
    if (keps_ola_apply(L, r.levels, p->k, cli_flag(c, "remove-suppressed"), &rel, &n, &err))
        rc = cli_fail(c, &err);
    if (!rc)
        rc = cli_write_release(c, rel);
    keps_table_free(rel);
    if (!rc) {
        p->t_written = cli_now_ms();
        keps_json j;
        report(c, &j, L, p, &r, &n);
        rc = summary(c, &j, L, p, &r, &n);
        keps_json_free(&j);
    }
    keps_ola_result_free(&r);
    return rc;
}

int cli_anonymize_ola(cli_ctx *c)
{
    ola_run p;
    memset(&p, 0, sizeof p);
    p.t_start = cli_now_ms();
    int rc = read_params(c, &p);
    if (rc)
        return rc;
    keps_table *t = NULL;
    keps_schema *s = NULL;
    if ((rc = cli_load_records(c, &t)))
        return rc;
    if ((rc = cli_build_schema(c, t, &s))) {
        keps_table_free(t);
        return rc;
    }
    keps_lattice *L = NULL;
    keps_error err = {0};
    if (s->nqi == 0)
        rc = cli_usage_error(c, "ola needs at least one --qi NAME:HIERARCHY.csv (or NAME:interval=W1,W2,...)");
    else
        rc = cli_objective_weights(c, s, &p.obj);
    if (!rc && keps_lattice_new(s, &L, &err))
        rc = cli_fail(c, &err);
    else if (!rc) {
        p.t_loaded = cli_now_ms();
        cli_note_lattice(c, L);
        rc = search_and_write(c, L, &p);
    }
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    cli_objective_free(&p.obj);
    return rc;
}
