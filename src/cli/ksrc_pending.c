/* TEMPORARY: the OLA class source waits for the ola branch (ksrc_ola.c
 * replaces this file on merge). */
#include <stdio.h>

#include "ksrc.h"

int ksrc_ola(cli_ctx *c, const keps_schema *s, size_t k, ksrc *out)
{
    (void)s, (void)k, (void)out;
    fprintf(stderr, "keps %s: --algorithm ola is not available in this build yet\n", c->cmd->name);
    return 2;
}
