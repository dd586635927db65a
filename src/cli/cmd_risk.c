/* keps risk: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_risk = {
    "risk",
    "re-identification and record-linkage risk of a release",
    "risk --original FILE --release FILE [options]",
    "Not implemented yet.",
    "keps risk --help",
    opts,
    run,
};
