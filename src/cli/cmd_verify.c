/* keps verify: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_verify = {
    "verify",
    "check a released CSV for k-anonymity, l-diversity and t-closeness",
    "verify -i FILE --qi NAME ... [-k K] [--l-diversity L] [--t-closeness T] [options]",
    "Not implemented yet.",
    "keps verify --help",
    opts,
    run,
};
