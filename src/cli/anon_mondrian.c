/* keps anonymize --algorithm mondrian (not implemented yet). */
#include <stdio.h>

#include "cli.h"

int cli_anonymize_mondrian(cli_ctx *c)
{
    fprintf(stderr, "keps %s: --algorithm mondrian is not implemented yet\n", c->cmd->name);
    return 2;
}
