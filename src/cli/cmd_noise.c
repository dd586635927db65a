/* keps noise: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_noise = {
    "noise",
    "print independent noisy releases of a value (Laplace, geometric)",
    "noise --mechanism laplace|geometric --epsilon E --sensitivity S --value V -n COUNT",
    "Not implemented yet.",
    "keps noise --help",
    opts,
    run,
};
