/* keps kepsilon: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_kepsilon = {
    "kepsilon",
    "(k,epsilon)-anonymity: k-anonymize, then Laplace noise per class on --noisy columns",
    "kepsilon --algorithm ola|mondrian -i FILE -o FILE --qi ... --noisy NAME -k K --epsilon E [options]",
    "Not implemented yet.",
    "keps kepsilon --help",
    opts,
    run,
};
