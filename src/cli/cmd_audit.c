/* keps audit: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_audit = {
    "audit",
    "empirical privacy-loss estimate of a mechanism on neighbouring inputs",
    "audit --mechanism laplace|geometric|rr|expmech [options]",
    "Not implemented yet.",
    "keps audit --help",
    opts,
    run,
};
