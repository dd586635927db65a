/* keps privacy rr-epsilon / rr-t / implies (not implemented yet). */
#include <stdio.h>

#include "cli.h"

int cli_privacy_rr_epsilon(cli_ctx *c)
{
    fprintf(stderr, "keps %s: rr-epsilon is not implemented yet\n", c->cmd->name);
    return 2;
}

int cli_privacy_rr_t(cli_ctx *c)
{
    fprintf(stderr, "keps %s: rr-t is not implemented yet\n", c->cmd->name);
    return 2;
}

int cli_privacy_implies(cli_ctx *c)
{
    fprintf(stderr, "keps %s: implies is not implemented yet\n", c->cmd->name);
    return 2;
}
