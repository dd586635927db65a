/* kepsilon --algorithm given: the input is already k-anonymous on the --qi
 * columns (e.g. the output of keps anonymize); rows with equal QI values
 * form a class (keps_partition_from_columns), and classes smaller than k
 * are suppressed. */
#include <stdio.h>
#include <stdlib.h>

#include "partition_internal.h"
#include "ksrc.h"

static void given_json(ksrc *src, keps_json *j)
{
    (void)src;
    (void)j;
}

void ksrc_free_classes(ksrc *src)
{
    keps_partition_free(&src->part);
    free(src->cls);
    src->cls = NULL;
}

int ksrc_rows(ksrc *src, const keps_schema *s, const int *levels, size_t k)
{
    keps_partition *p = &src->part;
    size_t nc = p->nclasses, q = s->nqi, n = p->nrows;
    if (k && keps_partition_enforce(p, NULL, k, NULL, NULL))
        return -1;
    uint32_t *keys = malloc((nc * q + 1) * sizeof *keys), *rank = malloc((nc + 1) * sizeof *rank);
    src->cls = malloc((n ? n : 1) * sizeof *src->cls);
    int rc = -1;
    if (keys && rank && src->cls) {
        for (size_t a = 0; a < q; a++)
            for (size_t c = 0; c < nc; c++) {
                uint32_t code = s->t->cols[s->qi[a].col].codes[p->first_row[c]];
                keys[a * nc + c] = levels ? s->qi[a].map[levels[a]][code] : code;
            }
        if (keps_classes_from_keys(keys, nc, q, NULL, rank) != (size_t)-1) {
            for (size_t r = 0; r < n; r++) {
                uint32_t c = p->class_of[r];
                src->cls[r] = c == KEPS_NONE || p->suppressed[c] ? KEPS_NONE : rank[c];
            }
            src->suppressed = p->suppressed_rows;
            rc = 0;
        }
    }
    free(keys);
    free(rank);
    return rc;
}

keps_status ksrc_given(cmd_ctx *c, const keps_schema *s, size_t k, ksrc *out)
{
    const keps_table *t = s->t;
    size_t n = t->nrows, q = s->nqi;
    size_t *cols = malloc((q + 1) * sizeof *cols);
    out->free = ksrc_free_classes; /* from here on the caller frees the classes, on every path */
    if (!cols)
        return cmd_oom(c);
    for (size_t a = 0; a < q; a++)
        cols[a] = s->qi[a].col;
    keps_error err = {0};
    keps_status st = keps_partition_from_columns(t, cols, q, NULL, NULL, &out->part, &err);
    free(cols);
    if (st)
        return cmd_fail(c, &err);
    if (ksrc_rows(out, s, NULL, k))
        return cmd_oom(c);
    /* The same limit as OLA's: at most floor(suppress * n) rows. */
    double frac;
    if (cmd_double(c, "suppress", 0, 1, 0, &frac) < 0)
        return KEPS_EINPUT;
    size_t limit = (size_t)(frac * (double)n + 1e-9);
    if (out->suppressed > limit)
        return cmd_over_limit(c, "grouping by the input's own QI values", k, limit, out->suppressed, n);
    out->generalize = NULL; /* the input's QI values are released as they stand */
    out->json = given_json;
    out->s = s;
    return KEPS_OK;
}
