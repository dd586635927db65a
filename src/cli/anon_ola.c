/* keps anonymize --algorithm ola (not implemented yet). */
#include <stdio.h>

#include "cli.h"

int cli_anonymize_ola(cli_ctx *c)
{
    fprintf(stderr, "keps %s: --algorithm ola is not implemented yet\n", c->cmd->name);
    return 2;
}
