/* keps anonymize --algorithm mdav (not implemented yet). */
#include <stdio.h>

#include "cli.h"

int cli_anonymize_mdav(cli_ctx *c)
{
    fprintf(stderr, "keps %s: --algorithm mdav is not implemented yet\n", c->cmd->name);
    return 2;
}
