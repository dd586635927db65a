/* kepsilon --algorithm mondrian: the classes are Mondrian's partitions
 * (include/keps/mondrian.h, keps_partition_from_mondrian); nothing is
 * suppressed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/mondrian.h"
#include "ksrc.h"

static keps_status mondrian_generalize(ksrc *src, keps_table **gen, keps_error *err)
{
    return keps_mondrian_release(src->s, src->state, gen, err);
}

static void mondrian_json(ksrc *src, keps_json *j)
{
    keps_mondrian_result *r = src->state;
    keps_json_object(j, "k_anonymization_metrics");
    keps_json_num(j, "ncp", r->ncp);
    keps_json_num(j, "discernibility", r->discernibility);
    keps_json_end(j);
}

static void mondrian_free(ksrc *src)
{
    keps_mondrian_result_free(src->state);
    free(src->state);
    ksrc_free_classes(src);
}

keps_status ksrc_mondrian(cmd_ctx *c, keps_schema *s, keps_table *t, size_t k, ksrc *out)
{
    keps_error err = {0};
    keps_mondrian_result *r = calloc(1, sizeof *r);
    if (!r)
        return cmd_oom(c);
    out->state = r;
    out->s = s;
    out->generalize = mondrian_generalize;
    out->json = mondrian_json;
    out->free = mondrian_free;
    if (keps_mondrian(s, t, k, r, &err) || keps_partition_from_mondrian(t, r, NULL, &out->part, &err))
        return cmd_fail(c, &err);
    if (!(out->cls = malloc((t->nrows ? t->nrows : 1) * sizeof *out->cls)))
        return cmd_oom(c);
    memcpy(out->cls, out->part.class_of, t->nrows * sizeof *out->cls);
    return KEPS_OK;
}
