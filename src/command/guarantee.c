/* One way for every command to say on stderr what its guarantee rests on
 * (docs/cli.md, "Guarantee labels"): which of its parameters were read
 * from the data, and which released columns it does not cover. */
#include "guarantee.h"

#include <stdio.h>
#include <stdlib.h>

/* Reports are the same whatever the front-end (the bindings' tests compare
 * them with the CLI's): a parameter is named as the catalog names it
 * ("qi", "subset"), never in one front-end's spelling. */
const char *cmd_report_spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    snprintf(buf, len, "%s", name);
    return buf;
}

int cmd_guarantee_spell(const cmd_ctx *c, keps_guarantee *g)
{
    keps_guarantee_spell(g, cmd_report_spell, NULL);
    return g->oom ? cmd_oom(c) : 0;
}

void cmd_dd_warn(const cmd_ctx *c, const keps_guarantee *g)
{
    for (size_t i = 0; g->dp && i < g->ndd; i++) /* weakens the guarantee: printed even with --quiet */
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: read from the data, not public: %s. The %s guarantee needs its parameters fixed "
                "before the data is seen; the report states \"%s (data-dependent)\" (docs/spec.md, \"What must be "
                "public\")", g->data_dependent[i], g->model, g->model);
}

size_t cmd_uncovered_warn(const cmd_ctx *c, const keps_guarantee *g, const char *covered)
{
    if (!g->nnc)
        return 0;
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    if (!f)
        return g->nnc;
    for (size_t i = 0; i < g->nnc; i++)
        fprintf(f, "%s%s", i ? ", " : "", g->not_covered[i]);
    char *cv = keps_render(covered, c->host->spell, c->host->ud); /* covered holds {name} markup */
    if (fclose(f) == 0)
        cmd_msg(c, KEPS_MSG_PRIVACY,
                "warning: column(s) %s %s outside the guarantee, which covers %s (give them no role and {others} drop "
                "if they must be protected)",
                list, g->nnc == 1 ? "is released" : "are released", cv ? cv : covered);
    free(list);
    free(cv);
    return g->nnc;
}
