/* keps sweep: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_sweep = {
    "sweep",
    "run the papers' experiments and write CSV tables",
    "sweep EXPERIMENT [options]",
    "Not implemented yet.",
    "keps sweep --help",
    opts,
    run,
};
