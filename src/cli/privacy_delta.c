/* keps privacy delta / min-k (not implemented yet). */
#include <stdio.h>

#include "cli.h"

int cli_privacy_delta(cli_ctx *c)
{
    fprintf(stderr, "keps %s: delta is not implemented yet\n", c->cmd->name);
    return 2;
}

int cli_privacy_min_k(cli_ctx *c)
{
    fprintf(stderr, "keps %s: min-k is not implemented yet\n", c->cmd->name);
    return 2;
}
