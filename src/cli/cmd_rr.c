/* keps rr: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_rr = {
    "rr",
    "randomized response on a nominal sensitive column (epsilon-LDP and t-closeness)",
    "rr --mechanism ldp|tclose|both -i FILE -o FILE --sensitive NAME -p P [options]",
    "Not implemented yet.",
    "keps rr --help",
    opts,
    run,
};
