/* TEMPORARY: OLA and Mondrian class sources wait for the ola and micro
 * branches (ksrc_ola.c / ksrc_mondrian.c replace this file on merge). */
#include <stdio.h>

#include "ksrc.h"

int ksrc_ola(cli_ctx *c, const keps_schema *s, size_t k, ksrc *out)
{
    (void)s, (void)k, (void)out;
    fprintf(stderr, "keps %s: --algorithm ola is not available in this build yet\n", c->cmd->name);
    return 2;
}

int ksrc_mondrian(cli_ctx *c, keps_schema *s, keps_table *t, size_t k, ksrc *out)
{
    (void)s, (void)t, (void)k, (void)out;
    fprintf(stderr, "keps %s: --algorithm mondrian is not available in this build yet\n", c->cmd->name);
    return 2;
}
