/* keps privacy: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_privacy = {
    "privacy",
    "privacy calculators: delta, min-k, rr-epsilon, rr-t, implies",
    "privacy delta|min-k|rr-epsilon|rr-t|implies [options]",
    "Not implemented yet.",
    "keps privacy --help",
    opts,
    run,
};
