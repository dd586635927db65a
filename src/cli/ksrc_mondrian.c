/* kepsilon --algorithm mondrian: the classes are Mondrian's partitions
 * (include/keps/mondrian.h); nothing is suppressed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/mondrian.h"
#include "ksrc.h"

const char *mondrian_row_label(const keps_schema *s, const keps_mondrian_result *r, size_t cls, size_t q, char *buf,
                               label_bufs *lb)
{
    int need = keps_mondrian_label(s, r, cls, q, buf, 256);
    if (need < 256)
        return buf;
    if (q >= lb->n) { /* one buffer per QI: a row's labels must coexist */
        char **big = realloc(lb->big, (q + 1) * sizeof *big);
        size_t *cap = big ? realloc(lb->cap, (q + 1) * sizeof *cap) : NULL;
        if (big)
            lb->big = big;
        if (!cap)
            return buf; /* out of memory: truncated, never NULL (a NULL cell is the input's value) */
        lb->cap = cap;
        for (size_t i = lb->n; i <= q; i++) {
            lb->big[i] = NULL;
            lb->cap[i] = 0;
        }
        lb->n = q + 1;
    }
    if (lb->cap[q] <= (size_t)need) {
        char *p = realloc(lb->big[q], (size_t)need + 1);
        if (!p)
            return buf;
        lb->big[q] = p;
        lb->cap[q] = (size_t)need + 1;
    }
    keps_mondrian_label(s, r, cls, q, lb->big[q], lb->cap[q]);
    return lb->big[q];
}

void label_bufs_free(label_bufs *lb)
{
    for (size_t i = 0; i < lb->n; i++)
        free(lb->big[i]);
    free(lb->big);
    free(lb->cap);
    memset(lb, 0, sizeof *lb);
}

typedef struct mondrian_state {
    keps_mondrian_result r;
    label_bufs lb;
} mondrian_state;

static const char *mondrian_label(ksrc *src, size_t row, size_t q, char *buf)
{
    mondrian_state *m = src->state;
    return mondrian_row_label(src->s, &m->r, m->r.cls[row], q, buf, &m->lb);
}

static void mondrian_json(ksrc *src, keps_json *j)
{
    keps_mondrian_result *r = &((mondrian_state *)src->state)->r;
    keps_json_object(j, "k_anonymization_metrics");
    keps_json_num(j, "ncp", r->ncp);
    keps_json_num(j, "discernibility", r->discernibility);
    keps_json_end(j);
}

static void mondrian_free(ksrc *src)
{
    mondrian_state *m = src->state;
    keps_mondrian_result_free(&m->r);
    label_bufs_free(&m->lb);
    free(m);
    free(src->cls);
}

int ksrc_mondrian(cli_ctx *c, keps_schema *s, keps_table *t, size_t k, ksrc *out)
{
    keps_error err = {0};
    mondrian_state *m = calloc(1, sizeof *m);
    keps_mondrian_result *r = m ? &m->r : NULL;
    out->cls = malloc((t->nrows ? t->nrows : 1) * sizeof *out->cls);
    if (!m || !out->cls) {
        free(m);
        fprintf(stderr, "keps %s: out of memory\n", c->cmd->name);
        return 2;
    }
    out->state = m;
    out->s = s;
    out->label = mondrian_label;
    out->json = mondrian_json;
    out->free = mondrian_free;
    if (keps_mondrian(s, t, k, r, &err))
        return cli_fail(c, &err);
    memcpy(out->cls, r->cls, t->nrows * sizeof *out->cls);
    return 0;
}
