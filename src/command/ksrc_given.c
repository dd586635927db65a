/* kepsilon --algorithm given: the input is already k-anonymous on the --qi
 * columns (e.g. the output of keps anonymize); rows with equal QI values
 * form a class, and classes smaller than k are suppressed. */
#include <stdio.h>
#include <stdlib.h>

#include "keps/kepsilon.h"
#include "ksrc.h"

static void given_json(ksrc *src, keps_json *j)
{
    (void)src;
    (void)j;
}

static void given_free(ksrc *src)
{
    free(src->cls);
}

/* Marks rows of classes smaller than k as suppressed; returns how many. */
static size_t drop_small(uint32_t *cls, size_t n, size_t nc, size_t k)
{
    uint32_t *size = calloc(nc ? nc : 1, sizeof *size);
    size_t sup = 0;
    if (!size)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (cls[i] != KEPS_NONE)
            size[cls[i]]++;
    for (size_t i = 0; i < n; i++)
        if (cls[i] != KEPS_NONE && size[cls[i]] < k) {
            cls[i] = KEPS_NONE;
            sup++;
        }
    free(size);
    return sup;
}

keps_status ksrc_given(cmd_ctx *c, const keps_schema *s, size_t k, ksrc *out)
{
    const keps_table *t = s->t;
    size_t n = t->nrows, q = s->nqi;
    uint32_t *keys = malloc((n * q > 0 ? n * q : 1) * sizeof *keys);
    out->cls = malloc((n ? n : 1) * sizeof *out->cls);
    out->free = given_free; /* from here on the caller frees cls, on every path */
    if (!keys || !out->cls) {
        free(keys);
        return cmd_oom(c);
    }
    for (size_t a = 0; a < q; a++)
        for (size_t i = 0; i < n; i++)
            keys[a * n + i] = t->cols[s->qi[a].col].codes[i];
    size_t nc = keps_classes_from_keys(keys, n, q, NULL, out->cls);
    free(keys);
    size_t sup = nc == (size_t)-1 ? (size_t)-1 : drop_small(out->cls, n, nc, k);
    if (sup == (size_t)-1) {
        return cmd_oom(c);
    }
    /* The same limit as OLA's: at most floor(suppress * n) rows. */
    double frac;
    if (cmd_double(c, "suppress", 0, 1, 0, &frac) < 0)
        return KEPS_EINPUT;
    size_t limit = (size_t)(frac * (double)n + 1e-9);
    if (sup > limit)
        return cmd_over_limit(c, "grouping by the input's own QI values", k, limit, sup, n);
    out->suppressed = sup;
    out->generalize = NULL; /* the input's QI values are released as they stand */
    out->json = given_json;
    out->s = s;
    return KEPS_OK;
}
