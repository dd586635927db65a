/* One way for every DP command to say what its guarantee rests on
 * (docs/cli.md, "Guarantee labels"): which of its parameters were read
 * from the data, and which released columns it does not cover. */
#include "guarantee.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cmd_dd_add(cmd_dd *d, const char *fmt, ...)
{
    if (d->n == sizeof d->item / sizeof *d->item)
        return;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!s)
        return;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)len + 1, fmt, ap);
    va_end(ap);
    d->item[d->n++] = s;
}

void cmd_dd_add_columns(cmd_dd *d, const char *what, const keps_table *t, int (*pick)(const void *, size_t),
                        const void *ctx)
{
    size_t len = strlen(what) + 3;
    for (size_t j = 0; j < t->ncols; j++)
        if (pick(ctx, j))
            len += strlen(t->cols[j].name) + 2;
    char *s = malloc(len);
    if (!s)
        return;
    size_t at = (size_t)snprintf(s, len, "%s: ", what), k = 0;
    for (size_t j = 0; j < t->ncols; j++)
        if (pick(ctx, j))
            at += (size_t)snprintf(s + at, len - at, "%s%s", k++ ? ", " : "", t->cols[j].name);
    cmd_dd_add(d, "%s", s);
    free(s);
}

void cmd_dd_free(cmd_dd *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->item[i]);
    d->n = 0;
}

const char *cmd_dd_model(const cmd_dd *d, const char *plain)
{
    static _Thread_local char buf[128]; /* one per thread: hosts may run commands on several */
    if (!d->n)
        return plain;
    snprintf(buf, sizeof buf, "%s (data-dependent)", plain);
    return buf;
}

void cmd_dd_json(keps_json *j, const cmd_dd *d)
{
    keps_json_array(j, "data_dependent");
    for (size_t i = 0; i < d->n; i++)
        keps_json_str(j, NULL, d->item[i]);
    keps_json_end(j);
}

void cmd_dd_warn(const cmd_ctx *c, const cmd_dd *d, const char *plain)
{
    for (size_t i = 0; i < d->n; i++) /* weakens the guarantee: printed even with --quiet */
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: read from the data, not public: %s. The %s guarantee needs its parameters fixed "
                "before the data is seen; the report states \"%s (data-dependent)\" (docs/spec.md, \"What must be "
                "public\")", d->item[i], plain, plain);
}

void cmd_uncovered_json(keps_json *j, const keps_table *t, int (*pick)(const void *, size_t), const void *ctx)
{
    keps_json_array(j, "not_covered");
    for (size_t c = 0; c < t->ncols; c++)
        if (pick(ctx, c))
            keps_json_str(j, NULL, t->cols[c].name);
    keps_json_end(j);
}

size_t cmd_uncovered_warn(const cmd_ctx *c, const keps_table *t, int (*pick)(const void *, size_t), const void *ctx,
                          const char *covered)
{
    size_t n = cmd_print_columns(NULL, t, pick, ctx);
    if (!n)
        return 0;
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    if (!f)
        return n;
    cmd_print_columns(f, t, pick, ctx);
    char *cv = keps_render(covered, c->host->spell, c->host->ud); /* covered holds {name} markup */
    if (fclose(f) == 0)
        cmd_msg(c, KEPS_MSG_PRIVACY,
                "warning: column(s) %s %s outside the guarantee, which covers %s (give them no role and {others} drop "
                "if they must be protected)",
                list, n == 1 ? "is released" : "are released", cv ? cv : covered);
    free(list);
    free(cv);
    return n;
}
