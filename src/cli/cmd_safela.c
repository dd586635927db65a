/* keps safela: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_safela = {
    "safela",
    "epsilon-safe lattice anonymization: sampling + exponential mechanism",
    "safela -i FILE -o FILE --qi ... -k K --beta B --epsilon-prime E1 [options]",
    "Not implemented yet.",
    "keps safela --help",
    opts,
    run,
};
