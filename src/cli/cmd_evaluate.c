/* keps evaluate: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_evaluate = {
    "evaluate",
    "information loss and classifier accuracy of a release",
    "evaluate --original FILE --release FILE [--target COL --test FILE] [options]",
    "Not implemented yet.",
    "keps evaluate --help",
    opts,
    run,
};
